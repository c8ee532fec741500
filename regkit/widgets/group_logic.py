"""What :class:`~regkit.widgets.GroupExplorer` does, as plain functions: check the inputs, estimate a crawl
without spending, crawl, the dates the group changed on and its interlocks on a date (its drawing:
:mod:`regkit.widgets.group_drawing`).

The estimate is a dry run of :func:`regkit.graph.crawl`: its ``callback`` sees each level's
:class:`~regkit.graph.LevelEstimate` before anything is spent, and the dry run lets a level through
only when the cache answers all of it (0 credits). So it reports every level that can be known
for free and the first level that would cost; what lies beyond a paid level is known only once that
level has been fetched (the crawl then tells each level's estimate as it reaches it). A level's
estimate covers every call it makes: company lookups, and going ``down`` (or ``both``) the holdings of
each company; for a person seed the person and their holdings.
"""

from __future__ import annotations

import datetime as _dt
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.errors import BudgetStopWarning
from regkit.graph import DIRECTIONS, OWNERSHIP, RELATIONS, LevelEstimate, crawl, interlocks
from regkit.graph.report import ENDPOINTS
from regkit.graph.schema import COMPANY, LEGAL_PERSON, NATURAL_PERSON, RECORD_RELATIONS, REPRESENTATION
from regkit.schema.formatting import count_text, credits_text, plural

from .render import frame_html, message_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = [
    "CURRENT",
    "DIRECTION_HELP",
    "DIRECTION_OPTIONS",
    "RELATION_OPTIONS",
    "change_dates",
    "check_crawl",
    "crawl_label",
    "crawl_summary",
    "estimate_crawl",
    "estimate_html",
    "interlocks_frame",
    "interlocks_html",
    "report_html",
    "run_crawl",
    "to_day",
]

RELATION_OPTIONS = RELATIONS
"""The relations a crawl can follow (one checkbox each)."""

DIRECTION_OPTIONS = DIRECTIONS
"""The ways a crawl can go: ``down`` (holdings: from a parent to its group), ``up`` (the links company
records list: from a member to the top), ``both``."""

DIRECTION_HELP = {
    "down": "through holdings, from a parent to its group",
    "up": "along the records' links, from a member to the top",
    "both": "both ways",
}
"""What each direction does, in a few words (the buttons' tooltips)."""

CURRENT = "current"
"""The date slider's last option: the group as it stands now."""

_ENDPOINT_LABELS = {
    "company": "company lookups",
    "holdings": "holdings",
    "person": "person lookups",
    "person_holdings": "person holdings",
}


def check_crawl(seed_kind: str, direction: str, relations: Sequence[str]) -> str | None:
    """Why a crawl with these inputs cannot run (plain text), or ``None``: the rules of
    :func:`regkit.graph.crawl`, said before anything is sent.

    Examples
    --------
    >>> check_crawl("company", "down", ["profit_transfer"])
    "Going down follows holdings: tick 'ownership'."
    >>> check_crawl("person", "up", ["ownership"]) is None
    True
    """
    if not relations:
        return "Tick at least one relation."
    if direction != "up" and OWNERSHIP not in relations:
        return f"Going {direction} follows holdings: tick 'ownership'."
    if direction == "up" and seed_kind != "person" and not set(relations) & set(RECORD_RELATIONS):
        return "Going up follows the links company records list: tick one of " + ", ".join(RECORD_RELATIONS) + "."
    if seed_kind == "person" and not {REPRESENTATION, OWNERSHIP} & set(relations):
        return "A person is followed through their positions and holdings: tick 'representation' or 'ownership'."
    return None


def estimate_crawl(
    client: RegisterClient, seed: str, depth: int, relations: Sequence[str], direction: str = "down"
) -> list[LevelEstimate]:
    """The levels of a crawl that can be estimated without spending a credit (see the module docstring).

    Returns
    -------
    list of LevelEstimate
        Every free level, then the first level that costs (if the crawl gets that far).
    """
    plans: list[LevelEstimate] = []

    def free_only(plan: LevelEstimate) -> bool:
        plans.append(plan)
        return plan.estimated_credits == 0

    crawl(
        client, [seed], depth=depth, relations=list(relations), progress=False, callback=free_only, direction=direction
    )
    return plans


def _split(plan: LevelEstimate) -> str:
    parts = [f"{_ENDPOINT_LABELS[e]} {plan.credits[e]}" for e in ENDPOINTS if plan.calls.get(e)]
    return f" ({', '.join(parts)})" if len(parts) > 1 else ""


def estimate_html(plans: Sequence[LevelEstimate], depth: int) -> str:
    """The estimate as a table of levels (calls and credits per endpoint) and one sentence on what it covers."""
    rows = []
    for p in plans:
        row: dict[str, Any] = {"level": p.level, "companies": len(p.ids)}
        for e in ENDPOINTS:
            if any(q.calls.get(e) for q in plans):
                row[f"{e} calls"] = p.calls.get(e, 0)
                row[f"{e} cached"] = p.cached_calls.get(e, 0)
        rows.append({**row, "credits": p.estimated_credits})
    frame = pd.DataFrame(rows)
    paid = [p for p in plans if p.estimated_credits]
    if not paid:
        text = "Everything the crawl reaches is cached: it costs 0 credits."
    elif paid[-1].level < depth:
        last = paid[-1]
        text = (
            f"Level {last.level} costs {last.estimated_credits} credits{_split(last)}; levels {last.level + 1}–"
            f"{depth} are estimated when the crawl reaches them — the budget caps the whole crawl."
        )
    else:
        text = f"The crawl costs at most {paid[-1].estimated_credits} credits{_split(paid[-1])}."
    return message_html(text, "warning" if paid else "ok") + frame_html(frame, empty="nothing to fetch")


def crawl_label(plans: Sequence[LevelEstimate], depth: int, budget: int) -> str:
    """What the **Crawl** button says the crawl will cost, from the estimate: the whole cost when every level
    is known, else the first paid level's cost and the budget's cap.

    Examples
    --------
    >>> crawl_label([_level(0, 0)], depth=2, budget=500)
    'Crawl (0 credits, cached)'
    >>> crawl_label([_level(0, 0), _level(1, 30)], depth=1, budget=500)
    'Crawl (30 credits)'
    >>> crawl_label([_level(0, 20)], depth=2, budget=500)
    'Crawl (20 credits for level 0, at most 500)'
    >>> crawl_label([_level(0, 0), _level(1, 30)], depth=1, budget=20)
    'Crawl (at most 20 credits: the budget)'
    """
    paid = [p for p in plans if p.estimated_credits]
    if not paid:
        return f"Crawl ({credits_text(0, cached=True)})"
    last = paid[-1]
    if last.level >= depth:
        if last.estimated_credits > budget:
            return f"Crawl (at most {credits_text(budget)}: the budget)"
        return f"Crawl ({credits_text(last.estimated_credits)})"
    return f"Crawl ({credits_text(last.estimated_credits)} for level {last.level}, at most {count_text(budget)})"


def _level(level: int, credits: int) -> LevelEstimate:
    """A level estimate of ``credits`` (for the examples)."""
    return LevelEstimate(level, ("DE-HRB-B1204-1",), 0 if credits else 1, credits)


def run_crawl(
    client: RegisterClient, seed: str, depth: int, relations: Sequence[str], budget: int | None, direction: str = "down"
) -> Any:
    """Crawl the group (at most ``budget`` credits); the graph, its report in ``G.graph["crawl"]``.

    A stop at the budget is said by the explorer's status line (from the report), not by a warning as well."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetStopWarning)
        return crawl(
            client, [seed], depth=depth, relations=list(relations), budget=budget, progress=False, direction=direction
        )


def crawl_summary(G: Any) -> str:
    """What a crawl found and spent, companies and persons counted apart (what is drawn: :func:`drawn_text`).

    Examples
    --------
    >>> import networkx as nx
    >>> from regkit.graph import CrawlReport
    >>> G = nx.MultiDiGraph(crawl=CrawlReport())
    >>> G.add_nodes_from([("a", {"kind": "company"}), ("b", {"kind": "company", "fetched": False}),
    ...                   ("p", {"kind": "natural_person"})])
    >>> crawl_summary(G)
    'Crawled 1 company (1 more named, not fetched) and 1 person for 0 credits.'
    """
    kinds = dict(G.nodes(data="kind"))
    fetched = sum(1 for n, k in kinds.items() if k == COMPANY and G.nodes[n].get("fetched", True))
    named = sum(1 for k in kinds.values() if k == COMPANY) - fetched
    people = sum(1 for k in kinds.values() if k == NATURAL_PERSON)
    others = sum(1 for k in kinds.values() if k == LEGAL_PERSON)
    report = G.graph["crawl"]
    by = report.credits_by_endpoint()
    split = f" ({', '.join(f'{_ENDPOINT_LABELS.get(e, e)} {c}' for e, c in by.items())})" if len(by) > 1 else ""
    text = f"Crawled {plural(fetched, 'company', 'companies')}"
    text += f" ({named} more named, not fetched)" if named else ""
    text += f" and {plural(people, 'person', 'persons')}"
    text += f" (and {plural(others, 'other legal person', 'other legal persons')})" if others else ""
    return f"{text} for {credits_text(report.spent_credits)}{split}."


def report_html(G: Any) -> str:
    """What the crawl fetched and spent, level by level (a formatted table of ``G.graph["crawl"].levels``)."""
    report = G.graph.get("crawl")
    if report is None:
        return ""
    columns = [c for c in report.levels.columns if c != "ids"]  # the ids are in the drawing and the graph
    return message_html("The crawl, level by level:") + frame_html(report.levels, columns, empty="nothing was fetched")


def to_day(option: str) -> _dt.date | None:
    """A slider option as a date (``None`` for :data:`CURRENT`)."""
    return None if option == CURRENT else _dt.date.fromisoformat(option)


def change_dates(G: Any, since: _dt.date | None = None) -> list[str]:
    """Every day the group changed (an edge began or ended, a company was founded or ended), ISO, sorted.

    ``since``: only days from then on (the explorer passes its seed's founding day: before it, the seed's group
    has no member to draw).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("a", kind="company", incorporated_at=_dt.date(2001, 1, 1), terminated_at=None)
    >>> G.add_edge("p", "a", valid_from=_dt.date(2005, 3, 1), valid_to=_dt.date(2009, 1, 1))
    0
    >>> change_dates(G)
    ['2001-01-01', '2005-03-01', '2009-01-01']
    >>> change_dates(G, since=_dt.date(2003, 1, 1))
    ['2005-03-01', '2009-01-01']
    """
    days = {
        attrs.get(k)
        for _, attrs in G.nodes(data=True)
        if attrs.get("kind") == COMPANY
        for k in ("incorporated_at", "terminated_at")
    }
    days |= {attrs.get(k) for _, _, attrs in G.edges(data=True) for k in ("valid_from", "valid_to")}
    return sorted(d.isoformat() for d in days if d is not None and (since is None or d >= since))


def interlocks_frame(G: Any, day: _dt.date | None) -> pd.DataFrame:
    """The interlocks (:func:`regkit.graph.interlocks`) in force on ``day`` (``None``: those still ongoing)."""
    frame = interlocks(G)
    if day is None:
        keep = frame["end"].isna()
    else:
        stamp = pd.Timestamp(day)
        keep = (frame["start"].isna() | (frame["start"] <= stamp)) & (frame["end"].isna() | (stamp < frame["end"]))
    return frame[keep.to_numpy(bool)].reset_index(drop=True)


def interlocks_html(G: Any, day: _dt.date | None) -> str:
    """The interlocks table on ``day``: who serves several of the crawled companies at once."""
    frame = interlocks_frame(G, day)
    frame["company_names"] = [" · ".join(str(n) for n in names) for names in frame["company_names"]]
    frame = frame.rename(columns={"n_companies": "companies_served"})
    when = "now" if day is None else f"on {day.isoformat()}"
    heading = message_html(
        f"Interlocks {when}: people who serve two or more of these companies at once "
        "(companies served: how many of them each person serves)."
    )
    return heading + frame_html(
        frame,
        ["name", "companies_served", "company_names", "start", "end", "days"],
        empty=f"nobody serves several of these companies {when}",
    )
