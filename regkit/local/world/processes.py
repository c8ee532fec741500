"""Helper processes of a world's import and store build: they end with the process that started them."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a helper process: be sent SIGTERM when the process that started it ends, even by SIGKILL (Linux's
    ``PR_SET_PDEATHSIG``), instead of working on, orphaned, for a result nobody will read. Elsewhere: nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it ended before: the signal would never come
        os.kill(os.getpid(), signal.SIGTERM)
