"""Published text → values: amounts and dates as insolvency announcements write them.

An insolvency event's ``details`` hold what was extracted from the publication's text, so the live
service sends ``distribution_available``, ``distribution_claims_total``, ``claims_filing_deadline`` and
``closed_at`` as nullable strings in no fixed format (older servers send numbers and ISO dates). The
parsers here take whatever comes — ``None``, numbers, any string, anything else — and return the value
or ``None``; **they never raise**. The frames keep the published text beside the parsed value, so
nothing is lost where parsing gives up.

Amounts (:func:`parse_amount`) — euro amounts to the cent, exact (:class:`~decimal.Decimal`)
    * digits with at most one decimal separator followed by **one or two** digits: ``"14102.57"``,
      ``"14102,57"``, ``"1.5"`` (1.50);
    * thousands separators ``.``, ``,``, a space or an apostrophe between groups of three digits:
      ``"14.102,57"``, ``"14,102.57"``, ``"14 102,57"``, ``"1.000.000"``; where both ``.`` and ``,``
      occur, the last one is the decimal separator;
    * **the ambiguous case** — one ``.`` or ``,`` followed by exactly three digits — is a thousands
      separator: ``"1.000"`` and ``"1,000"`` are 1000, never 1. Amounts are in euro and cent; a third
      decimal place is not a cent. More than two decimals (``"1.2345"``) is not an amount (``None``);
    * ``",-"`` / ``",–"`` / ``",--"`` after whole euros means no cents: ``"1.000,- EUR"`` is 1000;
    * at most one currency word or sign, before or after: ``EUR``, ``Euro``, ``Euros``, ``€`` (any case);
    * at most one sign, before or after the number or the currency: ``-``, ``+``, ``−`` (U+2212),
      ``–`` (U+2013): ``"-14.102,57 EUR"``, ``"EUR -14.102,57"``, ``"14.102,57- €"``;
    * a number (``int``, finite ``float`` — its shortest repr —, :class:`~decimal.Decimal`) is taken as is,
      if it has at most two decimal places.

    Everything else is ``None``: no digit before a separator (``",50"``), letters, two numbers,
    ``bool``, NaN, text longer than 64 characters (:data:`MAX_TEXT`), and amounts beyond ±22.5 trillion
    EUR (:data:`~regkit.frames.money.MAX_EXACT_CENTS` cents: the range the frames' EUR columns hold exactly).

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
import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from .money import MAX_EXACT_CENTS

__all__ = ["MAX_TEXT", "parse_amount", "amount_cents", "parse_date", "parse_datetime", "parse_flag", "published_text"]

MAX_TEXT = 64
"""Longer text is not parsed (no amount or date is written that long): the parsers return ``None``."""

_CENT = Decimal("0.01")
_MAX_ADJUSTED = len(str(MAX_EXACT_CENTS // 100)) - 1  # a larger decimal exponent is out of range anyway
_SPACES = str.maketrans(dict.fromkeys("\u00a0\u202f\u2009\u2007\t", " "))
_TOKEN = r"\s+|€|eur(?:os?)?\.?|[-+\u2212\u2013]"
_AMOUNT = re.compile(rf"((?:{_TOKEN})*?)([0-9](?:[0-9.,' \u2019]*[0-9])?)([.,](?:--?|\u2013|\u2014))?((?:{_TOKEN})*)")
_TOKENS = re.compile(_TOKEN)
_GROUPED = {sep: re.compile(rf"[0-9]{{1,3}}(?:{re.escape(sep)}[0-9]{{3}})+") for sep in ".,' \u2019"}


def _in_range(amount: Decimal) -> Decimal | None:
    if not amount.is_finite() or amount.adjusted() > _MAX_ADJUSTED:
        return None
    cents = amount * 100
    if cents != cents.to_integral_value() or abs(cents) > MAX_EXACT_CENTS:
        return None
    return amount.quantize(_CENT)


def _signs_and_currency(*affixes: str) -> int | None:
    """-1/+1 from the tokens around the number, or None when they are not one sign and one currency at most."""
    signs = currencies = 0
    negative = False
    for affix in affixes:
        for token in _TOKENS.findall(affix):
            if token.isspace():
                continue
            if token in "-+\u2212\u2013":
                signs += 1
                negative = token != "+"
            else:
                currencies += 1
    return None if signs > 1 or currencies > 1 else (-1 if negative else 1)


def _digits(number: str, decimal_sep: str | None) -> str | None:
    """``"14.102,57"`` → ``"14102.57"`` by the rules of the module docstring (None where they fail)."""
    if decimal_sep is None:  # pick it: the last of '.' / ',' when both occur; one occurrence of 1-2 digits
        marks = [ch for ch in number if ch in ".,"]
        if len(set(marks)) == 2:
            decimal_sep = marks[-1]
        elif len(marks) == 1 and 1 <= len(number) - number.index(marks[0]) - 1 <= 2:
            decimal_sep = marks[0]
    whole, _, cents = number.rpartition(decimal_sep) if decimal_sep and decimal_sep in number else (number, "", "")
    if decimal_sep and decimal_sep in number and not (1 <= len(cents) <= 2 and cents.isdigit()):
        return None
    groups = {ch for ch in whole if not ch.isdigit()}
    if len(groups) > 1 or (groups and not _GROUPED[groups.pop()].fullmatch(whole)):
        return None
    whole = "".join(ch for ch in whole if ch.isdigit())
    return f"{whole}.{cents}" if cents else whole


def _parse_text(text: str) -> Decimal | None:
    if len(text) > MAX_TEXT:
        return None
    match = _AMOUNT.fullmatch(text.translate(_SPACES).strip().casefold())
    if match is None:
        return None
    before, number, no_cents, after = match.groups()
    sign = _signs_and_currency(before, after)
    if sign is None:
        return None
    decimal_sep = no_cents[0] if no_cents else None
    if decimal_sep and decimal_sep in number:  # "1,5,-": the ",-" is the decimal part already
        return None
    digits = _digits(number, decimal_sep)
    return None if digits is None else Decimal(digits) * sign


def parse_amount(value: Any) -> Decimal | None:
    """A published euro amount as an exact :class:`~decimal.Decimal` to the cent, or ``None``.

    Parameters
    ----------
    value : any
        Text as published (see the module docstring for the forms), a number, or anything else.

    Returns
    -------
    decimal.Decimal or None
        Quantised to cents (``Decimal("1000.00")``); ``None`` where ``value`` is no amount. Never raises.

    Examples
    --------
    >>> parse_amount("14.102,57 EUR"), parse_amount("€ 14,102.57"), parse_amount(14102.57)
    (Decimal('14102.57'), Decimal('14102.57'), Decimal('14102.57'))
    >>> parse_amount("1.000"), parse_amount("1.5"), parse_amount("-1.000,- Euro")
    (Decimal('1000.00'), Decimal('1.50'), Decimal('-1000.00'))
    >>> parse_amount("1.2345") is None, parse_amount("vierzehn Euro") is None, parse_amount(None) is None
    (True, True, True)
    """
    try:
        if isinstance(value, str):
            amount = _parse_text(value)
        elif isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
            return None
        elif isinstance(value, int):
            amount = Decimal(value) if abs(value) <= MAX_EXACT_CENTS else None
        else:
            amount = Decimal(repr(value)) if isinstance(value, float) else value
        return None if amount is None else _in_range(amount)
    except (ArithmeticError, ValueError, TypeError):  # e.g. a Decimal subclass misbehaving: not an amount
        return None


def amount_cents(value: Any) -> int | None:
    """:func:`parse_amount` in integer cents (the frames' money unit), or ``None``.

    Examples
    --------
    >>> amount_cents("14.102,57"), amount_cents("garbage")
    (1410257, None)
    """
    amount = parse_amount(value)
    return None if amount is None else int(amount * 100)


_MONTHS = {"januar": 1, "jaenner": 1, "februar": 2, "maerz": 3, "april": 4, "mai": 5, "juni": 6, "juli": 7,
           "august": 8, "september": 9, "oktober": 10, "november": 11, "dezember": 12}  # fmt: skip
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_ISO = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_GERMAN = re.compile(r"([0-9]{1,2})\. ?([0-9]{1,2})\. ?([0-9]{4})")
_GERMAN_MONTH = re.compile(r"([0-9]{1,2})\.? ?([a-z]+) ([0-9]{4})")
_TIME = re.compile(r"(?:[t ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,6})[0-9]*)?)?"
                   r"(z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?")  # fmt: skip
_GERMAN_TIME = re.compile(r"(?:,? (?:um )?([0-9]{1,2})[:.]([0-9]{2})(?: ?uhr)?)?")
try:
    _BERLIN: Any = ZoneInfo("Europe/Berlin")
except (LookupError, OSError):  # pragma: no cover - no time zone data (pandas depends on tzdata, so rare)
    _BERLIN = None


def _day(year: str, month: str | int, day: str) -> _dt.date | None:
    try:
        return _dt.date(int(year), int(month), int(day))
    except ValueError:  # 31.02., month 13, year 0
        return None


def _clean(value: Any) -> str | None:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return None
    return " ".join(value.translate(_SPACES).casefold().translate(_UMLAUTS).split())


def _german_date(text: str) -> tuple[_dt.date | None, str] | None:
    """A German date at the start of ``text``: (date, the rest), or None when there is none."""
    for pattern, month_of in ((_GERMAN, int), (_GERMAN_MONTH, _MONTHS.get)):
        match = pattern.match(text)
        if match and (month := month_of(match.group(2))) is not None:
            return _day(match.group(3), month, match.group(1)), text[match.end():]
    return None


def parse_date(value: Any) -> _dt.date | None:
    """A published date (``YYYY-MM-DD``, ``DD.MM.YYYY``, ``D.M.YYYY``, ``D. Monat YYYY``) or ``None``.

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
        return _day(*iso.groups())
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
    at = _dt.datetime(day.year, day.month, day.day, int(hour or 0), int(minute or 0), int(second or 0), micro,
                      tzinfo=_dt.timezone(offset))  # fmt: skip
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
            day = _day(*iso.groups()) if time else None
            return None if day is None else _iso_datetime(day, time)
        german = _german_date(text)
        time = _GERMAN_TIME.fullmatch(german[1]) if german and german[0] else None
        if time is None or _BERLIN is None:
            return None
        hour, minute = time.groups()
        local = _dt.datetime.combine(german[0], _dt.time(int(hour or 0), int(minute or 0)), tzinfo=_BERLIN)
        return local.astimezone(_dt.timezone.utc)
    except (ValueError, OverflowError):  # 25:00, an offset beyond a day, year 1 or 9999 shifted out of range
        return None


_YES = frozenset({"true", "ja", "yes", "erteilt", "1"})
_NO = frozenset({"false", "nein", "no", "versagt", "0"})


def parse_flag(value: Any) -> bool | None:
    """A yes/no member (``discharge_granted``): a boolean as is; ``"ja"``/``"nein"``, ``"true"``/``"false"``,
    ``"erteilt"``/``"versagt"`` (any case) as the boolean they say; anything else null — never ``bool(text)``,
    which would read ``"nein"`` as true.

    Examples
    --------
    >>> parse_flag(True), parse_flag("Nein"), parse_flag("erteilt"), parse_flag("unklar"), parse_flag(None)
    (True, False, True, None, None)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().casefold()
        return True if word in _YES else False if word in _NO else None
    return None


def published_text(value: Any) -> str | None:
    """The published value as text, for the ``*_text`` columns: a string as is, a number or boolean in its
    JSON spelling, ``None`` as ``None``, anything else as JSON (or its ``repr``).

    Examples
    --------
    >>> published_text("14.102,57 EUR"), published_text(14102.57), published_text(None)
    ('14.102,57 EUR', '14102.57', None)
    """
    if value is None or isinstance(value, str):
        return value
    try:
        if isinstance(value, Decimal):
            return str(value)
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, InvalidOperation, RecursionError):
        try:
            return repr(value)
        except Exception:  # noqa: BLE001 - a published value's text must never fail the frame
            return None
