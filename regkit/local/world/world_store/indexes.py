"""Building a store's search indexes: the company and insolvency indexes in a second process while the records
are written (or after them, in this one), the person index from the finished records file.

The second process is the program :mod:`regkit.local.world.store_indexes` (started with ``python -c``, not with
:mod:`multiprocessing`; that module says why). The indexes are written into the store's building directory, so
they share its atomic rename into place (:mod:`~regkit.local.world.world_store.placement`).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .layout import SEARCH, StoreError
from .read import StoredWorld, read_people
from .records import jsonl_lines

__all__ = ["build_record_indexes_from_files", "RecordIndexBuild", "write_person_index", "index_sizes"]

logger = logging.getLogger("regkit.local.world_store")  # the name log configurations know the store by


def build_record_indexes_from_files(data_dir: Path, target: Path, company_stages: list[Path] | None = None) -> None:
    """Build the company and insolvency search indexes of the world in ``data_dir`` from its files into
    ``target`` (with ``company_stages``: the company index alone, from those staged rows, removed once indexed).
    What :mod:`regkit.local.world.store_indexes` runs in a process of its own."""
    from ...search.index_files import build_record_indexes, build_staged_company_index

    if company_stages is not None:
        build_staged_company_index(target, company_stages)
        for stage in company_stages:  # indexed: their disk is free before the records are written
            stage.unlink(missing_ok=True)
    else:
        build_record_indexes(
            target,
            lambda: (record for _, record in jsonl_lines(data_dir / "companies.jsonl.gz")),
            lambda: (record for _, record in jsonl_lines(data_dir / "insolvencies.jsonl.gz")),
        )


#: The helper program: this process's ``sys.path`` (so it imports the same regkit and libraries, as a
#: multiprocessing "spawn" child would), then :func:`regkit.local.world.store_indexes.main`.
_HELPER = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from regkit.local.world.store_indexes import main; sys.exit(main(sys.argv[2:]))"
)


class RecordIndexBuild:
    """The company and insolvency search indexes of a store being built: from the world's files in a second
    process started on entry (``separate``), or from the complete records in this one (:meth:`finish`).

    Leaving the block early (an error, an interrupt) ends the second process at once; its files go with the
    building directory.
    """

    def __init__(self, data_dir: Path, target: Path, *, separate: bool, company_stages: list[Path] | None = None):
        self.data_dir, self.target, self.separate = data_dir, target, separate
        self.company_stages = company_stages
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> RecordIndexBuild:
        if self.separate:
            # a program, not a multiprocessing process: "spawn" would run the caller's main script again in it
            # (a script without `if __name__ == "__main__":` would import twice, then fail), and a fork of a
            # process that may run threads is not safe
            stages = None if self.company_stages is None else [str(stage) for stage in self.company_stages]
            arguments = {"data_dir": str(self.data_dir), "target": str(self.target), "stages": stages}
            self.process = subprocess.Popen(
                [sys.executable, "-c", _HELPER, json.dumps(sys.path), json.dumps({**arguments, "parent": os.getpid()})],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
            )
        return self

    def _failure(self) -> str | None:
        """Wait for the process; what it reported failing, how it ended when it reported nothing, or ``None``."""
        assert self.process is not None and self.process.stdout is not None
        report = self.process.stdout.read()
        code = self.process.wait()
        try:
            answer = json.loads(report)
            error = answer["error"]
        except (ValueError, KeyError, TypeError):
            return f"the process ended without a word (exit code {code})"
        if answer.get("traceback"):
            logger.debug("The search index process of %s failed:\n%s", self.data_dir, answer["traceback"])
        return error if error is not None or code == 0 else f"the process ended with exit code {code}"

    def check(self) -> None:
        """Raise at once if the second process has failed (rather than after the rest of the build)."""
        if self.process is not None and self.process.poll() not in (None, 0):
            raise StoreError(f"Building the search indexes of {self.data_dir} failed: {self._failure()}")

    def finish(self, store: Path) -> None:
        """Wait for the second process, or build the indexes here from the store's complete records."""
        if self.process is None:
            from ...search.index_files import build_record_indexes

            world = StoredWorld(store)
            try:
                build_record_indexes(self.target, lambda: world.companies.values(), lambda: world.insolvencies.values())
            finally:
                world.db.close()
            return
        if self.company_stages is not None:  # the second process builds the company index alone
            from ...search.index_files import build_insolvency_index

            build_insolvency_index(self.target, (p for _, p in jsonl_lines(self.data_dir / "insolvencies.jsonl.gz")))
        failure = self._failure()
        if failure:
            raise StoreError(f"Building the search indexes of {self.data_dir} failed: {failure}")

    def __exit__(self, *exc_info: Any) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()


def write_person_index(store: Path) -> None:
    """Build the person search index of the store being built in ``store`` (its ``records.sqlite`` complete)
    into ``store / SEARCH``, beside the company and insolvency indexes. Called before the manifest is written, so
    the indexes share the store's atomic rename."""
    from ...search.index_files import build_person_index

    world = StoredWorld(store)
    target = store / SEARCH
    try:
        build_person_index(target, read_people(world.db))
    finally:
        world.db.close()


def index_sizes(search: Path) -> dict[str, int]:
    """The size of each search index file in ``search`` (kept in the manifest)."""
    from ...search.index_files import INDEX_FILES

    return {name: (search / file).stat().st_size for name, file in INDEX_FILES.items()}
