"""Control layers: where each node of a group sits in the hierarchy, and positions for drawing it.

A node's *layout parents* are the nodes drawn above it: the target of its profit-transfer agreement,
its legal-person shareholders and holders of more than half of it (see :mod:`regkit.graph.control`),
the company it merged into, the company that spun assets off to it. Layers are longest paths from the top (every node below all of
its layout parents; a cycle is cut where it closes); natural persons form one row below everything.
No matplotlib here: the positions feed any drawing (``regkit.plot.group``, ``networkx.draw``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import networkx as nx

from .control import is_control_edge
from .schema import MERGER, NATURAL_PERSON, OWNERSHIP, PROFIT_TRANSFER, REPRESENTATION, SPIN_OFF

__all__ = ["layout_parents", "control_layers", "layered_layout"]


def layout_parents(G: nx.MultiDiGraph) -> dict[str, set[str]]:
    """Node → the nodes drawn above it (see the module docstring)."""
    parents: dict[str, set[str]] = {n: set() for n in G}
    for u, v, attrs in G.edges(data=True):
        relation = attrs.get("relation")
        if relation in (PROFIT_TRANSFER, MERGER):
            parents[u].add(v)
        elif relation == SPIN_OFF or (relation in (REPRESENTATION, OWNERSHIP) and is_control_edge(G, u, v, attrs)):
            parents[v].add(u)
    return parents


def control_layers(G: nx.MultiDiGraph, parents: dict[str, set[str]] | None = None) -> dict[str, int]:
    """Node → layer (0 at the top).

    ``parents`` is :func:`layout_parents` of ``G`` if the caller has it already (default: computed here).

    Examples
    --------
    >>> from regkit.graph import from_companies
    >>> held = {"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}, "representation": [
    ...     {"id": "DE-HRB-B1204-1", "name": "Alpha AG", "type": "legal_person", "role": "SHAREHOLDER",
    ...      "start_date": "2001-01-01", "end_date": None, "authority": None, "legal_person": None}]}
    >>> control_layers(from_companies([held]))
    {'DE-HRB-B1204-1': 0, 'DE-HRB-B1204-2': 1}
    """
    if parents is None:
        parents = layout_parents(G)
    people = {n for n, a in G.nodes(data=True) if a.get("kind") == NATURAL_PERSON}
    layer: dict[str, int] = {}

    def depth(node: str, visiting: set[str]) -> int:
        if node not in layer:
            visiting.add(node)
            above = [depth(p, visiting) for p in sorted(parents[node] - visiting - people)]
            visiting.discard(node)
            layer[node] = 1 + max(above, default=-1)
        return layer[node]

    for node in sorted(set(G) - people):
        depth(node, set())
    layer.update(dict.fromkeys(sorted(people), max(layer.values(), default=-1) + 1))
    return layer


def layered_layout(
    G: nx.MultiDiGraph,
    max_row: int = 8,
    row_gap: float = 0.9,
    layer_gap: float = 0.5,
    stagger: bool = True,
    order: Mapping[Any, Any] | None = None,
) -> dict[Any, tuple[float, float]]:
    """Positions: one band per control layer, each ordered to keep children under their parents.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        The nodes to place (usually a group's subgraph).
    max_row : int
        A layer with more nodes is wrapped into several rows of at most this many, all within the layer's
        band (a band never mixes layers).
    row_gap, layer_gap : float
        Vertical distance between rows, and extra distance between layers (nodes are one unit apart).
    stagger : bool
        In a wrapped band, shift every other row by half a unit, so that a line dropping from above to a node
        of the second row passes between the nodes of the first.
    order : mapping, optional
        Node → sort key: each band is ordered by it (nodes without a key after the others, by id) instead of
        the barycenter sweeps. Pass the x of another layout of the same group (e.g. without people, or not
        restricted to a date) to keep its left-to-right order.

    Returns
    -------
    dict
        Node → ``(x, y)``; the top layer at ``y = 0``, each band centred on ``x = 0``. Bands start in id
        order and are reordered by the mean x of their neighbours in the band above, then below,
        then above again (barycenter sweeps, fewer crossings); a wrapped band is filled column by column
        in that order, and a node drawn above others of a later band sits at the bottom of its column (its
        lines down cross no node of its own band; columns keep their order). The same graph always gets the same positions.

    Examples
    --------
    >>> from regkit.graph import from_companies
    >>> held = {"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}, "representation": [
    ...     {"id": "DE-HRB-B1204-1", "name": "Alpha AG", "type": "legal_person", "role": "SHAREHOLDER",
    ...      "start_date": "2001-01-01", "end_date": None, "authority": None, "legal_person": None}]}
    >>> layered_layout(from_companies([held]))
    {'DE-HRB-B1204-1': (0.0, 0.0), 'DE-HRB-B1204-2': (0.0, -1.4)}
    """
    if max_row < 1:
        raise ValueError(f"max_row must be at least 1, not {max_row}")
    parents = layout_parents(G)
    layer = control_layers(G, parents)
    neighbours = {n: set(G.predecessors(n)) | set(G.successors(n)) for n in G}
    bands = [sorted(n for n in layer if layer[n] == depth) for depth in range(max(layer.values(), default=-1) + 1)]
    above = {p for n in layer for p in parents[n] if layer.get(p, -1) < layer[n]}
    shape = _Shape(max_row, row_gap, layer_gap, stagger, above)
    pos = _place(bands, shape)
    if order is not None:
        for band in bands:
            band.sort(key=lambda n: (n not in order, order.get(n, 0), str(n)))
        return _place(bands, shape)
    for sweep in (range(1, len(bands)), range(len(bands) - 2, -1, -1), range(1, len(bands))):
        for depth in sweep:  # down, up, down: order each band by its neighbours' mean x (barycenter)
            side = set().union(*bands[depth - 1 : depth]) if sweep.step == 1 else set().union(*bands[depth + 1 :])
            mean = {n: _mean([pos[m][0] for m in neighbours[n] & side], pos[n][0]) for n in bands[depth]}
            bands[depth].sort(key=lambda n: (mean[n], pos[n][0], n))
            pos = _place(bands, shape)
    return pos


class _Shape(NamedTuple):
    max_row: int
    row_gap: float
    layer_gap: float
    stagger: bool
    above: set[Any]  # nodes drawn above a node of a later band: they go to the bottom of their column


def _mean(values: list[float], default: float) -> float:
    return sum(values) / len(values) if values else default


def _slots(band: list[Any], shape: _Shape) -> dict[Any, tuple[float, int]]:
    """Node → (x, row) in one band: filled column by column, nodes with lines down moved to the bottom of their column."""
    rows = -(-len(band) // shape.max_row) if band else 1
    cols = -(-len(band) // rows) if band else 0
    shift = 0.5 if shape.stagger else 0.0
    free = sorted(((c + shift * (r % 2), r) for r in range(rows) for c in range(cols)), key=lambda s: (s[0], s[1]))
    placed = dict(zip(band, free))
    if rows > 1:
        for node in band:  # swap a node with lines down with the lowest node of its column that has none
            x, row = placed[node]
            if node in shape.above:
                below = [m for m in band if placed[m][0] == x and placed[m][1] > row and m not in shape.above]
                if below:
                    other = max(below, key=lambda m: placed[m][1])
                    placed[node], placed[other] = placed[other], placed[node]
    return placed


def _place(bands: list[list[Any]], shape: _Shape) -> dict[Any, tuple[float, float]]:
    """Positions of ordered bands: rows of at most ``max_row`` nodes, each band centred, one unit apart."""
    pos: dict[Any, tuple[float, float]] = {}
    y = 0.0
    for band in bands:
        slots = _slots(band, shape)
        xs = [x for x, _ in slots.values()] or [0.0]
        middle = (min(xs) + max(xs)) / 2
        for node, (x, row) in slots.items():
            pos[node] = (x - middle, round(y - row * shape.row_gap, 6))
        y -= (1 + max((r for _, r in slots.values()), default=0)) * shape.row_gap + shape.layer_gap
    return pos
