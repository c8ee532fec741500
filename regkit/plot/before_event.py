"""Ratios lined up by the years before an event: do the accounts warn before an insolvency, and how early?

Each company's reports are counted back from its own event (an insolvency's ``opened_at``, a liquidation, any
date column): the report for the fiscal year before the event's year is 1 year before, and so on
(:func:`regkit.plot.fiscal.fiscal_years`: the report dated 2023-03-31 is fiscal year 2022, 2 years before an
opening in 2024). Reports of the event's year or later are left out — they are mostly not published. Per year
:func:`ratios_before_summary` gives the median, the quartiles and how many companies had a value, and
:func:`ratios_before` draws the medians in percent with the middle half of the companies shaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.patches import Patch

from regkit.errors import ValidationError
from regkit.frames import RATIOS

from .financials import _RATIOS_FRAME, _with_ratios
from .fiscal import fiscal_years
from .inputs import check_columns, check_input
from .references import PercentTicks, reference_line
from .source_line import add_source_line
from .style import new_axes

__all__ = ["ratios_before", "ratios_before_summary"]

_STATS = ("median", "q25", "q75", "count")
"""The statistics per metric and year of :func:`ratios_before_summary`."""

_PERCENT = tuple(m for m in RATIOS if m != "salaries_per_employee") + ("ebitda_margin",)
"""The ratios drawn here: those in percent (fractions in the frame)."""

_EVENT_WORDS = {
    "opened_at": "the proceeding was opened",
    "closed_at": "the proceeding was closed",
    "terminated_at": "the company was terminated",
}


def ratios_before_summary(
    frame: pd.DataFrame,
    event: str = "opened_at",
    metrics: str | Sequence[str] = ("equity_ratio", "net_margin"),
    years: int = 8,
) -> pd.DataFrame:
    """Per year before each company's event: median, quartiles and count of each ratio.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per report: :func:`regkit.frames.ratios` (or a wide :func:`regkit.frames.indicators` frame,
        whose ratios are computed) with the event's date merged in as a column, e.g.
        ``ratios.merge(cases[["company_id", "opened_at"]], on="company_id")``. Rows without a date or an
        event, and earlier revisions, are left out.
    event : str
        The column of the event's date.
    metrics : str or sequence of str
        Ratios in percent: those of :data:`regkit.frames.RATIOS` but ``salaries_per_employee`` (EUR), and
        ``ebitda_margin`` (of a frame with the 48 measures of ``client.get_financials``).
    years : int
        How many years back (1 … ``years``).

    Returns
    -------
    pandas.DataFrame
        Index ``years_before`` (``int64``, ``years`` down to 1, every year present); columns a MultiIndex
        (metric, statistic) with the statistics of ``_STATS``: ``median``, ``q25``, ``q75`` (``float64``,
        fractions as in the frame, NaN where no company had a value) and ``count`` (``int64``: reports with a
        value).

    Examples
    --------
    >>> frame = pd.DataFrame({"company_id": ["A", "A", "B"], "date": pd.to_datetime(["2022-12-31",
    ...     "2023-12-31", "2023-12-31"]), "opened_at": pd.to_datetime(["2024-05-02"] * 2 + ["2024-09-30"]),
    ...     "equity_ratio": pd.array([0.2, -0.1, 0.1], dtype="Float64")})
    >>> summary = ratios_before_summary(frame, metrics="equity_ratio", years=2)
    >>> summary["equity_ratio"][["median", "count"]].to_dict("index")
    {2: {'median': 0.2, 'count': 1}, 1: {'median': 0.0, 'count': 2}}
    """
    return _summary("ratios_before_summary", frame, event, metrics, years)


def _summary(plot: str, frame: Any, event: str, metrics: str | Sequence[str], years: int) -> pd.DataFrame:
    _, frame = check_input(frame, plot, _RATIOS_FRAME)
    chosen = [metrics] if isinstance(metrics, str) else list(dict.fromkeys(metrics))
    unknown = [m for m in chosen if m not in _PERCENT]
    if not chosen or unknown:
        raise ValidationError(
            f"metrics must name one or more of {', '.join(_PERCENT)}; not {unknown or chosen!r}",
            suggestion="the ratios in percent only: draw the others over time with regkit.plot.ratios",
        )
    check_columns(
        frame,
        plot,
        {event: f"the event's date, event={event!r}: merge the events' dates in first"},
        _RATIOS_FRAME._replace(
            where="the ratios frame with the event's date merged in, e.g. "
            "ratios.merge(cases[['company_id', 'opened_at']], on='company_id')"
        ),
    )
    data = _with_ratios(frame, chosen, frame)
    keep = data["date"].notna().to_numpy(bool) & data[event].notna().to_numpy(bool)
    if "is_latest_revision" in data:
        keep &= data["is_latest_revision"].to_numpy(bool)
    data = data[keep]
    before = pd.DatetimeIndex(data[event]).year.to_numpy(dtype="int64") - fiscal_years(data["date"])
    index = pd.Index(range(years, 0, -1), dtype="int64", name="years_before")
    columns = {}
    for metric in chosen:
        values = pd.Series(data[metric].astype("Float64").to_numpy(dtype=float, na_value=np.nan), index=before)
        grouped = values[(before >= 1) & (before <= years)].dropna().groupby(level=0)
        stats = pd.DataFrame(
            {
                "median": grouped.median(),
                "q25": grouped.quantile(0.25),
                "q75": grouped.quantile(0.75),
                "count": grouped.size(),
            }
        ).reindex(index)
        stats["count"] = stats["count"].fillna(0).astype("int64")
        for stat in _STATS:
            columns[(metric, stat)] = stats[stat]
    summary = pd.DataFrame(columns, index=index)
    summary.columns = pd.MultiIndex.from_tuples(summary.columns)
    return summary


def ratios_before(
    frame: pd.DataFrame,
    event: str = "opened_at",
    metrics: str | Sequence[str] = ("equity_ratio", "net_margin"),
    *,
    years: int = 8,
    ax: Any = None,
    title: str | None = None,
    source: Any = True,
    reference: Any = "auto",
    spread: bool = True,
) -> Any:
    """Draw each ratio's median by years before the event, in percent, oldest year left.

    Parameters
    ----------
    frame, event, metrics, years
        As for :func:`ratios_before_summary`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    title : str, optional
    reference : "auto", float or None
        The reference line, as for :func:`regkit.plot.ratios` (``"auto"``: 0 % for metrics with different
        yardsticks, else the metric's own).
    spread : bool
        Shade the middle half of the companies (first to third quartile) around each median.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        One line per metric (gid: the metric; x the years before, y the median in percent; the legend says how
        many companies had a value: "equity ratio (median of 47–73)"), a shaded band per metric (gid
        ``"<metric>|spread"``), the reference line (gid ``"reference"``). The x axis runs from ``years`` down to
        1 (time flows left to right), ticks labelled by the number of years.
    """
    if isinstance(reference, str) and reference == "median":
        raise ValidationError(
            "reference='median' has no meaning here (the lines are already medians)",
            suggestion="use reference='auto', a number or None",
        )
    summary = _summary("ratios_before", frame, event, metrics, years)
    ax = new_axes(ax, (8.0, 4.0))
    add_source_line(ax, source, frame)
    x = summary.index.to_numpy()
    drawn = list(dict.fromkeys(summary.columns.get_level_values(0)))
    lines = []
    for metric in drawn:
        stats = summary[metric]
        counts = stats["count"][stats["count"] > 0]
        n = f"{counts.min()}–{counts.max()}" if len(counts) and counts.min() != counts.max() else f"{counts.max()}"
        (line,) = ax.plot(
            x,
            stats["median"] * 100,
            marker="o",
            markersize=4,
            linewidth=1.8,
            gid=metric,
            label=f"{metric.replace('_', ' ')} (median of {n})",
        )
        if spread:
            ax.fill_between(
                x,
                stats["q25"] * 100,
                stats["q75"] * 100,
                color=line.get_color(),
                alpha=0.14,
                linewidth=0,
                gid=f"{metric}|spread",
            )
        lines.append((x, stats["median"].to_numpy() * 100))
    reference_line(ax, drawn, reference, None, lines)
    ax.set_xlim(years + 0.3, 0.7)
    ax.xaxis.set_major_locator(ticker.FixedLocator(list(range(years, 0, -1))))
    ax.yaxis.set_major_formatter(PercentTicks())
    ax.set_xlabel(f"fiscal years before {_EVENT_WORDS.get(event, event.replace('_', ' '))}")
    ax.set_ylabel("%")
    ax.grid(True, axis="y", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if spread:
        handles.append(Patch(facecolor="#888888", alpha=0.25, label="middle half of the companies"))
        labels.append("middle half of the companies")
    ax.legend(handles, labels, fontsize=9, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # off the data
    if title:
        ax.set_title(title)
    return ax
