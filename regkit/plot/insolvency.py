"""Insolvency figures: proceedings per period (optionally stacked), and the events of one proceeding.

:func:`trend_counts` is the table :func:`insolvency_trend` draws — call it for the numbers. Dates are
matplotlib date numbers on a date axis (``matplotlib.dates.date2num``), so bars and markers can be
checked against the frames' dates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib import dates as mdates

from regkit.errors import ValidationError
from regkit.frames import events as events_frame
from regkit.frames import insolvency_results
from regkit.schema.labels import column_label, display_label

from .inputs import EVENTS, INSOLVENCY, INSOLVENCY_SEARCH, PROCEEDINGS, check_columns, check_input, describe, frame_with
from .periods import minimum_span, period_axis
from .source_line import add_source_line
from .style import date_axis, new_axes

__all__ = ["BY", "insolvency_trend", "insolvency_timeline", "trend_counts"]

BY: dict[str, str] = {
    "court": "court",
    "legal_form": "debtor_legal_form",
    "status": "current_status",
    "kind": "proceeding_kind",
    "debtor_kind": "debtor_kind",
    "city": "city",
    "administration": "administration_kind",
}
"""Short names ``by`` accepts, and the frame column each stands for (full column names work too)."""

_PERIODS = {"W": "week", "M": "month", "Q": "quarter", "Y": "year"}
_OTHER, _UNKNOWN = "other", "unknown"
_FONT = 9.0  # the smallest text of these figures (points)


_ANY_PROCEEDINGS = PROCEEDINGS._replace(test=frame_with())
"""A frame of proceedings as the counts take it: any frame (the columns they need are checked by name)."""


def _proceedings(frame: Any, plot: str) -> pd.DataFrame:
    """The frame of proceedings ``frame`` is, or is made of (search results); else an error naming what was given."""
    kind, given = check_input(frame, plot, _ANY_PROCEEDINGS, INSOLVENCY_SEARCH)
    return given if kind is _ANY_PROCEEDINGS else insolvency_results(given)


def _column(frame: pd.DataFrame, name: str, what: str = "by") -> str:
    """The frame column ``name`` stands for (:data:`BY`); ``what`` names the argument in the error."""
    column = BY.get(name, name) if isinstance(name, str) else name
    if not isinstance(column, str) or column not in frame:
        raise ValidationError(
            f"{what} must be one of {', '.join(BY)} or a column of the frame; {name!r} is neither "
            f"one of these nor a column of {describe(frame)}",
            suggestion=f"pass {what}= one of those names, or a frame of proceedings ({PROCEEDINGS.where})",
        )
    return column


#: The group of a proceeding against a natural person by legal form: a person has none, and is not "unknown".
NATURAL_PERSON_GROUP = "natural person"


def _groups(values: pd.Series, frame: pd.DataFrame | None = None) -> pd.Series:
    """Each value as text, a null as ``"unknown"`` — but a natural person's missing legal form as
    :data:`NATURAL_PERSON_GROUP` (``frame`` holds ``debtor_kind``)."""
    raw = values.astype(object)
    grouped = raw.where(raw.notna(), _UNKNOWN).astype(str)
    if values.name == "debtor_legal_form" and frame is not None and "debtor_kind" in frame:
        person = raw.isna() & (frame.loc[values.index, "debtor_kind"].astype(object) == "natural_person")
        grouped = grouped.where(~person.to_numpy(bool), NATURAL_PERSON_GROUP)
    return grouped


def _top(table: pd.DataFrame, top: int | None, axis: int) -> pd.DataFrame:
    """The groups along ``axis`` largest total first (ties by name); beyond ``top``, the rest added up as "other"."""
    totals = table.sum(axis=1 - axis)
    order = sorted(totals.index, key=lambda g: (-totals[g], g))
    table = table.reindex(order, axis=axis)
    if top is None or len(order) <= top:
        return table
    keep, rest = order[: max(top - 1, 0)], order[max(top - 1, 0) :]
    if axis == 0:
        return pd.concat([table.loc[keep], table.loc[rest].sum().to_frame(_OTHER).T])
    return table[keep].assign(**{_OTHER: table[rest].sum(axis=1)})


def trend_counts(
    frame: pd.DataFrame, freq: str = "M", by: str | None = None, *, date: str = "opened_at", top: int | None = 8
) -> pd.DataFrame:
    """Proceedings per period, optionally split into groups.

    Parameters
    ----------
    frame : pandas.DataFrame
        :func:`regkit.frames.insolvency_results`, ``client.search_all_insolvencies(...)`` or
        :func:`~regkit.frames.proceedings`: one row per proceeding.
    freq : {"W", "M", "Q", "Y"}
        The period (any pandas period alias).
    by : str, optional
        Split by ``court``, ``legal_form``, ``status``, ``kind`` (proceeding kind), ``debtor_kind``,
        ``city``, ``administration`` or any column; a null becomes ``"unknown"``.
    date : str
        The date column that places a proceeding in a period; rows where it is null are left out and
        counted in ``attrs["without_date"]``.
    top : int, optional
        Keep the ``top`` largest groups and add the rest up as ``"other"`` (``None``: keep all).

    Returns
    -------
    pandas.DataFrame
        Index: every period from the first to the last (``PeriodIndex``; empty periods are 0); one
        ``int64`` column per group, largest total first, ``"other"`` last (one column
        ``"proceedings"`` without ``by``). ``attrs``: ``without_date``, ``date``, ``freq``, ``by``.

    Examples
    --------
    >>> frame = pd.DataFrame({"opened_at": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-03-02", None]),
    ...                       "court": ["AG Hof", "AG Kiel", "AG Hof", "AG Hof"]})
    >>> counts = trend_counts(frame, "M", by="court")
    >>> counts.to_dict("list"), [str(p) for p in counts.index]
    ({'AG Hof': [1, 0, 1], 'AG Kiel': [1, 0, 0]}, ['2024-01', '2024-02', '2024-03'])
    >>> counts.attrs["without_date"]
    1
    """
    frame = _proceedings(frame, "trend_counts")
    check_columns(frame, "trend_counts", {date: f"the date column, date={date!r}"}, PROCEEDINGS)
    column = None if by is None else _column(frame, by)
    known = frame[frame[date].notna().to_numpy(bool)]
    periods = pd.PeriodIndex(pd.DatetimeIndex(known[date]).to_period(freq), name=date)
    if column is None:
        groups = pd.Series("proceedings", index=known.index)
    else:
        groups = _groups(known[column], known)
    table = pd.crosstab(periods, groups.to_numpy())
    if len(table):
        table = table.reindex(pd.period_range(table.index.min(), table.index.max(), freq=freq, name=date), fill_value=0)
    table = _top(table, top, 1).astype("int64")
    table.columns = pd.Index([str(c) for c in table.columns], dtype=object)
    table.columns.name = None
    table.attrs.update(without_date=int(len(frame) - len(known)), date=date, freq=freq, by=column)
    return table


def insolvency_trend(
    frame: Any,
    freq: str = "M",
    by: str | None = None,
    *,
    date: str = "opened_at",
    top: int | None = 8,
    ax: Any = None,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """Draw proceedings per period as bars, stacked by group when ``by`` is given.

    Parameters
    ----------
    frame : pandas.DataFrame or search results
        One row per proceeding (see :func:`trend_counts`); search pages or results are turned into a
        frame with :func:`regkit.frames.insolvency_results`.
    freq, by, date, top
        As for :func:`trend_counts`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    title : str, optional
    source : str, bool or None
        The figure's source line (:mod:`regkit.plot.source_line`): ``True`` (default) what the data says or the
        session's default, a string that line, ``None``/``False`` none.

    Returns
    -------
    matplotlib.axes.Axes
        One ``BarContainer`` per group in ``ax.containers`` (each bar's gid is the group's code, the container's
        label the group as a reader says it:
        ``"GmbH"`` for ``gmbh``, :func:`regkit.schema.labels.display_label`; the legend's title is the column's,
        "Legal form", its entries top to bottom as the stack), each bar centred in its period (date numbers) and
        labelled under its centre: quarters "Q1 2024", years "2024", months "Jan 2024" (every bar when the labels fit,
        else every second, fourth… counted back from the last bar, which is always labelled). The x label says how
        many proceedings had no date.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pd.DataFrame({"opened_at": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-03-02"]),
    ...                       "current_status": ["opened", "lifted", "opened"]})
    >>> ax = insolvency_trend(frame, "M", by="status")
    >>> [(c.get_label(), [float(p.get_height()) for p in c]) for c in ax.containers]
    [('opened', [1.0, 0.0, 1.0]), ('lifted', [1.0, 0.0, 0.0])]
    """
    data = _proceedings(frame, "insolvency_trend")
    check_columns(data, "insolvency_trend", {date: f"the date column, date={date!r}"}, PROCEEDINGS)
    counts = trend_counts(data, freq, by, date=date, top=top)
    ax = new_axes(ax, (9.0, 4.0))
    add_source_line(ax, source, frame)
    starts = counts.index.to_timestamp(how="start") if len(counts) else pd.DatetimeIndex([])
    ends = counts.index.to_timestamp(how="end") if len(counts) else pd.DatetimeIndex([])
    first, last = mdates.date2num(starts.to_numpy()), mdates.date2num(ends.to_numpy())
    middle, width = (first + last) / 2, 0.85 * (last - first)
    bottom = np.zeros(len(counts))
    palette = _palette(len(counts.columns))
    for colour, group in zip(palette, counts.columns):
        heights = counts[group].to_numpy(dtype=float)
        label = group if group == _OTHER or counts.attrs["by"] is None else display_label(counts.attrs["by"], group)
        ax.bar(
            middle,
            heights,
            width=width,
            bottom=bottom,
            align="center",
            label=label,
            gid=group,
            color="#B0B0B0" if group == _OTHER else colour,
            edgecolor="white",
            linewidth=0.3,
        )
        bottom += heights
    period_axis(ax, counts.index, str(freq).upper()[:1])
    period = _PERIODS.get(str(freq).upper()[:1], str(freq))
    ax.set_ylabel(f"proceedings per {period}")
    missing = counts.attrs["without_date"]
    ax.set_xlabel(column_label(date) + (f" ({missing} without a date not shown)" if missing else ""))
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylim(0, max(1.0, float(bottom.max(initial=0.0))) * 1.05)
    ax.grid(True, axis="y", alpha=0.3)
    if by is not None and len(counts.columns):
        handles, labels = ax.get_legend_handles_labels()
        ax.legend(  # top of the legend = top of the stack
            handles[::-1],
            labels[::-1],
            title=column_label(counts.attrs["by"]),
            fontsize=_FONT,
            title_fontsize=_FONT,
            frameon=False,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
        )
    if title:
        ax.set_title(title)
    return ax


def _palette(n: int) -> list[str]:
    import matplotlib

    cmap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]
    return [matplotlib.colors.to_hex(cmap(i % cmap.N)) for i in range(n)]


#: One colour and shape per kind of date, as the legend shows them (every marker of a kind looks the same).
MARKERS: dict[str, dict[str, Any]] = {
    "published": {"marker": "o", "color": "#2F4B7C", "markersize": 6.5, "offset": 0.0, "label": "published"},
    "decision": {"marker": "o", "color": "#D55E00", "markersize": 11.0, "offset": 0.0, "label": "court decision"},
    "claims_deadline": {
        "marker": ">",
        "color": "#009E73",
        "markersize": 7.0,
        "offset": 0.22,
        "label": "claims filing deadline",
    },
    "meetings": {"marker": "D", "color": "#CC79A7", "markersize": 6.0, "offset": -0.22, "label": "creditors' meeting"},
}
"""Marker per gid of :func:`insolvency_timeline`. The decision is a ring larger than the published dot and drawn
over it, so a decision published the same day shows as a dot in a ring; deadline and meetings sit just above and
below their row, so neither hides the other or the dots."""


def _mark(ax: Any, gid: str, x: Any, y: Any) -> Any:
    style = MARKERS[gid]
    hollow = gid == "decision"
    (line,) = ax.plot(
        x,
        np.asarray(y, dtype=float) + style["offset"],
        linestyle="none",
        marker=style["marker"],
        markersize=style["markersize"],
        markerfacecolor="none" if hollow else style["color"],
        markeredgecolor=style["color"],
        markeredgewidth=1.6 if hollow else 0.5,
        label=style["label"],
        gid=gid,
        zorder=4 if hollow else 3,
    )
    return line


def _days(series: pd.Series) -> np.ndarray:
    values = pd.to_datetime(series)
    if getattr(values.dt, "tz", None) is not None:
        values = values.dt.tz_convert("UTC").dt.tz_localize(None)
    return mdates.date2num(values.to_numpy(dtype="datetime64[us]"))


def insolvency_timeline(insolvency: Any, ax: Any = None, *, title: str | None = None, source: Any = True) -> Any:
    """Draw the events of one proceeding, oldest on top.

    Parameters
    ----------
    insolvency : InsolvencyRecord, dict or pandas.DataFrame
        A proceeding (``client.get_insolvency(id)`` or its dict, with ``events``) or its
        :func:`regkit.frames.events` frame.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of events.
    title : str, optional
        Default: debtor, case number, court and current status.
    source : str, bool or None
        The figure's source line, as for :func:`insolvency_trend`.

    Returns
    -------
    matplotlib.axes.Axes
        One row per event (y tick labels: publication date and event type, the event's row ``-i``). Lines
        of markers by gid, each kind in one colour and shape (:data:`MARKERS`, as the legend shows them):
        ``"published"`` (x: ``published_at``), ``"decision"`` (a ring around the dot, x: ``decision_date``
        where known), ``"claims_deadline"`` (just above the row) and ``"meetings"`` (creditors' meetings,
        just below); a grey segment joins decision and publication. The x axis, labelled "date", spans at
        least 60 days (a one-event proceeding gets days and months, not hours).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = insolvency_timeline({"id": "p1", "debtor_name": "X GmbH", "case_number": "50 IN 1/24",
    ...     "court": "Amtsgericht Kassel", "current_status": "opened", "events": []})
    >>> ax.get_title()
    'X GmbH — 50 IN 1/24, Amtsgericht Kassel (opened)'
    """
    kind, given = check_input(insolvency, "insolvency_timeline", INSOLVENCY, EVENTS)
    frame = given if kind is EVENTS else events_frame(given)
    n = len(frame)
    ax = new_axes(ax, (9.0, max(2.5, 0.42 * n + 1.2)))
    add_source_line(ax, source, insolvency)
    y = -np.arange(n, dtype=float)
    published, decided = _days(frame["published_at"]), _days(frame["decision_date"])
    known = ~np.isnan(decided)
    ax.hlines(y[known], decided[known], published[known], color="#999999", linewidth=1.0, zorder=2)
    if known.any():
        _mark(ax, "decision", decided[known], y[known])
    if n:
        _mark(ax, "published", published, y)
    _extra_markers(ax, frame, y)
    labels = [
        f"{d:%Y-%m-%d}  {display_label('event_type', t)}" for d, t in zip(frame["published_at"], frame["event_type"])
    ]
    ax.set_yticks(y, labels, fontsize=_FONT)
    ax.set_ylim(-n + 0.4, 0.6)
    minimum_span(ax, [published, decided, *(_days(frame[c]) for c in _MARKED)])
    date_axis(ax)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_xlabel("date")
    if ax.get_lines():
        ax.legend(fontsize=_FONT, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title(title if title is not None else _title(insolvency), fontsize=10)
    return ax


#: Date columns of the events frame drawn as markers besides publication and decision.
_MARKED = ("claims_filing_deadline", "report_meeting_at", "examination_meeting_at")


def _extra_markers(ax: Any, frame: pd.DataFrame, y: np.ndarray) -> None:
    deadline = _days(frame["claims_filing_deadline"])
    has = ~np.isnan(deadline)
    if has.any():
        _mark(ax, "claims_deadline", deadline[has], y[has])
    xs, ys = [], []
    for column in ("report_meeting_at", "examination_meeting_at"):
        at = _days(frame[column])
        xs += list(at[~np.isnan(at)])
        ys += list(y[~np.isnan(at)])
    if xs:
        _mark(ax, "meetings", xs, ys)


def _title(insolvency: Any) -> str:
    raw = getattr(insolvency, "raw", insolvency)
    if not isinstance(raw, dict):
        return ""
    text = f"{raw.get('debtor_name') or raw.get('id', '')} — {raw.get('case_number') or ''}, {raw.get('court') or ''}"
    status = raw.get("current_status")
    return text + (f" ({display_label('current_status', status)})" if status else "")
