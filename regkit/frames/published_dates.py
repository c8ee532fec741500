"""Published text → dates: deadlines, closing dates and meeting times as insolvency announcements write them.

Like everything in :mod:`regkit.frames.published`, these parsers take whatever comes and return the value
or ``None``; **they never raise**. (A date a user passes as an argument is read strictly instead, by
:func:`regkit.schema.validate_date`, which shares this module's two date patterns.)

Dates (:func:`parse_date`)
    ``YYYY-MM-DD`` (an ISO date-time's date part too), German ``DD.MM.YYYY`` / ``D.M.YYYY`` (spaces after
    the dots allowed) and ``D. Monat YYYY`` (``"5. März 2024"``, also ``Maerz``, ``Jänner``); a
    :class:`datetime.date` as is. A day that does not exist (``31.02.2024``) or anything else is ``None``.

Date-times (:func:`parse_datetime`, for creditors' meetings)
    ISO 8601 (a missing offset is UTC, as pandas reads it) or German ``DD.MM.YYYY[,] [um] HH:MM [Uhr]``,
    which is local time in Germany (``Europe/Berlin``); returned in UTC.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any
from zoneinfo import ZoneInfo

from regkit.schema.dates import GERMAN_DATE, ISO_DATE, calendar_day

__all__ = ["MAX_TEXT", "parse_date", "parse_datetime"]

MAX_TEXT = 64
"""Longer text is not parsed (no amount or date is written that long): the parsers return ``None``."""

#: Non-breaking and thin spaces, and tabs, read as plain spaces.
SPACE_FOLD = str.maketrans(dict.fromkeys("\u00a0\u202f\u2009\u2007\t", " "))

_MONTHS = {
    "januar": 1,
    "jaenner": 1,
    "februar": 2,
    "maerz": 3,
    "april": 4,
    "mai": 5,
    "juni": 6,
    "juli": 7,
    "august": 8,
    "september": 9,
    "oktober": 10,
    "november": 11,
    "dezember": 12,
}
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_ISO = ISO_DATE
_GERMAN = GERMAN_DATE
_GERMAN_MONTH = re.compile(r"([0-9]{1,2})\.? ?([a-z]+) ([0-9]{4})")
_TIME = re.compile(
    r"(?:[t ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,6})[0-9]*)?)?"
    r"(z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?"
)
_GERMAN_TIME = re.compile(r"(?:,? (?:um )?([0-9]{1,2})[:.]([0-9]{2})(?: ?uhr)?)?")
try:
    _BERLIN: Any = ZoneInfo("Europe/Berlin")
except (LookupError, OSError):  # pragma: no cover - no time zone data (pandas depends on tzdata, so rare)
    _BERLIN = None


def _clean(value: Any) -> str | None:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return None
    return " ".join(value.translate(SPACE_FOLD).casefold().translate(_UMLAUTS).split())


def _german_date(text: str) -> tuple[_dt.date | None, str] | None:
    """A German date at the start of ``text``: (date, the rest), or None when there is none."""
    for pattern, month_of in ((_GERMAN, int), (_GERMAN_MONTH, _MONTHS.get)):
        match = pattern.match(text)
        if match and (month := month_of(match.group(2))) is not None:
            return calendar_day(match.group(3), month, match.group(1)), text[match.end() :]
    return None


def parse_date(value: Any) -> _dt.date | None:
    """A published date as a :class:`datetime.date`, or ``None``.

    Reads ``YYYY-MM-DD``, ``DD.MM.YYYY``, ``D.M.YYYY`` and ``D. Monat YYYY`` (see the module docstring).

    Examples
    --------
    >>> parse_date("2024-03-01"), parse_date("1.3.2024"), parse_date("01. März 2024")
    (datetime.date(2024, 3, 1), datetime.date(2024, 3, 1), datetime.date(2024, 3, 1))
    >>> parse_date("31.02.2024") is None, parse_date(20240301) is None
    (True, True)
    """
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = _clean(value)
    if not text:
        return None
    iso = _ISO.match(text)
    if iso and _TIME.fullmatch(text, iso.end()):
        return calendar_day(*iso.groups())
    german = _german_date(text)
    return german[0] if german and not german[1] else None


def _iso_datetime(day: _dt.date, time: re.Match[str]) -> _dt.datetime | None:
    hour, minute, second, fraction, zone = time.groups()
    if zone in (None, "z"):
        offset = _dt.timedelta(0)
    else:
        digits = zone[1:].replace(":", "")
        offset = _dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0)) * (-1 if zone[0] == "-" else 1)
    micro = int((fraction or "0").ljust(6, "0"))
    at = _dt.datetime(
        day.year,
        day.month,
        day.day,
        int(hour or 0),
        int(minute or 0),
        int(second or 0),
        micro,
        tzinfo=_dt.timezone(offset),
    )
    return at.astimezone(_dt.timezone.utc)


def parse_datetime(value: Any) -> _dt.datetime | None:
    """A published date-time as an aware UTC :class:`datetime.datetime`, or ``None``.

    Examples
    --------
    >>> parse_datetime("2024-05-02T10:00:00Z")
    datetime.datetime(2024, 5, 2, 10, 0, tzinfo=datetime.timezone.utc)
    >>> parse_datetime("02.05.2024, 10:00 Uhr")  # German local time (CEST, UTC+2)
    datetime.datetime(2024, 5, 2, 8, 0, tzinfo=datetime.timezone.utc)
    >>> parse_datetime("im Mai") is None
    True
    """
    try:
        text = _clean(value)
        if not text:
            return None
        iso = _ISO.match(text)
        if iso:
            time = _TIME.fullmatch(text, iso.end())
            if time is None:
                return None
            day = calendar_day(*iso.groups())
            return None if day is None else _iso_datetime(day, time)
        german = _german_date(text)
        if german is None:
            return None
        on, rest = german
        time = _GERMAN_TIME.fullmatch(rest) if on else None
        if on is None or time is None or _BERLIN is None:
            return None
        hour, minute = time.groups()
        local = _dt.datetime.combine(on, _dt.time(int(hour or 0), int(minute or 0)), tzinfo=_BERLIN)
        return local.astimezone(_dt.timezone.utc)
    except (ValueError, OverflowError):  # 25:00, an offset beyond a day, year 1 or 9999 shifted out of range
        return None
