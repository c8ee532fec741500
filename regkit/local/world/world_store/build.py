"""Building a world store: the records file, the search indexes and the manifest, in a building directory put in
place when complete.

:func:`build_store` builds the store of a finished world directory; :class:`StoreBuild` is the same build held
open, for an importer that stages the company index rows and feeds the companies while it still writes the
world's files (:mod:`regkit.local.world.offeneregister.importer`). The records file is written by
:mod:`~regkit.local.world.world_store.records`, the indexes by :mod:`~regkit.local.world.world_store.indexes`,
and the finished store put in place by :mod:`~regkit.local.world.world_store.placement`.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..store import require_world_files
from .indexes import RecordIndexBuild, index_sizes, write_person_index
from .layout import MANIFEST, RECORDS, SEARCH, STORE_FORMAT, source_digest, source_stamps, write_json_atomically
from .placement import building_directory, put_in_place, remove_abandoned
from .records import CompanyRecordFeed, build_records_file

__all__ = ["PARALLEL_FROM", "build_store", "StoreBuild"]

logger = logging.getLogger("regkit.local.world_store")  # the name log configurations know the store by

#: From this size of ``companies.jsonl.gz`` on (bytes; about 100,000 imported companies), the search indexes are
#: built in a second process while the records are written.
PARALLEL_FROM = 8 << 20


def build_store(
    data_dir: Path, target: Path | None = None, *, digest: str | None = None, processes: int | None = None
) -> Path:
    """Build the store of the world in ``data_dir`` into ``target`` (default ``data_dir / "store"``); return it.

    Records are streamed from the JSON-lines files and committed in batches, so memory stays bounded whatever
    the world's size. The store is written to a temporary directory beside ``target`` and renamed into place
    when complete: an interrupted build leaves nothing that would be used, and when two processes build the same
    store at once, both end with a good one.

    Parameters
    ----------
    data_dir : Path
        A world directory (``world.json`` and the ``*.jsonl.gz`` files).
    target : Path, optional
        The store directory to (re)place.
    digest : str, optional
        The sha256 of the source files (:func:`source_digest`), when the caller has it already.
    processes : int, optional
        2: the company and insolvency search indexes are built from the world's files in a second process
        while this one writes the records (about halves the build on two cores); 1: one after the other, in
        this process. Default: 2 for a world whose companies file has at least :data:`PARALLEL_FROM` bytes on a
        machine with more than one core, else 1. The store is the same either way.

    Returns
    -------
    Path
        ``target``.

    Raises
    ------
    FileNotFoundError
        ``data_dir`` is not a world (the message says what builds one).
    """
    with StoreBuild(data_dir, target, digest=digest, processes=processes) as build:
        return build.finish()


class StoreBuild:
    """A world store being built; :func:`build_store` runs one from start to end (parameters as there).

    An importer can start one before the world's files are complete, with ``company_stages``: files of company
    index rows it staged while it mapped the records
    (:class:`~regkit.local.search.company_index.CompanyRowStage`). The company search index is then built from
    them in a second process at once, while the importer still writes the world's files; :meth:`finish`, called
    when the files are complete, builds the rest from them. The store is the same as :func:`build_store` makes
    from the finished files, provided the staged rows are those of the files' companies (of several rows with
    one id, the smallest line's is kept, as the importer keeps the first record of an id). An importer that
    writes ``companies.jsonl.gz`` itself can feed each company to :meth:`company_records` as it writes it: the
    records file is then written with it, not read back from the file.

    Use it as a context manager: leaving the block without :meth:`finish` (an error, an interrupt) ends the
    second process and removes what was built.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        target: Path | None = None,
        *,
        digest: str | None = None,
        processes: int | None = None,
        company_stages: Sequence[Path] | None = None,
    ):
        self.data_dir = Path(data_dir)
        self.target = Path(target) if target is not None else self.data_dir / "store"
        self.digest, self.processes = digest, processes
        self.company_stages = None if company_stages is None else list(company_stages)
        self.building: Path | None = None
        self._indexes: RecordIndexBuild | None = None
        self._companies: CompanyRecordFeed | None = None

    def __enter__(self) -> StoreBuild:
        if self.company_stages is None:
            require_world_files(self.data_dir)  # before anything is created beside it
        self.target.parent.mkdir(parents=True, exist_ok=True)
        remove_abandoned(self.target)
        self.building = building_directory(self.target)
        self.building.mkdir()
        if self.company_stages is not None:
            self._start_indexes(separate=True)
        return self

    def _start_indexes(self, *, separate: bool) -> RecordIndexBuild:
        assert self.building is not None
        self._indexes = RecordIndexBuild(
            self.data_dir, self.building / SEARCH, separate=separate, company_stages=self.company_stages
        )
        return self._indexes.__enter__()

    def company_records(self) -> CompanyRecordFeed:
        """A feed for the companies as ``companies.jsonl.gz`` is written (each one, in the file's order): then
        :meth:`finish` does not read that file again."""
        if self.building is None:
            raise RuntimeError("StoreBuild.company_records() outside its with block")
        if self._companies is None:
            self._companies = CompanyRecordFeed(self.building / RECORDS)
        return self._companies

    def finish(self) -> Path:
        """Build the rest from the world's (now complete) files, wait for the second process, put the store in
        place; return ``target``."""
        if self.building is None:
            raise RuntimeError("StoreBuild.finish() outside its with block")
        data_dir, building = self.data_dir, self.building
        require_world_files(data_dir)
        started = time.perf_counter()
        stamps = source_stamps(data_dir)
        source: dict[str, Any] = {"files": stamps, "sha256": self.digest or source_digest(data_dir)}
        record_indexes = self._indexes
        if record_indexes is None:
            processes = self.processes
            if processes is None:
                big = (data_dir / "companies.jsonl.gz").stat().st_size >= PARALLEL_FROM
                processes = 2 if big and _cores() > 1 else 1
            record_indexes = self._start_indexes(separate=processes > 1)
        record_indexes.check()
        counts = build_records_file(data_dir, building / RECORDS, source, self._companies)
        self._companies = None
        records_done = time.perf_counter()
        record_indexes.check()
        write_person_index(building)  # while the second process, if any, still builds its indexes
        persons_done = time.perf_counter()
        record_indexes.finish(building)
        indexes_done = time.perf_counter()
        search_sizes = index_sizes(building / SEARCH)
        manifest = {
            "format": STORE_FORMAT,
            "records_size": (building / RECORDS).stat().st_size,
            "search_sizes": search_sizes,
            "source": source,
            "counts": counts,
        }
        write_json_atomically(building / MANIFEST, manifest)
        put_in_place(building, self.target, source["sha256"])
        logger.info(
            "Built the world store of %s in %.1f s (%d companies) at %s: records file %.1f s, person index %.1f s, "
            "then company and insolvency indexes %.1f s",
            data_dir,
            time.perf_counter() - started,
            counts["companies"],
            self.target,
            records_done - started,
            persons_done - records_done,
            indexes_done - persons_done,
        )
        return self.target

    def __exit__(self, *exc_info: Any) -> None:
        try:
            if self._companies is not None:
                self._companies.abandon()
            if self._indexes is not None:
                self._indexes.__exit__(*exc_info)
        finally:
            if self.building is not None:
                shutil.rmtree(self.building, ignore_errors=True)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
