"""What the wheel carries, and where regkit finds the bundled world in a wheel, a checkout or REGKIT_DATA_DIR.

The wheel itself is built, installed into a fresh environment and used from outside the checkout by
``.ci/wheel-smoke.sh`` in CI; these tests check the packaging configuration and the locating code.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from regkit.cli import main
from regkit.local.world import default_data_dir, read_world
from regkit.local.world.store import bundled_data_dirs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def setuptools_config() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_under_regkit_is_packaged(setuptools_config):
    packaged = set(setuptools_config["packages"])
    on_disk = {"regkit"} | {
        ".".join(d.relative_to(ROOT).parts)
        for d in (ROOT / "regkit").rglob("*")
        if d.is_dir() and "__pycache__" not in d.parts and any(d.glob("*.py"))
    }
    assert not on_disk - packaged, f"add {sorted(on_disk - packaged)} to [tool.setuptools] packages in pyproject.toml"


def test_every_file_of_data_ships_as_package_data(setuptools_config):
    assert setuptools_config["package-dir"] == {"regkit._data": "data"}
    packages, globs = set(setuptools_config["packages"]), setuptools_config["package-data"]
    files = [
        p
        for p in (ROOT / "data").rglob("*")
        if p.is_file() and not p.name.startswith(".") and "__pycache__" not in p.parts
    ]
    assert any(p.name == "world.json" for p in files) and any(p.suffix == ".csv" for p in files)
    unshipped = []
    for path in files:
        relative = path.relative_to(ROOT / "data")
        package = ".".join(("regkit", "_data", *relative.parent.parts))
        if package not in packages or not any(fnmatch.fnmatch(path.name, g) for g in globs.get(package, [])):
            unshipped.append(str(relative))
    assert not unshipped, f"data/ files the wheel would not carry: {unshipped} (see package-data in pyproject.toml)"


def test_a_checkout_uses_its_data_directory(monkeypatch):
    monkeypatch.delenv("REGKIT_DATA_DIR", raising=False)
    assert bundled_data_dirs() == (ROOT / "regkit" / "_data", ROOT / "data")
    assert default_data_dir() == ROOT / "data"
    assert (default_data_dir() / "world.json").is_file() and (default_data_dir() / "reference").is_dir()


def test_regkit_data_dir_wins_and_is_read_at_call_time(tmp_path, monkeypatch):
    monkeypatch.setenv("REGKIT_DATA_DIR", str(tmp_path))
    assert default_data_dir() == tmp_path
    monkeypatch.setenv("REGKIT_DATA_DIR", str(tmp_path / "other"))
    assert default_data_dir() == tmp_path / "other"


def _default_data_dir_in(site: Path) -> str:
    """``default_data_dir()`` of a copy of the package at ``site/regkit`` (not the checkout's)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import regkit; from regkit.local.world import default_data_dir;"
        " assert regkit.__file__.startswith(sys.argv[1]), regkit.__file__; print(default_data_dir())"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code, str(site)], capture_output=True, text=True, timeout=120, check=True
    )
    return result.stdout.strip()


def test_an_installed_package_uses_its_own_data_first(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "regkit", site / "regkit", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "regkit" / "_data").mkdir()
    (site / "data").mkdir()
    assert _default_data_dir_in(site) == str(site / "regkit" / "_data")
    (site / "regkit" / "_data").rmdir()
    assert _default_data_dir_in(site) == str(site / "data")


def test_a_missing_bundled_world_says_to_reinstall(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "regkit", site / "regkit", ignore=shutil.ignore_patterns("__pycache__"))
    code = "import sys; sys.path.insert(0, sys.argv[1]); from regkit.local.world import read_world; read_world()"
    result = subprocess.run([sys.executable, "-I", "-c", code, str(site)], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "The world bundled with regkit is missing" in result.stderr
    assert "pip install --force-reinstall regkit-<version>-py3-none-any.whl" in result.stderr


def test_a_regkit_data_dir_without_a_world_says_what_works_and_it_does(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("REGKIT_DATA_DIR", str(empty))
    with pytest.raises(FileNotFoundError, match="REGKIT_DATA_DIR points at .*Unset it .*regkit world build"):
        read_world()
    assert main(["serve", "--port", "0", "--state", str(tmp_path / "state.sqlite")]) != 0
    err = capsys.readouterr().err
    assert err.startswith("regkit serve: REGKIT_DATA_DIR points at") and "Traceback" not in err

    # Its advice: point it at a world `regkit world build` made.
    monkeypatch.delenv("REGKIT_DATA_DIR")
    assert main(["world", "build", "--companies", "50", "--seed", "3", "--out", str(tmp_path / "world")]) == 0
    monkeypatch.setenv("REGKIT_DATA_DIR", str(tmp_path / "world"))
    assert len(read_world().companies) == 50


def test_a_directory_that_is_no_world_names_the_build_command(tmp_path):
    with pytest.raises(FileNotFoundError, match=re.escape(f"{tmp_path} is not a regkit world (missing world.json")):
        read_world(tmp_path)


def test_an_empty_reference_directory_names_the_bundled_reference_lists(tmp_path, capsys):
    (tmp_path / "empty").mkdir()

    def build(reference: str) -> int:
        return main(
            [
                "world",
                "build",
                "--companies",
                "50",
                "--seed",
                "3",
                "--out",
                str(tmp_path / "b"),
                "--reference",
                reference,
            ]
        )

    assert build(str(tmp_path / "empty")) == 1
    err = capsys.readouterr().err
    advice = re.search(r"Pass `--reference (\S+)`", err)
    assert advice and "holds no reference lists" in err, err
    assert Path(advice.group(1)) == ROOT / "data" / "reference"
    assert build(advice.group(1)) == 0
