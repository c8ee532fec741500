"""``interlocks``: people serving several companies at the same time, with the overlap periods."""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.frames.mandates import mandate_days

from .schema import NATURAL_PERSON, REPRESENTATION

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["interlocks", "SERVING_ROLES", "INTERLOCK_COLUMNS"]

#: Roles in which a person *serves* a company: every role but ``SHAREHOLDER`` (owning is not serving).
SERVING_ROLES = ("DIRECTOR", "PROKURA", "OWNER", "PARTNER", "PERSONAL_LIABLE_DIRECTOR", "LIQUIDATOR", "OTHER")

#: Columns of :func:`interlocks`, in order.
INTERLOCK_COLUMNS = ("person", "name", "n_companies", "companies", "company_names", "start", "end", "days")

_MIN, _MAX = _dt.date.min, _dt.date.max


def _union(intervals: list[tuple[_dt.date, _dt.date]]) -> list[tuple[_dt.date, _dt.date]]:
    """Merge overlapping or touching half-open intervals."""
    merged: list[list[_dt.date]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def _segments(mandates: dict[str, list[tuple[_dt.date, _dt.date]]], minimum: int) -> list[tuple]:
    """Maximal periods with the same set of ≥ ``minimum`` companies served.

    One sweep over the mandates' start and end days (a company enters the set on its start day and leaves it on
    its end day, half-open), so a person with thousands of short mandates — a shelf-company founder — costs
    the number of days times the companies served *at once*, not times all their companies.
    """
    changes: dict[_dt.date, list[tuple[int, str]]] = defaultdict(list)
    for company, intervals in mandates.items():
        for start, end in _union(intervals):
            changes[start].append((1, company))
            changes[end].append((-1, company))
    active: set[str] = set()
    out: list[list[Any]] = []
    days = sorted(changes)
    for day, following in zip(days, days[1:]):
        for step, company in changes[day]:
            if step < 0:
                active.discard(company)
        active.update(company for step, company in changes[day] if step > 0)
        if len(active) < minimum:
            continue
        members = tuple(sorted(active))
        if out and out[-1][0] == members and out[-1][2] == day:
            out[-1][2] = following
        else:
            out.append([members, day, following])
    return [tuple(row) for row in out]


def _check_min(min_companies: Any) -> int:
    if isinstance(min_companies, bool) or not isinstance(min_companies, int) or min_companies < 1:
        raise ValueError(f"min_companies must be a positive integer, not {min_companies!r}")
    return min_companies


def interlocks(
    G: nx.MultiDiGraph,
    min_companies: int = 2,
    *,
    roles: Iterable[str] | None = SERVING_ROLES,
    kinds: Iterable[str] = (NATURAL_PERSON,),
) -> pd.DataFrame:
    """People who serve several companies at the same time, and when.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph with ``representation`` edges (person → company).
    min_companies : int
        Report periods in which a person serves at least this many distinct companies.
    roles : iterable of str or None
        Representation roles that count as serving; default :data:`SERVING_ROLES` (all but
        ``SHAREHOLDER``); ``None`` counts every role.
    kinds : iterable of str
        Node kinds that count as people; default natural persons only. Add ``"company"`` or
        ``"legal_person"`` to see e.g. one GmbH as general partner of several KGs.

    Returns
    -------
    pandas.DataFrame
        One row per maximal period in which a person served the same set of companies (at least
        ``min_companies``), ordered by person and start. Several mandates of one person at one
        company count once; periods are half-open ``[start, end)``. A mandate serves the days of
        :func:`regkit.frames.mandates.mandate_days` — the rule of :func:`regkit.graph.as_of` and
        :func:`regkit.frames.representatives` (``active_on=``): one whose ``valid_from`` is on or after its
        ``valid_to`` (``[d, d)``, as the OffeneRegister import writes for an officer of unknown start, or
        inverted) serves no day. So on every day of a period the companies to which the person has a
        serving edge in force (:func:`regkit.graph.timeline.in_force`) are exactly ``companies``; company
        existence is not checked here (:func:`regkit.graph.as_of` also drops companies that did not
        exist on the day).

        =============  ===============  ======================================================
        person         str              node id of the person
        name           str              the person's name
        n_companies    int64            companies served at the same time
        companies      object           tuple of their ids, sorted
        company_names  object           tuple of their names, in the order of ``companies``
        start          datetime64[us]   first day of the overlap (NaT: a mandate without start date)
        end            datetime64[us]   first day it no longer holds (NaT: still ongoing)
        days           Int64            ``end - start`` in days (<NA> when open)
        =============  ===============  ======================================================

    Examples
    --------
    >>> from regkit.graph import from_companies, interlocks
    >>> def firm(n, start, end):
    ...     return {"id": f"DE-HRB-B1204-{n}", "name": {"name": f"Firma {n} GmbH"}, "representation": [
    ...         {"id": "p-1", "name": "Eva Roth", "type": "natural_person", "role": "DIRECTOR",
    ...          "start_date": start, "end_date": end, "authority": None, "natural_person": None}]}
    >>> G = from_companies([firm(1, "2010-01-01", None), firm(2, "2015-01-01", "2020-01-01")])
    >>> interlocks(G)[["person", "n_companies", "start", "end", "days"]]
      person  n_companies      start        end  days
    0    p-1            2 2015-01-01 2020-01-01  1826
    """
    import pandas as pd

    from ._frames import date_column, frame, int_column, str_column

    minimum = _check_min(min_companies)
    wanted_roles = None if roles is None else frozenset(roles)
    wanted_kinds = frozenset(kinds)
    nodes = G.nodes
    served: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for u, v, attrs in G.edges(data=True):
        if attrs.get("relation") != REPRESENTATION:
            continue
        if wanted_roles is not None and attrs.get("role") not in wanted_roles:
            continue
        if nodes[u].get("kind") not in wanted_kinds:
            continue
        days = mandate_days(attrs.get("valid_from"), attrs.get("valid_to"))
        if days is not None:  # a mandate of no day (start on or after its end) serves no day
            start, end = days
            served[u][v].append((start or _MIN, end or _MAX))
    rows = []
    for person in sorted(p for p, companies in served.items() if len(companies) >= minimum):
        for companies, start, end in _segments(served[person], minimum):
            rows.append((person, companies, start, end))
    starts = [None if r[2] == _MIN else r[2] for r in rows]
    ends = [None if r[3] == _MAX else r[3] for r in rows]
    days = pd.array([(e - s).days if s and e else None for s, e in zip(starts, ends)], dtype="Int64")
    return frame(
        {
            "person": str_column([r[0] for r in rows]),
            "name": str_column([nodes[r[0]].get("name") for r in rows]),
            "n_companies": int_column([len(r[1]) for r in rows]),
            "companies": pd.Series([r[1] for r in rows], dtype=object),
            "company_names": pd.Series([tuple(nodes[c].get("name") for c in r[1]) for r in rows], dtype=object),
            "start": date_column(starts),
            "end": date_column(ends),
            "days": days,
        }
    )
