"""Person search: one person of the world as the person endpoints show them, with what the search matches on.

A person (a natural person with a UUID: a representative, a shareholder, a consumer debtor) becomes one
:class:`Person` — the name split into first and last name, the management positions in order, and the search
terms of the name (:func:`~regkit.local.search.query.query_terms`). The person index
(:mod:`~regkit.local.search.person_index`) is built from them; the world store reads them from its tables
(:func:`~regkit.local.world.world_store.read.read_person`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .query import fold, query_terms

__all__ = ["Person", "stored_person"]


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
