"""Reading a world store: the world's records and lookups answered by queries of ``records.sqlite``, one at a time.

:class:`StoredWorld` has the attribute names of :class:`~regkit.local.world.store.World`; its mappings and
sequences (:class:`RecordTable`, :class:`ShareholdingRows`, :class:`Lookup`) read nothing before they are asked
for. :func:`read_person` and :func:`read_people` read the world's persons with their management positions (the
catalog's person lookup, the person search index).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, ItemsView, Iterator, Mapping, Sequence, ValuesView
from pathlib import Path
from typing import Any, TypeVar, overload

from ...json_lines import load_line
from ...record_codec import RecordCodec
from ...search.person_rows import Person, stored_person
from .layout import RECORDS

__all__ = [
    "StoreDatabase",
    "RecordTable",
    "ShareholdingRows",
    "Lookup",
    "StoredWorld",
    "read_person",
    "read_people",
]

V = TypeVar("V")


class StoreDatabase:
    """A store's ``records.sqlite`` opened read-only (``immutable``), one connection per thread."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            self._local.connection = connection
        return connection

    def close(self) -> None:
        """Close this thread's connection (another use opens it again)."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def one(self, sql: str, parameters: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        """The first row of a query, or None."""
        row: tuple[Any, ...] | None = self.connection().execute(sql, parameters).fetchone()
        return row

    def all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query."""
        return self.connection().execute(sql, parameters).fetchall()

    def stream(self, sql: str, parameters: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        """The rows of a query, fetched a batch at a time (never all in memory)."""
        cursor = self.connection().cursor()
        cursor.execute(sql, parameters)
        while True:
            rows = cursor.fetchmany(500)
            if not rows:
                return
            yield from rows


class RecordTable(Mapping[str, dict[str, Any]]):
    """A read-only mapping id → record over a table of the store, in id order; each read decodes a new dict."""

    def __init__(self, db: StoreDatabase, table: str, count: int, codec: RecordCodec):
        self._db, self._table, self._count, self._codec = db, table, count, codec

    def __getitem__(self, key: str) -> dict[str, Any]:
        row = self._db.one(f"SELECT record FROM {self._table} WHERE id = ?", (key,)) if isinstance(key, str) else None
        if row is None:
            raise KeyError(key)
        return self._codec.decode(row[0])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._db.one(f"SELECT 1 FROM {self._table} WHERE id = ?", (key,)) is not None

    def __iter__(self) -> Iterator[str]:
        return (row[0] for row in self._db.stream(f"SELECT id FROM {self._table} ORDER BY id"))

    def __len__(self) -> int:
        return self._count

    def values(self) -> ValuesView[dict[str, Any]]:
        """The records in id order, streamed."""
        return _Values(self)

    def items(self) -> ItemsView[str, dict[str, Any]]:
        """``(id, record)`` in id order, streamed."""
        return _Items(self)

    def stream(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(id, record)`` in id order, one query."""
        for key, blob in self._db.stream(f"SELECT id, record FROM {self._table} ORDER BY id"):
            yield key, self._codec.decode(blob)

    def stream_range(self, first: str | None, stop: str | None) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(id, record)`` in id order for the ids from ``first`` (included) up to ``stop`` (excluded); a bound that
        is None is open."""
        sql = f"SELECT id, record FROM {self._table} WHERE id >= ? AND (? IS NULL OR id < ?) ORDER BY id"
        for key, blob in self._db.stream(sql, (first or "", stop, stop)):
            yield key, self._codec.decode(blob)

    def __repr__(self) -> str:
        return f"<RecordTable {self._table}: {self._count} records in {self._db.path}>"


class _Values(ValuesView[dict[str, Any]]):
    _mapping: RecordTable

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (record for _, record in self._mapping.stream())


class _Items(ItemsView[str, dict[str, Any]]):
    _mapping: RecordTable

    def __iter__(self) -> Iterator[tuple[str, dict[str, Any]]]:
        return self._mapping.stream()


class ShareholdingRows(Sequence[dict[str, Any]]):
    """The world's shareholdings in file order, read from the store a row at a time."""

    def __init__(self, db: StoreDatabase, count: int):
        self._db, self._count = db, count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        position = index + self._count if index < 0 else index
        row = self._db.one("SELECT record FROM shareholdings WHERE seq = ?", (position,))
        if row is None:
            raise IndexError(index)
        result: dict[str, Any] = json.loads(row[0])
        return result

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (json.loads(row[0]) for row in self._db.stream("SELECT record FROM shareholdings ORDER BY seq"))


class Lookup(Mapping[str, V]):
    """A read-only mapping answered by a query of the store: ``fetch(key)`` returns the value or raises KeyError.

    ``keys`` streams the keys in order (for iteration); ``count`` gives the length (a query, when asked).
    """

    def __init__(self, fetch: Callable[[str], V], keys: Callable[[], Iterator[str]], count: Callable[[], int]):
        self._fetch, self._keys, self._count = fetch, keys, count

    def __getitem__(self, key: str) -> V:
        if not isinstance(key, str):
            raise KeyError(key)
        return self._fetch(key)

    def __iter__(self) -> Iterator[str]:
        return self._keys()

    def __len__(self) -> int:
        return self._count()


class StoredWorld:
    """A world served from its store, with the attribute names of :class:`~regkit.local.world.store.World`.

    ``companies``, ``realtime`` and ``insolvencies`` are read-only mappings (:class:`RecordTable`),
    ``shareholdings`` a read-only sequence; nothing is read before it is asked for. ``meta`` is ``world.json``,
    its ``former_ids`` a read-only mapping too. ``derived`` maps the id of a company whose record has derived
    members (a world imported from OffeneRegister) to them, as the ``X-Regkit-Derived`` header sends them
    (:mod:`regkit.schema.derived`); it holds no other company.

    Parameters
    ----------
    store : Path
        A store directory (see :func:`~regkit.local.world.world_store.cache.ensure_store`).
    """

    def __init__(self, store: Path):
        self.store = Path(store)
        self.db = StoreDatabase(self.store / RECORDS)
        values = dict(self.db.all("SELECT key, value FROM meta"))
        counts = json.loads(values["counts"])
        self.source: dict[str, Any] = json.loads(values["source"])
        self.meta: dict[str, Any] = json.loads(values["world"])
        self.meta["former_ids"] = Lookup(self._former_id, self._former_keys, self._former_count)
        codec = RecordCodec(bytes.fromhex(values.get("dictionary", "")))
        self.companies = RecordTable(self.db, "companies", counts["companies"], codec)
        self.realtime = RecordTable(self.db, "realtime", counts["realtime"], codec)
        self.insolvencies = RecordTable(self.db, "insolvencies", counts["insolvencies"], codec)
        self.shareholdings = ShareholdingRows(self.db, counts["shareholdings"])
        self.derived: Lookup[str] = Lookup(self._derived, self._derived_keys, self._derived_count)

    def _derived(self, key: str) -> str:
        row = self.db.one(
            "SELECT m.marks FROM derived AS d JOIN derived_marks AS m ON m.n = d.marks WHERE d.id = ?", (key,)
        )
        if row is None:
            raise KeyError(key)
        return str(row[0])

    def _derived_keys(self) -> Iterator[str]:
        return (row[0] for row in self.db.stream("SELECT id FROM derived ORDER BY id"))

    def _derived_count(self) -> int:
        row = self.db.one("SELECT count(*) FROM derived")
        return int(row[0]) if row else 0

    def _former_id(self, key: str) -> str:
        row = self.db.one("SELECT new FROM former_ids WHERE old = ?", (key,))
        if row is None:
            raise KeyError(key)
        return str(row[0])

    def _former_keys(self) -> Iterator[str]:
        return (row[0] for row in self.db.stream("SELECT old FROM former_ids ORDER BY old"))

    def _former_count(self) -> int:
        row = self.db.one("SELECT count(*) FROM former_ids")
        return int(row[0]) if row else 0

    def __repr__(self) -> str:
        return f"<StoredWorld {len(self.companies)} companies at {self.store}>"


def read_person(db: StoreDatabase, key: str) -> Person | None:
    """The person stored under ``key`` (a lower-case UUID) in a world store's ``persons`` and ``positions`` tables,
    or None."""
    row = db.one("SELECT id, details FROM persons WHERE key = ? ORDER BY rowid DESC LIMIT 1", (key,))
    if row is None:
        return None
    positions = db.all("SELECT record FROM positions WHERE person_id = ? ORDER BY seq", (row[0],))
    return stored_person(row[0], load_line(row[1]), [load_line(p[0]) for p in positions])


def read_people(db: StoreDatabase) -> Iterator[Person]:
    """Every person of a world store, one at a time (for the person search index)."""
    for (key,) in db.stream("SELECT key FROM persons GROUP BY key ORDER BY min(rowid)"):
        person = read_person(db, key)
        if person is not None:
            yield person
