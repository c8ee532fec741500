"""Connectors of a group drawing: one line down to each company from its parent, the other links thinned.

Each company gets one connector, from the parent directly above it (:func:`tree_edges`): orthogonal, like an
organisation chart — down from the parent to a track of its own in the gap above the children's layer,
along it, and down to each child, the last stretch drawn in the relation's style (profit transfer, shareholding,
merger, spin-off). The several edges a pair may have (a shareholder entry, a holding, a profit-transfer
agreement) are one connector, showing the strongest relation (:data:`~regkit.plot.group_styles.TREE_ORDER`).
Every other link between the drawn companies (a second parent, a minority holding, a general partner beside the
parent) is a thin straight line in its relation's style; a person's roles are thin lines to the band of people at the bottom.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

import networkx as nx

from regkit.graph.layout import control_layers, layout_parents
from regkit.graph.schema import NATURAL_PERSON

from .group_canvas import CHANNEL, Canvas
from .group_styles import EDGE_STYLES, TREE_ORDER, downward, edge_style

__all__ = ["Link", "tree_edges", "draw_links", "PERSON_LINK"]

PERSON_LINK = ("role of a person", "#55A868", 0.5)
"""Legend label, colour and width of the lines from people to companies."""


class Link(NamedTuple):
    """One pair of drawn nodes, pointed down: its strongest relation and whether it has ended."""

    upper: Any
    lower: Any
    style: str
    ended: bool


def _pairs(H: nx.MultiDiGraph) -> dict[tuple[Any, Any], dict[str, bool]]:
    """(upper, lower) → style → ended (every edge of that style ended)."""
    pairs: dict[tuple[Any, Any], dict[str, bool]] = defaultdict(dict)
    for u, v, attrs in H.edges(data=True):
        pair = downward(u, v, attrs)
        style = edge_style(H, u, attrs)
        pairs[pair][style] = pairs[pair].get(style, True) and attrs.get("valid_to") is not None
    return pairs


def _strongest(styles: dict[str, bool]) -> str:
    return min(styles, key=TREE_ORDER.index)


def tree_edges(H: nx.MultiDiGraph) -> tuple[list[Link], list[Link], list[Link]]:
    """The drawing's connectors, other company links and person links (see the module docstring).

    Returns
    -------
    tuple of three lists of Link
        One connector per node below the top with a parent in the layer right above it (that parent chosen
        by the strongest relation, then id); every other pair of companies or legal persons; every pair with
        a natural person.

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.MultiDiGraph()
    >>> H.add_edge("child", "parent", relation="profit_transfer")
    0
    >>> H.add_edge("parent", "child", relation="ownership", share=1.0, relation_type="shareholder")
    0
    >>> tree_edges(H)
    ([Link(upper='parent', lower='child', style='profit_transfer', ended=False)], [], [])
    """
    pairs = _pairs(H)
    layer = control_layers(H)
    people = {n for n, kind in H.nodes(data="kind") if kind == NATURAL_PERSON}
    tree: dict[Any, Link] = {}
    for child, parents in layout_parents(H).items():
        candidates = [p for p in parents - people if layer[p] == layer[child] - 1 and (p, child) in pairs]
        if child in people or not candidates:
            continue
        best = min(candidates, key=lambda p: (TREE_ORDER.index(_strongest(pairs[p, child])), str(p)))
        style = _strongest(pairs[best, child])
        tree[child] = Link(best, child, style, pairs[best, child][style])
    chosen = {(link.upper, link.lower) for link in tree.values()}
    others: list[Link] = []
    persons: list[Link] = []
    for (upper, lower), styles in sorted(pairs.items(), key=lambda item: (str(item[0][0]), str(item[0][1]))):
        if (upper, lower) in chosen or upper == lower:
            continue
        link = Link(upper, lower, _strongest(styles), all(styles.values()))
        (persons if {upper, lower} & people else others).append(link)
    return sorted(tree.values(), key=lambda link: str(link.lower)), others, persons


def _band_of(y: float, canvas: Canvas) -> float:
    return min((b for b in canvas.bands if b >= y - 1e-6), default=y)


def draw_links(ax: Any, canvas: Canvas, links: tuple[list[Link], list[Link], list[Link]], fade_ended: bool) -> None:
    """Draw the connectors (orthogonal), the other links and the person links (straight, thin) on ``ax``."""
    from matplotlib.collections import LineCollection

    tree, others, persons = links
    pos = canvas.pos
    if persons:
        _, colour, width = PERSON_LINK
        segments = [[pos[link.upper], pos[link.lower]] for link in persons]
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, alpha=0.55, zorder=0.5))
    for link in others:  # thin and straight, in the style of the relation
        _, colour, line, width = EDGE_STYLES[link.style]
        ax.plot(
            *_curve(pos[link.upper], pos[link.lower], canvas.row),
            color=colour,
            linestyle=line,
            linewidth=min(width, 1.2) * 0.6,
            alpha=0.3 if fade_ended and link.ended else 0.6,
            zorder=0.6,
        )
    by_band: dict[float, dict[Any, list[Link]]] = defaultdict(lambda: defaultdict(list))
    for link in tree:
        by_band[_band_of(pos[link.lower][1], canvas)][link.upper].append(link)
    for band, parents in by_band.items():
        order = sorted(parents, key=lambda p: (pos[p][0], str(p)))
        wrapped = any(pos[n][1] < band - 1e-6 for n in pos if _band_of(pos[n][1], canvas) == band)
        spines = _spines(canvas, order, parents) if wrapped else {}
        for index, parent in enumerate(order):
            track = band + canvas.marker + (index + 1) / (len(order) + 1) * CHANNEL * canvas.row
            _draw_family(ax, canvas, parent, parents[parent], track, fade_ended, spines)


def _curve(a: tuple[float, float], b: tuple[float, float], row: float) -> tuple[list[float], list[float]]:
    """A straight line, or between two nodes of one row an arc above it (not through the nodes between)."""
    if abs(a[1] - b[1]) > 1e-6:
        return [a[0], b[0]], [a[1], b[1]]
    steps = [i / 16 for i in range(17)]
    lift = min(0.5 * row, 0.12 * abs(b[0] - a[0]) + 0.15)
    return [a[0] + (b[0] - a[0]) * t for t in steps], [a[1] + 4 * lift * t * (1 - t) for t in steps]


def _spines(canvas: Canvas, order: list[Any], parents: dict[Any, list[Link]]) -> dict[tuple[Any, Any], float]:
    """(parent, child) → x of the spine that runs down the left of the child's column in a wrapped band."""
    columns: dict[float, list[Any]] = defaultdict(list)
    for parent in order:
        for x in sorted({canvas.pos[link.lower][0] for link in parents[parent]}):
            columns[x].append(parent)
    spines = {}
    for parent in order:
        for link in parents[parent]:
            x = canvas.pos[link.lower][0]
            share = columns[x]
            offset = (share.index(parent) - (len(share) - 1) / 2) * 0.045
            spines[parent, link.lower] = x - canvas.column / 2 + offset
    return spines


def _draw_family(
    ax: Any,
    canvas: Canvas,
    parent: Any,
    children: list[Link],
    track: float,
    fade: bool,
    spines: dict[tuple[Any, Any], float],
) -> None:
    """Trunk down from ``parent``, bus along ``track``, then to each child a styled line with an arrow head:
    straight down, or — in a band wrapped into rows — down a spine left of the child's column and across."""
    xp, yp = canvas.pos[parent]
    drops = {link.lower: spines.get((parent, link.lower), canvas.pos[link.lower][0]) for link in children}
    styles = {link.style for link in children}
    colour = EDGE_STYLES[next(iter(styles))][1] if len(styles) == 1 else "#555555"
    alpha = 0.35 if fade and all(link.ended for link in children) else 0.9
    xs = [*drops.values(), xp]
    segments = [[(xp, yp), (xp, track)], [(min(xs), track), (max(xs), track)]]
    for x in set(drops.values()) - {canvas.pos[n][0] for n in drops}:  # spines, down to their lowest child
        segments.append([(x, track), (x, min(canvas.pos[n][1] for n, sx in drops.items() if sx == x))])
    for segment in segments:
        ax.plot(*zip(*segment), color=colour, linewidth=1.1, alpha=alpha, zorder=1, solid_capstyle="projecting")
    for link in children:
        xc, yc = canvas.pos[link.lower]
        x = drops[link.lower]
        start, end = ((x, track), (xc, yc + canvas.marker)) if x == xc else ((x, yc), (xc - canvas.marker, yc))
        _arrow(ax, start, end, link, 0.35 if fade and link.ended else 0.95)


def _arrow(ax: Any, start: tuple[float, float], end: tuple[float, float], link: Link, alpha: float) -> None:
    from matplotlib.patches import FancyArrowPatch

    _, colour, line, width = EDGE_STYLES[link.style]
    ax.add_patch(
        FancyArrowPatch(
            start,
            end,
            arrowstyle="-|>",
            mutation_scale=7,
            color=colour,
            linewidth=width,
            linestyle=line,
            shrinkA=0,
            shrinkB=0,
            alpha=alpha,
            zorder=1.2,
        )
    )
