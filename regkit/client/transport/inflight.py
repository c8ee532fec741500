"""Merging concurrent identical requests: one is sent, the others wait for its answer.

requests-cache does not merge concurrent misses for the same key, so without this a bulk crawl
with duplicate ids (or two threads asking for the same company) would pay twice.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import TypeVar

__all__ = ["InFlight"]

T = TypeVar("T")


class InFlight:
    """A per-key map of futures for calls that are running now."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[Hashable, Future] = {}

    def run(
        self,
        key: Hashable,
        fn: Callable[[], T],
        on_merged_error: Callable[[BaseException], None] | None = None,
    ) -> tuple[T, bool]:
        """Run ``fn`` unless an identical call is running; return ``(result, merged)``.

        ``merged`` is ``True`` when the result came from another caller's run.  When that run
        failed, its exception is raised here too, after ``on_merged_error(exc)``.
        """
        with self._lock:
            future = self._running.get(key)
            leader = future is None
            if leader:
                future = self._running[key] = Future()
        assert future is not None
        if not leader:
            try:
                return future.result(), True
            except BaseException as exc:
                if on_merged_error is not None:
                    on_merged_error(exc)
                raise
        try:
            result = fn()
        except BaseException as exc:
            future.set_exception(exc)
            raise
        else:
            future.set_result(result)
            return result, False
        finally:
            with self._lock:
                del self._running[key]

    def __len__(self) -> int:
        with self._lock:
            return len(self._running)
