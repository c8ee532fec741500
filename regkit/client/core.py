"""``regkit.Client``: the one way regkit talks to the interface (live service or local register)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Literal, overload
from urllib.parse import quote

from regkit.schema.interface import PRICES

from . import arguments, bulk, validation
from .account import AccountMethods
from .budget import Budget
from .cache import ClientCache, open_backend
from .cache_store import CHUNK
from regkit.errors import ValidationError
from .export_methods import ExportMethods
from .extracts import ExtractMethods
from .insolvencies import InsolvencyMethods
from .ledger import Ledger, LedgerFile, default_ledger_path
from .memory import gc_paused
from .policy import CachePolicy, company_ids, scope_token
from .records import CompanyBatch, CompanyRecord, RecordMeta
from .research import ResearchMethods
from .research_lookups import COMPANY_HINTS
from .retry import RetryPolicy
from .target import DEMO_API_KEY, LIVE_BASE_URL, LOCAL_ORIGIN, resolve_target
from .team_budget import TeamBudget, default_member
from .transport.call import Answer, Caller, Operation
from .transport.session import build_session

__all__ = ["Client", "DEFAULT_LIVE_BASE_URL", "LOCAL_ORIGIN", "DEMO_API_KEY"]

logger = logging.getLogger(__name__)

#: Where the live service answers unless ``base_url`` / ``REGKIT_BASE_URL`` say otherwise.
DEFAULT_LIVE_BASE_URL = LIVE_BASE_URL


class Client(InsolvencyMethods, ResearchMethods, ExtractMethods, AccountMethods, ExportMethods):
    """A client of the company register interface that is careful with credits.

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
        :mod:`regkit.client.target` for the whole rule.
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
        client of the team, in any process on any machine (:class:`~regkit.client.team_budget.TeamBudget`):
        prices are reserved atomically in Redis before a call is sent, so the team together never spends
        more than its cap — also when Redis fails or a member dies mid-call: the budget fails closed
        (:class:`~regkit.errors.BudgetUnavailableError`) and re-establishes itself from the register's own
        account (see :mod:`regkit.client.team_budget`). The cap lives in Redis: ``budget`` sets it for a team that has
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
        Where paid calls are also written, at once, one JSON line each (:mod:`regkit.client.ledger`):
        ``"default"`` is ``REGKIT_LEDGER``, else ``ledger.jsonl`` in the user data directory — except for the
        bundled register in-process (synthetic credits), which writes none unless a path is given; ``None``
        writes no file.
    adapter : requests transport adapter, optional
        Serves ``base_url`` instead of the network (e.g. a shared ``LocalRegisterAdapter``).
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
    ) -> None:
        budget, max_workers = arguments.budget(budget), arguments.max_workers(max_workers)
        timeout, retry = arguments.timeout(timeout), arguments.retries(retries)
        policy, offline = arguments.policy(policy), arguments.offline(offline)
        scope = arguments.budget_scope(budget_scope)
        member = arguments.budget_member(budget_member, scope)
        self.target = target = resolve_target(api_key, base_url, arguments.adapter(adapter))
        self.base_url, self.mode, api_key, adapter = target.base_url, target.mode, target.api_key, target.adapter
        self.max_workers = max_workers
        self.policy = policy
        uncached_ok = validation.flag(uncached_ok, "uncached_ok")
        ledger_path = arguments.ledger_file(ledger_file)
        self.cache = ClientCache(open_backend(cache), self.policy, offline=offline, uncached_ok=uncached_ok)
        self.budget = Budget(budget) if scope is None else TeamBudget(*scope, limit=budget, member=member)
        self._scope = scope_token(self.base_url, api_key)
        if ledger_path == "default":  # the bundled register in-process charges synthetic credits: no file for them
            ledger_path = default_ledger_path() if target.mode != "local" else None
        context = {"service": self.base_url, "user": self._scope, "member": member or default_member()}
        self._ledger = Ledger(LedgerFile(ledger_path, context) if ledger_path is not None else None)
        self._secret = api_key
        session, meter = build_session(self.base_url, api_key, adapter=adapter, pool_size=max(10, max_workers))
        self._adapter = adapter
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
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    # -- bookkeeping ---------------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret and len(self._secret) >= 4 else text

    @property
    def ledger(self) -> Any:
        """One row per call as a DataFrame (see :meth:`regkit.client.ledger.Ledger.to_dataframe`)."""
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
        return self._caller.meter.sent

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
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        self._caller.session.close()
        self.cache.store.close()
        if self._ledger.file is not None:
            self._ledger.file.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _executor(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.max_workers, thread_name_prefix="regkit")
            return self._pool

    def _call(self, op: Operation) -> Answer:
        return self._caller.call(op)

    @staticmethod
    def _meta(answer: Answer, urls_expired: bool = False) -> RecordMeta:
        return RecordMeta(answer.from_cache, answer.fetched_at, answer.credits, urls_expired)

    def _urls_stale(self, answer: Answer) -> bool:
        age = datetime.now(timezone.utc) - answer.fetched_at
        return answer.from_cache and age > self.policy.url_lifetime

    # -- companies -----------------------------------------------------------------------------
    def _company_op(self, company_id: str, realtime: bool, export: bool) -> Operation:
        params = tuple((k, "true") for k, on in (("realtime", realtime), ("export", export)) if on)
        price = PRICES["company_realtime" if realtime else "company"]
        return Operation(
            "get_company", "GET", f"/v1/company/{quote(company_id)}", params=params, price=price, hints=COMPANY_HINTS
        )

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
        op = self._company_op(
            validation.company_id(company_id), validation.flag(realtime, "realtime"), validation.flag(export, "export")
        )
        refresh_sources = validation.flag(refresh_sources, "refresh_sources")
        return self._company_record(op, self._call(op), refresh_sources)

    def _company_record(self, op: Operation, answer: Answer, refresh_sources: bool = False) -> CompanyRecord:
        """The record of a company answer, its presigned URLs checked (see :meth:`get_company`)."""
        stale = "sources" in answer.data and self._urls_stale(answer)
        if stale and refresh_sources:
            answer, stale = self._call(replace(op, refresh=True)), False
        if answer.source == "network":
            self._alias_company(op, answer.data)
        data = answer.data
        if stale:
            data = {k: v for k, v in data.items() if k != "sources"}
            logger.info("%s: cached source URLs expired and were left out (refresh_sources=True fetches them)", op.path)
        return CompanyRecord(data, self._meta(answer, urls_expired=stale))

    def _cached_companies(self, company_ids: Sequence[str], realtime: bool = False) -> dict[str, CompanyRecord]:
        """The companies of ``company_ids`` (valid, distinct) the cache answers now, read in one batch, each with
        its ledger row as :meth:`get_company` records a hit; the others are left out."""
        found: dict[str, CompanyRecord] = {}
        for start in range(0, len(company_ids), CHUNK):  # a chunk at a time: few temporary objects live at once
            part = company_ids[start : start + CHUNK]
            ops = [self._company_op(cid, realtime, False) for cid in part]
            with gc_paused():  # many short-lived objects per answer beside the records already read
                for cid, op, answer in zip(part, ops, self._caller.cached_many(ops)):
                    if answer is not None:
                        found[cid] = self._company_record(op, answer)
        return found

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
        endpoint : {"company", "owners", "holdings", "person", "person_holdings"}
            Which lookup: :meth:`get_company`, :meth:`get_owners`, :meth:`get_holdings`, :meth:`get_person`,
            :meth:`get_person_holdings` (each with its default options).
        best_available : bool
            For ``endpoint="owners"``: ``get_owners(id, best_available=True)``.

        Raises
        ------
        ValidationError
            A malformed id, an unknown endpoint, or ``realtime`` for an endpoint without it.
        """
        realtime = validation.flag(realtime, "realtime")
        op = self._lookup_op(endpoint, company_id, realtime, validation.flag(best_available, "best_available"))
        return not realtime and self._caller.is_cached(op)

    def _alias_company(self, op: Operation, data: Any) -> None:
        """Make a fresh company answer serve every id it stands for (its current id and its former ids,
        before a move to another court), so a lookup by either is free from now on."""
        if not self.cache.enabled or ("realtime", "true") in op.params:
            return
        asked = op.path.rsplit("/", 1)[-1]
        others = []
        for other in sorted(company_ids(data) - {asked}):
            try:
                others.append(replace(op, path=f"/v1/company/{quote(validation.company_id(other))}"))
            except ValidationError:
                continue
        self._caller.alias(op, others)

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
    ) -> bulk.CostEstimate: ...

    @overload
    def get_companies(
        self, ids: Sequence[str], realtime: bool = False, errors: str = "raise", progress: bool = True, *, dry_run: bool
    ) -> CompanyBatch | bulk.CostEstimate: ...

    def get_companies(
        self,
        ids: Sequence[str],
        realtime: bool = False,
        errors: str = "raise",
        progress: bool = True,
        *,
        dry_run: bool = False,
    ) -> CompanyBatch | bulk.CostEstimate:
        """Look up many companies concurrently; each distinct company is paid at most once.

        See :func:`regkit.client.bulk.get_companies` for the details.
        """
        return bulk.get_companies(
            self,
            ids,
            realtime=validation.flag(realtime, "realtime"),
            errors=errors,
            progress=validation.flag(progress, "progress"),
            dry_run=validation.flag(dry_run, "dry_run"),
        )

    def estimate_cost(
        self, company_ids: Sequence[str], realtime: bool = False, *, endpoint: str = "company"
    ) -> bulk.CostEstimate:
        """What looking up ``company_ids`` would cost now: distinct uncached ids × price (nothing is sent).

        ``endpoint`` is one of ``"company"`` (the default), ``"owners"``, ``"holdings"``, ``"person"`` and
        ``"person_holdings"`` (person UUIDs for the last two), as for :meth:`is_cached`; malformed ids are not
        counted.  See :func:`regkit.client.bulk.estimate_cost`.
        """
        return bulk.estimate_cost(self, company_ids, realtime=validation.flag(realtime, "realtime"), endpoint=endpoint)
