"""Running insolvency searches over an index built by :func:`regkit.local.search.build.build_index`.

Rowids are the result order, so every plan below reads in that order and stops after its page; the total
is always exact (the interface promises correct totals, also past the last page). First the text is planned
by the vocabulary (:meth:`~regkit.local.search.terms.Vocabulary.plan`): common words become bitmaps and join
the filters' boolean mask (:class:`~regkit.local.search.columns.ColumnStore`), a word the index lacks ends
the search, the other phrases stay FTS5 phrases with an upper bound of their matches. Then:

- **no FTS5 phrase, no mask** (``{}``): the page is a rowid range, the total the number of proceedings;
- **no FTS5 phrase** (filters, common words): the mask's count is the total, the page a slice of its set
  positions;
- **FTS5 phrases only**: FTS5 counts the matches inside its index (no row is read), and the page is the
  first matches in rowid order (``ORDER BY rowid LIMIT … OFFSET …``: FTS5 stops there);
- **FTS5 phrases and a mask**: they meet where the smaller side is — a few masked proceedings are probed in
  the FTS index one by one (``rowid IN (…)``, about 8 µs each); otherwise the text matches inside the
  mask's rowid range are read (as rows when the estimate is small, else as one ``group_concat`` string
  parsed by numpy, about 0.1 µs a match) and the mask picks from them.

Every search borrows its own read-only connection from a pool: the index lives in a shared in-memory
database (``memdb``, :meth:`InsolvencyIndex.in_memory`) or in a file written once by
:meth:`InsolvencyIndex.build` (under a temporary name, renamed into place when complete) and opened read-only by
:meth:`InsolvencyIndex.open`, so a long search never holds up another.
"""

from __future__ import annotations

import contextlib
import copy
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .build import PREFIX_INDEXED, build_index
from .columns import ColumnStore
from .index_file import META_TABLE, ConnectionPool, open_reader, writing
from .query import RESULT_MEMBERS, SearchRequest, phrases_of, result_of
from .terms import TextPlan, Vocabulary

__all__ = ["InsolvencyIndex", "Tuning", "FORMAT"]

#: Format version of the index file (``index_meta.format``); an index of another version is refused.
FORMAT = 1
_KIND = "insolvencies"


@dataclass(frozen=True)
class Tuning:
    """Where the plans for text and filters together switch (measured on a million proceedings).

    Attributes
    ----------
    probe_always : int
        Masked proceedings probed in the FTS index whatever the text.
    probe_cost : int
        A probe costs about as much as reading this many text matches (8 µs against 0.1 µs).
    rows_max : int
        Text matches read as rows; more are read as one ``group_concat`` string.
    """

    probe_always: int = 256
    probe_cost: int = 80
    rows_max: int = 2000


_FTS = "SELECT {what} FROM proceedings_fts WHERE proceedings_fts MATCH ?"
_COUNT = _FTS.format(what="count(*)")
_WALK = _FTS.format(what="rowid") + " ORDER BY rowid LIMIT ? OFFSET ?"
_RANGE = _FTS.format(what="rowid") + " AND rowid >= ? AND rowid <= ? ORDER BY rowid"
_ALL = _FTS.format(what="group_concat(rowid)") + " AND rowid >= ? AND rowid <= ?"
_SELECT = ", ".join(RESULT_MEMBERS)


def _in_list(rowids: Iterable[int]) -> str:
    return ", ".join(str(int(r)) for r in rowids)


def _reader(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    # a file-backed index is read through memory mapping and a large page cache (no effect in memory)
    conn.execute("PRAGMA mmap_size=4294967296")
    conn.execute("PRAGMA cache_size=-65536")
    return conn


class InsolvencyIndex:
    """Runs searches; safe to share between threads, and searches do not wait for one another.

    Parameters
    ----------
    connect : callable
        Opens a new read-only connection to the index (one per concurrent search, pooled).
    keep_alive : sqlite3.Connection, optional
        A connection held for the lifetime of the index (an in-memory database lives as long as one does).
    tuning : Tuning, optional
        Where the plans switch; every setting gives the same answers (tests use that).

    See Also
    --------
    InsolvencyIndex.in_memory, InsolvencyIndex.open : the two ways to get one.
    """

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        *,
        keep_alive: sqlite3.Connection | None = None,
        tuning: Tuning = Tuning(),
    ):
        self.tuning = tuning
        self._pool = ConnectionPool(connect, keep_alive)
        with self.connection() as conn:
            self.columns = ColumnStore.load(conn)
            self.vocabulary = Vocabulary.load(conn, self.columns.size)

    @classmethod
    def in_memory(cls, rows: Iterable[Sequence[Any]], **options: Any) -> InsolvencyIndex:
        """Build an index of ``rows`` (see :func:`~regkit.local.search.build.record_row`) in a shared in-memory
        database; ``options`` go to :func:`~regkit.local.search.build.build_index`."""
        uri = f"file:/regkit-insolvencies-{uuid.uuid4().hex}?vfs=memdb"
        writer = sqlite3.connect(uri, uri=True, check_same_thread=False)
        writer.execute("PRAGMA temp_store=MEMORY")
        writer.execute(META_TABLE)
        _write(writer, rows, **options)
        return cls(lambda: _reader(uri), keep_alive=writer)

    @staticmethod
    def build(path: str | Path, rows: Iterable[Sequence[Any]], **options: Any) -> None:
        """Write the index of ``rows`` (see :func:`~regkit.local.search.build.record_row`, any order, streamed)
        to the file ``path``, atomically (written under a temporary name and renamed into place when complete;
        an exception leaves ``path`` as it was); ``options`` go to :func:`~regkit.local.search.build.build_index`."""
        with writing(path) as conn:
            conn.execute("PRAGMA temp_store=FILE")
            _write(conn, rows, **options)

    @classmethod
    def open(cls, path: str | Path) -> InsolvencyIndex:
        """Open an index file written by :meth:`build`, read only.

        Raises
        ------
        IndexFileError
            The file is missing, truncated, damaged, or not an insolvency index of this format.
        """
        uri, _ = open_reader(path, _KIND, FORMAT)
        return cls(lambda: _reader(uri))

    def tuned(self, tuning: Tuning) -> InsolvencyIndex:
        """The same index (database and connection pool shared) with other plan switch points."""
        other = copy.copy(self)
        other.tuning = tuning
        return other

    @property
    def size(self) -> int:
        """Number of proceedings."""
        return self.columns.size

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a read-only connection (a new one when every pooled one is in use)."""
        with self._pool.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the pooled connections (and, for an in-memory index, the index itself)."""
        self._pool.close()

    def search(self, request: SearchRequest) -> tuple[list[dict[str, Any]], int]:
        """Return one page of results (in result order) and the total number of matches."""
        plan = self.vocabulary.plan(phrases_of(request.query))
        if plan.empty:
            return [], 0
        mask = self.columns.mask(request.filters)
        offset, limit = (request.page - 1) * request.per_page, request.per_page
        with self.connection() as conn:
            for selected in [*map(self.vocabulary.bitmap, plan.bitmaps), *(self._union(conn, u) for u in plan.unions)]:
                mask = selected if mask is None else np.logical_and(mask, selected)
            match = plan.fts
            rowids: list[int]
            if mask is None:
                if match is None:
                    total = self.size
                    rowids = list(range(offset + 1, min(offset + limit, total) + 1)) if offset < total else []
                else:
                    total = conn.execute(_COUNT, (match,)).fetchone()[0]
                    rowids = [r for (r,) in conn.execute(_WALK, (match, limit, offset))] if offset < total else []
            elif match is None:
                positions = np.flatnonzero(mask)
                total = int(positions.size)
                rowids = (positions[offset : offset + limit] + 1).tolist() if offset < total else []
            else:
                hits = _text_in_mask(conn, plan, mask, self.tuning)
                total = int(hits.size)
                rowids = hits[offset : offset + limit].tolist() if offset < total else []
            rows = (
                conn.execute(
                    f"SELECT {_SELECT} FROM proceedings WHERE rowid IN ({_in_list(rowids)}) ORDER BY rowid"
                ).fetchall()
                if rowids
                else []
            )
        return [result_of(row) for row in rows], total

    def _union(self, conn: sqlite3.Connection, union: tuple[list[str], str | None]) -> np.ndarray:
        keys, expression = union
        selected = np.logical_or.reduce([self.vocabulary.bitmap(key) for key in keys])
        if expression is not None:
            selected[_matching(conn, expression, 1, self.size) - 1] = True
        return selected


def _write(conn: sqlite3.Connection, rows: Iterable[Sequence[Any]], **options: Any) -> None:
    size = build_index(conn, rows, **options)
    with conn:
        conn.executemany(
            "INSERT INTO index_meta (key, value) VALUES (?, ?)",
            [("kind", _KIND), ("format", str(FORMAT)), ("size", str(size))],
        )


def _matching(conn: sqlite3.Connection, match: str, low: int, high: int) -> np.ndarray:
    """Rowids, ascending, matching the FTS expression between ``low`` and ``high`` (one string, parsed by numpy)."""
    text = conn.execute(_ALL, (match, low, high)).fetchone()[0]
    rowids = np.fromstring(text, dtype=np.int64, sep=",") if text else np.empty(0, dtype=np.int64)
    if rowids.size > 1 and not bool(np.all(rowids[1:] > rowids[:-1])):  # FTS5 reads in rowid order
        rowids = np.unique(rowids)
    return rowids


def _text_in_mask(conn: sqlite3.Connection, plan: TextPlan, mask: np.ndarray, tuning: Tuning) -> np.ndarray:
    """Rowids, ascending, that match the plan's FTS expression and are set in ``mask``.

    A probe (``rowid IN (…)``) asks FTS5 for the first match at or after each rowid, so it is only cheap for
    a single word, whose next match is the next entry of its doclist: a phrase or several words may scan far
    past the rowid for their next match, and a prefix longer than the FTS prefix indexes is merged from all
    its terms afresh for every probe. Anything else reads the matches in the mask's rowid range once.
    """
    match, estimate = plan.fts, plan.estimate
    assert match is not None
    positions = np.flatnonzero(mask)
    if positions.size == 0:
        return positions
    word = plan.phrases[0] if len(plan.phrases) == 1 and len(plan.phrases[0].tokens) == 1 else None
    probe = word is not None and (not word.prefix or len(word.tokens[0]) <= PREFIX_INDEXED)
    if probe and positions.size <= tuning.probe_always:
        return _probe(conn, match, positions)
    bounds = (int(positions[0]) + 1, int(positions[-1]) + 1)
    if estimate is None:  # look at the first text matches to learn whether they are few
        peek = conn.execute(_RANGE + " LIMIT ?", (match, *bounds, tuning.rows_max + 1)).fetchall()
        if len(peek) <= tuning.rows_max:
            return _picked(np.array([r for (r,) in peek], dtype=np.int64), mask)
        estimate = mask.size  # many: assume the worst
    if probe and positions.size * tuning.probe_cost <= estimate:
        return _probe(conn, match, positions)
    if estimate <= tuning.rows_max:
        return _picked(np.array([r for (r,) in conn.execute(_RANGE, (match, *bounds))], dtype=np.int64), mask)
    return _picked(_matching(conn, match, *bounds), mask)


def _picked(rowids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return rowids[mask[rowids - 1]]


def _probe(conn: sqlite3.Connection, match: str, positions: np.ndarray) -> np.ndarray:
    """Which of the proceedings at ``positions`` match the FTS expression (each one an FTS5 rowid lookup)."""
    if positions.size == 0:
        return np.empty(0, dtype=np.int64)
    sql = _FTS.format(what="rowid") + f" AND rowid IN ({_in_list(positions + 1)}) ORDER BY rowid"
    return np.array([r for (r,) in conn.execute(sql, (match,))], dtype=np.int64)
