"""Where everything of a group drawing goes, in inches: columns, rows, label lines, legend strip, figure size.

The layered layout (:func:`regkit.graph.layout.layered_layout`) gives positions in column and row units; this
module turns them into inches so that text, whose size is in points, fits: each label is broken at word
boundaries into lines no wider than its column (a single word too long for it shrinks its font), each row is
as tall as the tallest label, and the figure is at most ``max_width`` inches wide — a layer too long for that
wraps into several rows within its band. Pure arithmetic and font metrics; nothing is drawn here.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, NamedTuple

import networkx as nx

from regkit.graph.layout import layered_layout
from regkit.graph.schema import NATURAL_PERSON

from .group_labels import wrap_words

__all__ = ["Canvas", "plan_canvas", "company_units", "place_people", "text_width", "CHANNEL", "MIN_COLUMN"]

_MARGIN = 0.3
"""Inches left free on each side of the drawing."""
MIN_COLUMN = 1.35
"""Narrowest column (inches) before a layer wraps into another row (a 9 pt label needs about this)."""
_MAX_COLUMN = 1.8
"""Widest column (inches): a small group is not stretched."""
_MIN_FONT = 9.0
"""Labels are not shrunk below this size (points): a word too long for its column is set no smaller."""
_LINE = 1.22  # line height, in font sizes
CHANNEL = 0.62
"""Height of the gap between two layers, where connectors run, in rows."""


class Canvas(NamedTuple):
    """A planned drawing: positions and extents in inches (y grows upwards, the top layer at 0)."""

    pos: dict[Any, tuple[float, float]]
    lines: dict[Any, list[str]]  # label lines per node
    fonts: dict[Any, float]  # font size per label (points)
    column: float  # column width
    row: float  # row height
    marker: float  # half the marker height
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    legend_height: float  # strip reserved at the bottom for the legend
    legend_columns: int
    figsize: tuple[float, float]
    bands: list[float]  # y of the first row of each band, top down


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of ``text`` in points at ``size`` (the default font, as matplotlib renders it)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    width, _, _ = TextToPath().get_text_width_height_descent(text, FontProperties(size=size, weight=weight), False)
    return float(width)


def _fit(label: str, room: float, size: float, weight: str) -> tuple[list[str], float]:
    """Lines of ``label`` within ``room`` points wide, and the font size (shrunk for a word too long, but
    not below 9 points or ``size`` if smaller)."""

    floor = size

    def fits(line: str, size: float) -> bool:
        return text_width(line, size, weight) <= room

    while True:
        lines = wrap_words(label, partial(fits, size=size))
        if size <= min(_MIN_FONT, floor) or all(fits(line, size) for line in lines):
            return lines, size
        size -= 0.5


def plan_canvas(
    H: nx.MultiDiGraph,
    labels: dict[Any, str],
    *,
    font_size: float = 9.0,
    node_size: float = 150,
    max_width: float = 9.3,
    legend_entries: int = 0,
    legend_width: float = 0.0,
    title: bool = True,
    bold: Any = None,
    pos: dict[Any, tuple[float, float]] | None = None,
    order: dict[Any, Any] | None = None,
) -> Canvas:
    """Plan a drawing of ``H`` no wider than ``max_width`` inches (see the module docstring).

    Parameters
    ----------
    H : networkx.MultiDiGraph
        The nodes to draw.
    labels : dict
        Node → label text (one line; broken here). Nodes without a label get none.
    font_size, node_size : float
        Label font (points) and marker area (points², as ``scatter``).
    max_width : float
        The figure's greatest width in inches.
    legend_entries : int
        Entries of the legend strip reserved at the bottom (0: none).
    legend_width : float
        Width (points) of the widest legend entry, its handle included: sets the legend's columns.
    title : bool
        Reserve room for a title.
    bold : node, optional
        The node whose label is set in bold (the seed).
    pos : dict, optional
        Positions in column and row units instead of :func:`~regkit.graph.layout.layered_layout`.
    order : dict, optional
        Node → sort key of the companies in their layers (``layered_layout``'s ``order``): keeps the columns of
        another drawing of the group. Natural persons never move a company: they are placed afterwards, in a
        row below, each under the middle of its companies (:func:`place_people`).

    Returns
    -------
    Canvas

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.MultiDiGraph()
    >>> H.add_edges_from([("top", "a"), ("top", "b")], relation="ownership", relation_type="shareholder")
    [0, 0]
    >>> canvas = plan_canvas(H, {"top": "Top Holding AG", "a": "A GmbH", "b": "B GmbH"})
    >>> canvas.figsize[0], canvas.pos["top"][1] > canvas.pos["a"][1] == canvas.pos["b"][1]
    (6.0, True)
    """
    room = max_width - 2 * _MARGIN
    max_row = max(1, math.floor(room / MIN_COLUMN))
    units = pos if pos is not None else company_units(H, max_row, order)
    xs = [x for x, _ in units.values()] or [0.0]
    span = max(xs) - min(xs) + 1
    column = min(_MAX_COLUMN, room / span)
    fitted = {
        n: _fit(text, column * 72 - 10, font_size, "bold" if n == bold else "normal") for n, text in labels.items()
    }
    marker = math.sqrt(node_size) / 2 / 72
    tallest = max((len(lines) * size for lines, size in fitted.values()), default=0.0)
    row = max(0.5, 2 * marker + (tallest * _LINE + 8) / 72)
    placed = {n: (x * column, y * row) for n, (x, y) in units.items()}
    ys = [y for _, y in placed.values()] or [0.0]
    width = max(6.0, min(max_width, span * column + 2 * _MARGIN))
    legend_column = legend_width / 72 + 0.25
    legend_columns = max(1, min(legend_entries, math.floor((width - 0.2) / legend_column)))
    line = font_size * 1.75 / 72
    legend_height = 0.0 if not legend_entries else line * math.ceil(legend_entries / legend_columns) + 0.25
    top = marker + 0.12
    bottom = min(ys) - row + 2 * marker + 0.05 - legend_height
    half = width / 2
    centre = (max(xs) + min(xs)) / 2 * column
    height = top - bottom + (0.5 if title else 0.1)
    bands = sorted({y for y in ys if not any(abs(other - y - row) < 1e-6 for other in ys)}, reverse=True)
    return Canvas(
        placed,
        {n: lines for n, (lines, _) in fitted.items()},
        {n: s for n, (_, s) in fitted.items()},
        column,
        row,
        marker,
        (centre - half, centre + half),
        (bottom, top),
        legend_height,
        legend_columns,
        (round(width, 2), round(height, 2)),
        bands,
    )


def company_units(
    H: nx.MultiDiGraph, max_row: int, order: dict[Any, Any] | None = None
) -> dict[Any, tuple[float, float]]:
    """Positions in column and row units: the companies (and legal persons) by the layered layout, then the
    natural persons (:func:`place_people`). People never change where a company is drawn."""
    people = [n for n, kind in H.nodes(data="kind") if kind == NATURAL_PERSON]
    companies = H.subgraph([n for n in H if n not in set(people)])
    units = layered_layout(companies, max_row=max_row, row_gap=1.0, layer_gap=CHANNEL, stagger=False, order=order)
    if people:
        units.update(place_people(H, units, people, max_row))
    return units


def place_people(
    H: nx.MultiDiGraph, units: dict[Any, tuple[float, float]], people: list[Any], max_row: int
) -> dict[Any, tuple[float, float]]:
    """Each person in a row below the companies, under the mean x of the companies they are linked to (moved
    half a column aside, so that the lines to the rows of one column do not lie on one another).

    People are ordered by that mean (then id) and pushed apart to one column each; more than ``max_row``
    of them wrap into further rows. Deterministic.
    """

    columns = sorted({x for x, _ in units.values()}) or [0.0]

    def middle(person: Any) -> float:  # between two columns: lines to one column's rows then part
        xs = [units[m][0] for m in (set(H.predecessors(person)) | set(H.successors(person))) if m in units]
        mean = sum(xs) / len(xs) if xs else columns[0]
        nearest = min(columns, key=lambda c: (abs(c - mean), c))
        return nearest + (0.5 if mean >= nearest else -0.5)

    wanted = sorted(people, key=lambda p: (middle(p), str(p)))
    xs = [x for x, _ in units.values()] or [0.0]
    left, right = min(xs), max(max(xs), min(xs) + max_row - 1)
    y = min((y for _, y in units.values()), default=0.0) - 1.0 - CHANNEL * 3  # room for the lines to fan out
    placed: dict[Any, tuple[float, float]] = {}
    for start in range(0, len(wanted), max_row):
        row = wanted[start : start + max_row]
        spots: list[float] = []
        for person in row:  # left to right, at least a column apart
            spots.append(max(middle(person), spots[-1] + 1) if spots else max(middle(person), left))
        overflow = spots[-1] - right if spots else 0.0
        if overflow > 0:  # shift back left, keeping the gaps, as far as the left edge allows
            spots = [s - overflow for s in spots]
            spots[0] = max(spots[0], left)
            for i in range(1, len(spots)):
                spots[i] = max(spots[i], spots[i - 1] + 1)
        placed.update({p: (x, y) for p, x in zip(row, spots)})
        y -= 1.0
    return placed
