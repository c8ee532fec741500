"""The read-only side of a local register: the world and the lookups derived from it, read from its store.

A world is opened once per process from its store (:mod:`regkit.local.world.world_store`) and shared by every
application built on it (tests create many). Every lookup (documents, persons and their positions,
shareholdings by company and by holder, websites) is a read-only mapping answered by a query of the store:
nothing iterates the world's companies when it is opened or per request. The company, insolvency and person
searches answer from index files the store holds (``search/``, built with the store by :func:`~regkit.local.world.world_store.build_store`),
opened on the first search; past the world's ``as_of`` a register searches the day's records instead
(:mod:`~regkit.local.models.day_search`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from regkit.local.world.store import World, default_data_dir
from regkit.local.world.world_store import (
    SEARCH,
    Lookup,
    StoreDatabase,
    StoredWorld,
    open_world,
    read_person,
    store_for_world,
)

from ..search.person_rows import Person

if TYPE_CHECKING:  # the search (and numpy) is imported when a first search needs its index, not at start
    from ..search.company_index import CompanyIndex
    from ..search.index import InsolvencyIndex
    from ..search.person_index import PersonIndex

__all__ = ["Catalog", "load_catalog"]

logger = logging.getLogger("regkit.local.catalog")  # the name log configurations know it by

V = TypeVar("V")

_CACHE: dict[Any, Catalog] = {}
_CACHE_LOCK = threading.Lock()


@dataclass
class Ownership:
    """The world's shareholding rows by the company held and by the holder (a company id or a person UUID)."""

    by_company: Mapping[str, list[Mapping[str, Any]]] = field(default_factory=dict)
    by_holder: Mapping[str, list[Mapping[str, Any]]] = field(default_factory=dict)


class Catalog:
    """A world with its users, plans and lookups, all read from the world's store when asked.

    Parameters
    ----------
    world : StoredWorld
        The world as :func:`regkit.local.world.world_store.open_world` opens it (:func:`load_catalog` builds a
        store for an in-memory :class:`~regkit.local.world.store.World` first).
    """

    def __init__(self, world: StoredWorld):
        self.world = world
        self.meta = world.meta
        self.plans: dict[str, dict[str, Any]] = dict(world.meta.get("plans", {}))
        self.users: dict[str, dict[str, Any]] = {u["api_key"]: u for u in world.meta.get("users", [])}
        register = world.meta.get("transparenzregister", {})
        self.sandbox_ekrn: str = register.get("sandbox_ekrn", "DE727032388716")
        self.accounts: dict[str, dict[str, Any]] = {a["username"]: a for a in register.get("accounts", [])}
        self.entities: dict[str, list[str]] = register.get("entities", {})
        #: The planted Transparenzregister discrepancies by company id (``transparenzregister.discrepancies``).
        self.discrepancies: dict[str, dict[str, Any]] = {d["company_id"]: d for d in register.get("discrepancies", [])}
        db = world.db
        #: Company documents by id: ``(company_id, CompanyDocument)`` (realtime records included; the stored
        #: record's document where a document is in both).
        self.documents: Mapping[str, tuple[str, dict[str, Any]]] = Lookup(
            _fetch(db, "SELECT company_id, record FROM documents WHERE id = ?", lambda r: (r[0], json.loads(r[1]))),
            _keys(db, "SELECT id FROM documents ORDER BY id"),
            _count(db, "SELECT count(*) FROM documents"),
        )
        #: Natural persons by UUID: their ``natural_person`` details (may be empty) and ``name``.
        #: Representatives, natural-person shareholders and consumer debtors are persons.
        self.persons: Mapping[str, dict[str, Any]] = Lookup(
            _fetch(db, "SELECT details FROM persons WHERE id = ?", lambda r: json.loads(r[0])),
            _keys(db, "SELECT id FROM persons ORDER BY rowid"),
            _count(db, "SELECT count(*) FROM persons"),
        )
        #: Current shareholdings with a share, by the company held (for beneficial owners), in file order.
        self.holders: Mapping[str, list[Mapping[str, Any]]] = Lookup(
            _rows(db, "company_id", current=True),
            _keys(db, "SELECT DISTINCT company_id FROM shareholdings ORDER BY company_id"),
            _count(db, "SELECT count(DISTINCT company_id) FROM shareholdings"),
        )
        #: The shareholdings by company held and by holder (owners and holdings answer from it).
        self.ownership = Ownership(
            by_company=Lookup(
                _rows(db, "company_id"),
                _keys(db, "SELECT DISTINCT company_id FROM shareholdings ORDER BY company_id"),
                _count(db, "SELECT count(DISTINCT company_id) FROM shareholdings"),
            ),
            by_holder=Lookup(
                _rows(db, "holder_id"),
                _keys(
                    db, "SELECT DISTINCT holder_id FROM shareholdings WHERE holder_id IS NOT NULL ORDER BY holder_id"
                ),
                _count(db, "SELECT count(DISTINCT holder_id) FROM shareholdings"),
            ),
        )
        #: Every person of the world by lower-case UUID, with their management positions.
        self.people: Mapping[str, Person] = Lookup(
            self._person,
            _keys(db, "SELECT key FROM persons ORDER BY rowid"),
            _count(db, "SELECT count(DISTINCT key) FROM persons"),
        )
        #: Host (as :func:`regkit.schema.websites.website_host` gives it) → the company publishing that website
        #: (the smallest id where several do).
        self.websites: Mapping[str, str] = Lookup(
            _fetch(db, "SELECT company_id FROM websites WHERE host = ?", lambda r: str(r[0])),
            _keys(db, "SELECT host FROM websites ORDER BY host"),
            _count(db, "SELECT count(*) FROM websites"),
        )
        self._search = _SearchIndexes(world.store / SEARCH)

    def _person(self, key: str) -> Person:
        person = read_person(self.world.db, key)
        if person is None:
            raise KeyError(key)
        return person

    @property
    def person_index(self) -> PersonIndex:
        """The person search index (``persons.sqlite`` of the store's search indexes)."""
        return self._search.persons()

    @property
    def insolvency_index(self) -> InsolvencyIndex:
        """The search index over the world's proceedings."""
        return self._search.insolvencies()

    @property
    def company_index(self) -> CompanyIndex:
        """The company search index over the world's companies."""
        return self._search.companies()

    @property
    def _index(self) -> InsolvencyIndex | None:
        """The insolvency index if built (a benchmark replaces it with a bigger one)."""
        return self._search.built.get("insolvencies")

    @_index.setter
    def _index(self, index: InsolvencyIndex) -> None:
        self._search.built["insolvencies"] = index

    def plan(self, name: str) -> dict[str, Any]:
        """The plan ``name`` (``{"paid", "monitoring", "extract_quota_30d"}``); raises KeyError if unknown."""
        return self.plans[name]


def _fetch(db: StoreDatabase, sql: str, decode: Callable[[tuple[Any, ...]], V]) -> Callable[[str], V]:
    """A lookup's read of one key: the first row of ``sql`` decoded, or KeyError."""

    def fetch(key: str) -> V:
        row = db.one(sql, (key,))
        if row is None:
            raise KeyError(key)
        return decode(row)

    return fetch


def _rows(db: StoreDatabase, column: str, *, current: bool = False) -> Callable[[str], list[Mapping[str, Any]]]:
    """The shareholding rows with ``column`` equal to a key, in file order (``current``: only those without an
    end and with a share); KeyError for none."""
    sql = f"SELECT record FROM shareholdings WHERE {column} = ? ORDER BY seq"

    def fetch(key: str) -> list[Mapping[str, Any]]:
        rows = [json.loads(r[0]) for r in db.all(sql, (key,))]
        if current:
            rows = [r for r in rows if r.get("end") is None and float(r["share"]) > 0]
        if not rows:
            raise KeyError(key)
        return rows

    return fetch


def _keys(db: StoreDatabase, sql: str) -> Callable[[], Iterator[str]]:
    return lambda: (str(row[0]) for row in db.stream(sql))


def _count(db: StoreDatabase, sql: str) -> Callable[[], int]:
    def count() -> int:
        row = db.one(sql)
        return int(row[0]) if row else 0

    return count


class _SearchIndexes:
    """The search indexes of a catalog: the store's index files (``search/``), opened together on first use.

    A benchmark may put a bigger index in :attr:`built` (``catalog._index = ...``) before the first search.
    """

    def __init__(self, directory: Path):
        self.directory = directory
        self._lock = threading.Lock()
        self.built: dict[str, Any] = {}

    def _get(self, name: str) -> Any:
        with self._lock:
            if name not in self.built:
                from ..search.index_files import open_search_indexes

                started = time.perf_counter()
                opened = open_search_indexes(self.directory)
                for kind in ("companies", "insolvencies", "persons"):
                    self.built.setdefault(kind, getattr(opened, kind))
                logger.info("Opened the search indexes in %.0f ms", (time.perf_counter() - started) * 1000)
            return self.built[name]

    def insolvencies(self) -> InsolvencyIndex:
        index: InsolvencyIndex = self._get("insolvencies")
        return index

    def companies(self) -> CompanyIndex:
        index: CompanyIndex = self._get("companies")
        return index

    def persons(self) -> PersonIndex:
        index: PersonIndex = self._get("persons")
        return index


def load_catalog(world: World | None = None, data_dir: str | os.PathLike[str] | None = None) -> Catalog:
    """Return the catalog of ``world``, or of the world in ``data_dir`` (default: the bundled one).

    A world directory is served from its store (:func:`~regkit.local.world.world_store.open_world`: built once
    where there is none); an in-memory ``world`` gets a store in a temporary directory first. Catalogs are
    cached per process, by world object or by path and modification times, so a second application on the
    same data starts without opening it again.
    """
    if world is not None:
        key: Any = ("object", id(world))
    else:
        directory = Path(data_dir) if data_dir is not None else default_data_dir()
        directory = directory.resolve()
        stamp = tuple(p.stat().st_mtime_ns for p in sorted(directory.glob("*")) if p.is_file())
        key = ("path", str(directory), stamp)
    with _CACHE_LOCK:
        catalog = _CACHE.get(key)
        if catalog is None:
            started = time.perf_counter()
            stored = StoredWorld(store_for_world(world)) if world is not None else open_world(key[1])
            logger.info("Opened world %s in %.0f ms", stored.store, (time.perf_counter() - started) * 1000)
            catalog = _CACHE[key] = Catalog(stored)
        return catalog
