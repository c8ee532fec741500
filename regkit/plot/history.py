"""A company's life on one chart: names, addresses, capital, registers, representatives, status and
insolvency proceedings as bars over time, years on the axis and a legend of what each colour means.

The bars are :func:`~regkit.plot.history_bars.timeline_bars` (also importable from here); see that module for
where open bars end (``until``).

Colours
    Every lane has its own colour — name, address, capital, register, insolvency proceeding — and within the
    representatives lane every role, within the status lane every status, so no two meanings share a colour.
    The role colours are those of the person explorer's chart. The legend, under the chart, names each colour the
    chart uses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import dates as mdates
from matplotlib import rcParams
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch
from matplotlib.textpath import text_to_path
from matplotlib.transforms import ScaledTranslation

from regkit.schema.labels import display_label

from .bar_text import bar_text
from .group_labels import shorten
from .history_bars import BAR_COLUMNS, LANES, _raw, record_horizon, timeline_bars
from .source_line import add_source_line
from .style import new_axes
from .years import year_axis

__all__ = [
    "BAR_COLUMNS",
    "COLOURS",
    "LANES",
    "drawing_lines",
    "legend_entries",
    "record_horizon",
    "timeline",
    "timeline_bars",
]

COLOURS: dict[str, str] = {
    "names": "#F1CE63",
    "addresses": "#66C2A5",
    "capitals": "#E5C494",
    "registers": "#A6CEE3",
    "insolvencies": "#C44E52",
    "active": "#1A7F37",
    "liquidation": "#D95F02",
    "inactive": "#A0A0A0",
    "DIRECTOR": "#2C5AA0",
    "PROKURA": "#9467BD",
    "SHAREHOLDER": "#8C564B",
    "OWNER": "#17BECF",
    "PARTNER": "#BCBD22",
    "PERSONAL_LIABLE_DIRECTOR": "#E377C2",
    "LIQUIDATOR": "#3D3D3D",
    "OTHER": "#7F7F7F",
}
"""Bar colour per ``key`` of :func:`timeline_bars`: a lane, a role or a status; all different, and the roles of
different hues (no two shades of blue)."""

_LANE_WORDS = {
    "names": "name",
    "addresses": "address",
    "capitals": "capital",
    "registers": "register",
    "insolvencies": "insolvency proceeding",
}
_ROW_CHARACTERS = 44  # a y label longer than this is shortened with "…"
_FONT = 9.0  # the smallest text of the figure (points)
_MIN_WIDTH = 0.006  # the narrowest bar drawn, as a fraction of the time span
_VERSIONED = ("names", "addresses", "capitals", "registers", "status")  # lanes whose versions get a line each


def legend_entries(bars: pd.DataFrame) -> list[tuple[str, str]]:
    """The legend of :func:`timeline` for these bars: ``(label, colour)`` per colour drawn, in lane order.

    Examples
    --------
    >>> bars = pd.DataFrame({"lane": ["names", "representatives", "status", "status"],
    ...                      "key": ["names", "PROKURA", "active", "liquidation"]})
    >>> legend_entries(bars)
    [('name', '#F1CE63'), ('authorised signatory (Prokura)', '#9467BD'), ('active', '#1A7F37'), ('in liquidation', '#D95F02')]
    >>> legend_entries(pd.DataFrame({"lane": ["representatives"], "key": ["DIRECTOR"]}))
    [('director (Geschäftsführer / Vorstand)', '#2C5AA0')]
    """
    entries = []
    for lane, key in dict.fromkeys(zip(bars["lane"], bars["key"])):
        if lane == "representatives":
            label = display_label("role", key)
        elif lane == "status":
            label = display_label("status", key)
        else:
            label = _LANE_WORDS.get(lane, lane)
        entries.append((label, _colour(key)))
    return entries


def _colour(key: str) -> str:
    return COLOURS.get(key, "#7F7F7F")


def timeline(
    company: Any,
    ax: Any = None,
    *,
    until: Any = None,
    lanes: Sequence[str] = LANES,
    max_people: int = 12,
    title: str | None = None,
    source: Any = True,
    labels: bool = True,
) -> Any:
    """Draw a company's life: one lane per history, person, status and proceeding.

    Parameters
    ----------
    company : record or dict
        One company (``client.get_company(id)`` or a CompanyV1 dict).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of rows.
    until, lanes, max_people
        As for :func:`timeline_bars`.
    title : str, optional
        Default: the company's name and id.
    labels : bool
        Write each bar's text on it (shortened with "…" to the bar's width when the figure is drawn).
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        One ``BarContainer`` per lane in ``ax.containers`` (label: the lane), bars as in
        :func:`timeline_bars` (x and width in matplotlib date numbers; a bar shorter than 0.6 % of the time span,
        such as a role begun on the record's last day, is drawn that wide so that it shows), coloured by :data:`COLOURS`; dashed
        vertical lines with gid ``"incorporated"`` / ``"terminated"``; arrow heads (gid ``"open"``) on open bars;
        a legend (:func:`legend_entries`) under the x axis, as many columns as the figure is wide; x ticks on
        1 January, labelled by the year (:class:`~regkit.plot.YearStepLocator`); each version of a history
        on a line of its own where there are several (:func:`drawing_lines`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> company = {"id": "DE-HRB-B1204-1", "incorporated_at": "2001-05-02", "terminated_at": None,
    ...     "name": {"name": "B GmbH", "legal_form": "gmbh", "start_date": "2010-01-01"},
    ...     "names": [{"name": "A UG", "legal_form": "ug", "start_date": "2001-05-02"},
    ...               {"name": "B GmbH", "legal_form": "gmbh", "start_date": "2010-01-01"}],
    ...     "representation": [], "insolvencies": []}
    >>> ax = timeline(company, lanes=["names", "status"], until="2020-01-01")
    >>> [(c.get_label(), len(c)) for c in ax.containers]
    [('names', 2), ('status', 1)]
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['name', 'active']
    """
    raw = _raw(company)
    bars = timeline_bars(raw, until, lanes, max_people)
    line_of, line_labels = drawing_lines(bars)
    ax = new_axes(ax, (9.5, max(2.5, 0.36 * len(line_labels) + 1.9)))  # and the legend's rows
    add_source_line(ax, source, company)
    ys = -np.asarray(line_of, dtype=float)
    left = mdates.date2num(bars["start"].to_numpy())
    right = mdates.date2num(bars["end"].to_numpy())
    span = float(right.max() - left.min()) if len(bars) else 0.0
    width = np.maximum(right - left, _MIN_WIDTH * span)  # a role begun on the last day still shows
    fills = [_colour(k) for k in bars["key"]]
    for lane in dict.fromkeys(bars["lane"]):
        pick = (bars["lane"] == lane).to_numpy()
        ax.barh(
            ys[pick],
            width[pick],
            left=left[pick],
            height=0.62,
            color=[f for f, p in zip(fills, pick) if p],
            edgecolor="white",
            linewidth=0.6,
            label=lane,
        )
    ends = bars["open"].to_numpy(bool)
    if ends.any():
        ax.plot(
            (left + width)[ends],
            ys[ends],
            linestyle="none",
            marker=">",
            markersize=4,
            color="#333333",
            gid="open",
        )
    _life_lines(ax, raw)
    ax.set_yticks(-np.arange(len(line_labels), dtype=float), [shorten(r, _ROW_CHARACTERS) for r in line_labels])
    ax.tick_params(axis="y", labelsize=_FONT)
    ax.set_ylim(-len(line_labels) + 0.4, 0.6)
    _time_axis(ax, bars, raw, float(np.max(left + width, initial=0.0)))
    if labels:
        low, high = ax.get_xlim()
        for i, (x0, w, line, lane, text, fill) in enumerate(
            zip(left, width, line_of, bars["lane"], bars["text"], fills)
        ):
            if text:
                text = display_label("status", text) if lane == "status" else str(text)
                same = [j for j in range(len(bars)) if line_of[j] == line and j != i]
                before = max([float(left[j] + width[j]) for j in same if left[j] + width[j] <= x0] + [low])
                after = min([float(left[j]) for j in same if left[j] >= x0 + w] + [high])
                bar_text(ax, float(x0), float(x0 + w), -line, text, fill, fontsize=_FONT, outside=(before, after))
    ax.grid(True, axis="x", alpha=0.3)
    _notes(ax, bars)
    _legend(ax, bars)
    name = (raw.get("name") or {}).get("name")
    ax.set_title(title if title is not None else f"{name} ({raw['id']})" if name else raw["id"], fontsize=10, wrap=True)
    return ax


def drawing_lines(bars: pd.DataFrame) -> tuple[list[int], list[str]]:
    """Where :func:`timeline` draws each bar: its line (0 at the top) and each line's label.

    A lane with versions (names, addresses, capitals, registers, status) draws each version on a line of its own
    when it has more than one, labelled once on the first: so every version has its line's free width beside
    it, and a name in force for a year ("Gerber Dienstleistungen UG (haftungsbeschränkt)") or a register entry
    ("HRB 168089, Amtsgericht Lemgo") is written whole beside its bar rather than cut to it. Every other row (a
    person's role, a proceeding) is one line.

    Examples
    --------
    >>> bars = pd.DataFrame({"lane": ["names", "names", "addresses", "status"],
    ...                      "row": ["name", "name", "address", "status"]})
    >>> drawing_lines(bars)
    ([0, 1, 2, 3], ['name', '', 'address', 'status'])
    """
    bars_per_row = Counter(zip(bars["lane"], bars["row"]))
    line_of: list[int] = []
    labels: list[str] = []
    first_line: dict[tuple[str, str], int] = {}
    for key in zip(bars["lane"], bars["row"]):
        lane, row = key
        if lane in _VERSIONED and bars_per_row[key] > 1:
            labels.append("" if key in first_line else row)
            first_line.setdefault(key, len(labels) - 1)
            line_of.append(len(labels) - 1)
            continue
        if key not in first_line:
            labels.append(row)
            first_line[key] = len(labels) - 1
        line_of.append(first_line[key])
    return line_of, labels


def _time_axis(ax: Any, bars: pd.DataFrame, raw: Mapping[str, Any], drawn_to: float) -> None:
    days = [*bars["start"].dropna(), *bars["end"].dropna()]
    days += [pd.Timestamp(mdates.num2date(drawn_to)).tz_localize(None)] if len(bars) else []
    days += [pd.Timestamp(raw[k]) for k in ("incorporated_at", "terminated_at") if raw.get(k)]
    if days:
        year_axis(ax, min(days), max(days))


def _notes(ax: Any, bars: pd.DataFrame) -> None:
    hidden, undated = bars.attrs["hidden_people"], bars.attrs["undated_insolvencies"]
    notes = [f"{hidden} earlier representatives"] if hidden else []
    notes += [f"{undated} proceeding{'' if undated == 1 else 's'} without a date"] if undated else []
    if notes:
        ax.set_xlabel(" and ".join(notes) + " not shown")


def _legend(ax: Any, bars: pd.DataFrame) -> None:
    """The legend, under the chart's x axis, right-aligned with the bars and as many columns as the figure is
    wide: the bars keep the figure's width, and a layout engine keeps the source line below it."""
    entries = legend_entries(bars)
    if not entries:
        return
    figure = ax.figure
    below = ScaledTranslation(0, -_under_the_axis(ax) / 72, figure.dpi_scale_trans)
    ax.legend(
        handles=[Patch(facecolor=colour, edgecolor="white", label=label) for label, colour in entries],
        loc="upper right",
        bbox_to_anchor=(1.0, 0.0),
        bbox_transform=ax.transAxes + below,
        ncols=_columns(entries, figure),
        columnspacing=1.5,
        borderaxespad=0.0,
        fontsize=_FONT,
        frameon=False,
        handlelength=1.2,
    )


def _under_the_axis(ax: Any) -> float:
    """Points from the bottom of ``ax`` to below its x tick labels and x label."""
    label = FontProperties(size=rcParams["xtick.labelsize"]).get_size_in_points()
    points = max(rcParams["xtick.major.size"], 0) + rcParams["xtick.major.pad"] + 1.4 * label
    if ax.get_xlabel():
        points += rcParams["axes.labelpad"] + 1.4 * FontProperties(size=rcParams["axes.labelsize"]).get_size_in_points()
    return float(points) + 6.0


def _columns(entries: list[tuple[str, str]], figure: Any) -> int:
    """How many legend columns fit across ``figure`` (the widest entry sets every column's width)."""
    font = FontProperties(size=_FONT)
    widest = max(text_to_path.get_text_width_height_descent(label, font, ismath=False)[0] for label, _ in entries)
    column = widest + (1.2 + 0.8 + 1.5) * _FONT  # the text, the swatch and its pad, the gap to the next column
    across = figure.get_size_inches()[0] * 72 - 24  # points, less a margin
    return max(1, min(len(entries), int(across // column)))


def _life_lines(ax: Any, raw: Mapping[str, Any]) -> None:
    for key, gid in (("incorporated_at", "incorporated"), ("terminated_at", "terminated")):
        if raw.get(key):
            ax.axvline(
                mdates.date2num(np.datetime64(raw[key])), color="#555555", linestyle="--", linewidth=0.8, gid=gid
            )
