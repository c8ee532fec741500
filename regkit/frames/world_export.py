"""``export_world``: a whole world — the bundled one, one built with ``regkit world build``, or the OffeneRegister file
imported — as Parquet tables, read straight from its store: no lookup, no cache, no credit.

The cache's export (:func:`regkit.frames.export.export_parquet`) writes what months of lookups fetched; this writes
everything a world holds, as the register would answer about each thing on the world's ``as_of``
(:class:`regkit.local.models.world_answers.WorldAnswers`), into the same tables with the same columns and dtypes,
made by the same :mod:`regkit.frames` builders. The answers of each kind are cut into ranges of ids
(``ids_per_part``); each range is made into its tables' part files by one of ``workers`` processes, each reading the
store itself, so memory is bounded by a range's row groups per process and the time shrinks with the cores.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

from regkit.errors import RegkitError, ValidationError
from regkit.local.models.world_answers import ANSWER_KINDS, IdRange, WorldAnswers
from regkit.local.world.processes import die_with_parent

from .export_files import (
    FORMAT,
    MANIFEST,
    TableWriter,
    TargetRefused,
    check_target,
    publish,
    remove_staging,
    require_pyarrow,
    staging_dir,
)
from .export_manifest import FORMAT_VERSION, regkit_version, stamp
from .export_tables import TABLES, ExportTable, build_frames
from .financial_statements import statements
from .ownership import owners

__all__ = ["WORLD_TABLES", "export_world"]

logger = logging.getLogger("regkit.frames")

_WORLD_KINDS = frozenset(ANSWER_KINDS)
WORLD_TABLES: tuple[ExportTable, ...] = (
    *(t for t in TABLES if set(t.kinds) <= _WORLD_KINDS),
    ExportTable(
        "statements", ("financials",), lambda answers: _statements(answers), "regkit.frames.statements(answers)"
    ),
)
"""The tables of a world export, in the order they are listed: the cache export's tables of companies, owners,
holdings, persons and proceedings, and ``statements`` (every filed report's line items)."""


def _statements(answers: Sequence[dict[str, Any]]) -> Any:
    """:func:`regkit.frames.statements` of financials answers, each with its company's id as ``company_id``."""
    return statements({answer["company_id"]: answer for answer in answers})


_TABLES_OF = {kind: tuple(t for t in WORLD_TABLES if kind in t.kinds) for kind in ANSWER_KINDS}
#: Answers made into frames at a time.
_BATCH = 1000
#: What a part holds at most: the rows of this many answers go into one file per table.
IDS_PER_PART = 100_000
#: Kinds whose answers make many more rows than a company: their parts hold this many times fewer answers (a
#: company's financials are some 400 line items).
_PART_DIVISOR = {"financials": 50}


@dataclass
class _PartDone:
    """What one range of ids wrote: rows and files per table, answers read, and what was left out."""

    number: int
    kind: str
    answers: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    files: dict[str, list[str]] = field(default_factory=dict)
    representation_entries: int = 0
    left_out: list[str] = field(default_factory=list)


_OPEN: dict[str, WorldAnswers] = {}


def _answers_of(store: str) -> WorldAnswers:
    """The world answers of ``store``, opened once per process."""
    found = _OPEN.get(store)
    if found is None:
        found = _OPEN[store] = WorldAnswers(store)
    return found


def _batches(answers: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for answer in answers:
        batch.append(answer)
        if len(batch) >= _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _thing(answer: dict[str, Any]) -> str:
    return str(answer.get("id") or answer.get("company_id") or answer.get("person_id") or "?")


def _write_part(store: str, part: IdRange, number: int, root: str) -> _PartDone:
    """Write the tables of the answers in ``part`` as part files numbered ``number`` under ``root``."""
    tables = _TABLES_OF[part.kind]
    writers = {
        t.name: TableWriter(Path(root), t.name, t.empty(), 1 << 62, first_part=number, keep_empty=False) for t in tables
    }
    done = _PartDone(number, part.kind)
    world = _answers_of(store)
    for batch in _batches(world.answers(part)):
        frames, bad = build_frames(_named(tables, world, batch) if part.kind == "owners" else tables, batch)
        skip = set(bad)
        done.left_out += [_thing(batch[i]) for i in bad]
        done.answers += len(batch)
        if part.kind == "company":
            done.representation_entries += sum(
                len(a.get("representation") or ()) for i, a in enumerate(batch) if i not in skip
            )
        for name, frame in frames.items():
            writers[name].write(frame)
    for name, writer in writers.items():
        writer.close()
        done.rows[name] = writer.rows
        done.files[name] = writer.files
    return done


def _named(tables: Sequence[ExportTable], world: WorldAnswers, batch: list[dict[str, Any]]) -> list[ExportTable]:
    """``tables`` with the owners table's builder given the names of the batch's companies (an owners answer does
    not name the company it is about: ``company_name`` is the company's current name in every row)."""
    names = world.company_names([answer["company_id"] for answer in batch])
    return [replace(t, build=partial(owners, names=names)) if t.name == "owners" else t for t in tables]


def _check_arguments(directory: Any, overwrite: Any, workers: Any, ids_per_part: Any) -> tuple[Path, int | None, int]:
    if not isinstance(directory, (str, os.PathLike)) or not str(directory).strip():
        raise ValidationError(f"directory must be a path, not {directory!r}")
    if not isinstance(overwrite, bool):
        raise ValidationError(f"overwrite must be True or False, not {overwrite!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValidationError(
            f"workers must be a positive number of processes, not {workers!r}",
            suggestion="leave it out for one per core",
        )
    if isinstance(ids_per_part, bool) or not isinstance(ids_per_part, int) or ids_per_part < 1:
        raise ValidationError(f"ids_per_part must be a positive integer, not {ids_per_part!r}")
    return Path(directory).expanduser(), workers, ids_per_part


def _check_target(target: Path, overwrite: bool) -> list[Path]:
    try:
        return check_target(target, overwrite)
    except TargetRefused as exc:
        raise ValidationError(str(exc), suggestion=exc.suggestion) from None


def export_world(
    directory: str | os.PathLike[str],
    data: str | os.PathLike[str] | None = None,
    *,
    overwrite: bool = False,
    workers: int | None = None,
    ids_per_part: int = IDS_PER_PART,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, Any]:
    """Write a whole world as Parquet tables with the frames' dtypes, and a manifest.

    Parameters
    ----------
    directory : str or path
        A new or empty directory (created with its parents). The export is written beside it first and moved in
        when complete, so the directory never holds half an export.
    data : str or path, optional
        The world directory (``regkit world build`` / ``regkit world import offeneregister`` wrote it); default
        the world bundled with regkit. Its store is built first where there is none (``regkit world index``).
    overwrite : bool, default False
        Replace a previous export in ``directory`` (its ``manifest.json`` and the table directories it lists);
        anything else there makes the export refuse, and nothing is deleted.
    workers : int, optional
        Processes making the parts at once; default one per core (never more than there are parts). ``1`` makes
        them in this process.
    ids_per_part : int, default 100,000
        Answers whose rows go into one part file per table (the unit DuckDB and Dask read in parallel, and what
        one process holds in memory at most as row groups).
    progress : callable, optional
        Called as ``progress(kind, answers)`` after each part is written (the CLI draws a bar with it).

    Returns
    -------
    dict
        The manifest, as written to ``directory/manifest.json``: ``format`` (``regkit-parquet-export``, as the
        cache's export), ``format_version``, ``regkit_version``, ``exported_at`` (UTC), ``seconds``, ``world``
        (what ``world.json`` says of the world's nature, source, licence and attribution, its ``as_of`` — never its
        demo keys or accounts), ``credits_spent`` and ``requests_sent`` (0), ``tables`` (per table: ``rows``,
        ``files`` relative to ``directory``, ``columns`` with their pandas dtypes, ``made_by``, ``from``),
        ``answers`` (per kind: how many), ``accounted`` (what the store holds beside what the tables hold, see
        Notes) and ``left_out`` (answers no builder could make into rows, by kind, with their ids: empty unless
        the world holds a record of a shape the frames do not know).

    Raises
    ------
    ValidationError
        Before anything is written: a malformed argument, a ``directory`` that is a file or not empty (without
        ``overwrite``), or holds more than a previous export (with it).
    FileNotFoundError
        ``data`` is not a world directory.
    ImportError
        pyarrow is not installed (``pip install pyarrow``).

    Notes
    -----
    **Tables.** The cache export's tables of things, each the frame of its :mod:`regkit.frames` builder over the
    register's answers (see :func:`regkit.frames.export.export_parquet`): ``companies``, ``names``, ``addresses``,
    ``purposes``, ``capitals``, ``registers``, ``representatives``, ``indicators``, ``links``, ``documents``,
    ``industry_codes``, ``contact``, ``insolvency_summaries`` from every company; ``owners`` from every company
    with shareholders (an AG's, SE's or KGaA's as ``best_available`` shows them); ``holdings`` from every company
    and person that holds or held shares; ``persons`` and ``management_positions`` from every person (``age`` on
    ``as_of``); ``proceedings`` and ``events`` from every insolvency proceeding. And one the cache export does not
    have: ``statements`` (:func:`regkit.frames.statements`: every filed report's line items; a synthetic world's,
    an imported one has none). The cache export's search results, ``sources``, ``versions`` and ``changes`` are
    about lookups and are not written.

    **Parts.** A table's rows are in ``part-NNNNN.parquet`` files, one per range of ``ids_per_part`` answers, in
    id order (the numbers run across kinds, so a table's may have gaps); DuckDB
    (``read_parquet('DIR/companies/*.parquet')``), ``pd.read_parquet``, ``pyarrow.dataset`` and Dask
    (``dd.read_parquet``, a partition per file) read the directories as they are.

    **Accounted.** ``companies``, ``persons``, ``management_positions``, ``proceedings`` and ``shareholdings``
    give the store's count beside the rows written (``representation_entries``: the entries of the company records
    beside the ``representatives`` rows); they are equal, or what differs is in ``left_out``. A shareholding
    without a holder id (a holder the register names but does not identify) is an owner but nobody's holding:
    ``shareholdings`` counts them apart.

    Examples
    --------
    >>> from regkit.frames.world_export import export_world           # doctest: +SKIP
    >>> manifest = export_world("register-dataset")                    # doctest: +SKIP
    >>> manifest["tables"]["companies"]["rows"], manifest["credits_spent"]  # doctest: +SKIP
    (5000, 0)
    """
    target, workers, ids_per_part = _check_arguments(directory, overwrite, workers, ids_per_part)
    require_pyarrow()
    _check_target(target, overwrite)
    started_at = datetime.now(timezone.utc)
    started = time.perf_counter()
    world = WorldAnswers.open(data)
    processes = workers or os.cpu_count() or 1
    parts = [(part, number) for number, part in enumerate(_plan(world, ids_per_part, processes))]
    staging = staging_dir(target)
    try:
        done = _write_parts(str(world.store), parts, staging, processes, progress)
        manifest = _manifest(world, done, staging, started_at, time.perf_counter() - started)
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        publish(staging, target, _check_target(target, overwrite))
    except BaseException:
        remove_staging(staging)
        raise
    finally:
        world.close()
    return manifest


def _plan(world: WorldAnswers, ids_per_part: int, workers: int) -> list[IdRange]:
    """The parts: each kind's ids cut into ranges of ``ids_per_part`` (fewer for a heavy kind), and into at least
    ``workers`` ranges where it has as many ids, so that every process has a share of each kind."""
    parts: list[IdRange] = []
    for kind in ANSWER_KINDS:
        count = world.count(kind)
        if count:
            size = max(1, ids_per_part // _PART_DIVISOR.get(kind, 1))
            parts += world.ranges(kind, min(size, -(-count // workers)))
    return parts


def _write_parts(
    store: str,
    parts: Sequence[tuple[IdRange, int]],
    staging: Path,
    workers: int,
    progress: Callable[[str, int], None] | None,
) -> list[_PartDone]:
    count = min(workers, max(len(parts), 1))
    done: list[_PartDone] = []
    if count == 1:
        for part, number in parts:
            done.append(_write_part(store, part, number, str(staging)))
            if progress is not None:
                progress(part.kind, part.count)
        return done
    # fork, as the import: a script without a ``__main__`` guard is not run again in each worker, and each worker
    # opens the store itself (_answers_of), using nothing of this process's connections
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    started = context.SimpleQueue()  # each worker's pid, to stop it at once on Ctrl-C
    pool = ProcessPoolExecutor(count, mp_context=context, initializer=_worker_start, initargs=(started,))
    pending: dict[Future[_PartDone], IdRange] = {
        pool.submit(_write_part, store, part, number, str(staging)): part for part, number in parts
    }
    try:
        while pending:
            finished, _ = wait(pending, return_when=FIRST_EXCEPTION)
            for future in finished:
                part = pending.pop(future)
                done.append(future.result())
                if progress is not None:
                    progress(part.kind, part.count)
    except BrokenProcessPool as error:
        raise RegkitError(
            "a process of the world export died (killed, or out of memory?); the export stopped and left nothing "
            "at the export directory",
            suggestion="run it again, with fewer workers= or a smaller ids_per_part= if memory is short",
        ) from error
    except BaseException:  # Ctrl-C, or a part failed: the parts under way are thrown away with the staging directory
        _stop_workers(started)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(done, key=lambda d: d.number)


def _worker_start(started: Any) -> None:
    """In a worker: leave Ctrl-C to the export (it stops the workers), die with it when it is killed, and say
    which process this is."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    _OPEN.clear()  # a store this process had open before the fork: its connection stays the parent's (SQLite's rule)
    started.put(os.getpid())


def _stop_workers(started: Any) -> None:
    """Stop every worker at once (SIGTERM), instead of waiting for the parts they are making."""
    while not started.empty():
        try:
            os.kill(started.get(), signal.SIGTERM)
        except ProcessLookupError:
            pass


def _store_counts(world: WorldAnswers) -> dict[str, int]:
    db = world.world.db

    def count(sql: str) -> int:
        row = db.one(sql)
        return int(row[0]) if row else 0

    return {
        "companies": len(world.world.companies),
        "persons": count("SELECT count(DISTINCT key) FROM persons"),
        "management_positions": count("SELECT count(*) FROM positions"),
        "proceedings": count("SELECT count(*) FROM insolvencies"),
        "shareholdings": count("SELECT count(*) FROM shareholdings"),
        "shareholdings_without_holder_id": count("SELECT count(*) FROM shareholdings WHERE holder_id IS NULL"),
    }


def _manifest(
    world: WorldAnswers, done: list[_PartDone], staging: Path, started_at: datetime, seconds: float
) -> dict[str, Any]:
    rows: Counter[str] = Counter()
    files: dict[str, list[str]] = {t.name: [] for t in WORLD_TABLES}
    answers: Counter[str] = Counter()
    left_out: dict[str, list[str]] = {}
    entries = 0
    for part in done:
        answers[part.kind] += part.answers
        entries += part.representation_entries
        rows.update(part.rows)
        for name, names in part.files.items():
            files[name] += names
        if part.left_out:
            left_out.setdefault(part.kind, []).extend(part.left_out)
    tables: dict[str, Any] = {}
    for table in WORLD_TABLES:
        writer = TableWriter(staging, table.name, table.empty(), 1 << 62, keep_empty=False)
        if not files[table.name]:  # no rows in any part: one empty file, so readers find the columns
            writer.keep_empty = True
            writer.close()
            files[table.name] = writer.files
        tables[table.name] = {
            "rows": rows[table.name],
            "files": files[table.name],
            "columns": writer.dtypes,
            "made_by": table.call,
            "from": list(table.kinds),
        }
    store = _store_counts(world)
    accounted = {
        "companies": {"store": store["companies"], "rows": rows["companies"]},
        "representation_entries": {"records": entries, "rows": rows["representatives"]},
        "persons": {"store": store["persons"], "rows": rows["persons"]},
        "management_positions": {"store": store["management_positions"], "rows": rows["management_positions"]},
        "proceedings": {"store": store["proceedings"], "rows": rows["proceedings"]},
        "shareholdings": {
            "store": store["shareholdings"],
            "holdings_rows": rows["holdings"],
            "without_holder_id": store["shareholdings_without_holder_id"],
        },
    }
    for kind, ids in left_out.items():
        logger.warning("The world export left out %d %s answers no builder could make into rows", len(ids), kind)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "regkit_version": regkit_version(),
        "exported_at": stamp(started_at),
        "seconds": round(seconds, 1),
        "world": world.provenance(),
        "credits_spent": 0,
        "requests_sent": 0,
        "tables": tables,
        "answers": {kind: answers[kind] for kind in ANSWER_KINDS if answers[kind]},
        "accounted": accounted,
        "left_out": {kind: {"count": len(ids), "ids": ids[:100]} for kind, ids in left_out.items()},
    }
