"""One client call, start to finish: offline and budget checks, attempts, retries, accounting.

:class:`Caller` turns an :class:`Operation` (what to send, what it costs, whether it may be retried)
into an :class:`Answer` or one of the errors of :mod:`regkit.client.errors`, and writes exactly one
ledger row for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlencode

import requests
from requests_cache import DO_NOT_CACHE, CachedSession
from requests_cache.policy.expiration import get_url_expiration

from ..budget import Budget, Reservation
from ..errors import BudgetExceededError, OfflineCacheMiss, RegkitError
from ..ledger import Ledger
from ..policy import parsed_json
from ..retry import Gate, RetryPolicy
from .attempts import Attempts
from .inflight import InFlight
from .outcome import api_error, never_sent, transport_error
from .session import Attempt, MeteringAdapter

__all__ = ["Operation", "Answer", "Caller"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Operation:
    """One request a client method makes.

    Attributes
    ----------
    call : str
        The client method (for the ledger and messages).
    method, path : str
        HTTP method and path below the base URL (``/v1/...``), already quoted.
    params : tuple of (str, str)
        Query parameters, in the order sent.
    body : object
        JSON body, or ``None``.
    headers : tuple of (str, str)
        Extra request headers (never secrets: they may be stored with a cached request).
    price : int
        Credits the call costs when it is not answered from the cache.
    idempotent : bool
        Safe to send again: retried on transport errors, 429 and 5xx, and merged with concurrent
        identical calls.  ``False`` for anything that creates something.
    refresh : bool
        Skip the cache for reading (the fresh answer is still stored).
    hints : mapping of int to str
        A suggestion per error status, replacing the error class's default.
    unknown_hint : str
        For a creating call: how to find out whether it was carried out after an ambiguous failure.
    """

    call: str
    method: str
    path: str
    params: tuple[tuple[str, str], ...] = ()
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()
    price: int = 0
    idempotent: bool = True
    refresh: bool = False
    hints: Mapping[int, str] = field(default_factory=dict)
    unknown_hint: str = ""

    @property
    def target(self) -> str:
        """Path with query, as the ledger and errors show it."""
        return f"{self.path}?{urlencode(self.params)}" if self.params else self.path

    def key(self) -> tuple[Any, ...]:
        """Identity for merging concurrent identical calls."""
        import json

        body = json.dumps(self.body, sort_keys=True) if self.body is not None else ""
        return (self.method, self.path, self.params, body, self.headers, self.refresh)


@dataclass(frozen=True)
class Answer:
    """A successful answer: parsed JSON (``None`` for an empty body) and how it was obtained."""

    data: Any
    status: int
    source: str
    fetched_at: datetime
    credits: int

    @property
    def from_cache(self) -> bool:
        """Answered without a request of its own (cache or merged call)."""
        return self.source != "network"


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
        self.gate = Gate(sleep=sleep, spacing=retry.release_spacing)
        self.inflight = InFlight()
        self.credits_remaining: int | None = None

    # -- entry point -------------------------------------------------------------------------
    def call(self, op: Operation) -> Answer:
        """Answer ``op`` from the cache, a concurrent identical call, or the interface."""
        if not op.idempotent:
            return self._call(op)
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

    def _cached(self, op: Operation) -> Answer | None:
        """The cached answer, or ``None``; never sends anything."""
        response = self._request(op, only_if_cached=True)
        if response.status_code == 504 and getattr(response, "from_cache", False) and not response.content:
            return None
        return self._cache_answer(op, response)

    def _cache_answer(self, op: Operation, response: Any) -> Answer:
        data = parsed_json(response)
        self._record(op, response.status_code, source="cache", saved=op.price, attempts=0)
        logger.debug("%s %s answered from the cache", op.method, op.target)
        return Answer(data, response.status_code, "cache", response.created_at, 0)

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
        """Attempts until an answer, a final error, or the budget stops a retry."""
        tally = Attempts(self.retry)
        while True:
            if reservation is None:
                reservation = self._reserve_again(op, tally)
            self.gate.wait()
            response, exc, log = self._attempt(op)
            charged, uncertain = self._account(op, log)
            self.budget.settle(reservation, charged + uncertain)
            reservation = None
            tally.add(charged, uncertain, len(log))

            if response is not None and getattr(response, "from_cache", False):
                return self._cache_answer(op, response)
            # A body that broke off raised, but the meter saw the status line before it did.
            status = response.status_code if response is not None else (log[-1].status if log else None)
            if exc is None and status is not None and status < 400:
                try:
                    data = parsed_json(response) if response.content else None
                except (ValueError, UnicodeDecodeError) as decode_error:
                    exc = decode_error
                else:
                    self._record(op, status, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain)
                    return Answer(data, status, "network", datetime.now(timezone.utc), tally.charged)

            error = (
                transport_error(op, exc, status, self.scrub) if exc is not None
                else api_error(op, response, self.scrub)
            )  # fmt: skip
            if not (op.idempotent and self._pause(op, error, status, tally)):
                self._record(op, status, credits=tally.charged, attempts=tally.sent, uncertain=tally.uncertain,
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
        if rate_limited:  # every worker waits; the gate lets them go again one by one
            logger.info("%s %s: 429; every worker waits %.2f s", op.method, op.target, pause)
            self.gate.close_for(pause)
        else:
            logger.info("%s %s: %s; retrying in %.2f s", op.method, op.target, type(error).__name__, pause)
            self.sleep(pause)
        return True

    def _attempt(self, op: Operation) -> tuple[Any, BaseException | None, list[Attempt]]:
        with self.meter.capture() as log:
            try:
                response = self._request(op, force_refresh=op.refresh)
                return response, None, log
            except requests.RequestException as exc:
                # The body may have failed after the headers came: the meter saw the status.
                return None, exc, log

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

