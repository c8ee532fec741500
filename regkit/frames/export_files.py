"""The files of a Parquet export: part files per table, a staging directory, and what ``overwrite`` may replace.

An export is written into a staging directory beside the target (``.<name>.partial-…``) and moved in only when
it is complete, so the target never holds half an export; a failed export removes its staging directory and
nothing else. The target must be new or empty; ``overwrite=True`` replaces a previous export there — its
``manifest.json`` and the table directories it lists, holding only ``part-*.parquet`` files — and refuses when
anything else is there: a user's file is never deleted.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "FORMAT",
    "MANIFEST",
    "ROW_GROUP_ROWS",
    "TableWriter",
    "TargetRefused",
    "check_target",
    "publish",
    "remove_staging",
    "require_pyarrow",
    "staging_dir",
]

MANIFEST = "manifest.json"
FORMAT = "regkit-parquet-export"
#: Rows per Parquet row group (the unit DuckDB and pyarrow skip by their min/max statistics).
ROW_GROUP_ROWS = 100_000
_PART = re.compile(r"part-\d{5,}\.parquet")


class TargetRefused(ValueError):
    """The export directory cannot take the export (``suggestion`` says what to do); nothing was written."""

    def __init__(self, message: str, suggestion: str) -> None:
        super().__init__(message)
        self.suggestion = suggestion


def require_pyarrow() -> tuple[Any, Any]:
    """``(pyarrow, pyarrow.parquet)``, or an ImportError that says how to install them."""
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise ImportError(
            "exporting to Parquet needs pyarrow, which is not installed: pip install pyarrow (regkit's parquet "
            "extra: pip install -e '.[parquet]' in the checkout)"
        ) from exc


def _previous_tables(directory: Path) -> set[str] | None:
    """The table names a previous export's manifest lists, or ``None`` when there is no such manifest."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return None
    if not isinstance(manifest.get("tables"), dict):
        return None
    return {str(name) for name in manifest["tables"]}


def _ours(entry: Path, tables: set[str]) -> bool:
    if entry.name == MANIFEST:
        return entry.is_file()
    return (
        entry.is_dir()
        and not entry.is_symlink()
        and entry.name in tables
        and all(_PART.fullmatch(p.name) and p.is_file() for p in entry.iterdir())
    )


def check_target(directory: Path, overwrite: bool) -> list[Path]:
    """Check that ``directory`` may receive an export; return the entries of a previous export it replaces.

    Raises
    ------
    TargetRefused
        ``directory`` is a file; or it is not empty and ``overwrite`` is False; or ``overwrite`` is True but it
        holds something other than a previous export (nothing is deleted then).
    """
    if directory.exists() and not directory.is_dir():
        raise TargetRefused(
            f"export directory {directory} is a file", suggestion="name a directory: it is created if it does not exist"
        )
    entries = sorted(directory.iterdir()) if directory.is_dir() else []
    if not entries:
        return []
    if not overwrite:
        raise TargetRefused(
            f"export directory {directory} is not empty ({len(entries)} entries)",
            suggestion="choose a new or empty directory, or pass overwrite=True (--overwrite on the command line) to "
            "replace a previous export there",
        )
    tables = _previous_tables(directory)
    if tables is None:
        raise TargetRefused(
            f"export directory {directory} is not empty and holds no regkit export (no "
            f"{MANIFEST} of one); overwrite replaces only a previous export",
            suggestion="choose a new or empty directory; nothing was deleted",
        )
    foreign = [e.name for e in entries if not _ours(e, tables)]
    if foreign:
        raise TargetRefused(
            f"export directory {directory} holds files that are not part of the previous "
            f"export: {', '.join(foreign[:5])}{' …' if len(foreign) > 5 else ''}",
            suggestion="move them elsewhere or choose another directory; nothing was deleted",
        )
    return entries


def staging_dir(directory: Path) -> Path:
    """A new, empty directory beside ``directory`` to write the export into (its parents are created; its mode
    follows the umask, as the target's would)."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    while True:
        staging = directory.parent / f".{directory.name}.partial-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            staging.mkdir()
        except FileExistsError:
            continue
        return staging


def publish(staging: Path, directory: Path, replaced: list[Path]) -> None:
    """Move the complete export from ``staging`` into ``directory``, first removing ``replaced`` (the entries of
    a previous export, as :func:`check_target` returned them)."""
    for entry in replaced:
        if entry.is_dir():
            for part in entry.iterdir():
                part.unlink()
            entry.rmdir()
        else:
            entry.unlink()
    if not directory.exists():
        staging.rename(directory)
        return
    for entry in sorted(staging.iterdir()):
        entry.rename(directory / entry.name)
    staging.rmdir()


class TableWriter:
    """Part files of one table, ``part-00000.parquet`` onwards, each holding at most ``rows_per_file`` rows, all
    with one schema: the one of the table's empty frame (so a column that is all null in one part keeps its type).

    Frames are buffered as Arrow tables and written a row group (:data:`ROW_GROUP_ROWS` rows) at a time; a table
    without rows still gets one (empty) part file, so readers find its columns — unless ``keep_empty`` is False
    (a world export writes a table's parts in several processes, numbered from ``first_part``, and gives a table
    without rows its one empty file at the end).
    """

    def __init__(
        self,
        root: Path,
        name: str,
        empty: pd.DataFrame,
        rows_per_file: int,
        *,
        first_part: int = 0,
        keep_empty: bool = True,
    ) -> None:
        self.pa, self.pq = require_pyarrow()
        self.name = name
        self.schema = self.pa.Schema.from_pandas(empty, preserve_index=False)
        self.dtypes = {column: str(dtype) for column, dtype in empty.dtypes.items()}
        self.directory = root / name
        self.directory.mkdir(exist_ok=not keep_empty)
        self.rows_per_file = rows_per_file
        self.first_part = first_part
        self.keep_empty = keep_empty
        self.files: list[str] = []
        self.rows = 0
        self._writer: Any = None
        self._in_file = 0
        self._buffer: list[Any] = []
        self._buffered = 0

    def write(self, frame: pd.DataFrame) -> None:
        """Add the rows of ``frame`` (a frame of this table's builder)."""
        if not len(frame):
            return
        self._buffer.append(self.pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False))
        self._buffered += len(frame)
        if self._buffered >= ROW_GROUP_ROWS:
            self._flush()

    def _next_file(self) -> None:
        if self._writer is not None:
            self._writer.close()
        name = f"part-{self.first_part + len(self.files):05d}.parquet"
        self._writer = self.pq.ParquetWriter(self.directory / name, self.schema)
        self.files.append(f"{self.name}/{name}")
        self._in_file = 0

    def _flush(self) -> None:
        if not self._buffer:
            return
        table = self.pa.concat_tables(self._buffer)
        self._buffer, self._buffered = [], 0
        offset = 0
        while offset < len(table):
            if self._writer is None or self._in_file >= self.rows_per_file:
                self._next_file()
            take = min(len(table) - offset, self.rows_per_file - self._in_file)
            self._writer.write_table(table.slice(offset, take), row_group_size=ROW_GROUP_ROWS)
            self._in_file += take
            self.rows += take
            offset += take

    def close(self) -> None:
        """Write what is buffered and close the last part file."""
        self._flush()
        if self._writer is None:
            if not self.keep_empty:
                return
            self._next_file()  # no rows at all: one empty part file with the schema
        self._writer.close()
        self._writer = None


def remove_staging(staging: Path) -> None:
    """Remove a staging directory after a failure (it holds only what this export wrote)."""
    shutil.rmtree(staging, ignore_errors=True)
