"""Helper processes of a world's import and store build: they end with the process that started them."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """In a helper process: be sent SIGTERM when the process that started it ends, even by SIGKILL (Linux's
    ``PR_SET_PDEATHSIG``), instead of working on, orphaned, for a result nobody will read. Elsewhere: nothing.

    ``parent``: the pid of the process that started this one (a program started with :mod:`subprocess`);
    ``None``: :mod:`multiprocessing`'s parent."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if parent is None:
        started_by = multiprocessing.parent_process()
        parent = None if started_by is None else started_by.pid
    if parent is not None and os.getppid() != parent:  # it ended before: the signal would never come
        os.kill(os.getpid(), signal.SIGTERM)
