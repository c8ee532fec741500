"""Limits per API key and per address: the request rate (token buckets, also the throttle of failed
authentications per client address) and the work one key may have in flight at once (:class:`WorkBound`)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["RateLimiter", "WorkBound", "Admission", "Refusal"]

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


#: How fast a key's cost estimate for an endpoint forgets a dear request: each request multiplies it by this
#: (unless it costs more itself), so a key that sent one expensive search is trusted again after a few cheap ones.
COST_DECAY = 0.8


class Admission:
    """A request let in by :meth:`WorkBound.admit`; hand it back to :meth:`WorkBound.release` when it is done."""

    __slots__ = ("key", "endpoint", "reserved", "started")

    def __init__(self, key: str, endpoint: str, reserved: float, started: float):
        self.key, self.endpoint, self.reserved, self.started = key, endpoint, reserved, started


class Refusal(NamedTuple):
    """A request :meth:`WorkBound.admit` did not let in: when to try again, what its key had in flight then (read
    under the same lock as the decision, so a request that ends meanwhile does not change the account), and what
    this request was expected to take."""

    retry_after: float
    requests: int
    work: float
    total: float
    expected: float


class WorkBound:
    """The work one key may have in flight: at most ``concurrency`` requests and about ``work`` seconds of CPU;
    and all keys together about ``total`` seconds of CPU beyond each key's first request.

    The request rate limit counts requests; a search can cost a hundred times what a lookup costs, and a server
    runs one request's Python at a time (one interpreter lock), so a key with many dear requests in flight slows
    every other key down. This bound is the second limit: a request is let in only while the key has fewer than
    ``concurrency`` requests in flight, and while the CPU time its requests in flight are expected to take, plus
    this one's, stays within ``work`` seconds. What a request is expected to take is learned per key and endpoint
    from the CPU time the key's earlier requests to it took (the dearest recent one, decaying by
    :data:`COST_DECAY` per request; nothing learned yet: 0). A key with nothing in flight is always let in, so one
    request at a time never meets this bound, whatever it costs.

    The server's worker threads and its interpreter lock are shared by all keys, so several keys each within
    their own bound can still starve the others together; ``total`` bounds the expected work of all requests in
    flight: a request of a key that already has one in flight is let in only while the total stays within it.

    Parameters
    ----------
    concurrency : int or None
        Requests one key may have in flight; ``None`` or ``0``: no bound on the count.
    work : float or None
        Expected CPU seconds one key may have in flight; ``None`` or ``0``: no bound on the work.
    total : float or None
        Expected CPU seconds all keys may have in flight together (each key's first request always let in);
        ``None`` or ``0``: no bound on the total.
    cpu_clock : callable
        CPU seconds of the calling thread (:func:`time.thread_time`): the request is measured on the thread
        that serves it.

    Examples
    --------
    >>> cpu = iter([0.0, 0.3, 1.0, 1.0]).__next__
    >>> bound = WorkBound(concurrency=4, work=0.5, cpu_clock=cpu)
    >>> first = bound.admit("k", "search")             # nothing known yet: expected 0
    >>> bound.release(first)                           # it took 0.3 s of CPU
    >>> a, b = bound.admit("k", "search"), bound.admit("k", "search")
    >>> isinstance(a, Admission), b                    # 0.3 + 0.3 > 0.5: the second waits
    (True, Refusal(retry_after=1.0, requests=1, work=0.3, total=0.3, expected=0.3))
    >>> isinstance(bound.admit("other", "search"), Admission)   # another key is not held back
    True
    """

    def __init__(
        self,
        concurrency: int | None = None,
        work: float | None = None,
        total: float | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
    ):
        if concurrency is not None and concurrency < 0:
            raise ValueError("concurrency must not be negative (0 or None: no bound)")
        if work is not None and work < 0:
            raise ValueError("work must not be negative (0 or None: no bound)")
        if total is not None and total < 0:
            raise ValueError("total must not be negative (0 or None: no bound)")
        self.concurrency = concurrency or None
        self.work = work or None
        self.total = total or None
        self._total = 0.0  # expected seconds of every request in flight
        self._cpu = cpu_clock
        self._in_flight: dict[str, tuple[int, float]] = {}  # key -> (requests, expected seconds)
        self._costs: dict[tuple[str, str], float] = {}  # (key, endpoint) -> expected seconds
        self._lock = threading.Lock()

    def admit(self, key: str, endpoint: str) -> Admission | Refusal:
        """Let a request of ``key`` to ``endpoint`` in, or refuse it: the seconds after which to try again (≥ 1),
        with what the key and all keys had in flight."""
        with self._lock:
            count, reserved = self._in_flight.get(key, (0, 0.0))
            expected = self._costs.get((key, endpoint), 0.0)
            if count and (
                (self.concurrency is not None and count >= self.concurrency)
                or (self.work is not None and reserved + expected > self.work)
                or (self.total is not None and self._total + expected > self.total)
            ):
                return Refusal(1.0, count, reserved, self._total, expected)
            self._in_flight[key] = (count + 1, reserved + expected)
            self._total += expected
        return Admission(key, endpoint, expected, self._cpu())

    def in_flight(self, key: str) -> tuple[int, float]:
        """Requests ``key`` has in flight and the CPU seconds they are expected to take."""
        with self._lock:
            return self._in_flight.get(key, (0, 0.0))

    def total_in_flight(self) -> float:
        """The CPU seconds all requests in flight are expected to take."""
        with self._lock:
            return self._total

    def release(self, admission: Admission) -> None:
        """The request is done: learn what it cost and free its place."""
        spent = max(0.0, self._cpu() - admission.started)
        with self._lock:
            cost = (admission.key, admission.endpoint)
            self._costs[cost] = max(spent, COST_DECAY * self._costs.get(cost, 0.0))
            count, reserved = self._in_flight.get(admission.key, (1, admission.reserved))
            self._total = max(0.0, self._total - admission.reserved)
            if count <= 1:
                self._in_flight.pop(admission.key, None)
            else:
                self._in_flight[admission.key] = (count - 1, max(0.0, reserved - admission.reserved))
