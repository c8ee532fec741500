"""The three search indexes of a world as files in one directory: built together, opened together.

:func:`build_search_indexes` writes ``companies.sqlite``, ``insolvencies.sqlite`` and ``persons.sqlite``
(:data:`INDEX_FILES`) from a world's records, streaming them (each file written under a temporary name and renamed
into place when complete); :func:`open_search_indexes` opens all three read-only, reading a page or two of each.
A world store builds them beside its records once and opens them at every start.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .build import record_row
from .company_index import CompanyIndex
from .company_rows import company_row, wz_parents
from .index import InsolvencyIndex
from .person_index import PersonIndex

if TYPE_CHECKING:
    from .person_rows import Person

__all__ = [
    "INDEX_FILES",
    "SearchIndexes",
    "build_insolvency_index",
    "build_person_index",
    "build_record_indexes",
    "build_staged_company_index",
    "build_search_indexes",
    "open_search_indexes",
]

#: File name of each index in the directory.
INDEX_FILES = {"companies": "companies.sqlite", "insolvencies": "insolvencies.sqlite", "persons": "persons.sqlite"}


@dataclass
class SearchIndexes:
    """The opened search indexes of a world."""

    companies: CompanyIndex
    insolvencies: InsolvencyIndex
    persons: PersonIndex

    def close(self) -> None:
        """Close the indexes' connections."""
        self.companies.close()
        self.insolvencies.close()
        self.persons.close()


def build_search_indexes(
    directory: str | os.PathLike[str],
    companies: Callable[[], Iterable[Mapping[str, Any]]],
    insolvencies: Callable[[], Iterable[Mapping[str, Any]]],
    persons: Iterable[Person],
) -> None:
    """Write the three index files into ``directory``.

    Parameters
    ----------
    directory : path
        Where the files go (created if missing).
    companies, insolvencies : callable
        Each returns a fresh iterable of the world's CompanyV1 records / proceedings (the proceedings are read
        twice: once for which companies have an open one, once for their index).
    persons : iterable of Person
        The world's persons (:class:`~regkit.local.search.person_rows.Person`).
    """
    build_record_indexes(directory, companies, insolvencies)
    build_person_index(directory, persons)


def build_record_indexes(
    directory: str | os.PathLike[str],
    companies: Callable[[], Iterable[Mapping[str, Any]]],
    insolvencies: Callable[[], Iterable[Mapping[str, Any]]],
) -> None:
    """Write ``companies.sqlite`` and ``insolvencies.sqlite`` into ``directory`` (parameters as for
    :func:`build_search_indexes`): what needs the records alone, so a world store builds them from the world's
    files in a process of their own while it writes its records."""
    target = Path(directory)
    open_cases = {p["company_id"] for p in insolvencies() if p.get("company_id") and p.get("has_open_insolvency")}
    parents = wz_parents()
    CompanyIndex.build(
        target / INDEX_FILES["companies"],
        (company_row(c, open_insolvency=c["id"] in open_cases, parents=parents) for c in companies()),
    )
    build_insolvency_index(target, insolvencies())


def build_staged_company_index(directory: str | os.PathLike[str], stages: Iterable[str | os.PathLike[str]]) -> None:
    """Write ``companies.sqlite`` into ``directory`` from company rows staged in the files ``stages``
    (:class:`~regkit.local.search.company_index.CompanyRowStage`; the OffeneRegister import's workers stage them
    while they map, so the index need not read the world's files again). The rows must have been made with the
    world's open insolvencies known (:func:`~regkit.local.search.company_rows.company_row`)."""
    CompanyIndex.build_staged(Path(directory) / INDEX_FILES["companies"], stages)


def build_insolvency_index(directory: str | os.PathLike[str], insolvencies: Iterable[Mapping[str, Any]]) -> None:
    """Write ``insolvencies.sqlite`` into ``directory`` from the world's proceedings (as for
    :func:`build_search_indexes`)."""
    InsolvencyIndex.build(
        Path(directory) / INDEX_FILES["insolvencies"], (record_row(i + 1, p) for i, p in enumerate(insolvencies))
    )


def build_person_index(directory: str | os.PathLike[str], persons: Iterable[Person]) -> None:
    """Write ``persons.sqlite`` into ``directory`` from the world's persons (as for :func:`build_search_indexes`)."""
    PersonIndex.build(Path(directory) / INDEX_FILES["persons"], persons)


def open_search_indexes(directory: str | os.PathLike[str]) -> SearchIndexes:
    """Open the three index files of ``directory`` read-only.

    Raises
    ------
    IndexFileError
        A file is missing, truncated, damaged or of another format (rebuild with :func:`build_search_indexes`).
    """
    source = Path(directory)
    return SearchIndexes(
        companies=CompanyIndex.open(source / INDEX_FILES["companies"]),
        insolvencies=InsolvencyIndex.open(source / INDEX_FILES["insolvencies"]),
        persons=PersonIndex.open(source / INDEX_FILES["persons"]),
    )
