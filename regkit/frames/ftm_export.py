"""``export_ftm``: the cache or a whole world as FollowTheMoney entities, one JSON object per line.

The file is what FtM's own tools read (``ftm validate``, ``ftm export-neo4j-bulk`` for Neo4j, ``ftm export-gexf``
for Gephi, ``ftm export-csv``) and what Aleph ingests. The entities are made by
:class:`~regkit.frames.ftm_entities.FtmMapper` from the answers a cache holds (the newest answer per thing, as the
Parquet export picks it; nothing is sent) or a world's answers on its ``as_of``
(:class:`~regkit.local.models.world_answers.WorldAnswers`). It is written beside its path and moved there when
complete, so the path never holds half a file.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from regkit.errors import ValidationError
from regkit.local.models.world_answers import WorldAnswers

from .export import SCOPE_HEADER, stored_answers_of
from .export_sources import survey
from .ftm_entities import FTM_ORDER, FtmMapper, require_followthemoney

__all__ = ["export_ftm"]

_BATCH = 1000


def _target(path: Any, overwrite: Any) -> Path:
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise ValidationError(f"path must be a file path, not {path!r}", suggestion="e.g. 'register.ftm.json'")
    if not isinstance(overwrite, bool):
        raise ValidationError(f"overwrite must be True or False, not {overwrite!r}")
    target = Path(path).expanduser().absolute()
    if target.is_dir():
        raise ValidationError(f"{target} is a directory", suggestion="name a file, e.g. register.ftm.json")
    if target.exists() and not overwrite:
        raise ValidationError(
            f"{target} exists", suggestion="choose another path, or pass overwrite=True (--overwrite) to replace it"
        )
    return target


def _cache_answers(cache: object, counts: dict[str, int]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The newest answer per thing of every kind the cache holds, in :data:`FTM_ORDER` (``counts`` counts the
    answers that could not be read as ``unreadable``)."""
    import json

    handle = stored_answers_of(cache)
    if handle.backend is None:
        raise ValidationError(
            "this cache is off (cache=False): there is nothing to export",
            suggestion="export the cache your lookups went to, e.g. Client(cache='sqlite')",
        )
    unreadable: list[str] = []
    found = survey(handle.scan(unreadable), datetime.now(timezone.utc), SCOPE_HEADER)
    counts["unreadable"] = len(unreadable) + found.skipped.get("unreadable", 0)
    for kind in FTM_ORDER:
        keys = [found.chosen[kind][thing].key for thing in sorted(found.chosen[kind])]
        for start in range(0, len(keys), _BATCH):
            batch = keys[start : start + _BATCH]
            stored = handle.read(batch)
            for key in batch:
                try:
                    answer = json.loads(stored[key].body) if key in stored else None
                except (ValueError, UnicodeDecodeError):
                    answer = None
                if isinstance(answer, dict):
                    yield kind, answer
                else:
                    counts["unreadable"] += 1


def _world_answers(world: WorldAnswers) -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in FTM_ORDER:
        for part in world.ranges(kind, 100_000):
            for answer in world.answers(part):
                yield kind, answer


def export_ftm(
    path: str | os.PathLike[str],
    *,
    cache: object = None,
    data: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write the answers of a cache, or a whole world, as FollowTheMoney entities (JSON lines) to ``path``.

    Parameters
    ----------
    path : str or path
        The file to write (``.ftm.json`` by custom); written beside it first and moved there when complete.
    cache : Client or its ``cache``, optional
        Export what this cache holds (nothing is sent, no credit spent).
    data : str or path, optional
        Export the world in this directory instead (``"bundled"`` or None with no ``cache``: the bundled world).
    overwrite : bool, default False
        Replace an existing file at ``path``.
    progress : callable, optional
        Called with the number of answers mapped so far, every 10,000 answers.

    Returns
    -------
    dict
        ``path``, ``source`` (``"cache"`` with its location, or ``"world"`` with what its ``world.json`` says of
        its source and licence), ``answers`` (per kind), ``entities`` (per FtM schema), ``unreadable`` (cached
        answers that could not be read: counted, not exported) and ``seconds``.

    Raises
    ------
    ValidationError
        Before anything is written: a malformed argument, both ``cache`` and ``data``, a ``path`` that exists
        (without ``overwrite``) or is a directory, a cache that is off.
    ImportError
        followthemoney is not installed (``pip install followthemoney``; Python >= 3.11).

    Notes
    -----
    :mod:`regkit.frames.ftm_entities` lists the schemata made and from what. Load the file into Neo4j with
    ``ftm export-neo4j-bulk -i FILE -o DIR`` (then ``neo4j-admin database import`` with the script it writes), into
    Gephi with ``ftm export-gexf -i FILE -o FILE.gexf``; check it with ``ftm validate -i FILE``.
    """
    if cache is not None and data is not None:
        raise ValidationError(
            "export_ftm takes a cache or a world (data=), not both", suggestion="export each to its own file"
        )
    target = _target(path, overwrite)
    require_followthemoney()
    started = time.perf_counter()
    counts: dict[str, int] = {"unreadable": 0}
    world = None
    if cache is not None:
        handle = stored_answers_of(cache)
        source: dict[str, Any] = {"kind": "cache", "location": handle.location()}
        answers = _cache_answers(cache, counts)
        publisher = "regkit (the client's cache)"
    else:
        world = WorldAnswers.open(None if data in (None, "bundled") else data)
        provenance = world.provenance()
        source = {"kind": "world", **provenance}
        answers = _world_answers(world)
        publisher = (
            "OffeneRegister.de (Open Knowledge Foundation Deutschland), CC BY 4.0"
            if provenance.get("source") == "offeneregister"
            else "regkit local register (synthetic world)"
        )
    import orjson

    mapper = FtmMapper(publisher)
    read: dict[str, int] = {}
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        with partial.open("wb") as out:
            for number, (kind, answer) in enumerate(answers, 1):
                read[kind] = read.get(kind, 0) + 1
                for entity in mapper.entities(kind, answer):
                    out.write(orjson.dumps(entity.to_dict()) + b"\n")
                if progress is not None and number % 10_000 == 0:
                    progress(number)
            for entity in mapper.named_companies():
                out.write(orjson.dumps(entity.to_dict()) + b"\n")
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        if world is not None:
            world.close()
    return {
        "path": str(target),
        "source": source,
        "answers": read,
        "entities": dict(sorted(mapper.counts.items())),
        "unreadable": counts["unreadable"],
        "seconds": round(time.perf_counter() - started, 1),
    }
