"""Real filesystems for the fault tests: a tiny ``tmpfs`` (a full disk) and read-only remounts.

:func:`tmpfs` mounts a tmpfs of a given size on a test's directory and unmounts it afterwards;
:func:`remount` switches it between read-only and writable while files on it are open — as a disk that fails
under a running kernel does.  Both need root and a kernel that lets this process mount (CI runs as root on such a
machine).  Without that the test is skipped — but fails when ``CI=true``: in CI the fault tests must run.  Import
as ``from fs_support import ...`` after putting ``tests/`` on ``sys.path`` (as ``tests/client/conftest.py`` does).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["tmpfs", "remount", "fill"]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"{reason} — CI=true, so the filesystem fault tests must run, not be skipped", pytrace=False)
    pytest.skip(reason)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@contextlib.contextmanager
def tmpfs(path: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of ``size`` (``mount -o size=``) mounted on ``path`` (made if missing) for the ``with`` block."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path))
    if mounted.returncode != 0:
        _unavailable(f"cannot mount a tmpfs here ({mounted.stderr.strip() or mounted.returncode}); needs root")
    try:
        yield path
    finally:
        _run("umount", "-l", str(path))


def remount(path: Path, *, read_only: bool) -> None:
    """Remount the tmpfs at ``path`` read-only or writable (files stay open)."""
    result = _run("mount", "-o", f"remount,{'ro' if read_only else 'rw'}", str(path))
    if result.returncode != 0:
        _unavailable(f"cannot remount {path} ({result.stderr.strip()})")


def fill(path: Path, keep: int = 0) -> None:
    """Fill the filesystem of ``path`` until at most ``keep`` bytes are free (a file ``filler`` in ``path``)."""
    with open(path / "filler", "wb") as handle:
        block = b"\0" * 4096
        with contextlib.suppress(OSError):
            while os.statvfs(path).f_bavail * os.statvfs(path).f_frsize > keep:
                handle.write(block)
                handle.flush()
