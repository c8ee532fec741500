"""What :class:`~regkit.widgets.GroupExplorer` does, as plain functions: estimate a crawl without
spending, crawl, the dates the group changed on, its drawing and its interlocks on a date.

The estimate is a dry run of :func:`regkit.graph.crawl`: its ``callback`` sees each level's
:class:`~regkit.graph.LevelEstimate` before anything is spent, and the dry run lets a level through
only when the cache answers all of it (0 credits). So it reports every level that can be known
for free and the first level that would cost; what lies beyond a paid level is known only once that
level has been fetched (the crawl then tells each level's estimate as it reaches it).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Any

import pandas as pd

from regkit.graph import RELATIONS, LevelEstimate, crawl, interlocks
from regkit.graph.schema import COMPANY, NATURAL_PERSON

from .render import draw_html, frame_html, message_html

__all__ = ["CURRENT", "RELATION_OPTIONS", "change_dates", "drawing_html", "estimate_crawl", "estimate_html",
           "interlocks_frame", "interlocks_html", "report_html", "run_crawl", "to_day"]  # fmt: skip

RELATION_OPTIONS = RELATIONS
"""The relations a crawl can follow (one checkbox each)."""

CURRENT = "current"
"""The date slider's last option: the group as it stands now."""


def estimate_crawl(client: Any, seed: str, depth: int, relations: Sequence[str]) -> list[LevelEstimate]:
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

    crawl(client, [seed], depth=depth, relations=list(relations), progress=False, callback=free_only)
    return plans


def estimate_html(plans: Sequence[LevelEstimate], depth: int) -> str:
    """The estimate as a table of levels and one sentence on what it covers."""
    frame = pd.DataFrame([{"level": p.level, "companies": len(p.ids), "cached": p.cached,
                           "credits": p.estimated_credits} for p in plans])  # fmt: skip
    paid = [p for p in plans if p.estimated_credits]
    if not paid:
        text = "Everything the crawl reaches is cached: it costs 0 credits."
    elif paid[-1].level < depth:
        last = paid[-1]
        text = (
            f"Level {last.level} costs {last.estimated_credits} credits; levels {last.level + 1}–{depth} are "
            "estimated when the crawl reaches them — the budget caps the whole crawl."
        )
    else:
        text = f"The crawl costs at most {paid[-1].estimated_credits} credits."
    return message_html(text, "warning" if paid else "ok") + frame_html(frame, empty="no companies to fetch")


def run_crawl(client: Any, seed: str, depth: int, relations: Sequence[str], budget: int | None) -> Any:
    """Crawl the group (at most ``budget`` credits); the graph, its report in ``G.graph["crawl"]``."""
    return crawl(client, [seed], depth=depth, relations=list(relations), budget=budget, progress=False)


def report_html(G: Any) -> str:
    """What the crawl fetched and spent, level by level."""
    report = G.graph.get("crawl")
    return "" if report is None else report._repr_html_()


def to_day(option: str) -> _dt.date | None:
    """A slider option as a date (``None`` for :data:`CURRENT`)."""
    return None if option == CURRENT else _dt.date.fromisoformat(option)


def change_dates(G: Any) -> list[str]:
    """Every day the group changed (an edge began or ended, a company was founded or ended), ISO, sorted.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("a", kind="company", incorporated_at=_dt.date(2001, 1, 1), terminated_at=None)
    >>> G.add_edge("p", "a", valid_from=_dt.date(2005, 3, 1), valid_to=_dt.date(2009, 1, 1))
    0
    >>> change_dates(G)
    ['2001-01-01', '2005-03-01', '2009-01-01']
    """
    days = {attrs.get(k) for _, attrs in G.nodes(data=True) if attrs.get("kind") == COMPANY
            for k in ("incorporated_at", "terminated_at")}  # fmt: skip
    days |= {attrs.get(k) for _, _, attrs in G.edges(data=True) for k in ("valid_from", "valid_to")}
    return sorted(d.isoformat() for d in days if d is not None)


def drawing_html(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> str:
    """The drawing of the seed's group on ``day`` (``None``: its whole history, ended links faded)."""
    from regkit.plot.group import group, layered_layout, select_group

    if seed not in G or not G.nodes[seed].get("fetched", True):
        return message_html(f"{seed} is not in the crawled graph (its lookup failed).", "error")
    nodes = select_group(G, seed, day, persons)
    if not persons:
        nodes = {n for n in nodes if G.nodes[n].get("kind") != NATURAL_PERSON}
    pos = layered_layout(G.subgraph(nodes)) or {seed: (0.0, 0.0)}
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    width = min(max(7.0, 1.6 * (max(xs) - min(xs) + 1) + 2.5), 24.0)  # + room for the legend
    size = (width, min(max(3.5, 1.3 * (max(ys) - min(ys) + 1)), 16.0))
    return draw_html(lambda ax: group(G, ax, company_id=seed, date=day, persons=persons), size)


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
    when = "now" if day is None else f"on {day.isoformat()}"
    return frame_html(frame, ["name", "n_companies", "company_names", "start", "end", "days"],
                      empty=f"nobody serves several of these companies {when}")  # fmt: skip
