"""A date axis that reads in years: a tick on 1 January labelled "2014", never "2014-01" or an hour.

Lives in the register span decades or a few weeks. :func:`year_axis` makes any such span read in whole years: a
tick on the first day of every year (every 2nd, 5th, 10th… year when there would be more than ``max_ticks``, or
more labels than the axis is wide enough to hold side by side — measured when the figure is drawn, so a narrow
axes never runs "2016" into "2017"), and a span of at least ``min_years`` centred on the data, so a company
registered last month still gets an axis of years rather than of days or hours.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib import dates as mdates
from matplotlib import rcParams, ticker
from matplotlib.axis import Axis
from matplotlib.font_manager import FontProperties

from regkit.errors import ArgumentError, explain_arguments
from regkit.schema.dates import validate_date

__all__ = ["year_axis", "YearStepLocator"]

_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)
_LABEL_ROOM = 1.8  # a year label's room on the axis, in label widths (the label and a gap of most of its width)


@explain_arguments
class YearStepLocator(ticker.Locator):
    """Ticks on 1 January of every ``step``-th year, ``step`` the first of 1, 2, 5, 10, 20, 25, 50, 100 that
    gives at most ``max_ticks`` ticks and leaves each label room on the axis as drawn.

    The axis' length is read when the ticks are asked for (at draw time), so the same figure reads "2016 2018
    2020" in a narrow cell and every year in a wide one. ``step`` is the step last used.
    """

    def __init__(self, max_ticks: int = 12) -> None:
        if isinstance(max_ticks, bool) or not isinstance(max_ticks, int) or max_ticks < 1:
            raise ArgumentError(
                f"max_ticks must be a whole number of at least 1, not {max_ticks!r}", suggestion="e.g. max_ticks=12"
            )
        self.max_ticks = max_ticks
        self.step = 1

    def _fitting(self, years: float) -> int:
        fitting = float(self.max_ticks)
        axis = self.axis
        axes = getattr(axis, "axes", None)
        if isinstance(axis, Axis) and axes is not None:
            across = axis is axes.xaxis
            length = axes.get_window_extent().width if across else axes.get_window_extent().height
            default = rcParams["xtick.labelsize"] if across else rcParams["ytick.labelsize"]
            size = FontProperties(size=axis.get_tick_params().get("labelsize", default))
            label = 4 * 0.6 * size.get_size_in_points() * axes.figure.dpi / 72  # four digits, ~0.6 em each
            fitting = min(fitting, max(1.0, length / (_LABEL_ROOM * label)))
        return next((s for s in _STEPS if years / s <= fitting), _STEPS[-1])

    def __call__(self) -> Any:
        low, high = self.axis.get_view_interval() if self.axis is not None else (0.0, 1.0)
        return self.tick_values(low, high)

    def tick_values(self, vmin: float, vmax: float) -> Any:
        """The ticks between ``vmin`` and ``vmax`` (matplotlib date numbers)."""
        vmin, vmax = sorted((vmin, vmax))
        self.step = self._fitting((vmax - vmin) / 365.25)
        first = mdates.num2date(vmin).year
        last = mdates.num2date(vmax).year + 1
        start = first - first % self.step
        ticks = (
            float(mdates.date2num(pd.Timestamp(year=y, month=1, day=1))) for y in range(start, last + 1, self.step)
        )
        return [tick for tick in ticks if vmin <= tick <= vmax]


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
        ``ax``; its x ticks sit on 1 January (:class:`YearStepLocator`) and are labelled by the year; a minor
        tick marks every year of a span up to 60 years.

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
    ax.xaxis.set_major_locator(YearStepLocator(max_ticks))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y"))
    ax.xaxis.set_minor_locator(mdates.YearLocator(base=1) if years <= 60 else ticker.NullLocator())
    return ax
