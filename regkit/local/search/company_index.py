"""The company search index: SQLite FTS5 over names, numpy over filters, ranked by where the words match.

Companies are numbered ``1..n`` (``rowid``) in the order of their current name's length, then their id, so
that within each rank the rowid order is the result order. The FTS5 table ``companies_fts`` has two columns,
``name`` (the current name) and ``other`` (former names, register number, city), folded as the insolvency
search folds (:func:`~regkit.local.search.query.fold`); a query's words must all match, the last as a prefix
(:func:`~regkit.local.search.query.phrases_of`). A match with every word in the current name ranks first
(FTS5 column filter ``name : (…)``), the other matches after it; without a query the order is the company id
(a permutation kept as an array). A result is stored as JSON compressed with a dictionary trained on the first results
(:class:`~regkit.local.record_codec.RecordCodec`; kept in ``index_meta``).

The vocabulary (:class:`~regkit.local.search.company_terms.CompanyTerms`) plans the text: common words and
prefixes are bitmaps, the other words are matched by FTS5 (one read of their matches, then the bitmaps and the
filters pick from those). Filters are :class:`~regkit.local.search.company_columns.CompanyColumns`. Totals are
always exact. An autocomplete reads FTS5 in rowid order and stops after its few results.

The index is one SQLite file, written once by :meth:`CompanyIndex.build` (rows streamed: staged in a temporary
table, numbered in result order by SQL, so a million companies are never all in Python at once) under a
temporary name and renamed into place, and opened by :meth:`CompanyIndex.open`: read-only, a page or two read
(the counts and the keys with bitmaps); the columns, bitmaps and words are read when a search needs them
(:mod:`~regkit.local.search.company_columns`, :mod:`~regkit.local.search.company_terms`). Every search borrows a
read-only connection from a pool (one per concurrent search). :meth:`CompanyIndex.in_memory` writes the same
tables into a shared in-memory database (tests, and worlds not yet served from files).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import operator
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..json_lines import dump_line_bytes, load_line
from ..record_codec import RecordCodec
from .company_columns import TABLES as COLUMN_TABLES
from .company_columns import CompanyColumns
from .company_rows import CompanyRow
from .company_terms import DENSE_MIN, CompanyPlan, CompanyTerms, in_column, rowids
from .index_file import META_TABLE, ConnectionPool, connect, open_reader, read_meta, writing
from .query import SearchRequest, phrases_of

__all__ = ["CompanyIndex", "CompanyRowStage", "FORMAT"]

#: Format version of the index file (``index_meta.format``); an index of another version is refused.
FORMAT = 5
_KIND = "companies"
_TABLES = """
CREATE TABLE companies (rowid INTEGER PRIMARY KEY, result BLOB NOT NULL);
CREATE VIRTUAL TABLE companies_fts USING fts5(
    name, other, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4');
"""
_ORDER_TABLE = "CREATE TABLE company_order (name TEXT PRIMARY KEY, data BLOB NOT NULL)"
#: The tables :func:`_write_columns` fills (copied from the scratch file of a threaded build).
_COLUMN_TABLE_NAMES = ("company_columns", "company_labels", "company_text", "company_industry", "company_order")
#: A staged row: the text and result, and the filter values packed as one JSON array (``filter_values``, in
#: :data:`~regkit.local.search.company_rows.COLUMNS` order): binding 22 parameters per row took the mapping
#: processes of an import more than twice as long as binding one, and the columns are read in a few passes anyway.
_STAGED = ("company_id", "name_length", "result", "name", "other", "industry", "filter_values")
_STAGE_COLUMNS = f"(line INTEGER NOT NULL, {', '.join(_STAGED)})"
#: Each staged row's company id and line again, narrow: repeated ids are looked for here, not in the wide rows.
_IDS_COLUMNS = "(company_id TEXT NOT NULL, line INTEGER NOT NULL)"
_STAGE_INSERT = f"INSERT INTO {{table}} VALUES ({', '.join('?' * (len(_STAGED) + 1))})"
_WALK = "SELECT rowid FROM companies_fts WHERE companies_fts MATCH ? ORDER BY rowid"
_CHUNK = 20_000
_first = operator.itemgetter(0)
#: Stage files attached at once by :meth:`CompanyIndex.build_staged` (SQLite's limit is 10).
_ATTACHED = 8
#: Entries of the id order a search without text reads at a time.
_ORDER_CHUNK = 1 << 16
#: FTS5's in-memory buffer of new entries while building (the default is 1 MiB: more, smaller segments to merge).
_FTS_HASH_BYTES = 16 << 20


def _staged_values(line: int, row: CompanyRow) -> tuple[Any, ...]:
    """``row`` as a row of the ``staged`` table (its result as UTF-8 JSON, not compressed yet; its filter values as
    one JSON array)."""
    return (
        line,
        row.company_id,
        row.name_length,
        row.result.encode("utf-8"),
        row.name,
        row.other,
        " ".join(row.industry_codes),
        dump_line_bytes(row.values),
    )


class CompanyRowStage:
    """Index rows staged in an SQLite file of their own, for :meth:`CompanyIndex.build_staged` to index later.

    Several processes may each write their own stage (the OffeneRegister import's mapping workers do, while they
    map); the index is then built from all of them at once. Every row carries the source ``line`` it came from:
    of several rows with one company id, the index keeps the one of the smallest line (as the import's world
    files keep the first record of an id). Each :meth:`add` is committed before it returns, so a process killed
    later loses nothing it added.

    Parameters
    ----------
    path : path
        The stage file (created if missing, appended to if not).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.fspath(path)
        self._conn = sqlite3.connect(self.path, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=OFF")
        self._conn.execute("PRAGMA synchronous=OFF")
        self._conn.execute(f"CREATE TABLE IF NOT EXISTS staged {_STAGE_COLUMNS}")
        self._conn.execute(f"CREATE TABLE IF NOT EXISTS ids {_IDS_COLUMNS}")
        self._insert = _STAGE_INSERT.format(table="staged")

    def add(self, rows: Iterable[tuple[int, CompanyRow]]) -> None:
        """Stage ``rows`` (each ``(source line, row)``) and commit them."""
        rows = list(rows)
        self._conn.execute("BEGIN")
        self._conn.executemany(self._insert, (_staged_values(line, row) for line, row in rows))
        self._conn.executemany("INSERT INTO ids VALUES (?, ?)", ((row.company_id, line) for line, row in rows))
        self._conn.execute("COMMIT")

    def close(self) -> None:
        """Close the stage's connection."""
        self._conn.close()


def _write(conn: sqlite3.Connection, rows: Iterable[CompanyRow], dense_min: int) -> None:
    """Write every table of the index into ``conn`` (which holds ``index_meta``), streaming ``rows``."""
    conn.execute(f"CREATE TEMP TABLE staged {_STAGE_COLUMNS}")
    insert = _STAGE_INSERT.format(table="temp.staged")
    numbered = enumerate(rows)
    while chunk := list(itertools.islice(numbered, _CHUNK)):
        conn.executemany(insert, (_staged_values(line, row) for line, row in chunk))
    _index_staged(conn, ["temp.staged"], dense_min)
    conn.execute("DROP TABLE temp.staged")


def _first_of_each_id(conn: sqlite3.Connection, ids: list[str]) -> str:
    """A ``WHERE`` clause that keeps, of several staged rows with one company id, the first line's, found in the
    narrow tables ``ids`` (the rows it drops are listed in ``temp.dropped``); empty when every id is once."""
    found = " UNION ALL ".join(f"SELECT company_id, line FROM {table}" for table in ids)
    conn.execute("CREATE TEMP TABLE dropped (company_id TEXT, line INTEGER, PRIMARY KEY (company_id, line))")
    conn.execute(
        f"INSERT INTO temp.dropped SELECT s.company_id, s.line FROM ({found}) AS s "
        f"JOIN (SELECT company_id, min(line) AS first FROM ({found}) GROUP BY company_id HAVING count(*) > 1) "
        "AS d ON s.company_id = d.company_id AND s.line > d.first"
    )
    if conn.execute("SELECT 1 FROM temp.dropped").fetchone() is None:
        return ""
    # NOT EXISTS on the primary key: a row value NOT IN (SELECT …) is one scan of temp.dropped per staged row in
    # SQLite (quadratic: 30,000 repeated lines of 100,000 took 57 s)
    return (
        "AS s WHERE NOT EXISTS (SELECT 1 FROM temp.dropped AS d WHERE d.company_id = s.company_id AND d.line = s.line)"
    )


def _index_staged(
    conn: sqlite3.Connection,
    stages: list[str],
    dense_min: int,
    *,
    ids: list[str] | None = None,
    scratch: str | None = None,
) -> None:
    """Write every table of the index into ``conn`` from the ``staged`` tables ``stages`` (qualified names).
    ``ids``: the narrow tables of their company ids and lines, where repeated ids are looked for; ``None``: the
    caller knows the ids are unique (a world's records), so no pass looks for repeated ones. ``scratch``: a file
    (not there yet) in which a thread builds the filter columns while ``conn`` builds the full-text index;
    ``None``: one after the other, in ``conn``."""
    conn.executescript(_TABLES)
    conn.execute(_ORDER_TABLE)
    staged = " UNION ALL ".join(f"SELECT line, {', '.join(_STAGED)} FROM {stage}" for stage in stages)
    kept = "" if ids is None else _first_of_each_id(conn, ids)
    # rowid order is result order within each rank: the current name's length, then the id. Rows inserted in that
    # order into an empty table get the rowids 1, 2, 3, … (cheaper than numbering them with a window function)
    conn.execute(f"CREATE TEMP TABLE ordered (rowid INTEGER PRIMARY KEY, {', '.join(_STAGED)})")
    conn.execute(
        f"INSERT INTO temp.ordered ({', '.join(_STAGED)}) SELECT {', '.join(_STAGED)} FROM ({staged}) {kept} "
        "ORDER BY name_length, company_id"
    )
    size = conn.execute("SELECT count(*) FROM temp.ordered").fetchone()[0]
    step = -(-size // RecordCodec.SAMPLES) or 1  # the dictionary's samples, spread over the whole index
    sample = "SELECT result FROM temp.ordered WHERE rowid = ?"
    codec = RecordCodec.sample(conn.execute(sample, (rowid,)).fetchone()[0] for rowid in range(1, size + 1, step))
    conn.create_function("encoded", 1, codec.encode, deterministic=True)
    conn.execute("INSERT INTO companies (rowid, result) SELECT rowid, encoded(result) FROM temp.ordered")
    # the filter values without the results and texts, read in a few passes (CompanyColumns.write): a slim copy
    slim = "position INTEGER PRIMARY KEY, company_id, industry, filter_values"
    slimmed = "SELECT rowid - 1, company_id, industry, filter_values FROM temp.ordered"
    readers: Callable[[], sqlite3.Connection] | None = None
    with contextlib.ExitStack() as stack:
        if scratch is None:
            conn.execute(f"CREATE TEMP TABLE slim ({slim})")
            conn.execute(f"INSERT INTO temp.slim {slimmed}")
            _write_text(conn)
            conn.execute("DROP TABLE temp.ordered")
            counts = _write_columns(conn, "temp.slim", size)
            conn.execute("DROP TABLE temp.slim")
        else:
            # the filter columns are built in a file of their own by a thread while this connection builds the
            # full-text index (SQLite releases the GIL while it runs a statement), then copied in
            conn.commit()  # no ATTACH or DETACH inside a transaction
            conn.execute("ATTACH DATABASE ? AS columns", (scratch,))
            conn.execute(f"CREATE TABLE columns.slim ({slim})")
            conn.execute(f"INSERT INTO columns.slim {slimmed}")
            conn.commit()
            conn.execute("DETACH DATABASE columns")
            columns = stack.enter_context(ThreadPoolExecutor(1)).submit(_write_columns_apart, scratch, size)
            _write_text(conn)
            # temp.ordered is not dropped: dropping it reads every page of it (8 s at 5.4 M companies) and frees
            # no disk (the temporary file does not shrink); the file goes when the connection closes
            counts = columns.result()
            _copy_columns(conn, scratch)
            readers = _readers(conn)
    CompanyTerms.write(conn, size, dense_min, readers=readers)
    conn.executemany(
        "INSERT INTO index_meta (key, value) VALUES (?, ?)",
        [
            ("kind", _KIND),
            ("format", str(FORMAT)),
            ("size", str(size)),
            ("label_counts", json.dumps(counts)),
            ("dictionary", codec.dictionary.hex()),
        ],
    )
    conn.commit()


def _write_text(conn: sqlite3.Connection) -> None:
    """Fill ``companies_fts`` from ``temp.ordered``."""
    # one bulk insert in rowid order, merged once by 'optimize': FTS5's automatic merges in between are wasted
    conn.execute("INSERT INTO companies_fts (companies_fts, rank) VALUES ('automerge', 0)")
    with contextlib.suppress(sqlite3.OperationalError):  # an option FTS5 does not document: without it, only slower
        conn.execute("INSERT INTO companies_fts (companies_fts, rank) VALUES ('hashsize', ?)", (_FTS_HASH_BYTES,))
    conn.execute("INSERT INTO companies_fts (rowid, name, other) SELECT rowid, name, other FROM temp.ordered")
    conn.execute("INSERT INTO companies_fts (companies_fts) VALUES ('optimize')")
    conn.execute("INSERT INTO companies_fts (companies_fts, rank) VALUES ('automerge', 4)")  # FTS5's default again


def _write_columns(conn: sqlite3.Connection, slim: str, size: int) -> dict[str, int]:
    """Write the filter columns, the industry postings and the id order into ``conn`` from the table ``slim``
    (``position``, ``company_id``, ``industry`` and the packed ``filter_values``, one row per company); return
    the label counts."""

    def rows() -> Iterator[list[Any]]:
        cursor = conn.execute(f"SELECT filter_values FROM {slim} ORDER BY position")
        while chunk := cursor.fetchmany(_CHUNK):
            yield [load_line(packed) for (packed,) in chunk]

    counts = CompanyColumns.write(conn, size, rows)
    CompanyColumns.write_industry(
        conn, conn.execute(f"SELECT position, industry FROM {slim} WHERE industry != '' ORDER BY position")
    )
    by_id = np.fromiter(
        map(_first, conn.execute(f"SELECT position FROM {slim} ORDER BY company_id")), dtype=np.int32, count=size
    )
    conn.execute("INSERT INTO company_order (name, data) VALUES ('by_id', ?)", (by_id.tobytes(),))
    return counts


def _write_columns_apart(scratch: str, size: int) -> dict[str, int]:
    """:func:`_write_columns` from the table ``slim`` of the file ``scratch``, into it, on a connection of its own."""
    conn = sqlite3.connect(scratch)
    try:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        _temporary_tables_on_disk(conn)
        conn.execute(_ORDER_TABLE)
        counts = _write_columns(conn, "slim", size)
        conn.commit()
        return counts
    finally:
        conn.close()


def _copy_columns(conn: sqlite3.Connection, scratch: str) -> None:
    """Copy the tables :func:`_write_columns_apart` wrote in ``scratch`` into ``conn``."""
    conn.executescript(COLUMN_TABLES)
    conn.execute("ATTACH DATABASE ? AS columns", (scratch,))
    for table in _COLUMN_TABLE_NAMES:
        conn.execute(f"INSERT INTO main.{table} SELECT * FROM columns.{table}")
    conn.commit()
    conn.execute("DETACH DATABASE columns")


def _readers(conn: sqlite3.Connection) -> Callable[[], sqlite3.Connection]:
    """Opens read-only connections to the database file ``conn`` writes (for threads reading what it committed)."""
    path = next(file for _, name, file in conn.execute("PRAGMA database_list") if name == "main")
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    return lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)


def _temporary_tables_on_disk(conn: sqlite3.Connection) -> None:
    """The staged and ordered rows (a gigabyte at a few million companies) in a temporary file, with a page cache
    of 64 MiB (SQLite's default for it is 2 MiB: the ordered insert takes a fifth longer)."""
    conn.execute("PRAGMA temp_store=FILE")
    conn.execute("PRAGMA temp.cache_size=-65536")


def _page(first: np.ndarray, rest: np.ndarray, offset: int, limit: int) -> np.ndarray:
    """Entries ``offset:offset + limit`` of ``first`` followed by ``rest``."""
    head = first[offset : offset + limit]
    start = max(0, offset - first.size)
    tail = rest[start : start + limit - head.size]
    return np.concatenate((head, tail))


class CompanyIndex:
    """Company search and autocomplete; safe to share between threads.

    Write one with :meth:`build` and open it with :meth:`open`, or build one in memory with :meth:`in_memory`.

    Attributes
    ----------
    size : int
        Number of companies.
    columns : CompanyColumns
        The filter columns (read when a filter first needs them).
    terms : CompanyTerms
        The vocabulary (words looked up, bitmaps read, as a plan needs them).
    """

    def __init__(self, uri: str, meta: dict[str, str], keep_alive: sqlite3.Connection | None = None):
        self.size = int(meta["size"])
        self._pool = ConnectionPool(lambda: connect(uri), keep_alive)
        self._id_order: np.ndarray | None = None
        self.columns = CompanyColumns(self.size, self.connection, json.loads(meta["label_counts"]))
        self._codec = RecordCodec(bytes.fromhex(meta.get("dictionary", "")))
        with self.connection() as conn:
            self.terms = CompanyTerms.load(conn, self.size)

    @staticmethod
    def build(path: str | os.PathLike[str], rows: Iterable[CompanyRow], *, dense_min: int = DENSE_MIN) -> None:
        """Write the index of ``rows`` (see :func:`~regkit.local.search.company_rows.company_row`, any order,
        streamed) to the file ``path``, atomically: it is written under a temporary name beside ``path`` and
        renamed into place when complete (an exception leaves ``path`` as it was). ``dense_min`` is the fewest
        companies a word needs for bitmaps (tests lower it)."""
        with writing(path) as conn:
            _temporary_tables_on_disk(conn)
            _write(conn, rows, dense_min)

    @staticmethod
    def build_staged(
        path: str | os.PathLike[str], stages: Iterable[str | os.PathLike[str]], *, dense_min: int = DENSE_MIN
    ) -> None:
        """Write the index of the rows staged in the files ``stages`` (:class:`CompanyRowStage`) to the file
        ``path``, atomically, as :meth:`build` does. Of several rows with one company id (in one stage or in
        several), the one of the smallest source line is kept. The filter columns are built by a thread of their
        own, in a scratch file beside ``path`` (removed at the end), while the full-text index is built."""
        target = Path(path)
        scratch = target.with_name(f".{target.name}.{uuid.uuid4().hex}.columns")  # the filter columns' build
        with contextlib.ExitStack() as cleanup:
            cleanup.callback(scratch.unlink, missing_ok=True)
            conn = cleanup.enter_context(writing(path))
            _temporary_tables_on_disk(conn)
            names = []
            conn.execute(f"CREATE TEMP TABLE staged {_STAGE_COLUMNS}")  # stages beyond the attached, if any
            conn.execute(f"CREATE TEMP TABLE ids {_IDS_COLUMNS}")
            for number, stage in enumerate(stages):
                conn.execute(f"ATTACH DATABASE ? AS stage{number}", (os.fspath(stage),))
                conn.execute(f"CREATE TABLE IF NOT EXISTS stage{number}.staged {_STAGE_COLUMNS}")
                conn.execute(f"CREATE TABLE IF NOT EXISTS stage{number}.ids {_IDS_COLUMNS}")
                if number < _ATTACHED:
                    names.append(f"stage{number}.staged")
                else:  # SQLite attaches 10 databases at most: the stages beyond are copied
                    conn.execute(f"INSERT INTO temp.staged SELECT * FROM stage{number}.staged")
                    conn.execute(f"INSERT INTO temp.ids SELECT * FROM stage{number}.ids")
                    conn.commit()  # no ATTACH or DETACH inside a transaction
                    conn.execute(f"DETACH DATABASE stage{number}")
            names.append("temp.staged")
            ids = [name.replace(".staged", ".ids") for name in names]
            _index_staged(conn, names, dense_min, ids=ids, scratch=os.fspath(scratch))
            conn.commit()
            for name in names:
                if name.startswith("stage"):
                    conn.execute(f"DETACH DATABASE {name.split('.')[0]}")

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> CompanyIndex:
        """Open an index file written by :meth:`build`, read-only; reads its counts and the keys with bitmaps only.

        Raises
        ------
        IndexFileError
            The file is missing, truncated, damaged, or not a company index of this format.
        """
        uri, meta = open_reader(path, _KIND, FORMAT)
        return cls(uri, meta)

    @classmethod
    def in_memory(cls, rows: Iterable[CompanyRow], *, dense_min: int = DENSE_MIN) -> CompanyIndex:
        """Index ``rows`` (see :func:`~regkit.local.search.company_rows.company_row`) in a shared in-memory
        database. ``dense_min`` is the fewest companies a word needs for bitmaps (tests lower it)."""
        uri = f"file:/regkit-companies-{uuid.uuid4().hex}?vfs=memdb"
        writer = sqlite3.connect(uri, uri=True, check_same_thread=False)
        writer.execute("PRAGMA temp_store=MEMORY")
        writer.execute(META_TABLE)
        _write(writer, rows, dense_min)
        return cls(uri, read_meta(writer), keep_alive=writer)

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a read-only connection (a new one when every pooled one is in use)."""
        with self._pool.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the pooled connections (and, for an in-memory index, the index itself)."""
        self._pool.close()

    def search(self, request: SearchRequest) -> tuple[list[dict[str, Any]], int]:
        """One page of results, best match first, and the total number of matches."""
        offset, limit = (request.page - 1) * request.per_page, request.per_page
        phrases = phrases_of(request.query)
        if not phrases:
            return self._by_id(request, offset, limit)
        with self.connection() as conn:
            plan = self.terms.plan(conn, phrases)
            if plan.empty:
                return [], 0
            first, rest = self._matches(conn, plan, request)
            total = first.size + rest.size
            wanted = _page(first, rest, offset, limit) if offset < total else np.empty(0, dtype=np.int64)
            return self._results(conn, wanted), total

    def autocomplete(self, query: str, limit: int) -> list[dict[str, Any]]:
        """The first ``limit`` results of a search for ``query`` without filters (no total is counted)."""
        with self.connection() as conn:
            plan = self.terms.plan(conn, phrases_of(query))
            if plan.empty:
                return []
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
        """A search without text: the filtered companies in id order (the id order read in chunks until the page
        is full, so a broad filter costs what its page needs)."""
        selected = self.columns.mask(request.filters)
        order = self.id_order()
        if selected is None:
            total, page = int(order.size), order[offset : offset + limit]
        else:
            total = int(np.count_nonzero(selected))
            found: list[np.ndarray] = []
            needed = min(offset + limit, total)
            start = count = 0
            while count < needed:
                chunk = order[start : start + _ORDER_CHUNK]
                chunk = chunk[selected[chunk]]
                found.append(chunk)
                count += chunk.size
                start += _ORDER_CHUNK
            page = np.concatenate(found)[offset : offset + limit] if found else order[:0]
        with self.connection() as conn:
            return self._results(conn, page.astype(np.int64) + 1), total

    def id_order(self) -> np.ndarray:
        """Positions of the companies in id order (read once, when a search without text first needs it)."""
        if self._id_order is None:
            with self.connection() as conn:
                (data,) = conn.execute("SELECT data FROM company_order WHERE name = 'by_id'").fetchone()
            self._id_order = np.frombuffer(data, dtype=np.int32)
        return self._id_order

    def _results(self, conn: sqlite3.Connection, rowids: np.ndarray) -> list[dict[str, Any]]:
        """The stored results of ``rowids``, in that order."""
        if rowids.size == 0:
            return []
        listed = ", ".join(str(int(r)) for r in rowids)
        found = dict(conn.execute(f"SELECT rowid, result FROM companies WHERE rowid IN ({listed})").fetchall())
        return [self._codec.decode(found[int(r)]) for r in rowids]
