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

from .group_labels import wrap_words

__all__ = ["Canvas", "plan_canvas", "CHANNEL"]

_MARGIN = 0.3
"""Inches left free on each side of the drawing."""
_MIN_COLUMN = 0.95
"""Narrowest column (inches) before a layer wraps into another row."""
_MAX_COLUMN = 1.5
"""Widest column (inches): a small group is not stretched."""
_LEGEND_COLUMN = 2.75
"""Width (inches) of one legend column in the strip at the bottom."""
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


def _text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of ``text`` in points at ``size`` (the default font, as matplotlib renders it)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    width, _, _ = TextToPath().get_text_width_height_descent(text, FontProperties(size=size, weight=weight), False)
    return float(width)


def _fit(label: str, room: float, size: float, weight: str) -> tuple[list[str], float]:
    """Lines of ``label`` within ``room`` points wide, and the font size (shrunk for a word too long)."""

    def fits(line: str, size: float) -> bool:
        return _text_width(line, size, weight) <= room

    while True:
        lines = wrap_words(label, partial(fits, size=size))
        if size <= 5.0 or all(fits(line, size) for line in lines):
            return lines, size
        size -= 0.5


def plan_canvas(
    H: nx.MultiDiGraph,
    labels: dict[Any, str],
    *,
    font_size: float = 7.0,
    node_size: float = 150,
    max_width: float = 12.0,
    legend_entries: int = 0,
    title: bool = True,
    bold: Any = None,
    pos: dict[Any, tuple[float, float]] | None = None,
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
    title : bool
        Reserve room for a title.
    bold : node, optional
        The node whose label is set in bold (the seed).
    pos : dict, optional
        Positions in column and row units instead of :func:`~regkit.graph.layout.layered_layout`.

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
    max_row = max(1, math.floor(room / _MIN_COLUMN))
    units = (
        pos if pos is not None else layered_layout(H, max_row=max_row, row_gap=1.0, layer_gap=CHANNEL, stagger=False)
    )
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
    legend_columns = max(1, min(legend_entries, math.floor((width - 0.2) / _LEGEND_COLUMN)))
    legend_height = 0.0 if not legend_entries else 0.22 * math.ceil(legend_entries / legend_columns) + 0.25
    top = marker + 0.12
    bottom = min(ys) - row + 2 * marker + 0.05 - legend_height
    half = width / 2
    height = top - bottom + (0.45 if title else 0.1)
    bands = sorted({y for y in ys if not any(abs(other - y - row) < 1e-6 for other in ys)}, reverse=True)
    return Canvas(
        placed,
        {n: lines for n, (lines, _) in fitted.items()},
        {n: s for n, (_, s) in fitted.items()},
        column,
        row,
        marker,
        (-half, half),
        (bottom, top),
        legend_height,
        legend_columns,
        (round(width, 2), round(height, 2)),
        bands,
    )
