"""Money: cents ↔ EUR, and capital amounts in EUR.

Indicators
    The interface gives monetary indicators as int64 cents. In EUR they are ``cents / 100`` as float64, which
    is the double nearest to the exact decimal amount (IEEE division is correctly rounded and every integer up
    to 2**53 is a double). The round trip ``round(eur * 100) == cents`` is exact for every
    ``|cents| <= MAX_EXACT_CENTS`` (2**51 - 1 cents, about 22.5 trillion EUR): the two roundings together err
    by less than 0.33 cent there. Beyond that range an EUR column would no longer identify its cents, so the
    conversion raises (ask for ``unit="cents"``, which is exact for every int64).

Capital
    The interface gives capital as a decimal amount in whole currency units with its currency.
    ``capital_eur`` is the amount itself for EUR, the DEM amount converted at the fixed rate of
    1 EUR = 1.95583 DEM and rounded half up to the cent (as the euro regulation prescribes), and **null for
    USD** (and any other currency): there is no fixed rate, and a rate of some day would be an invention.
    Null is never 0.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np

from regkit.errors import ArgumentError
from regkit.schema.interface import DEM_PER_EUR

__all__ = ["DEM_PER_EUR", "MAX_EXACT_CENTS", "cents_to_eur_array", "capital_eur"]


MAX_EXACT_CENTS = 2**51 - 1
"""Largest ``|cents|`` whose EUR float round-trips exactly to the same integer."""

_CENT = Decimal("0.01")


def cents_to_eur_array(cents: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """int64 cents → float64 EUR, refusing values whose round trip would not be exact.

    Parameters
    ----------
    cents : numpy.ndarray of int64
    mask : numpy.ndarray of bool, optional
        True where the value is missing (its slot is ignored).

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    ValueError
        When a present value exceeds :data:`MAX_EXACT_CENTS` in magnitude.

    Examples
    --------
    >>> import numpy as np
    >>> cents_to_eur_array(np.array([12345, -1], dtype=np.int64)).tolist()
    [123.45, -0.01]
    """
    if cents.size:
        present = cents if mask is None else cents[~mask]
        if present.size and (present.max() > MAX_EXACT_CENTS or present.min() < -MAX_EXACT_CENTS):
            raise ValueError(
                f"an indicator of {int(np.abs(present).max())} cents is beyond the range in which EUR floats "
                f"are exact (|cents| <= {MAX_EXACT_CENTS}); use unit='cents'"
            )
    return cents / 100


def capital_eur(amount: Any, currency: Any) -> float | None:
    """A capital amount in EUR: EUR as is, DEM at 1.95583 (rounded to the cent), else None.

    Examples
    --------
    >>> capital_eur(50000.0, "DEM")
    25564.59
    >>> capital_eur(25000, "EUR")
    25000.0
    >>> capital_eur(100000.0, "USD") is None
    True
    """
    if amount is None:
        return None
    if isinstance(amount, (str, bytes, bool)) or not isinstance(amount, (int, float, Decimal, np.number)):
        raise ArgumentError(
            f"capital_eur() takes an amount (a number or None), not {type(amount).__name__}",
            suggestion="pass the capital's amount and currency as the record gives them: "
            "capital_eur(record.capital['amount'], record.capital['currency'])",
        )
    if currency == "EUR":
        return float(amount)
    if currency == "DEM":
        eur = (Decimal(repr(float(amount))) / DEM_PER_EUR).quantize(_CENT, rounding=ROUND_HALF_UP)
        return float(eur)
    return None
