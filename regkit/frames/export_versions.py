"""The ``versions`` and ``changes`` tables of a Parquet export: the older answers a refresh kept, and what changed.

A cache keeps the answer a refresh replaced as a **version** of its request (``regkit.client.cache.versions``).
The export writes every version of every exported kind of answer (``versions``: one row each, its JSON body as
text), and the changes between each answer and the next — the versions oldest first, then the answer stored now
— as :func:`regkit.schema.changes.diff_answers` finds them (``changes``), the same as ``client.changes(entity_id)``
gives, with ``before``, ``after`` and ``detail`` as JSON text so that a column has one type.

A cache object without versions (one with no ``versions_of``) exports both tables empty.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import pandas as pd

from regkit.schema.changes import CATEGORIES, KINDS, diff_answers

from ._columns import DATE, DATETIME, STR, Cat, build_frame
from .export_sources import ENTITY_KINDS, Source

__all__ = [
    "VERSIONS_SPEC",
    "CHANGES_SPEC",
    "OPERATION_OF_KIND",
    "versions_frame",
    "changes_frame",
    "empty_changes",
    "write_versions",
]

#: The operation whose answers each exported kind is (the differ :func:`diff_answers` uses).
OPERATION_OF_KIND = {
    "company": "get_company",
    "owners": "get_owners",
    "holdings": "get_holdings",
    "person": "get_person",
    "person_holdings": "get_person_holdings",
    "insolvency": "get_insolvency",
}

VERSIONS_SPEC = [
    ("kind", Cat(tuple(ENTITY_KINDS))),
    ("entity_id", STR),
    ("path", STR),
    ("fetched_at", DATETIME),
    ("replaced_by_fetched_at", DATETIME),
    ("body", STR),
]
"""Columns of the ``versions`` table: the answer's kind and thing, the path asked, when it was fetched, when the
answer that replaced it was, and its JSON body."""

CHANGES_SPEC = [
    ("entity_id", STR),
    ("operation", Cat(tuple(OPERATION_OF_KIND.values()))),
    ("fetched_before", DATETIME),
    ("fetched_after", DATETIME),
    ("category", Cat(tuple(CATEGORIES))),
    ("kind", Cat(tuple(k for c in CATEGORIES for k in KINDS[c]))),
    ("date", DATE),
    ("field", STR),
    ("before", STR),
    ("after", STR),
    ("detail", STR),
]
"""Columns of the ``changes`` table: :meth:`regkit.client.Client.changes`' columns and dtypes, with ``before``,
``after`` and ``detail`` as JSON text (``str``; NaN for null)."""

Versions = Callable[[str], Sequence[tuple[datetime, str]]]


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def versions_frame(rows: Iterable[tuple[Source, datetime, datetime, str]]) -> pd.DataFrame:
    """The ``versions`` table of ``(source, fetched_at, replaced_by_fetched_at, body)`` rows."""
    rows = list(rows)
    columns = {
        "kind": [s.kind for s, *_ in rows],
        "entity_id": [s.entity_id for s, *_ in rows],
        "path": [s.path for s, *_ in rows],
        "fetched_at": [when.isoformat() for _, when, _, _ in rows],
        "replaced_by_fetched_at": [later.isoformat() for _, _, later, _ in rows],
        "body": [body for *_, body in rows],
    }
    return build_frame(columns, VERSIONS_SPEC)


def empty_changes() -> pd.DataFrame:
    """The ``changes`` table without rows (its columns and dtypes)."""
    return build_frame({name: [] for name, _ in CHANGES_SPEC}, CHANGES_SPEC)


def changes_frame(source: Source, answers: Sequence[tuple[datetime, Any]]) -> pd.DataFrame:
    """The ``changes`` table's rows of one answer and its versions (``answers`` oldest first, parsed)."""
    operation = OPERATION_OF_KIND[source.kind]
    rows: list[tuple[datetime, datetime, dict[str, Any]]] = []
    for (before_at, before), (after_at, after) in zip(answers, answers[1:]):
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        rows.extend((before_at, after_at, change) for change in diff_answers(operation, before, after))
    columns = {
        "entity_id": [source.entity_id] * len(rows),
        "operation": [operation] * len(rows),
        "fetched_before": [b.isoformat() for b, _, _ in rows],
        "fetched_after": [a.isoformat() for _, a, _ in rows],
        "category": [c["category"] for *_, c in rows],
        "kind": [c["kind"] for *_, c in rows],
        "date": [c["date"] for *_, c in rows],
        "field": [c["field"] for *_, c in rows],
        "before": [_json(c["before"]) for *_, c in rows],
        "after": [_json(c["after"]) for *_, c in rows],
        "detail": [_json(c["detail"]) for *_, c in rows],
    }
    return build_frame(columns, CHANGES_SPEC)


def write_versions(
    sources: Sequence[Source],
    versions: Versions,
    read: Callable[[Sequence[str]], Any],
    write_versions_rows: Callable[[pd.DataFrame], None],
    write_changes_rows: Callable[[pd.DataFrame], None],
    batch: int = 1000,
) -> int:
    """Write the ``versions`` and ``changes`` rows of ``sources`` (the answers read, of the kinds with a differ),
    a batch at a time, in the order of their kind, thing and fetch time; return how many versions were written.

    ``versions(key)`` gives a cache key's versions, oldest first, as ``(fetched_at, body)``; ``read(keys)`` the
    stored answers (``{key: answer}``, each with a ``body``)."""
    ordered = sorted(
        (s for s in sources if s.kind in OPERATION_OF_KIND),
        key=lambda s: (s.kind, s.entity_id or "", s.fetched_at, s.key),
    )
    written = 0
    for start in range(0, len(ordered), batch):
        chunk = ordered[start : start + batch]
        kept = {source.key: list(versions(source.key)) for source in chunk}
        chunk = [source for source in chunk if kept[source.key]]
        if not chunk:
            continue
        current = read([source.key for source in chunk])
        rows: list[tuple[Source, datetime, datetime, str]] = []
        for source in chunk:
            older = kept[source.key]
            times = [when for when, _ in older] + [source.fetched_at]
            rows.extend((source, when, times[i + 1], body) for i, (when, body) in enumerate(older))
            answers = [(when, _loads(body)) for when, body in older]
            stored = current.get(source.key)
            answers.append((source.fetched_at, _loads(stored.body) if stored is not None else None))
            write_changes_rows(changes_frame(source, answers))
        write_versions_rows(versions_frame(rows))
        written += len(rows)
    return written


def _loads(body: str | bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
