"""The search indexes of a day past the world's ``as_of``: the company, person and insolvency searches of the world
as the continuation left it.

The store's index files (:mod:`regkit.local.search.index_files`) index the world on its ``as_of``. Once the
register's clock has moved on, a search must find what the days since brought — a company under its new name or in
its new town, a director appointed since, a proceeding filed since, a company now in liquidation — and no longer
find what they ended. So a moved-on day's searches answer from indexes built from that day's records, by the same
builders as the files (:func:`~regkit.local.search.company_rows.company_row`,
:func:`~regkit.local.search.build.record_row`, the :class:`~regkit.local.search.person_rows.Person` rows): what a
search answers on a day is what it would answer over a world stored as that day's records.

Each index is built in memory on the first search of its kind on a day and kept for that day (one day per
catalog: the register's today only moves forward); it indexes every record of the day, so its cost is the size of
the world (``benchmarks/bench_continuation.py`` prints it for the bundled world). An imported world does not live
on and always answers from its files.
"""

from __future__ import annotations

import datetime as dt
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from regkit.local.world.continuation import Continuation
from regkit.local.world.world_store import read_people

from ..search.person_rows import Person
from .catalog import Catalog

if TYPE_CHECKING:  # the search (and numpy) is imported when a first search needs its index, not at start
    from ..search.company_index import CompanyIndex
    from ..search.index import InsolvencyIndex
    from ..search.person_index import PersonIndex

__all__ = ["DaySearchIndexes", "WorldOnADay", "day_search_indexes"]


class WorldOnADay(Protocol):
    """What the indexes read a day's records through (:class:`~regkit.local.models.world_day.WorldDay` is one)."""

    catalog: Catalog
    day: dt.date

    def continuation(self) -> Continuation: ...

    def person(self, key: str) -> Person | None: ...


_BUILT: weakref.WeakKeyDictionary[Catalog, DaySearchIndexes] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def day_search_indexes(world_day: WorldOnADay) -> DaySearchIndexes:
    """The search indexes of ``world_day`` (a moved-on day), shared by every register on its catalog."""
    with _LOCK:
        found = _BUILT.get(world_day.catalog)
        if found is None or found.day != world_day.day:
            found = _BUILT[world_day.catalog] = DaySearchIndexes(world_day)
        return found


class DaySearchIndexes:
    """The company, person and insolvency indexes of one moved-on day, each built on its first use.

    Parameters
    ----------
    world_day : WorldOnADay
        The day (a :class:`~regkit.local.models.world_day.WorldDay` whose ``moved_on`` is true).
    """

    def __init__(self, world_day: WorldOnADay):
        self.world_day = world_day
        self.day: dt.date = world_day.day
        self._lock = threading.Lock()
        self._built: dict[str, Any] = {}

    def _get(self, kind: str, build: Callable[[], Any]) -> Any:
        with self._lock:
            if kind not in self._built:
                self._built[kind] = build()
            return self._built[kind]

    def companies(self) -> CompanyIndex:
        """The company search over the day's records (an open proceeding of the day marks its company)."""
        index: CompanyIndex = self._get("companies", self._companies)
        return index

    def insolvencies(self) -> InsolvencyIndex:
        """The insolvency search over the day's proceedings (those filed since ``as_of`` included)."""
        index: InsolvencyIndex = self._get("insolvencies", self._insolvencies)
        return index

    def persons(self) -> PersonIndex:
        """The person search over the day's persons (with their positions on the day; those appointed since
        included)."""
        index: PersonIndex = self._get("persons", self._persons)
        return index

    def _companies(self) -> CompanyIndex:
        from ..search.company_index import CompanyIndex
        from ..search.company_rows import company_row, wz_parents

        continuation = self.world_day.continuation()
        open_cases = {
            p["company_id"]
            for p in continuation.proceedings_on(self.day).values()
            if p.get("company_id") and p.get("has_open_insolvency")
        }
        parents = wz_parents()
        records = continuation.companies_on(self.day).values()
        return CompanyIndex.in_memory(
            company_row(record, open_insolvency=record["id"] in open_cases, parents=parents) for record in records
        )

    def _insolvencies(self) -> InsolvencyIndex:
        from ..search.build import record_row
        from ..search.index import InsolvencyIndex

        proceedings = self.world_day.continuation().proceedings_on(self.day).values()
        return InsolvencyIndex.in_memory(record_row(number, p) for number, p in enumerate(proceedings, start=1))

    def _persons(self) -> PersonIndex:
        from ..search.person_index import PersonIndex

        return PersonIndex.in_memory(self._people())

    def _people(self) -> Iterator[Person]:
        """The stored persons (those the days since named, as the day shows them), then the persons first named
        since ``as_of``, in the order of their UUIDs."""
        world_day = self.world_day
        named = world_day.continuation().persons_named(self.day)
        for person in read_people(world_day.catalog.world.db):
            key = person.id.lower()
            if key in named:
                named.discard(key)
                found = world_day.person(key)
                if found is not None:
                    yield found
            else:
                yield person
        for key in sorted(named):
            found = world_day.person(key)
            if found is not None:
                yield found
