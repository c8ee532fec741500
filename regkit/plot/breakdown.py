"""Proceedings broken down by one column and split by another: a crosstab as stacked horizontal bars.

:func:`breakdown_counts` is the table :func:`insolvency_breakdown` draws (call it for the numbers). Codes are
shown as a reader says them (``gmbh`` → "GmbH", :func:`regkit.schema.labels.display_label`), the legend titled by
the column ("Legal form"); ``share=True`` compares groups of different sizes by their make-up (each bar 100 %).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.legend_handler import HandlerTuple
from matplotlib.patches import Patch

from regkit.schema import count_text, percent_text
from regkit.schema.labels import column_label, display_label

from .bar_text import bar_text
from .insolvency import _OTHER, _column, _groups, _palette, _proceedings, _top
from .source_line import add_source_line
from .style import new_axes

__all__ = ["FEW", "breakdown_counts", "insolvency_breakdown"]

_ALL = "proceedings"


def breakdown_counts(
    frame: pd.DataFrame, by: str = "legal_form", split: str | None = None, *, top: int | None = 8, share: bool = False
) -> pd.DataFrame:
    """Proceedings per group of ``by``, split into the groups of ``split``.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per proceeding (:func:`regkit.frames.insolvency_results`, ``search_all_insolvencies(...)``'s
        frame), with any columns of your own (an industry, a region).
    by, split : str
        ``legal_form``, ``status``, ``court``, ``kind``, ``debtor_kind``, ``city``, ``administration``
        (:data:`regkit.plot.insolvency.BY`) or any column; a null counts as ``"unknown"`` (a natural person's
        missing legal form as ``"natural person"``). Without ``split`` one
        column ``"proceedings"``.
    top : int, optional
        Keep the ``top`` largest groups of each and add the rest up as ``"other"`` (``None``: keep all).
    share : bool
        Each row as fractions of its total (rows sum to 1) instead of counts.

    Returns
    -------
    pandas.DataFrame
        Index: the groups of ``by`` (codes as in the frame), largest first, ``"other"`` last; one column per group
        of ``split``, likewise ordered; ``int64`` counts (``float64`` fractions with ``share``). ``attrs``:
        ``by`` and ``split`` (the columns), ``totals`` (dict: proceedings per row).

    Examples
    --------
    >>> frame = pd.DataFrame({"debtor_legal_form": ["gmbh", "gmbh", "ug", None],
    ...                       "current_status": ["opened", "lifted", "opened", "opened"]})
    >>> breakdown_counts(frame, "legal_form", "status").to_dict("index")
    {'gmbh': {'opened': 1, 'lifted': 1}, 'ug': {'opened': 1, 'lifted': 0}, 'unknown': {'opened': 1, 'lifted': 0}}
    """
    frame = _proceedings(frame, "breakdown_counts")
    row = _column(frame, by)
    column = None if split is None else _column(frame, split, "split")
    rows = _groups(frame[row], frame)
    columns = pd.Series(_ALL, index=frame.index) if column is None else _groups(frame[column], frame)
    table = pd.crosstab(rows.to_numpy(), columns.to_numpy())
    table = _top(_top(table, top, 0), top, 1).astype("int64")
    table.index, table.columns = pd.Index(table.index, dtype=object), pd.Index(table.columns, dtype=object)
    table.index.name = table.columns.name = None
    totals = {str(k): int(v) for k, v in table.sum(axis=1).items()}
    if share:
        table = table.div(table.sum(axis=1).replace(0, np.nan), axis=0).astype("float64")
    table.attrs.update(by=row, split=column, totals=totals)
    return table


def insolvency_breakdown(
    frame: Any,
    by: str = "legal_form",
    split: str | None = None,
    *,
    top: int | None = 8,
    share: bool = False,
    ax: Any = None,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """Draw proceedings per group of ``by`` as horizontal bars, stacked by ``split``, largest group on top.

    Parameters
    ----------
    frame : pandas.DataFrame or search results
        As for :func:`breakdown_counts` (search pages or results become a frame with
        :func:`regkit.frames.insolvency_results`).
    by, split, top, share
        As for :func:`breakdown_counts`; with ``share`` every bar is 100 % and each segment says its percentage.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of bars.
    title : str, optional
        Default: what is counted and of how many ("Insolvency proceedings by legal form and status, 1,471 in
        all"); ``""`` for none.
    source : str, bool or None
        The figure's source line (:mod:`regkit.plot.source_line`): ``True`` (default) what the data says or the
        session's default, a string that line, ``None``/``False`` none.

    Returns
    -------
    matplotlib.axes.Axes
        One ``BarContainer`` per group of ``split`` (label: its display label; each bar's gid: its code); y tick labels the
        groups of ``by`` as a reader says them; each bar's total written at its right end ("n = 4" with
        ``share``); the legend titled by the column ("Legal form"). A bar of fewer than :data:`FEW` proceedings
        is drawn paler (the legend says so); groups of ``split`` that no bar shows 1.5 % of the axis wide are
        added to "other", so every legend entry can be found in the bars.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pd.DataFrame({"debtor_legal_form": ["gmbh", "gmbh", "ug"], "current_status": ["opened"] * 3})
    >>> ax = insolvency_breakdown(frame, "legal_form")
    >>> [t.get_text() for t in ax.get_yticklabels()], [float(p.get_width()) for p in ax.containers[0]]
    (['GmbH', 'UG (haftungsbeschränkt)'], [2.0, 1.0])
    """
    data = _proceedings(frame, "insolvency_breakdown")
    table = _visible(breakdown_counts(data, by, split, top=top, share=share), share)
    few = np.array([table.attrs["totals"][str(g)] < FEW for g in table.index], dtype=bool)
    # a new figure is tall enough for its bars and for the legend beside them (a legend taller than the Axes makes
    # constrained layout shrink the Axes again at every draw, until it collapses)
    legend_lines = (len(table.columns) + 1 if split is not None else 0) + int(few.any())
    ax = new_axes(ax, (8.0, max(2.2, 0.42 * len(table) + 1.3, _LEGEND_LINE_INCHES * legend_lines + 1.3)))
    add_source_line(ax, source, frame)
    y = -np.arange(len(table), dtype=float)
    left = np.zeros(len(table))
    palette = _palette(len(table.columns))
    for colour, group in zip(palette, table.columns):
        widths = table[group].to_numpy(dtype=float)
        label = group if group in (_OTHER, _ALL) or split is None else display_label(table.attrs["split"], group)
        fill = "#B0B0B0" if group == _OTHER else colour
        fills = [_faint(fill) if f else fill for f in few]
        ax.barh(
            y, widths, left=left, height=0.62, color=fills, edgecolor="white", linewidth=0.6, label=label, gid=group
        )
        if share:
            for x0, w, row, shade in zip(left, widths, y, fills):
                if w > 0:
                    bar_text(ax, x0, x0 + w, row, percent_text(w, 0), shade, fontsize=_FONT)
        left += widths
    names = [g if g == _OTHER else display_label(table.attrs["by"], g) for g in table.index]
    ax.set_yticks(y, names)
    ax.set_ylim(-len(table) + 0.4, 0.6)
    _totals(ax, table, y, left, share)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    if few.any():  # a solid and a pale swatch of the same grey: the legend shows what "paler" means in any colour
        handles.append(
            (
                Patch(facecolor="#7F7F7F", edgecolor="white"),
                Patch(facecolor=_faint("#7F7F7F"), edgecolor="white", gid="few"),
            )
        )
        labels.append(f"paler: fewer than {FEW} proceedings")
    if (split is not None and len(table.columns)) or few.any():
        ax.legend(
            handles,
            labels,
            title=column_label(table.attrs["split"]) if split is not None else None,
            fontsize=_FONT,
            title_fontsize=_FONT,
            frameon=False,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            handler_map={tuple: HandlerTuple(ndivide=None, pad=0.0)},
        )
    if title is None:
        counted = f"Insolvency proceedings by {column_label(table.attrs['by']).lower()}"
        if split is not None:
            counted += f" and {column_label(table.attrs['split']).lower()}"
        title = f"{counted}, {count_text(sum(table.attrs['totals'].values()))} in all"
    if title:
        ax.set_title(title)
    return ax


FEW = 20
"""A bar of fewer proceedings than this is drawn paler (its shares are not to be compared as if solid)."""
_VISIBLE = 0.015  # a segment narrower than this share of the axis cannot be seen
_FONT = 9.0
_LEGEND_LINE_INCHES = 0.22  # a legend line at 9 pt with matplotlib's spacing, and some room


def _faint(colour: str) -> str:
    """``colour`` mixed half with white."""
    from matplotlib import colors

    r, g, b = colors.to_rgb(colour)
    return colors.to_hex((0.5 + r / 2, 0.5 + g / 2, 0.5 + b / 2))


def _visible(table: pd.DataFrame, share: bool) -> pd.DataFrame:
    """``table`` with the groups of ``split`` that no bar shows wide enough to see added to "other"."""
    if len(table.columns) < 2 or len(table) == 0:
        return table
    span = 1.0 if share else float(table.sum(axis=1).max() or 1.0)
    hidden = [c for c in table.columns if c not in (_OTHER, _ALL) and float(table[c].max()) < _VISIBLE * span]
    if len(hidden) < 2 and _OTHER not in table.columns:  # one thin group stays itself rather than become "other"
        return table
    attrs = dict(table.attrs)
    rest = table[hidden].sum(axis=1) + (table[_OTHER] if _OTHER in table.columns else 0)
    kept = table.drop(columns=[*hidden, *([_OTHER] if _OTHER in table.columns else [])])
    if hidden or _OTHER in table.columns:
        kept = kept.assign(**{_OTHER: rest})
    kept.attrs.update(attrs)
    return kept


def _totals(ax: Any, table: pd.DataFrame, y: np.ndarray, ends: np.ndarray, share: bool) -> None:
    totals = table.attrs["totals"]
    for row, end, group in zip(y, ends, table.index):
        text = f"n = {count_text(totals[str(group)])}" if share else count_text(totals[str(group)])
        ax.annotate(
            text, (end, row), xytext=(4, 0), textcoords="offset points", va="center", fontsize=_FONT, gid="total"
        )
    if share:
        ax.set_xlim(0, 1.2)
        ax.xaxis.set_major_locator(ticker.FixedLocator([0, 0.25, 0.5, 0.75, 1.0]))
        ax.xaxis.set_major_formatter(ticker.PercentFormatter(xmax=1.0, decimals=0, symbol=" %"))
        ax.set_xlabel("share of proceedings")
    else:
        ax.set_xlim(0, max(1.0, float(ends.max(initial=0.0))) * 1.12)
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        ax.set_xlabel("proceedings")
