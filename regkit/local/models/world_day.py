"""The world as the register serves it on its today: the stored records, and past ``as_of`` the continuation's.

A generated world lives on past its ``as_of`` (:mod:`regkit.local.world.continuation`): on a later today a company
record is the one the continuation's events left, a person's management positions are those of the records on
that day, and a person appointed after ``as_of`` is a person of the world. On ``as_of`` itself (and for an
imported world, which does not live on) every answer reads the store as it is, with no continuation built.

A company that moved to another court's district has a new id from the day of the move. The records and rows of
the day name it by that id; an id a user gives goes through :meth:`WorldDay.resolve` first (a former id, before
``as_of`` or since, leads to the company under its id of the day), and what is stored by the id a company had on
``as_of`` — its Transparenzregister entity, the seed of its statements — is looked up by :meth:`WorldDay.origin`.

:class:`WorldDay` is what the models read records through; a register context hands out the one of its today
(:meth:`regkit.local.models.backend.RegisterContext.world_day`).
"""

from __future__ import annotations

import datetime as dt
import threading
import weakref
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..search.person_rows import Person, stored_person
from ..world.continuation import Continuation
from ..world.reference import load_reference
from ..world.store import default_reference_dir
from .catalog import Catalog
from .clock import lives_on, world_as_of
from .day_search import day_search_indexes

if TYPE_CHECKING:  # the search (and numpy) is imported when a first search needs its index, not at start
    from ..search.company_index import CompanyIndex
    from ..search.index import InsolvencyIndex
    from ..search.person_index import PersonIndex

__all__ = ["WorldDay", "continuation_of"]

_CONTINUATIONS: weakref.WeakKeyDictionary[Catalog, Continuation] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def continuation_of(catalog: Catalog) -> Continuation:
    """The continuation of ``catalog``'s world, built once per catalog (the reference lists are read then)."""
    with _LOCK:
        found = _CONTINUATIONS.get(catalog)
        if found is None:
            world = catalog.world
            reference = load_reference(default_reference_dir())
            found = _CONTINUATIONS[catalog] = Continuation(
                world.meta, world.companies, world.realtime, world.insolvencies, reference, catalog.ownership.by_company
            )
        return found


class WorldDay:
    """The records of ``catalog``'s world on ``day``.

    Parameters
    ----------
    catalog : Catalog
        The world and its lookups.
    day : datetime.date
        The register's today (not before the world's ``as_of``).
    """

    def __init__(self, catalog: Catalog, day: dt.date):
        self.catalog = catalog
        self.day = day
        self.moved_on = lives_on(catalog.meta) and day > world_as_of(catalog.meta)
        #: Company records by their id on :attr:`day` (a read-only mapping; former ids do not resolve here).
        self.companies: Mapping[str, dict[str, Any]] = _Companies(self)
        #: The current shareholdings with a share by the company held, on :attr:`day` (as ``Catalog.holders``).
        self.holders: Mapping[str, list[Mapping[str, Any]]] = _Holders(self) if self.moved_on else catalog.holders

    def resolve(self, company_id: str) -> str:
        """The id on this day of the company ``company_id`` names: itself, or for a former id (a move to another
        register court before the world's ``as_of``, ``world.json`` ``former_ids``, or since) the company's id
        after its moves."""
        company_id = self.catalog.world.meta.get("former_ids", {}).get(company_id, company_id)
        if not self.moved_on:
            return company_id
        return continuation_of(self.catalog).current_id(company_id, self.day)

    def origin(self, company_id: str) -> str:
        """The id the company with ``company_id`` (its id on this day) had on the world's ``as_of``, or at its
        incorporation since: what the stored world and the data derived from it key it by."""
        return continuation_of(self.catalog).origin(company_id) if self.moved_on else company_id

    def shareholdings(self, company_id: str) -> list[Mapping[str, Any]]:
        """The shareholding rows of the company ``company_id`` on this day, current and past, in file order (a
        company merged since has its holders' rows ended)."""
        if not self.moved_on:
            return list(self.catalog.ownership.by_company.get(company_id, ()))
        return continuation_of(self.catalog).shareholdings(company_id, self.day)

    def holdings(self, holder_id: str) -> list[Mapping[str, Any]]:
        """The shareholding rows whose holder is ``holder_id`` (a company's id on this day or a person's UUID) on
        this day (a company that moved since ``as_of`` has every row it holds under its new id among the stakes it
        took on the day of the move)."""
        stored = list(self.catalog.ownership.by_holder.get(holder_id, ()))
        if not self.moved_on:
            return stored
        continuation = continuation_of(self.catalog)
        changed = continuation.shareholdings_changed(self.day)
        if not changed:
            return stored
        moved = set(changed)
        rows = [row for row in stored if row["company_id"] not in moved]
        # a holder's changed rows are among the companies it held on the world's date or took a stake in since
        held = ({row["company_id"] for row in stored} | continuation.stakes_taken(holder_id, self.day)) & moved
        for company_id in sorted(held):
            rows += [r for r in continuation.shareholdings(company_id, self.day) if r.get("holder_id") == holder_id]
        return rows

    def document(self, document_id: str) -> tuple[str, dict[str, Any]] | None:
        """``(company id, document)`` of the document ``document_id`` a company lists on this day (one filed since
        the world's ``as_of`` included), or None."""
        found = self.catalog.documents.get(document_id)
        if not self.moved_on:
            return found
        continuation = continuation_of(self.catalog)
        found = found or continuation.document(document_id, self.day)
        if found is None:
            return None
        return continuation.current_id(found[0], self.day), found[1]

    def continuation(self) -> Continuation:
        """The continuation of the world (built on first use)."""
        return continuation_of(self.catalog)

    @property
    def company_index(self) -> CompanyIndex:
        """The company search of this day: the store's index file, or past ``as_of`` one over the day's records
        (:mod:`~regkit.local.models.day_search`)."""
        if not self.moved_on:
            return self.catalog.company_index
        return day_search_indexes(self).companies()

    @property
    def person_index(self) -> PersonIndex:
        """The person search of this day (as :attr:`company_index`)."""
        if not self.moved_on:
            return self.catalog.person_index
        return day_search_indexes(self).persons()

    @property
    def insolvency_index(self) -> InsolvencyIndex:
        """The insolvency search of this day (as :attr:`company_index`)."""
        if not self.moved_on:
            return self.catalog.insolvency_index
        return day_search_indexes(self).insolvencies()

    def company(self, company_id: str) -> dict[str, Any] | None:
        """The record of ``company_id`` on this day, or None."""
        if not self.moved_on:
            return self.catalog.world.companies.get(company_id)
        return continuation_of(self.catalog).company(company_id, self.day)

    def realtime(self, company_id: str) -> dict[str, Any] | None:
        """The record with the company's pending register changes, while they are still ahead (once their day has
        come they are the company's record), or None."""
        pending = self.catalog.world.realtime.get(company_id)
        if pending is None or not self.moved_on:
            return pending
        registered = continuation_of(self.catalog).pending_day(company_id)
        return None if registered is not None and registered <= self.day else pending

    def nominal_share(self, row: Mapping[str, Any]) -> float:
        """The nominal share of a shareholding row on this day (a capital increase registered since ``as_of``
        raises every holder's in proportion)."""
        if not self.moved_on:
            return float(row["nominal_share"])
        return float(continuation_of(self.catalog).nominal_share(row, self.day))

    def insolvency(self, insolvency_id: str) -> dict[str, Any] | None:
        """The proceeding with the lower-case UUID ``insolvency_id`` on this day (filed since ``as_of`` included,
        with the events published since), or None."""
        if not self.moved_on:
            return self.catalog.world.insolvencies.get(insolvency_id)
        return continuation_of(self.catalog).proceeding(insolvency_id, self.day)

    def person(self, key: str) -> Person | None:
        """The person with the lower-case UUID ``key`` on this day (their management positions as the records of
        the day show them), or None."""
        stored = self.catalog.people.get(key)
        if not self.moved_on:
            return stored
        continuation = continuation_of(self.catalog)
        companies = continuation.companies_of_person(key, self.day)
        if not companies:
            debtor = None if stored is not None else continuation.debtor(key, self.day)
            return stored_person(key, debtor, ()) if debtor is not None else stored
        positions = [p for p in (stored.positions if stored else ()) if p["register_id"] not in companies]
        entry: Mapping[str, Any] | None = None
        for company_id in sorted(companies):
            record = continuation.company(company_id, self.day) or {}
            for position, found in _positions(record, key):
                entry = entry or found
                if position is not None:
                    positions.append(position)
        if stored is not None:
            details = {
                "first_name": stored.first_name,
                "last_name": stored.last_name,
                "city": stored.city,
                "date_of_birth": stored.date_of_birth,
            }
            return stored_person(stored.id, details, positions)
        if entry is None:
            return None
        return stored_person(entry["id"], {"name": entry["name"], **(entry.get("natural_person") or {})}, positions)


def _positions(record: Mapping[str, Any], key: str) -> Iterator[tuple[dict[str, Any] | None, Mapping[str, Any]]]:
    """The representation entries of the person ``key`` in ``record``, each with its management position (None for
    a ``SHAREHOLDER`` entry: a shareholder is a person of the world, but holding is no position)."""
    for entry in record.get("representation") or ():
        if entry.get("type") != "natural_person" or str(entry.get("id") or "").lower() != key:
            continue
        if entry["role"] == "SHAREHOLDER":
            yield None, entry
            continue
        position = {
            "company_name": record["name"]["name"],
            "register_id": record["id"],
            "role": entry["role"],
            "start_date": entry["start_date"],
            "end_date": entry["end_date"],
        }
        yield position, entry


class _Companies(Mapping[str, dict[str, Any]]):
    """The company records of a :class:`WorldDay` as a mapping: the stored ids (a company that moved to another
    court's district since ``as_of`` under its new id), then those of the companies incorporated since ``as_of`` in
    the order they were registered."""

    def __init__(self, day: WorldDay):
        self._day = day

    def __getitem__(self, key: str) -> dict[str, Any]:
        record = self._day.company(key)
        if record is None:
            raise KeyError(key)
        return record

    def _new(self) -> list[str]:
        return self._day.continuation().incorporated(self._day.day) if self._day.moved_on else []

    def __iter__(self) -> Iterator[str]:
        if not self._day.moved_on:
            yield from self._day.catalog.world.companies
            return
        moves = self._day.continuation().moves(self._day.day)
        yield from (moves.get(company_id, company_id) for company_id in self._day.catalog.world.companies)
        yield from self._new()

    def __len__(self) -> int:
        return len(self._day.catalog.world.companies) + len(self._new())


class _Holders(Mapping[str, list[Mapping[str, Any]]]):
    """The current shareholdings with a share by the company held on a moved-on :class:`WorldDay` (KeyError for a
    company without any, as ``Catalog.holders``)."""

    def __init__(self, day: WorldDay):
        self._day = day

    def __getitem__(self, key: str) -> list[Mapping[str, Any]]:
        rows = [r for r in self._day.shareholdings(key) if r.get("end") is None and float(r["share"]) > 0]
        if not rows:
            raise KeyError(key)
        return rows

    def __iter__(self) -> Iterator[str]:
        continuation = self._day.continuation()
        moves, new = continuation.moves(self._day.day), continuation.incorporated(self._day.day)
        stored = (moves.get(key, key) for key in self._day.catalog.holders)
        return (key for keys in (stored, new) for key in keys if key in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)
