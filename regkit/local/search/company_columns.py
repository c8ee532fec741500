"""The filter columns of the company index as numpy arrays, and the company search's filters over them.

Position ``i`` of every array is the company with ``rowid`` ``i + 1`` in the index (see
:mod:`regkit.local.search.company_index`). Text columns are codes into their sorted distinct values
(``-1`` for null; ``int8``, ``int16`` or ``int32`` as the number of values needs), whose substrings
:class:`~regkit.local.search.company_text.TextLabels` finds for ``keywords``; dates are ``YYYYMMDD`` integers
(``-1`` for null); amounts and counts are floats (``NaN`` for null, which no range matches; a column without
any value is not stored at all); flags are booleans; the WZ 2025 codes are, per code, the sorted positions of
the companies under it. A filter costs one pass over one array, or over the positions a text query has left
(``positions``).

Everything lives in the index database (tables ``company_columns``, ``company_labels``, ``company_text``,
``company_industry``) and is read when a filter first needs it, as ``np.frombuffer`` of the stored bytes: an
index opens without reading a column. Read arrays are kept up to :data:`CACHE_BYTES` (the least recently used
one goes first); a value is looked up by SQL (``company_labels``: the coded columns' values one after another,
``id`` = the column's offset + code), so a column with a million distinct values (register numbers) is never
read whole for an ``eq`` filter.
"""

from __future__ import annotations

import contextlib
import operator
import sqlite3
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .company_rows import COLUMNS, court_key
from .company_text import TextLabels
from .query import Filter

__all__ = ["CompanyColumns", "CODED", "KEYWORDS", "DAYS", "NUMBERS", "FLAGS", "MANY_VALUES", "CACHE_BYTES", "TABLES"]

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
#: Coded columns with about one value per company: :meth:`CompanyColumns.write` reads each in a pass of its own.
MANY_VALUES = ("register_number_key", "address_key", "purpose_key")


#: Up to this many values, a filter compares the column with each (else it looks each company's value up in a table
#: of all values: one pass whatever the count, but a gather and two copies of the column).
_FEW_CODES = 4

#: Bytes of column arrays kept in memory once read (the least recently used is dropped beyond it).
CACHE_BYTES = 96 * 2**20

TABLES = """
CREATE TABLE company_columns (name TEXT PRIMARY KEY, dtype TEXT NOT NULL, data BLOB);
CREATE TABLE company_labels (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
CREATE INDEX company_labels_by_label ON company_labels (label);
CREATE TABLE company_text (
    name TEXT PRIMARY KEY, vocabulary TEXT NOT NULL, word_starts BLOB NOT NULL, offsets BLOB NOT NULL,
    postings BLOB NOT NULL);
CREATE TABLE company_industry (code TEXT PRIMARY KEY, positions BLOB NOT NULL);
"""

Connect = Callable[[], contextlib.AbstractContextManager[sqlite3.Connection]]


def _day(text: Any) -> int:
    if text is None:
        return -1
    return int(text[0:4]) * 10000 + int(text[5:7]) * 100 + int(text[8:10])


def _offsets(counts: dict[str, int]) -> dict[str, int]:
    """Where each coded column's values start in ``company_labels`` (one after another, in :data:`CODED` order)."""
    found, offset = {}, 0
    for name in CODED:
        found[name] = offset
        offset += counts.get(name, 0)
    return found


def _code_type(count: int) -> type:
    """The smallest signed integer type holding codes ``-1 .. count`` (code + 1 must not overflow)."""
    return np.int8 if count < 127 else np.int16 if count < 32767 else np.int32


class _ColumnBuilder:
    """One column of :data:`COLUMNS` filled chunk by chunk (:meth:`CompanyColumns.write`), every value converted by
    ``map`` over a C function (no Python frame per company: a million companies, 22 columns).

    The array is made only when a second value appears: a column with one value for every company (an OffeneRegister
    world has no amounts, capital, insolvencies or LEIs: half the columns) holds no memory while the others are read.
    A coded column codes its values in the order first seen, and renumbers the codes in the values' sorted order
    at the end (:meth:`array`); its sorted values are then :attr:`labels`.
    """

    def __init__(self, name: str, size: int):
        self.name = name
        self.size = size
        self.labels: list[Any] = []
        self._data: np.ndarray | None = None
        self._constant: list[Any] = []  # the one value of the rows added so far, while there is only one
        self._filled = 0
        if name in CODED:
            self._coding: defaultdict[Any, int] = defaultdict()
            self._coding.default_factory = self._next_code
            self._coding[None] = -1
            self._dtype: type = np.int32
        elif name in DAYS:
            self._dtype = np.int32
        elif name in NUMBERS:
            self._dtype = np.float64
        else:
            self._dtype = bool

    @classmethod
    def constant(cls, name: str, size: int, value: Any) -> _ColumnBuilder:
        """A column with ``value`` for every one of ``size`` companies."""
        column = cls(name, size)
        column.add(0, [value])
        column._filled = size
        return column

    def _next_code(self) -> int:
        return len(self._coding) - 1  # None holds -1: the first value gets 0

    def add(self, start: int, values: Sequence[Any]) -> None:
        """Fill positions ``start .. start + len(values)`` (the chunks in order, from 0)."""
        if self._data is None:
            if not values:
                return
            if not self._constant:
                self._constant.append(values[0])
            if _all_equal(values, self._constant[0]):
                self._filled = start + len(values)
                return
            self._data = np.empty(self.size, dtype=self._dtype)
            self._data[:start] = self._converted([self._constant[0]])[0]
        end = start + len(values)
        self._data[start:end] = self._converted(values)

    def _converted(self, values: Sequence[Any]) -> np.ndarray:
        if self.name in CODED:
            return np.fromiter(map(self._coding.__getitem__, values), np.int32, len(values))
        if self.name in DAYS:
            return np.fromiter(map(_day, values), np.int32, len(values))
        if self.name in NUMBERS:
            return np.array(values, dtype=np.float64)  # None is NaN
        return np.fromiter(map(bool, values), bool, len(values))

    def array(self) -> np.ndarray | None:
        """The column as stored (``None``: a number column without any value, not stored)."""
        if self._data is None:  # one value for every company (or none added): made now, one column at a time
            if self._filled != self.size:
                raise ValueError(f"{self._filled} values for the column {self.name} of {self.size} companies")
            value = self._constant[0] if self._constant else None
            self._data = np.full(self.size, self._converted([value])[0], dtype=self._dtype)
        if self.name in NUMBERS:
            return None if np.isnan(self._data).all() else self._data
        if self.name not in CODED:
            return self._data
        seen = np.fromiter(self._coding, dtype=object, count=len(self._coding))[1:]  # first seen first, no None
        del self._coding
        order = np.argsort(seen, kind="stable")  # the values' own order (distinct values: no ties)
        self.labels = seen[order].tolist()
        del seen
        rank = np.empty(order.size + 1, dtype=np.int64)
        rank[order] = np.arange(order.size)
        rank[-1] = -1  # code -1 (None) indexes the last entry
        return rank[self._data].astype(_code_type(order.size))


def _all_equal(values: Sequence[Any], value: Any) -> bool:
    """Whether every one of ``values`` equals ``value`` (as the coding of values compares them; NaN is NaN)."""
    if value != value:  # NaN
        return all(v != v for v in values)
    return values.count(value) == len(values)


def _fill(
    conn: sqlite3.Connection,
    size: int,
    rows: Callable[[], Iterable[Sequence[Sequence[Any]]]],
    names: tuple[str, ...],
    watched: tuple[str, ...],
    counts: dict[str, int],
    held: dict[str, list[Any]],
) -> set[str]:
    """One pass over ``rows()``: fill and store the columns ``names``; return those of ``watched`` (not filled) that
    hold no value at all."""
    builders = [(COLUMNS.index(name), _ColumnBuilder(name, size)) for name in names]
    empty = {name: COLUMNS.index(name) for name in watched}
    start = 0
    for chunk in rows():
        for index, builder in builders:
            builder.add(start, list(map(operator.itemgetter(index), chunk)))
        for name, index in list(empty.items()):
            if any(company[index] is not None for company in chunk):
                del empty[name]
        start += len(chunk)
    if start != size:
        raise ValueError(f"{start} companies' values for an index of {size} companies")
    for _, builder in builders:
        _store(conn, builder, counts, held)
    return set(empty)


def _store(
    conn: sqlite3.Connection, column: _ColumnBuilder, counts: dict[str, int], held: dict[str, list[Any]]
) -> None:
    """Store ``column``'s array; a coded column's labels are kept in ``held`` until they are written."""
    data = column.array()
    if column.name in CODED:
        counts[column.name] = len(column.labels)
        held[column.name] = column.labels
    conn.execute(
        "INSERT INTO company_columns (name, dtype, data) VALUES (?, ?, ?)",
        (column.name, "" if data is None else data.dtype.str, None if data is None else data.tobytes()),
    )


def _write_ready_labels(conn: sqlite3.Connection, held: dict[str, list[Any]], counts: dict[str, int]) -> None:
    """Write the labels in ``held`` whose coded columns before them are all counted (their ids follow those)."""
    for name in [n for n in CODED if n in held and all(before in counts for before in CODED[: CODED.index(n)])]:
        _write_labels(conn, name, held.pop(name), counts)


def _write_labels(conn: sqlite3.Connection, name: str, labels: list[Any], counts: dict[str, int]) -> None:
    """Store the labels of the coded column ``name`` after those of the coded columns before it (and the words of
    a keyword column's labels)."""
    offset = sum(counts[before] for before in CODED[: CODED.index(name)])
    conn.executemany(
        "INSERT INTO company_labels (id, label) VALUES (?, ?)", ((offset + i, label) for i, label in enumerate(labels))
    )
    if name in KEYWORDS:
        parts = TextLabels(labels).parts()
        conn.execute(
            "INSERT INTO company_text VALUES (?, ?, ?, ?, ?)",
            (
                name,
                parts["vocabulary"],
                parts["word_starts"].astype(np.int64).tobytes(),
                parts["offsets"].astype(np.int64).tobytes(),
                parts["postings"].astype(np.int32).tobytes(),
            ),
        )


class CompanyColumns:
    """The filter columns of an index database, read when first needed, and the company search's filters.

    Parameters
    ----------
    size : int
        Number of companies.
    connection : callable
        Returns a context manager lending a connection to the index database.
    label_counts : dict
        Coded column → number of its distinct values.
    cache_bytes : int
        Bytes of arrays kept once read.
    """

    def __init__(
        self, size: int, connection: Connect, label_counts: dict[str, int], cache_bytes: int = CACHE_BYTES
    ) -> None:
        self.size = size
        self.label_counts = label_counts
        self._offsets = _offsets(label_counts)
        self.cache_bytes = cache_bytes
        self._connection = connection
        self._cache: OrderedDict[str, np.ndarray | None] = OrderedDict()
        self._cached = 0
        self._lock = threading.Lock()
        self._labels: dict[str, list[Any]] = {}
        self._text: dict[str, TextLabels] = {}

    @staticmethod
    def write(
        conn: sqlite3.Connection, size: int, rows: Callable[[], Iterable[Sequence[Sequence[Any]]]]
    ) -> dict[str, int]:
        """Store every column of :data:`COLUMNS` in ``conn``. ``rows()`` gives the ``size`` companies in index
        order, in chunks: each company as its values in :data:`COLUMNS` order; it is called once per pass. The
        columns of :data:`MANY_VALUES` are read in a pass each, so that one column's distinct values are in memory
        at once (a register number per company), the others in one pass together; a column of
        :data:`MANY_VALUES` without any value in the first pass is not read again. Returns the number of distinct
        values of each coded column (kept in the index's meta)."""
        conn.executescript(TABLES)
        counts: dict[str, int] = {}
        held: dict[str, list[Any]] = {}  # labels written once the counts of the coded columns before them are known
        few = tuple(name for name in COLUMNS if name not in MANY_VALUES)
        empty = _fill(conn, size, rows, few, MANY_VALUES, counts, held)
        for name in empty:
            _store(conn, _ColumnBuilder.constant(name, size, None), counts, held)
        _write_ready_labels(conn, held, counts)
        for name in MANY_VALUES:
            if name not in empty:
                _fill(conn, size, rows, (name,), (), counts, held)
                _write_ready_labels(conn, held, counts)  # its labels at once: one column's many values held
        return counts

    @staticmethod
    def write_industry(conn: sqlite3.Connection, rows: Iterable[tuple[int, str]]) -> None:
        """Store the WZ 2025 postings: ``rows`` are ``(position, codes separated by spaces)`` in index order."""
        postings: dict[str, list[int]] = {}
        for position, codes in rows:
            for code in codes.split():
                postings.setdefault(code, []).append(position)
        conn.executemany(
            "INSERT INTO company_industry (code, positions) VALUES (?, ?)",
            ((code, np.asarray(found, dtype=np.int32).tobytes()) for code, found in sorted(postings.items())),
        )

    def array(self, name: str) -> np.ndarray | None:
        """The array of column ``name`` (``None``: a number column no company has a value in)."""
        with self._lock:
            if name in self._cache:
                self._cache.move_to_end(name)
                return self._cache[name]
        with self._connection() as conn:
            dtype, data = conn.execute("SELECT dtype, data FROM company_columns WHERE name = ?", (name,)).fetchone()
        array = None if data is None else np.frombuffer(data, dtype=np.dtype(dtype))
        with self._lock:
            if name not in self._cache:
                self._cache[name] = array
                self._cached += 0 if array is None else array.nbytes
                while self._cached > self.cache_bytes and len(self._cache) > 1:
                    _, dropped = self._cache.popitem(last=False)
                    self._cached -= 0 if dropped is None else dropped.nbytes
        return array

    def labels(self, name: str) -> list[Any]:
        """Every distinct value of a coded column, sorted (code = position); read once when first asked for."""
        found = self._labels.get(name)
        if found is None:
            with self._connection() as conn:
                low, high = self._range(name)
                rows = conn.execute(
                    "SELECT label FROM company_labels WHERE id >= ? AND id < ? ORDER BY id", (low, high)
                )
                found = self._labels[name] = [label for (label,) in rows]
        return found

    def codes(self, name: str, values: Iterable[Any]) -> list[int]:
        """The codes of those ``values`` that column ``name`` holds."""
        wanted = list(dict.fromkeys(values))
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        low, high = self._range(name)
        with self._connection() as conn:
            sql = f"SELECT id FROM company_labels WHERE label IN ({marks}) AND id >= ? AND id < ?"
            return [found - low for (found,) in conn.execute(sql, (*wanted, low, high))]

    def text(self, name: str) -> TextLabels:
        """The substring finder of a ``keywords`` column (its word postings read once)."""
        found = self._text.get(name)
        if found is None:
            with self._connection() as conn:
                row = conn.execute(
                    "SELECT vocabulary, word_starts, offsets, postings FROM company_text WHERE name = ?", (name,)
                ).fetchone()
            parts = {
                "vocabulary": row[0],
                "word_starts": np.frombuffer(row[1], dtype=np.int64),
                "offsets": np.frombuffer(row[2], dtype=np.int64),
                "postings": np.frombuffer(row[3], dtype=np.int32),
            }
            found = self._text[name] = TextLabels.from_parts(
                self.label_counts[name], parts, lambda codes: self._fetch(name, codes), lambda: self.labels(name)
            )
        return found

    def _fetch(self, name: str, codes: np.ndarray) -> list[str]:
        """The labels of ``codes`` (ascending) of column ``name``."""
        found: dict[int, str] = {}
        low, _ = self._range(name)
        listed = codes.tolist()
        with self._connection() as conn:
            for start in range(0, len(listed), 10_000):
                chunk = ", ".join(str(low + int(c)) for c in listed[start : start + 10_000])
                found.update(conn.execute(f"SELECT id, label FROM company_labels WHERE id IN ({chunk})").fetchall())
        return [found[low + c] for c in listed]

    def _range(self, name: str) -> tuple[int, int]:
        """The ids of column ``name``'s values in ``company_labels``."""
        return self._offsets[name], self._offsets[name] + self.label_counts[name]

    def industry(self, code: str) -> np.ndarray:
        """Sorted positions of the companies with the WZ 2025 ``code`` or one below it."""
        with self._connection() as conn:
            row = conn.execute("SELECT positions FROM company_industry WHERE code = ?", (code,)).fetchone()
        return np.empty(0, dtype=np.int32) if row is None else np.frombuffer(row[0], dtype=np.int32)

    def mask(self, filters: Iterable[Filter], positions: np.ndarray | None = None) -> np.ndarray | None:
        """Which companies match every filter: a boolean array over all companies, or over ``positions`` when
        given (then entry ``j`` is about the company at ``positions[j]``); ``None`` when there is no filter.

        Each filter is a :class:`~regkit.local.search.query.Filter` as
        :func:`~regkit.local.search.company_request.parse_company_search` builds it; null never matches.
        """
        result: np.ndarray | None = None
        for item in dict.fromkeys(filters):  # a filter given twice selects the same companies: evaluated once
            selected = self._select(item, positions)
            if result is None:
                result = selected
            else:
                np.logical_and(result, selected, out=result)
        return result

    def _none(self, positions: np.ndarray | None) -> np.ndarray:
        return np.zeros(self.size if positions is None else positions.size, dtype=bool)

    def _column(self, column: str, positions: np.ndarray | None) -> np.ndarray | None:
        array = self.array(column)
        return array if array is None or positions is None else array[positions]

    def _lookup(self, column: str, codes: Iterable[int], positions: np.ndarray | None) -> np.ndarray:
        chosen = np.unique(np.fromiter(codes, dtype=np.int64))
        if chosen.size <= _FEW_CODES:  # a comparison per code: one pass each, no table of every value
            array = self._column(column, positions)
            assert array is not None  # coded columns are always stored
            found = self._none(positions)
            for code in chosen.tolist():
                found |= array == code
            return found
        wanted = np.zeros(self.label_counts[column], dtype=bool)
        wanted[chosen] = True
        return self._where(column, wanted, positions)

    def _where(self, column: str, wanted: np.ndarray, positions: np.ndarray | None) -> np.ndarray:
        """Companies whose coded ``column`` has a value set in ``wanted`` (a boolean array over its values)."""
        if not wanted.any():
            return self._none(positions)
        table = np.concatenate(([False], wanted))  # code -1 (null) never matches
        array = self._column(column, positions)
        assert array is not None  # coded columns are always stored
        return table[array.astype(np.int32) + 1]

    def _select(self, item: Filter, positions: np.ndarray | None) -> np.ndarray:
        column, kind, operand = item.column, item.kind, item.operand
        if kind == "industry":
            found = np.zeros(self.size, dtype=bool)
            for code in operand:
                found[self.industry(code)] = True
            return found if positions is None else found[positions]
        if kind in ("eq", "in") and column in CODED:
            wanted = (operand,) if kind == "eq" else operand
            return self._lookup(column, self.codes(column, wanted), positions)
        if kind == "court_eq":
            keys = set(operand)
            return self._lookup(
                column, (i for i, label in enumerate(self.labels(column)) if court_key(label) in keys), positions
            )
        if kind == "contains_all":
            return self._where(column, self.text(column).containing_all(operand), positions)
        array = self._column(column, positions)
        if array is None:
            return self._none(positions)  # a number no company has: no range matches
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
