"""``crawl``: map a group breadth-first through the client, paying for each call once.

Each level is estimated before it is fetched (``client.estimate_cost`` per endpoint: distinct uncached
ids × price), logged at INFO on ``regkit.graph.crawler``, handed to an optional ``callback`` (which may
stop the crawl), checked against the budget, then fetched: companies with the client's bulk lookup
(``client.get_companies``, which merges duplicates and answers cached companies for free), then the
holdings of each company fetched, then the person seeds.

Which way it goes
-----------------
A company record lists links *upwards*: a subsidiary names its Organträger and its shareholders, an
absorbed company its acquirer, an acquirer what it absorbed, a transferor its recipient — never its
subsidiaries. ``direction="up"`` (the default, as before) follows those links only, so from a group's
parent it finds almost nothing below it. The holdings endpoint is the downward edge:
``direction="down"`` asks each company reached for its holdings (current and past: a member merged
into another is reached only through a past holding) and follows them, together with the record's
downward links — what it absorbed and the recipients of its spin-offs (:func:`downward_links`); never its
Organträger, the company it merged into, its shareholders or representatives, which lead upwards and out of
the part below the seed. A crawl down from an Organträger reaches every member, and one from a subsidiary
only what lies below it.
``direction="both"`` follows everything. A person seed (a UUID) is looked up (``client.get_person``:
their management positions) and asked for their holdings (``client.get_person_holdings``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.errors import RegkitError

from . import _plan
from ._plan import DIRECTIONS
from .build import from_companies
from .ownership import held_companies
from .persons import is_company_id
from .report import CrawlReport, LevelEstimate
from .schema import (
    LEGAL_PERSON,
    MERGER,
    OWNERSHIP,
    PROFIT_TRANSFER,
    RECORD_RELATIONS,
    RELATIONS,
    REPRESENTATION,
    SPIN_OFF,
    check_relations,
)

if TYPE_CHECKING:
    from regkit.client import HoldingsRecord, PersonRecord
    from regkit.client.protocol import CrawlClient

__all__ = ["crawl", "linked_companies", "downward_links", "DIRECTIONS"]

logger = logging.getLogger(__name__)


def linked_companies(company: Mapping[str, Any], relations: Iterable[str] = RELATIONS) -> list[str]:
    """The company ids a CompanyV1 record links to, in the order the record lists them.

    Parameters
    ----------
    company : mapping
    relations : iterable of str
        ``merger`` (``merged_into``, ``acquisitions``), ``spin_off`` (``asset_spin_offs``),
        ``profit_transfer`` (``profit_transfer_agreement``), ``representation`` (legal-person
        representatives whose id is a company id). ``ownership`` adds nothing: a record does not
        list holdings (see :func:`crawl` with ``direction="down"``).

    Returns
    -------
    list of str
        Distinct ids, the company itself excluded.
    """
    relations = set(relations)
    found: list[str] = []
    if MERGER in relations:
        found += [link["company_id"] for link in [company.get("merged_into")] if link]
        found += [link["company_id"] for link in company.get("acquisitions") or ()]
    if SPIN_OFF in relations:
        found += [link["company_id"] for link in company.get("asset_spin_offs") or ()]
    if PROFIT_TRANSFER in relations and company.get("profit_transfer_agreement"):
        found.append(company["profit_transfer_agreement"]["company_id"])
    if REPRESENTATION in relations:
        found += [
            r["id"]
            for r in company.get("representation") or ()
            if r.get("type") == LEGAL_PERSON and is_company_id(r.get("id"))
        ]
    return [cid for cid in dict.fromkeys(found) if cid != company.get("id")]


def downward_links(company: Mapping[str, Any], relations: Iterable[str] = RELATIONS) -> list[str]:
    """The company ids a CompanyV1 record links to *downwards*: what it absorbed (``acquisitions``, with
    ``merger``) and the recipients of its spin-offs (``asset_spin_offs``, with ``spin_off``). Its profit-transfer
    agreement, the company it merged into and its shareholders point upwards and are left out.
    """
    relations = set(relations)
    found = [link["company_id"] for link in company.get("acquisitions") or ()] if MERGER in relations else []
    found += [link["company_id"] for link in company.get("asset_spin_offs") or ()] if SPIN_OFF in relations else []
    return [cid for cid in dict.fromkeys(found) if cid != company.get("id")]


#: One line of a level's endpoint report: ``(endpoint, calls, spent credits, failures)``.
_Row = tuple[str, int, int, int]


class _Crawl:
    """What one crawl has fetched so far, and how it fetches a level."""

    def __init__(self, client: CrawlClient, relations: tuple[str, ...], direction: str, progress: bool) -> None:
        self.client, self.progress, self.report = client, progress, CrawlReport()
        down = direction != "up"
        self.shape = _plan.Level(
            ("company", "holdings") if down else ("company",),
            tuple(e for e, r in (("person", REPRESENTATION), ("person_holdings", OWNERSHIP)) if r in relations),
        )
        follow = [r for r in relations if r in RECORD_RELATIONS and not (direction == "down" and r == REPRESENTATION)]
        self.follow = tuple(follow)
        self.down_only = direction == "down"
        self.companies: dict[str, dict[str, Any]] = {}  # company id → raw record
        self.requested: set[str] = set()
        self.holdings: dict[tuple[str, str], dict[str, Any]] = {}  # (endpoint, holder) → raw holdings answer
        self.persons: dict[str, dict[str, Any]] = {}  # person id → raw person answer
        self.persons_done: set[str] = set()

    def todo(self, frontier: list[str], persons: list[str]) -> tuple[list[str], list[str]]:
        ids = [cid for cid in dict.fromkeys(frontier) if cid not in self.requested and cid not in self.companies]
        return ids, [p for p in dict.fromkeys(persons) if p not in self.persons_done]

    def each(
        self, endpoint: str, method: Callable[[str], HoldingsRecord | PersonRecord], ids: list[str]
    ) -> tuple[dict[str, dict[str, Any]], int, int]:
        """Call ``method`` for each id: the answers, the credits spent and the failures."""
        from tqdm.auto import tqdm

        before, answers, failed = self.client.credits_spent, {}, 0
        for one in tqdm(
            ids, desc=endpoint, unit="call", leave=False, disable=True if not self.progress or len(ids) < 2 else None
        ):
            try:
                answers[one] = method(one).raw
            except RegkitError as error:
                self.report.failed_calls[(endpoint, one)] = error
                failed += 1
        return answers, self.client.credits_spent - before, failed

    def fetch(self, plan: LevelEstimate) -> list[str]:
        """Fetch a planned level; the companies its answers lead to (only seeds are persons)."""
        client, frontier = self.client, []
        rows: list[_Row] = []
        fresh: dict[str, dict[str, Any]] = {}
        errors: dict[str, Exception] = {}
        if plan.ids:
            before = client.credits_spent
            batch = client.get_companies(list(plan.ids), errors="collect", progress=self.progress)
            fresh, errors = {record.raw["id"]: record.raw for record in batch.ok}, dict(batch.errors)
            rows.append(("company", len(plan.ids), client.credits_spent - before, len(errors)))
        self.requested.update(plan.ids)
        self.companies.update(fresh)
        self.report.failed.update(errors)
        for raw in fresh.values():
            frontier += downward_links(raw, self.follow) if self.down_only else linked_companies(raw, self.follow)
        if plan.holdings:
            asked = [cid for cid in fresh if ("holdings", cid) not in self.holdings]
            frontier += self.ask("holdings", client.get_holdings, asked, rows)
        if plan.persons:
            frontier += self.ask_persons(list(plan.persons), rows)
        self.record(plan, rows, len(fresh), len(errors))
        return frontier

    def ask(
        self, endpoint: str, method: Callable[[str], HoldingsRecord | PersonRecord], ids: list[str], rows: list[_Row]
    ) -> list[str]:
        """Holdings (of companies or persons): kept, and the companies they list."""
        answers, spent, failed = self.each(endpoint, method, ids)
        rows.append((endpoint, len(ids), spent, failed))
        self.holdings.update(((endpoint, holder), answer) for holder, answer in answers.items())
        return [cid for answer in answers.values() for cid in held_companies(answer)]

    def ask_persons(self, persons: list[str], rows: list[_Row]) -> list[str]:
        """The person seeds and their holdings: kept, and the companies of their positions and holdings."""
        frontier: list[str] = []
        if "person" in self.shape.person_endpoints:
            answers, spent, failed = self.each("person", self.client.get_person, persons)
            rows.append(("person", len(persons), spent, failed))
            self.persons.update(answers)
            frontier += [
                p["register_id"]
                for answer in answers.values()
                for p in answer.get("management_positions") or ()
                if is_company_id(p.get("register_id"))
            ]
        if "person_holdings" in self.shape.person_endpoints:
            frontier += self.ask("person_holdings", self.client.get_person_holdings, persons, rows)
        self.persons_done.update(persons)
        return frontier

    def record(self, plan: LevelEstimate, rows: list[_Row], fetched: int, failed: int) -> None:
        for endpoint, calls, spent, fails in rows:
            self.report.endpoint_rows.append(
                {
                    "level": plan.level,
                    "endpoint": endpoint,
                    "calls": calls,
                    "cached": plan.cached_calls.get(endpoint, 0),
                    "estimated_credits": plan.credits.get(endpoint, 0),
                    "spent_credits": spent,
                    "failed": fails,
                }
            )
        self.report.rows.append(
            {
                "level": plan.level,
                "ids": plan.ids,
                "companies": len(plan.ids),
                "cached": plan.cached,
                "estimated_credits": plan.estimated_credits,
                "spent_credits": sum(row[2] for row in rows),
                "fetched": fetched,
                "failed": failed,
                "skipped": len(plan.skipped),
            }
        )


def crawl(
    client: CrawlClient,
    seeds: Any,
    depth: int = 2,
    relations: Any = RELATIONS,
    budget: int | None = None,
    max_companies: int | None = None,
    progress: bool = True,
    callback: Callable[[LevelEstimate], Any] | None = None,
    *,
    person_city: bool = False,
    direction: str = "up",
) -> nx.MultiDiGraph:
    """Fetch companies breadth-first along their links and return their group graph.

    Parameters
    ----------
    client : regkit.Client
        Or anything with the members of ``regkit.client.protocol.CrawlClient`` (``regkit.Client`` has them):
        ``estimate_cost(ids)``, ``get_companies(ids, errors=, progress=)`` and ``credits_spent``; going down or
        from persons also ``estimate_cost(ids, endpoint=)``, ``get_holdings``, ``get_person``,
        ``get_person_holdings``.
    seeds : str or iterable of str
        Company ids and person ids (UUIDs) to start from (level 0).
    depth : int
        Levels of links to follow: 0 fetches the seeds only, 2 (default) the seeds, what they link
        to, and what those link to.
    relations : sequence of str
        Links to put in the graph (:data:`~regkit.graph.RELATIONS`), and to follow as ``direction``
        says.
    budget : int, optional
        Credits this crawl may spend (the client's own budget, if any, applies too). A level that
        would cross it is cut to what fits — in order, each company with its holdings call, cached
        calls free — and the crawl stops after it, saying so in the log (WARNING) and in
        ``report.stopped``.
    max_companies : int, optional
        Stop after this many company lookups (cut the level that reaches it).
    progress : bool
        Show the bulk lookup's progress bar.
    callback : callable, optional
        Called with each level's :class:`LevelEstimate` before anything is spent on it; returning
        ``False`` stops the crawl there (e.g. ask the user in a notebook, or ``callback=print``). Without a
        callback each level that costs something is said on stderr before it is paid (``regkit: crawl: level 1:
        …``; ``Client(quiet=True)`` or ``REGKIT_QUIET=1`` leaves it out).
    person_city : bool, default False
        Passed to :func:`from_companies` (the city as tie-breaker in the node ids of persons without id).
    direction : {"up", "down", "both"}
        ``"up"`` (default): the links company records list, as before (see the module docstring).
        ``"down"``: each company's holdings (one call per company, 10 credits, cached afterwards;
        needs ``"ownership"`` in ``relations``) and its record's downward links (acquisitions, spin-offs;
        :func:`downward_links`). ``"both"``: all of it.

    Returns
    -------
    networkx.MultiDiGraph
        :func:`from_companies` of the companies fetched, with the holdings (``ownership`` edges,
        shares as fractions, past holdings with their end) and person answers; ``G.graph["crawl"]`` is
        the :class:`CrawlReport` (its ``levels`` frame shows estimate and spending per level, its
        ``endpoints`` frame per endpoint; in a notebook the report displays as a table). Each level's
        estimate equals what it then cost, unless a call fails: failed calls (404) cost nothing, so
        the estimate is an upper bound.

    Raises
    ------
    regkit.ValidationError
        (a ``ValueError``) For a seed that is neither a company id nor a UUID, a negative depth or
        budget, a ``max_companies`` below 1, an unknown direction, or relations that give the
        direction nothing to follow.

    Examples
    --------
    A subsidiary of an intermediate holding: its parent, then the group's Organträger (the bundled
    local register, in-process; a memory cache, so every lookup is paid).

    >>> import regkit
    >>> from regkit.graph import crawl, ultimate_parent
    >>> client = regkit.Client(cache="memory")
    >>> G = crawl(client, ["DE-HRB-R2103-158659"], progress=False, callback=print)
    level 0: 1 company (0 cached) → 10 credits
    level 1: 1 company (0 cached) → 10 credits
    level 2: 1 company (0 cached) → 10 credits
    >>> G.graph["crawl"].levels[["level", "ids", "estimated_credits", "spent_credits"]]
       level                     ids  estimated_credits  spent_credits
    0      0  (DE-HRB-R2103-158659,)                 10             10
    1      1  (DE-HRB-B1204-124641,)                 10             10
    2      2   (DE-HRB-R2103-65834,)                 10             10
    >>> ultimate_parent(G, "DE-HRB-R2103-158659")
    'DE-HRB-R2103-65834'
    """
    relations = check_relations(relations)
    seeds, people = _plan.check_arguments(seeds, depth, relations, budget, max_companies, direction)
    state = _Crawl(client, relations, direction, bool(progress))
    with _plan.spending(client, "crawl") as run:
        _levels(state, client, seeds, people, depth, budget, max_companies, callback, run)
    report = state.report
    if report.stopped and report.stopped.startswith("budget"):
        fetched = f"{len(state.companies)} {'company' if len(state.companies) == 1 else 'companies'}"
        _plan.budget_stop("crawl", report.stopped, fetched, report.skipped, report.spent_credits)
    graph = from_companies(
        state.companies.values(),
        relations,
        person_city=person_city,
        holdings=list(state.holdings.values()),
        persons=list(state.persons.values()),
    )
    graph.graph["crawl"] = report
    return graph


def _levels(
    state: _Crawl,
    client: CrawlClient,
    seeds: list[str],
    people: list[str],
    depth: int,
    budget: int | None,
    max_companies: int | None,
    callback: Callable[[LevelEstimate], Any] | None,
    run: Any,
) -> None:
    """The crawl's levels, each estimated (and its cost said, ``run.announce``) before it is fetched."""
    report, frontier = state.report, seeds
    for level in range(depth + 1):
        ids, people = state.todo(frontier, people)
        if not ids and not people:
            break
        done = len(state.requested)
        plan, stopped = _plan.estimate(
            client,
            state.shape,
            ids,
            people,
            level,
            _plan.remaining(client, budget, report.spent_credits),
            None if max_companies is None else max(max_companies - done, 0),
        )
        report.stopped = stopped or report.stopped
        report.skipped += plan.skipped
        logger.info("crawl %s", plan)
        if callback is not None and callback(plan) is False:
            report.stopped = f"callback declined level {level}"
            report.skipped += plan.ids + plan.persons
            logger.info("crawl stopped: %s", report.stopped)
            break
        if plan.ids or plan.persons:
            if plan.estimated_credits and callback is None:  # a callback was handed the estimate instead
                run.announce(str(plan))
            frontier, people = state.fetch(plan), []
        if report.stopped:
            logger.warning("crawl stopped: %s", report.stopped)
            break
