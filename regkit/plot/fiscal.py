"""Fiscal years on an axis: a report is drawn at the year it reports on, not at the date it ends.

An annual report dated 2014-12-31 is the fiscal year 2014. On a date axis its point sits at the very end of 2014,
under the "2015" tick, and every reader misreads it by a year. regkit's financial plots therefore put reports on a
*fiscal-year* axis: one integer position per fiscal year, labelled by the year.

German companies may close their fiscal year on another day than 31 December (30 June, 30 September, 31 March…);
such a year is called by both calendar years it spans ("Geschäftsjahr 2014/15"). Its position is the calendar year
that holds most of it, as the usual convention has it (a year ending January–May belongs to the previous calendar
year, one ending June–December to its own): the year from 1 July 2014 to 30 June 2015 is fiscal year 2015 and
labelled "2014/15"; the year ending 31 March 2015 is fiscal year 2014, also labelled "2014/15".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker

from regkit.schema.dates import validate_date

__all__ = ["fiscal_years", "fiscal_year_label", "fiscal_year_axis"]

#: A fiscal year ending in these months (January to May) is counted to the previous calendar year.
_EARLY_MONTHS = 5


def fiscal_years(dates: Any) -> np.ndarray:
    """The fiscal year (``int64``) of each report ending on ``dates`` (see the module docstring).

    ``dates`` are dates, Timestamps or ``datetime64``, or text as ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"``
    (day first); other text is a ``ValidationError``. Anything but a collection of dates (None, one date, a
    number, a frame, numbers) is an :class:`~regkit.errors.ArgumentError` saying what to pass.

    Examples
    --------
    >>> fiscal_years(["2014-12-31", "2015-06-30", "2015-03-31", "2015-09-30"]).tolist()
    [2014, 2015, 2014, 2015]
    """
    from .inputs import check_dates

    values = check_dates(dates, "fiscal_years")
    if values.dtype.kind in "OU":  # text among them is read by regkit's date rule: day first, never month first
        values = np.array([validate_date(d, "dates") if isinstance(d, str) else d for d in values.tolist()])
    stamps = pd.DatetimeIndex(pd.to_datetime(values))
    years = stamps.year.to_numpy(dtype="int64")
    return np.where(stamps.month.to_numpy() <= _EARLY_MONTHS, years - 1, years)


def fiscal_year_label(date: Any) -> str:
    """How the fiscal year ending on ``date`` is called: ``"2014"`` for a calendar year, ``"2014/15"`` otherwise.

    ``date`` is read as :func:`fiscal_years` reads its dates (text: ISO, or German day first); anything else
    (None, a number, a frame) is a :class:`~regkit.errors.ValidationError` saying what to pass.

    Examples
    --------
    >>> fiscal_year_label("2014-12-31"), fiscal_year_label("2015-06-30"), fiscal_year_label("2000-03-31")
    ('2014', '2014/15', '1999/00')
    """
    stamp = pd.Timestamp(validate_date(date, "date"))
    if (stamp.month, stamp.day) == (12, 31):
        return str(stamp.year)
    return f"{stamp.year - 1}/{stamp.year % 100:02d}"


def _labels(dates: Iterable[Any]) -> dict[int, str]:
    """Tick label per fiscal year: the year's own name when every report at it is called alike, else the year."""
    names: dict[int, set[str]] = {}
    stamps = [pd.Timestamp(validate_date(d, "dates") if isinstance(d, str) else d) for d in dates if not pd.isna(d)]
    for year, stamp in zip(fiscal_years(stamps).tolist() if stamps else [], stamps):
        names.setdefault(int(year), set()).add(fiscal_year_label(stamp))
    return {year: next(iter(called)) if len(called) == 1 else str(year) for year, called in names.items()}


class _FiscalYearFormatter(ticker.Formatter):
    def __init__(self, labels: dict[int, str]) -> None:
        self.labels = labels

    def __call__(self, x: float, pos: int | None = None) -> str:
        year = round(x)
        if abs(x - year) > 1e-6:
            return ""
        return self.labels.get(year, str(year))


def fiscal_year_axis(ax: Any, dates: Iterable[Any], *, max_ticks: int = 12) -> Any:
    """Make the x axis of ``ax`` a fiscal-year axis for reports ending on ``dates``.

    Lines must be drawn at :func:`fiscal_years` positions. Every year gets a tick while at most ``max_ticks`` are
    needed, else every second (fifth…) year; ticks are labelled as :func:`fiscal_year_label` calls the year, and
    the axis is labelled "fiscal year" (with the closing day when every report closes on the same other day).
    ``dates`` are read as :func:`fiscal_years` reads them (text: ISO, or German day first).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    from .inputs import check_axes, check_dates

    check_axes(ax, "fiscal_year_axis: ax", optional=False)
    dates = [d for d in check_dates(dates, "fiscal_year_axis") if not pd.isna(d)]
    labels = _labels(dates)
    if labels:
        first, last = min(labels), max(labels)
        step = 1
        while (last - first) // step + 1 > max_ticks:
            step = {1: 2, 2: 5}.get(step, step * 2)
        ax.xaxis.set_major_locator(ticker.FixedLocator(list(range(first - first % step, last + 1, step))))
        ax.set_xlim(first - 0.5, last + 0.5)
    else:
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.xaxis.set_major_formatter(_FiscalYearFormatter(labels))
    closing = {(pd.Timestamp(d).month, pd.Timestamp(d).day) for d in dates}
    if len(closing) == 1 and closing != {(12, 31)}:
        month, day = next(iter(closing))
        ax.set_xlabel(f"fiscal year (ending {pd.Timestamp(2001, month, day):%d %b})")
    else:
        ax.set_xlabel("fiscal year")
    return ax
