"""The filter columns of the company index as numpy arrays, and the company search's filters over them.

Position ``i`` of every array is the company with ``rowid`` ``i + 1`` in the index (see
:mod:`regkit.local.search.company_index`). Text columns are codes into their sorted distinct values
(``-1`` for null), whose substrings :class:`~regkit.local.search.company_text.TextLabels` finds for ``keywords``; dates are ``YYYYMMDD``
integers (``-1`` for null); amounts and counts are floats (``NaN`` for null, which no range matches); flags
are booleans; the WZ 2025 codes are, per code, the sorted positions of the companies under it. A filter costs
one pass over one array, or over the positions a text query has left (``positions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .company_rows import COLUMNS, CompanyRow, court_key
from .company_text import TextLabels
from .query import Filter

__all__ = ["CompanyColumns", "CODED", "KEYWORDS", "DAYS", "NUMBERS", "FLAGS"]

#: Columns kept as codes into their distinct values.
CODED = COLUMNS[: COLUMNS.index("incorporated_at")]
#: Coded columns that ``keywords`` filter (their values are searchable for substrings).
KEYWORDS = ("court_key", "city_key", "zip", "address_key", "purpose_key")
#: Columns kept as ``YYYYMMDD`` integers.
DAYS = ("incorporated_at",)
#: Columns kept as floats (EUR for the capital, cents for the indicators, a count for employees).
NUMBERS = COLUMNS[COLUMNS.index("capital_eur") : COLUMNS.index("had_insolvency")]
#: Columns kept as booleans.
FLAGS = COLUMNS[COLUMNS.index("had_insolvency") :]


def _day(text: Any) -> int:
    if text is None:
        return -1
    return int(text[0:4]) * 10000 + int(text[5:7]) * 100 + int(text[8:10])


@dataclass
class CompanyColumns:
    """Arrays of the filter columns, and the evaluation of the company search's filters over them.

    Attributes
    ----------
    size : int
        Number of companies.
    arrays : dict
        Column name → array of ``size`` entries (codes, days, floats or booleans; see the module docstring).
    labels : dict
        Coded column → its distinct values, sorted (code = position).
    industry : dict
        WZ 2025 code → sorted positions of the companies with that code or one below it.
    """

    size: int
    arrays: dict[str, np.ndarray]
    labels: dict[str, list[Any]]
    industry: dict[str, np.ndarray]

    def __post_init__(self) -> None:
        self._codes = {name: {label: i for i, label in enumerate(values)} for name, values in self.labels.items()}
        self.text = {name: TextLabels(self.labels[name]) for name in KEYWORDS if name in self.labels}

    @classmethod
    def build(cls, rows: Sequence[CompanyRow]) -> CompanyColumns:
        """The columns of ``rows``, in index order (``rows[i]`` has ``rowid`` ``i + 1``)."""
        n = len(rows)
        arrays: dict[str, np.ndarray] = {}
        labels: dict[str, list[Any]] = {}
        for index, name in enumerate(COLUMNS):
            values = [row.values[index] for row in rows]
            if name in CODED:
                labels[name] = sorted({v for v in values if v is not None})
                coding = {label: i for i, label in enumerate(labels[name])}
                arrays[name] = np.fromiter((-1 if v is None else coding[v] for v in values), dtype=np.int32, count=n)
            elif name in DAYS:
                arrays[name] = np.fromiter((_day(v) for v in values), dtype=np.int32, count=n)
            elif name in NUMBERS:
                arrays[name] = np.fromiter((np.nan if v is None else v for v in values), dtype=np.float64, count=n)
            else:
                arrays[name] = np.fromiter((bool(v) for v in values), dtype=bool, count=n)
        postings: dict[str, list[int]] = {}
        for position, row in enumerate(rows):
            for code in row.industry_codes:
                postings.setdefault(code, []).append(position)
        industry = {code: np.asarray(found, dtype=np.int32) for code, found in postings.items()}
        return cls(n, arrays, labels, industry)

    def mask(self, filters: Iterable[Filter], positions: np.ndarray | None = None) -> np.ndarray | None:
        """Which companies match every filter: a boolean array over all companies, or over ``positions`` when
        given (then entry ``j`` is about the company at ``positions[j]``); ``None`` when there is no filter.

        Each filter is a :class:`~regkit.local.search.query.Filter` as
        :func:`~regkit.local.search.company_request.parse_company_search` builds it; null never matches.
        """
        result: np.ndarray | None = None
        for item in filters:
            selected = self._select(item, positions)
            if result is None:
                result = selected
            else:
                np.logical_and(result, selected, out=result)
        return result

    def _lookup(self, column: str, codes: Iterable[int], positions: np.ndarray | None) -> np.ndarray:
        wanted = np.zeros(len(self.labels[column]), dtype=bool)
        wanted[np.fromiter(codes, dtype=np.int64)] = True
        return self._where(column, wanted, positions)

    def _where(self, column: str, wanted: np.ndarray, positions: np.ndarray | None) -> np.ndarray:
        """Companies whose coded ``column`` has a value set in ``wanted`` (a boolean array over its values)."""
        table = np.concatenate(([False], wanted))  # code -1 (null) never matches
        array = self.arrays[column] if positions is None else self.arrays[column][positions]
        return table[array + 1]

    def _select(self, item: Filter, positions: np.ndarray | None) -> np.ndarray:
        column, kind, operand = item.column, item.kind, item.operand
        if kind == "industry":
            found = np.zeros(self.size, dtype=bool)
            for code in operand:
                found[self.industry.get(code, np.empty(0, dtype=np.int32))] = True
            return found if positions is None else found[positions]
        if kind in ("eq", "in") and column in self._codes:
            wanted = (operand,) if kind == "eq" else operand
            codes = self._codes[column]
            return self._lookup(column, (codes[v] for v in wanted if v in codes), positions)
        if kind == "court_eq":
            keys = set(operand)
            return self._lookup(
                column, (i for i, label in enumerate(self.labels[column]) if court_key(label) in keys), positions
            )
        if kind == "contains_all":
            return self._where(column, self.text[column].containing_all(operand), positions)
        array = self.arrays[column] if positions is None else self.arrays[column][positions]
        if kind == "flag":
            return array == operand
        if column in DAYS:
            day = _day(operand)
            if kind == "eq":
                return array == day
            return array >= day if kind == "min" else (array >= 0) & (array <= day)
        if kind == "min":
            return array >= operand  # NaN (null) compares false
        if kind == "max":
            return array <= operand
        raise ValueError(f"unknown filter kind {kind!r} on {column!r}")  # pragma: no cover - parser builds the above
