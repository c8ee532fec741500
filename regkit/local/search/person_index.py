"""The person search index (``POST /v1/search/person``): FTS5 over folded names, numpy over the filters.

Persons are numbered ``1..n`` (``rowid``) in the search's order — last name, first name (both folded as
:func:`~regkit.local.search.query.fold` folds them), date of birth, id — so rowid order is result order. The
FTS5 table ``persons_fts`` holds each person's search terms (:func:`~regkit.local.search.query.query_terms` of
the first and last name) separated by spaces, tokenized by FTS5's ``ascii`` tokenizer, which splits only there:
an FTS5 token is exactly a search term (``josé`` stays ``josé``). Every query word must be one of a person's
terms, the last one the start of one (``"word"*``), as the scan over all persons did. The filters are arrays
(date of birth as ``YYYYMMDD``, ``-1`` for none; active; a code into the distinct cities), read when a search
first needs them. A result row is small (id, name, city, date of birth, active): positions are never expanded,
so a name at thousands of companies costs one row. Totals are exact.

The live service lists only persons with a date of birth (its result requires one); a search asks for
``listed_without_birth=True`` on worlds without dates of birth (OffeneRegister), whose persons are then listed
with ``date_of_birth: null``.

One SQLite file, written by :meth:`PersonIndex.build` (streamed, under a temporary name, renamed into place)
and opened read-only by :meth:`PersonIndex.open`; :meth:`PersonIndex.in_memory` writes the same tables into a
shared in-memory database.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .index_file import META_TABLE, ConnectionPool, connect, open_reader, read_meta, writing
from .query import fold, query_terms

if TYPE_CHECKING:
    from .person_request import PersonFilter, PersonSearch
    from .person_rows import Person

__all__ = ["PersonIndex", "FORMAT"]

#: Format version of the index file (``index_meta.format``); an index of another version is refused.
FORMAT = 1
_KIND = "persons"
_TABLES = """
CREATE TABLE persons (rowid INTEGER PRIMARY KEY, result TEXT NOT NULL);
CREATE VIRTUAL TABLE persons_fts USING fts5(terms, content='', columnsize=0, tokenize='ascii', prefix='1 2 3');
CREATE TABLE person_columns (name TEXT PRIMARY KEY, dtype TEXT NOT NULL, data BLOB NOT NULL);
CREATE TABLE person_cities (code INTEGER PRIMARY KEY, city TEXT NOT NULL);
"""
_STAGED = ("last_key", "first_key", "birth_key", "id", "result", "terms", "birth", "active", "city")
_CHUNK = 20_000
_MATCH = "SELECT {what} FROM persons_fts WHERE persons_fts MATCH ?"


def _day(text: str | None) -> int:
    """``YYYY-MM-DD`` as ``YYYYMMDD`` (``-1`` for none); the integers order as the texts do."""
    if not text:
        return -1
    return int(text[0:4]) * 10000 + int(text[5:7]) * 100 + int(text[8:10])


def _staged(person: Person) -> tuple[Any, ...]:
    last_key, first_key, birth_key, person_id = person.sort_key()
    result = {
        "id": person.id,
        "name": person.name,
        "city": person.city,
        "date_of_birth": person.date_of_birth,
        "active": person.active,
    }
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    terms = " ".join(person.terms)
    return (
        last_key,
        first_key,
        birth_key,
        person_id,
        text,
        terms,
        person.date_of_birth,
        int(person.active),
        person.city,
    )


def _write(conn: sqlite3.Connection, persons: Iterable[Person]) -> None:
    conn.executescript(_TABLES)
    conn.execute(f"CREATE TEMP TABLE staged ({', '.join(_STAGED)})")
    insert = f"INSERT INTO temp.staged VALUES ({', '.join('?' * len(_STAGED))})"
    # each person is staged as it comes and dropped: a chunk holds small rows, never the persons' positions (a
    # name at thousands of companies, or 20,000 persons at once, held 0.87 GB in a 5.4-million-company world)
    staged = map(_staged, persons)
    while chunk := list(itertools.islice(staged, _CHUNK)):
        conn.executemany(insert, chunk)
    conn.execute(f"CREATE TEMP TABLE ordered (position INTEGER PRIMARY KEY, {', '.join(_STAGED)})")
    conn.execute(
        "INSERT INTO temp.ordered SELECT row_number() OVER (ORDER BY last_key, first_key, birth_key, id) - 1, "
        f"{', '.join(_STAGED)} FROM temp.staged"
    )
    conn.execute("DROP TABLE temp.staged")
    size = conn.execute("SELECT count(*) FROM temp.ordered").fetchone()[0]
    conn.execute("INSERT INTO persons (rowid, result) SELECT position + 1, result FROM temp.ordered")
    conn.execute("INSERT INTO persons_fts (rowid, terms) SELECT position + 1, terms FROM temp.ordered")
    conn.execute("INSERT INTO persons_fts (persons_fts) VALUES ('optimize')")
    cities = [c for (c,) in conn.execute("SELECT DISTINCT city FROM temp.ordered WHERE city IS NOT NULL ORDER BY city")]
    codes = {city: i for i, city in enumerate(cities)}
    conn.executemany("INSERT INTO person_cities (code, city) VALUES (?, ?)", enumerate(cities))
    columns = {
        "birth": np.empty(size, dtype=np.int32),
        "active": np.empty(size, dtype=bool),
        "city": np.empty(size, dtype=np.int32),
    }
    # streamed: millions of persons (an imported world) are never all in Python at once
    cursor = conn.execute("SELECT birth, active, city FROM temp.ordered ORDER BY position")
    start = 0
    while rows := cursor.fetchmany(_CHUNK):
        end = start + len(rows)
        columns["birth"][start:end] = np.fromiter((_day(b) for b, _, _ in rows), dtype=np.int32, count=len(rows))
        columns["active"][start:end] = np.fromiter((bool(a) for _, a, _ in rows), dtype=bool, count=len(rows))
        columns["city"][start:end] = np.fromiter(
            (-1 if c is None else codes[c] for _, _, c in rows), dtype=np.int32, count=len(rows)
        )
        start = end
    conn.executemany(
        "INSERT INTO person_columns (name, dtype, data) VALUES (?, ?, ?)",
        [(name, array.dtype.str, array.tobytes()) for name, array in columns.items()],
    )
    conn.execute("DROP TABLE temp.ordered")
    born = int((columns["birth"] >= 0).sum())
    conn.executemany(
        "INSERT INTO index_meta (key, value) VALUES (?, ?)",
        [("kind", _KIND), ("format", str(FORMAT)), ("size", str(size)), ("born", str(born))],
    )
    conn.commit()


class PersonIndex:
    """The person search; safe to share between threads.

    Write one with :meth:`build` and open it with :meth:`open`, or build one in memory with :meth:`in_memory`.

    Attributes
    ----------
    size : int
        Number of persons.
    born : int
        Number of persons with a date of birth.
    """

    def __init__(self, uri: str, meta: dict[str, str], keep_alive: sqlite3.Connection | None = None):
        self.size = int(meta["size"])
        self.born = int(meta["born"])
        self._pool = ConnectionPool(lambda: connect(uri), keep_alive)
        self._columns: dict[str, np.ndarray] = {}
        self._cities: tuple[list[str], list[str], list[frozenset[str]]] | None = None

    @staticmethod
    def build(path: str | os.PathLike[str], persons: Iterable[Person]) -> None:
        """Write the index of ``persons`` (any order, streamed) to the file ``path``, atomically: it is written
        under a temporary name beside ``path`` and renamed into place when complete (an exception leaves
        ``path`` as it was)."""
        with writing(path) as conn:
            conn.execute("PRAGMA temp_store=FILE")
            _write(conn, persons)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> PersonIndex:
        """Open an index file written by :meth:`build`, read-only (reads its counts only).

        Raises
        ------
        IndexFileError
            The file is missing, truncated, damaged, or not a person index of this format.
        """
        uri, meta = open_reader(path, _KIND, FORMAT)
        return cls(uri, meta)

    @classmethod
    def in_memory(cls, persons: Iterable[Person]) -> PersonIndex:
        """Index ``persons`` in a shared in-memory database (the same tables as a file)."""
        uri = f"file:/regkit-persons-{uuid.uuid4().hex}?vfs=memdb"
        writer = sqlite3.connect(uri, uri=True, check_same_thread=False)
        writer.execute("PRAGMA temp_store=MEMORY")
        writer.execute(META_TABLE)
        _write(writer, persons)
        return cls(uri, read_meta(writer), keep_alive=writer)

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a read-only connection (a new one when every pooled one is in use)."""
        with self._pool.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the pooled connections (and, for an in-memory index, the index itself)."""
        self._pool.close()

    def search(self, search: PersonSearch, *, listed_without_birth: bool = False) -> tuple[list[dict[str, Any]], int]:
        """One page of persons matching a validated search, in the search's order, and the total.

        Parameters
        ----------
        search : PersonSearch
            The query words, filters and page (:func:`~regkit.local.search.person_request.parse_person_search`).
        listed_without_birth : bool
            List persons without a date of birth too (worlds without dates of birth); otherwise only persons
            with one are listed, as the live service does.
        """
        offset, limit = (search.page - 1) * search.per_page, search.per_page
        mask = self._mask(search.filters, listed_without_birth)
        with self.connection() as conn:
            if search.terms:
                expression = " ".join(f'"{t}"' for t in search.terms) + "*"
                if mask is None:
                    total = conn.execute(_MATCH.format(what="count(*)"), (expression,)).fetchone()[0]
                    sql = _MATCH.format(what="rowid") + " ORDER BY rowid LIMIT ? OFFSET ?"
                    page = [r for (r,) in conn.execute(sql, (expression, limit, offset))] if offset < total else []
                    return self._results(conn, page), total
                found = _rowids(conn, expression)
                found = found[mask[found - 1]]
            elif mask is None:
                return self._results(conn, list(range(offset + 1, min(offset + limit, self.size) + 1))), self.size
            else:
                found = np.flatnonzero(mask) + 1
            return self._results(conn, found[offset : offset + limit].tolist()), int(found.size)

    def _column(self, name: str) -> np.ndarray:
        array = self._columns.get(name)
        if array is None:
            with self.connection() as conn:
                dtype, data = conn.execute("SELECT dtype, data FROM person_columns WHERE name = ?", (name,)).fetchone()
            array = self._columns[name] = np.frombuffer(data, dtype=np.dtype(dtype))
        return array

    def _city_labels(self) -> tuple[list[str], list[str], list[frozenset[str]]]:
        """The distinct cities (code = position), folded and stripped, and as sets of search terms."""
        if self._cities is None:
            with self.connection() as conn:
                cities = [c for (c,) in conn.execute("SELECT city FROM person_cities ORDER BY code")]
            self._cities = (cities, [fold(c).strip() for c in cities], [frozenset(query_terms(c)) for c in cities])
        return self._cities

    def _cities_where(self, wanted: Sequence[bool]) -> np.ndarray:
        table = np.concatenate(([False], np.asarray(wanted, dtype=bool)))  # code -1 (no city) never matches
        return table[self._column("city") + 1]

    def _select(self, item: PersonFilter) -> np.ndarray | None:
        """The persons one filter selects (``None``: every person)."""
        if item.field == "active":
            active = self._column("active")
            return active if item.operand else ~active
        if item.field == "date_of_birth":
            birth = self._column("birth")
            if item.kind == "eq":
                return birth == _day(item.operand)
            low, high = item.operand
            selected = birth >= 0
            if low is not None:
                selected &= birth >= _day(low)
            if high is not None:
                selected &= birth <= _day(high)
            return selected
        _, folded, terms = self._city_labels()
        if item.kind == "in":
            return self._cities_where([city in item.operand for city in folded])
        words = set(item.operand)
        if not words:
            return None  # keywords without a letter or digit ask for nothing
        return self._cities_where([words <= held for held in terms])

    def _mask(self, filters: Sequence[PersonFilter], listed_without_birth: bool) -> np.ndarray | None:
        """The persons listed and matching every filter, or ``None`` for all."""
        mask: np.ndarray | None = None
        if not listed_without_birth and self.born < self.size:
            mask = self._column("birth") >= 0
        for item in filters:
            selected = self._select(item)
            if selected is not None:
                mask = selected.copy() if mask is None else mask & selected
        return mask

    def _results(self, conn: sqlite3.Connection, rowids: list[int]) -> list[dict[str, Any]]:
        if not rowids:
            return []
        listed = ", ".join(str(int(r)) for r in rowids)
        found = dict(conn.execute(f"SELECT rowid, result FROM persons WHERE rowid IN ({listed})").fetchall())
        return [json.loads(found[r]) for r in rowids]


def _rowids(conn: sqlite3.Connection, expression: str) -> np.ndarray:
    """Rowids, ascending, matching an FTS5 expression (one string, parsed by numpy)."""
    text = conn.execute(_MATCH.format(what="group_concat(rowid)"), (expression,)).fetchone()[0]
    found = np.fromstring(text, dtype=np.int64, sep=",") if text else np.empty(0, dtype=np.int64)
    if found.size > 1 and not bool(np.all(found[1:] > found[:-1])):
        found = np.unique(found)
    return found
