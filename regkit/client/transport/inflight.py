"""Merging concurrent identical requests: one is sent, the others wait for its answer.

requests-cache does not merge concurrent misses for the same key, so without this a bulk crawl
with duplicate ids (or two threads asking for the same company) would pay twice.

The first caller of a key *claims* it and leads: it makes the call and *settles* the key with its answer or its
error. Every caller of the same key meanwhile gets the leader's future and waits on it. Nothing here calls back
into the caller.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from concurrent.futures import Future
from typing import Any

__all__ = ["InFlight"]


class InFlight:
    """A per-key map of futures for calls that are running now."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[Hashable, Future] = {}

    def claim(self, key: Hashable) -> Future | None:
        """``None`` when this caller leads for ``key`` (it must :meth:`settle` it, also when it fails); else the
        leader's future, whose ``result()`` is the leader's answer (or raises its error)."""
        with self._lock:
            running = self._running.get(key)
            if running is None:
                self._running[key] = Future()
            return running

    def settle(self, key: Hashable, answer: Any = None, error: BaseException | None = None) -> None:
        """End the lead of ``key``: its waiting callers get ``answer``, or ``error`` raised."""
        with self._lock:
            future = self._running.pop(key)
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(answer)

    def __len__(self) -> int:
        with self._lock:
            return len(self._running)
