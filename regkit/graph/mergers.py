"""``merger_history``: what merged into a company, and into what it merged, in order."""

from __future__ import annotations

import datetime as _dt
from collections import deque
from typing import TYPE_CHECKING, Any

import networkx as nx

from .errors import check_node
from .schema import MERGER

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["merger_history", "MERGER_COLUMNS"]

#: Columns of :func:`merger_history`, in order.
MERGER_COLUMNS = (
    "absorbed",
    "absorbed_name",
    "acquirer",
    "acquirer_name",
    "registration_date",
    "agreement_date",
    "direction",
    "depth",
    "transaction",
)


def _upstream(G: nx.MultiDiGraph, company_id: str) -> list[tuple[str, str, dict[str, Any], int]]:
    """Mergers into the company and, recursively, into the companies it absorbed."""
    rows, seen, queue = [], {company_id}, deque([(company_id, 1)])
    while queue:
        node, depth = queue.popleft()
        for absorbed, _, attrs in G.in_edges(node, data=True):
            if attrs.get("relation") == MERGER:
                rows.append((absorbed, node, attrs, depth))
                if absorbed not in seen:
                    seen.add(absorbed)
                    queue.append((absorbed, depth + 1))
    return rows


def _downstream(G: nx.MultiDiGraph, company_id: str) -> list[tuple[str, str, dict[str, Any], int]]:
    """The company's own merger into another and, recursively, that acquirer's."""
    rows: list[tuple[str, str, dict[str, Any], int]] = []
    seen, node, depth = {company_id}, company_id, 1
    while True:
        onward = [(v, attrs) for _, v, attrs in G.out_edges(node, data=True) if attrs.get("relation") == MERGER]
        if not onward:
            return rows
        for acquirer, attrs in sorted(onward, key=lambda item: item[0]):
            rows.append((node, acquirer, attrs, depth))
        acquirer = min(v for v, _ in onward)
        if acquirer in seen:
            return rows
        seen.add(acquirer)
        node, depth = acquirer, depth + 1


def merger_history(G: nx.MultiDiGraph, company_id: str) -> pd.DataFrame:
    """Every merger in a company's line: what merged into it (and into those), and into what it merged.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A graph with ``merger`` edges (absorbed → acquirer).
    company_id : str

    Returns
    -------
    pandas.DataFrame
        One row per merger, oldest registration first (then agreement date, absorbed id):

        =================  ===============  =====================================================
        absorbed           str              the company that ceased to exist
        absorbed_name      str              its name (NaN if unknown)
        acquirer           str              the company it merged into
        acquirer_name      str              its name (NaN if unknown)
        registration_date  datetime64[us]   when the merger was registered (NaT if unknown)
        agreement_date     datetime64[us]   date of the merger contract (NaT if the register cites none)
        direction          str              ``"in"``: into ``company_id`` or, recursively, into a company
                                            that merged into it; ``"out"``: ``company_id`` (or its
                                            acquirer, recursively) into another company
        depth              int64            1 for mergers of ``company_id`` itself, 2 one step removed, ...
        transaction        int64            1, 2, ... in row order; mergers into the same acquirer with
                                            the same ``agreement_date`` are one transaction (the
                                            interface's rule); one without ``agreement_date`` is its own
        =================  ===============  =====================================================

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.

    Examples
    --------
    >>> from regkit.graph import from_companies, merger_history
    >>> acquirer = {"id": "DE-HRB-B1204-1", "name": {"name": "Alpha AG"}, "acquisitions": [
    ...     {"company_id": f"DE-HRB-B1204-{n}", "name": f"Beta {n} GmbH", "registration_date": "2022-10-12",
    ...      "agreement_date": "2022-07-01"} for n in (2, 3)]}
    >>> merger_history(from_companies([acquirer]), "DE-HRB-B1204-1")[["absorbed", "direction", "transaction"]]
             absorbed direction  transaction
    0  DE-HRB-B1204-2        in            1
    1  DE-HRB-B1204-3        in            1
    """
    check_node(G, company_id)
    from ._frames import date_column, frame, int_column, str_column

    rows = [(*row, "in") for row in _upstream(G, company_id)] + [(*row, "out") for row in _downstream(G, company_id)]
    far = _dt.date.max
    rows.sort(key=lambda r: (r[2].get("registration_date") or far, r[2].get("agreement_date") or far, r[0], r[1]))
    numbers: dict[Any, int] = {}
    transactions = []
    for index, (_absorbed, acquirer, attrs, _, _) in enumerate(rows):
        agreed = attrs.get("agreement_date")
        key = (acquirer, agreed) if agreed is not None else ("row", index)
        transactions.append(numbers.setdefault(key, len(numbers) + 1))

    def name(node: str) -> Any:
        return G.nodes[node].get("name")

    return frame(
        {
            "absorbed": str_column([r[0] for r in rows]),
            "absorbed_name": str_column([name(r[0]) for r in rows]),
            "acquirer": str_column([r[1] for r in rows]),
            "acquirer_name": str_column([name(r[1]) for r in rows]),
            "registration_date": date_column([r[2].get("registration_date") for r in rows]),
            "agreement_date": date_column([r[2].get("agreement_date") for r in rows]),
            "direction": str_column([r[4] for r in rows]),
            "depth": int_column([r[3] for r in rows]),
            "transaction": int_column(transactions),
        }
    )
