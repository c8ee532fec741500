"""``regkit.plot.group``: a readable drawing of a corporate group.

Companies are laid out in layers by control (:func:`regkit.graph.layout.layered_layout`): the
ultimate parent on top, each company below its parents, absorbed companies below their acquirer,
spin-off recipients below the transferor, people (if drawn) at the bottom. Colour and marker tell the
kind and status of a node, line style the relation. The layout is deterministic (``layout="spring"``
is seeded). matplotlib is imported when drawing, not with this module.

Note: this module and the function share the name ``group``. ``regkit.plot.group`` is the function,
but after ``import regkit.plot.group`` Python binds the module to that name; the module is therefore
callable and calling it calls :func:`group`.
"""

from __future__ import annotations

import sys
import textwrap
import types
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.graph import as_of, controlled_companies, ultimate_parent
from regkit.graph.layout import layered_layout
from regkit.graph.schema import (
    COMPANY,
    LEGAL_PERSON,
    MERGER,
    NATURAL_PERSON,
    REPRESENTATION,
    SPIN_OFF,
    to_date,
)
from regkit.graph.timeline import in_force

if TYPE_CHECKING:
    from matplotlib.typing import LineStyleType

__all__ = ["group", "select_group", "NODE_STYLES", "EDGE_STYLES"]

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
    "profit_transfer": ("profit transfer (to parent)", "#C44E52", "solid", 2.2),
    "shareholder": ("shareholder (parent → company)", "#333333", "solid", 1.1),
    "general_partner": ("general partner", "#333333", "dashed", 1.1),
    "merger": ("merger (into acquirer)", "#937860", "dotted", 2.0),
    "spin_off": ("spin-off (to recipient)", "#DA8BC3", "dashdot", 1.6),
    "representation": ("officer / other role", "#BBBBBB", "solid", 0.6),
}


def _node_style(attrs: dict[str, Any]) -> tuple[str, str | None]:
    kind = attrs.get("kind")
    if kind == COMPANY:
        status = attrs.get("status") if attrs.get("fetched", True) else None
        return (COMPANY, status if (COMPANY, status) in NODE_STYLES else None)
    return (kind if kind in (LEGAL_PERSON, NATURAL_PERSON) else LEGAL_PERSON, None)


def _edge_style(G: nx.MultiDiGraph, u: str, attrs: dict[str, Any]) -> str:
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


def select_group(G: nx.MultiDiGraph, company_id: str, date: Any = None, persons: bool = False) -> set[str]:
    """The nodes of a company's group: its ultimate parent, all it controls, their mergers and spin-offs.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Control as of this day (default: the current state).
    persons : bool
        Add the natural persons who represent the group's companies.

    Returns
    -------
    set of str
    """
    day = to_date(date)
    top = ultimate_parent(G, company_id, day)
    members = {top, company_id} | controlled_companies(G, top, day)
    for node in list(members):
        for u, v, a in [*G.in_edges(node, data=True), *G.out_edges(node, data=True)]:
            if a.get("relation") in (MERGER, SPIN_OFF) and (day is None or in_force(a, day) or a["valid_from"] is None):
                members |= {u, v}
    if persons:
        members |= {u for node in list(members) for u, _, a in G.in_edges(node, data=True)
                    if a.get("relation") == REPRESENTATION and G.nodes[u].get("kind") == NATURAL_PERSON}  # fmt: skip
    return members


def _label(attrs: dict[str, Any], node: str, width: int, limit: int) -> str:
    text = str(attrs.get("name") or node)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return textwrap.fill(text, width)


def group(G: nx.MultiDiGraph, ax: Any = None, *, company_id: str | None = None, date: Any = None,
          persons: bool = False, labels: bool = True, legend: bool = True, layout: str = "layered",
          seed: int = 0, title: str | None = None, node_size: float = 260, font_size: float = 7) -> Any:  # fmt: skip
    """Draw a corporate group.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:func:`regkit.graph.from_companies` or :func:`regkit.graph.crawl`).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the group.
    company_id : str, optional
        Draw only this company's group (:func:`select_group`); default all of ``G``.
    date : date-like, optional
        Draw the group as it stood on this day (:func:`regkit.graph.as_of`; a company terminated
        since is drawn as active). Without a date the whole history in ``G`` is drawn, ended
        relations faded.
    persons : bool
        Also draw the natural persons (directors, Prokura, ...); default companies only.
    labels, legend : bool
        Draw node labels (names) and a legend of the kinds and relations present.
    layout : {"layered", "spring"}
        Control layers (default) or a seeded spring layout.
    seed : int
        Seed of the spring layout.
    title : str, optional
        Default: the group's top company (with ``company_id``) and the date.
    node_size, font_size : float

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from regkit.local.world import read_world
    >>> from regkit.graph import from_companies
    >>> import regkit.plot
    >>> G = from_companies(read_world().companies)
    >>> ax = regkit.plot.group(G, company_id="DE-HRB-R2103-65834")
    >>> ax.get_title()
    'Luxlog Holding AG (DE-HRB-R2103-65834) and its group'
    """
    if layout not in ("layered", "spring"):
        raise ValueError(f"layout must be 'layered' or 'spring', not {layout!r}")
    nodes = select_group(G, company_id, date, persons) if company_id is not None else set(G)
    if not persons:
        nodes = {n for n in nodes if G.nodes[n].get("kind") != NATURAL_PERSON}
    H = G.subgraph(nodes)
    if date is not None:
        H = as_of(H, date)
        for _, attrs in H.nodes(data=True):  # existed on the date, terminated since: it was not inactive then
            if attrs.get("status") == "inactive" and attrs.get("terminated_at") is not None:
                attrs["status"] = "active"
    pos = layered_layout(H) if layout == "layered" else nx.spring_layout(nx.DiGraph(H), seed=seed)
    if ax is None:
        import matplotlib.pyplot as plt

        xs = [x for x, _ in pos.values()] or [0.0]
        ys = [y for _, y in pos.values()] or [0.0]
        width = min(max(7.0, 1.6 * (max(xs) - min(xs) + 1) + 2.5), 32.0)  # + room for the legend
        _, ax = plt.subplots(figsize=(width, min(max(3.5, 1.3 * (max(ys) - min(ys) + 1)), 24.0)))
    _draw(H, pos, ax, date is None, labels, node_size, font_size)
    if legend:
        _legend(H, ax)
    if title is None and company_id is not None:
        day = to_date(date)  # None exactly when date is None: as_of above rejected a date that is no day
        top = ultimate_parent(G, company_id, day)
        title = f"{G.nodes[top].get('name') or top} ({top}) and its group"
        title += f" on {day.isoformat()}" if day is not None else ""
    if title:
        ax.set_title(title)
    ax.set_axis_off()
    ax.margins(0.08)
    return ax


def _draw(H: nx.MultiDiGraph, pos: dict, ax: Any, fade_ended: bool, labels: bool, node_size: float,
          font_size: float) -> None:  # fmt: skip
    for style, (_, colour, line, width) in EDGE_STYLES.items():
        for ended in (False, True):
            edges = sorted({(u, v) for u, v, a in H.edges(data=True)
                            if _edge_style(H, u, a) == style and (a.get("valid_to") is not None) == ended})  # fmt: skip
            if not edges:
                continue
            nx.draw_networkx_edges(nx.DiGraph(edges), pos, edgelist=edges, ax=ax, edge_color=colour, style=line,
                                   width=width, alpha=0.3 if ended and fade_ended else 0.9, arrows=True,
                                   arrowsize=9, node_size=node_size, connectionstyle="arc3,rad=0.06")  # fmt: skip
    for key, (_, colour, marker) in NODE_STYLES.items():
        members = sorted(n for n, a in H.nodes(data=True) if _node_style(a) == key)
        if members:
            nx.draw_networkx_nodes(H, pos, nodelist=members, ax=ax, node_color=colour, node_shape=marker,
                                   node_size=node_size, edgecolors="#2F3E5C", linewidths=0.8)  # fmt: skip
    if labels:
        for node, (x, y) in pos.items():
            ax.text(
                x,
                y - 0.1,
                _label(H.nodes[node], node, 16, 40),
                ha="center",
                va="top",
                fontsize=font_size,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.75},
            )


def _legend(H: nx.MultiDiGraph, ax: Any) -> None:
    from matplotlib.lines import Line2D

    kinds = {_node_style(a) for _, a in H.nodes(data=True)}
    links = {_edge_style(H, u, a) for u, _, a in H.edges(data=True)}
    handles = [Line2D([], [], marker=marker, linestyle="none", markerfacecolor=colour, markeredgecolor="#2F3E5C",
                      markersize=8, label=label)
               for key, (label, colour, marker) in NODE_STYLES.items() if key in kinds]  # fmt: skip
    handles += [Line2D([], [], color=colour, linestyle=line, linewidth=width, label=label)
                for key, (label, colour, line, width) in EDGE_STYLES.items() if key in links]  # fmt: skip
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)


class _CallableModule(types.ModuleType):
    """Lets ``regkit.plot.group(G)`` work even when the name is bound to this module (see docstring)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return group(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
