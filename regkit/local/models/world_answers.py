"""A whole world as the register answers about it on its ``as_of``: every answer of each kind, a range of ids at a time.

What a world export reads (:func:`regkit.frames.world_export.export_world`): the bodies the endpoints give — a
company (``export=true``: no source documents), its owners and its holdings, a person and their holdings, a
proceeding, a company's financials — made by the same functions that answer a request, over the world's store on
the day its copy was taken, with nothing charged and no URL signed (``sources`` stay empty). A world that lives on
past ``as_of`` (:mod:`regkit.local.world.continuation`) is exported as it was stored; the continuation's later days
are what ``regkit serve`` shows.

The answers of a kind are in the order of their ids, and :meth:`WorldAnswers.ranges` cuts them into ranges of about
the same number, so that processes may make the ranges of one kind at once, each opening the store itself.

=================  ==============================================  ==================================================
kind               one answer per                                  body of
=================  ==============================================  ==================================================
company            company of the store                            ``GET /v1/company/{id}?export=true``
owners             company with shareholding rows                  ``GET /v1/company/{id}/owners?export=true``
                                                                   (``best_available`` for an AG, SE or KGaA)
holdings           company that holds or held shares               ``GET /v1/company/{id}/holdings``
person_holdings    person who holds or held shares                 ``GET /v1/person/{id}/holdings``
person             person of the store (by lower-case UUID)        ``GET /v1/person/{id}`` (``age`` on ``as_of``)
insolvency         proceeding of the store                         ``GET /v1/insolvency/{id}``
financials         company with filed reports (a synthetic world)  ``GET /v1/company/{id}/financials`` (no ``sources``),
                                                                   and the company's id as ``company_id``
=================  ==============================================  ==================================================
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..world.world_store import StoredWorld, ensure_store, read_person
from .catalog import Catalog
from .clock import world_as_of
from .financials import day_financials
from .insolvencies import detail_of
from .ownership import NOT_IN_REGISTER, holdings_of, owners_of
from .persons import person_body
from .world_day import WorldDay

__all__ = ["ANSWER_KINDS", "IdRange", "WorldAnswers", "world_provenance"]

#: The kinds of answer, in the order an export writes them.
ANSWER_KINDS = ("company", "owners", "holdings", "person_holdings", "person", "insolvency", "financials")

#: The members of ``world.json`` that say what a world is and where it comes from (nothing else of it — its demo
#: users' keys, its Transparenzregister accounts — ever leaves the world directory).
_PROVENANCE = (
    "synthetic",
    "source",
    "notice",
    "attribution",
    "licence",
    "provenance",
    "retrieved",
    "as_of",
    "size",
    "seed",
    "generator",
    "dates_of_birth",
)

#: Where the ids of each kind are: table, column, and a condition on the rows.
_IDS = {
    "company": ("companies", "id", "1"),
    "owners": ("shareholdings", "company_id", "1"),
    "holdings": ("shareholdings", "holder_id", "holder_id LIKE 'DE-%'"),
    "person_holdings": ("shareholdings", "holder_id", "holder_id IS NOT NULL AND holder_id NOT LIKE 'DE-%'"),
    "person": ("persons", "key", "1"),
    "insolvency": ("insolvencies", "id", "1"),
    "financials": ("companies", "id", "1"),
}


def _ids_sql(kind: str, *, bounded: bool) -> str:
    """The query of the ids of ``kind`` in order; ``bounded``: those from a first (included) up to a stop
    (excluded, open when None), three parameters: first, stop, stop."""
    table, column, condition = _IDS[kind]
    if bounded:
        condition += f" AND {column} >= ? AND (? IS NULL OR {column} < ?)"
    return f"SELECT DISTINCT {column} FROM {table} WHERE {condition} ORDER BY {column}"


@dataclass(frozen=True)
class IdRange:
    """The ids of one kind from ``first`` (included) up to ``stop`` (excluded; None: to the last), ``count`` of them."""

    kind: str
    first: str
    stop: str | None
    count: int


def world_provenance(meta: dict[str, Any]) -> dict[str, Any]:
    """What ``world.json`` says of a world's nature and origin: its source, notice, attribution, licence, ``as_of``,
    size and seed — never its demo users' keys or Transparenzregister accounts."""
    return {key: meta[key] for key in _PROVENANCE if key in meta}


class WorldAnswers:
    """The answers of a world on its ``as_of``, read from its store (see the module's table of kinds).

    Parameters
    ----------
    store : path
        A world store directory (:func:`WorldAnswers.open` finds or builds the one of a world directory).
    """

    def __init__(self, store: str | os.PathLike[str]):
        self.store = Path(store)
        self.world = StoredWorld(self.store)
        self.catalog = Catalog(self.world)
        self.as_of: dt.date = world_as_of(self.world.meta)
        self.day = WorldDay(self.catalog, self.as_of)
        self._financials = bool(self.world.meta.get("synthetic"))

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str] | None = None) -> WorldAnswers:
        """The answers of the world in ``data_dir`` (default: the bundled one), its store built first if needed."""
        return cls(ensure_store(data_dir))

    def provenance(self) -> dict[str, Any]:
        """:func:`world_provenance` of this world."""
        return world_provenance(self.world.meta)

    def has(self, kind: str) -> bool:
        """Whether the world answers ``kind`` at all (an imported world has no filed reports)."""
        return kind != "financials" or self._financials

    def count(self, kind: str) -> int:
        """How many answers of ``kind`` there are (for ``financials``: companies, with or without reports)."""
        if not self.has(kind):
            return 0
        table, column, condition = _IDS[kind]
        row = self.world.db.one(f"SELECT count(DISTINCT {column}) FROM {table} WHERE {condition}")
        return int(row[0]) if row else 0

    def ranges(self, kind: str, size: int) -> list[IdRange]:
        """The ids of ``kind`` cut into ranges of ``size`` ids (the last may hold fewer); none for a kind the world
        does not answer, or has no ids of."""
        if kind not in _IDS:
            raise ValueError(f"unknown kind {kind!r}; the kinds are {', '.join(ANSWER_KINDS)}")
        if not self.has(kind):
            return []
        firsts: list[str] = []
        count = 0
        for (key,) in self.world.db.stream(_ids_sql(kind, bounded=False)):
            if count % size == 0:
                firsts.append(str(key))
            count += 1
        stops: list[str | None] = [*firsts[1:], None]
        counts = [size] * (len(firsts) - 1) + [count - size * (len(firsts) - 1)] if firsts else []
        return [IdRange(kind, first, stop, n) for first, stop, n in zip(firsts, stops, counts)]

    def answers(self, part: IdRange) -> Iterator[dict[str, Any]]:
        """The answers of the ids in ``part``, in id order."""
        kind, first, stop = part.kind, part.first, part.stop
        if kind == "company":
            for _, record in self.world.companies.stream_range(first, stop):
                yield {**record, "sources": []}
        elif kind == "financials":
            for _, record in self.world.companies.stream_range(first, stop):
                answer = day_financials(self.day, record)
                if answer["reports"]:
                    reports = [{**r, "sources": []} for r in answer["reports"]]
                    yield {"company_id": record["id"], **answer, "reports": reports}
        elif kind == "insolvency":
            for _, record in self.world.insolvencies.stream_range(first, stop):
                yield detail_of(record)
        else:
            for key in self._ids(kind, first, stop):
                yield self._answer(kind, key)

    def _ids(self, kind: str, first: str, stop: str | None) -> Iterator[str]:
        return (str(row[0]) for row in self.world.db.stream(_ids_sql(kind, bounded=True), (first, stop, stop)))

    def _answer(self, kind: str, key: str) -> dict[str, Any]:
        if kind == "owners":
            record = self.world.companies[key]
            return {
                "company_id": key,
                "best_available": record["legal_form"] in NOT_IN_REGISTER,
                "owners": owners_of(self.day, key),
                "sources": [],
            }
        if kind == "holdings":
            return {"company_id": key, "holdings": holdings_of(self.day, key)}
        if kind == "person_holdings":
            return {"person_id": key, "holdings": holdings_of(self.day, key)}
        person = read_person(self.world.db, key)
        if person is None:  # a key the persons table lists always has a person
            raise KeyError(key)
        return person_body(person, self.as_of)

    def company_names(self, ids: list[str]) -> dict[str, str]:
        """The current name of each company of ``ids`` the world has."""
        names = {}
        for company_id in ids:
            record = self.world.companies.get(company_id)
            if record is not None:
                names[company_id] = record["name"]["name"]
        return names

    def close(self) -> None:
        """Close this thread's connection to the store."""
        self.world.db.close()
