"""The company search index: SQLite FTS5 over names, numpy over filters, ranked by where the words match.

Companies are numbered ``1..n`` (``rowid``) in the order of their current name's length, then their id, so
that within each rank the rowid order is the result order. The FTS5 table ``companies_fts`` has two columns,
``name`` (the current name) and ``other`` (former names, register number, city), folded as the insolvency
search folds (:func:`~regkit.local.search.query.fold`); a query's words must all match, the last as a prefix
(:func:`~regkit.local.search.query.phrases_of`). A match with every word in the current name ranks first
(FTS5 column filter ``name : (…)``), the other matches after it; without a query the order is the company id
(a permutation kept as an array).

The vocabulary (:class:`~regkit.local.search.company_terms.CompanyTerms`) plans the text: common words and
prefixes are bitmaps, the other words are matched by FTS5 (one read of their matches, then the bitmaps and the
filters pick from those). Filters are :class:`~regkit.local.search.company_columns.CompanyColumns`. Totals are
always exact. An autocomplete reads FTS5 in rowid order and stops after its few results.

Every search borrows a read-only connection from a pool; the index lives in a shared in-memory database.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from .company_columns import CompanyColumns
from .company_rows import CompanyRow
from .company_terms import DENSE_MIN, CompanyPlan, CompanyTerms, in_column, rowids
from .query import SearchRequest, phrases_of

__all__ = ["CompanyIndex"]

_TABLES = """
CREATE TABLE companies (rowid INTEGER PRIMARY KEY, result TEXT NOT NULL);
CREATE VIRTUAL TABLE companies_fts USING fts5(
    name, other, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4');
"""
_WALK = "SELECT rowid FROM companies_fts WHERE companies_fts MATCH ? ORDER BY rowid"


def _reader(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    return conn


def _page(first: np.ndarray, rest: np.ndarray, offset: int, limit: int) -> np.ndarray:
    """Entries ``offset:offset + limit`` of ``first`` followed by ``rest``."""
    head = first[offset : offset + limit]
    start = max(0, offset - first.size)
    tail = rest[start : start + limit - head.size]
    return np.concatenate((head, tail))


class CompanyIndex:
    """Company search and autocomplete; safe to share between threads.

    Build one with :meth:`in_memory`.

    Attributes
    ----------
    size : int
        Number of companies.
    columns : CompanyColumns
        The filter columns.
    """

    def __init__(
        self,
        uri: str,
        keep_alive: sqlite3.Connection,
        columns: CompanyColumns,
        id_order: np.ndarray,
        terms: CompanyTerms,
    ):
        self.size = columns.size
        self.columns = columns
        self._uri = uri
        self._keep_alive = keep_alive
        self._id_order = id_order
        self.terms = terms
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    @classmethod
    def in_memory(cls, rows: Iterable[CompanyRow], *, dense_min: int = DENSE_MIN) -> CompanyIndex:
        """Index ``rows`` (see :func:`~regkit.local.search.company_rows.company_row`) in a shared in-memory
        database. ``dense_min`` is the fewest companies a word needs for bitmaps (tests lower it)."""
        ordered = sorted(rows, key=lambda row: (row.name_length, row.company_id))
        uri = f"file:/regkit-companies-{uuid.uuid4().hex}?vfs=memdb"
        writer = sqlite3.connect(uri, uri=True, check_same_thread=False)
        writer.execute("PRAGMA temp_store=MEMORY")
        writer.executescript(_TABLES)
        with writer:
            writer.executemany(
                "INSERT INTO companies (rowid, result) VALUES (?, ?)", ((i, r.result) for i, r in enumerate(ordered, 1))
            )
            writer.executemany(
                "INSERT INTO companies_fts (rowid, name, other) VALUES (?, ?, ?)",
                ((i, r.name, r.other) for i, r in enumerate(ordered, 1)),
            )
            writer.execute("INSERT INTO companies_fts (companies_fts) VALUES ('optimize')")
        columns = CompanyColumns.build(ordered)
        id_order = np.array(sorted(range(len(ordered)), key=lambda i: ordered[i].company_id), dtype=np.int64)
        return cls(uri, writer, columns, id_order, CompanyTerms.build(writer, len(ordered), dense_min))

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a read-only connection (a new one when every pooled one is in use)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = _reader(self._uri)
        try:
            yield conn
        finally:
            with self._lock:
                self._idle.append(conn)

    def close(self) -> None:
        """Close the pooled connections and the index."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        self._keep_alive.close()

    def search(self, request: SearchRequest) -> tuple[list[dict[str, Any]], int]:
        """One page of results, best match first, and the total number of matches."""
        offset, limit = (request.page - 1) * request.per_page, request.per_page
        phrases = phrases_of(request.query)
        if not phrases:
            return self._by_id(request, offset, limit)
        plan = self.terms.plan(phrases)
        if plan.empty:
            return [], 0
        with self.connection() as conn:
            first, rest = self._matches(conn, plan, request)
            total = first.size + rest.size
            wanted = _page(first, rest, offset, limit) if offset < total else np.empty(0, dtype=np.int64)
            return self._results(conn, wanted), total

    def autocomplete(self, query: str, limit: int) -> list[dict[str, Any]]:
        """The first ``limit`` results of a search for ``query`` without filters (no total is counted)."""
        plan = self.terms.plan(phrases_of(query))
        if plan.empty:
            return []
        with self.connection() as conn:
            if not plan.phrases:
                first, rest = self._matches(conn, plan, SearchRequest())
                return self._results(conn, _page(first, rest, 0, limit))
            expression = plan.expression
            found = self._walk(conn, in_column(expression, 0), self.terms.test(conn, plan, 0), limit, set())
            if len(found) < limit:
                found += self._walk(conn, expression, self.terms.test(conn, plan, 1), limit - len(found), set(found))
            return self._results(conn, np.array(found, dtype=np.int64))

    def _matches(
        self, conn: sqlite3.Connection, plan: CompanyPlan, request: SearchRequest
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rowids, ascending, of the matches with every word in the current name (``first``) and of the other
        matches (``rest``), filters applied."""
        if not plan.phrases:
            named, every = self.terms.mask(conn, plan, 0), self.terms.mask(conn, plan, 1)
            selected = self.columns.mask(request.filters)
            if selected is not None:
                every &= selected
            named &= every
            return np.flatnonzero(named) + 1, np.flatnonzero(every & ~named) + 1
        expression = plan.expression
        every = rowids(conn, expression)
        every = every[self.terms.member(conn, plan, every, 1)]
        if request.filters and every.size:
            every = every[self.columns.mask(request.filters, every - 1)]
        if every.size == 0:
            return every, every
        named = rowids(conn, in_column(expression, 0))
        named = named[self.terms.member(conn, plan, named, 0)]
        in_name = np.isin(every, named, assume_unique=True)
        return every[in_name], every[~in_name]

    def _walk(
        self, conn: sqlite3.Connection, expression: str, test: Callable[[int], bool], limit: int, skip: set[int]
    ) -> list[int]:
        """The first ``limit`` rowids matching ``expression`` that pass ``test``, not in ``skip``; FTS5 reads in
        rowid order and stops there."""
        found: list[int] = []
        cursor = conn.execute(_WALK, (expression,))
        try:
            for (rowid,) in cursor:
                if rowid in skip or not test(rowid):
                    continue
                found.append(rowid)
                if len(found) >= limit:
                    break
        finally:
            cursor.close()
        return found

    def _by_id(self, request: SearchRequest, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """A search without text: the filtered companies in id order."""
        selected = self.columns.mask(request.filters)
        chosen = self._id_order if selected is None else self._id_order[selected[self._id_order]]
        total = int(chosen.size)
        with self.connection() as conn:
            return self._results(conn, chosen[offset : offset + limit] + 1), total

    def _results(self, conn: sqlite3.Connection, rowids: np.ndarray) -> list[dict[str, Any]]:
        """The stored results of ``rowids``, in that order."""
        if rowids.size == 0:
            return []
        listed = ", ".join(str(int(r)) for r in rowids)
        found = dict(conn.execute(f"SELECT rowid, result FROM companies WHERE rowid IN ({listed})").fetchall())
        return [json.loads(found[int(r)]) for r in rowids]
