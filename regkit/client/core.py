"""``regkit.Client``: the one way regkit talks to the interface (live service or local register)."""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import requests

from regkit.errors import (
    ArgumentError,
    NoFinancialReportsWarning,
    TransportError,
    ValidationError,
    WaitTimeout,
    explain_arguments,
    user_stacklevel,
)
from regkit.schema.endpoints import by_operation
from regkit.schema.interface import PER_PAGE_MAX

from . import insolvency, lookups
from .account import CredentialRecord, CreditsRecord, store_credentials_op
from .arguments import client_arguments, validation
from .arguments.filter_fields import SEARCH_KINDS
from .budget.ledger import Ledger, LedgerFile, default_ledger_path
from .budget.limit import Budget
from .budget.spending import Spending, SpendingRun
from .bulk import export as cache_export
from .bulk import paging
from .bulk.downloads import Downloader, DownloadEstimate, Downloads
from .bulk.fetcher import BulkFetcher, CostEstimate, WorkerPool
from .cache.client_cache import ClientCache, open_backend
from .cache.policy import CachePolicy, scope_token
from .changes import cached_changes, mark_stale
from .company import CompanyBatch, CompanyLookups, CompanyRecord
from .contact import ContactRecord
from .document import DocumentRecord, RealtimeDocumentRecord, document_op, realtime_document_op
from .extract import ExtractRecord, document_filename, extract_op, order_op
from .financials import FinancialsRecord, without_report_sources
from .insolvency import InsolvencyRecord, InsolvencyResults, InsolvencySearchPage
from .lookups import lookup_op
from .monitor import MonitorRecord, create_monitor_op, delete_monitor_op
from .ownership import (
    HoldingsRecord,
    OwnershipHistoryRecord,
    OwnersRecord,
    UbosRecord,
)
from .persons import PersonRecord, PersonSearchPage, PersonSearchResults
from .records import record_meta, urls_stale
from .search import (
    COMPANY_SEARCH,
    PERSON_SEARCH,
    CompanySearchPage,
    CompanySearchResults,
    CompanySuggestions,
    PageT,
    ResultsT,
    Search,
    autocomplete_op,
    search_op,
)
from .team import TeamBudget, default_member
from .transport import target as target_sources
from .transport.call import Caller
from .transport.operation import Answer, Operation, operation
from .transport.retry import RetryPolicy
from .transport.session import build_session
from .transport.target import (
    DEMO_API_KEY,
    LIVE_BASE_URL,
    LOCAL_ORIGIN,
    local_register_on,
    resolve_target,
    secret_scrubber,
)

if TYPE_CHECKING:
    import pandas as pd

    from .watchlist import Watchlist

__all__ = ["Client", "DEFAULT_LIVE_BASE_URL", "LOCAL_ORIGIN", "DEMO_API_KEY"]

logger = logging.getLogger(__name__)

#: Where the live service answers unless ``base_url`` / ``REGKIT_BASE_URL`` say otherwise.
DEFAULT_LIVE_BASE_URL = LIVE_BASE_URL


@explain_arguments
class Client:
    """A client of the company register interface that is careful with credits.

    Every public method is defined here; what each resource sends is made in its own module, beside the records
    it returns (:mod:`~regkit.client.company`, :mod:`~regkit.client.search`, :mod:`~regkit.client.insolvency`,
    :mod:`~regkit.client.lookups`, ...), and the client owns a few collaborators it
    calls through their public methods: the caller (:class:`~regkit.client.transport.call.Caller`: cache,
    budget, ledger, attempts and retries), the cache (``client.cache``), the budget (``client.budget``), the
    ledger, the company lookups (:class:`~regkit.client.company.CompanyLookups`) and the bulk fetcher
    (:class:`~regkit.client.bulk.fetcher.BulkFetcher`).

    Parameters
    ----------
    api_key : str, optional
        The API key; default ``REGKIT_API_KEY``, else ``OPENREGISTER_API_KEY`` (read now, not at
        import).  Never stored, logged, cached or shown, and sent only to the chosen base URL.
        A demo key of the local register (``demo-…``) without a base URL uses the bundled register.
    base_url : str, optional
        Default ``REGKIT_BASE_URL``, else ``OPENREGISTER_BASE_URL``; else the live service
        (``https://api.openregister.de``) with a key, or — with neither key nor base URL — the
        bundled local register in-process with the demo key (said once on stderr).  See
        :mod:`regkit.client.transport.target` for the whole rule.
    cache : str, path, backend or False
        Where answers are cached (see :mod:`regkit.client.cache`): ``"default"`` is ``REGKIT_CACHE`` if set (a
        path or a ``redis://`` URL), else SQLite in ``REGKIT_CACHE_DIR`` or the user cache directory. A
        ``redis://`` URL shares the cache with every client pointed at it: what one analyst fetched costs the
        others nothing (user-scoped answers, extracts, stay with their key).
    budget : int, optional
        Credits this client may spend; a call that could cross it raises
        :class:`~regkit.errors.BudgetExceededError` before it is sent.  With ``budget_scope`` it is
        the team's cap instead (see there).
    budget_scope : str, optional
        ``"redis://host:6379/0#team-a"``: a Redis URL, ``#`` and a team name. ``budget`` is then shared by every
        client of the team, in any process on any machine (:class:`~regkit.client.team.TeamBudget`):
        prices are reserved atomically in Redis before a call is sent, so the team together never spends
        more than its cap — also when Redis fails or a member dies mid-call: the budget fails closed
        (:class:`~regkit.errors.BudgetUnavailableError`) and re-establishes itself from the register's own
        account (see :mod:`regkit.client.team`). The cap lives in Redis: ``budget`` sets it for a team that has
        none and must equal it otherwise (``client.budget.set_limit(n)`` changes it for everyone);
        without ``budget`` the team's cap applies, and a team without one has its spending counted and
        recorded but never refused. ``client.budget.ledger()`` says who spent what.
    budget_member : str, optional
        Who this client is in the team ledger (with ``budget_scope`` only); default ``user@host pid N``.
    max_workers : int
        Threads of the shared pool of bulk calls.
    timeout : float or (float, float)
        Seconds to wait for connecting / for an answer.
    retries : int or RetryPolicy
        Retries of idempotent calls after failures (transport errors, truncated bodies, 5xx); a 429
        waits as the server says, with its own patience (``RetryPolicy(rate_limit_wait=...)``); ``0``
        turns all retrying off.
    policy : CachePolicy, optional
        Cache lifetimes per kind of answer.
    offline : bool
        Answer only from the cache (also ``client.cache.offline``).
    uncached_ok : bool
        When the cache cannot be read — a Redis cache that is down, a damaged SQLite file — paid calls are refused
        before they are sent (:class:`~regkit.errors.CacheError`), because paying without the cache would
        pay again for answers it holds.  ``True`` sends them anyway, and their ledger rows say ``uncached``.
        Free calls always go on.
    ledger_file : str, path or None
        Where paid calls are also written, at once, one JSON line each (:mod:`regkit.client.budget.ledger`):
        ``"default"`` is ``REGKIT_LEDGER``, else ``ledger.jsonl`` in the user data directory — except for the
        bundled register in-process (synthetic credits), which writes none unless a path is given; ``None``
        writes no file.
    adapter : requests transport adapter, optional
        Serves ``base_url`` instead of the network (e.g. a shared ``LocalRegisterAdapter``).
    data_dir : str or path, optional
        A world directory (``regkit world build`` or ``regkit world import`` wrote it) to serve with a local
        register in-process, as the bundled world is by default (``REGKIT_DATA_DIR`` does the same for every
        client); the key is the world's paid demo key unless ``api_key`` is given. Not with ``base_url`` or
        ``adapter``. The world is opened from its store (built once on first use; ``regkit world index``).
    quiet : bool
        Say nothing on stderr before paying. By default every call that sends more than one request
        (``get_companies``, ``search_all_*``, ``download``, :func:`regkit.crawl`, :func:`regkit.graph.climb`) writes
        one line there with what it is about to pay, before paying it (``regkit: get_companies: 4 companies to
        fetch (8 cached) → 40 credits at most``); the environment variable ``REGKIT_QUIET=1`` silences it too. The
        line is also logged (INFO, on the logger ``regkit.client.spending``).
    """

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        cache: Any = "default",
        budget: int | None = None,
        max_workers: int = 8,
        timeout: float | tuple[float, float] = 30.0,
        *,
        retries: int | RetryPolicy = 4,
        policy: CachePolicy | None = None,
        offline: bool = False,
        adapter: Any = None,
        budget_scope: str | None = None,
        budget_member: str | None = None,
        uncached_ok: bool = False,
        ledger_file: Any = "default",
        data_dir: str | os.PathLike[str] | None = None,
        quiet: bool = False,
    ) -> None:
        if data_dir is not None:
            adapter, api_key = local_register_on(data_dir, api_key, base_url, adapter)
            base_url = LOCAL_ORIGIN  # not REGKIT_BASE_URL: the register on data_dir answers
        budget, max_workers = client_arguments.budget(budget), client_arguments.max_workers(max_workers)
        timeout, retry = client_arguments.timeout(timeout), client_arguments.retries(retries)
        policy, offline = client_arguments.policy(policy), client_arguments.offline(offline)
        scope = client_arguments.budget_scope(budget_scope)
        member = client_arguments.budget_member(budget_member, scope)
        self.target = target = resolve_target(api_key, base_url, client_arguments.adapter(adapter))
        self.base_url, self.mode, api_key, adapter = target.base_url, target.mode, target.api_key, target.adapter
        self.max_workers = max_workers
        self.policy = policy
        uncached_ok = validation.flag(uncached_ok, "uncached_ok")
        ledger_path = client_arguments.ledger_file(ledger_file)
        self.cache = ClientCache(open_backend(cache), self.policy, offline=offline, uncached_ok=uncached_ok)
        self.budget = Budget(budget) if scope is None else TeamBudget(*scope, limit=budget, member=member)
        self._scope = scope_token(self.base_url, api_key)
        if ledger_path == "default":  # the bundled register in-process charges synthetic credits: no file for them
            ledger_path = default_ledger_path() if target.mode != "local" else None
        context = {"service": self.base_url, "user": self._scope, "member": member or default_member()}
        self._ledger = Ledger(LedgerFile(ledger_path, context) if ledger_path is not None else None)
        self._scrub = secret_scrubber(api_key)
        session, meter = build_session(self.base_url, api_key, adapter=adapter, pool_size=max(10, max_workers))
        self._adapter = adapter
        self._timeout = timeout
        self._caller = Caller(
            session,
            meter,
            self.base_url,
            cache=self.cache,
            budget=self.budget,
            ledger=self._ledger,
            retry=retry,
            timeout=timeout,
            scrub=self._scrub,
        )
        if isinstance(self.budget, TeamBudget):
            # The register's own account is the team's authoritative total (one key per team): the budget reads
            # it (free, never cached) to anchor a new team and to re-establish one whose Redis lost its data.
            self.budget.bind_account(lambda: dict(self.get_credits().raw))
        self._companies = CompanyLookups(self._caller, self.cache, self.policy)
        self._pool = WorkerPool(max_workers)
        self._spending = Spending(validation.flag(quiet, "quiet"))
        self._bulk = BulkFetcher(self._companies, self._caller, self.budget, self._pool, self._spending)
        # open once built: a client whose construction failed is no figure's source (regkit.plot.source_line)
        target_sources.opened(self, target)

    # -- bookkeeping ---------------------------------------------------------------------------
    def spending(self, call: str) -> AbstractContextManager[SpendingRun]:
        """The scope of one call that sends more than one request: its cost line, and what an interrupt does.

        regkit's own multi-request calls (``get_companies``, ``search_all_*``, ``iter_*``, ``download``,
        :func:`regkit.crawl`, :func:`regkit.graph.climb`) each run in one; a loop of your own can too::

            with client.spending("my loop") as run:
                run.announce(f"{len(ids)} lookups → up to {10 * len(ids)} credits")
                for company_id in ids:
                    client.get_company(company_id)

        Inside it, an interrupt (Ctrl-C, a kernel interrupt) stops the spending: nothing more is sent, and the call
        ends with :class:`regkit.Interrupted` (a ``KeyboardInterrupt``) saying how many answers arrived and what
        they cost (each is cached and in the ledger: running the same call again resumes for free). Runs nest:
        calls inside one join it (see :mod:`regkit.client.budget.spending`).

        Parameters
        ----------
        call : str
            What the messages call it.

        Returns
        -------
        context manager of SpendingRun
            ``run.announce(text)`` says a cost on stderr (unless ``quiet``); ``run.answers``, ``run.credits`` and
            ``run.cached`` count what arrived so far.
        """
        if not isinstance(call, str) or not call.strip():
            raise ValidationError(f"call must name the call, e.g. 'crawl', not {call!r}")
        return self._spending.run(call)

    @property
    def ledger(self) -> pd.DataFrame:
        """One row per call as a DataFrame (see :meth:`regkit.client.budget.ledger.Ledger.to_dataframe`)."""
        return self._ledger.to_dataframe()

    @property
    def credits_spent(self) -> int:
        """Credits the interface charged this client."""
        return self._ledger.spent

    @property
    def credits_saved(self) -> int:
        """Credits not spent thanks to the cache (and merged concurrent calls)."""
        return self._ledger.saved

    @property
    def requests_sent(self) -> int:
        """Requests that actually left this client (cache hits excluded)."""
        return self._caller.requests_sent

    def __repr__(self) -> str:
        if isinstance(self.budget, TeamBudget):
            budget = f" budget={self.budget.describe()}"
        else:
            budget = "" if self.budget.limit is None else f" budget={self.budget.limit} left={self.budget.remaining}"
        offline = " OFFLINE" if self.cache.offline else ""
        return (
            f"<regkit.Client {self.target.describe()} at {self.base_url} cache={self.cache.location()}"
            f"{offline} spent={self.credits_spent} saved={self.credits_saved}{budget}>"
        )

    def close(self) -> None:
        """Close connections, the cache and the bulk thread pool."""
        target_sources.closed(self)
        self._pool.shutdown()
        self._spending.close()
        self._caller.close()
        self.cache.close()
        self._ledger.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- companies -----------------------------------------------------------------------------
    def get_company(
        self, company_id: str, realtime: bool = False, export: bool = False, *, refresh_sources: bool = False
    ) -> CompanyRecord:
        """Look up one company (10 credits, 20 with ``realtime``; a cache hit is free).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        realtime : bool
            Fetch from the official register now; never answered from the cache.
        export : bool
            Leave ``sources`` out.
        refresh_sources : bool
            If the cached answer's presigned source URLs have expired, fetch it again (paid) instead
            of returning it without ``sources`` (offline, that raises ``OfflineCacheMiss``).

        Notes
        -----
        Company lookups are cached for 30 days, but their ``sources[].document_url`` live 30
        minutes.  A cached answer older than ``policy.url_lifetime`` (25 minutes) is returned
        without ``sources`` and with ``meta.urls_expired`` set, unless ``refresh_sources`` asks for
        a paid refetch: a dead URL is never handed out, and nobody pays for URLs they did not ask for.

        Raises
        ------
        ValidationError, NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        return self._companies.get(
            validation.validate_company_id(company_id),
            validation.flag(realtime, "realtime"),
            validation.flag(export, "export"),
            validation.flag(refresh_sources, "refresh_sources"),
        )

    def is_cached(
        self, company_id: str, realtime: bool = False, *, endpoint: str = "company", best_available: bool = False
    ) -> bool:
        """Whether a lookup would be answered by the cache now, for free.  Nothing is sent.

        Parameters
        ----------
        company_id : str
            The company's id (a former id of a cached company counts); for ``endpoint="person"`` and
            ``"person_holdings"`` the person's UUID.
        realtime : bool
            Realtime lookups (``company``, ``owners``) are never cached: always ``False``.
        endpoint : str
            Which lookup, a name of :data:`regkit.client.lookups.LOOKUPS` (the rows of the endpoint table with a
            lookup name): ``"company"`` (:meth:`get_company`), ``"owners"``, ``"holdings"``, ``"person"``,
            ``"person_holdings"``, ``"ubos"``, ``"owners_historical"`` (:meth:`get_ownership_history`),
            ``"financials"``, ``"contact"`` and ``"website"`` (:meth:`get_company_by_website`: the identifiers are
            website URLs), each with its default options.
        best_available : bool
            For ``endpoint="owners"``: ``get_owners(id, best_available=True)``.

        Raises
        ------
        ValidationError
            A malformed id, an unknown endpoint, or ``realtime`` for an endpoint without it.
        """
        realtime = validation.flag(realtime, "realtime")
        op = lookup_op(endpoint, company_id, realtime, validation.flag(best_available, "best_available"))
        return not realtime and self._caller.is_cached(op)

    @overload
    def get_companies(
        self,
        ids: Sequence[str],
        realtime: bool = False,
        errors: str = "raise",
        progress: bool = True,
        *,
        dry_run: Literal[False] = False,
    ) -> CompanyBatch: ...

    @overload
    def get_companies(
        self,
        ids: Sequence[str],
        realtime: bool = False,
        errors: str = "raise",
        progress: bool = True,
        *,
        dry_run: Literal[True],
    ) -> CostEstimate: ...

    @overload
    def get_companies(
        self, ids: Sequence[str], realtime: bool = False, errors: str = "raise", progress: bool = True, *, dry_run: bool
    ) -> CompanyBatch | CostEstimate: ...

    def get_companies(
        self,
        ids: Sequence[str],
        realtime: bool = False,
        errors: str = "raise",
        progress: bool = True,
        *,
        dry_run: bool = False,
    ) -> CompanyBatch | CostEstimate:
        """Look up many companies concurrently; each distinct company is paid at most once.

        Cached companies are read in one batch; the others are fetched on the client's worker threads, paced to
        the server's rate limit, retried, and — those still failing — tried once more at the end
        (:mod:`regkit.client.bulk`).  With a budget, the whole cost is estimated and checked before anything
        is sent.

        Parameters
        ----------
        ids : sequence of str
            Company ids; duplicates are fetched once.
        realtime : bool
            Fetch each from the official register (20 credits each, never cached).
        errors : {"raise", "collect"}
            ``"raise"``: malformed ids raise before anything is sent; a lookup the interface rejects
            (404, 402, ...) stops the call at once, one that still fails after its retries and a second
            pass stops it at the end; the error says how many were fetched (they stay cached) and how to
            resume.  ``"collect"``: every failure is kept in ``batch.errors`` and its slot is ``None``;
            ``client.get_companies(batch.failed_ids)`` asks for those again (the others are cached).
        progress : bool
            Show a tqdm progress bar.
        dry_run : bool
            Return the :class:`~regkit.client.bulk.fetcher.CostEstimate` instead of fetching.

        Returns
        -------
        CompanyBatch
            Records in input order (``CostEstimate`` with ``dry_run``).

        Raises
        ------
        ValidationError
            ``errors`` is neither mode, ``ids`` is one string, or (``errors="raise"``) an id is malformed.
        BudgetExceededError
            When the estimate exceeds the remaining budget (nothing is sent).
        """
        return self._bulk.get_companies(
            ids,
            realtime=validation.flag(realtime, "realtime"),
            errors=errors,
            progress=validation.flag(progress, "progress"),
            dry_run=validation.flag(dry_run, "dry_run"),
        )

    def estimate_cost(
        self, company_ids: Sequence[str], realtime: bool = False, *, endpoint: str = "company"
    ) -> CostEstimate:
        """What looking up ``company_ids`` would cost now: distinct uncached ids × price (nothing is sent).

        ``endpoint`` names the lookup as for :meth:`is_cached` (:data:`regkit.client.lookups.LOOKUPS`; ``"company"``
        by default; person UUIDs for ``"person"`` and ``"person_holdings"``, website URLs for ``"website"``);
        malformed ids are not counted.

        Returns
        -------
        CostEstimate
            Ids requested, distinct, cached, to fetch, the price of one, the credits, and the budget left.

        Raises
        ------
        ValidationError
            An unknown ``endpoint``, or ``realtime`` for one without it.
        """
        return self._bulk.estimate_cost(company_ids, realtime=validation.flag(realtime, "realtime"), endpoint=endpoint)

    # -- insolvencies ---------------------------------------------------------------------------

    def search_insolvencies(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> InsolvencySearchPage:
        """One page of insolvency proceedings (10 credits per page; cached for a day).

        ``filters`` takes the interface's list of filter objects or a mapping (see
        :func:`regkit.client.arguments.validation.filters`).
        """
        answer = self._caller.call(insolvency.search_op(query, filters, page, per_page))
        return InsolvencySearchPage(answer.data, record_meta(answer))

    def estimate_search_cost(
        self,
        query: str | None = None,
        filters: Any = None,
        page: int = 1,
        per_page: int = 10,
        *,
        kind: str = "insolvency",
    ) -> int:
        """Credits one search page with these arguments would cost now: 0 when the cache answers it, else 10.
        Nothing is sent.

        Parameters
        ----------
        query, filters, page, per_page
            As for the search method of ``kind``.
        kind : {"insolvency", "company", "person"}
            Which search: :meth:`search_insolvencies`, ``search_companies`` or ``search_persons``.

        Raises
        ------
        ValidationError
            For an unknown ``kind``, or arguments its search method would reject.
        """
        if kind not in SEARCH_KINDS:
            raise ValidationError(
                f"kind must be one of {', '.join(map(repr, SEARCH_KINDS))}, not {kind!r}",
                suggestion="e.g. kind='company' for search_companies; nothing was sent",
            )
        if kind == "insolvency":
            op = insolvency.search_op(query, filters, page, per_page)
        else:
            op = search_op(kind, query, filters, page, per_page)
        return 0 if self._caller.is_cached(op) else op.price

    def iter_insolvencies(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching proceeding across pages, fetched lazily (10 credits per page).

        Arguments are checked now; pages are fetched as the iterator is consumed.
        """
        first = insolvency.search_op(query, filters, 1, per_page)
        limit = paging.check_limit(limit)
        return paging.iter_results(
            lambda op: InsolvencySearchPage(self._caller.call(op).data),
            first,
            limit,
            self._spending,
            "iter_insolvencies",
        )

    def search_all_insolvencies(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> InsolvencyResults:
        """Every match of an insolvency search (or the first ``limit``), page after page, minding the budget.

        Parameters
        ----------
        query : str, optional
            Free text over debtor names, case numbers, administrators and courts.
        filters : list of dict or mapping, optional
            The interface's filter objects (``{"field": "court", "value": "Amtsgericht Kassel"}``) or the
            mapping shorthand of :func:`regkit.client.arguments.validation.filters`.
        limit : int, optional
            At most this many results (pages beyond them are not fetched).
        per_page : int
            Results per request (1–100; more per page means fewer paid requests).
        progress : bool
            Show a progress bar over the pages (with the estimated cost when a budget is set).

        Returns
        -------
        InsolvencyResults
            The results in the interface's order (``last_event_at`` descending, then ``id``), with
            ``total_results``, ``pages``, ``credits`` and ``estimated_credits``; ``.to_dataframe()`` is the
            frame of :func:`regkit.frames.insolvency_results` with those four in ``attrs``.

        Raises
        ------
        ValidationError
            For a negative or non-integer ``limit`` or a malformed query or filter (nothing is sent).
        BudgetExceededError
            When the pages after the first would cost more than is left of the budget (only the first
            page has been paid).
        """
        limit = paging.check_limit(limit)
        progress = validation.flag(progress, "progress")
        insolvency.search_op(query, filters, 1, per_page if limit is None else max(1, min(per_page, limit)))  # checked
        if limit == 0:
            return InsolvencyResults([], total_results=0, pages=0, credits=0, estimated_credits=0)
        pages, wanted, estimate = paging.fetch_pages(
            lambda page, size: self.search_insolvencies(query, filters, page=page, per_page=size),
            limit=limit,
            per_page=per_page,
            progress=progress,
            budget=self.budget,
            price=by_operation("search_insolvency").credits(),
            call="search_all_insolvencies",
            path=by_operation("search_insolvency").path,
            unit="insolvency pages",
            spending=self._spending,
            cached=lambda page, size: self._caller.is_cached(insolvency.search_op(query, filters, page, size)),
        )
        return InsolvencyResults(
            paging.results_of(pages, wanted),
            total_results=pages[0].total_results,
            pages=len(pages),
            credits=paging.credits_of(pages),
            estimated_credits=estimate,
        )

    def get_insolvency(self, insolvency_id: str) -> InsolvencyRecord:
        """One proceeding with all its events (10 credits; cached for a day)."""
        checked = validation.insolvency_id(insolvency_id)
        answer = self._caller.call(operation("get_insolvency", {"insolvency_id": checked}))
        return InsolvencyRecord(answer.data, record_meta(answer))

    # -- research: searches ----------------------------------------------------------------------

    def _search_page(
        self, search: Search[PageT, ResultsT], query: str | None, filters: Any, page: int, per_page: int
    ) -> PageT:
        answer = self._caller.call(search_op(search.kind, query, filters, page, per_page))
        return lookups.marked(search.page(answer.data, record_meta(answer)), self._caller)

    def _iter(
        self,
        search: Search[PageT, ResultsT],
        query: str | None,
        filters: Any,
        per_page: int,
        limit: int | None,
    ) -> Iterator[dict[str, Any]]:
        first = search_op(search.kind, query, filters, 1, per_page)
        limit = paging.check_limit(limit)
        return paging.iter_results(
            lambda op: search.page(self._caller.call(op).data),
            first,
            limit,
            self._spending,
            search.call.replace("search_", "iter_"),
        )

    def _search_all(
        self,
        search: Search[PageT, ResultsT],
        query: str | None,
        filters: Any,
        limit: int | None,
        per_page: int,
        progress: bool,
    ) -> ResultsT:
        limit = paging.check_limit(limit)
        progress = validation.flag(progress, "progress")
        first = per_page if limit is None else max(1, min(per_page, limit))
        search_op(search.kind, query, filters, 1, first)  # the arguments checked before anything is sent
        if limit == 0:
            return search.results([], total_results=0, pages=0, credits=0, estimated_credits=0)
        pages, wanted, estimate = paging.fetch_pages(
            lambda page, size: self._search_page(search, query, filters, page, size),
            limit=limit,
            per_page=per_page,
            progress=progress,
            budget=self.budget,
            price=search.credits,
            call=search.call.replace("search_", "search_all_"),
            path=search.path,
            unit=f"{search.kind} pages",
            spending=self._spending,
            cached=lambda page, size: self._caller.is_cached(search_op(search.kind, query, filters, page, size)),
        )
        results = search.results(
            paging.results_of(pages, wanted),
            total_results=pages[0].total_results,
            pages=len(pages),
            credits=paging.credits_of(pages),
            estimated_credits=estimate,
        )
        return lookups.marked(results, self._caller, pages)

    # -- research: companies and persons ---------------------------------------------------------

    def search_companies(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> CompanySearchPage:
        """One page of a company search (10 credits per page; cached for a day).

        Parameters
        ----------
        query : str, optional
            Words matched against current and former names, the register number and the city; every word must
            match, the last as a prefix; ä/ae, ö/oe, ü/ue, ß/ss are one.  Best match first.
        filters : mapping or list of dict, optional
            ``{"legal_form": "gmbh", "city": "Kassel", "revenue": (1_000_000, None), "active": True,
            "purpose": ["Software"]}`` or the interface's filter objects; the fields are
            :data:`regkit.client.arguments.filter_fields.COMPANY_FILTERS` (amounts in EUR over the latest reported year).
        page, per_page : int
            Page from 1; 1–100 results per page (the price is per page).

        Returns
        -------
        CompanySearchPage
            ``results`` and ``pagination``; ``.to_dataframe()``: :func:`regkit.frames.company_search_results`.

        Raises
        ------
        ValidationError
            An unknown filter field, a value outside its enum, a malformed range, query or page (nothing is
            sent).
        BadRequestError
            A field only the live service serves, sent to the local register (400 ``unsupported_filter``; no
            credits spent).
        """
        return self._search_page(COMPANY_SEARCH, query, filters, page, per_page)

    def iter_companies(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching company across pages, fetched lazily (10 credits per page); arguments as for
        :meth:`search_companies`, checked now.  Each page goes through the budget as it is fetched."""
        return self._iter(COMPANY_SEARCH, query, filters, per_page, limit)

    def search_all_companies(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> CompanySearchResults:
        """Every match of a company search (or the first ``limit``), page after page, minding the budget.

        Arguments as for :meth:`search_companies`; ``limit``, ``per_page`` and ``progress`` as for
        :meth:`~regkit.client.Client.search_all_insolvencies`.

        Returns
        -------
        CompanySearchResults
            The results, best match first, with ``total_results``, ``pages``, ``credits`` and
            ``estimated_credits``.

        Raises
        ------
        ValidationError
            Before anything is sent.
        BudgetExceededError
            When the pages after the first would cost more than is left (only the first page has been paid).
        """
        return self._search_all(COMPANY_SEARCH, query, filters, limit, per_page, progress)

    def autocomplete_companies(self, query: str) -> CompanySuggestions:
        """Up to 10 companies whose name starts like ``query``, best first (free, but rate-limited; cached for
        an hour).

        Parameters
        ----------
        query : str
            2–200 characters.

        Returns
        -------
        CompanySuggestions
            Iterates over company search results; ``.to_dataframe()``: :func:`regkit.frames.company_search_results`.

        Raises
        ------
        ValidationError
            Text shorter than 2 or longer than 200 characters (nothing is sent).
        """
        answer = self._caller.call(autocomplete_op(query))
        return lookups.marked(CompanySuggestions(answer.data, record_meta(answer)), self._caller)

    def search_persons(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> PersonSearchPage:
        """One page of a person search (10 credits per page; cached for a day).

        Parameters
        ----------
        query : str, optional
            Words of the person's name.
        filters : mapping or list of dict, optional
            Fields ``date_of_birth`` (a date or a ``(min, max)`` range), ``city``, ``active`` (bool).
        page, per_page : int
            As for :meth:`search_companies`.

        Returns
        -------
        PersonSearchPage
            ``results`` (``id``, ``name``, ``city``, ``date_of_birth``, ``active``) and ``pagination``; persons
            without a known date of birth are not listed.  ``.to_dataframe()``:
            :func:`regkit.frames.person_search_results`.

        Raises
        ------
        ValidationError
            Before anything is sent.
        """
        return self._search_page(PERSON_SEARCH, query, filters, page, per_page)

    def iter_persons(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching person across pages, fetched lazily (10 credits per page); see :meth:`search_persons`."""
        return self._iter(PERSON_SEARCH, query, filters, per_page, limit)

    def search_all_persons(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> PersonSearchResults:
        """Every match of a person search (or the first ``limit``), minding the budget; as
        :meth:`search_all_companies`."""
        return self._search_all(PERSON_SEARCH, query, filters, limit, per_page, progress)

    # -- research: owners, holdings, persons ------------------------------------------------------

    def get_owners(
        self,
        company_id: str,
        realtime: bool = False,
        best_available: bool = False,
        export: bool = False,
        *,
        refresh_sources: bool = False,
    ) -> OwnersRecord:
        """A company's current owners (10 credits, 20 with ``realtime``; a cache hit is free).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        realtime : bool
            Fetch from the official register now; never answered from the cache.
        best_available : bool
            For an AG, SE or KGaA, whose shareholders the register does not list: the owners known from filed
            documents (``best_available`` is then true in the answer).  Without it such a company is a 404.
        export : bool
            Leave ``sources`` out.
        refresh_sources : bool
            As for :meth:`~regkit.client.Client.get_company`: if the cached answer's presigned source URLs
            have expired, fetch it again (paid) instead of returning it without ``sources``.

        Returns
        -------
        OwnersRecord
            ``.raw`` as the interface sent it: an owner's ``percentage_share`` is a **percentage** (5.36 means
            5.36 %); ``.to_dataframe()`` (:func:`regkit.frames.owners`) gives it as ``share``, a fraction.

        Raises
        ------
        ValidationError
            A malformed id or flag (nothing is sent).
        NotFoundError
            An unknown company, or an AG/SE/KGaA without ``best_available`` (no credits spent).
        PaymentRequiredError, BudgetExceededError, ...
        """
        op = lookup_op(
            "owners",
            validation.validate_company_id(company_id),
            validation.flag(realtime, "realtime"),
            validation.flag(best_available, "best_available"),
            export=validation.flag(export, "export"),
        )
        refresh_sources = validation.flag(refresh_sources, "refresh_sources")
        answer = self._caller.call(op)
        stale = urls_stale(answer, self.policy.url_lifetime)
        if stale and refresh_sources:
            answer, stale = self._caller.call(replace(op, refresh=True)), False
        data = {k: v for k, v in answer.data.items() if k != "sources"} if stale else answer.data
        record = OwnersRecord(data, record_meta(answer, urls_expired=stale))
        return lookups.named(record, self._caller, "company", data.get("company_id"))

    def get_holdings(self, company_id: str) -> HoldingsRecord:
        """The companies a company holds shares in, current and past (10 credits; cached for 30 days).

        Returns
        -------
        HoldingsRecord
            ``.raw`` is ``{"company_id", "holdings": [{company_id, name, relation_type, nominal_share,
            percentage_share, start, end}]}``; ``percentage_share`` is a **fraction** here (0.5 means 50 %),
            a past holding has ``end``.  ``.to_dataframe()``: :func:`regkit.frames.holdings`.

        Raises
        ------
        ValidationError, NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._caller.call(lookup_op("holdings", company_id, False))
        record = HoldingsRecord(answer.data, record_meta(answer))
        return lookups.named(record, self._caller, "company", answer.data.get("company_id"))

    def get_person(self, person_id: str) -> PersonRecord:
        """One person with their management positions, current and past (10 credits; cached for 30 days).

        Parameters
        ----------
        person_id : str
            The person's UUID: ``representation[].id`` of a company, an owner's ``id``, a person search
            result's ``id`` (letter case does not matter).

        Returns
        -------
        PersonRecord
            ``.raw`` is the PersonV1 answer (``id``, ``first_name``, ``last_name``, ``city``, ``date_of_birth``,
            ``age``, ``management_positions``); ``.to_dataframe()``: :func:`regkit.frames.management_positions`.

        Raises
        ------
        ValidationError
            A malformed UUID (nothing is sent).
        NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._caller.call(lookup_op("person", person_id, False))
        return PersonRecord(answer.data, record_meta(answer))

    def get_person_holdings(self, person_id: str) -> HoldingsRecord:
        """The companies a person holds shares in, current and past (10 credits; cached for 30 days).

        Returns
        -------
        HoldingsRecord
            ``.raw`` is ``{"person_id", "holdings": [...]}`` with the members of :meth:`get_holdings`.

        Raises
        ------
        ValidationError, NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._caller.call(lookup_op("person_holdings", person_id, False))
        record = HoldingsRecord(answer.data, record_meta(answer))
        return lookups.named(record, self._caller, "person", answer.data.get("person_id"))

    # -- beneficial owners and ownership history --------------------------------------------------

    def get_ubos(self, company_id: str) -> UbosRecord:
        """A company's beneficial owners (10 credits; cached for 30 days like owners).

        The interface applies one rule (§ 3 GwG): a natural person holding **more than** 25 % of the capital,
        directly or through companies — the shares multiplied along each chain and summed over the chains — is
        a beneficial owner; exactly 25 % is not.

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.

        Returns
        -------
        UbosRecord
            ``.raw`` is ``{"company_id", "ubos": [{id, name, natural_person, legal_person, percentage_share,
            max_percentage_share}]}``, shares in **percent**.  Held through a partnership, a share is not fixed:
            ``percentage_share`` is null and ``max_percentage_share`` the most the person could hold.  With no
            one above 25 %, the legal representatives are listed as fictitious beneficial owners with both
            shares null (``record.fictitious``).

        Raises
        ------
        ValidationError
            A malformed id (nothing is sent).
        NotFoundError
            An unknown company (no credits spent).
        PaymentRequiredError, BudgetExceededError, ...

        Examples
        --------
        >>> client.get_ubos("DE-HRB-B1204-1407")  # doctest: +SKIP
        <UbosRecord DE-HRB-B1204-1407: 3 beneficial owner(s)>
        """
        op = lookup_op("ubos", company_id, False)
        answer = self._caller.call(op)
        return UbosRecord(answer.data, record_meta(answer))

    def get_ownership_history(self, company_id: str) -> OwnershipHistoryRecord:
        """How a company's owners changed, from its filed shareholder lists (10 credits; cached for 30 days).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>`` of a GmbH, UG or gGmbH (the legal forms that file
            shareholder lists).

        Returns
        -------
        OwnershipHistoryRecord
            ``.raw`` is ``{"owners": [{id, name, entity_type, country, status, first_appearance,
            last_appearance, ownership_history: [{document_id, document_date, nominal_shares,
            percentage_shares}]}]}``: one history entry per shareholder list showing the owner (``document_id``
            is a ``shareholder_list`` of the company's ``documents``), ``nominal_shares`` in EUR **cents**,
            ``percentage_shares`` in percent (adding up to 100 per list).  ``status`` is ``active`` for the
            owners of the latest list (the current owners of :meth:`get_owners`).

        Raises
        ------
        ValidationError
            A malformed id (nothing is sent).
        NotFoundError
            An unknown company, or one that has filed no shareholder list (``owners_not_available``); no
            credits spent.
        PaymentRequiredError, BudgetExceededError, ...

        Examples
        --------
        >>> history = client.get_ownership_history("DE-HRB-R2402-72496")  # doctest: +SKIP
        >>> [(o["name"], o["status"]) for o in history]  # doctest: +SKIP
        [('Horst Rombach', 'active'), ('Jan Groth', 'removed')]
        """
        checked = validation.validate_company_id(company_id)
        answer = self._caller.call(lookup_op("owners_historical", checked, False))
        name = lookups.cached_name(self._caller, "company", checked)
        return OwnershipHistoryRecord(answer.data, record_meta(answer), company_id=checked, company_name=name)

    # -- contact data and the lookup by website -------------------------------------------------

    def get_contact(self, company_id: str) -> ContactRecord:
        """The contact data a company publishes: website, e-mail, phone, VAT id (10 credits; cached for 30 days).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.

        Returns
        -------
        ContactRecord
            ``.raw`` is ``{"source_url", "email", "phone", "vat_id"}``: ``source_url`` is the website the data was
            found on; the others are ``None`` where the company publishes none.  Whether it would be free:
            ``client.is_cached(company_id, endpoint="contact")``; the cost of many:
            ``client.estimate_cost(ids, endpoint="contact")``.

        Raises
        ------
        ValidationError
            A malformed id (nothing is sent).
        NotFoundError
            An unknown company, or one that publishes no website (``contact_not_available``); no credits spent.
        PaymentRequiredError, BudgetExceededError, ...

        Examples
        --------
        >>> client.get_contact("DE-HRB-B1204-123")  # doctest: +SKIP
        <ContactRecord https://www.example.example>
        """
        answer = self._caller.call(lookup_op("contact", company_id, False))
        return ContactRecord(answer.data, record_meta(answer))

    def get_company_by_website(self, url: str) -> ContactRecord:
        """The company that publishes a website, with its contact data (10 credits; cached for 30 days).

        Parameters
        ----------
        url : str
            The website, e.g. ``"https://www.example-gmbh.de"``; the scheme may be left out.  It is checked and
            normalised before anything is sent: websites are compared by host, without scheme, ``www.``, letter
            case, port, path and trailing slash, so ``"example-gmbh.de"`` and ``"http://WWW.example-gmbh.de/"``
            are one lookup, paid once.

        Returns
        -------
        ContactRecord
            ``.raw`` is ``{"company_id", "email", "phone", "vat_id"}``; pass ``company_id`` to
            :meth:`get_company` for the company itself.  Whether it would be free:
            ``client.is_cached(url, endpoint="website")``.

        Raises
        ------
        ValidationError
            ``url`` is blank, not a string, or not an http(s) URL with a host name such as ``example.de``
            (nothing is sent).
        NotFoundError
            No company publishes that website (no credits spent).
        PaymentRequiredError, BudgetExceededError, ...
        """
        answer = self._caller.call(lookup_op("website", url, False))
        return ContactRecord(answer.data, record_meta(answer))

    # -- extracts --------------------------------------------------------------------------------

    def order_extract(self, company_id: str | None = None, credential_name: str = "default") -> ExtractRecord:
        """Order a Transparenzregister extract (50 credits; 0 in ``"sandbox"`` mode).

        Never retried: if the order fails in a way that leaves open whether it was placed, the
        error has ``outcome_unknown=True`` and says how to check.

        Parameters
        ----------
        company_id : str, optional
            The company; must be left out in sandbox mode.
        credential_name : str
            Stored credentials to use, or ``"sandbox"`` for the built-in test mode.
        """
        answer = self._caller.call(order_op(company_id, credential_name))
        return ExtractRecord(answer.data, record_meta(answer))

    def _extract_op(self, extract_id: str) -> Operation:
        return extract_op(extract_id, self._scope)

    def get_extract(self, extract_id: str) -> ExtractRecord:
        """The extract now (free).  Terminal answers are cached; their document URLs are refreshed
        once they may have expired (offline: left out, ``meta.urls_expired``)."""
        op = self._extract_op(extract_id)
        answer: Answer = self._caller.call(op)
        stale = urls_stale(answer, self.policy.url_lifetime, key="documents")
        if stale and not self.cache.offline:
            answer, stale = self._caller.call(replace(op, refresh=True)), False
        data = answer.data
        if stale:
            data = {**data, "documents": [{k: v for k, v in d.items() if k != "url"} for d in data["documents"]]}
        return ExtractRecord(data, record_meta(answer, urls_expired=stale))

    def wait_for_extract(
        self,
        extract_id: str,
        timeout: float = 120.0,
        download_to: str | Path | None = None,
        *,
        poll: float = 0.5,
        poll_max: float = 5.0,
    ) -> ExtractRecord:
        """Poll (free) with growing pauses until the extract is ``completed`` or ``failed``.

        Parameters
        ----------
        timeout : float
            Seconds to wait before raising :class:`WaitTimeout`.
        download_to : str or Path, optional
            Directory to save a completed extract's documents in right away (their URLs expire);
            the saved paths are in ``record.files``.
        poll, poll_max : float
            First pause between polls and the longest one (each pause is 1.5× the last).
        """
        deadline = time.monotonic() + timeout
        pause = poll
        while True:
            record = self.get_extract(extract_id)
            if record.is_terminal:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeout(
                    f"extract {extract_id} is still processing after {timeout:g} s",
                    method="GET",
                    path=f"/v1/transparenzregister/extracts/{extract_id}",
                )
            time.sleep(min(pause, left))
            pause = min(pause * 1.5, poll_max)
        if record.status == "failed":
            logger.warning("extract %s failed", extract_id)
        elif download_to is not None:
            record.files = self.download_extract(record, download_to)
        return record

    def download_extract(self, record: ExtractRecord, directory: str | Path) -> list[Path]:
        """Save the documents of a completed extract into ``directory``; return their paths.

        The presigned URLs are fetched without the API key.  If one has expired, the extract is
        fetched again (free) for fresh URLs, once.

        Raises
        ------
        ArgumentError
            ``record`` is not an :class:`~regkit.client.extract.ExtractRecord`, or ``directory`` is no path.
        """
        if not isinstance(record, ExtractRecord):
            raise ArgumentError(
                f"download_extract needs the ExtractRecord of a completed extract, not {type(record).__name__} "
                f"{record!r:.60}",
                suggestion="pass what client.wait_for_extract(extract_id) or client.get_extract(extract_id) "
                "returns; nothing was sent",
            )
        if not isinstance(directory, (str, os.PathLike)) or not str(directory).strip():
            raise ArgumentError(
                f"directory must be a path, not {type(directory).__name__} {directory!r:.60}",
                suggestion="e.g. client.download_extract(record, 'extracts'); nothing was sent",
            )
        target = Path(directory)
        target.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        session = self._download_session()
        for index, document in enumerate(record.get("documents") or []):
            path = target / document_filename(document, index)
            path.write_bytes(self._fetch_document(session, record, index))
            paths.append(path)
        return paths

    def _fetch_document(self, session: requests.Session, record: ExtractRecord, index: int) -> bytes:
        document = record["documents"][index]
        timeout = self._timeout
        try:
            response = session.get(document.get("url") or self._fresh_url(record, index), timeout=timeout)
            if response.status_code == 403:  # the presigned URL expired meanwhile: ask for a fresh one
                response = session.get(self._fresh_url(record, index), timeout=timeout)
        except requests.RequestException as exc:
            raise TransportError(
                f"document {document.get('document_id')} could not be downloaded: {type(exc).__name__}"
            ) from exc
        if response.status_code != 200:
            raise TransportError(
                f"document {document.get('document_id')} could not be downloaded (status {response.status_code})",
                status=response.status_code,
            )
        return response.content

    def _fresh_url(self, record: ExtractRecord, index: int) -> str:
        answer = self._caller.call(replace(self._extract_op(record["id"]), refresh=True))
        return answer.data["documents"][index]["url"]

    def _download_session(self) -> requests.Session:
        session = requests.Session()  # no Authorization: presigned URLs need no key, and get none
        if self._adapter is not None:
            session.mount(self.base_url + "/", self._adapter)
        return session  # not closed by the caller: it may share the local register's adapter

    # -- documents ---------------------------------------------------------------------------------

    def get_document(self, document_id: str) -> DocumentRecord:
        """A listed document's metadata with a download URL (free: the listing was paid with the company).

        Parameters
        ----------
        document_id : str
            An id from a company's ``documents`` (``client.get_company(id).documents[i]["id"]``).

        Returns
        -------
        DocumentRecord
            ``id``, ``name`` (``"Musterprotokoll vom 01.01.2022"``), ``date``, ``type``
            (``articles_of_association``, ``sample_protocol``, ``shareholder_list``) and ``url``, valid for 15
            minutes. Cached for ``policy.document_lifetime`` (10 minutes), so a URL from the cache still works.

        Raises
        ------
        ValidationError
            An id that is not a non-empty string (nothing is sent).
        NotFoundError
            No company lists a document with this id.
        """
        return self._document(document_id, False)

    def _document(self, document_id: str, refresh: bool) -> DocumentRecord:
        op = document_op(document_id)
        answer = self._caller.call(replace(op, refresh=True) if refresh else op)
        return DocumentRecord(answer.data, record_meta(answer))

    def get_realtime_document(self, company_id: str, category: str) -> RealtimeDocumentRecord:
        """Fetch a document from the register now (20 credits; slow, like ``realtime=True``).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        category : str
            One of :data:`regkit.schema.interface.DOCUMENT_CATEGORIES`: ``current_printout`` (AD),
            ``chronological_printout`` (CD), ``historical_printout`` (HD, only for companies registered before
            2007), ``structured_information`` (SI, XML), ``shareholder_list``, ``articles_of_association``.

        Returns
        -------
        RealtimeDocumentRecord
            ``category``, ``file_name``, ``file_date`` and ``url`` (valid for 15 minutes), and ``company_id``. The
            answer is cached for ``policy.document_lifetime`` (10 minutes): asked again within it, it is free.

        Raises
        ------
        ValidationError
            A malformed company id or a category not in the list (nothing is sent).
        NotFoundError
            The company does not exist, or has no document of that category (``document_not_available``); nothing
            is charged.
        PaymentRequiredError, BudgetExceededError, ...
        """
        op = realtime_document_op(company_id, category)
        answer = self._caller.call(op)
        return RealtimeDocumentRecord(answer.data, record_meta(answer), company_id=op.params[0][1])

    def _downloader(self) -> Downloader:
        def realtime_cached(company_id: str, category: str) -> bool:
            return self._caller.is_cached(realtime_document_op(company_id, category))

        def company_cached(company_id: str) -> dict[str, Any] | None:
            (answer,) = self._caller.peek([lookup_op("company", company_id, False)])  # free: no ledger row
            return answer.data if answer is not None and isinstance(answer.data, dict) else None

        return Downloader(
            get_document=self._document,
            get_realtime=self.get_realtime_document,
            realtime_cached=realtime_cached,
            session=self._download_session,
            budget=self.budget,
            lifetime=self.policy.document_lifetime,
            timeout=self._timeout,
            company_cached=company_cached,
        )

    def estimate_download_cost(
        self, documents: Any, directory: str | os.PathLike[str], *, refetch: bool = False
    ) -> DownloadEstimate:
        """What :meth:`download` of ``documents`` into ``directory`` would cost now; nothing is sent or written.

        Returns
        -------
        DownloadEstimate
            Files asked for, kept (the directory has them), free, paid (20 credits each), the credits and the
            budget left.

        Raises
        ------
        ValidationError
            As :meth:`download`, for the input.
        """
        return self._downloader().estimate(documents, directory, refetch=validation.flag(refetch, "refetch"))

    @overload
    def download(
        self,
        documents: Any,
        directory: str | os.PathLike[str],
        *,
        refetch: bool = False,
        dry_run: Literal[False] = False,
        progress: bool = True,
    ) -> Downloads: ...

    @overload
    def download(
        self,
        documents: Any,
        directory: str | os.PathLike[str],
        *,
        refetch: bool = False,
        dry_run: Literal[True],
        progress: bool = True,
    ) -> DownloadEstimate: ...

    def download(
        self,
        documents: Any,
        directory: str | os.PathLike[str],
        *,
        refetch: bool = False,
        dry_run: bool = False,
        progress: bool = True,
    ) -> Downloads | DownloadEstimate:
        """Save documents as files in ``directory``, paying for none the directory already has.

        Parameters
        ----------
        documents : item or list of items
            One or many of: a listed document's id; a :class:`~regkit.client.DocumentRecord`; an entry
            of a company's ``documents``; ``(company_id, document_id)``; ``(company_id, category)`` for a document
            fetched now (20 credits); a :class:`~regkit.client.RealtimeDocumentRecord`; a company record
            (all its listed documents). A ``tuple`` of two strings is one pair; a list is always many.
        directory : str or path
            Where the files go (created with its parents). It keeps an index, ``.regkit-documents.json``.
        refetch : bool
            Fetch ``(company_id, category)`` pairs again (paid) even if the directory holds a file of them.
        dry_run : bool
            Return the :class:`~regkit.client.bulk.downloads.DownloadEstimate` instead (as
            :meth:`estimate_download_cost`).
        progress : bool
            Show a tqdm progress bar when several files are fetched.

        Returns
        -------
        Downloads
            The files in the order asked for (:class:`~regkit.client.bulk.downloads.DownloadedFile`: ``path``,
            ``size``, ``company_id``, ``category``, ``file_date``, ``document_id``, ``credits``, ``status``);
            ``.credits`` is what the call spent and ``.to_dataframe()`` one row per file (columns and dtypes in
            :meth:`Downloads.to_dataframe <regkit.client.bulk.downloads.Downloads.to_dataframe>`).

        Notes
        -----
        Files are named ``<company>_<category>_<date>.pdf`` (``.xml`` for structured information), ``<company>``
        being the company id, or the document id where the company is not known (a listed document given by id
        alone). A listed document is kept by its id, one fetched now by company, category and its file date. An
        expired URL of a listed document is renewed for free; a document fetched now has no free metadata, so an
        old record is fetched again and its 20 credits are in the estimate, shown in the log and the progress bar
        and checked against the budget before anything is paid. Each file is written to a temporary file in the
        directory and renamed into place: nothing half-written stays behind. See :mod:`regkit.client.bulk.downloads`.

        Raises
        ------
        ValidationError
            An item of no accepted form, a bare company id, an unknown category, or a directory that cannot be
            written (nothing is sent or paid).
        BudgetExceededError
            The estimate exceeds the budget left (nothing is sent).
        NotFoundError
            An unknown document id (found with the free metadata, before anything is paid), or a company without a
            document of that category (not charged).
        PermissionDeniedError
            The URL of a document fetched now died before it was downloaded (``url_expired``): fetching it again
            costs 20 credits, which the error says.
        """
        refetch = validation.flag(refetch, "refetch")
        if validation.flag(dry_run, "dry_run"):
            return self._downloader().estimate(documents, directory, refetch=refetch)
        progress = validation.flag(progress, "progress")
        with self._spending.run("download") as run:
            return self._downloader().download(
                documents, directory, refetch=refetch, progress=progress, announce=run.announce
            )

    # -- account ---------------------------------------------------------------------------------

    def store_credentials(self, username: str, password: str, name: str = "default") -> CredentialRecord:
        """Store Transparenzregister credentials under ``name`` (free).

        The interface checks them with the Transparenzregister first.  The password goes out in
        this one request body and nowhere else: the endpoint is never cached and never logged.
        ``name="sandbox"`` is reserved and refused before sending.
        """
        name = validation.credential_name(name, storing=True)
        answer = self._caller.call(store_credentials_op(username, password, name))
        return CredentialRecord(answer.data or {"name": name}, record_meta(answer))

    def list_monitors(self) -> list[MonitorRecord]:
        """The monitors of this API user, active and disabled (free; never cached)."""
        op = operation("list_monitors")
        answer = self._caller.call(op)
        meta = record_meta(answer)
        return [MonitorRecord(item, meta) for item in answer.data.get("items", [])]

    def create_monitor(
        self, entity_type: str, entity_id: str, preferences: Sequence[str] | str, update_frequency: str | None = None
    ) -> MonitorRecord:
        """Create a monitor (25 credits weekly, 50 daily; person monitors are always weekly).

        Never retried: after an ambiguous failure the error has ``outcome_unknown=True`` and
        says to check :meth:`list_monitors` first.
        """
        op = create_monitor_op(entity_type, entity_id, preferences, update_frequency)
        answer = self._caller.call(op)
        return MonitorRecord(answer.data, record_meta(answer))

    def delete_monitor(self, entity_id: str) -> None:
        """Delete this user's monitor on ``entity_id``, a company id or person UUID (free)."""
        op = delete_monitor_op(entity_id)
        self._caller.call(op)

    def get_credits(self) -> CreditsRecord:
        """The account's credits as the interface counts them (free; never cached)."""
        op = operation("get_credits")
        answer = self._caller.call(op)
        return CreditsRecord(answer.data, record_meta(answer))

    # -- export ----------------------------------------------------------------------------------
    # -- financial statements -------------------------------------------------------------------

    def get_financials(self, company_id: str, *, refresh_sources: bool = False) -> FinancialsRecord:
        """A company's filed annual reports, their 48 measures and the tables merged across years (10 credits;
        a cache hit is free).

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        refresh_sources : bool
            If the cached answer's presigned report URLs have expired, fetch it again (paid) instead of returning
            it with every report's ``sources`` empty.

        Returns
        -------
        FinancialsRecord
            ``.raw`` as the interface sent it, amounts in integer **cents**: ``indicators`` (per report the
            company filed itself, latest first: ``date``, ``report_id`` and 48 measures, ``employees`` a count),
            ``reports`` (``aktiva``, ``passiva`` and — except for a small company's short filing — ``guv`` as
            HGB trees of rows ``{name, formatted_name, current_value, previous_value, children}``; consolidated
            group reports have ``consolidated`` true) and ``merged`` (null without reports). ``liabilities`` is
            everything on the passiva side except equity: provisions (pensions included), Verbindlichkeiten
            and deferred income.
            ``company_name`` is the company's name when the cache holds its record (read for free: a chart's
            title names it), else ``None``.

        Warns
        -----
        NoFinancialReportsWarning
            The company has filed no report: the answer is empty (it was paid, and is cached).

        Notes
        -----
        Cached for 30 days (``policy.financials``), but each report's ``sources[].html_url`` lives 30 minutes:
        a cached answer older than ``policy.url_lifetime`` (25 minutes) comes back with every report's
        ``sources`` empty and ``meta.urls_expired`` set, unless ``refresh_sources`` asks for a paid refetch.
        ``estimate_cost(ids, endpoint="financials")`` and ``is_cached(id, endpoint="financials")`` say what
        it would cost before anything is paid.

        Raises
        ------
        ValidationError
            A malformed id or flag (nothing is sent).
        NotFoundError
            An unknown company (no credits spent).
        PaymentRequiredError, BudgetExceededError, ...
        """
        company_id = validation.validate_company_id(company_id)
        refresh_sources = validation.flag(refresh_sources, "refresh_sources")
        op = lookup_op("financials", company_id, False)
        answer = self._caller.call(op)
        stale = urls_stale(answer, self.policy.url_lifetime, key="reports")
        if stale and refresh_sources:
            answer, stale = self._caller.call(replace(op, refresh=True)), False
        data = without_report_sources(answer.data) if stale else answer.data
        record = FinancialsRecord(
            data,
            record_meta(answer, urls_expired=stale),
            company_id=company_id,
            company_name=lookups.cached_name(self._caller, "company", company_id),
        )
        if not record.has_reports:
            warnings.warn(
                NoFinancialReportsWarning(
                    f"{company_id} has filed no annual report: its financials are empty "
                    f"({'answered from the cache' if answer.from_cache else f'{answer.credits} credits spent'})"
                ),
                stacklevel=user_stacklevel(),
            )
        return record

    def statements(self, company_id: str, unit: str = "EUR") -> pd.DataFrame:
        """A company's balance sheets and P&L accounts as filed, one row per line item and report (10 credits
        for :meth:`get_financials`; a cache hit is free).

        The same as ``client.get_financials(company_id).statements(unit)``: see
        :func:`regkit.frames.statements` for the columns and dtypes, and :meth:`get_financials` for the cost,
        the cache and the errors. ``is_cached(company_id, endpoint="financials")`` says beforehand whether it
        is free; a company record's empty ``indicators`` that there is nothing to fetch.

        Parameters
        ----------
        company_id : str
            ``DE-<register type>-<court code>-<number>``.
        unit : {"EUR", "cents"}
            Amounts as ``Float64`` EUR or ``Int64`` cents.

        Returns
        -------
        pandas.DataFrame
            :func:`regkit.frames.statements` of the answer: empty (with its columns and dtypes) and a
            :class:`~regkit.errors.NoFinancialReportsWarning` for a company without reports.

        Raises
        ------
        ValidationError
            A malformed id, or a ``unit`` other than ``"EUR"`` and ``"cents"`` (nothing is sent).
        NotFoundError, PaymentRequiredError, BudgetExceededError, ...
        """
        if unit not in ("EUR", "cents"):
            raise ValidationError(f"unit must be 'EUR' or 'cents', not {unit!r}", suggestion="nothing was sent")
        return self.get_financials(company_id).statements(unit)

    def changes(self, entity_id: str, categories: Sequence[str] | None = None) -> pd.DataFrame:
        """What changed in the cached answers about one entity: its stored versions compared (0 credits, nothing
        is sent).

        When a cached answer is refreshed (``refresh=True``, or after its lifetime) and the fresh one differs, the
        one it replaces is kept as a version — at most ``CachePolicy.versions`` per request (10 by default), in
        the cache itself (SQLite or a team's Redis). This compares, for every cached lookup of ``entity_id`` that
        has changes, each version with the next and the newest with the answer stored now.

        Parameters
        ----------
        entity_id : str
            A company id (its record, financials, owners, beneficial owners, ownership history and holdings), or
            the UUID of a person (the person and their holdings) or of an insolvency proceeding.
        categories : sequence of str, optional
            Only changes of these categories (a monitor's preferences: ``basic``, ``representation``,
            ``financials``, ``documents``, ``ownership``, ``holdings``, ``insolvencies``,
            ``management_positions``); all by default.

        Returns
        -------
        pandas.DataFrame
            One row per change, oldest comparison first:

            ==============  ===================  ===============================================================
            entity_id       str                  the id asked for
            operation       str                  the lookup that changed (``get_company``, ``get_owners``, ...)
            fetched_before  datetime64[us, UTC]  when the older answer was fetched
            fetched_after   datetime64[us, UTC]  when the newer one was
            ==============  ===================  ===============================================================

            then the columns of :func:`regkit.frames.changes_table` (``category``, ``kind``, ``date``,
            ``field``, ``before``, ``after``, ``detail``). No rows when the cache holds no two different answers.

        Raises
        ------
        ValidationError
            ``entity_id`` is neither a company id nor a UUID, or a category is unknown.

        Examples
        --------
        >>> client = Client(cache="memory", ledger_file=None, quiet=True)  # the bundled register
        >>> company = client.search_companies("GmbH", per_page=1).results[0]["company_id"]
        >>> _ = client.get_company(company)
        >>> client.changes(company).empty  # one answer only: nothing to compare yet
        True
        """
        return cached_changes(self._caller, self.cache, entity_id, categories)

    def watchlist(
        self,
        name: str,
        companies: Sequence[str] | None = None,
        persons: Sequence[str] | None = None,
        categories: Sequence[str] | None = None,
        stale_after: str | timedelta | None = None,
    ) -> Watchlist:
        """A named set of companies and persons, kept in the cache (a team sharing a Redis cache shares it), to
        refresh for only what is stale (:mod:`regkit.client.watchlist`).

        ``client.watchlist(name)`` opens a stored one; with any other argument it is created, or the arguments
        given replace what it had.

        Parameters
        ----------
        name : str
            Its name.
        companies, persons : sequence of str, optional
            Company ids and person UUIDs (a person's id as the register gives it).
        categories : sequence of str, optional
            What to watch: a monitor's preferences (``basic``, ``representation``, ``financials``,
            ``documents``, ``ownership``, ``holdings``, ``insolvencies``, ``management_positions``); all by
            default. They decide which lookups a member needs (the module's table).
        stale_after : str or timedelta, optional
            A member whose answers were fetched longer ago than this is stale (``"7D"`` by default; ``"12h"``,
            ``timedelta(days=30)``).

        Returns
        -------
        Watchlist
            ``estimate()`` (nothing sent), ``refresh(max_credits=None)`` (the changes found), ``changes()``,
            ``members_frame()``, ``add(ids)``, ``remove(ids)``, ``delete()``.

        Raises
        ------
        ValidationError
            A bad name, member, category or age; or ``name`` unknown and nothing given to create it with.

        Examples
        --------
        >>> client = Client(cache="memory", ledger_file=None, quiet=True)  # the bundled register
        >>> watched = client.watchlist("suppliers", companies=["DE-HRB-B1234-5678"], stale_after="30D")
        >>> watched.estimate().lookups  # never fetched: stale
        4
        """
        from .watchlist import Watchlist, check_definition, members_of

        name, wanted, age = check_definition(name, categories, stale_after)
        store = self.cache.store.watchlists
        stored = store.get(name)
        given = (companies, persons, categories, stale_after) != (None, None, None, None)
        if stored is None and not given:
            known = store.names()
            raise ValidationError(
                f"there is no watchlist {name!r} in this cache"
                + (f" (it has {', '.join(map(repr, known[:10]))})" if known else ""),
                suggestion=f"create it: client.watchlist({name!r}, companies=[...], persons=[...])",
            )
        definition = dict(stored or {})
        if companies is not None:
            definition["companies"] = list(members_of(companies, "companies"))
        if persons is not None:
            definition["persons"] = list(members_of(persons, "persons"))
        if wanted is not None:
            definition["categories"] = list(wanted)
        if age is not None:
            definition["stale_after"] = age.total_seconds()
        watchlist = Watchlist(self, self._caller, self.cache, name, definition, self.changes, self.mark_stale)
        if given:
            store.put(name, watchlist.definition())
        return watchlist

    def watchlists(self) -> list[str]:
        """The names of the watchlists kept in this client's cache, sorted."""
        return self.cache.store.watchlists.names()

    def mark_stale(self, entity_id: str) -> int:
        """Expire now the cached answers about one entity, so the next lookup of each is fetched again (free now;
        each later lookup is paid as usual, and the answer it replaces is kept as a version for :meth:`changes`).

        What a webhook event says changed is marked so: ``regkit webhook listen --cache CACHE`` does it for every
        event it stores.

        Parameters
        ----------
        entity_id : str
            A company id (its record, financials, owners, beneficial owners, ownership history and holdings), or
            the UUID of a person (the person and their holdings) or of an insolvency proceeding.

        Returns
        -------
        int
            How many cached answers were fresh and are expired now.

        Raises
        ------
        ValidationError
            ``entity_id`` is neither a company id nor a UUID.
        CacheError
            The cache cannot be read or written.
        """
        return mark_stale(self._caller, self.cache, entity_id)

    def export_parquet(self, directory: str | os.PathLike[str], overwrite: bool = False) -> dict[str, Any]:
        """Write everything this client's cache holds as Parquet tables with the frames' dtypes (free).

        See :func:`regkit.client.cache_export.export_parquet` (which this calls with ``client.cache``) for the
        tables, the manifest and the errors.

        Parameters
        ----------
        directory : str or path
            A new or empty directory (created with its parents).
        overwrite : bool, default False
            Replace a previous export in ``directory``.

        Returns
        -------
        dict
            The manifest (also written to ``directory/manifest.json``).
        """
        return cache_export.export_parquet(self.cache, directory, overwrite=overwrite)
