"""How a group drawing shows kinds and relations: colours, markers, line styles, and which way a link points.

Every connector of the drawing points down, from the node above to the node below: from a parent to the
company it holds or binds by a profit-transfer agreement, from an acquirer to the company merged into it,
from a transferor to the recipient of a spin-off (:func:`downward`). The graph keeps each relation's own
direction (:mod:`regkit.graph.schema`); only the drawing turns them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.graph.schema import (
    COMPANY,
    LEGAL_PERSON,
    MERGER,
    NATURAL_PERSON,
    PROFIT_TRANSFER,
    REPRESENTATION,
)
from regkit.schema.labels import GROUP_LINK_LABELS, GROUP_ROLE_LABELS

if TYPE_CHECKING:
    from matplotlib.typing import LineStyleType

__all__ = [
    "NODE_STYLES",
    "EDGE_STYLES",
    "ROLE_MARKERS",
    "ROLE_COLOUR",
    "PERSON_LINK",
    "TREE_ORDER",
    "SEED_COLOUR",
    "node_style",
    "edge_style",
    "downward",
]

#: Node style per (kind, status): legend label, face colour, marker.
NODE_STYLES: dict[tuple[str, str | None], tuple[str, str, str]] = {
    (COMPANY, "active"): ("company, active", "#4C72B0", "s"),
    (COMPANY, "liquidation"): ("company, in liquidation", "#DD8452", "s"),
    (COMPANY, "inactive"): ("company, inactive", "#A0A0A0", "s"),
    (COMPANY, None): ("company, not fetched", "#FFFFFF", "s"),
    (LEGAL_PERSON, None): ("legal person", "#8172B3", "D"),
    (NATURAL_PERSON, None): ("person", "#55A868", "o"),
}

#: Edge style per kind of link: legend label, colour, line style, width.
EDGE_STYLES: dict[str, tuple[str, str, LineStyleType, float]] = {
    "profit_transfer": (f"{GROUP_LINK_LABELS['profit_transfer']}, parent → company", "#C44E52", "solid", 2.0),
    "shareholder": ("shareholding, parent → company", "#333333", "solid", 1.1),
    "general_partner": (GROUP_LINK_LABELS["general_partner"], "#333333", "dashed", 1.1),
    "merger": (f"{GROUP_LINK_LABELS['merger']}: arrow into the acquirer", "#937860", "dotted", 2.0),
    "spin_off": (f"{GROUP_LINK_LABELS['spin_off']}: arrow to the recipient", "#B0479A", "dashdot", 1.6),
    "representation": ("officer / other role", "#BBBBBB", "solid", 0.6),
}

#: Legend label, colour and width of the lines from people to companies (the interactive view).
PERSON_LINK = ("role of a person", "#55A868", 0.5)

#: The colour of a person's column and role markers in a group drawing (green).
ROLE_COLOUR = "#2E6B3A"

#: How a group drawing marks a person's role in a company's row: role code → (legend label, marker).
ROLE_MARKERS: dict[str, tuple[str, str]] = {
    "DIRECTOR": (GROUP_ROLE_LABELS["DIRECTOR"], "o"),
    "PERSONAL_LIABLE_DIRECTOR": (GROUP_ROLE_LABELS["PERSONAL_LIABLE_DIRECTOR"], "D"),
    "SHAREHOLDER": (GROUP_ROLE_LABELS["SHAREHOLDER"], "s"),
    "PROKURA": (GROUP_ROLE_LABELS["PROKURA"], "^"),
    "OWNER": (GROUP_ROLE_LABELS["OWNER"], "P"),
    "PARTNER": (GROUP_ROLE_LABELS["PARTNER"], "p"),
    "LIQUIDATOR": (GROUP_ROLE_LABELS["LIQUIDATOR"], "v"),
    "OTHER": (GROUP_ROLE_LABELS["OTHER"], "X"),
}

#: Which relation a connector shows when a pair has several (the first present wins).
TREE_ORDER = ("profit_transfer", "merger", "spin_off", "shareholder", "general_partner", "representation")

#: The halo around the company asked about.
SEED_COLOUR = "#F2B701"


def node_style(attrs: dict[str, Any]) -> tuple[str, str | None]:
    """The key of :data:`NODE_STYLES` for a node's attributes."""
    kind = attrs.get("kind")
    if kind == COMPANY:
        status = attrs.get("status") if attrs.get("fetched", True) else None
        return (COMPANY, status if (COMPANY, status) in NODE_STYLES else None)
    return (kind if kind in (LEGAL_PERSON, NATURAL_PERSON) else LEGAL_PERSON, None)


def edge_style(G: nx.MultiDiGraph, u: str, attrs: dict[str, Any]) -> str:
    """The key of :data:`EDGE_STYLES` for an edge from ``u``."""
    relation = attrs.get("relation")
    if relation == "ownership":  # a holding: drawn as the shareholder entry it repeats (one line per pair)
        return "general_partner" if attrs.get("relation_type") == "general_partner" else "shareholder"
    if relation != REPRESENTATION:
        return relation if relation in EDGE_STYLES else "representation"
    legal = G.nodes[u].get("kind") != NATURAL_PERSON
    if legal and attrs.get("role") == "SHAREHOLDER":
        return "shareholder"
    if legal and attrs.get("role") == "PERSONAL_LIABLE_DIRECTOR":
        return "general_partner"
    return "representation"


def downward(u: str, v: str, attrs: dict[str, Any]) -> tuple[str, str]:
    """``(upper, lower)``: the edge ``u → v`` as the drawing points it, down (see the module docstring).

    Examples
    --------
    >>> downward("child", "parent", {"relation": "profit_transfer"})
    ('parent', 'child')
    >>> downward("holding", "held", {"relation": "ownership"})
    ('holding', 'held')
    """
    return (v, u) if attrs.get("relation") in (PROFIT_TRANSFER, MERGER) else (u, v)
