"""Bulk company lookups: estimate first, fetch each distinct company once, concurrently.

* The cache is read first, in one batch: what it has is answered at once (free, one ledger row each), and
  only the rest goes to the workers.
* Duplicate ids are fetched once; concurrent identical requests (another thread, another bulk
  call) are merged by the client's in-flight map, so nothing is paid for twice.
* The cost is estimated before anything is sent (distinct uncached ids × price) and checked
  against the budget as a whole.
* Workers share the client's thread pool (:class:`WorkerPool`) and its 429 gate: when the interface says
  ``Retry-After``, every worker waits, not just the one that was told, and they go on one by one.
* Ids whose lookup still failed after its retries (transport errors, truncated bodies, 5xx — not a
  429, which has its own patience, nor a rejection such as 404) are fetched once more after all
  others (``RetryPolicy.bulk_passes``): a fresh call, paid only if it succeeds.
* An interrupt (Ctrl-C, a kernel interrupt) stops the call within a second: the lookups not started are
  cancelled, the running ones get :data:`~regkit.client.budget.spending.GRACE` seconds to arrive (and be cached), no retry
  or further pass is sent, and :class:`~regkit.errors.Interrupted` says what arrived and what it cost
  (:mod:`regkit.client.budget.spending`). The main thread waits in short slices, so a kernel's interrupt reaches it.
* Results come back in input order; with ``errors="collect"`` each failure is kept per id and
  ``batch.failed_ids`` are the ids to ask again.  With ``errors="raise"`` the error says how many
  companies were fetched (cached: free when asked again) and how to resume.
"""

from __future__ import annotations

import copy
import logging
import queue
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from regkit.common.html import plural, summary_html
from regkit.errors import (
    BudgetExceededError,
    BudgetStopWarning,
    RateLimitedError,
    RegkitError,
    ValidationError,
    user_stacklevel,
)
from regkit.schema.formatting import count_text, credits_text

from ..arguments import validation
from ..budget.limit import Budget
from ..budget.spending import GRACE, Spending, SpendingRun, carried
from ..company import CompanyBatch, CompanyLookups, CompanyRecord
from ..lookups import CHECKS, lookup, lookup_op
from ..transport.call import Caller
from ..transport.retry import is_transient

__all__ = ["CostEstimate", "BulkFetcher", "WorkerPool", "ESTIMATE_UNITS", "cost_estimate_html"]

logger = logging.getLogger(__name__)

ERROR_MODES = ("raise", "collect")


@dataclass(frozen=True, repr=False)
class CostEstimate:
    """What a bulk lookup would cost now.

    Attributes
    ----------
    requested : int
        Ids asked for (duplicates included).
    distinct : int
        Distinct valid ids.
    cached : int
        Distinct ids answered by the cache for free right now.
    to_fetch : int
        Distinct ids that would be sent (and paid).
    price : int
        Credits per lookup (10, or 20 realtime; see ``Client.estimate_cost(endpoint=...)``).
    credits : int
        ``to_fetch * price``: the most the call can spend.
    budget_remaining : int or None
        Credits left in the client's budget (``None``: no budget).
    endpoint : str
        The lookup estimated: ``"company"``, ``"owners"``, ``"holdings"``, ``"person"``, ``"person_holdings"``,
        ``"ubos"``, ``"owners_historical"``, ``"financials"``, ``"contact"`` or ``"website"``.
    without_reports : tuple of str
        For ``"financials"``: the ids to fetch whose company record, already in the cache, lists no annual
        report (no ``indicators``) — their answer will be empty though it costs the price.
    reports_unknown : int
        For ``"financials"``: how many of the ids to fetch could not be checked for reports because their company
        record is not in the cache (``client.get_company`` would tell, for its own price).

    Jupyter shows it as a one-line summary (``12 companies · 10 credits each · 8 cached (0 credits) · 4 to fetch:
    40 credits``) with whether the budget covers it.
    """

    requested: int
    distinct: int
    cached: int
    to_fetch: int
    price: int
    credits: int
    budget_remaining: int | None
    endpoint: str = "company"
    without_reports: tuple[str, ...] = ()
    reports_unknown: int = 0

    @property
    def within_budget(self) -> bool:
        """Whether the budget (if any) covers the estimate."""
        return self.budget_remaining is None or self.credits <= self.budget_remaining

    def __str__(self) -> str:
        budget = "" if self.budget_remaining is None else f"; budget left {self.budget_remaining}"
        return (
            f"{self.requested} ids, {self.distinct} distinct, {self.cached} cached → "
            f"{self.to_fetch} × {self.price} = {self.credits} credits{budget}{self._empty_note()}"
        )

    def _empty_note(self) -> str:
        note = ""
        if self.without_reports:
            note += (
                f"; {len(self.without_reports)} of them filed no annual report (their cached company record lists "
                f"none): an empty answer for {len(self.without_reports) * self.price} credits"
            )
        if self.reports_unknown:
            note += f"; {self.reports_unknown} not checked for reports (company record not cached)"
        return note

    def __repr__(self) -> str:
        return f"<CostEstimate {self}>"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows (:func:`regkit.client.bulk.fetcher.cost_estimate_html`)."""
        return cost_estimate_html(self)


def _split_valid(
    ids: Sequence[Any], check: Callable[[Any], str] = validation.validate_company_id
) -> tuple[list[str], dict[str, RegkitError]]:
    valid: dict[str, None] = {}
    invalid: dict[str, RegkitError] = {}
    for raw in ids:
        try:
            valid[check(raw)] = None
        except ValidationError as exc:
            invalid[str(raw)] = exc
    return list(valid), invalid


class WorkerPool:
    """The threads of a client's bulk calls: one :class:`~concurrent.futures.ThreadPoolExecutor`, started on first
    use and shared by every bulk call of the client.

    Parameters
    ----------
    max_workers : int
        Threads of the pool.
    """

    def __init__(self, max_workers: int) -> None:
        self.max_workers = max_workers
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    @property
    def started(self) -> bool:
        """Whether the threads are running (a bulk call answered wholly by the cache starts none)."""
        return self._executor is not None

    def executor(self) -> ThreadPoolExecutor:
        """The pool's executor, started now if it was not yet."""
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.max_workers, thread_name_prefix="regkit")
            return self._executor

    def shutdown(self) -> None:
        """Wait for the running lookups and stop the threads (a later bulk call starts them again)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)


class BulkFetcher:
    """Bulk company lookups of a client (``Client.get_companies`` and ``Client.estimate_cost`` delegate here).

    Parameters
    ----------
    companies : CompanyLookups
        One company, and the cached ones of many, as records.
    caller : Caller
        What the cache answers now (``are_cached``) and the retry policy's ``bulk_passes``.
    budget : Budget
        Checked against a whole call's estimate before anything is sent.
    pool : WorkerPool
        The threads the lookups run on.
    spending : Spending
        The client's runs: the cost line said before paying, and the interrupt (:mod:`regkit.client.budget.spending`).
    """

    def __init__(
        self, companies: CompanyLookups, caller: Caller, budget: Budget, pool: WorkerPool, spending: Spending
    ) -> None:
        self.companies = companies
        self.caller = caller
        self.budget = budget
        self.pool = pool
        self.spending = spending

    def estimate_cost(
        self, company_ids: Sequence[str], realtime: bool = False, *, endpoint: str = "company"
    ) -> CostEstimate:
        """The cost of looking up ``company_ids`` now; nothing is sent.  Malformed ids are not counted.

        ``endpoint`` names the lookup (:data:`regkit.client.lookups.LOOKUPS`): ``"company"``,
        ``"owners"``, ``"holdings"``, ``"person"``, ``"person_holdings"`` (these two take person UUIDs) or
        ``"financials"``.

        Raises
        ------
        ValidationError
            An unknown ``endpoint``, or ``realtime`` for one without it.
        """
        found = lookup(endpoint, realtime)
        company_ids = [company_ids] if isinstance(company_ids, str) else validation.id_list(company_ids, "company_ids")
        distinct, invalid = _split_valid(company_ids, CHECKS[found.identifier_check or "company_id"])
        if invalid and not distinct:  # nothing to estimate: a mistake, not an estimate of 0
            first = next(iter(invalid.values()))
            raise ValidationError(
                f"none of the {len(company_ids)} ids can be looked up: {first.message}",
                suggestion=first.suggestion,
            )
        hits = (
            [False] * len(distinct)
            if realtime
            else self.caller.are_cached([lookup_op(endpoint, cid, False) for cid in distinct])
        )
        price = found.credits(realtime=realtime)
        missing = [cid for cid, hit in zip(distinct, hits) if not hit]
        empty, unknown = self._without_reports(missing) if endpoint == "financials" else ((), 0)
        return CostEstimate(
            len(company_ids),
            len(distinct),
            len(distinct) - len(missing),
            len(missing),
            price,
            len(missing) * price,
            self.budget.remaining,
            endpoint,
            empty,
            unknown,
        )

    def _without_reports(self, company_ids: Sequence[str]) -> tuple[tuple[str, ...], int]:
        """Of ``company_ids``, those whose cached company record lists no ``indicators``, and how many have no
        cached record (read from the cache only: nothing sent, no ledger row)."""
        records = self.caller.peek([lookup_op("company", cid, False) for cid in company_ids])
        empty = tuple(
            cid
            for cid, answer in zip(company_ids, records)
            if answer is not None and isinstance(answer.data, dict) and not answer.data.get("indicators")
        )
        return empty, sum(answer is None for answer in records)

    def get_companies(
        self,
        ids: Sequence[str],
        *,
        realtime: bool = False,
        errors: str = "raise",
        progress: bool = True,
        dry_run: bool = False,
    ) -> CompanyBatch | CostEstimate:
        """Look up many companies: the work behind :meth:`regkit.client.Client.get_companies`, whose docstring
        gives the parameters, the result and the errors (``Client`` validates the flags, this the ids)."""
        if errors not in ERROR_MODES:
            raise ValidationError(f"errors must be 'raise' or 'collect', not {errors!r}")
        if isinstance(ids, str):
            raise ValidationError(
                "ids must be a sequence of company ids, not one string",
                suggestion="use get_company(id) for one company, or pass [id]",
            )
        ids = validation.id_list(ids)
        distinct, invalid = _split_valid(ids)
        if invalid and errors == "raise":
            first = next(iter(invalid.values()))
            raise ValidationError(
                f"{len(invalid)} of {len(ids)} ids are malformed, e.g. {first.message}", suggestion=first.suggestion
            )
        if dry_run or self.budget.limit is not None:  # the estimate reads every cache entry: only when needed
            estimate = self.estimate_cost(ids, realtime)
            if dry_run:
                return estimate
            counts = (
                f"{estimate.requested} ids, {estimate.distinct} distinct, {estimate.cached} cached → "
                f"{estimate.to_fetch} × {estimate.price}"
            )  # the budget's own message says the rest
            self.budget.check(estimate.credits, what=f"get_companies ({counts})", method="GET", path="/v1/company/{id}")
            logger.info("get_companies: %s", estimate)
        with self.spending.run("get_companies") as run:
            results, failures = self._fetch_all(distinct, realtime, errors, progress, run)
        refused = [cid for cid, error in failures.items() if isinstance(error, BudgetExceededError)]
        if refused:  # errors="collect" under a (team) budget that ran out during the call
            warnings.warn(
                BudgetStopWarning(
                    f"get_companies stopped at the budget: {len(results)} of {len(distinct)} companies fetched, "
                    f"{len(refused)} refused before they were sent (e.g. {refused[0]}); "
                    f"{refused_note(failures[refused[0]])}batch.failed_ids are the ids to ask again when there is "
                    "budget (the fetched ones are cached: free)"
                ),
                stacklevel=user_stacklevel(),
            )
        failures.update(invalid)
        records = [results.get(_canonical(i)) for i in ids]
        return CompanyBatch(ids, records, {i: failures[_canonical(i)] for i in ids if _canonical(i) in failures})

    def _fetch_all(
        self, distinct: list[str], realtime: bool, errors: str, progress: bool, run: SpendingRun
    ) -> tuple[dict[str, CompanyRecord], dict[str, RegkitError]]:
        """Every id once, then (up to ``bulk_passes``) the ids that failed in a way a later call may mend."""
        passes = self.caller.retry.passes
        failures: dict[str, RegkitError] = {}
        results = self.companies.cached(distinct, realtime)  # one read of the cache; the rest is sent
        pending = [cid for cid in distinct if cid not in results]
        if pending:  # said before the progress bar starts, so neither is drawn over the other
            price = lookup("company", realtime).credits(realtime=realtime)
            budget = "" if self.budget.remaining is None else f"; budget left {self.budget.remaining}"
            run.announce(
                f"{len(pending)} {'company' if len(pending) == 1 else 'companies'} to fetch "
                f"({len(results)} cached) → {len(pending) * price} credits at most{budget}"
            )
        try:
            with _progress_bar(len(distinct), progress) as bar:
                bar.update(len(results))
                for n in range(passes if pending else 0):
                    failed = self._fetch_pass(pending, realtime, errors, bar, results, len(distinct), run)
                    pending = [cid for cid in pending if cid in failed and _worth_another_pass(failed[cid])]
                    if n + 1 == passes:
                        pending = []
                    final = {cid: error for cid, error in failed.items() if cid not in pending}
                    failures.update(final)
                    bar.update(len(final))
                    if not pending:
                        break
                    logger.info(
                        "get_companies: pass %d over %d ids that failed after their retries", n + 2, len(pending)
                    )
        except KeyboardInterrupt:
            missing = len(distinct) - len(results)
            raise run.interrupted(
                f"{len(results)} of the {len(distinct)} companies asked for are in hand, {missing} still to fetch"
            ) from None
        if errors == "raise" and failures:
            first = next(cid for cid in distinct if cid in failures)
            raise _stopped(failures[first], len(results), len(distinct), len(failures))
        return results, failures

    def _fetch_pass(
        self,
        ids: list[str],
        realtime: bool,
        errors: str,
        bar: Any,
        results: dict[str, CompanyRecord],
        total: int,
        run: SpendingRun,
    ) -> dict[str, RegkitError]:
        """Fetch ``ids`` concurrently into ``results``; return the failures.  With ``errors="raise"`` a
        failure no retry can mend stops the pass at once (the running lookups finish first).  An interrupt stops
        it within a second (:func:`_abandon`)."""
        pool = self.pool.executor()
        finished: queue.SimpleQueue[Future[CompanyRecord]] = queue.SimpleQueue()
        futures: dict[Future[CompanyRecord], str] = {}
        try:
            for cid in ids:
                future = pool.submit(carried(self.companies.get), cid, realtime)
                futures[future] = cid
                future.add_done_callback(finished.put)
            failed: dict[str, RegkitError] = {}
            for _ in range(len(futures)):
                future = _next_finished(finished)
                cid = futures[future]
                error = future.exception()
                if error is None:
                    results[cid] = future.result()
                    bar.update(1)
                    continue
                if not isinstance(error, RegkitError) or (errors == "raise" and not is_transient(error)):
                    _stop(futures, results)
                    logger.info("get_companies stopped at %s; %d fetched (they stay cached)", cid, len(results))
                    raise _stopped(error, len(results), total, 1) if isinstance(error, RegkitError) else error
                failed[cid] = error
            return failed
        except KeyboardInterrupt:
            _abandon(futures, results, run)
            raise


def _next_finished(finished: queue.SimpleQueue[Future[CompanyRecord]]) -> Future[CompanyRecord]:
    """The next lookup that finished, waited for in short slices: a kernel's interrupt (``interrupt_main``) only
    reaches a main thread that wakes up, and a lock waited on without a timeout never does."""
    while True:
        try:
            return finished.get(timeout=0.1)
        except queue.Empty:
            continue


def _abandon(futures: dict[Future[CompanyRecord], str], results: dict[str, CompanyRecord], run: SpendingRun) -> None:
    """After an interrupt: send nothing more, cancel the lookups not started, give the running ones
    :data:`~regkit.client.budget.spending.GRACE` seconds to arrive (their answers are cached and in the ledger either way)
    and keep what they fetched."""
    run.stop()
    for future in futures:
        future.cancel()  # no-op for running and finished ones
    running = [future for future in futures if not future.done()]
    deadline = time.monotonic() + GRACE
    while running and time.monotonic() < deadline:
        wait(running, timeout=min(0.1, max(0.0, deadline - time.monotonic())))
        running = [future for future in running if not future.done()]
    for future, cid in futures.items():
        if future.done() and not future.cancelled() and future.exception() is None:
            results[cid] = future.result()


def refused_note(error: RegkitError) -> str:
    """What a budget refusal said, as the start of a sentence (``""`` when it said nothing more)."""
    return f"the budget said: {error.message}; " if error.message else ""


def _progress_bar(total: int, enabled: bool) -> AbstractContextManager[Any]:
    from tqdm.auto import tqdm

    bar: AbstractContextManager[Any] = tqdm(
        total=total, disable=None if enabled else True, desc="companies", unit="company", leave=False
    )
    return bar


def _canonical(company_id: Any) -> str:
    return company_id.strip() if isinstance(company_id, str) else str(company_id)


def _worth_another_pass(error: RegkitError) -> bool:
    # A 429 has had its own, generous patience already; a rejection (404, 402, ...) stays one.
    return is_transient(error) and not isinstance(error, RateLimitedError)


def _stop(futures: dict[Future[CompanyRecord], str], results: dict[str, CompanyRecord]) -> None:
    """Cancel the lookups not started; wait for the running ones (nothing runs on after the call)
    and keep what they fetched."""
    for future in futures:
        future.cancel()  # no-op for running and finished ones
    wait(futures)
    for future, cid in futures.items():
        if not future.cancelled() and future.exception() is None:
            results[cid] = future.result()


def _stopped(error: RegkitError, fetched: int, total: int, failed: int) -> RegkitError:
    """A copy of ``error`` (same class, same fields) whose message says where ``get_companies``
    stopped and whose suggestion says how to resume."""
    amended = copy.copy(error)
    amended.__dict__.update(vars(error))
    others = f"; {failed - 1} more failed" if failed > 1 else ""
    amended.message = (
        f"{error.message} — get_companies: {fetched} of {total} companies fetched{others}; "
        "the fetched ones are cached and cost nothing when asked again"
    )
    collect = (
        "errors='collect' returns every company that can be fetched, with each failure in batch.errors "
        "and the ids to ask again in batch.failed_ids"
    )
    if is_transient(error):
        amended.suggestion = f"call get_companies again to resume (only the missing companies are paid); {collect}"
    else:
        amended.suggestion = f"{error.suggestion}; {collect}" if error.suggestion else collect
    amended.args = (str(amended),)
    amended.__cause__ = error.__cause__
    return amended.with_traceback(error.__traceback__)


#: What a cost estimate counts, by the endpoint it estimates (``client.estimate_cost(..., endpoint=)``).
ESTIMATE_UNITS: dict[str, tuple[str, str]] = {
    "company": ("company", "companies"),
    "owners": ("owner list", "owner lists"),
    "holdings": ("holdings list", "holdings lists"),
    "person": ("person", "persons"),
    "person_holdings": ("person's holdings", "persons' holdings"),
}


def cost_estimate_html(estimate: Any) -> str:
    """A bulk lookup's cost before it is sent: ``12 companies · 10 credits each · 8 cached (0 credits) · 4 to
    fetch: 40 credits``, and whether the budget covers it."""
    one, many = ESTIMATE_UNITS.get(getattr(estimate, "endpoint", "company"), ESTIMATE_UNITS["company"])
    line = (
        f"{plural(estimate.distinct, one, many)} · {credits_text(estimate.price)} each · "
        f"{count_text(estimate.cached)} cached (0 credits) · {count_text(estimate.to_fetch)} to fetch: "
        f"{credits_text(estimate.credits)}"
    )
    facts = [("Lookups", line)]
    if estimate.requested != estimate.distinct:
        left_out = estimate.requested - estimate.distinct
        facts.append(
            (
                "Ids asked",
                f"{count_text(estimate.requested)} ({count_text(left_out)} duplicate or malformed, not counted)",
            )
        )
    without_reports = getattr(estimate, "without_reports", ())
    if without_reports:
        facts.append(
            (
                "No reports",
                f"{count_text(len(without_reports))} filed no annual report (their cached company record lists "
                f"none): an empty answer for {credits_text(len(without_reports) * estimate.price)}",
            )
        )
    unknown = getattr(estimate, "reports_unknown", 0)
    if unknown:
        facts.append(("Reports", f"{count_text(unknown)} not checked for reports (company record not cached)"))
    if estimate.budget_remaining is None:
        facts.append(("Budget", "no limit set"))
        badge = None
    else:
        fits = estimate.credits <= estimate.budget_remaining
        facts.append(
            (
                "Budget",
                f"{credits_text(estimate.budget_remaining)} left: "
                + ("covers it" if fits else "not enough, the call would be refused"),
            )
        )
        badge = ("within budget", "ok") if fits else ("over budget", "error")
    note = "An estimate: nothing was sent. Cached lookups are free."
    return summary_html(
        f"Cost estimate: {credits_text(estimate.credits)}", facts, badge=badge, note=note, kind="cost-estimate"
    )
