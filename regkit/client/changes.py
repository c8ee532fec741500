"""What changed in the cache's answers about one entity: its stored versions compared, at 0 credits.

A refreshed answer keeps the one it replaced as a version (:mod:`regkit.client.cache.versions`). For an entity —
a company id, or the UUID of a person or an insolvency proceeding — :func:`cached_changes` reads, for every
lookup of it that has changes (:data:`regkit.schema.changes.DIFFERS`: the company record, its financials, owners,
beneficial owners, ownership history and holdings; a person and their holdings; a proceeding), the versions and the
answer stored now, and compares each with the next (:func:`regkit.schema.changes.diff_answers`). Nothing is sent
and nothing is paid; only what the cache holds is compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from regkit.errors import CacheError, ValidationError
from regkit.schema.changes import CATEGORIES, DIFFERS, diff_answers
from regkit.schema.endpoints import ENDPOINTS
from regkit.schema.interface import COMPANY_ID_PATTERN, UUID_PATTERN

from .cache.client_cache import ClientCache
from .lookups import lookup_op
from .transport.call import Caller
from .transport.operation import Operation, operation

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CHANGES_COLUMNS", "cached_changes", "mark_stale"]

#: The columns :func:`cached_changes` adds before those of :func:`regkit.frames.changes_table`.
CHANGES_COLUMNS = ("entity_id", "operation", "fetched_before", "fetched_after")


_ENTITY_HINT = "pass the id the records carry: record.id, a representative's id, a proceeding's id"


def _lookups_of(entity_id: str) -> list[tuple[str, str]]:
    """``(operation_id, lookup name)`` of every lookup with changes that takes an id of ``entity_id``'s kind."""
    if COMPANY_ID_PATTERN.match(entity_id):
        kinds = {"company_id"}
    elif UUID_PATTERN.match(entity_id):
        kinds = {"uuid"}
    else:
        raise ValidationError(
            f"entity_id must be a company id (DE-HRB-B1234-5678) or the UUID of a person or an insolvency "
            f"proceeding, not {entity_id!r:.80}",
            suggestion=_ENTITY_HINT,
        )
    return [
        (row.operation_id, row.lookup)
        for row in ENDPOINTS
        if row.operation_id in DIFFERS and row.lookup is not None and row.identifier_check in kinds
    ]


def _operations_of(entity_id: str) -> list[tuple[str, Operation]]:
    """``(operation_id, operation)`` of every cached request with changes about ``entity_id``: its lookups, and for
    a UUID the proceeding it may be (``get_insolvency``, which is no lookup of ``is_cached``)."""
    found = [(operation_id, lookup_op(name, entity_id, False)) for operation_id, name in _lookups_of(entity_id)]
    if UUID_PATTERN.match(entity_id):
        found.append(("get_insolvency", operation("get_insolvency", {"insolvency_id": entity_id.lower()})))
    return found


def cached_changes(
    caller: Caller, cache: ClientCache, entity_id: Any, categories: Iterable[str] | None = None
) -> pd.DataFrame:
    """What changed between the stored versions of every cached lookup of ``entity_id``, oldest first.

    See :meth:`regkit.client.Client.changes`.
    """
    from regkit.frames import changes_table

    if not isinstance(entity_id, str):
        raise ValidationError(f"entity_id must be a str, not {type(entity_id).__name__}", suggestion=_ENTITY_HINT)
    entity_id = entity_id.strip()
    wanted = None if categories is None else tuple([categories] if isinstance(categories, str) else categories)
    unknown = sorted(set(wanted or ()) - set(CATEGORIES), key=str)
    if unknown:
        raise ValidationError(
            f"unknown categories {unknown}",
            suggestion=f"categories are a monitor's preferences: {', '.join(CATEGORIES)}",
        )
    rows: list[dict[str, Any]] = []
    meta: list[tuple[str, str, datetime, datetime]] = []
    for operation_id, op in _operations_of(entity_id):
        key = caller.cache_key(op)
        answers = (
            [(version.fetched_at, version.data) for version in cache.store.versions.of(key)] if cache.enabled else []
        )
        current = cache.store.get(key) if cache.enabled else None
        if current is not None and current.status_code == 200:
            try:
                answers.append((_utc(current.created_at), json.loads(current.content)))
            except ValueError as exc:
                raise CacheError(f"the stored answer of {operation_id} for {entity_id} is not JSON ({exc})") from None
        for (before_at, before), (after_at, after) in zip(answers, answers[1:]):
            found = diff_answers(operation_id, before, after, wanted)
            rows.extend(found)
            meta.extend((entity_id, operation_id, before_at, after_at) for _ in found)
    frame = changes_table(rows)
    import pandas as pd

    for position, column in enumerate(CHANGES_COLUMNS):
        values = [row[position] for row in meta]
        if column.startswith("fetched_"):
            frame.insert(position, column, pd.to_datetime(values, utc=True).astype("datetime64[us, UTC]"))
        else:
            frame.insert(position, column, pd.array(values, dtype=frame["field"].dtype))
    return frame


def mark_stale(caller: Caller, cache: ClientCache, entity_id: Any) -> int:
    """Expire now every cached answer of the lookups of ``entity_id`` that have changes, so the next lookup of
    each fetches it again (and keeps the one it replaces as a version); return how many were stored and fresh.

    See :meth:`regkit.client.Client.mark_stale`.
    """
    if not isinstance(entity_id, str):
        raise ValidationError(f"entity_id must be a str, not {type(entity_id).__name__}", suggestion=_ENTITY_HINT)
    entity_id = entity_id.strip()
    if not cache.enabled:
        _lookups_of(entity_id)  # the id is still checked
        return 0
    return sum(cache.store.expire(caller.cache_key(op)) for _, op in _operations_of(entity_id))


def _utc(value: datetime | None) -> datetime:
    if value is None:
        return datetime.now(timezone.utc)
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
