"""The read-only lookups behind owners, holdings and persons: what the catalog reads from the world's store.

Kept apart from the metered models (:mod:`.ownership`, :mod:`.persons`) so that the catalog can build them
without importing metering, which needs the catalog. :func:`read_person` reads one :class:`Person` from a world
store's rows (the catalog reads a person when asked); :func:`read_people` reads them all, one at a time (the person
search index is built from them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..json_lines import load_line
from ..search.query import fold, query_terms

__all__ = ["Ownership", "Person", "read_people", "read_person", "stored_person"]


@dataclass
class Ownership:
    """The world's shareholding rows by the company held and by the holder (a company id or a person UUID)."""

    by_company: Mapping[str, list[Mapping[str, Any]]] = field(default_factory=dict)
    by_holder: Mapping[str, list[Mapping[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Person:
    """One person of the world as the person endpoints show them, with what the search matches on."""

    id: str
    first_name: str | None
    last_name: str | None
    city: str | None
    date_of_birth: str | None
    positions: tuple[dict[str, Any], ...]
    terms: tuple[str, ...]

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)

    @property
    def active(self) -> bool:
        """Holds at least one current management position."""
        return any(p["end_date"] is None for p in self.positions)

    def sort_key(self) -> tuple[str, str, str, str]:
        return (fold(self.last_name), fold(self.first_name), self.date_of_birth or "", self.id)


def stored_person(person_id: str, details: Mapping[str, Any], positions: Iterable[dict[str, Any]]) -> Person:
    """One person from their details (the catalog's ``persons``) and their management positions (any order).

    The name is split into first and last name where the details do not give them; positions are sorted by
    start date, company id and role.
    """
    first, last = details.get("first_name"), details.get("last_name")
    if not (first and last) and details.get("name"):
        first, _, last = str(details["name"]).rpartition(" ")
    held = sorted(positions, key=lambda p: (p["start_date"], p["register_id"], p["role"]))
    return Person(
        id=person_id,
        first_name=first or None,
        last_name=last or None,
        city=details.get("city"),
        date_of_birth=details.get("date_of_birth"),
        positions=tuple(held),
        terms=tuple(query_terms(f"{first or ''} {last or ''}")),
    )


def read_person(db: Any, key: str) -> Person | None:
    """The person stored under ``key`` (a lower-case UUID) in a world store's ``persons`` and ``positions`` tables
    (``db`` a :class:`~regkit.local.world.world_store.StoreDatabase`), or None."""
    row = db.one("SELECT id, details FROM persons WHERE key = ? ORDER BY rowid DESC LIMIT 1", (key,))
    if row is None:
        return None
    positions = db.all("SELECT record FROM positions WHERE person_id = ? ORDER BY seq", (row[0],))
    return stored_person(row[0], load_line(row[1]), [load_line(p[0]) for p in positions])


def read_people(db: Any) -> Iterator[Person]:
    """Every person of a world store, one at a time (for the person search index)."""
    for (key,) in db.stream("SELECT key FROM persons GROUP BY key ORDER BY min(rowid)"):
        person = read_person(db, key)
        if person is not None:
            yield person
