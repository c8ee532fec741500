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

Dates and date-times: :mod:`regkit.frames.published_dates` (:func:`parse_date`, :func:`parse_datetime`).

"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from .money import MAX_EXACT_CENTS
from .published_dates import MAX_TEXT, SPACE_FOLD, parse_date, parse_datetime

__all__ = ["MAX_TEXT", "parse_amount", "amount_cents", "parse_date", "parse_datetime", "parse_flag", "published_text"]

_CENT = Decimal("0.01")
_MAX_ADJUSTED = len(str(MAX_EXACT_CENTS // 100)) - 1  # a larger decimal exponent is out of range anyway
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
    match = _AMOUNT.fullmatch(text.translate(SPACE_FOLD).strip().casefold())
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
        except Exception:  # a published value's text must never fail the frame
            return None
