"""One client call, start to finish: the cache, offline and budget checks, attempts, retries, accounting.

:class:`Caller` turns an :class:`Operation` (what to send, what it costs, whether it may be retried)
into an :class:`Answer` or one of the errors of :mod:`regkit.errors`, and writes exactly one
ledger row for it.  The cache is the client's :class:`~regkit.client.cache.store.ResponseStore`: a hit is
one read of it; a miss is sent (after the shared pace, :mod:`.pacing`) and, when its answer may be kept
(its row of the endpoint table: :meth:`~regkit.client.cache.policy.CachePolicy.lifetime_of`,
:func:`~regkit.client.cache.policy.stored_under`), written — with the aliases of the other ids it answers.

**A credit the register charged is in the ledger, always.**  Whatever fails after an answer arrived — the
cache cannot store it, the team budget cannot record it — the answer is returned, its ledger row is written
with a ``note`` saying what failed, and the failure is a warning.  What fails *before* anything is sent (the
cache cannot be read, the budget is unavailable) is an error, and nothing is paid.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

import requests

from regkit.errors import BudgetWarning, CacheError, CacheUnavailableError, OfflineCacheMiss, RegkitError
from regkit.schema.derived import HEADER as DERIVED_HEADER
from regkit.schema.endpoints import CACHE_LIFETIMES

from ..budget.ledger import Ledger
from ..budget.limit import Budget, Reservation
from ..budget.spending import check_not_stopped, current, pause
from ..cache.json_body import parsed_json
from ..cache.keys import CacheKeys
from ..cache.policy import answers, stored_under
from .attempts import Attempts
from .inflight import InFlight
from .operation import Answer, Attempted, Operation
from .outcome import api_error, never_sent, refused_by_rate_limit, transport_error
from .pacing import Pacer
from .retry import RetryPolicy
from .session import Attempt, MeteringAdapter

if TYPE_CHECKING:
    from ..cache.client_cache import ClientCache

__all__ = ["Operation", "Answer", "Attempted", "Caller"]  # the first three from .operation

#: The ledger note of a call sent without the cache because the cache did not answer (``uncached_ok=True``).
_DOWN = "uncached (the cache is down): "

logger = logging.getLogger(__name__)


class Caller:
    """Sends operations for one client (see the module docstring)."""

    def __init__(
        self,
        session: requests.Session,
        meter: MeteringAdapter,
        base_url: str,
        *,
        cache: ClientCache,
        budget: Budget,
        ledger: Ledger,
        retry: RetryPolicy,
        timeout: float | tuple[float, float],
        scrub: Callable[[str], str],
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.session = session
        self.meter = meter
        self.base_url = base_url.rstrip("/")
        self.cache = cache
        self.budget = budget
        self.ledger = ledger
        self.retry = retry
        self.timeout = timeout
        self.scrub = scrub
        self.sleep = sleep
        self.gate = Pacer(sleep=lambda seconds: pause(seconds, sleep), learn=retry.pacing)
        self.inflight = InFlight()
        self.keys = CacheKeys(self.base_url)
        #: The lifetime of each ``cache`` an endpoint row can name, read from the policy once.
        self._lifetimes = {kind: cache.policy.lifetime_of(kind) for kind in CACHE_LIFETIMES}
        self.credits_remaining: int | None = None

    # -- entry point -------------------------------------------------------------------------
    def call(self, op: Operation) -> Answer:
        """Answer ``op`` from the cache, a concurrent identical call, or the interface."""
        if not op.idempotent:
            return self._call(op)
        hit = None if op.refresh or self.cache.offline else self._lookup(op)
        if isinstance(hit, Answer):
            return self._hit(op, hit)
        key = op.key()
        leader = self.inflight.claim(key)
        if leader is not None:  # an identical call is running: its answer is this one's too, for nothing
            try:
                answer = leader.result()
            except BaseException as exc:
                self._record(op, None, source="merged", attempts=0, error=exc)
                raise
            self._record(op, answer.status, source="merged", saved=op.price, attempts=0)
            return replace(answer, source="merged", credits=0)
        try:
            answer = self._call(op, first_read=hit)
        except BaseException as exc:
            self.inflight.settle(key, error=exc)
            raise
        self.inflight.settle(key, answer)
        return answer

    # -- one call ----------------------------------------------------------------------------
    def _call(self, op: Operation, first_read: str | None = None) -> Answer:
        """``first_read``: what :meth:`call`'s read of the cache found (``None``: a miss, or not read; a string:
        why the cache could not be read)."""
        if self.cache.offline:
            if op.refresh:
                raise self._offline_miss(op, refresh=True)
            hit = self._lookup(op, strict=True)
            if not isinstance(hit, Answer):
                raise self._offline_miss(op)
            return self._hit(op, hit)
        note = first_read
        if op.idempotent and not op.refresh and note is None:
            # Read again as the one call in flight for this answer: a call that just finished may have stored it.
            hit = self._lookup(op)
            if isinstance(hit, Answer):
                return self._hit(op, hit)
            note = hit
        run = current()
        if run is not None:  # a multi-request call: sent so that an interrupt cannot cut it (see spending)
            return run.off_main_thread(lambda: self._send(op, self._reserve(op), note))
        return self._send(op, self._reserve(op), note)

    def _lifetime(self, op: Operation) -> timedelta | None:
        """How long ``op``'s answer is kept (``None``: never): the policy's lifetime of its row's ``cache``."""
        return self._lifetimes.get(op.cache) if op.cache is not None else None

    def _lookup(self, op: Operation, strict: bool = False) -> Answer | str | None:
        """The cache's answer to ``op`` (an :class:`Answer`, no ledger row yet), ``None`` for a miss, or — when the
        cache cannot be read and the call may go on without it — why, as the note for its ledger row.

        Raises
        ------
        CacheError
            The cache cannot be read and the call is paid (or ``strict``: offline): nothing is sent, because paying
            without the cache would pay again for an answer it may hold.
        """
        if not self.cache.enabled or self._lifetime(op) is None:
            return None
        try:
            response = self.cache.store.get(self.keys.key(op))
        except CacheError as exc:
            if strict or (op.price and not self.cache.uncached_ok):
                exc.method, exc.path = op.method, op.target
                exc.args = (str(exc),)
                self._record(op, None, attempts=0, error=exc)
                raise
            logger.warning("%s %s: sent without the cache (%s)", op.method, op.target, exc.message)
            return (_DOWN if isinstance(exc, CacheUnavailableError) else "uncached: ") + exc.message
        if response is None or response.status_code != 200 or response.is_expired:
            return None
        try:
            data = parsed_json(response)
        except (ValueError, UnicodeDecodeError):
            return None
        # An answer stored under the key asked by was checked when it was written (stored_under); one found under
        # another request's URL (a former id's alias, or a misplaced row) must answer this one.
        if response.url != self.base_url + op.target and not answers(op.endpoint, op.asked, data):
            return None  # a damaged or misplaced row: asked again (and stored anew)
        return Answer(data, 200, "cache", response.created_at, 0, response.headers.get(DERIVED_HEADER))

    def _reserve(self, op: Operation, tally: Attempts | None = None) -> Reservation:
        what = f"{op.call} ({tally.describe()})" if tally is not None and tally.sent else op.call
        price = op.price if self.budget.limit is not None else 0  # without a cap nothing is held (nor refused)
        return self.budget.reserve(price, what=what, method=op.method, path=op.target)

    def _request(self, op: Operation) -> requests.Response:
        return self.session.request(
            op.method,
            self.base_url + op.path,
            params=list(op.params) or None,
            json=op.body,
            headers=dict(op.headers) or None,
            timeout=self.timeout,
        )

    @property
    def requests_sent(self) -> int:
        """Requests that left this caller (cache hits and merged calls excluded)."""
        return self.meter.sent

    def close(self) -> None:
        """Close the session's connections."""
        self.session.close()

    def cache_key(self, op: Operation) -> str:
        """The key the cache stores ``op``'s answer under (:mod:`.keys`)."""
        return self.keys.key(op)

    def is_cached(self, op: Operation) -> bool:
        """Whether the cache would answer ``op`` now (stored and not expired).  Nothing is sent and
        nothing is recorded in the ledger."""
        return self.are_cached([op])[0]

    def are_cached(self, ops: Sequence[Operation]) -> list[bool]:
        """:meth:`is_cached` of each of ``ops``."""
        return [isinstance(self._lookup(op, strict=True), Answer) for op in ops]

    def peek(self, ops: Sequence[Operation]) -> list[Answer | None]:
        """The answers the cache holds for ``ops`` now (``None`` where it has none), to look at before paying:
        nothing is sent and nothing is recorded in the ledger."""
        return [hit if isinstance(hit := self._lookup(op, strict=True), Answer) else None for op in ops]

    def cached_many(self, ops: Sequence[Operation]) -> Iterator[Answer | None]:
        """The answers of ``ops`` the cache has now, in order, each with its ledger row (as :meth:`call` records a
        hit) when its turn comes; ``None`` where :meth:`call` has to answer (not stored, expired, never cached, or
        the cache cannot be read)."""
        for op in ops:
            hit = self._lookup(op) if op.idempotent and not op.refresh else None
            yield self._hit(op, hit) if isinstance(hit, Answer) else None

    def _hit(self, op: Operation, answer: Answer) -> Answer:
        logger.debug("%s %s answered from the cache", op.method, op.target)
        self._record(op, answer.status, source="cache", saved=op.price, attempts=0)
        return answer

    def _offline_miss(self, op: Operation, refresh: bool = False) -> RegkitError:
        why = "never cached" if self._lifetime(op) is None else "not in the cache"
        return OfflineCacheMiss(
            "offline mode is on and " + ("a fresh answer needs the network" if refresh else f"this answer is {why}"),
            method=op.method,
            path=op.target,
        )

    def _send(self, op: Operation, reservation: Reservation | None, note: str | None = None) -> Answer:
        """Attempts until an answer, a final error, or the budget stops a retry.

        Each turn is three named steps: :meth:`_attempt` (one request, its cost settled against the
        budget, its outcome as an :class:`Attempted`), then either :meth:`_answered` (success: stored in the cache
        when it may be, one ledger row, the answer) or :meth:`_retry_or_raise` (wait and go on, or one ledger row
        and the error).  ``tally`` carries the running totals of the call across turns, ``note`` what its ledger
        row must say (the cache was not used; the budget could not record a charge).
        """
        tally = Attempts(self.retry)
        while True:
            if reservation is None:
                reservation = self._reserve_again(op, tally, note)
            attempted, settled = self._attempt(op, reservation, tally)
            reservation = None
            note = _joined(note, settled)
            if attempted.ok:
                return self._answered(op, attempted, tally, note)
            self._retry_or_raise(op, attempted, tally, note)

    def _attempt(self, op: Operation, reservation: Reservation, tally: Attempts) -> tuple[Attempted, str | None]:
        """Send ``op`` once (after the 429 gate), settle its cost against ``reservation`` and read the body; with the
        attempt comes what the budget could not record (a note for the ledger row, else ``None``)."""
        check_not_stopped(op.call)  # an interrupted run sends nothing more, not even a retry
        self.gate.wait()
        check_not_stopped(op.call)
        with self.meter.capture() as log:
            try:
                response, error = self._request(op), None
            except requests.RequestException as exc:
                response, error = None, exc  # the body may have failed after the status line came
            except KeyboardInterrupt:  # the user stopped while this request was out: it may have been charged
                self._interrupted(op, reservation, tally, log)
                raise
        charged, uncertain = self._account(op, log)
        settled = self._settle(op, reservation, charged + uncertain)
        tally.add(charged, uncertain, len(log))
        status = response.status_code if response is not None else (log[-1].status if log else None)
        if log:
            self.gate.observe(log[-1].status, getattr(response, "headers", None))
        attempted = Attempted(response, status, error)
        if attempted.ok:
            attempted = attempted.decoded()
        return attempted, settled

    def _settle(self, op: Operation, reservation: Reservation, charged: int) -> str | None:
        """Settle ``charged`` credits; never raises (they were charged): what could not be recorded is returned."""
        try:
            note = self.budget.settle(reservation, charged)
        except Exception as exc:  # the answer is paid for; the budget's trouble is a note and a warning
            note = f"budget not updated ({type(exc).__name__}: {exc}); {charged} credits"
            warnings.warn(f"{op.call} {op.target}: {note}", BudgetWarning, stacklevel=3)
        return note if isinstance(note, str) and note else None

    def _answered(self, op: Operation, attempted: Attempted, tally: Attempts, note: str | None) -> Answer:
        """A success: kept in the cache when it may be, its ledger row, and the answer."""
        assert attempted.status is not None
        if (note or "").startswith(_DOWN):  # the cache does not answer: not written either, only counted
            unstored = None
            self.cache.store.count_unstored()
        else:  # also after an unreadable row: the fresh answer replaces it
            unstored = self._store(op, attempted.response)
        self._record(
            op,
            attempted.status,
            credits=tally.charged,
            attempts=tally.sent,
            uncertain=tally.uncertain,
            note=_joined(note, unstored),
        )
        if unstored is not None:
            self.cache.store.warn(unstored)  # after the row: a warning turned into an error must not lose it
        headers = getattr(attempted.response, "headers", None)
        derived = headers.get(DERIVED_HEADER) if headers is not None else None
        return Answer(attempted.data, attempted.status, "network", datetime.now(timezone.utc), tally.charged, derived)

    def _store(self, op: Operation, response: Any) -> str | None:
        """Keep a fresh answer in the cache when the policy says so, and make it serve the other ids it answers (a
        company's former ids: a lookup by either is free from now on); what went wrong, or ``None``."""
        lifetime = self._lifetime(op) if self.cache.enabled else None
        others = stored_under(op.endpoint, op.asked, response) if lifetime is not None else None
        if lifetime is None or others is None:
            return None
        aliases = [self.keys.key(op.asking(other)) for other in others] if not op.realtime else []
        expires = datetime.now(timezone.utc) + lifetime
        versions = self.cache.policy.versions
        return self.cache.store.put(self.keys.key(op), response, expires, aliases, versions)

    def _retry_or_raise(self, op: Operation, attempted: Attempted, tally: Attempts, note: str | None) -> None:
        """Wait before the next attempt, or record the call as failed and raise its error."""
        if attempted.error is not None:
            error: RegkitError = transport_error(op, attempted.error, attempted.status, self.scrub)
        else:
            error = api_error(op, attempted.response, self.scrub)
        # a call that must not be sent twice is sent again only when the rate limiter refused it unseen
        if (op.idempotent or refused_by_rate_limit(error)) and self._pause(op, error, attempted.status, tally):
            return
        self._record(
            op,
            attempted.status,
            credits=tally.charged,
            attempts=tally.sent,
            uncertain=tally.uncertain,
            error=error,
            note=note,
        )
        raise error

    def _reserve_again(self, op: Operation, tally: Attempts, note: str | None) -> Reservation:
        try:
            return self._reserve(op, tally)
        except RegkitError as err:  # over the budget, or the budget is unavailable: the call ends here
            self._record(
                op, None, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain, error=err, note=note
            )
            raise

    def _pause(self, op: Operation, error: RegkitError, status: int | None, tally: Attempts) -> bool:
        """Wait before the next attempt and return ``True``, or return ``False`` (``error`` is final)."""
        plan = tally.next_pause(error, status)
        if plan is None:
            return False
        seconds, rate_limited = plan
        if rate_limited:  # every worker waits; then they go at the pace (or one by one: the gate)
            logger.info("%s %s: 429; every worker waits %.2f s", op.method, op.target, seconds)
            self.gate.close_for(seconds)
        else:
            logger.info("%s %s: %s; retrying in %.2f s", op.method, op.target, type(error).__name__, seconds)
            pause(seconds, self.sleep)  # ended at once by an interrupt of the call's run
        return True

    def _interrupted(self, op: Operation, reservation: Reservation, tally: Attempts, log: list[Attempt]) -> None:
        """A ``KeyboardInterrupt`` while ``op``'s request was out: its row says so, and the price it may have cost
        is counted as uncertain (and settled against the budget: a team may be refused credits it still has, never
        granted credits it has not)."""
        charged, uncertain = self._account(op, log)
        if not log or log[-1].status is None:
            uncertain = max(uncertain, op.price)
        note = self._settle(op, reservation, charged + uncertain)
        tally.add(charged, uncertain, max(len(log), 1))
        self._record(
            op,
            log[-1].status if log else None,
            credits=tally.charged,
            attempts=tally.sent,
            uncertain=tally.uncertain,
            error=KeyboardInterrupt(),
            note=_joined("interrupted while the request was out: the answer did not arrive", note),
        )

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

    def _record(
        self,
        op: Operation,
        status: int | None,
        *,
        source: str = "network",
        credits: int = 0,
        saved: int = 0,
        attempts: int = 1,
        uncertain: int = 0,
        error: BaseException | None = None,
        note: str | None = None,
    ) -> None:
        run = current()
        if run is not None:
            ok = error is None and status is not None and 200 <= status < 300
            run.count(source=source, credits=credits, ok=ok)
        self.ledger.record(
            call=op.call,
            method=op.method,
            path=op.target,
            status=status,
            credits=credits,
            saved=saved,
            source=source,
            attempts=attempts,
            uncertain=uncertain,
            error=type(error).__name__ if error is not None else None,
            note=note,
        )


def _joined(first: str | None, second: str | None) -> str | None:
    """Two notes of one ledger row as one (``None`` when neither says anything)."""
    return "; ".join(part for part in (first, second) if part) or None
