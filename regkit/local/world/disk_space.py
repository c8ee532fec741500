"""Telling a full disk apart from other failures, and saying how much room a place has, for the messages of the
builds that write a lot (an import, a world's store) and of the local register's state file."""

from __future__ import annotations

import errno
import os
import shutil

__all__ = ["LITTLE_ROOM", "disk_full", "free_bytes", "room", "sqlite_temporary_directory"]

#: Free bytes below which a disk counts as full when SQLite says only "disk I/O error" (as it does when the file
#: beside a database in WAL mode cannot grow).
LITTLE_ROOM = 1 << 20

#: How a full disk shows in an error's text: SQLite's result code SQLITE_FULL, and ENOSPC (also as reported by a
#: process that runs apart, such as the store's index process).
_DISK_FULL_TEXTS = ("database or disk is full", os.strerror(errno.ENOSPC))


def disk_full(error: BaseException) -> bool:
    """Whether ``error``, or an error it came from (its cause or context), is a full disk: ``ENOSPC``, or SQLite's
    "database or disk is full" (an :class:`sqlite3.OperationalError`, or an error that repeats the text, as the
    store's index process reports it)."""
    seen: BaseException | None = error
    looked_at: set[int] = set()
    while seen is not None and id(seen) not in looked_at:
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return True
        if any(text in str(seen) for text in _DISK_FULL_TEXTS):  # SQLite's, or a report that repeats it
            return True
        looked_at.add(id(seen))
        seen = seen.__cause__ or seen.__context__
    return False


def sqlite_temporary_directory() -> tuple[str, str]:
    """Where SQLite writes its temporary files, and the variable that moves them. Its documented order:
    ``SQLITE_TMPDIR``, ``TMPDIR``, ``/var/tmp``, ``/usr/tmp``, ``/tmp``, the working directory (the first writable
    directory)."""
    override = "SQLITE_TMPDIR" if os.environ.get("SQLITE_TMPDIR") else "TMPDIR"
    for candidate in (os.environ.get("SQLITE_TMPDIR"), os.environ.get("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            return candidate, override
    return os.getcwd(), override


def free_bytes(directory: str | os.PathLike[str]) -> int | None:
    """The free bytes of the filesystem of ``directory`` (or of its nearest existing parent); ``None``: unknown."""
    probe = os.path.abspath(os.fspath(directory))
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)
    try:
        return shutil.disk_usage(probe).free
    except OSError:
        return None


def room(directory: str | os.PathLike[str]) -> str:
    """``<free space> free at <directory>``."""
    place, free = os.fspath(directory), free_bytes(directory)
    if free is None:
        return f"unknown room at {place}"
    if free >= 1e8:
        return f"{free / 1e9:,.2f} GB free at {place}"
    return f"{free / 1e6:,.1f} MB free at {place}" if free >= 1e5 else f"{free / 1e3:,.1f} kB free at {place}"
