"""One client call, start to finish: offline and budget checks, attempts, retries, accounting.

:class:`Caller` turns an :class:`Operation` (what to send, what it costs, whether it may be retried)
into an :class:`Answer` or one of the errors of :mod:`regkit.client.errors`, and writes exactly one
ledger row for it.  A cache hit is read from the stored row first (:mod:`.hits`, for many operations in
one batch: :meth:`Caller.cached_many`); everything else goes through requests-cache as it always did, every
request that leaves after the shared pace (:mod:`.pacing`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import requests
from requests_cache import DO_NOT_CACHE, CachedSession
from requests_cache.policy.expiration import get_url_expiration

from ..budget import Budget, Reservation
from ..errors import BudgetExceededError, OfflineCacheMiss, RegkitError
from ..ledger import Ledger
from ..policy import parsed_json
from ..retry import Gate, RetryPolicy
from .attempts import Attempts
from .hits import CacheReader
from .inflight import InFlight
from .keys import CacheKeys
from .operation import Answer, Attempted, Operation
from .outcome import api_error, never_sent, transport_error
from .pacing import Pacer
from .session import Attempt, MeteringAdapter

__all__ = ["Operation", "Answer", "Attempted", "Caller"]  # the first three from .operation

logger = logging.getLogger(__name__)


class Caller:
    """Sends operations for one client (see the module docstring)."""

    def __init__(
        self,
        session: CachedSession,
        meter: MeteringAdapter,
        base_url: str,
        *,
        budget: Budget,
        ledger: Ledger,
        retry: RetryPolicy,
        timeout: float | tuple[float, float],
        offline: Callable[[], bool],
        scrub: Callable[[str], str],
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.session = session
        self.meter = meter
        self.base_url = base_url.rstrip("/")
        self.budget = budget
        self.ledger = ledger
        self.retry = retry
        self.timeout = timeout
        self.offline = offline
        self.scrub = scrub
        self.sleep = sleep
        self.gate: Pacer | Gate = (
            Pacer(sleep=sleep) if retry.pacing else Gate(sleep=sleep, spacing=retry.release_spacing)
        )
        self.inflight = InFlight()
        self.keys = CacheKeys(session, self.base_url)
        self.reader = CacheReader(self.keys)
        self.credits_remaining: int | None = None

    # -- entry point -------------------------------------------------------------------------
    def call(self, op: Operation) -> Answer:
        """Answer ``op`` from the cache, a concurrent identical call, or the interface."""
        if not op.idempotent:
            return self._call(op)
        hit = None if op.refresh else self.reader.answer(op)
        if hit is not None:
            return self._hit(op, hit)
        answer, merged = self.inflight.run(
            op.key(),
            lambda: self._call(op),
            on_merged_error=lambda exc: self._record(op, None, source="merged", attempts=0, error=exc),
        )
        if merged:
            self._record(op, answer.status, source="merged", saved=op.price, attempts=0)
            return replace(answer, source="merged", credits=0)
        return answer

    # -- one call ----------------------------------------------------------------------------
    def _call(self, op: Operation) -> Answer:
        if self.offline():
            if op.refresh:
                raise self._offline_miss(op, refresh=True)
            answer = self._cached(op)
            if answer is None:
                raise self._offline_miss(op)
            return answer
        if self.budget.limit is not None and op.price and op.idempotent and not op.refresh:
            # Under a budget, look in the cache first: a hit is free and must not hold credits
            # that concurrent misses need (requests-cache alone cannot say before sending).
            answer = self._cached(op)
            if answer is not None:
                return answer
        return self._send(op, self._reserve(op))

    def _reserve(self, op: Operation, tally: Attempts | None = None) -> Reservation:
        what = f"{op.call} ({tally.describe()})" if tally is not None and tally.sent else op.call
        price = op.price if self.budget.limit is not None else 0
        return self.budget.reserve(price, what=what, method=op.method, path=op.target)

    def _request(self, op: Operation, **cache_kwargs: Any) -> requests.Response:
        return self.session.request(
            op.method,
            self.base_url + op.path,
            params=list(op.params) or None,
            json=op.body,
            headers=dict(op.headers) or None,
            timeout=self.timeout,
            **cache_kwargs,
        )

    def cache_key(self, op: Operation) -> str:
        """The key the cache stores ``op``'s answer under: what requests-cache computes when it is sent
        (method, URL, query, JSON body, headers).  The one place that derives it (:class:`CacheKeys`)."""
        return self.keys.key(op)

    def is_cached(self, op: Operation) -> bool:
        """Whether the cache would answer ``op`` now (stored and not expired).  Nothing is sent and
        nothing is recorded in the ledger."""
        return self.are_cached([op])[0]

    def are_cached(self, ops: Sequence[Operation]) -> list[bool]:
        """:meth:`is_cached` of each of ``ops``, read from the cache in one batch."""
        return [stored is not None for stored in self.reader.stored(ops)]

    def cached_many(self, ops: Sequence[Operation]) -> Iterator[Answer | None]:
        """The answers of ``ops`` the cache has now, in order, read in one batch, each with its ledger row (as
        :meth:`call` records a hit) when its turn comes; ``None`` where :meth:`call` has to answer (not stored,
        expired, or not the plain kind of lookup read this way)."""
        answers = self.reader.answers([op for op in ops if op.idempotent])
        for op in ops:
            answer = next(answers) if op.idempotent else None
            yield None if answer is None else self._hit(op, answer)

    def _hit(self, op: Operation, answer: Answer) -> Answer:
        self._record(op, answer.status, source="cache", saved=op.price, attempts=0)
        return answer

    def _cached(self, op: Operation) -> Answer | None:
        """The cached answer, or ``None``; never sends anything."""
        response = self._request(op, only_if_cached=True)
        if response.status_code == 504 and getattr(response, "from_cache", False) and not response.content:
            return None
        return self._cache_answer(op, response)

    def _cache_answer(self, op: Operation, response: Any) -> Answer:
        data = parsed_json(response)
        logger.debug("%s %s answered from the cache", op.method, op.target)
        return self._hit(op, Answer(data, response.status_code, "cache", response.created_at, 0))

    def _offline_miss(self, op: Operation, refresh: bool = False) -> RegkitError:
        rule = get_url_expiration(self.base_url + op.target, self.session.settings.urls_expire_after)
        never = rule in (None, DO_NOT_CACHE)  # None: the session default, DO_NOT_CACHE
        why = "never cached" if never else "not in the cache"
        return OfflineCacheMiss(
            "offline mode is on and " + ("a fresh answer needs the network" if refresh else f"this answer is {why}"),
            method=op.method,
            path=op.target,
        )

    def _send(self, op: Operation, reservation: Reservation | None) -> Answer:
        """Attempts until an answer, a final error, or the budget stops a retry.

        Each turn is three named steps: :meth:`_attempt` (one request, its cost settled against the
        budget, its outcome as an :class:`Attempted`), then either :meth:`_answered` (success: one
        ledger row, the answer) or :meth:`_retry_or_raise` (wait and go on, or one ledger row and the
        error).  ``tally`` carries the running totals of the call across turns.
        """
        tally = Attempts(self.retry)
        while True:
            if reservation is None:
                reservation = self._reserve_again(op, tally)
            attempted = self._attempt(op, reservation, tally)
            reservation = None
            if attempted.from_cache:
                return self._cache_answer(op, attempted.response)
            if attempted.ok:
                return self._answered(op, attempted, tally)
            self._retry_or_raise(op, attempted, tally)

    def _attempt(self, op: Operation, reservation: Reservation, tally: Attempts) -> Attempted:
        """Send ``op`` once (after the 429 gate), settle its cost against ``reservation`` and read the body."""
        self.gate.wait()
        with self.meter.capture() as log:
            try:
                response, error = self._request(op, force_refresh=op.refresh), None
            except requests.RequestException as exc:
                response, error = None, exc  # the body may have failed after the status line came
        charged, uncertain = self._account(op, log)
        self.budget.settle(reservation, charged + uncertain)
        tally.add(charged, uncertain, len(log))
        status = response.status_code if response is not None else (log[-1].status if log else None)
        if log:  # sent, not answered by the cache
            self.gate.observe(log[-1].status, getattr(response, "headers", None))
        attempted = Attempted(response, status, error)
        if attempted.ok and not attempted.from_cache:
            attempted = attempted.decoded()
        return attempted

    def _answered(self, op: Operation, attempted: Attempted, tally: Attempts) -> Answer:
        """A success: its ledger row and the answer."""
        assert attempted.status is not None
        self._record(op, attempted.status, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain)
        return Answer(attempted.data, attempted.status, "network", datetime.now(timezone.utc), tally.charged)

    def _retry_or_raise(self, op: Operation, attempted: Attempted, tally: Attempts) -> None:
        """Wait before the next attempt, or record the call as failed and raise its error."""
        error = (
            transport_error(op, attempted.error, attempted.status, self.scrub) if attempted.error is not None
            else api_error(op, attempted.response, self.scrub)
        )  # fmt: skip
        if op.idempotent and self._pause(op, error, attempted.status, tally):
            return
        self._record(op, attempted.status, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain,
                     error=error)  # fmt: skip
        raise error

    def _reserve_again(self, op: Operation, tally: Attempts) -> Reservation:
        try:
            return self._reserve(op, tally)
        except BudgetExceededError as err:
            self._record(op, None, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain, error=err)
            raise

    def _pause(self, op: Operation, error: RegkitError, status: int | None, tally: Attempts) -> bool:
        """Wait before the next attempt and return ``True``, or return ``False`` (``error`` is final)."""
        plan = tally.next_pause(error, status)
        if plan is None:
            return False
        pause, rate_limited = plan
        if rate_limited:  # every worker waits; then they go at the pace (or one by one: the gate)
            logger.info("%s %s: 429; every worker waits %.2f s", op.method, op.target, pause)
            self.gate.close_for(pause)
        else:
            logger.info("%s %s: %s; retrying in %.2f s", op.method, op.target, type(error).__name__, pause)
            self.sleep(pause)
        return True

    def _account(self, op: Operation, log: list[Attempt]) -> tuple[int, int]:
        """Credits this attempt cost for sure, and credits it may have cost (no answer came)."""
        charged = uncertain = 0
        for sent in log:
            if sent.remaining is not None:
                self.credits_remaining = sent.remaining
            if sent.charged is not None:
                charged += sent.charged
            elif sent.status is None:
                uncertain += 0 if never_sent(sent.error) else op.price
            elif 200 <= sent.status < 300:
                charged += op.price
        return charged, uncertain

    def _record(self, op: Operation, status: int | None, *, source: str = "network", credits: int = 0,
                saved: int = 0, attempts: int = 1, uncertain: int = 0,
                error: BaseException | None = None) -> None:  # fmt: skip
        self.ledger.record(
            call=op.call, method=op.method, path=op.target, status=status, credits=credits, saved=saved,
            source=source, attempts=attempts, uncertain=uncertain,
            error=type(error).__name__ if error is not None else None,
        )  # fmt: skip
