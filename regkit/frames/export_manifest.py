"""The ``manifest.json`` of a Parquet export: what was written, from which cache, and what came from where, when."""

from __future__ import annotations

import importlib.metadata
from datetime import datetime, timezone
from typing import Any

from .export_files import FORMAT, TableWriter
from .export_sources import ENTITY_KINDS, KINDS, Survey
from .export_tables import TABLES

__all__ = ["build_manifest", "FORMAT_VERSION", "regkit_version", "stamp"]

#: Bumped when the layout of an export (tables, columns, manifest members) changes incompatibly.
FORMAT_VERSION = 1


def regkit_version() -> str:
    """The installed regkit's version, or ``unknown``."""
    try:
        return importlib.metadata.version("regkit")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def stamp(moment: datetime) -> str:
    """``moment`` in UTC as ISO 8601 with a ``Z``."""
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def build_manifest(
    backend: object | None,
    location: str,
    started: datetime,
    writers: dict[str, TableWriter],
    found: Survey,
    exported: set[str],
) -> dict[str, Any]:
    """The manifest of an export (see :func:`regkit.frames.export.export_parquet`, Returns): ``writers`` are the
    closed table writers, ``found`` the first pass, ``exported`` the cache keys whose rows were written; ``backend``
    and ``location`` say which cache was read (the backend's type name goes into the manifest)."""
    made_by = {t.name: (t.call, list(t.kinds)) for t in TABLES}
    made_by["sources"] = ("regkit.frames.export.export_parquet: one row per answer read", [])
    made_by["versions"] = ("the cache's versions: one row per older answer a refresh kept", [])
    made_by["changes"] = ("regkit.schema.changes.diff_answers over each answer's versions and itself", [])
    tables = {
        name: {
            "rows": w.rows,
            "files": w.files,
            "columns": w.dtypes,
            "made_by": made_by[name][0],
            "from": made_by[name][1],
        }
        for name, w in writers.items()
    }
    kinds: dict[str, Any] = {}
    for source in found.sources:
        entry = kinds.setdefault(
            source.kind,
            {
                "answers": 0,
                "exported": 0,
                "expired": 0,
                "origins": set(),
                "first_fetched_at": source.fetched_at,
                "last_fetched_at": source.fetched_at,
            },
        )
        entry["answers"] += 1
        entry["exported"] += source.key in exported
        entry["expired"] += source.expired
        entry["origins"].add(source.origin)
        entry["first_fetched_at"] = min(entry["first_fetched_at"], source.fetched_at)
        entry["last_fetched_at"] = max(entry["last_fetched_at"], source.fetched_at)
    kinds = {kind: kinds[kind] for kind in KINDS if kind in kinds}
    for entry in kinds.values():
        entry.update(
            origins=sorted(entry["origins"]),
            first_fetched_at=stamp(entry["first_fetched_at"]),
            last_fetched_at=stamp(entry["last_fetched_at"]),
        )
    superseded = sum(1 for s in found.sources if s.kind in ENTITY_KINDS) - sum(map(len, found.chosen.values()))
    left_out = dict(sorted({**found.skipped, "superseded": superseded}.items()))
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "regkit_version": regkit_version(),
        "exported_at": stamp(started),
        "cache": {
            "backend": "none" if backend is None else type(backend).__name__,
            "location": location,
        },
        "credits_spent": 0,
        "requests_sent": 0,
        "tables": tables,
        "sources": kinds,
        "left_out": left_out,
    }
