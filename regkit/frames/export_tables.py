"""The tables of a Parquet export: which answers feed each, and the :mod:`regkit.frames` builder that makes it.

Each table is the frame a user gets from the same records — ``companies`` is ``regkit.frames.companies(records)``,
``names`` is ``regkit.frames.history(records, "names")`` — with its columns and dtypes, so that
``pd.read_parquet(directory / "companies")`` equals the frame built from the cached records directly. The one
table of its own is ``sources``, the provenance of every answer read (:data:`SOURCES_SPEC`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import pandas as pd

from ._columns import BOOL, DATETIME, STR, Cat, build_frame
from .company_search import company_search_results
from .details import contact, documents, industry_codes, insolvency_summaries
from .export_sources import KINDS, Source
from .financials import indicators
from .histories import FIELDS, history
from .insolvency import events, insolvency_results, proceedings
from .overview import companies
from .ownership import holdings, owners
from .people import management_positions, person_search_results, persons
from .relations import links
from .roles import representatives

__all__ = ["ExportTable", "TABLES", "TABLES_OF", "SOURCES_SPEC", "sources_frame", "build_tables", "build_frames"]


@dataclass(frozen=True)
class ExportTable:
    """One table: its name, the answer kinds it is made from, its builder and how the builder is called."""

    name: str
    kinds: tuple[str, ...]
    build: Callable[[Sequence[Any]], pd.DataFrame]
    call: str

    def empty(self) -> pd.DataFrame:
        """The table with no rows: its columns and dtypes (the Parquet schema of every part file)."""
        return self.build([])


def _table(name: str, kinds: tuple[str, ...], build: Callable[..., pd.DataFrame], call: str) -> ExportTable:
    return ExportTable(name, kinds, build, f"regkit.frames.{call}")


_COMPANY = ("company",)
TABLES: tuple[ExportTable, ...] = (
    _table("companies", _COMPANY, companies, "companies(records)"),
    *(_table(f, _COMPANY, partial(history, field=f), f"history(records, {f!r})") for f in FIELDS),
    _table("representatives", _COMPANY, representatives, "representatives(records)"),
    _table("indicators", _COMPANY, indicators, "indicators(records)"),
    _table("links", _COMPANY, links, "links(records)"),
    _table("documents", _COMPANY, documents, "documents(records)"),
    _table("industry_codes", _COMPANY, industry_codes, "industry_codes(records)"),
    _table("contact", _COMPANY, contact, "contact(records)"),
    _table("insolvency_summaries", _COMPANY, insolvency_summaries, "insolvency_summaries(records)"),
    _table("owners", ("owners",), owners, "owners(records)"),
    _table("holdings", ("holdings", "person_holdings"), holdings, "holdings(records)"),
    _table("persons", ("person",), persons, "persons(records)"),
    _table("management_positions", ("person",), management_positions, "management_positions(records)"),
    _table("proceedings", ("insolvency",), proceedings, "proceedings(records)"),
    _table("events", ("insolvency",), events, "events(records)"),
    _table("insolvency_results", ("insolvency_search",), insolvency_results, "insolvency_results(results)"),
    _table("company_search_results", ("company_search",), company_search_results, "company_search_results(results)"),
    _table("person_search_results", ("person_search",), person_search_results, "person_search_results(results)"),
)
"""Every data table, in the order they are written and listed."""

TABLES_OF: dict[str, tuple[ExportTable, ...]] = {kind: tuple(t for t in TABLES if kind in t.kinds) for kind in KINDS}
"""The tables each answer kind feeds."""

SOURCES_SPEC = [
    ("kind", Cat(KINDS)),
    ("entity_id", STR),
    ("origin", STR),
    ("method", Cat(("GET", "POST"))),
    ("path", STR),
    ("query", STR),
    ("fetched_at", DATETIME),
    ("expires", DATETIME),
    ("expired", BOOL),
    ("exported", BOOL),
]
"""Columns of the ``sources`` table (see :func:`regkit.frames.export.export_parquet`)."""

_BUILD_ERRORS = (ValueError, TypeError, KeyError, AttributeError)


def sources_frame(sources: Sequence[Source], exported: set[str]) -> pd.DataFrame:
    """The ``sources`` table: one row per answer read, by kind, thing and newest first; ``exported`` marks the
    answers (cache keys) whose rows were written."""
    rank = {kind: i for i, kind in enumerate(KINDS)}
    ordered = sorted(sources, key=lambda s: (rank[s.kind], s.entity_id or "", -s.fetched_at.timestamp(), s.key))
    columns = {
        "kind": [s.kind for s in ordered],
        "entity_id": [s.entity_id for s in ordered],
        "origin": [s.origin for s in ordered],
        "method": [s.method for s in ordered],
        "path": [s.path for s in ordered],
        "query": [s.query for s in ordered],
        "fetched_at": [s.fetched_at.isoformat() for s in ordered],
        "expires": [None if s.expires is None else s.expires.isoformat() for s in ordered],
        "expired": [s.expired for s in ordered],
        "exported": [s.key in exported for s in ordered],
    }
    return build_frame(columns, SOURCES_SPEC)


def build_tables(kind: str, records: list[Any]) -> tuple[dict[str, pd.DataFrame], list[int]]:
    """The frames of every table ``kind`` feeds, from ``records`` (parsed answers, or search results), and the
    positions of records that could not be made into them (left out of every table, so that one answer's rows
    are in all its tables or in none)."""
    return build_frames(TABLES_OF[kind], records)


def build_frames(tables: Sequence[ExportTable], records: list[Any]) -> tuple[dict[str, pd.DataFrame], list[int]]:
    """The frames of ``tables`` from ``records``, and the positions of records that could not be made into them
    (left out of every table: one record's rows are in all its tables or in none)."""
    try:
        return {t.name: t.build(records) for t in tables}, []
    except _BUILD_ERRORS:
        bad = [i for i, record in enumerate(records) if not _builds(tables, record)]
        skip = set(bad)
        good = [record for i, record in enumerate(records) if i not in skip]
        return {t.name: t.build(good) for t in tables}, bad


def _builds(tables: Sequence[ExportTable], record: Any) -> bool:
    try:
        for table in tables:
            table.build([record])
    except _BUILD_ERRORS:
        return False
    return True
