"""The filterable columns of the insolvency index as numpy arrays, for filters evaluated in bulk.

Position ``i`` of every array is the proceeding with ``rowid`` ``i + 1``, and rowids follow the result order
(``last_event_at`` descending, nulls last, then ``id``; see :func:`regkit.local.search.build.build_index`). A set
of filters therefore becomes one boolean mask whose set positions, in order, are the matching proceedings
in result order: the count is ``mask.sum()`` and a page is a slice of ``np.flatnonzero(mask)``. Each filter
costs one pass over one array (about a millisecond per million proceedings), whatever it selects.

Text columns (``court_key``, ``city_key``, ``company_id``, ``person_id`` and the enumerations) are stored as
codes into a sorted dictionary of their distinct values (``-1`` for null); dates as ``YYYYMMDD`` integers
(``-1`` for null); ``grounds_mask`` as the bit mask itself. The arrays are kept in the index database
(table ``search_columns``) so an index file opens without reading every row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ColumnStore", "CATEGORICAL", "DATES"]

#: Columns stored as dictionary codes.
CATEGORICAL = (
    "current_status",
    "proceeding_kind",
    "administration_kind",
    "debtor_kind",
    "debtor_legal_form",
    "has_open_insolvency",
    "court_key",
    "city_key",
    "company_id",
    "person_id",
)
#: Columns stored as ``YYYYMMDD`` integers.
DATES = ("opened_at", "closed_at", "last_event_at", "claims_filing_deadline")
_COLUMNS = (*CATEGORICAL, *DATES, "grounds_mask")
_TABLE = "CREATE TABLE search_columns (name TEXT PRIMARY KEY, dtype TEXT NOT NULL, data BLOB NOT NULL, labels TEXT)"


def _day(text: Any) -> int:
    """``YYYY-MM-DD`` as ``YYYYMMDD`` (``-1`` for null); the integers order as the ISO texts do."""
    if text is None:
        return -1
    return int(text[0:4]) * 10000 + int(text[5:7]) * 100 + int(text[8:10])


def _encode(values: Sequence[Any]) -> tuple[np.ndarray, list[Any]]:
    labels = sorted({v for v in values if v is not None})
    code = {label: i for i, label in enumerate(labels)}
    codes = np.fromiter((code.get(v, -1) if v is not None else -1 for v in values), dtype=np.int32, count=len(values))
    return codes, labels


@dataclass
class ColumnStore:
    """Arrays of the filterable columns, and the evaluation of filters over them.

    Attributes
    ----------
    size : int
        Number of proceedings.
    arrays : dict
        Column name → array of ``size`` entries (read-only).
    labels : dict
        Dictionary-coded column name → its sorted distinct values (code = position).
    """

    size: int
    arrays: dict[str, np.ndarray]
    labels: dict[str, list[Any]]

    def __post_init__(self) -> None:
        self._codes = {name: {label: i for i, label in enumerate(values)} for name, values in self.labels.items()}

    @classmethod
    def build(cls, conn: sqlite3.Connection) -> ColumnStore:
        """Read the columns of ``proceedings`` in rowid order (rowids must be ``1..n``)."""
        rows = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM proceedings ORDER BY rowid").fetchall()
        columns = list(zip(*rows)) if rows else [() for _ in _COLUMNS]
        arrays: dict[str, np.ndarray] = {}
        labels: dict[str, list[Any]] = {}
        for name, values in zip(_COLUMNS, columns):
            if name in DATES:
                arrays[name] = np.fromiter((_day(v) for v in values), dtype=np.int32, count=len(values))
            elif name == "grounds_mask":
                arrays[name] = np.fromiter((v or 0 for v in values), dtype=np.int16, count=len(values))
            else:
                arrays[name], labels[name] = _encode(values)
        return cls(len(rows), arrays, labels)

    def save(self, conn: sqlite3.Connection) -> None:
        """Store the arrays in ``conn`` (table ``search_columns``)."""
        conn.execute(_TABLE)
        conn.executemany(
            "INSERT INTO search_columns (name, dtype, data, labels) VALUES (?, ?, ?, ?)",
            [
                (name, array.dtype.str, array.tobytes(), json.dumps(self.labels[name]) if name in self.labels else None)
                for name, array in self.arrays.items()
            ],
        )

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> ColumnStore:
        """Read the arrays stored by :meth:`save`."""
        arrays: dict[str, np.ndarray] = {}
        labels: dict[str, list[Any]] = {}
        for name, dtype, data, text in conn.execute("SELECT name, dtype, data, labels FROM search_columns"):
            arrays[name] = np.frombuffer(data, dtype=np.dtype(dtype))
            if text is not None:
                labels[name] = json.loads(text)
        size = len(next(iter(arrays.values()))) if arrays else 0
        return cls(size, arrays, labels)

    def mask(self, filters: Iterable[Any]) -> np.ndarray | None:
        """The positions matching every filter (a boolean array), or ``None`` when there is no filter.

        Each filter is a :class:`~regkit.local.search.query.Filter` as :mod:`regkit.local.search.request` builds
        it; the semantics are those of SQL over the ``proceedings`` table (null never matches).
        """
        result: np.ndarray | None = None
        for item in filters:
            selected = self._select(item.column, item.kind, item.operand)
            if result is None:
                result = selected
            else:
                np.logical_and(result, selected, out=result)
        return result

    def _lookup(self, column: str, wanted: Iterable[Any]) -> np.ndarray:
        """Rows whose coded ``column`` is one of ``wanted``: a lookup table indexed by code + 1."""
        table = np.zeros(len(self.labels[column]) + 1, dtype=bool)
        codes = self._codes[column]
        for value in wanted:
            code = codes.get(value)
            if code is not None:
                table[code + 1] = True
        return table[self.arrays[column] + 1]

    def _select(self, column: str, kind: str, operand: Any) -> np.ndarray:
        array = self.arrays[column]
        if kind == "mask":
            return (array & operand) != 0
        if column in DATES:
            day = _day(operand)
            if kind == "eq":
                return array == day
            if kind == "min":
                return array >= day
            if kind == "max":
                return (array >= 0) & (array <= day)
        elif kind == "eq":
            return self._lookup(column, (operand,))
        elif kind == "in":
            return self._lookup(column, operand)
        elif kind == "contains_all":
            labels = self.labels[column]
            return self._lookup(column, (v for v in labels if isinstance(v, str) and all(k in v for k in operand)))
        raise ValueError(f"unknown filter kind {kind!r} on {column!r}")  # pragma: no cover - parser builds the above
