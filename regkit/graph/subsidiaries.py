"""``subsidiaries``: every company a company (or person) holds, directly or through others, with its effective share.

What counts as a holding
------------------------
Between a holder and a company, the ``ownership`` edges in force on the day asked (from holdings; see
:mod:`regkit.graph.ownership`) give the share — added up over parallel edges, unknown if one of them
has no share. Where no ownership edge is in force, a ``SHAREHOLDER`` representation entry in force
counts as a holding of unknown share (the register lists the shareholder, not the share). The two are
never added: a holding the graph knows from both is counted once, from its ownership edges.

Effective share
---------------
The share of each chain of holdings is the product of its shares; a company's effective share is the
sum over all chains that reach it. A chain never visits a company twice, so cross-holdings and cycles
end (a cycle's repeated rounds are not counted) — the rule the local register uses for beneficial
owners. A chain through a holding of unknown share has an unknown share, and so does every company it
reaches (``<NA>``). The walk follows every chain, which is quick for groups; a graph with very many
chains between the same companies takes as long as it has chains.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.errors import ValidationError

from .errors import check_node
from .schema import CONTROL_ROLES, OWNERSHIP, REPRESENTATION, to_date
from .timeline import in_force

if TYPE_CHECKING:
    import datetime as _dt

    import pandas as pd

__all__ = ["subsidiaries", "direct_holdings", "SUBSIDIARY_COLUMNS"]

#: Columns of :func:`subsidiaries`, in order.
SUBSIDIARY_COLUMNS = ("company_id", "name", "effective_share", "direct_share", "depth", "parents", "paths")

_UNKNOWN = object()  # a pair held by ownership edges of which one has no share


def direct_holdings(G: nx.MultiDiGraph, holder: str, date: Any = None) -> dict[str, float | None]:
    """The companies ``holder`` holds directly on a date, and the share of each (``None``: not known).

    See the module docstring for the edges that count.
    """
    day = to_date(date)
    owned: dict[str, Any] = {}
    listed: set[str] = set()
    for _, company, attrs in G.out_edges(holder, data=True):
        if not in_force(attrs, day):
            continue
        relation = attrs.get("relation")
        if relation == OWNERSHIP:
            share, old = attrs.get("share"), owned.get(company, 0.0)
            owned[company] = _UNKNOWN if share is None or old is _UNKNOWN else old + share
        elif relation == REPRESENTATION and attrs.get("role") in CONTROL_ROLES:
            listed.add(company)
    shares: dict[str, float | None] = dict.fromkeys(listed - set(owned))
    shares.update({c: None if s is _UNKNOWN else s for c, s in owned.items()})
    return shares


def _walk(G: nx.MultiDiGraph, top: str, day: _dt.date | None) -> dict[str, dict[str, Any]]:
    """Every company reached from ``top`` along simple chains: summed share, unknown flag, depth,
    parents, chain count."""
    held: dict[str, dict[str, float | None]] = {}
    found: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"share": 0.0, "unknown": False, "depth": None, "parents": set(), "paths": 0}
    )
    stack: list[tuple[str, float | None, frozenset[str], int]] = [(top, 1.0, frozenset({top}), 0)]
    while stack:
        node, share, path, depth = stack.pop()
        if node not in held:
            held[node] = direct_holdings(G, node, day)
        for company, direct in sorted(held[node].items()):
            if company in path:
                continue
            effective = None if share is None or direct is None else share * direct
            row = found[company]
            row["paths"] += 1
            row["parents"].add(node)
            row["depth"] = depth + 1 if row["depth"] is None else min(row["depth"], depth + 1)
            if effective is None:
                row["unknown"] = True
            else:
                row["share"] += effective
            stack.append((company, effective, path | {company}, depth + 1))
    return found


def _check_share(min_share: Any) -> float:
    if isinstance(min_share, bool) or not isinstance(min_share, (int, float)) or not 0.0 <= min_share <= 1.0:
        raise ValidationError(
            f"min_share must be a fraction between 0 and 1, not {min_share!r}",
            suggestion="e.g. min_share=0.5 for more than half (fractions: 0.5 = 50 %)",
        )
    return float(min_share)


def subsidiaries(G: nx.MultiDiGraph, company_id: str, min_share: float = 0.0, date: Any = None) -> pd.DataFrame:
    """Every company ``company_id`` holds, directly or indirectly, with its effective share.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph, best with ``ownership`` edges (:func:`regkit.graph.crawl` with
        ``direction="down"``, or :func:`regkit.graph.from_companies` with ``holdings=``).
    company_id : str
        The holder: a company, or a person or legal person node.
    min_share : float, default 0.0
        Keep companies whose effective share is at least this fraction (0.5 = 50 %). Companies of
        unknown effective share are kept only with ``min_share=0``.
    date : date-like, optional
        Holdings in force on this day; default the current state (holdings without an end: past
        holdings are left out). A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.

    Returns
    -------
    pandas.DataFrame
        One row per company held, fewest steps first, then largest effective share, then id:

        ===============  ==============  ========================================================
        company_id       str             the company held
        name             str             its name (NaN if unknown)
        effective_share  Float64         fraction of it held through all chains together: the
                                         product of the shares along each chain, summed over the
                                         chains (<NA> when a chain has a holding of unknown share)
        direct_share     Float64         ``company_id``'s own direct share (<NA> when it does not
                                         hold the company directly, or the share is unknown)
        depth            int64           fewest holdings from ``company_id``: 1 = held directly
        parents          object          tuple of the company's direct holders on those chains
                                         (sorted ids)
        paths            int64           number of chains (a chain never visits a company twice)
        ===============  ==============  ========================================================

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.
    regkit.ValidationError
        For a ``min_share`` that is not a fraction between 0 and 1.

    Examples
    --------
    >>> from regkit.graph import from_companies, subsidiaries
    >>> def holdings(holder, *held):
    ...     return {"company_id": holder, "holdings": [{"company_id": c, "name": c, "relation_type": "shareholder",
    ...             "nominal_share": None, "percentage_share": s, "start": None, "end": None} for c, s in held]}
    >>> G = from_companies([], holdings=[holdings("DE-HRB-B1204-1", ("DE-HRB-B1204-2", 0.6), ("DE-HRB-B1204-3", 0.2)),
    ...                                  holdings("DE-HRB-B1204-2", ("DE-HRB-B1204-3", 0.5))])
    >>> subsidiaries(G, "DE-HRB-B1204-1")[["company_id", "effective_share", "depth", "paths"]]
           company_id  effective_share  depth  paths
    0  DE-HRB-B1204-2              0.6      1      1
    1  DE-HRB-B1204-3              0.5      1      2
    """
    check_node(G, company_id)
    floor = _check_share(min_share)
    day = to_date(date)
    direct = direct_holdings(G, company_id, day)
    rows = [
        (cid, row)
        for cid, row in _walk(G, company_id, day).items()
        if (not row["unknown"] and row["share"] >= floor - 1e-12) or (row["unknown"] and floor == 0.0)
    ]
    rows.sort(key=lambda item: (item[1]["depth"], item[1]["unknown"], -item[1]["share"], item[0]))
    return _frame(G, rows, direct)


def _frame(G: nx.MultiDiGraph, rows: list[tuple[str, dict[str, Any]]], direct: dict[str, float | None]) -> Any:
    import numpy as np
    import pandas as pd

    from ._frames import frame, int_column, str_column

    parents = np.empty(len(rows), dtype=object)
    parents[:] = [tuple(sorted(row["parents"])) for _, row in rows]
    return frame(
        {
            "company_id": str_column([cid for cid, _ in rows]),
            "name": str_column([G.nodes[cid].get("name") for cid, _ in rows]),
            "effective_share": pd.array([None if row["unknown"] else row["share"] for _, row in rows], dtype="Float64"),
            "direct_share": pd.array([direct.get(cid) for cid, _ in rows], dtype="Float64"),
            "depth": int_column([row["depth"] for _, row in rows]),
            "parents": parents,
            "paths": int_column([row["paths"] for _, row in rows]),
        }
    )
