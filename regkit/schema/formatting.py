"""How values read in a table, a card or a summary: ``1234567.5`` → ``"€1,234,568"``, ``0.5`` → ``"50 %"``.

Frames keep raw values (floats, fractions, dates) for analysis; views and HTML summaries format them with
these functions, so every display in regkit writes money, counts, shares and dates the same way: English
digit grouping (as the figures' axes, :class:`regkit.plot.EuroFormatter`), the unit after the number, and
``–`` for a missing value (never ``nan``, ``None`` or ``<NA>``).
"""

from __future__ import annotations

import datetime as dt
import math
import numbers
import sys
from typing import Any

__all__ = [
    "MISSING",
    "is_missing",
    "count_text",
    "number_text",
    "euro_text",
    "money_text",
    "percent_text",
    "date_text",
    "credits_text",
    "value_text",
    "plural",
    "more_text",
]

MISSING = "–"
"""What a missing value shows as."""


def is_missing(value: Any) -> bool:
    """Whether ``value`` is a missing value: ``None``, NaN, ``pd.NA`` or ``pd.NaT``.

    Examples
    --------
    >>> import pandas as pd
    >>> [is_missing(v) for v in (None, float("nan"), pd.NA, pd.NaT, 0, "")]
    [True, True, True, True, False, False]
    """
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, NaT
    except TypeError:  # pd.NA: its comparison is ambiguous
        return True
    except ValueError:  # an array: a value, not a missing one
        return False


def number_text(value: Any, digits: int = 0) -> str:
    """A number with thousands separators and at most ``digits`` decimals (trailing zeros dropped).

    Examples
    --------
    >>> number_text(1234567.891, 2), number_text(-1500), number_text(0.5, 1), number_text(None)
    ('1,234,567.89', '-1,500', '0.5', '–')
    """
    if is_missing(value):
        return MISSING
    number = float(value)
    if not math.isfinite(number):
        return MISSING
    text = f"{number:,.{digits}f}"
    if digits > 0:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def count_text(value: Any) -> str:
    """A whole number with thousands separators: ``12345`` → ``"12,345"``.

    Examples
    --------
    >>> count_text(12345), count_text(7), count_text(None)
    ('12,345', '7', '–')
    """
    return number_text(value, 0)


def euro_text(value: Any, digits: int = 0) -> str:
    """An amount in EUR, written as English writes it: ``1234567.5`` → ``"€1,234,568"`` (``digits=2``: cents
    shown when there are any; a negative amount ``"-€3,500"``).

    Examples
    --------
    >>> euro_text(1234567.5), euro_text(25600, 2), euro_text(25600.5, 2), euro_text(-3500), euro_text(None)
    ('€1,234,568', '€25,600', '€25,600.5', '-€3,500', '–')
    """
    text = number_text(value, digits)
    if text == MISSING:
        return text
    return f"-€{text[1:]}" if text.startswith("-") else f"€{text}"


def money_text(value: Any, currency: str = "EUR", digits: int = 2) -> str:
    """An amount in its currency: EUR as :func:`euro_text`, another currency by its code before the number, as
    English writes it (``"DEM 50,000"``); cents only where there are any.

    Examples
    --------
    >>> money_text(25600), money_text(50000, "DEM"), money_text(1234.5, "USD"), money_text(None, "DEM")
    ('€25,600', 'DEM 50,000', 'USD 1,234.5', '–')
    """
    if currency == "EUR":
        return euro_text(value, digits)
    text = number_text(value, digits)
    return text if text == MISSING else f"{currency} {text}"


def percent_text(share: Any, digits: int = 2) -> str:
    """A fraction (``0.5``) as percent text (``"50 %"``), at most ``digits`` decimals.

    Examples
    --------
    >>> percent_text(0.7273), percent_text(0.5), percent_text(1 / 3, 1), percent_text(None)
    ('72.73 %', '50 %', '33.3 %', '–')
    """
    if is_missing(share):
        return MISSING
    text = number_text(float(share) * 100, digits)
    return text if text == MISSING else f"{text} %"


def date_text(value: Any) -> str:
    """A date as ``YYYY-MM-DD`` (a timestamp at midnight too; other times as ``YYYY-MM-DD HH:MM``).

    Examples
    --------
    >>> import pandas as pd
    >>> date_text(pd.Timestamp("2024-03-01")), date_text(dt.date(2020, 1, 2)), date_text(pd.NaT)
    ('2024-03-01', '2020-01-02', '–')
    >>> date_text(pd.Timestamp("2024-03-01 14:05:09+01:00")), date_text("2024-03-01")
    ('2024-03-01 14:05', '2024-03-01')
    """
    if is_missing(value):
        return MISSING
    if isinstance(value, dt.datetime):
        midnight = (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0)
        return value.strftime("%Y-%m-%d" if midnight else "%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def plural(count: int, one: str, many: str | None = None) -> str:
    """``count`` and the noun in the right number, digits grouped: ``plural(1, "company", "companies")`` →
    ``"1 company"``, ``plural(1200, "owner")`` → ``"1,200 owners"`` (``many`` defaults to ``one + "s"``).

    Examples
    --------
    >>> plural(1, "company", "companies"), plural(0, "owner"), plural(1200, "credit"), plural(2, "person", "people")
    ('1 company', '0 owners', '1,200 credits', '2 people')
    """
    return f"{count_text(count)} {one if count == 1 else (many or one + 's')}"


def more_text(hidden: int, where: str = "") -> str:
    """The line under a cut table: ``"… and 37 more"`` (``where`` says where the rest are).

    Examples
    --------
    >>> more_text(37), more_text(2, "batch.errors"), more_text(1200)
    ('… and 37 more', '… and 2 more (batch.errors)', '… and 1,200 more')
    """
    return f"… and {count_text(hidden)} more" + (f" ({where})" if where else "")


def credits_text(credits: int, cached: bool = False) -> str:
    """What a call costs, as a button says it: ``"10 credits"``, ``"1 credit"``, ``"0 credits, cached"``.

    Examples
    --------
    >>> credits_text(10), credits_text(1), credits_text(0, cached=True), credits_text(1200)
    ('10 credits', '1 credit', '0 credits, cached', '1,200 credits')
    """
    text = plural(credits, "credit")
    return f"{text}, cached" if cached else text


def value_text(value: Any) -> str:
    """Any cell as text: missing → ``–``, booleans → ``yes``/``no``, dates by :func:`date_text`, whole numbers
    grouped, other numbers to two decimals, lists joined with ``", "``.

    Examples
    --------
    >>> value_text(True), value_text(12345), value_text(2.5), value_text(["a", "b"]), value_text(None)
    ('yes', '12,345', '2.5', 'a, b', '–')
    >>> import numpy as np
    >>> value_text(np.bool_(False)), value_text(np.int64(1200)), value_text(np.float32(0.25))
    ('no', '1,200', '0.25')
    """
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value)
    if is_missing(value):
        return MISSING
    numpy = sys.modules.get("numpy")  # a numpy value exists only once numpy is imported: not imported here
    if isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (dt.date, dt.datetime)):
        return date_text(value)
    if isinstance(value, numbers.Integral):
        return count_text(value)
    if isinstance(value, numbers.Real):
        return number_text(value, 2)
    return str(value)
