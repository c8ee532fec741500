"""Time axes of counts and events: periods labelled as people say them, and a shortest span worth reading."""

from __future__ import annotations

from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib import dates as mdates
from matplotlib import ticker

from .style import date_axis

__all__ = ["period_axis", "period_label", "minimum_span"]


def period_label(period: pd.Period, freq: str) -> str:
    """A period as people say it: "Q1 2024", "2024", "Jan 2024", "week 3, 2024"; a day as "2024-01-05".

    Examples
    --------
    >>> [period_label(pd.Period(p, f), f) for p, f in (("2024Q1", "Q"), ("2024", "Y"), ("2024-01", "M"))]
    ['Q1 2024', '2024', 'Jan 2024']
    """
    if freq == "Q":
        return f"Q{period.quarter} {period.year}"
    if freq == "Y":
        return str(period.year)
    if freq == "M":
        return period.start_time.strftime("%b %Y")
    if freq == "W":
        year, week, _ = period.start_time.isocalendar()
        return f"week {week}, {year}"
    return period.start_time.strftime("%Y-%m-%d")


def period_axis(ax: Any, periods: pd.PeriodIndex, freq: str, max_ticks: int | None = None) -> Any:
    """Label the bars of ``periods`` (each drawn centred in its period, in date numbers) under their centres.

    Every bar gets a tick; its label reads as people say it (:func:`period_label`). Every bar is labelled when
    the labels fit the axes side by side (``max_ticks``: at most so many labels; default what fits the figure's
    width), else every second, fourth… bar counted back from the last one, so the latest period always has its
    label.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = period_axis(ax, pd.period_range("2023Q3", "2024Q2", freq="Q"), "Q")
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['Q3 2023', 'Q4 2023', 'Q1 2024', 'Q2 2024']
    """
    if not len(periods):
        return date_axis(ax)
    labels = [period_label(p, freq) for p in periods]
    if max_ticks is None:
        width = ax.figure.get_figwidth() * ax.get_position().width * 72  # points
        size = float(matplotlib.font_manager.FontProperties(size=matplotlib.rcParams["xtick.labelsize"]).get_size())
        longest = max(len(t) for t in labels) * 0.62 * size + size  # a label and a gap
        max_ticks = max(1, int(width // longest))
    step = 1
    while len(periods) / step > max_ticks:
        step = {1: 2, 2: 4, 4: 6, 6: 12}.get(step, step * 2)
    middles = mdates.date2num(
        periods.to_timestamp(how="start") + (periods.to_timestamp(how="end") - periods.to_timestamp(how="start")) / 2
    )
    n = len(periods)
    shown = [labels[i] if (n - 1 - i) % step == 0 else "" for i in range(n)]
    ax.set_xticks(middles, shown)
    ax.tick_params(axis="x", which="major", length=3)
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    return ax


def minimum_span(ax: Any, days: list[np.ndarray], *, days_shown: float = 60.0) -> Any:
    """Widen the x axis of ``ax`` (date numbers) to at least ``days_shown`` days, centred on the finite values of
    ``days``, so that one event, or events a day apart, get an axis of days and months, not of hours.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    finite = [d[~np.isnan(d)] for d in days]
    values = np.concatenate(finite) if finite else np.array([])
    if values.size:
        low, high = float(values.min()), float(values.max())
        if high - low < days_shown:
            middle = (low + high) / 2
            ax.set_xlim(middle - days_shown / 2, middle + days_shown / 2)
    return ax
