"""The second pass of a Parquet export: the chosen answers and the search pages, a batch at a time, into part files.

It reads the cache through ``read`` (``keys -> {key: stored answer}``; the export passes the ``read`` of its
:class:`~regkit.frames.export.StoredAnswers`), so memory is bounded by :data:`BATCH` answers and the
tables' row-group buffers, whatever the size of the cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .export_files import TableWriter
from .export_sources import ENTITY_KINDS, SEARCH_KINDS, StoredAnswer, Survey
from .export_tables import TABLES, build_tables, sources_frame
from .export_versions import Versions, empty_changes, versions_frame, write_versions

__all__ = ["BATCH", "write_tables"]

#: Answers read from the cache and made into frames at a time.
BATCH = 1000
_T = TypeVar("_T")
Read = Callable[[Sequence[str]], Mapping[str, StoredAnswer]]


def _batches(items: Sequence[_T], size: int = BATCH) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _parsed(answer: StoredAnswer | None) -> Any:
    if answer is None:
        return None
    try:
        return json.loads(answer.body)
    except (ValueError, UnicodeDecodeError):
        return None


def write_tables(
    read: Read, found: Survey, root: Path, rows_per_file: int, versions: Versions | None = None
) -> tuple[dict[str, TableWriter], set[str]]:
    """Write every table (and ``sources``, ``versions``, ``changes``) under ``root`` from the answers the first
    pass (``found``) chose, and the versions ``versions(key)`` gives of every answer read (none without it).
    Returns the writers (closed) and the cache keys of the answers whose rows were written; answers that cannot
    be read are counted in ``found.skipped``."""
    writers = {t.name: TableWriter(root, t.name, t.empty(), rows_per_file) for t in TABLES}
    exported: set[str] = set()
    for kind in ENTITY_KINDS:
        chosen = found.chosen[kind]
        for batch in _batches([chosen[thing].key for thing in sorted(chosen)]):
            answers = read(batch)
            parsed = [(k, _parsed(answers.get(k))) for k in batch]
            keys = [k for k, data in parsed if isinstance(data, dict)]
            frames, bad = build_tables(kind, [data for _, data in parsed if isinstance(data, dict)])
            skip = set(bad)
            exported.update(k for i, k in enumerate(keys) if i not in skip)
            found.skipped["unreadable"] += len(batch) - len(keys) + len(skip)
            for name, frame in frames.items():
                writers[name].write(frame)
    for kind, member in SEARCH_KINDS.items():
        seen: set[Any] = set()
        for pages in _batches(found.pages[kind]):
            answers = read([s.key for s in pages])
            results = []
            for source in pages:
                page = _parsed(answers.get(source.key))
                if not isinstance(page, dict) or not isinstance(page.get("results"), list):
                    found.skipped["unreadable"] += 1
                    continue
                exported.add(source.key)
                for result in page["results"]:
                    thing = result.get(member) if isinstance(result, dict) else None
                    if thing is None or thing not in seen:
                        seen.add(thing)
                        results.append(result)
            frames, bad = build_tables(kind, results)
            found.skipped["unreadable_results"] += len(bad)
            for name, frame in frames.items():
                writers[name].write(frame)
    kept = TableWriter(root, "versions", versions_frame([]), rows_per_file)
    changes = TableWriter(root, "changes", empty_changes(), rows_per_file)
    if versions is not None:
        write_versions(found.sources, versions, read, kept.write, changes.write)
    writers["versions"], writers["changes"] = kept, changes
    sources = TableWriter(root, "sources", sources_frame([], set()), rows_per_file)
    sources.write(sources_frame(found.sources, exported))
    writers["sources"] = sources
    for writer in writers.values():
        writer.close()
    return writers, exported
