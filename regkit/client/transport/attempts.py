"""The attempts of one call: what they cost so far, and whether and how long to wait for another.

Two kinds of trouble spend two budgets of the :class:`~regkit.client.transport.retry.RetryPolicy`:

* a **failure** (transport error, truncated or garbled body, 5xx, 408) spends ``retries``;
* a **429** is no failure: the call waits (``Retry-After``, else a backoff) and goes on, spending
  ``rate_limit_wait`` (seconds in all), never ``retries``.

When a budget runs out the final error says how long the call tried.
"""

from __future__ import annotations

from dataclasses import dataclass

from regkit.errors import RateLimitedError, RegkitError, TransportError

from .retry import RetryPolicy

__all__ = ["Attempts"]


@dataclass
class Attempts:
    """The attempts of one call so far.

    Attributes
    ----------
    policy : RetryPolicy
        The budgets.
    charged, uncertain : int
        Credits charged for sure, and credits attempts without an answer may have cost.
    sent : int
        Requests that left the client.
    failures : int
        Failed attempts (they spend ``policy.retries``).
    limited : int
        Answers 429 waited for (they spend ``policy.rate_limit_wait``).
    waited : float
        Seconds waited on 429s.
    """

    policy: RetryPolicy
    charged: int = 0
    uncertain: int = 0
    sent: int = 0
    failures: int = 0
    limited: int = 0
    waited: float = 0.0

    def add(self, charged: int, uncertain: int, sent: int) -> None:
        """Account for one more attempt (``sent``: requests it made, 0 or 1)."""
        self.charged += charged
        self.uncertain += uncertain
        self.sent += sent

    def describe(self) -> str:
        """``"attempt 3, after 1 failed and 1 rate-limited"`` (for messages before the next one)."""
        limited = f" and {self.limited} rate-limited" if self.limited else ""
        return f"attempt {self.sent + 1}, after {self.failures} failed{limited}"

    def next_pause(self, error: RegkitError, status: int | None) -> tuple[float, bool] | None:
        """``(seconds, rate_limited)`` to wait before the next attempt, or ``None`` when ``error`` is
        final (its message then says how long the call tried).  For idempotent calls, and for any call the rate
        limiter refused before looking at it (``429 rate_limited``)."""
        retry_after = getattr(error, "retry_after", None)
        if isinstance(error, RateLimitedError):
            pause = self.policy.rate_limit_delay(self.waited, self.limited, retry_after)
            if pause is None:
                self._gave_up(error)
                return None
            self.limited, self.waited = self.limited + 1, self.waited + pause
            return pause, True
        if not self._may_retry(error, status, retry_after):
            self._gave_up(error)
            return None
        pause = self.policy.delay(self.failures, retry_after)
        self.failures += 1
        return pause, False

    def _may_retry(self, error: RegkitError, status: int | None, retry_after: float | None) -> bool:
        if retry_after is not None and retry_after > self.policy.max_retry_after:
            return False
        if isinstance(error, TransportError):
            return getattr(error, "retryable", True) and self.policy.should_retry(self.failures, None)
        return status is not None and self.policy.should_retry(self.failures, status)

    def _gave_up(self, error: RegkitError) -> None:
        policy = self.policy
        too_long = (getattr(error, "retry_after", None) or 0) > policy.max_retry_after
        if isinstance(error, RateLimitedError) and self.limited and not too_long and 429 in policy.statuses:
            note = (
                f"still rate-limited after {self.limited + 1} answers 429 and {self.waited:.1f} s of waiting; "
                f"RetryPolicy.rate_limit_wait is {policy.rate_limit_wait:g} s"
            )
            error.suggestion = (
                "wait a few minutes and call again (what was fetched is cached and costs nothing "
                "again), or give calls more patience: Client(retries=RetryPolicy(rate_limit_wait=...))"
            )
        elif self.sent > 1:
            limited = f", {self.limited} of them answered 429" if self.limited else ""
            note = f"gave up after {self.sent} attempts{limited}"
        else:
            return
        error.message = f"{error.message} ({note})"
        error.args = (str(error),)
