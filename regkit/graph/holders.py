"""Who holds a company, and which of its holders control it (the shareholding half of :mod:`regkit.graph.control`).

A holder is known from ``representation`` edges with role ``SHAREHOLDER`` and from ``ownership`` edges;
each holder is judged once, whichever edges name it (the rule is in :mod:`regkit.graph.control`).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import networkx as nx

from .schema import (
    CONTROL_RELATION_TYPES,
    CONTROL_ROLES,
    CONTROL_SHARE,
    NATURAL_PERSON,
    OWNERSHIP,
    PROFIT_TRANSFER,
    REPRESENTATION,
    to_date,
)
from .timeline import in_force

__all__ = ["is_control_edge", "holder_shares", "holding_parents"]


def is_control_edge(G: nx.MultiDiGraph, u: str, v: str, attrs: dict[str, Any]) -> bool:
    """Whether the edge ``u → v`` carries control by itself (see the module docstring; an ownership
    edge with more than half, or of unknown share as shareholder or stockholder)."""
    relation = attrs.get("relation")
    if relation == PROFIT_TRANSFER:
        return True
    if G.nodes[u].get("kind") == NATURAL_PERSON:
        return False
    if relation == OWNERSHIP:
        share = attrs.get("share")
        return attrs.get("relation_type") in CONTROL_RELATION_TYPES if share is None else share > CONTROL_SHARE
    return relation == REPRESENTATION and attrs.get("role") in CONTROL_ROLES


def holder_shares(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> dict[str, float | None]:
    """The legal-person holders of a company on a date and their share (``None``: not known).

    A holder with ownership edges of known share in force gets their sum; one named only by a
    ``SHAREHOLDER`` entry or by ownership of unknown share as ``shareholder`` / ``stockholder`` gets
    ``None``. Natural persons, and ownership of unknown share as a partner, are left out.
    """
    day = to_date(date)
    known: dict[str, float] = {}
    unknown: set[str] = set()
    for u, _, attrs in G.in_edges(company_id, data=True):
        relation = attrs.get("relation")
        if relation not in (OWNERSHIP, REPRESENTATION) or not in_force(attrs, day):
            continue
        if G.nodes[u].get("kind") == NATURAL_PERSON:
            continue
        if relation == OWNERSHIP and attrs.get("share") is not None:
            known[u] = known.get(u, 0.0) + attrs["share"]
        elif is_control_edge(G, u, company_id, attrs):
            unknown.add(u)
    shares: dict[str, float | None] = dict.fromkeys(unknown - set(known))
    shares.update(known)
    return shares


def holding_parents(G: nx.MultiDiGraph, company_id: str, day: _dt.date | None) -> set[str]:
    """The holders that control ``company_id`` by their holding on ``day`` (profit transfer aside)."""
    return {u for u, share in holder_shares(G, company_id, day).items() if share is None or share > CONTROL_SHARE}
