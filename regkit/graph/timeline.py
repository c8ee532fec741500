"""Time: which edges are in force on a day, and the graph as it stood on a date.

Validity is half-open, ``valid_from <= day < valid_to``: a director whose ``end_date`` is
2018-08-09 no longer serves on that day, and a successor who starts on it does. ``None`` bounds are
open. A company exists from ``incorporated_at`` (inclusive) to ``terminated_at`` (exclusive): a
company absorbed by a merger is gone on the merger's registration date.

Queries take ``date=None`` to mean *the current state the graph knows*: every edge whose
``valid_to`` is ``None`` (whatever its start), and every company without ``terminated_at``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping
from typing import Any

import networkx as nx

from regkit.schema.dates import validate_date

from .schema import COMPANY

__all__ = ["as_of", "in_force", "exists_on", "edges_in_force"]


def in_force(attrs: Mapping[str, Any], day: _dt.date | None) -> bool:
    """Whether an edge (its attribute dict) is in force on ``day`` (``None``: currently).

    Examples
    --------
    >>> import datetime
    >>> edge = {"valid_from": datetime.date(2010, 1, 1), "valid_to": datetime.date(2018, 8, 9)}
    >>> in_force(edge, datetime.date(2018, 8, 8)), in_force(edge, datetime.date(2018, 8, 9)), in_force(edge, None)
    (True, False, False)
    """
    end = attrs.get("valid_to")
    if day is None:
        return end is None
    start = attrs.get("valid_from")
    return (start is None or start <= day) and (end is None or day < end)


def exists_on(attrs: Mapping[str, Any], day: _dt.date | None) -> bool:
    """Whether a node exists on ``day``: companies by their life, persons always.

    A company whose dates are unknown (``fetched=False``) is assumed to exist.
    """
    if attrs.get("kind") != COMPANY:
        return True
    end = attrs.get("terminated_at")
    if day is None:
        return end is None
    start = attrs.get("incorporated_at")
    return (start is None or start <= day) and (end is None or day < end)


def edges_in_force(G: nx.MultiDiGraph, day: _dt.date | None, relation: str | None = None) -> Iterator[tuple]:
    """Yield ``(u, v, key, attrs)`` of the edges in force on ``day``, optionally of one relation."""
    for u, v, key, attrs in G.edges(keys=True, data=True):
        if (relation is None or attrs.get("relation") == relation) and in_force(attrs, day):
            yield u, v, key, attrs


def as_of(G: nx.MultiDiGraph, date: Any, *, keep_isolated: bool = False) -> nx.MultiDiGraph:
    """The graph as it stood on ``date``.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:func:`regkit.graph.from_companies`).
    date : date-like
        The day: a ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO ``"YYYY-MM-DD"`` or German
        ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.
    keep_isolated : bool
        Keep persons without any relation in force on that day (default: drop them).

    Returns
    -------
    networkx.MultiDiGraph
        A new graph (attributes are shallow copies) with the companies that existed on ``date``
        (incorporated on or before it and not yet terminated; companies of unknown dates are kept),
        the edges in force on it between kept nodes, and the persons with at least one such edge.
        Mergers and spin-offs are in force from their registration on; a merger's edge therefore
        disappears with the absorbed company on the same day — :func:`merger_history` tells what
        merged when.

    Examples
    --------
    >>> from regkit.graph import from_companies, as_of
    >>> company = {"id": "DE-HRB-B1204-1", "name": {"name": "Alpha GmbH"}, "incorporated_at": "2001-05-02",
    ...            "representation": [{"id": "p-1", "name": "Eva Roth", "type": "natural_person",
    ...                "role": "DIRECTOR", "start_date": "2001-05-02", "end_date": "2010-01-01",
    ...                "authority": None, "natural_person": None}]}
    >>> G = from_companies([company])
    >>> sorted(as_of(G, "2005-01-01")), sorted(as_of(G, "2012-01-01"))
    (['DE-HRB-B1204-1', 'p-1'], ['DE-HRB-B1204-1'])
    >>> len(as_of(G, "2000-01-01"))
    0
    """
    day = validate_date(date, "date")
    H = G.__class__()
    H.graph.update(G.graph)
    H.graph.pop("crawl", None)
    kept = {n for n, attrs in G.nodes(data=True) if exists_on(attrs, day)}
    edges = [(u, v, k, attrs) for u, v, k, attrs in edges_in_force(G, day) if u in kept and v in kept]
    linked = {u for u, _, _, _ in edges} | {v for _, v, _, _ in edges}
    H.add_nodes_from(
        (n, dict(attrs))
        for n, attrs in G.nodes(data=True)
        if n in kept and (keep_isolated or attrs.get("kind") == COMPANY or n in linked)
    )
    H.add_edges_from((u, v, k, dict(attrs)) for u, v, k, attrs in edges)
    return H
