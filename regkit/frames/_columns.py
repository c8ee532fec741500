"""Typed columns from lists of JSON values, and one frame per call from them.

Every frame builder in :mod:`regkit.frames` gathers, over all companies at once, one list of values per column
(plain Python: list comprehensions over the payload's dicts, or row tuples transposed once; numeric members
as one float matrix in a single C pass, :func:`number_block`) and hands them to :func:`build_frame` with a
*spec*: the columns in order, each with its kind. No DataFrame is built per company and nothing is
concatenated. The kinds and the dtypes they become:

==============  =================================  ==============================================
kind            dtype                              from
==============  =================================  ==============================================
``STR``         ``str`` (pandas' string dtype,     str or None (None → missing)
                missing is NaN)
``DATE``        ``datetime64[us]``                 ``YYYY-MM-DD`` or None (None → NaT)
``DATETIME``    ``datetime64[us, UTC]``            ISO 8601 date-time or None
``FLOAT``       ``Float64`` (nullable)             number or None (None → <NA>)
``CENTS_EUR``   ``Float64`` (nullable), EUR        int cents or None; exact, see :mod:`.money`
``INT``         ``Int64`` (nullable)               int or None
``INT64``       ``int64``                          int, never None
``BOOL``        ``bool``                           bool, never None
``BOOLEAN``     ``boolean`` (nullable)             bool or None
``Cat(values)``  ``category`` (fixed categories)   str or None
==============  =================================  ==============================================

Categories are the interface's enum values (from :mod:`regkit.schema`), fixed, so that frames of different
companies concatenate without losing the categorical dtype. A value outside the enum is never turned into a
missing value: it is appended to the categories and logged (``regkit.frames`` logger, WARNING).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import pandas as pd

from regkit.schema.dates import validate_date

from .money import cents_to_eur_array

__all__ = [
    "STR",
    "DATE",
    "DATETIME",
    "FLOAT",
    "CENTS_EUR",
    "INT",
    "INT64",
    "BOOL",
    "BOOLEAN",
    "Cat",
    "STRING_DTYPE",
    "DATE_DTYPE",
    "DATETIME_DTYPE",
    "build_frame",
    "column",
    "date_array",
    "iso_date",
    "number_block",
    "block_column",
    "rows_to_columns",
]

logger = logging.getLogger("regkit.frames")

try:  # pandas >= 2.3: the string dtype that pandas 3 uses by default ("str", missing is NaN)
    STRING_DTYPE: Any = pd.StringDtype(na_value=np.nan)
except TypeError:  # pragma: no cover - older pandas: the nullable "string" dtype
    STRING_DTYPE = pd.StringDtype()
DATE_DTYPE = np.dtype("datetime64[us]")
DATETIME_DTYPE = pd.DatetimeTZDtype(unit="us", tz="UTC")

STR, DATE, DATETIME, FLOAT, CENTS_EUR, INT, INT64, BOOL, BOOLEAN = (
    "str",
    "date",
    "datetime",
    "Float64",
    "cents_eur",
    "Int64",
    "int64",
    "bool",
    "boolean",
)


@dataclass(frozen=True)
class Cat:
    """A categorical column kind with the given (fixed, ordered as listed) categories."""

    categories: tuple[str, ...]


def iso_date(value: Any, name: str = "date") -> str:
    """A user's date argument as ``YYYY-MM-DD`` — the form the interface's dates compare in (as strings,
    chronologically).

    Read by :func:`regkit.schema.validate_date`: a ``date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
    ``"2020-01-31"`` or German ``"31.01.2020"`` (day first); anything else, ``None`` and ``NaT`` are a
    :class:`~regkit.errors.ValidationError` naming ``name``.

    Examples
    --------
    >>> import datetime
    >>> iso_date(datetime.date(2020, 1, 31)), iso_date("2020-01-31"), iso_date(pd.Timestamp("2020-01-31 13:00"))
    ('2020-01-31', '2020-01-31', '2020-01-31')
    >>> iso_date("01.02.2024")
    '2024-02-01'
    """
    return validate_date(value, name).isoformat()


def date_array(values: Sequence[Any]) -> np.ndarray:
    """``YYYY-MM-DD`` strings (or None) → ``datetime64[us]`` array (None → NaT)."""
    return np.array(values, dtype="datetime64[D]").astype(DATE_DTYPE)


def _nullable_ints(values: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    objects = np.array(values, dtype=object) if len(values) else np.empty(0, dtype=object)
    mask = np.asarray(objects == None, dtype=bool)  # noqa: E711 - elementwise comparison
    if mask.any():
        objects[mask] = 0
    return objects.astype(np.int64), mask


def _nullable_floats(values: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
    data = (
        np.array([0.0 if v is None else v for v in values], dtype=np.float64)
        if mask.any()
        else np.array(values, dtype=np.float64)
    )
    return (data if len(values) else np.empty(0)), mask


def _categorical(values: Sequence[Any], categories: tuple[str, ...]) -> pd.Categorical:
    lookup = {c: i for i, c in enumerate(categories)}
    codes = np.fromiter((lookup.get(v, -1) if v is not None else -1 for v in values), dtype=np.int64, count=len(values))
    unknown = (
        sorted({v for v, code in zip(values, codes) if code == -1 and v is not None}, key=str)
        if (codes == -1).any()
        else []
    )
    if unknown:
        logger.warning("values outside the interface's enum kept as extra categories: %s", unknown)
        return _categorical(values, categories + tuple(unknown))
    return pd.Categorical.from_codes(codes, categories=list(categories))


def column(kind: Any, values: Sequence[Any]) -> Any:
    """Convert one list of JSON values into an array of the dtype ``kind`` stands for."""
    if isinstance(kind, Cat):
        return _categorical(values, kind.categories)
    if kind == STR:
        return pd.array(np.array(values, dtype=object) if values else [], dtype=STRING_DTYPE)
    if kind == DATE:
        return date_array(values)
    if kind == DATETIME:
        parsed = pd.to_datetime(pd.Series(list(values), dtype=object), utc=True, format="ISO8601")
        return parsed.astype(DATETIME_DTYPE).array
    if kind == FLOAT:
        data, mask = _nullable_floats(values)
        return pd.arrays.FloatingArray(data, mask)
    if kind == CENTS_EUR:
        data, mask = _nullable_ints(values)
        return pd.arrays.FloatingArray(cents_to_eur_array(data, mask), mask)
    if kind == INT:
        data, mask = _nullable_ints(values)
        return pd.arrays.IntegerArray(data, mask)
    if kind == INT64:
        return np.fromiter(values, dtype=np.int64, count=len(values))
    if kind == BOOL:
        return np.fromiter(values, dtype=bool, count=len(values))
    if kind == BOOLEAN:
        mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
        data = np.fromiter((bool(v) for v in values), dtype=bool, count=len(values))
        return pd.arrays.BooleanArray(data, mask)
    raise ValueError(f"unknown column kind {kind!r}")


def rows_to_columns(rows: Sequence[tuple], spec: Sequence[tuple[str, Any]]) -> dict[str, list]:
    """Row tuples (values in ``spec`` order) → the column lists :func:`build_frame` takes."""
    if not rows:
        return {name: [] for name, _ in spec}
    return {name: list(values) for (name, _), values in zip(spec, zip(*rows))}


_EXACT_FLOAT_INT = 2**53


def number_block(entries: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> np.ndarray:
    """The numeric members ``keys`` of every entry as one float64 matrix (None → NaN), in one C pass.

    Integers up to 2**53 in magnitude are exact in it; :func:`block_column` falls back to the entries for
    larger ones. A missing member raises ``KeyError`` (wrap the call in :class:`~._input.required`).
    """
    if not entries:
        return np.empty((0, len(keys)))
    if len(keys) == 1:
        return np.array([e[keys[0]] for e in entries], dtype=np.float64).reshape(-1, 1)
    return np.array(list(map(itemgetter(*keys), entries)), dtype=np.float64)


def block_column(kind: str, block: np.ndarray, j: int, entries: Sequence[Mapping[str, Any]], key: str) -> Any:
    """Column ``j`` of a :func:`number_block` as ``FLOAT``, ``CENTS_EUR`` or ``INT`` (exact for int64)."""
    values = block[:, j]
    mask = np.isnan(values)
    if kind == FLOAT:
        return pd.arrays.FloatingArray(np.where(mask, 0.0, values), mask)
    if np.abs(np.where(mask, 0.0, values)).max(initial=0.0) >= _EXACT_FLOAT_INT:
        return column(kind, [e[key] for e in entries])  # too large for floats: the exact (slower) way
    integers = np.where(mask, 0.0, values).astype(np.int64)
    if kind == INT:
        return pd.arrays.IntegerArray(integers, mask)
    if kind == CENTS_EUR:
        return pd.arrays.FloatingArray(cents_to_eur_array(integers, mask), mask)
    raise ValueError(f"a number block holds no {kind!r} column")


def build_frame(columns: Mapping[str, Any], spec: Sequence[tuple[str, Any]]) -> pd.DataFrame:
    """One DataFrame from column lists, typed column by column as ``spec`` says.

    Parameters
    ----------
    columns : mapping of str to list
        For every name of ``spec``, the column's JSON values (a list), all of the same length. A numpy or
        pandas array is taken as already typed.
    spec : sequence of (name, kind)
        Column names and kinds (see the module docstring).

    Returns
    -------
    pandas.DataFrame
        Columns as in ``spec`` with their dtypes, a fresh ``RangeIndex``; zero rows keep the dtypes.
    """
    data = {}
    for name, kind in spec:
        values = columns[name]
        typed = isinstance(values, (np.ndarray, pd.api.extensions.ExtensionArray))
        data[name] = values if typed else column(kind, values)
    length = len(next(iter(data.values()))) if data else 0
    return pd.DataFrame(data, index=pd.RangeIndex(length), copy=False)
