"""Checks any matplotlib Figure must pass (issue 25): a source line, one language of labels, labels large enough on
screen, a zero line where values turn negative, amount axes from zero with their unit in the label.

Each ``*_problems`` function returns a list of sentences (empty: passed), so the checks can be run over many figures
and their problems collected; :func:`assert_figure_ok` asserts that a figure has none. What is checked is read off
the drawn artists, after ``fig.canvas.draw()``:

* :func:`source_problems` — exactly one text with gid ``regkit-source`` (:mod:`regkit.plot.source_line`), not empty,
  at the figure's bottom-left: its left edge in the left tenth, below every Axes.
* :func:`language_problems` — no label in two languages: a German register term only as the gloss of its English
  label ("general partner (persönlich haftender Gesellschafter)", :data:`regkit.schema.labels.GERMAN_TERMS`), no
  other German label word (:data:`~regkit.schema.labels.GERMAN_WORDS`), no raw code (``spin_off``,
  ``PERSONAL_LIABLE_DIRECTOR``).
* :func:`size_problems` — every visible text at least ``min_points`` on screen, where the size on screen is the
  font size × the displayed width ÷ the figure's width (the tight bounding box at ``dpi``, as Jupyter stores it);
  a figure narrower than the display is shown at its own size (factor 1).
* :func:`zero_line_problems` — an Axes whose data go below zero (lines, bars) draws a horizontal line at 0 (a y
  axis of named rows — tick labels that are no numbers, as in a timeline — holds no values and is left out).
* :func:`layout_problems` — the figure keeps its layout when drawn again (each Axes' position after one draw and
  after two more, to :data:`LAYOUT_TOLERANCE`): a legend outside the Axes taller than the Axes makes constrained
  layout shrink the Axes a little more at every draw.
* :func:`amount_axis_problems` — an Axes with EUR ticks (:class:`regkit.plot.EuroFormatter`) includes 0 and names
  the tick unit ("€M") in its y label.
* :func:`overprint_problems` (issue 46) — no visible text covers another: titles, rotated labels, tick labels, legend
  entries and annotations, each taken as the rectangle it is drawn in (turned with the text), compared pairwise.
* :func:`legend_problems` (issue 46) — no legend inside an Axes covers a data point of a line or the top of a bar.
* :func:`clip_problems` (issue 46) — no text is cut: none reaches past the figure's edge (a plain ``savefig`` keeps
  only the figure, not the tight box Jupyter shows), and none that its Axes or a patch clips reaches past its clip
  box ("83 %" drawn as "83").

Over the notebooks: the test suite's nbval run checks every pyplot figure each cell leaves, before Jupyter's inline
backend shows and closes it (``tests/nbval_figure_checks.py``; ``pytest notebooks/03_financial_indicators.ipynb``
checks one notebook's). Figures an explorer renders itself (``regkit.widgets``) are not pyplot's and are checked by
the browser tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
from matplotlib.axis import Tick
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter

from regkit.plot.source_line import SOURCE_GID
from regkit.schema.labels import GERMAN_TERMS, GERMAN_WORDS, glossed

__all__ = [
    "DISPLAY_WIDTH_PX",
    "MIN_POINTS",
    "visible_texts",
    "source_problems",
    "language_problems",
    "size_problems",
    "zero_line_problems",
    "amount_axis_problems",
    "layout_problems",
    "overprint_problems",
    "clip_problems",
    "legend_problems",
    "figure_problems",
    "assert_figure_ok",
]

DISPLAY_WIDTH_PX = 968
"""The width of a JupyterLab output cell the issue measured (px): a wider figure is shown shrunk to it."""
MIN_POINTS = 9.0
"""The smallest text size on screen a reader is asked to read (points)."""

_NUMBER = re.compile(r"^[\u2212+-]?€?[\d,.\s]+(?:bn|M|k)?(?:\s?%)?$")
"""A tick label of a value axis: ``€1.5M``, ``−10%``, ``2,000``."""
_EURO_TICK = re.compile(r"^[\u2212+-]?€[\d,.]+(bn|M|k)?$")
"""A tick of an EUR axis and its unit's suffix: ``€1.5M`` → ``M`` (the unit ``€M``)."""
_CODE = re.compile(r"\b(?:[a-z]+(?:_[a-z0-9]+)+|[A-Z]{2,}(?:_[A-Z0-9]+)+)\b")
"""A raw code: ``spin_off``, ``discharge_revoked``, ``PERSONAL_LIABLE_DIRECTOR``."""


def _renderer(fig: Any) -> Any:
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _tick_labels(fig: Any) -> dict[int, tuple[Any, str]]:
    """Tick labels by id: (their axis, "x" or "y")."""
    found: dict[int, tuple[Any, str]] = {}
    for ax in fig.axes:
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                for label in (tick.label1, tick.label2):
                    found[id(label)] = (axis, which)
    return found


def _shown_tick(label: Text, axis: Any, which: str) -> bool:
    """Whether a tick label is drawn: visible, its tick inside the axis' view."""
    low, high = sorted(axis.get_view_interval())
    x, y = label.get_position()
    value = x if which == "x" else y
    span = (high - low) or 1.0
    return bool(label.get_visible()) and low - 1e-9 * span <= value <= high + 1e-9 * span


def visible_texts(fig: Any) -> list[Text]:
    """Every text a reader sees in ``fig``: titles, labels, tick labels in view, legend entries, annotations."""
    _renderer(fig)
    ticks = _tick_labels(fig)
    texts = []
    seen: set[int] = set()
    for text in fig.findobj(Text):
        if id(text) in seen or not text.get_text().strip() or not text.get_visible():
            continue
        seen.add(id(text))
        if id(text) in ticks and (not ticks[id(text)][0].axes.axison or not _shown_tick(text, *ticks[id(text)])):
            continue
        if _hidden_by_parents(text):
            continue
        texts.append(text)
    return texts


def _hidden_by_parents(text: Text) -> bool:
    axes = text.axes
    if axes is not None and not axes.get_visible():
        return True
    parent = getattr(text, "_parent_tick", None)
    return isinstance(parent, Tick) and not parent.get_visible()


def source_problems(fig: Any, expected: str | None = None) -> list[str]:
    """The figure carries one source line at its bottom-left (with the text ``expected``, if given)."""
    renderer = _renderer(fig)
    lines = [t for t in fig.texts if t.get_gid() == SOURCE_GID and t.get_visible()]
    if len(lines) != 1:
        return [f"{len(lines)} source lines (gid {SOURCE_GID!r}), not 1"]
    (line,) = lines
    problems = []
    if not line.get_text().strip():
        problems.append("the source line is empty")
    if expected is not None and line.get_text() != expected:
        problems.append(f"the source line reads {line.get_text()!r}, not {expected!r}")
    box = line.get_window_extent(renderer)
    figure = fig.bbox
    if box.x0 > figure.x0 + 0.1 * figure.width:
        problems.append(f"the source line starts {box.x0 - figure.x0:.0f} px from the left edge, not at it")
    axes_bottom = min((ax.get_window_extent(renderer).y0 for ax in fig.axes if ax.get_visible()), default=box.y1)
    if box.y1 > axes_bottom + 1:
        problems.append("the source line is not below the axes")
    return problems


def _without_glosses(text: str) -> str:
    for german, english in GERMAN_TERMS.items():
        text = text.replace(glossed(english, german), english)
    return text


def language_problems(fig: Any, names: Iterable[str] = ()) -> list[str]:
    """No label in two languages and no raw code (see the module docstring).

    ``names`` are texts to leave out (company and person names may hold any word); the figure's title is a name
    or made of names and is checked for raw codes only.
    """
    skip = set(names)
    problems = []
    titles = {id(ax.title) for ax in fig.axes} | {id(t) for ax in fig.axes for t in (ax._left_title, ax._right_title)}
    for text in visible_texts(fig):
        said = text.get_text()
        if said in skip or text.get_gid() == SOURCE_GID:
            continue
        code = _CODE.search(said)
        if code and not re.search(r"\d", said[max(0, code.start() - 1) : code.end() + 1]):
            problems.append(f"a raw code {code.group(0)!r} in {said!r}")
        if id(text) in titles:
            continue
        bare = _without_glosses(said)
        for german, english in GERMAN_TERMS.items():
            if german in bare:
                problems.append(f"{german!r} without its English label in {said!r} (say {glossed(english, german)!r})")
        for word in GERMAN_WORDS:
            if re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", bare) and not any(word in g for g in GERMAN_TERMS):
                problems.append(f"the German word {word!r} in the label {said!r}")
    return problems


def figure_width_px(fig: Any, dpi: float = 100.0) -> float:
    """The width of the image Jupyter stores for ``fig`` (``bbox_inches="tight"``), in pixels at ``dpi``."""
    renderer = _renderer(fig)
    return float(fig.get_tightbbox(renderer).width * dpi)


def size_problems(
    fig: Any, displayed_width_px: float = DISPLAY_WIDTH_PX, *, dpi: float = 100.0, min_points: float = MIN_POINTS
) -> list[str]:
    """Every visible text at least ``min_points`` on screen when the figure is shown ``displayed_width_px`` wide."""
    factor = min(1.0, displayed_width_px / figure_width_px(fig, dpi))
    problems = []
    for text in visible_texts(fig):
        shown = float(text.get_fontsize()) * factor
        if shown < min_points - 1e-6:
            problems.append(f"{text.get_text()[:40]!r} is {shown:.1f} pt on screen (font {text.get_fontsize():g} pt)")
    return problems


def _data_below_zero(ax: Any) -> bool:
    """Whether values drawn on the y axis go below zero (a y axis of named rows, as in a timeline, has none)."""
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text().strip()]
    if isinstance(ax.yaxis.get_major_formatter(), FixedFormatter) or any(not _NUMBER.match(t) for t in shown):
        return False
    for line in ax.get_lines():
        if line.get_gid() in ("zero", "reference") or line.get_transform() != ax.transData:
            continue
        y = np.asarray(line.get_ydata(), dtype=float)
        if y.size and np.nanmin(np.where(np.isfinite(y), y, np.nan), initial=np.inf) < 0:
            return True
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and patch.get_transform() == ax.transData and patch.get_height() != 0:
            if min(patch.get_y(), patch.get_y() + patch.get_height()) < 0 and patch.get_width() > 0:
                return True
    return False


def _has_zero_line(ax: Any) -> bool:
    for line in ax.get_lines():
        y = np.asarray(line.get_ydata(), dtype=float)
        if y.size and np.all(y == 0) and line.get_visible():
            x = np.asarray(line.get_xdata(), dtype=float)
            whole = line.get_transform().contains_branch_seperately(ax.transData)[0] is False
            if whole or (x.size and np.nanmin(x) <= ax.get_xlim()[0] and np.nanmax(x) >= ax.get_xlim()[1]):
                return True
    return False


def zero_line_problems(fig: Any) -> list[str]:
    """Each Axes whose data go below zero draws a horizontal line at zero across it."""
    return [
        f"{ax.get_title() or 'an Axes'}: values below zero and no zero line"
        for ax in fig.axes
        if ax.get_visible() and ax.axison and _data_below_zero(ax) and not _has_zero_line(ax)
    ]


def amount_axis_problems(fig: Any) -> list[str]:
    """Each Axes with EUR ticks starts at (or includes) zero and names the ticks' unit in its y label."""
    from regkit.plot import EuroFormatter

    _renderer(fig)
    problems = []
    for ax in fig.axes:
        if not isinstance(ax.yaxis.get_major_formatter(), EuroFormatter) or not ax.axison:
            continue
        low, high = ax.get_ylim()
        if not low <= 0 <= high:
            problems.append(f"{ax.get_ylabel()!r}: the amount axis runs {low:,.0f} to {high:,.0f}, without zero")
        ticks = [
            _EURO_TICK.match(t.get_text().strip())
            for t in ax.get_yticklabels()
            if t.get_text().strip() and t.get_text().strip() != "€0"  # zero is written without a unit
        ]
        units = {"€" + (m.group(1) or "") if m else "(not an amount)" for m in ticks}
        unit = next(iter(units), None)
        if len(units) > 1:
            problems.append(f"{ax.get_ylabel()!r}: ticks in several units {sorted(units)}")
        elif unit and unit not in ax.get_ylabel():
            problems.append(f"the amount axis is labelled {ax.get_ylabel()!r} under ticks in {unit}")
    return problems


#: How far (a fraction of the figure) an Axes may move when the figure is drawn again: constrained layout's own
#: rounding moves it by a millionth.
LAYOUT_TOLERANCE = 0.005


def layout_problems(fig: Any, tolerance: float = LAYOUT_TOLERANCE) -> list[str]:
    """Whether the figure keeps its layout when drawn again (a reader who saves a figure after seeing it, or
    redraws it, gets what they saw): each Axes' position after one draw and after two more."""
    _renderer(fig)
    first = [tuple(ax.get_position().bounds) for ax in fig.axes]
    _renderer(fig)
    _renderer(fig)
    again = [tuple(ax.get_position().bounds) for ax in fig.axes]
    return [
        f"the layout moves each time the figure is drawn: axes {number} from "
        f"({', '.join(f'{v:.3f}' for v in before)}) to ({', '.join(f'{v:.3f}' for v in after)})"
        for number, (before, after) in enumerate(zip(first, again))
        if max(abs(a - b) for a, b in zip(before, after)) > tolerance
    ]


#: How far two texts' rectangles may reach into each other before one is said to cover the other (px): glyph boxes
#: carry some empty margin, and two rows of tick labels may touch.
OVERPRINT_TOLERANCE = 1.0


def _corners(text: Text, renderer: Any) -> np.ndarray:
    """The four corners (px) of the rectangle ``text`` is drawn in, turned with it.

    A turned rectangle's axis-aligned box (what ``get_window_extent`` gives) has the rectangle's centre; the
    rectangle's own width and height are the text's extent drawn unturned.
    """
    box = Text.get_window_extent(text, renderer)  # the text alone (an Annotation's extent takes in its arrow)
    angle = float(text.get_rotation()) % 180.0
    if angle in (0.0, 90.0):
        return np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]])
    centre = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
    rotation = text.get_rotation()
    try:
        text.set_rotation(0)
        flat = Text.get_window_extent(text, renderer)
    finally:
        text.set_rotation(rotation)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [flat.width / 2, flat.height / 2]
    theta = np.deg2rad(angle)
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    return np.asarray(centre + half @ turn.T)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """How far two convex polygons reach into each other (px; 0 or less: apart), by separating axes."""
    depth = np.inf
    for polygon in (a, b):
        for i in range(len(polygon)):
            edge = polygon[(i + 1) % len(polygon)] - polygon[i]
            normal = np.array([-edge[1], edge[0]])
            length = np.hypot(*normal)
            if length == 0:
                continue
            normal = normal / length
            pa, pb = a @ normal, b @ normal
            depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
            if depth <= 0:
                return float(depth)
    return float(depth)


def _said(text: Text) -> str:
    return text.get_text().replace("\n", " ")[:50]


def overprint_problems(fig: Any, tolerance: float = OVERPRINT_TOLERANCE) -> list[str]:
    """No visible text covers another (titles and rotated labels included): each pair that overlaps by more than
    ``tolerance`` px, named by their texts."""
    renderer = _renderer(fig)
    texts = visible_texts(fig)
    shapes = [(t, _corners(t, renderer)) for t in texts]
    problems = []
    for i, (first, a) in enumerate(shapes):
        for second, b in shapes[i + 1 :]:
            if a[:, 0].min() > b[:, 0].max() or b[:, 0].min() > a[:, 0].max():
                continue
            if a[:, 1].min() > b[:, 1].max() or b[:, 1].min() > a[:, 1].max():
                continue
            depth = _overlap(a, b)
            if depth > tolerance:
                problems.append(f"{_said(first)!r} is printed over {_said(second)!r} ({depth:.0f} px)")
    return problems


def clip_problems(fig: Any) -> list[str]:
    """No text is cut: none reaches past the figure (as a plain ``savefig`` writes it), and none drawn clipped
    (``clip_on``, with a clip box: its Axes or a bar) reaches past what clips it."""
    renderer = _renderer(fig)
    edge = fig.bbox
    problems = []
    for text in visible_texts(fig):
        box = Text.get_window_extent(text, renderer)
        if box.x0 < edge.x0 - 1 or box.x1 > edge.x1 + 1 or box.y0 < edge.y0 - 1 or box.y1 > edge.y1 + 1:
            problems.append(f"{_said(text)!r} reaches past the figure's edge (cut off by a plain savefig)")
            continue
        clip = text.get_clip_box() if text.get_clip_on() else None
        if clip is not None and (
            box.x0 < clip.x0 - 1 or box.x1 > clip.x1 + 1 or box.y0 < clip.y0 - 1 or box.y1 > clip.y1 + 1
        ):
            problems.append(f"{_said(text)!r} is cut by what clips it")
    return problems


def shortened_problems(fig: Any) -> list[str]:
    """No text written on a bar (``regkit.plot.bar_text``) is cut short: a timeline's "Gerber Dienstleistu…" hid
    the UG the company was, "HRB 168089, A…" the court it moved to, a breakdown's "10…" was no share at all
    (issue 46). A bar text carries its whole text as ``full_text``; what was drawn must be all of it, or nothing
    (a bar too small for any text, whose share the legend and table give)."""
    _renderer(fig)
    return [
        f"bar text {text.full_text!r} drawn shortened as {text.get_text()!r}"
        for text in fig.findobj(Text)
        if text.get_gid() == "bar_text" and text.get_visible() and text.get_text() not in ("", text.full_text)
    ]


def legend_problems(fig: Any) -> list[str]:
    """No legend drawn inside an Axes covers the data: a point of a line (drawn in data coordinates) or the top
    corners of a bar inside the legend's box."""
    renderer = _renderer(fig)
    problems = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        frame = ax.get_window_extent(renderer)
        if box.x0 >= frame.x1 - 1 or box.x1 <= frame.x0 + 1 or box.y0 >= frame.y1 - 1 or box.y1 <= frame.y0 + 1:
            continue  # outside the Axes
        points = []
        for line in ax.get_lines():
            if (
                line.get_transform() == ax.transData
                and line.get_visible()
                and line.get_gid() not in ("zero", "reference")
            ):
                xy = np.column_stack([np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)])
                points.extend(ax.transData.transform(xy[np.isfinite(xy).all(axis=1)]))
        for patch in ax.patches:
            if isinstance(patch, Rectangle) and patch.get_transform() == ax.transData and patch.get_height():
                top = max(patch.get_y(), patch.get_y() + patch.get_height())
                points.extend(ax.transData.transform([(patch.get_x(), top), (patch.get_x() + patch.get_width(), top)]))
        covered = sum(1 for x, y in points if box.x0 < x < box.x1 and box.y0 < y < box.y1)
        if covered:
            problems.append(f"{ax.get_title() or 'an Axes'}: the legend covers {covered} data points")
    return problems


def figure_problems(
    fig: Any,
    *,
    displayed_width_px: float = DISPLAY_WIDTH_PX,
    dpi: float = 100.0,
    source: str | None = None,
    names: Iterable[str] = (),
) -> list[str]:
    """Every problem the checks of this module find in ``fig`` (an empty list: none)."""
    return [
        *layout_problems(fig),
        *source_problems(fig, source),
        *language_problems(fig, names),
        *size_problems(fig, displayed_width_px, dpi=dpi),
        *zero_line_problems(fig),
        *amount_axis_problems(fig),
        *overprint_problems(fig),
        *clip_problems(fig),
        *legend_problems(fig),
        *shortened_problems(fig),
    ]


def assert_figure_ok(fig: Any, **options: Any) -> None:
    """Assert that :func:`figure_problems` finds nothing in ``fig``."""
    problems = figure_problems(fig, **options)
    assert not problems, "\n".join(problems)
