"""Typed DataFrame columns for the graph's frames (the dtypes ``regkit.frames`` uses as well).

Dates become ``datetime64[us]`` (``None`` → NaT), strings pandas' ``str`` dtype (``None`` → NaN),
counts ``int64``. pandas and numpy are imported here, when a frame is asked for.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["DATE_DTYPE", "STR_DTYPE", "date_column", "str_column", "int_column", "frame", "to_python"]

DATE_DTYPE = np.dtype("datetime64[us]")
STR_DTYPE = "str"


_EPOCH = _dt.date(1970, 1, 1).toordinal()
_NAT = np.iinfo(np.int64).min  # the integer behind NaT


def date_column(values: Sequence[_dt.date | None]) -> np.ndarray:
    """``datetime.date`` or ``None`` values → a ``datetime64[us]`` array (``None`` → NaT)."""
    days = np.fromiter(
        (_NAT if v is None else v.toordinal() - _EPOCH for v in values), dtype=np.int64, count=len(values)
    )
    return days.view("datetime64[D]").astype(DATE_DTYPE)


def str_column(values: Sequence[str | None]) -> pd.Series:
    """Strings or ``None`` → a ``str`` column (missing is NaN)."""
    return pd.Series(np.array(values, dtype=object), dtype=STR_DTYPE)


def int_column(values: Sequence[int]) -> np.ndarray:
    """Integers → an ``int64`` array."""
    return np.array(values, dtype=np.int64)


def frame(columns: dict[str, Any]) -> pd.DataFrame:
    """A DataFrame from equally long column arrays (Series must have a default RangeIndex)."""
    return pd.DataFrame(columns)


def to_python(value: Any, is_date: bool = False) -> Any:
    """A DataFrame cell back to a graph value: NaN/NaT/NA → ``None``, numpy scalars → Python,
    and with ``is_date`` timestamps and ISO strings → :class:`datetime.date`."""
    if value is None or (np.ndim(value) == 0 and not isinstance(value, str) and pd.isna(value)):
        return None
    if is_date:
        if isinstance(value, str):
            return _dt.date.fromisoformat(value[:10])
        if isinstance(value, np.datetime64):
            value = pd.Timestamp(value)
        if isinstance(value, _dt.datetime):
            return value.date()
        return value
    if isinstance(value, np.generic):
        return value.item()
    return value
