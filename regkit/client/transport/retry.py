"""When and how long to wait before trying an idempotent request again.

Only idempotent calls (lookups, searches, polling, listing) are retried, and two kinds of trouble are
told apart:

* **Failures** (transport errors, truncated bodies, 5xx, 408) spend the failure budget
  (``RetryPolicy.retries``), each retry after an exponential backoff with jitter.
* **429** ("too many requests") is no failure: the call waits and goes on.  It has its own, generous
  budget (``RetryPolicy.rate_limit_wait``: total seconds one call may wait on 429s) and honours the
  server's ``Retry-After`` (up to ``max_retry_after``) for every worker of the client, not just the one
  that was told.  Then the workers go on at a pace learned from the 429s
  (:class:`~regkit.client.transport.pacing.Pacer`), so a bulk call keeps close to the server's limit
  without running into it again and again.

The loop itself lives in the caller (:mod:`regkit.client.transport.call`), above the ledger: every attempt
is sent, settled and counted there, so each charged attempt shows in the call's ledger row.  Why it is not
a retry library's loop: CONTRIBUTING, "What stays hand-written, and why".
"""

from __future__ import annotations

import logging
import random
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from regkit.errors import APIError, ArgumentError, TransportError, ValidationError, explain_arguments, user_stacklevel

__all__ = ["RetryPolicy", "parse_retry_after", "is_transient", "RETRY_STATUSES"]

logger = logging.getLogger(__name__)

#: Statuses that an idempotent call tries again (the interface's 429 and server errors, plus 408).
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})

#: The least one 429 counts against ``rate_limit_wait`` (so a ``Retry-After: 0`` loop still ends).
MIN_RATE_LIMIT_WAIT = 0.05


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` may pass when the same call is made again later.

    True for a transport error that left nothing open (connection dropped, timeout, truncated body)
    and for the statuses of :data:`RETRY_STATUSES` (429, 408, 5xx); false for everything the
    interface rejected on its merits (400, 401, 402, 403, 404, 409), for malformed arguments and
    for a creating call whose outcome is unknown.
    """
    if getattr(error, "outcome_unknown", False):
        return False
    if isinstance(error, TransportError):
        return bool(getattr(error, "retryable", True))
    return isinstance(error, APIError) and error.status in RETRY_STATUSES


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


@explain_arguments
@dataclass
class RetryPolicy:
    """How often and how patiently idempotent calls are retried.

    Parameters
    ----------
    retries : int
        Extra attempts after failures (transport error, truncated body, 5xx, 408); a 429 does not
        count.  ``0`` turns retrying off altogether: 429s are raised, bulk calls make one pass.
    backoff : float
        Base delay in seconds; retry ``n`` (0-based) waits about ``backoff * 2**n``.
    backoff_max : float
        Upper bound of one backoff delay, in seconds.
    max_retry_after : float
        A ``Retry-After`` longer than this is not waited for: the call raises
        :class:`~regkit.errors.RateLimitedError` with ``retry_after`` set instead.
    rate_limit_wait : float
        Seconds one call may wait on 429s in all (each waits ``Retry-After``, or a backoff when the
        server does not say); when the next wait would cross it, the 429 is raised.
    bulk_passes : int
        Passes of a bulk lookup: ids that still failed after their retries (not 429, not a
        rejection such as 404) are fetched again once the others are done (``1``: no second pass).
    statuses : frozenset of int
        Statuses that are retried (429 among them: waited for).
    rng : random.Random
        Source of jitter (seeded in tests).
    pacing : bool
        Learn the server's rate limit from its 429s and send at that pace, shared by all workers of the
        client (:class:`~regkit.client.transport.pacing.Pacer`).  ``False`` is deprecated (it warns): every
        worker still waits out each ``Retry-After``, then all send as fast as they can again, which meets
        many more 429s.
    """

    retries: int = 4
    backoff: float = 0.25
    backoff_max: float = 20.0
    max_retry_after: float = 120.0
    rate_limit_wait: float = 300.0
    bulk_passes: int = 2
    statuses: frozenset[int] = RETRY_STATUSES
    rng: random.Random = field(default_factory=random.Random, repr=False)
    pacing: bool = True

    def __post_init__(self) -> None:
        for name in (
            "retries",
            "backoff",
            "backoff_max",
            "max_retry_after",
            "rate_limit_wait",
            "bulk_passes",
        ):
            value = getattr(self, name)
            whole = name in ("retries", "bulk_passes")
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
                raise ArgumentError(
                    f"RetryPolicy({name}=...) must be {'a whole number' if whole else 'a number of seconds'}, "
                    f"not {type(value).__name__} {value!r:.60}",
                    suggestion=f"e.g. RetryPolicy({name}={RetryPolicy.__dataclass_fields__[name].default!r}) "
                    "(the default); nothing was sent",
                )
        if not isinstance(self.pacing, bool):
            raise ArgumentError(f"RetryPolicy(pacing=...) must be True or False, not {self.pacing!r:.60}")
        numbers = (self.retries, self.backoff, self.backoff_max, self.rate_limit_wait)
        if any(number < 0 for number in numbers):
            raise ValidationError(
                "retries, backoff, backoff_max and rate_limit_wait must not be negative",
                suggestion="RetryPolicy() has the defaults; retries=0 turns retrying off",
            )
        if self.bulk_passes < 1:
            raise ValidationError("bulk_passes must be at least 1", suggestion="1 makes no second pass")
        # stacklevel 3: the caller's line, above the generated __init__ that calls this
        if not self.pacing:
            warnings.warn(
                "RetryPolicy(pacing=False) is deprecated: the client paces itself by the 429s it meets, which "
                "keeps close to the server's limit with far fewer 429s; leave pacing at its default",
                DeprecationWarning,
                stacklevel=user_stacklevel(),
            )

    @property
    def attempts(self) -> int:
        """Total attempts a call may make on failures (first attempt plus retries; 429s apart)."""
        return self.retries + 1

    @property
    def passes(self) -> int:
        """Passes of a bulk lookup (``1`` when retrying is off)."""
        return self.bulk_passes if self.retries else 1

    def should_retry(self, attempt: int, status: int | None = None) -> bool:
        """Whether failed attempt ``attempt`` (0-based count of failures so far) that ended in
        ``status`` (``None``: transport error) may be followed by another."""
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

    def rate_limit_delay(self, waited: float, count: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait after the ``count``-th 429 (0-based) of a call, or ``None`` to give up.

        The server's ``Retry-After`` when it says (``None`` beyond ``max_retry_after``), else a
        backoff growing with ``count``; ``None`` too when retrying is off (``retries=0``, or 429 not
        among ``statuses``) or when the wait would take the call's total past ``rate_limit_wait``
        (``waited``: seconds waited so far).
        """
        if not self.retries or 429 not in self.statuses:
            return None
        if retry_after is not None and retry_after > self.max_retry_after:
            return None
        pause = retry_after if retry_after is not None else self.delay(count)
        pause = max(pause, MIN_RATE_LIMIT_WAIT)
        return pause if waited + pause <= self.rate_limit_wait else None
