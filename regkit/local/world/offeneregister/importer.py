"""``regkit world import offeneregister``: stream the bulk file into a world directory the register serves.

Two passes, little in memory. The first streams the source (:class:`~.reader.SourceLines`), maps every record
(:func:`~.mapping.map_record`) in worker processes; each worker spools its mapped lines in sorted runs of at most
:data:`RUN_BYTES` to files of its own in the partial directory, plus one line per company of its name and seat
(for linking company officers), and hands the importer only what the report needs. Between the
passes the company officers' name-and-seat keys are looked up among the companies: a key that matches exactly
one company gets its id. Lines that share an id are resolved next (:mod:`.collisions`: the same company listed
twice is merged, different companies are kept apart under new ids; one read of the runs, one group in memory at a
time). The second pass merges the runs in id order into ``companies.jsonl.gz`` (filling in those ids, with each
group's resolved companies in place of its lines) and ``derived.jsonl.gz`` (per company, the members that were
derived). Then ``world.json`` and ``import-report.json``. A file of which no line could be imported (not the
OffeneRegister file) is an error, and nothing is left behind.

The world's store is built as the files are written. In the first pass each mapping process also stages the
search index row of every company it maps (:class:`~regkit.local.search.company_index.CompanyRowStage`, one file
``company-rows-<pid>.sqlite`` per process, removed once indexed): linking company officers does not change them.
Each mapped line also carries the rows of the store's other tables its record gives (its persons and their
positions: :func:`~regkit.local.world.world_store.company_store_rows`). When the first pass ends, a second process
builds the company search index from the staged rows while this one merges the runs and writes each company into
the store's records file as it writes ``companies.jsonl.gz``
(:class:`~regkit.local.world.world_store.CompanyRecordFeed`); the person index and the rest follow from the
finished files (:class:`~regkit.local.world.world_store.StoreBuild`), as
:func:`~regkit.local.world.world_store.build_store` builds them (tests build the store both ways and compare every
table of the company index and of the records file).

Everything is written into ``DIR.partial-<pid>`` beside ``DIR`` and renamed to ``DIR`` at the end: an
interrupted import (Ctrl-C, a kill) leaves no half world at ``DIR`` (a later import removes partial directories
of processes that are gone). A mapping process that dies (killed, out of memory) stops the import with a
:class:`~regkit.errors.RegkitError` at once (the processes are a :class:`~concurrent.futures.ProcessPoolExecutor`,
which notices; a ``multiprocessing.Pool`` would wait for the lost batch for ever). The output depends on the
input only (fixed gzip headers, id order, no times).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import heapq
import json
import multiprocessing
import os
import shutil
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from regkit.errors import RegkitError, ValidationError
from regkit.schema.courts import courts as bundled_courts

from ...json_lines import dump_line_bytes, load_line
from ...search.company_index import CompanyRowStage
from ...search.company_rows import company_row, wz_parents
from ..disk_space import disk_full, room, sqlite_temporary_directory
from ..meta import PLANS, SANDBOX_EKRN, TRANSPARENZREGISTER_ACCOUNTS, USERS
from ..processes import die_with_parent
from ..spool import GzipLines
from ..store import write_meta
from ..world_store import CompanyRecordFeed, StoreBuild, company_store_rows
from . import collisions
from .mapping import DERIVED_RULES, BadRecord, CourtLookup, company_key, map_record
from .reader import SourceLines
from .report import KIND_TEXTS, SKIPPED_KINDS, ImportReport

__all__ = ["ATTRIBUTION", "RUN_BYTES", "ImportedWorld", "import_offeneregister"]

#: How many bytes of mapped lines the first pass sorts in memory before it writes them as a run.
RUN_BYTES = 160 << 20
#: The attribution every world imported from OffeneRegister carries (``world.json`` → ``attribution``).
ATTRIBUTION = (
    "Contains data from OffeneRegister.de (Open Knowledge Foundation Deutschland), licensed under CC BY 4.0 "
    "(https://creativecommons.org/licenses/by/4.0/); the data was retrieved from the Handelsregister "
    "(the German commercial register, www.handelsregister.de) in 2017-2019. Mapped by regkit: ids, legal "
    "forms, liquidation, person ids and several dates are derived (see derived in world.json)."
)
_BATCH = 2000
_STAGE_PREFIX = "company-rows-"  # each mapping process's staged company index rows: company-rows-<pid>.sqlite
_RUN_PREFIX = "runs-"  # each mapping process's sorted runs of mapped lines: runs-<pid>-<n>
_KEYS_PREFIX = "keys-"  # each mapping process's link keys of its companies: keys-<pid>
_APART_PREFIX = "apart-"  # sorted runs of the companies kept apart under new ids (collisions.resolve)


@dataclass(frozen=True)
class ImportedWorld:
    """The result of an import: the world directory, its report, its store, and how long each part took.

    Attributes
    ----------
    directory : Path
        The world directory.
    report : ImportReport
        What was imported and what was counted (also in ``import-report.json``).
    store : Path
        The world's store (``directory / "store"``), ready to serve.
    world_seconds : float
        Reading, mapping and writing the world's files.
    store_seconds : float
        Building its store after the files are written (its company search index is started before, as the
        files are written: this is the part of the store's time the files did not hide).
    """

    directory: Path
    report: ImportReport
    store: Path
    world_seconds: float = 0.0
    store_seconds: float = 0.0


def import_offeneregister(
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    limit: int | None = None,
    strict: bool = False,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> ImportedWorld:
    """Import the OffeneRegister bulk file ``source`` into the world directory ``out``.

    Parameters
    ----------
    source : path
        ``de_companies_ocdata.jsonl.bz2`` (bz2 or plain JSON lines; a chunk of it will do).
    out : path
        The world directory to write; it must not exist yet (or be empty).
    limit : int, optional
        Read only the first ``limit`` lines.
    strict : bool, default False
        Stop at the first line the import would count as bad (see :data:`~.report.KIND_TEXTS`), leaving
        nothing at ``out``.
    progress : callable, optional
        Called with the number of lines read, every 100,000 lines.
    workers : int, optional
        Processes that map records (default: the number of CPUs, at most 4; 0 maps in this process).

    Returns
    -------
    ImportedWorld

    Raises
    ------
    ValidationError
        ``source`` missing, ``out`` not empty, ``limit`` below 1, or (with ``strict``) the first bad line.
    RegkitError
        No line of ``source`` could be imported (not the OffeneRegister file: nothing is left at ``out``), or a
        mapping process died (killed, out of memory) or lost what it had mapped, or a disk ran full (where
        ``out`` is, or the temporary directory): the import stops, nothing is left at ``out``, and the message
        says how much room each place has.
    """
    path = Path(source)
    target = Path(out)
    if not path.is_file():
        raise ValidationError(
            f"no file {path}",
            suggestion="pass the OffeneRegister bulk file (de_companies_ocdata.jsonl.bz2 from offeneregister.de)",
        )
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ValidationError(f"{target} exists and is not empty", suggestion="pass --out a new directory")
    if limit is not None and limit < 1:
        raise ValidationError(f"--limit must be at least 1 (got {limit})", suggestion="pass --limit 1 or more")
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_partials(target)
    partial = target.parent / f"{target.name}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        with contextlib.ExitStack() as stack:
            count = min(os.cpu_count() or 1, 4) if workers is None else workers
            started = time.perf_counter()
            store_build: list[StoreBuild] = []

            def mapped(stages: list[Path]) -> StoreBuild:
                # the company search index is built from the rows the workers staged, while the files are written
                # (and the records file with them)
                store_build.append(stack.enter_context(StoreBuild(partial, company_stages=stages)))
                return store_build[0]

            report = _import(path, partial, limit, strict, progress, count, mapped)
            written = time.perf_counter()
            store = store_build[0].finish()
            built = time.perf_counter()
        if target.exists():
            target.rmdir()
        os.replace(partial, target)
    except BaseException as error:
        shutil.rmtree(partial, ignore_errors=True)
        if disk_full(error):
            temporary, variable = sqlite_temporary_directory()
            raise RegkitError(
                f"a disk ran full during the import ({error}); the import stopped and left nothing at {target}",
                suggestion="free space, or import to a disk with more room (--out); with the partial import removed, "
                f"{room(target.parent)}, and for temporary files {room(temporary)} (set {variable} to move them)",
            ) from error
        raise
    return ImportedWorld(target, report, target / store.name, written - started, built - written)


def _remove_stale_partials(target: Path) -> None:
    """Remove ``DIR.partial-<pid>`` directories of imports whose process is gone (killed)."""
    for stale in target.parent.glob(f"{target.name}.partial-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Runs:
    """Mapped lines sorted by id in runs of at most ``run_bytes``, written to files ``runs-<pid>-<n>`` in
    ``directory`` (each mapping process keeps its own), merged back in id order by :func:`_merged`."""

    def __init__(self, directory: Path, run_bytes: int, prefix: str = _RUN_PREFIX):
        self.directory = directory
        self.run_bytes = run_bytes
        self.prefix = prefix
        self.files: list[Path] = []
        self.entries: list[tuple[str, int, bytes]] = []
        self.size = 0
        self.count = 0

    def add(self, company_id: str, line: int, entry: bytes) -> None:
        self.entries.append((company_id, line, entry))
        self.size += len(entry) + 40
        self.count += 1
        if self.size >= self.run_bytes:
            self.flush()

    def flush(self) -> None:
        if not self.entries:
            return
        self.entries.sort(key=lambda e: (e[0], e[1]))
        path = self.directory / f"{self.prefix}{os.getpid()}-{len(self.files)}"
        with path.open("wb") as handle:
            handle.writelines(f"{cid}\t{line}\t".encode() + entry + b"\n" for cid, line, entry in self.entries)
        self.files.append(path)
        self.entries, self.size = [], 0


def _merged(files: list[Path]) -> Iterator[tuple[str, int, bytes]]:
    """The entries of the sorted runs ``files``, in (id, line) order."""
    with contextlib.ExitStack() as stack:
        handles = [stack.enter_context(path.open("rb")) for path in files]
        yield from heapq.merge(*(_read_run(h) for h in handles), key=lambda e: (e[0], e[1]))


def _read_run(handle: BinaryIO) -> Iterator[tuple[str, int, bytes]]:
    for raw in handle:
        company_id, line, entry = raw.rstrip(b"\n").split(b"\t", 2)
        yield company_id.decode(), int(line), entry


class _Spool:
    """What one mapping process writes: its sorted runs and a line ``<link key>\t<id>\t<line>`` per company
    (``keys-<pid>``)
    for the merge, its companies' search index rows for the index. Kept by the process between batches;
    :func:`_finish_spool` writes the last run."""

    def __init__(self, directory: Path, run_bytes: int):
        self.directory = directory
        self.pid = os.getpid()
        self.runs = _Runs(directory, run_bytes)
        self.keys = (directory / f"{_KEYS_PREFIX}{self.pid}").open("wb")
        self.stage = CompanyRowStage(directory / f"{_STAGE_PREFIX}{self.pid}.sqlite")

    def close(self) -> tuple[list[Path], int]:
        try:
            self.runs.flush()
        finally:
            self.keys.close()
            self.stage.close()
        return self.runs.files, self.runs.count


_SPOOL: _Spool | None = None


def _spool(directory: Path, run_bytes: int) -> _Spool:
    """This process's spool for ``directory`` (a forked worker does not reuse its parent's)."""
    global _SPOOL
    if _SPOOL is None or _SPOOL.pid != os.getpid() or _SPOOL.directory != directory:
        _SPOOL = _Spool(directory, run_bytes)
    return _SPOOL


def _finish_spool(directory: Path) -> tuple[int, list[Path], int]:
    """Write this process's last run and close its keys; return (pid, its run files, its entries)."""
    global _SPOOL
    spool, _SPOOL = _SPOOL, None
    if spool is None or spool.pid != os.getpid() or spool.directory != directory:
        return os.getpid(), [], 0
    files, count = spool.close()
    return spool.pid, files, count


_BARRIER: Any = None  # each worker's share of the barrier that hands every worker one _finish_worker


def _finish_worker(directory: Path) -> tuple[int, list[Path], int]:
    """In a worker: :func:`_finish_spool`, once per worker (every worker waits for the others before it returns,
    so no worker takes two of these)."""
    try:
        finished = _finish_spool(directory)
    except BaseException:
        _BARRIER.abort()  # the other workers wait for this one: they return at once, not after the timeout
        raise
    _BARRIER.wait(timeout=600)
    return finished


class _Mapped(NamedTuple):
    """What a worker hands back for a line that became a company with company officers to link or warnings (its
    record went to the worker's spool)."""

    line: int
    pending: tuple[str, ...]
    warnings: tuple[tuple[str, str], ...]
    excerpt: bytes  # the start of the line, for the report's samples of warnings


class _Bad(NamedTuple):
    """What a worker hands back for a line that did not become a company."""

    line: int
    kind: str
    detail: str
    company_number: str
    excerpt: bytes


class _MappedBatch(NamedTuple):
    """What a worker hands back for a batch: the lines the importer must look at, in line order, and the rest
    counted."""

    notes: list[_Mapped | _Bad]
    companies: int
    retrieved: list[str]  # [earliest, latest] day the batch's records were retrieved, or empty
    derived: Counter[str]


_LOOKUP: CourtLookup | None = None


def _map_batch(batch: list[tuple[int, bytes]], stages: Path, run_bytes: int) -> _MappedBatch:
    """Map a batch of lines (in a worker process, or in this one): JSON → CompanyV1 → the line this process
    spools in ``stages`` (:class:`_Spool`, runs of ``run_bytes``) with its link key; stage the companies' search
    index rows in this process's file there (committed before the batch returns). Hands back what the report
    needs."""
    global _LOOKUP
    if _LOOKUP is None:
        _LOOKUP = CourtLookup(bundled_courts())
    parents = wz_parents()
    spool = _spool(stages, run_bytes)
    runs, keys = spool.runs, spool.keys
    results: list[_Mapped | _Bad] = []
    derived: Counter[str] = Counter()
    retrieved: list[str] = []
    rows = []
    for number, raw in batch:
        try:
            source = load_line(raw)
        except ValueError as error:
            results.append(_Bad(number, "not_json", str(error), "", raw[:300]))
            continue
        try:
            mapped = map_record(source, _LOOKUP)
        except BadRecord as bad:
            company_number = str(source.get("company_number", "")) if isinstance(source, dict) else ""
            results.append(_Bad(number, bad.kind, bad.message, company_number, raw[:300]))
            continue
        record = mapped.record
        derived.update(map(_member_kind, mapped.derived))
        derived["representation[].id (natural persons)"] += sum(e["id"] is not None for e in record["representation"])
        # what the index keeps does not change when company officers are linked (the merge does that)
        rows.append((number, company_row(record, open_insolvency=False, parents=parents)))
        # whether it has company officers to link, and the day it was retrieved (which line of a company is newest)
        flag = (b"1" if mapped.pending else b"0") + mapped.retrieved.encode()
        # the store's rows of the record (persons, positions) do not change when company officers are linked either
        entry = b"\t".join((flag, dump_line_bytes(mapped.derived), dump_line_bytes(company_store_rows(record))))
        runs.add(record["id"], number, entry + b"\t" + dump_line_bytes(record))
        keys.write(f"{mapped.link_key}\t{record['id']}\t{number}\n".encode())
        if mapped.retrieved:
            _widen(retrieved, mapped.retrieved)
        if mapped.pending or mapped.warnings:
            pending = tuple(key for _, key in mapped.pending)
            results.append(_Mapped(number, pending, tuple(mapped.warnings), raw[:300] if mapped.warnings else b""))
    if rows:
        spool.stage.add(rows)
    return _MappedBatch(results, len(rows), retrieved, derived)


def _batches(source: SourceLines, limit: int | None, report: ImportReport) -> Iterator[list[tuple[int, bytes]]]:
    """The source's non-blank lines (up to ``limit``) in batches of :data:`_BATCH`; counts them in ``report``."""
    batch: list[tuple[int, bytes]] = []
    for number, raw in source:
        if limit is not None and number > limit:
            break
        if not raw.strip():
            continue
        batch.append((number, raw))
        if len(batch) >= _BATCH:
            report.lines += len(batch)
            yield batch
            batch = []
    if batch:
        report.lines += len(batch)
        yield batch


def _worker_start(barrier: Any) -> None:
    """In a worker: leave Ctrl-C to the importer (it ends the pool), and die with it when it is killed."""
    global _BARRIER
    _BARRIER = barrier
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()  # a SIGKILLed importer takes its workers along instead of orphaning them


def _mapped(
    batches: Iterator[list[tuple[int, bytes]]], workers: int, directory: Path, spooled: list[tuple[list[Path], int]]
) -> Iterator[_MappedBatch]:
    """The batches mapped, in order, by ``workers`` processes (none: here), with a few batches in flight; their
    lines spooled and their company index rows staged in ``directory``. When all are mapped, each process's run
    files and how many lines it spooled are appended to ``spooled``."""
    if workers < 1:
        try:
            yield from (_map_batch(batch, directory, RUN_BYTES) for batch in batches)
            spooled.append(_finish_spool(directory)[1:])
        finally:
            _finish_spool(directory)  # an error: nothing of this import stays open in this process
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    barrier = context.Barrier(workers)
    # an executor, not multiprocessing.Pool: a worker that dies (killed, out of memory) breaks it, and every
    # result then raises BrokenProcessPool; a Pool would replace the worker and wait for its batch for ever
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start, initargs=(barrier,))
    pending: deque[Future[_MappedBatch]] = deque()
    finished_cleanly = False
    try:
        for batch in batches:
            pending.append(executor.submit(_map_batch, batch, directory, RUN_BYTES))
            if len(pending) > 2 * workers + 1:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finishing = [executor.submit(_finish_worker, directory) for _ in range(workers)]
        concurrent.futures.wait(finishing)
        failed = [error for error in (future.exception() for future in finishing) if error is not None]
        if failed:  # the worker's own error (a full disk, say), not the others' broken barrier
            raise next((e for e in failed if not isinstance(e, threading.BrokenBarrierError)), failed[0])
        finished = [future.result() for future in finishing]
        if len({pid for pid, _, _ in finished}) != workers:
            raise RuntimeError(f"the mapping processes did not each finish their spool: {finished}")
        spooled.extend((files, count) for _, files, count in finished)
        finished_cleanly = True
    except BrokenProcessPool as error:
        raise RegkitError(
            "a mapping process of the import died (killed, or out of memory?); the import stopped and left nothing "
            "at the world directory",
            suggestion="run the import again (if memory is short, close other programs first)",
        ) from error
    finally:
        if not finished_cleanly:
            barrier.abort()  # a worker waiting in _finish_worker returns at once
            for future in pending:
                future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)


def _import(
    path: Path,
    directory: Path,
    limit: int | None,
    strict: bool,
    progress: Callable[[int], None] | None,
    workers: int,
    mapped: Callable[[list[Path]], StoreBuild],
) -> ImportReport:
    report = ImportReport(
        source={"file": path.name, "bytes": path.stat().st_size, "format": "OpenCorporates JSON lines"}
    )
    wanted: set[str] = set()
    retrieved: list[str] = []
    source = SourceLines(path)
    reported = 0
    spooled: list[tuple[list[Path], int]] = []
    companies = 0
    try:
        for batch in _mapped(_batches(source, limit, report), workers, directory, spooled):
            report.derived.update(batch.derived)
            companies += batch.companies
            for day in batch.retrieved:
                _widen(retrieved, day)
            for result in batch.notes:
                if isinstance(result, _Bad):
                    report.count(result.kind, result.line, result.detail, result.excerpt)
                    if result.kind in ("no_register_number", "unknown_court"):
                        report.unformed(result.line, result.kind, result.company_number)
                    if strict:
                        raise _strict_error(result.kind, result.line, result.detail)
                    continue
                for kind, detail in result.warnings:
                    report.count(kind, result.line, detail, result.excerpt)
                    if strict:
                        raise _strict_error(kind, result.line, detail)
                wanted.update(result.pending)
            if progress is not None and report.lines - reported >= 100_000:
                reported = report.lines
                progress(report.lines)
        if source.truncated:
            report.count("truncated_file", report.lines, source.truncated, source.partial)
            if strict:
                raise _strict_error("truncated_file", report.lines, source.truncated)
        if sum(count for _, count in spooled) != companies:  # a worker lost (killed, replaced): never silently
            raise RegkitError(
                f"{companies} companies were mapped, but the mapping processes' spools hold "
                f"{sum(count for _, count in spooled)}: a mapping process was lost; the import stopped and left "
                "nothing at the world directory",
                suggestion="run the import again",
            )
        runs = sorted(file for files, _ in spooled for file in files)
        # lines that share an id are merged or kept apart before the company index starts: it indexes the result
        resolution = collisions.resolve(
            _merged(runs),
            directory,
            report,
            lambda: _Runs(directory, RUN_BYTES, prefix=_APART_PREFIX),
            directory / f"{_STAGE_PREFIX}resolved.sqlite",
        )
        if report.imported_lines() == 0:
            raise _nothing_imported(path, report)
        records = mapped(sorted(directory.glob(f"{_STAGE_PREFIX}*"))).company_records()
        links = _resolve_links(sorted(directory.glob(f"{_KEYS_PREFIX}*")), wanted, resolution.renamed)
        entries: Iterator[tuple[str, int, bytes]] = _merged(runs)
        if resolution.shared:  # a generator layer per entry costs a tenth of a second per 100,000 lines: only if needed
            entries = collisions.substituted(entries, collisions.read_groups(resolution.groups))
        if resolution.apart:
            entries = heapq.merge(entries, _merged(resolution.apart), key=lambda e: (e[0], e[1]))
        _write_world(directory, entries, links, report, records)
    finally:
        for prefix in (_KEYS_PREFIX, _RUN_PREFIX, _APART_PREFIX, "collision-groups"):
            for leftover in directory.glob(f"{prefix}*"):
                leftover.unlink()
    meta = _meta(report, retrieved)
    write_meta(directory / "world.json", meta)
    (directory / "import-report.json").write_text(
        json.dumps(report.as_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return report


@functools.lru_cache(maxsize=1 << 12)  # a few hundred distinct members: no Python frame per member
def _member_kind(member: str) -> str:
    """``"representation[3].id"`` → ``"representation[].id"``: what the report counts."""
    head, bracket, rest = member.partition("[")
    return head + "[]" + rest.partition("]")[2] if bracket else member


def _widen(bounds: list[str], day: str) -> None:
    """Keep ``bounds`` as [earliest, latest] of the days seen."""
    if not bounds:
        bounds.extend((day, day))
    elif day < bounds[0]:
        bounds[0] = day
    elif day > bounds[1]:
        bounds[1] = day


def _nothing_imported(path: Path, report: ImportReport) -> RegkitError:
    counted = ", ".join(f"{report.counts[k]:,} {k}" for k in SKIPPED_KINDS if report.counts[k]) or "no lines"
    first = next((samples[0] for samples in report.samples.values() if samples), None)
    example = f"; line {first['line']}: {first['detail']}" if first else ""
    return RegkitError(
        f"{path} holds no OffeneRegister record that could be imported ({report.lines:,} "
        f"line{'' if report.lines == 1 else 's'}: {counted}{example}); "
        "nothing was written",
        suggestion="pass the OffeneRegister bulk file de_companies_ocdata.jsonl.bz2 (OpenCorporates JSON lines, "
        "from https://offeneregister.de/daten/) or a chunk of it",
    )


def _strict_error(kind: str, line: int, detail: str) -> ValidationError:
    return ValidationError(
        f"line {line}: {KIND_TEXTS[kind]} ({detail}); --strict stopped the import, nothing was written",
        suggestion="import without --strict to count such lines in import-report.json and go on",
    )


def _resolve_links(keys_files: list[Path], wanted: set[str], renamed: dict[tuple[str, int], str]) -> dict[str, str]:
    """Each wanted name-and-seat key that exactly one company of the world has → that company's id (``renamed``:
    the new ids of lines kept apart, :mod:`.collisions`)."""
    found: dict[str, set[str]] = {}
    for path in keys_files:
        with path.open("rb") as keys:
            for raw in keys:
                key, company_id, line = raw.rstrip(b"\n").decode().rsplit("\t", 2)
                if key in wanted:
                    found.setdefault(key, set()).add(renamed.get((company_id, int(line)), company_id))
    return {key: next(iter(ids)) for key, ids in found.items() if len(ids) == 1}


def _write_world(
    directory: Path,
    entries: Iterator[tuple[str, int, bytes]],
    links: dict[str, str],
    report: ImportReport,
    records: CompanyRecordFeed,
) -> None:
    # ISA-L: a sixth of the CPU zlib's fastest level takes, and the full file's world stays far below 6 GB
    companies = GzipLines(directory / "companies.jsonl.gz", fast=True)
    derived = GzipLines(directory / "derived.jsonl.gz", fast=True)
    try:
        previous: tuple[str, int] | None = None
        for company_id, line, entry in entries:
            if previous is not None and previous[0] == company_id:  # collisions.resolve leaves none
                raise RuntimeError(f"line {line}: {company_id} is line {previous[1]}'s too, after resolving shared ids")
            previous = (company_id, line)
            flag, members, rows, body = entry.split(b"\t", 3)
            if flag[:1] == b"1":
                record = load_line(body)
                derived_members: list[str] = load_line(members)
                _link(record, links, derived_members, report)
                body = dump_line_bytes(record)
                members = dump_line_bytes(derived_members)
            companies.write(body)
            records.add(company_id, body, load_line(rows), load_line(members))  # the store's derived marks too
            derived.write(b'{"id":"' + company_id.encode() + b'","derived":' + members + b"}")
            report.imported += 1
    finally:
        companies.close()
        derived.close()
    for name in ("realtime.jsonl.gz", "insolvencies.jsonl.gz", "shareholdings.jsonl.gz"):
        GzipLines(directory / name).close()


def _link(record: dict[str, Any], links: dict[str, str], derived: list[str], report: ImportReport) -> None:
    """Give the company officers of ``record`` the id of the one company their name and seat match."""
    for index, entry in enumerate(record["representation"]):
        if entry["type"] != "legal_person":
            continue
        report.company_officers += 1
        legal = entry["legal_person"]
        linked = links.get(company_key(legal["name"], legal["city"]))
        if linked is not None and linked != record["id"]:
            entry["id"] = linked
            derived.append(f"representation[{index}].id")
            report.derived["representation[].id"] += 1
            report.linked_company_officers += 1


def _meta(report: ImportReport, retrieved: list[str]) -> dict[str, Any]:
    first = retrieved[0] if retrieved else None
    last = retrieved[-1] if retrieved else None
    return {
        "synthetic": False,
        "source": "offeneregister",
        "notice": (
            "Real companies from the German commercial register, as OffeneRegister.de published them "
            f"(retrieved {first} to {last}); no financials, shareholdings or insolvencies, no dates of birth. "
            "Dates marked as derived in world.json are not the register's."
        ),
        "attribution": ATTRIBUTION,
        "licence": {"name": "CC BY 4.0", "url": "https://creativecommons.org/licenses/by/4.0/"},
        "provenance": {
            "publisher": "OffeneRegister.de, Open Knowledge Foundation Deutschland",
            "origin": "Handelsregister (www.handelsregister.de)",
            "download": "https://offeneregister.de/daten/ (de_companies_ocdata.jsonl.bz2)",
            "file": report.source["file"],
            "bytes": report.source["bytes"],
            "importer": "regkit world import offeneregister",
        },
        "retrieved": {"first": first, "last": last},
        "as_of": last or "1900-01-01",
        "size": report.imported,
        "dates_of_birth": False,
        "derived": {
            "rules": DERIVED_RULES,
            "counts": dict(sorted(report.derived.items())),
            "per_company": "derived.jsonl.gz",
        },
        "import": {
            "lines": report.lines,
            "imported": report.imported,
            "skipped": {k: report.counts[k] for k in SKIPPED_KINDS},
            "report": "import-report.json",
        },
        "plans": PLANS,
        "users": USERS,
        "transparenzregister": {"sandbox_ekrn": SANDBOX_EKRN, "accounts": TRANSPARENZREGISTER_ACCOUNTS, "entities": {}},
        "groups": [],
        "former_ids": {},
        "scenarios": [],
    }
