"""``regkit --version``: the installed distribution's version, as the wheel's metadata has it."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from regkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_option_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"regkit {importlib.metadata.version('regkit')}\n"


def test_installed_version_is_the_one_regkit_defines():
    # pyproject.toml reads the version from regkit.__version__ (defined once), as setuptools' attr: does
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic\s*=\s*\["version"\]', pyproject, re.M)
    assert re.search(r'^version\s*=\s*\{\s*attr\s*=\s*"regkit.__version__"\s*\}', pyproject, re.M)
    import regkit

    assert importlib.metadata.version("regkit") == regkit.__version__, "reinstall: pip install -e ."


@pytest.mark.slow
def test_the_regkit_command_prints_it():
    command = Path(sys.executable).parent / "regkit"
    assert command.is_file(), f"no regkit command beside {sys.executable}; install with pip install -e ."
    result = subprocess.run([str(command), "--version"], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == f"regkit {importlib.metadata.version('regkit')}"


def test_without_an_installation_it_says_so(tmp_path):
    # A copy of the package on sys.path and no site-packages (-S): no distribution metadata to read.
    shutil.copytree(ROOT / "regkit", tmp_path / "regkit", ignore=shutil.ignore_patterns("__pycache__"))
    result = subprocess.run(
        [sys.executable, "-S", "-c", "import regkit.cli; print(regkit.cli.version_text())"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=True,
    )
    assert result.stdout.strip() == "regkit (version unknown: not installed; run `pip install -e .` in the checkout)"


@pytest.mark.parametrize("argv", [["--version", "extra"], ["--version", "credits"], ["--version", "company", "x"]])
def test_version_with_anything_after_it_is_a_usage_error(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == ""
    assert err.startswith("usage: regkit ") and "regkit: error: " in err


def test_the_regkit_command_refuses_version_with_more():
    command = Path(sys.executable).parent / "regkit"
    result = subprocess.run([str(command), "--version", "extra"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert "usage: regkit" in result.stderr and "invalid choice: 'extra'" in result.stderr
