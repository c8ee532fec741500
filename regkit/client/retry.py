"""When and how long to wait before trying an idempotent request again.

Only idempotent calls (lookups, searches, polling, listing) are retried.  A retry waits the longer
of an exponential backoff with jitter and the server's ``Retry-After``; a 429 also closes a shared
:class:`Gate` so every worker of a bulk call pauses, not just the one that was told.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Callable

__all__ = ["RetryPolicy", "Gate", "parse_retry_after", "RETRY_STATUSES"]

logger = logging.getLogger(__name__)

#: Statuses that an idempotent call tries again (the interface's 429 and server errors, plus 408).
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Return the seconds a ``Retry-After`` header asks to wait, or ``None`` if absent or malformed.

    Both forms of the header are understood: delta-seconds (``"3"``) and an HTTP date.

    Examples
    --------
    >>> parse_retry_after("3")
    3.0
    >>> parse_retry_after(None) is None
    True
    >>> parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=datetime(2015, 10, 21, 7, 27, 50, tzinfo=timezone.utc))
    10.0
    """
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


@dataclass
class RetryPolicy:
    """How often and how patiently idempotent calls are retried.

    Parameters
    ----------
    retries : int
        Extra attempts after the first one (``0`` turns retrying off).
    backoff : float
        Base delay in seconds; attempt ``n`` (0-based) waits about ``backoff * 2**n``.
    backoff_max : float
        Upper bound of one backoff delay, in seconds.
    max_retry_after : float
        A ``Retry-After`` longer than this is not waited for: the call raises
        :class:`~regkit.client.errors.RateLimitedError` with ``retry_after`` set instead.
    statuses : frozenset of int
        Statuses that are retried.
    rng : random.Random
        Source of jitter (seeded in tests).
    """

    retries: int = 4
    backoff: float = 0.25
    backoff_max: float = 20.0
    max_retry_after: float = 120.0
    statuses: frozenset[int] = RETRY_STATUSES
    rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        if self.retries < 0 or self.backoff < 0 or self.backoff_max < 0:
            raise ValueError("retries, backoff and backoff_max must not be negative")

    @property
    def attempts(self) -> int:
        """Total attempts a call may make (first attempt plus retries)."""
        return self.retries + 1

    def should_retry(self, attempt: int, status: int | None = None) -> bool:
        """Whether attempt ``attempt`` (0-based) that ended in ``status`` (``None``: transport
        error) may be followed by another."""
        if attempt >= self.retries:
            return False
        return status is None or status in self.statuses

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based).

        "Equal jitter": half of the capped exponential delay plus a random part of the other half,
        so waits never collapse to zero and concurrent workers spread out.  A ``Retry-After`` is a
        floor, never shortened by jitter.
        """
        cap = min(self.backoff_max, self.backoff * (2**attempt))
        backoff = cap / 2 + self.rng.uniform(0, cap / 2)
        return max(backoff, retry_after or 0.0)


class Gate:
    """A shared "not before" time: after a 429 every worker waits until the server's time is up.

    Parameters
    ----------
    clock, sleep : callables
        ``time.monotonic`` and ``time.sleep`` unless a test passes fakes.
    """

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._not_before = 0.0

    def close_for(self, seconds: float) -> None:
        """Keep every caller of :meth:`wait` out for ``seconds`` from now (never shortens)."""
        with self._lock:
            self._not_before = max(self._not_before, self._clock() + seconds)
        logger.debug("request gate closed for %.2f s", seconds)

    def remaining(self) -> float:
        """Seconds until the gate opens (0 when open)."""
        with self._lock:
            return max(0.0, self._not_before - self._clock())

    def wait(self) -> float:
        """Block until the gate is open; return the seconds waited."""
        waited = 0.0
        while (pause := self.remaining()) > 0:
            self._sleep(pause)
            waited += pause
        return waited
