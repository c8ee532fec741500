"""``regkit world`` as a person meets it: ``regkit --help`` says it builds and imports worlds, and
``regkit world import offeneregister FILE`` without ``--out`` says where it writes before it starts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from offeneregister_support import import_command, sample_path

from regkit.cli import main


def test_help_says_world_builds_and_imports(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    line = " ".join(next(part for part in capsys.readouterr().out.split("\n    ") if part.startswith("world")).split())
    assert "build a synthetic register world" in line and "import real register data" in line


def test_import_without_out_says_where_it_writes_first(tmp_path: Path) -> None:
    where = tmp_path / "offeneregister-world"
    done = subprocess.run(
        import_command(str(sample_path()), "--limit", "50"), capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    first = done.stderr.splitlines()[0]
    assert first == f"regkit world import offeneregister: no --out given: writing the world to {where}"
    assert (where / "import-report.json").is_file() and str(where) in done.stdout


def test_import_with_out_says_nothing_about_it(tmp_path: Path) -> None:
    command = import_command(str(sample_path()), "--limit", "50", "--out", str(tmp_path / "chosen"))
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0 and "no --out given" not in done.stderr
    assert (tmp_path / "chosen" / "import-report.json").is_file() and not (tmp_path / "offeneregister-world").exists()
