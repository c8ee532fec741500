"""The read-only side of a local register: the world and the lookups derived from it.

A world is read once per process and shared by every application built on it (tests create many);
the derived lookups (documents by id, persons by id, the insolvency search index) are built on first use.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from regkit.local.world.store import World, default_data_dir, read_world

from ..search.build import record_row
from ..search.company_index import CompanyIndex
from ..search.company_rows import company_row
from ..search.index import InsolvencyIndex
from .beneficial_owners import holders_by_company
from .people_index import Ownership, Person, person_index

__all__ = ["Catalog", "load_catalog"]

logger = logging.getLogger("regkit.local.catalog")  # the name log configurations know it by

_CACHE: dict[Any, Catalog] = {}
_CACHE_LOCK = threading.Lock()


class Catalog:
    """A world with its users, plans and derived indexes.

    Parameters
    ----------
    world : World
        The world as :func:`regkit.local.world.store.read_world` returns it.
    """

    def __init__(self, world: World):
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
        self._index_lock = threading.Lock()
        self._index: InsolvencyIndex | None = None
        self._people_lock = threading.Lock()
        self._people: tuple[Ownership, dict[str, Person], tuple[Person, ...]] | None = None
        self._company_lock = threading.Lock()  # its own: building one index does not hold up the other
        self._company_index: CompanyIndex | None = None

    @cached_property
    def documents(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Company documents by id: ``(company_id, CompanyDocument)`` (realtime records included)."""
        found: dict[str, tuple[str, dict[str, Any]]] = {}
        for records in (self.world.companies, self.world.realtime):
            for company_id, company in records.items():
                for document in company.get("documents", ()):
                    found.setdefault(document["id"], (company_id, document))
        return found

    @cached_property
    def persons(self) -> dict[str, dict[str, Any]]:
        """Natural persons by UUID: their ``natural_person`` details (may be empty) and ``name``.

        Representatives, natural-person shareholders and consumer debtors are persons.
        """
        found: dict[str, dict[str, Any]] = {}
        for company in self.world.companies.values():
            for entry in company.get("representation", ()):
                if entry.get("type") == "natural_person" and entry.get("id"):
                    details = dict(entry.get("natural_person") or {})
                    found.setdefault(entry["id"], {"name": entry.get("name"), **details})
        for holding in self.world.shareholdings:
            if holding.get("holder_type") == "natural_person" and holding.get("holder_id"):
                details = dict(holding.get("holder_details") or {})
                found.setdefault(holding["holder_id"], {"name": holding.get("holder_name"), **details})
        for proceeding in self.world.insolvencies.values():
            if proceeding.get("person_id"):
                found.setdefault(
                    proceeding["person_id"], {"name": proceeding.get("debtor_name"), "city": proceeding.get("city")}
                )
        return found

    @cached_property
    def holders(self) -> dict[str, list[Mapping[str, Any]]]:
        """Current shareholdings with a share, grouped by the company held (for beneficial owners)."""
        return holders_by_company(
            row for row in self.world.shareholdings if row.get("end") is None and float(row["share"]) > 0
        )

    @property
    def ownership(self) -> Ownership:
        """The shareholdings by company held and by holder (owners and holdings answer from it)."""
        return self._people_indexes()[0]

    @property
    def people(self) -> dict[str, Person]:
        """Every person of the world by lower-case UUID, with their management positions."""
        return self._people_indexes()[1]

    @property
    def people_sorted(self) -> tuple[Person, ...]:
        """The persons in the person search's order (last name, first name, date of birth, id)."""
        return self._people_indexes()[2]

    def _people_indexes(self) -> tuple[Ownership, dict[str, Person], tuple[Person, ...]]:
        """Built once, under a lock: the first requests of a threaded server come together."""
        with self._people_lock:
            if self._people is None:
                people = person_index(self.world.companies, self.persons)
                ordered = tuple(sorted(people.values(), key=lambda person: person.sort_key()))
                self._people = (Ownership.of(self.world.shareholdings), people, ordered)
            return self._people

    @property
    def insolvency_index(self) -> InsolvencyIndex:
        """The search index over the world's proceedings (built in a shared in-memory database on first use)."""
        with self._index_lock:
            if self._index is None:
                started = time.perf_counter()
                index = InsolvencyIndex.in_memory(
                    record_row(i + 1, p) for i, p in enumerate(self.world.insolvencies.values())
                )
                logger.info("Indexed %d proceedings in %.0f ms", index.size, (time.perf_counter() - started) * 1000)
                self._index = index
            return self._index

    @property
    def company_index(self) -> CompanyIndex:
        """The company search index over the world's companies (built in a shared in-memory database on first
        use)."""
        with self._company_lock:
            if self._company_index is None:
                started = time.perf_counter()
                open_cases = {
                    p["company_id"]
                    for p in self.world.insolvencies.values()
                    if p.get("company_id") and p.get("has_open_insolvency")
                }
                index = CompanyIndex.in_memory(
                    company_row(c, open_insolvency=c["id"] in open_cases) for c in self.world.companies.values()
                )
                logger.info("Indexed %d companies in %.0f ms", index.size, (time.perf_counter() - started) * 1000)
                self._company_index = index
            return self._company_index

    def plan(self, name: str) -> dict[str, Any]:
        """The plan ``name`` (``{"paid", "monitoring", "extract_quota_30d"}``); raises KeyError if unknown."""
        return self.plans[name]


def load_catalog(world: World | None = None, data_dir: str | os.PathLike[str] | None = None) -> Catalog:
    """Return the catalog of ``world``, or of the world in ``data_dir`` (default: the bundled one).

    Worlds read from a directory are cached per process by path and modification times, so a second
    application on the same data starts without reading it again.
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
            if world is None:
                started = time.perf_counter()
                world = read_world(key[1])
                logger.info("Read world %s in %.0f ms", key[1], (time.perf_counter() - started) * 1000)
            catalog = _CACHE[key] = Catalog(world)
        return catalog
