"""Token buckets: the per-key request rate limit, and the per-address throttle of failed authentications."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

__all__ = ["RateLimiter"]

#: Buckets kept before full (idle) ones are forgotten, so a flood of addresses cannot grow memory unbounded.
MAX_BUCKETS = 10_000


class RateLimiter:
    """A token bucket per key: ``rate`` tokens per second, at most ``burst`` stored.

    Parameters
    ----------
    rate : float
        Requests per second allowed in the long run.
    burst : int, optional
        Requests that may arrive at once (default ``max(1, rate)``).
    clock : callable
        Monotonic seconds.

    Examples
    --------
    >>> limiter = RateLimiter(1, burst=2, clock=lambda: 0.0)
    >>> [limiter.acquire("k") for _ in range(3)]
    [0.0, 0.0, 1.0]
    >>> limiter.peek("k"), limiter.peek("other")
    (1.0, 0.0)
    """

    def __init__(self, rate: float, burst: int | None = None, clock: Callable[[], float] = time.monotonic):
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = float(rate)
        self.burst = float(burst if burst is not None else max(1, math.ceil(rate)))
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _tokens(self, key: str, now: float) -> float:
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def acquire(self, key: str) -> float:
        """Take a token for ``key``; return 0 on success, else the seconds until one is available."""
        now = self._clock()
        with self._lock:
            tokens = self._tokens(key, now)
            if len(self._buckets) >= MAX_BUCKETS and key not in self._buckets:
                self._forget_full(now)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate

    def peek(self, key: str) -> float:
        """Seconds until ``key`` has a token (0 when it has one now); takes nothing."""
        now = self._clock()
        with self._lock:
            tokens = self._tokens(key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they hold nothing a fresh bucket would not)."""
        for key in [k for k in self._buckets if self._tokens(k, now) >= self.burst]:
            del self._buckets[key]
