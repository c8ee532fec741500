"""Pausing Python's cyclic garbage collector while many short-lived objects are made.

Reading many answers from the cache (a bulk re-run) and building a graph from a whole world make objects by the
hundred thousand while large, long-lived structures (the records already read, the world) sit in memory: every
full collection in between walks all of them.  The objects made there die by reference counting or are acyclic, so
pausing the collector for such a stretch costs nothing and saves much of the time (measured on a bulk re-run of
5,000 cached companies: 2.6× → 1.8× the time of a bare ``json.loads`` of the same answers).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the ``with`` block (restored afterwards, also on error; a collector
    that was off stays off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
