"""Time axes of counts and events: periods labelled as people say them, and a shortest span worth reading."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib import dates as mdates
from matplotlib import ticker

from .style import date_axis

__all__ = ["period_axis", "minimum_span"]


def period_axis(ax: Any, periods: pd.PeriodIndex, freq: str, max_ticks: int = 8) -> Any:
    """Label the bars of ``periods`` (drawn from each period's first day, in date numbers) as people say them.

    Quarters read "Q1 2024" and years "2024", at most ``max_ticks`` of them (every second, fourth… period when
    there are more); any other ``freq`` ("M", "W") gets matplotlib's concise date axis.

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
    >>> [ax.xaxis.get_major_formatter()(x, i) for i, x in enumerate(ax.get_xticks())]
    ['Q3 2023', 'Q4 2023', 'Q1 2024', 'Q2 2024']
    """
    if freq not in ("Q", "Y") or not len(periods):
        return date_axis(ax)
    step = 1
    while len(periods) / step > max_ticks:
        step = {1: 2, 2: 4}.get(step, step * 2)
    shown = [p for i, p in enumerate(periods) if i % step == 0]
    starts = pd.PeriodIndex(shown).to_timestamp(how="start")
    ax.xaxis.set_major_locator(ticker.FixedLocator(mdates.date2num(starts)))
    labels = [f"Q{p.quarter} {p.year}" if freq == "Q" else str(p.year) for p in shown]
    ax.xaxis.set_major_formatter(ticker.FixedFormatter(labels))
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
