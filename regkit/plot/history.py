"""A company's life on one chart: names, addresses, capital, registers, representatives, status and
insolvency proceedings as bars over time, years on the axis and a legend of what each colour means.

The bars are :func:`~regkit.plot.history_bars.timeline_bars` (also importable from here); see that module for
where open bars end (``until``).

Colours
    Every lane has its own colour — name, address, capital, register, insolvency proceeding — and within the
    representatives lane every role, within the status lane every status, so no two meanings share a colour.
    The role colours are those of the person explorer's chart. The legend, right of the bars, names each colour
    the chart uses.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import dates as mdates
from matplotlib.patches import Patch

from regkit.schema.labels import display_label

from .bar_text import bar_text
from .group_labels import shorten
from .history_bars import BAR_COLUMNS, LANES, _raw, record_horizon, timeline_bars
from .source_line import add_source_line
from .style import new_axes
from .years import year_axis

__all__ = ["BAR_COLUMNS", "COLOURS", "LANES", "legend_entries", "record_horizon", "timeline", "timeline_bars"]

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
        a legend right of the bars (:func:`legend_entries`); x ticks on 1 January, labelled by the year.

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
    rows = list(dict.fromkeys(bars["row"]))
    ax = new_axes(ax, (9.5, max(2.5, 0.36 * len(rows) + 1.4)))
    add_source_line(ax, source, company)
    y_of = {row: -i for i, row in enumerate(rows)}
    left = mdates.date2num(bars["start"].to_numpy())
    right = mdates.date2num(bars["end"].to_numpy())
    span = float(right.max() - left.min()) if len(bars) else 0.0
    width = np.maximum(right - left, _MIN_WIDTH * span)  # a role begun on the last day still shows
    fills = [_colour(k) for k in bars["key"]]
    for lane in dict.fromkeys(bars["lane"]):
        pick = (bars["lane"] == lane).to_numpy()
        ax.barh(
            [y_of[r] for r in bars["row"][pick]],
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
            [y_of[r] for r in bars["row"][ends]],
            linestyle="none",
            marker=">",
            markersize=4,
            color="#333333",
            gid="open",
        )
    _life_lines(ax, raw)
    ax.set_yticks([y_of[r] for r in rows], [shorten(r, _ROW_CHARACTERS) for r in rows], fontsize=_FONT)
    ax.set_ylim(-len(rows) + 0.4, 0.6)
    _time_axis(ax, bars, raw, float(np.max(left + width, initial=0.0)))
    if labels:
        low, high = ax.get_xlim()
        for i, (x0, w, row, lane, text, fill) in enumerate(
            zip(left, width, bars["row"], bars["lane"], bars["text"], fills)
        ):
            if text:
                text = display_label("status", text) if lane == "status" else str(text)
                same = [j for j in range(len(bars)) if bars["row"].iat[j] == row and j != i]
                before = max([float(left[j] + width[j]) for j in same if left[j] + width[j] <= x0] + [low])
                after = min([float(left[j]) for j in same if left[j] >= x0 + w] + [high])
                bar_text(ax, float(x0), float(x0 + w), y_of[row], text, fill, fontsize=_FONT, outside=(before, after))
    ax.grid(True, axis="x", alpha=0.3)
    _notes(ax, bars)
    _legend(ax, bars)
    name = (raw.get("name") or {}).get("name")
    ax.set_title(title if title is not None else f"{name} ({raw['id']})" if name else raw["id"], fontsize=10, wrap=True)
    return ax


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
    entries = legend_entries(bars)
    if not entries:
        return
    height = ax.figure.get_size_inches()[1] * ax.get_position().height
    per_column = max(3, int((height - 0.1) / 0.23))
    handles = [Patch(facecolor=colour, edgecolor="white", label=label) for label, colour in entries]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=_FONT,
        frameon=False,
        ncols=math.ceil(len(handles) / per_column),
        handlelength=1.2,
        borderaxespad=0.0,
    )


def _life_lines(ax: Any, raw: Mapping[str, Any]) -> None:
    for key, gid in (("incorporated_at", "incorporated"), ("terminated_at", "terminated")):
        if raw.get(key):
            ax.axvline(
                mdates.date2num(np.datetime64(raw[key])), color="#555555", linestyle="--", linewidth=0.8, gid=gid
            )
