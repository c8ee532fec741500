"""A date axis that reads in years: a tick on 1 January labelled "2014", never "2014-01" or an hour.

Lives in the register span decades or a few weeks. :func:`year_axis` makes any such span read in whole years: a
tick on the first day of every year (every 2nd, 5th, 10th… year when there would be more than ``max_ticks``),
and a span of at least ``min_years`` centred on the data, so a company registered last month still gets an axis
of years rather than of days or hours.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib import dates as mdates
from matplotlib import ticker

from regkit.schema.dates import validate_date

__all__ = ["year_axis"]

_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)


def year_axis(
    ax: Any, start: Any, end: Any, *, max_ticks: int = 12, min_years: float = 2.0, margin: float = 0.02
) -> Any:
    """Make the x axis of ``ax`` (matplotlib date numbers) a year axis from ``start`` to ``end``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    start, end : date-like
        The first and last day drawn: dates, Timestamps or ``datetime64`` (their time kept), or text as ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a ``ValidationError``.
    max_ticks : int
        At most this many year ticks.
    min_years : float
        The shortest span shown, in years, centred on ``start`` … ``end``.
    margin : float
        Room left and right, as a fraction of the span.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``; its x ticks sit on 1 January and are labelled by the year.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = year_axis(ax, "2024-03-01", "2024-03-20")
    >>> low, high = ax.get_xlim()
    >>> [ax.xaxis.get_major_formatter()(x) for x in ax.get_xticks() if low <= x <= high]
    ['2024', '2025']
    """
    from .inputs import check_axes

    check_axes(ax, "year_axis: ax", optional=False)
    low, high = (
        float(mdates.date2num(pd.Timestamp(validate_date(day, name) if isinstance(day, str) else day).to_datetime64()))
        for day, name in ((start, "start"), (end, "end"))
    )
    low, high = min(low, high), max(low, high)
    shortest = min_years * 365.25
    if high - low < shortest:
        middle = (low + high) / 2
        low, high = middle - shortest / 2, middle + shortest / 2
    pad = (high - low) * margin
    ax.set_xlim(low - pad, high + pad)
    years = (high - low) / 365.25
    step = next((s for s in _STEPS if years / s <= max_ticks), _STEPS[-1])
    ax.xaxis.set_major_locator(mdates.YearLocator(base=step))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y"))
    ax.xaxis.set_minor_locator(mdates.YearLocator(base=1) if step > 1 and years <= 60 else ticker.NullLocator())
    return ax
