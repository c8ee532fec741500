"""The pace of one client's requests, learned from the server's 429s (shared by all its workers).

The interface does not publish its rate limit, so the client learns it.  Until the first 429 nothing is paced.
Every 429 holds all workers for its ``Retry-After`` (:meth:`Pacer.close_for`); afterwards they go one by one at
the pace, not all at once.  A 429 to a request sent after the pace was last set, when answers got through since
the last pause, is news (the others of a burst were under way before the client knew; one right after a pause
says the server still refuses, whatever the pace).  For it the pacer

* sets the pace to the rate of answers that got through (any status but 429 spent one of the server's tokens)
  since the pace was last set (at most ``window`` seconds), or in the last second for the first 429.  Between
  two 429s the server's bucket went from empty to empty, so what it let through is what it grants per second
  (with the pause: the bucket fills up while everybody waits, and that is spent afterwards; pauses the server
  asked for again right after a pause are left out of that time);
* never raises the pace by a 429, lowers it by half at most, and never below half the best estimate of the
  last ``memory`` seconds; and when the last step down did not make 429s rarer (at most half as many answers
  again between the two 429s as before it, though the server went on answering for a second or more after
  the pause), they come whatever the pace — a server's hiccups — and the pace goes back up;
* then raises the pace as requests are held back by it: 1 % per second of sending at the pace at first
  (``increase``), faster the longer no 429 comes (``probe``, a cubic term as in TCP CUBIC), so a limit that
  rises is found again and a low estimate mends itself.  Time in which the pace holds nobody back does not
  count.

A server that sends ``RateLimit-Remaining: 0`` (or ``X-RateLimit-Remaining``) with ``RateLimit-Reset`` holds
every worker until the reset, before any 429; no header is needed.  ``Pacer(learn=False)`` (what the deprecated
``RetryPolicy(pacing=False)`` gives) only holds the workers for each ``Retry-After`` and learns no pace.

Why this is hand-written and not a library's token bucket: CONTRIBUTING, "What stays hand-written, and why".
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping

__all__ = ["Pacer", "remaining_and_reset"]

logger = logging.getLogger(__name__)


def remaining_and_reset(headers: Mapping[str, str] | None) -> tuple[int, float] | None:
    """``(remaining, seconds until reset)`` from ``RateLimit-*`` / ``X-RateLimit-*`` headers, or ``None``.

    Only the reset as seconds (``RateLimit-Reset: 3``) is understood; an epoch time (a number above one day)
    is taken as such.

    Examples
    --------
    >>> remaining_and_reset({"RateLimit-Remaining": "0", "RateLimit-Reset": "2"})
    (0, 2.0)
    >>> remaining_and_reset({"Content-Type": "application/json"}) is None
    True
    """
    if not headers:
        return None
    for prefix in ("RateLimit-", "X-RateLimit-"):
        remaining, reset = headers.get(prefix + "Remaining"), headers.get(prefix + "Reset")
        if remaining is None or reset is None:
            continue
        try:
            left, seconds = int(remaining), float(reset)
        except ValueError:
            return None
        if seconds > 86_400:  # an epoch timestamp
            seconds -= time.time()
        return left, max(0.0, seconds)
    return None


class Pacer:
    """An adaptive pace shared by the workers of one client (see the module docstring).

    Parameters
    ----------
    clock, sleep : callables
        ``time.monotonic`` and ``time.sleep`` unless a test passes fakes.
    increase : float
        Fraction by which the pace rises per second of requests held back by it, at first.
    probe : float
        The cubic term: after ``t`` seconds of sending at the pace the pace is
        ``set × (1 + increase·t + probe·t³)``.
    window : float
        Seconds of answers the pace is estimated from, at most.
    memory : float
        Seconds an estimate is remembered: the pace is never set below half the best of them.
    min_rate : float
        The slowest pace, in requests per second.
    learn : bool
        Learn a pace from the 429s (``False``: only hold every worker for each ``Retry-After``).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        *,
        increase: float = 0.01,
        probe: float = 5e-5,
        window: float = 30.0,
        memory: float = 300.0,
        min_rate: float = 0.1,
        learn: bool = True,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.increase = increase
        self.probe = probe
        self.window = window
        self.memory = memory
        self.min_rate = min_rate
        self.learn = learn
        self._lock = threading.Lock()
        self._rate: float | None = None
        self._set: float | None = None  # the pace the last 429 set
        self._held = 0  # requests the pace held back since
        self._undo: float | None = None  # the pace before the last step down
        self._between = 0  # answers between the two 429s before that step
        self._not_before = float("-inf")
        self._reopened = float("-inf")  # when the last Retry-After was up
        self._excuse = False  # the next pause is one the server asked for again right after the last one
        self._excused = 0.0  # seconds of such pauses since the pace was last set (they say nothing of the pace)
        self._next = float("-inf")
        self._decreased = float("-inf")  # when the pace was last set by a 429
        self._answers: deque[float] = deque()  # arrival times of answers that were not 429
        self._estimates: deque[tuple[float, float]] = deque()  # (time, answers per second) at each decrease
        self._local = threading.local()
        self.closures = 0
        self.decreases = 0
        self.limited = 0

    # -- state ---------------------------------------------------------------------------------
    @property
    def rate(self) -> float | None:
        """Requests per second now (``None``: not paced, no 429 seen yet)."""
        with self._lock:
            return self._rate

    def remaining(self) -> float:
        """Seconds until the server's ``Retry-After`` is up (0 when it is)."""
        with self._lock:
            return max(0.0, self._not_before - self._clock())

    # -- sending -------------------------------------------------------------------------------
    def wait(self) -> float:
        """Block until this caller may send (its slot at the pace, after any ``Retry-After``); return the
        seconds waited."""
        started = self._clock()
        while True:
            with self._lock:
                now = self._clock()
                slot = max(now, self._not_before)
                if self._rate is not None:
                    slot = max(slot, self._next)
                    self._next = slot + 1.0 / self._rate
                    if slot > now:  # the pace holds requests back: probe a little faster
                        self._raise()
                if slot <= now:
                    self._local.sent = now
                    return now - started
            self._sleep(slot - now)
            with self._lock:
                if self._not_before <= slot:  # not held again, for longer, while this caller slept
                    now = self._clock()
                    self._local.sent = now
                    return now - started

    def observe(self, status: int | None, headers: Mapping[str, str] | None = None) -> None:
        """Account for the answer to this thread's last request (``status``: ``None`` when none came)."""
        if status is None:
            return
        now = self._clock()
        sent = getattr(self._local, "sent", now)
        with self._lock:
            if status == 429:
                self.limited += 1
                if self.learn and not (self._answers and self._answers[-1] > self._reopened):
                    self._excuse = True  # refused again right after a pause: not the pace's doing, nor its time
                elif self.learn and sent >= self._decreased:
                    self._decrease(now)
            else:
                self._answers.append(now)
                while self._answers and self._answers[0] < now - self.window:
                    self._answers.popleft()
        limits = remaining_and_reset(headers) if status != 429 else None
        if limits is not None and limits[0] <= 0 and limits[1] > 0:
            self.close_for(limits[1])

    def _raise(self) -> None:
        """One more request held back by the pace: raise it along the curve (the lock is held)."""
        assert self._set is not None
        self._held += 1
        paced = self._held / self._set  # seconds of sending at the pace
        self._rate = self._set * (1.0 + self.increase * paced + self.probe * paced**3)

    def _answered(self, since: float) -> int:
        """Answers (not 429) that arrived after ``since`` (the lock is held)."""
        count = 0
        for stamp in reversed(self._answers):
            if stamp <= since:
                break
            count += 1
        return count

    def _decrease(self, now: float) -> None:
        """Set the pace from the answers since the last decrease (the lock is held)."""
        first = self._rate is None
        start = now - 1.0 if first else max(self._decreased, now - self.window)  # first: the last second
        answered = self._answered(start)
        estimate = answered / max(1.0, now - start - (0.0 if first else self._excused))
        self._excused = 0.0
        if not first:  # an estimate between two 429s is remembered (the first one may be a burst)
            self._estimates.append((now, estimate))
        while self._estimates and self._estimates[0][0] < now - self.memory:
            self._estimates.popleft()
        floor = max((e for _, e in self._estimates), default=0.0) / 2
        before = self._rate
        if before is not None:
            estimate = max(min(estimate, before), before / 2)
            if self._undo is not None and now - self._reopened >= 1.0 and answered <= 1.5 * self._between:
                # The last step down did not make 429s rarer, and this one came after the server had gone on
                # answering for a while after the last pause: they come whatever the pace.  Back up.  (A pace far
                # too fast is refused soon after each pause: no undo then.)
                estimate, before = self._undo, None
        self._undo, self._between = before, answered
        self._rate = self._set = max(estimate, floor, self.min_rate)
        self._held = 0
        self._decreased = now
        self.decreases += 1
        logger.info("429: pacing requests at %.1f per second", self._rate)

    def close_for(self, seconds: float) -> None:
        """Keep every caller of :meth:`wait` out for ``seconds`` from now (never shortens); after that they go
        at the pace, one by one."""
        with self._lock:
            now = self._clock()
            until = now + seconds
            if until > self._not_before:
                if self._excuse:
                    self._excused += until - max(now, self._not_before)
                self._not_before = self._reopened = until
                self._next = max(self._next, until)
            self._excuse = False
            self.closures += 1
        logger.debug("requests held for %.2f s", seconds)

    def __repr__(self) -> str:
        rate = "not paced" if self._rate is None else f"{self._rate:.1f}/s"
        return f"<Pacer {rate}, {self.decreases} decrease(s), {self.limited} answer(s) 429>"
