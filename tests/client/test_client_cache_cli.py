"""``regkit`` commands on a cache that is damaged, mistyped or asked for the impossible, run as a user runs them (the
console script, in its own process): one line on stderr, exit 2 for misuse, 1 for a failure, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serve_support import regkit_command

pytestmark = pytest.mark.slow


def _regkit(*argv: str, **env: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [*regkit_command(), *argv], capture_output=True, text=True, timeout=120, env={**os.environ, **env}
    )
    return done.returncode, done.stdout, done.stderr


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line and not line.startswith("regkit: using the bundled")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """A file named like a cache that is not a database at all."""
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"not a database, only its name " * 200)
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ("cache", "info"),
        ("cache", "clear"),
        ("cache", "check"),
        ("company", "DE-HRB-B1234-1"),
        ("export", "parquet", "out"),
    ],
)
def test_a_damaged_cache_is_one_line_and_says_how_to_fix_it(
    damaged: Path, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    status, _, err = _regkit(*argv, REGKIT_CACHE=str(damaged))
    line = _one_line(err)
    assert status == 1 and str(damaged) in line and "cannot be opened" in line and "regkit cache repair" in line


def test_repair_puts_an_empty_cache_in_place_of_one_that_cannot_be_read(damaged: Path) -> None:
    status, out, err = _regkit("cache", "repair", "--cache", str(damaged))
    assert status == 0 and not err and "kept 0 answer(s)" in out and ".damaged-" in out
    status, out, _ = _regkit("cache", "check", "--cache", str(damaged))
    assert status == 0 and out.splitlines()[-1] == "ok"
    assert len(list(damaged.parent.glob("cache.sqlite.damaged-*"))) == 1


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("cache", "info", "--cache", "htps://cache.example/team"), "scheme 'htps', which regkit does not know"),
        (("cache", "info", "--cache", "/no/such/dir/cache.sqlite"), "(a mistyped path?)"),
        (("cache", "clear", "--older-than", "1000000000d"), "longer than any cache can be old"),
        (("cache", "clear", "--older-than", "99999999999999999999999w"), "longer than any cache can be old"),
        (("cache", "repair", "--cache", "redis://:pw@127.0.0.1:9/0"), "repair is for a SQLite cache file"),
    ],
)
def test_misuse_is_exit_2_and_one_line(argv: tuple[str, ...], fragment: str, tmp_path: Any) -> None:
    status, _, err = _regkit(*argv)
    assert status == 2 and fragment in err and "Traceback" not in err and "pw@" not in err
    assert not list(Path.cwd().glob("htps*")) and not Path("/no").exists()  # nothing was created
