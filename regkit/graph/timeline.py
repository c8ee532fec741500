"""Time: which edges are in force on a day, and the graph as it stood on a date.

Validity is half-open, ``valid_from <= day < valid_to``: a director whose ``end_date`` is
2018-08-09 no longer serves on that day, and a successor who starts on it does. ``None`` bounds are
open. An edge whose ``valid_from`` is on or after its ``valid_to`` — a mandate the register gives as
``[d, d)`` or with its start after its end — is in force on no day. It is the one rule of
:mod:`regkit.frames.mandates`, which :func:`regkit.frames.representatives` and :func:`regkit.graph.interlocks`
follow as well.

A company's existence on a day is the rule of :func:`regkit.frames.status.existed_on`, the one of
:func:`regkit.frames.as_of` and :func:`regkit.frames.panel`: it exists from ``incorporated_at``
(inclusive) to ``terminated_at`` (exclusive; a company absorbed by a merger is gone on the merger's
registration date) — and after ``removed_after`` (a company the record says is removed without dating it:
the newest date the record carries) it is *unknown* whether it existed (``None``). A company known only as
a link target or representative (``fetched=False``) has no dates: its existence is unknown too.

Queries take ``date=None`` to mean *the current state the graph knows*: every edge whose
``valid_to`` is ``None`` (whatever its start, unless it lasts no day), and every company without
``terminated_at`` that its record does not say is removed.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping
from typing import Any

import networkx as nx

from regkit.frames.mandates import mandate_active
from regkit.frames.status import existed_on
from regkit.schema.dates import validate_date

from .schema import COMPANY

__all__ = ["as_of", "in_force", "exists_on", "edges_in_force"]


def in_force(attrs: Mapping[str, Any], day: _dt.date | None) -> bool:
    """Whether an edge (its attribute dict) is in force on ``day`` (``None``: currently) —
    :func:`regkit.frames.mandates.mandate_active` of its ``valid_from`` and ``valid_to``.

    Examples
    --------
    >>> import datetime
    >>> edge = {"valid_from": datetime.date(2010, 1, 1), "valid_to": datetime.date(2018, 8, 9)}
    >>> in_force(edge, datetime.date(2018, 8, 8)), in_force(edge, datetime.date(2018, 8, 9)), in_force(edge, None)
    (True, False, False)
    >>> empty = {"valid_from": datetime.date(2015, 1, 1), "valid_to": datetime.date(2015, 1, 1)}
    >>> in_force(empty, datetime.date(2015, 1, 1))
    False
    """
    return mandate_active(attrs.get("valid_from"), attrs.get("valid_to"), day)


def exists_on(attrs: Mapping[str, Any], day: _dt.date | None) -> bool | None:
    """Whether a node exists on ``day``: persons always; companies by :func:`regkit.frames.status.existed_on`
    — True, False, or ``None`` when it is unknown (after ``removed_after``; a company whose record was not
    read, ``fetched=False``, on any day). ``day=None``: whether it exists now, as far as its record says.

    Examples
    --------
    >>> import datetime
    >>> removed = {"kind": "company", "incorporated_at": datetime.date(2001, 5, 2), "terminated_at": None,
    ...            "removed_after": datetime.date(2009, 3, 1), "fetched": True}
    >>> [exists_on(removed, datetime.date(*d)) for d in ((2001, 5, 1), (2009, 3, 1), (2009, 3, 2))]
    [False, True, None]
    >>> exists_on(removed, None), exists_on({"kind": "natural_person"}, None)
    (False, True)
    """
    if attrs.get("kind") != COMPANY:
        return True
    if attrs.get("fetched") is False:
        return None
    terminated, removed = attrs.get("terminated_at"), attrs.get("removed_after")
    if day is None:
        return terminated is None and removed is None
    return existed_on(day, attrs.get("incorporated_at"), terminated, removed)


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
        (incorporated on or before it and not yet terminated) and those of which it is unknown, the
        edges in force on it between kept nodes, and the persons with at least one such edge. Every
        company node gets the attribute ``existed``: True, or ``None`` where it is unknown whether the
        company existed then — after ``removed_after`` (its record says it is removed but dates no end:
        it existed up to and on its newest dated fact), or for a company whose record was not read
        (``fetched=False``). Such a company is kept, not dropped, and with it the edges its record gives
        as in force; drop it if your question needs certainty:
        ``H.remove_nodes_from([n for n, e in H.nodes(data="existed", default=True) if e is None])``
        (then drop the persons left without edges).
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

    The same company, removed by its record without a termination date: it existed up to and on its newest
    dated fact (2010-01-01, the director's end); after it, nobody can tell.

    >>> G = from_companies([dict(company, status="inactive", terminated_at=None)])
    >>> [as_of(G, day).nodes["DE-HRB-B1204-1"]["existed"] for day in ("2010-01-01", "2010-01-02")]
    [True, None]
    """
    day = validate_date(date, "date")
    H = G.__class__()
    H.graph.update(G.graph)
    H.graph.pop("crawl", None)
    existence = {n: exists_on(attrs, day) for n, attrs in G.nodes(data=True)}
    kept = {n for n, existed in existence.items() if existed is not False}
    edges = [(u, v, k, attrs) for u, v, k, attrs in edges_in_force(G, day) if u in kept and v in kept]
    linked = {u for u, _, _, _ in edges} | {v for _, v, _, _ in edges}
    H.add_nodes_from(
        (n, dict(attrs, existed=existence[n]) if attrs.get("kind") == COMPANY else dict(attrs))
        for n, attrs in G.nodes(data=True)
        if n in kept and (keep_isolated or attrs.get("kind") == COMPANY or n in linked)
    )
    H.add_edges_from((u, v, k, dict(attrs)) for u, v, k, attrs in edges)
    return H
