"""The days of a mandate: one rule for the frames and the graph.

A mandate — a representation entry (director, Prokura, liquidator, shareholder, ...), or an edge of
:mod:`regkit.graph` with ``valid_from`` / ``valid_to`` — runs on the days ``[start, end)``: from its start date
(included) up to its end date, the first day out of office (excluded). A bound that is None is open: an unknown
start lies before every date, a missing end means it still runs.

A mandate whose start is on or after its end lasts **no day**: ``start == end`` (the OffeneRegister import writes
``[d, d)`` for an officer whose start it does not know and whose end is the record's earliest date) and
``start > end`` (real data has it). It is active on no date, has no days (:func:`mandate_days` is None), is in no
interlock and counts as no director — but it is still a row of :func:`~regkit.frames.representatives` (the
register lists it) with ``is_active`` False.

Every place of regkit that asks whether a mandate runs asks here: :func:`regkit.frames.representatives`
(``is_active``), :func:`regkit.frames.as_of` (its representatives, and the liquidators behind ``status``),
:func:`regkit.frames.panel` (``active_directors``), :func:`regkit.graph.timeline.in_force` (so
:func:`regkit.graph.as_of` and every query of a date), :func:`regkit.graph.interlocks` (the periods) and the person
explorer's co-officers (the days two mandates share).

The bounds may be ISO ``YYYY-MM-DD`` strings or :class:`datetime.date` values (both order as dates), as long as
the bounds and the day are of one kind. This module imports nothing but the standard library (the graph imports
it; ``import regkit.graph`` stays free of pandas).
"""

from __future__ import annotations

import datetime as _dt
from typing import TypeVar

__all__ = ["mandate_active", "mandate_days"]

Day = TypeVar("Day", str, _dt.date)


def mandate_days(start: Day | None, end: Day | None) -> tuple[Day | None, Day | None] | None:
    """The days a mandate runs, ``(start, end)`` half-open (None bounds open), or None when it lasts no day.

    Examples
    --------
    >>> mandate_days("2010-01-01", None), mandate_days("2010-01-01", "2012-03-01")
    (('2010-01-01', None), ('2010-01-01', '2012-03-01'))
    >>> mandate_days("2015-01-01", "2015-01-01"), mandate_days("2016-01-01", "2015-01-01")
    (None, None)
    """
    if start is not None and end is not None and not start < end:
        return None
    return start, end


def mandate_active(start: Day | None, end: Day | None, day: Day | None) -> bool:
    """Whether a mandate runs on ``day`` (``start <= day < end``); with ``day`` None: whether it has no end date
    (runs on, as far as the record says) — a mandate of no day never does.

    Examples
    --------
    >>> [mandate_active("2010-01-01", "2018-08-09", d) for d in ("2009-12-31", "2010-01-01", "2018-08-09")]
    [False, True, False]
    >>> mandate_active("2015-01-01", "2015-01-01", "2015-01-01"), mandate_active(None, None, "1900-01-01")
    (False, True)
    """
    days = mandate_days(start, end)
    if days is None:
        return False
    if day is None:
        return end is None
    return (start is None or start <= day) and (end is None or day < end)
