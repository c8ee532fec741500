"""Date arguments: the one rule for a date a user passes to regkit — ISO, or German day first, or an error.

Wherever regkit takes a date from its user (``record.as_of(date)``, ``regkit.graph.subsidiaries(G, id,
date=...)``, a plot's ``until=``, a search filter's ``opened_at`` range), it is read by :func:`validate_date`:

* a :class:`datetime.date`, :class:`datetime.datetime`, ``pandas.Timestamp`` or ``numpy.datetime64`` (a
  date-time gives its date as written, in its own time zone);
* ISO text ``YYYY-MM-DD`` (``"2024-02-01"``), also with a time of day (``"2024-02-01T10:30:00Z"``: the
  date as written);
* German text ``DD.MM.YYYY`` or ``D.M.YYYY``, **day first** (``"01.02.2024"`` is 1 February 2024).

Anything else is a :class:`~regkit.errors.ValidationError` naming the argument, showing the value and listing
these forms: a day the calendar does not have (``"2024-02-31"``, ``"31.02.2024"``), words (``"yesterday"``),
slashed dates (``"02/01/2024"`` is 2 January in Europe and 1 February in the US, so it is never guessed), a
year or month alone. Nothing is ever read month first.

The lenient reader of *published* text (``"5. März 2024"``, null when unreadable) is
:mod:`regkit.frames.published_dates`; it shares this module's patterns and :func:`calendar_day`.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
import re
from typing import Any, Literal, overload

from regkit.errors import ArgumentError, ValidationError

__all__ = [
    "DATE_FORMS",
    "GERMAN_DATE",
    "ISO_DATE",
    "calendar_day",
    "parse_date_argument",
    "validate_date",
]

DATE_FORMS = (
    "a datetime.date, datetime.datetime, pandas.Timestamp or numpy.datetime64, "
    "or text as YYYY-MM-DD ('2024-02-01', a time after it is ignored) or DD.MM.YYYY, day first "
    "('01.02.2024' or '1.2.2024')"
)
"""The accepted forms of a date argument, as error messages and docstrings say them."""

ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
"""``YYYY-MM-DD`` (one-digit month and day too) at the start of a text: groups year, month, day."""

GERMAN_DATE = re.compile(r"([0-9]{1,2})\. ?([0-9]{1,2})\. ?([0-9]{4})")
"""``DD.MM.YYYY`` / ``D.M.YYYY`` (a space after each dot allowed) at the start of a text: groups day, month,
year — day first, always."""

#: A time of day after an ISO date: ``T`` or a space, ``HH:MM[:SS[.ffffff]]`` and an optional offset.
_ISO_TIME = re.compile(r"(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?)?")
_SLASHED = re.compile(r"[0-9]{1,4}/[0-9]{1,2}/[0-9]{1,4}")
_YEAR_OR_MONTH = re.compile(r"[0-9]{4}(?:-[0-9]{1,2})?")
_WORDS = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
_MAX_SHOWN = 60


def calendar_day(year: str | int, month: str | int, day: str | int) -> _dt.date | None:
    """The day ``year``-``month``-``day``, or ``None`` when the calendar has no such day.

    Examples
    --------
    >>> calendar_day("2024", "2", "29"), calendar_day(2023, 2, 29)
    (datetime.date(2024, 2, 29), None)
    """
    try:
        return _dt.date(int(year), int(month), int(day))
    except ValueError:  # 31 February, month 13, year 0
        return None


def _from_text(text: str) -> tuple[_dt.date | None, tuple[int, int, int] | None]:
    """(the date, None), or (None, the (year, month, day) written when it is no day), or (None, None)."""
    iso = ISO_DATE.match(text)
    if iso and _ISO_TIME.fullmatch(text, iso.end()):
        year, month, day = (int(g) for g in iso.groups())
    else:
        german = GERMAN_DATE.fullmatch(text)
        if not german:
            return None, None
        day, month, year = (int(g) for g in german.groups())
    found = calendar_day(year, month, day)
    return (found, None) if found else (None, (year, month, day))


def parse_date_argument(value: Any) -> _dt.date | None:
    """A date argument as a :class:`datetime.date`, or ``None`` when it is not one of :data:`DATE_FORMS`.

    The pure rule behind :func:`validate_date`, which raises instead of returning ``None``. A missing value
    (``None``, ``NaT``) is ``None`` too.

    Examples
    --------
    >>> parse_date_argument("01.02.2024"), parse_date_argument("2024-02-01T23:30:00+01:00")
    (datetime.date(2024, 2, 1), datetime.date(2024, 2, 1))
    >>> parse_date_argument("02/01/2024") is None, parse_date_argument("2024-02-31") is None
    (True, True)
    """
    if isinstance(value, _dt.datetime):  # pandas.Timestamp too; NaT is a datetime that is not equal to itself
        return value.date() if value == value else None
    if isinstance(value, _dt.date):
        return value
    if type(value).__name__ == "datetime64":  # numpy, read without importing it
        text = str(value.astype("datetime64[D]"))
        return None if text == "NaT" else _dt.date.fromisoformat(text)
    if isinstance(value, str):
        return _from_text(value.strip())[0]
    return None


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, _dt.datetime):
        return value != value  # pandas.NaT
    if type(value).__name__ == "datetime64":
        return str(value) == "NaT"
    return isinstance(value, float) and math.isnan(value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def _why(text: str) -> str:
    """Why ``text`` is not a date, in a few words (after "is not a date:")."""
    _, written = _from_text(text)
    if written is not None:
        year, month, day = written
        if year < 1:
            return "there is no year 0"
        if not 1 <= month <= 12:
            return f"there is no month {month} (a date is read as YYYY-MM-DD, or DD.MM.YYYY day first)"
        length = calendar.monthrange(year, month)[1] if year >= 1 else 31
        return f"{calendar.month_name[month]} {year} has {length} days, not {day}"
    if _SLASHED.fullmatch(text):
        return "slashed dates are read month first in the US and day first in Europe, so regkit guesses neither"
    if _YEAR_OR_MONTH.fullmatch(text):
        return "a year or a month is not a day: give the day meant, e.g. its first or last"
    if _WORDS.fullmatch(text):
        return "words are not read: compute the day, e.g. datetime.date.today() - datetime.timedelta(days=1)"
    return "it is in none of the forms regkit reads" if text else "the text is empty"


@overload
def validate_date(value: Any, name: str = ..., *, optional: Literal[False] = ...) -> _dt.date: ...


@overload
def validate_date(value: Any, name: str = ..., *, optional: Literal[True]) -> _dt.date | None: ...


def validate_date(value: Any, name: str = "date", *, optional: bool = False) -> _dt.date | None:
    """A user's date argument as a :class:`datetime.date`, by the one rule of this module.

    Parameters
    ----------
    value : date-like
        One of :data:`DATE_FORMS`: a ``datetime.date``, ``datetime.datetime``, ``pandas.Timestamp`` or
        ``numpy.datetime64`` (its date as written), ISO ``"YYYY-MM-DD"`` (a time of day after it is ignored) or
        German ``"DD.MM.YYYY"`` / ``"D.M.YYYY"``, read day first.
    name : str
        The argument's name as the caller knows it (``"date"``, ``"until"``, ``"filter opened_at.min"``),
        said in the error.
    optional : bool
        ``None`` (and ``NaT``) is allowed and returned as ``None``; otherwise it is an error.

    Returns
    -------
    datetime.date or None
        ``None`` only when ``optional`` and the value is missing.

    Raises
    ------
    ValidationError
        The text is not a date in one of the accepted forms, or names a day the calendar does not have
        (``"2024-02-31"``); the message shows the value and says why, the suggestion lists the forms.
    ArgumentError
        The value is not text or a date at all (a number, a list); also a ``TypeError``.

    Examples
    --------
    >>> validate_date("01.02.2024"), validate_date("2024-02-01"), validate_date("1.2.2024")
    (datetime.date(2024, 2, 1), datetime.date(2024, 2, 1), datetime.date(2024, 2, 1))
    >>> validate_date(None, "until", optional=True) is None
    True
    >>> validate_date("2024-02-31", "date")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: date '2024-02-31' is not a date: February 2024 has 29 days, not 31 ...
    """
    suggestion = f"pass {DATE_FORMS}"
    if _missing(value):
        if optional:
            return None
        raise ValidationError(f"{name} is required, not {_shown(value)}", suggestion=suggestion)
    found = parse_date_argument(value)
    if found is not None:
        return found
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be a date, not {type(value).__name__} {_shown(value)}", suggestion=suggestion)
    raise ValidationError(f"{name} {_shown(value)} is not a date: {_why(value.strip())}", suggestion=suggestion)
