"""``crawl``: map a group breadth-first through the client, paying for each company once.

Each level is estimated before it is fetched (``client.estimate_cost``: distinct uncached ids ×
price), logged at INFO on ``regkit.graph.crawler``, handed to an optional ``callback`` (which may stop
the crawl), checked against the budget, then fetched with the client's bulk lookup
(``client.get_companies``), which merges duplicates and answers cached companies for free.

The interface lists links *upwards* (a subsidiary names its Organträger and its shareholders, an
absorbed company its acquirer, an acquirer what it absorbed, a transferor its recipient), not down
to subsidiaries: to map a whole group, seed the crawl with its members.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import networkx as nx

from .build import from_companies
from .persons import is_company_id
from .report import CrawlReport, LevelEstimate
from .schema import LEGAL_PERSON, MERGER, PROFIT_TRANSFER, RELATIONS, REPRESENTATION, SPIN_OFF, check_relations

__all__ = ["crawl", "linked_companies"]

logger = logging.getLogger(__name__)


def linked_companies(company: Mapping[str, Any], relations: Iterable[str] = RELATIONS) -> list[str]:
    """The company ids a CompanyV1 record links to, in the order the record lists them.

    Parameters
    ----------
    company : mapping
    relations : iterable of str
        ``merger`` (``merged_into``, ``acquisitions``), ``spin_off`` (``asset_spin_offs``),
        ``profit_transfer`` (``profit_transfer_agreement``), ``representation`` (legal-person
        representatives whose id is a company id).

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
        found += [r["id"] for r in company.get("representation") or ()
                  if r.get("type") == LEGAL_PERSON and is_company_id(r.get("id"))]  # fmt: skip
    return [cid for cid in dict.fromkeys(found) if cid != company.get("id")]


def _remaining(client: Any, budget: int | None, spent: int) -> int | None:
    limits = [budget - spent] if budget is not None else []
    client_left = getattr(getattr(client, "budget", None), "remaining", None)
    if client_left is not None:
        limits.append(client_left)
    return min(limits) if limits else None


def _fit(client: Any, ids: list[str], remaining: int) -> tuple[list[str], list[str]]:
    """The ids, in order, that ``remaining`` credits pay for (cached ones are free)."""
    keep, cut = [], []
    for cid in ids:
        cost = client.estimate_cost([cid]).credits
        if cost <= remaining:
            keep.append(cid)
            remaining -= cost
        else:
            cut.append(cid)
    return keep, cut


def _plan(client: Any, ids: list[str], level: int, report: CrawlReport, left: int | None,
          max_left: int | None) -> LevelEstimate:  # fmt: skip
    skipped: list[str] = []
    if max_left is not None and len(ids) > max_left:
        ids, skipped = ids[:max_left], ids[max_left:]
        report.stopped = f"max_companies reached at level {level}"
    estimate = client.estimate_cost(ids)
    if left is not None and estimate.credits > left:
        ids, cut = _fit(client, ids, left)
        skipped = cut + skipped
        report.stopped = (f"budget: level {level} needs {estimate.credits} credits, {left} left; "
                          f"fetched {len(ids)} of its {len(ids) + len(cut)} companies")  # fmt: skip
        estimate = client.estimate_cost(ids)
    return LevelEstimate(level, tuple(ids), estimate.cached, estimate.credits, tuple(skipped), left)


def crawl(client: Any, seeds: Any, depth: int = 2, relations: Any = RELATIONS, budget: int | None = None,
          max_companies: int | None = None, progress: bool = True,
          callback: Callable[[LevelEstimate], Any] | None = None, *,
          person_city: bool = False) -> nx.MultiDiGraph:  # fmt: skip
    """Fetch companies breadth-first along their links and return their group graph.

    Parameters
    ----------
    client : regkit.Client
        Anything with ``estimate_cost(ids)``, ``get_companies(ids, errors=, progress=)`` and
        ``credits_spent`` (``regkit.Client``).
    seeds : str or iterable of str
        Company ids to start from (level 0).
    depth : int
        Levels of links to follow: 0 fetches the seeds only, 2 (default) the seeds, what they link
        to, and what those link to.
    relations : sequence of str
        Links to follow and to put in the graph (see :func:`linked_companies`).
    budget : int, optional
        Credits this crawl may spend (the client's own budget, if any, applies too). A level that
        would cross it is cut to what fits — cached companies first, they are free — and the crawl
        stops after it, saying so in the log (WARNING) and in ``report.stopped``.
    max_companies : int, optional
        Stop after this many lookups (cut the level that reaches it).
    progress : bool
        Show the bulk lookup's progress bar.
    callback : callable, optional
        Called with each level's :class:`LevelEstimate` before anything is spent on it; returning
        ``False`` stops the crawl there (e.g. ask the user in a notebook, or ``callback=print``).
    person_city : bool, default False
        Passed to :func:`from_companies` (the city as tie-breaker in the node ids of persons without id).

    Returns
    -------
    networkx.MultiDiGraph
        :func:`from_companies` of the companies fetched; ``G.graph["crawl"]`` is the
        :class:`CrawlReport` (its ``levels`` frame shows estimate and spending per level; in a
        notebook the report displays as a table). Each level's estimate equals what it then
        cost, unless a lookup fails: failed lookups (404) cost nothing, so the estimate is an upper
        bound.

    Raises
    ------
    ValueError
        For a malformed seed id, a negative depth or budget, or a ``max_companies`` below 1.

    Examples
    --------
    A subsidiary of an intermediate holding: its parent, then the group's Organträger (the bundled
    local register, in-process; a memory cache, so every lookup is paid).

    >>> import regkit
    >>> from regkit.graph import crawl, ultimate_parent
    >>> client = regkit.Client(cache="memory")
    >>> G = crawl(client, ["DE-HRB-R2103-158659"], progress=False, callback=print)
    level 0: 1 companies (0 cached) → 10 credits
    level 1: 1 companies (0 cached) → 10 credits
    level 2: 1 companies (0 cached) → 10 credits
    >>> G.graph["crawl"].levels[["level", "ids", "estimated_credits", "spent_credits"]]
       level                     ids  estimated_credits  spent_credits
    0      0  (DE-HRB-R2103-158659,)                 10             10
    1      1  (DE-HRB-B1204-124641,)                 10             10
    2      2   (DE-HRB-R2103-65834,)                 10             10
    >>> ultimate_parent(G, "DE-HRB-R2103-158659")
    'DE-HRB-R2103-65834'
    """
    relations = check_relations(relations)
    seeds = [seeds] if isinstance(seeds, str) else list(seeds)
    bad = [s for s in seeds if not is_company_id(s)]
    if bad:
        raise ValueError(f"not company ids: {bad[:5]}; ids look like DE-HRB-B1204-12345")
    if depth < 0 or (budget is not None and budget < 0) or (max_companies is not None and max_companies < 1):
        raise ValueError("depth and budget must be ≥ 0 and max_companies ≥ 1")
    fetched: dict[str, dict[str, Any]] = {}  # company id → raw record
    report, frontier = CrawlReport(), list(dict.fromkeys(seeds))
    for level in range(depth + 1):
        ids = [cid for cid in dict.fromkeys(frontier) if cid not in fetched and cid not in report.failed]
        if not ids:
            break
        done = len(fetched) + len(report.failed)
        plan = _plan(client, ids, level, report, _remaining(client, budget, report.spent_credits),
                     None if max_companies is None else max_companies - done)  # fmt: skip
        report.skipped += plan.skipped
        logger.info("crawl %s", plan)
        if callback is not None and callback(plan) is False:
            report.stopped = f"callback declined level {level}"
            report.skipped += plan.ids
            logger.info("crawl stopped: %s", report.stopped)
            break
        if plan.ids:
            before = client.credits_spent
            batch = client.get_companies(list(plan.ids), errors="collect", progress=progress)
            fresh = {record.raw["id"]: record.raw for record in batch.ok}
            fetched.update(fresh)
            report.failed.update(batch.errors)
            report.rows.append({"level": level, "ids": plan.ids, "companies": len(plan.ids), "cached": plan.cached,
                                "estimated_credits": plan.estimated_credits,
                                "spent_credits": client.credits_spent - before, "fetched": len(fresh),
                                "failed": len(batch.errors), "skipped": len(plan.skipped)})  # fmt: skip
            frontier = [cid for raw in fresh.values() for cid in linked_companies(raw, relations)]
        if report.stopped:
            logger.warning("crawl stopped: %s", report.stopped)
            break
    graph = from_companies(fetched.values(), relations, person_city=person_city)
    graph.graph["crawl"] = report
    return graph
