"""Writing a world to its directory while it is built, with little of it in memory.

A world's companies and proceedings are built in plan order but stored sorted by id. :class:`WorldWriter`
turns each final record into its line of the ``.jsonl.gz`` file at once, appends the line to an unnamed
temporary file in the output directory (:class:`Spool`) and keeps only its id and where it ends; when the build
is done it reads the lines back in id order into the compressed files. Shareholdings go straight to their file,
in the order they come. Compression runs in threads of their own (:class:`GzipLines`; zlib lets other threads
run while it compresses), so it uses a second core while the build goes on. The files are written under
temporary names and take their own names only once the whole world is written: a failed build leaves no
half-written world. The bytes are those :func:`~.store.write_world` writes for the same world.
"""

from __future__ import annotations

import json
import os
import queue
import tempfile
import threading
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .store import dump_line, fast_gzip_writer, gzip_writer, write_meta

__all__ = ["GzipLines", "Spool", "WorldWriter", "WrittenWorld"]

_BATCH_BYTES = 1 << 20


class GzipLines:
    """A ``.jsonl.gz`` file compressed by a thread of its own: :meth:`write` hands over lines in batches.

    ``fast``: compressed by ISA-L (:func:`~.store.fast_gzip_writer`, the OffeneRegister import), not zlib at
    ``compresslevel``."""

    def __init__(self, path: Path, compresslevel: int = 6, *, fast: bool = False):
        self._raw = path.open("wb")
        self._gz = fast_gzip_writer(self._raw) if fast else gzip_writer(self._raw, compresslevel)
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=8)
        self._lines: list[bytes] = []
        self._size = 0
        self._error: BaseException | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._compress, name=f"gzip {path.name}", daemon=True)
        self._thread.start()

    def write(self, line: bytes) -> None:
        """Add one line (without its newline)."""
        self._lines.append(line)
        self._size += len(line) + 1
        if self._size >= _BATCH_BYTES:
            self._hand_over()

    def close(self) -> None:
        """Compress what is left, end the gzip stream and close the file (raises what compressing raised)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._hand_over()
        finally:
            self._queue.put(None)
            self._thread.join()
            try:
                self._gz.close()
            finally:
                self._raw.close()
        if self._error is not None:
            raise self._error

    def _hand_over(self) -> None:
        if self._error is not None:
            raise self._error
        if self._lines:
            self._lines.append(b"")
            self._queue.put(b"\n".join(self._lines))
            self._lines, self._size = [], 0

    def _compress(self) -> None:
        while (chunk := self._queue.get()) is not None:
            if self._error is None:
                try:
                    self._gz.write(chunk)
                except BaseException as error:  # handed to the writing thread by write() or close()
                    self._error = error


class Spool:
    """Lines in an unnamed temporary file in ``directory``, each with a key; read back by position or in key order."""

    def __init__(self, directory: Path):
        self._file = tempfile.TemporaryFile(dir=directory)
        self._ends = array("q")
        self._end = 0
        self._read_since_write = False
        self.keys: list[str] = []

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, key: str, line: bytes) -> None:
        """Append ``line`` under ``key``."""
        if self._read_since_write:
            self._file.seek(self._end)
            self._read_since_write = False
        self._file.write(line)
        self._end += len(line)
        self._ends.append(self._end)
        self.keys.append(key)

    def line(self, position: int) -> bytes:
        """The line added ``position``-th."""
        self._read_since_write = True
        start = self._ends[position - 1] if position else 0
        self._file.seek(start)
        return self._file.read(self._ends[position] - start)

    def in_key_order(self) -> Iterator[bytes]:
        """Every line, in the order of their keys."""
        for position in sorted(range(len(self.keys)), key=self.keys.__getitem__):
            yield self.line(position)

    def close(self) -> None:
        """Close (and so delete) the temporary file."""
        self._file.close()


@dataclass(frozen=True)
class WrittenWorld:
    """A world :class:`WorldWriter` wrote: its directory, ``world.json``'s content and how many records of
    each kind it holds."""

    directory: Path
    meta: dict[str, Any]
    companies: int
    insolvencies: int
    realtime: int
    shareholdings: int


class WorldWriter:
    """Writes a world to the directory ``out`` as it is built (a :class:`~.pipeline.Sink`; see the module
    docstring). Use it as a context manager; :meth:`finish` writes the files."""

    def __init__(self, out: str | os.PathLike[str]):
        self.directory = Path(out)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._partials: list[Path] = []
        self._companies = Spool(self.directory)
        self._insolvencies = Spool(self.directory)
        self._shareholdings = GzipLines(self._partial("shareholdings.jsonl.gz"))
        self._rows = 0

    def __enter__(self) -> WorldWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def add_company(self, record: dict[str, Any]) -> None:
        """Spool a final company record."""
        self._companies.add(record["id"], dump_line(record).encode("utf-8"))

    def add_shareholdings(self, rows: list[dict[str, Any]]) -> None:
        """Write one company's shareholdings rows."""
        for row in rows:
            self._shareholdings.write(dump_line(row).encode("utf-8"))
        self._rows += len(rows)

    def add_proceeding(self, record: dict[str, Any]) -> None:
        """Spool a proceeding."""
        self._insolvencies.add(record["id"], dump_line(record).encode("utf-8"))

    def record_of(self, position: int) -> dict[str, Any]:
        """The company record spooled ``position``-th, read back."""
        return json.loads(self._companies.line(position))

    def finish(self, meta: dict[str, Any], realtime: Mapping[str, dict[str, Any]]) -> WrittenWorld:
        """Write ``world.json``, the realtime records and the spooled records in id order; name the files."""
        self._shareholdings.close()
        realtime_file = GzipLines(self._partial("realtime.jsonl.gz"))
        for _, record in sorted(realtime.items()):
            realtime_file.write(dump_line(record).encode("utf-8"))
        realtime_file.close()
        insolvencies = _SortedCopy(self._insolvencies, self._partial("insolvencies.jsonl.gz"))
        try:
            _copy_sorted(self._companies, self._partial("companies.jsonl.gz"))
        finally:
            insolvencies.join()
        write_meta(self._partial("world.json"), meta)
        for partial in self._partials:
            os.replace(partial, self.directory / partial.name.removeprefix(".").removesuffix(".partial"))
        self._partials = []
        counts = (len(self._companies), len(self._insolvencies), len(realtime), self._rows)
        return WrittenWorld(self.directory, meta, *counts)

    def close(self) -> None:
        """Delete the temporary files (and, unless :meth:`finish` named them, the partly written ones)."""
        self._companies.close()
        self._insolvencies.close()
        try:
            self._shareholdings.close()
        except Exception:  # the build's own error is the one to see
            pass
        for partial in self._partials:
            partial.unlink(missing_ok=True)

    def _partial(self, name: str) -> Path:
        path = self.directory / f".{name}.partial"
        self._partials.append(path)
        return path


def _copy_sorted(spool: Spool, path: Path) -> None:
    """Write the lines of ``spool`` in key order to the ``.jsonl.gz`` file ``path``."""
    out = GzipLines(path)
    try:
        for line in spool.in_key_order():
            out.write(line)
    finally:
        out.close()


class _SortedCopy(threading.Thread):
    """:func:`_copy_sorted` in a thread (beside another copy); :meth:`join` raises what it raised."""

    def __init__(self, spool: Spool, path: Path):
        super().__init__(name=f"copy {path.name}", daemon=True)
        self._spool, self._path = spool, path
        self._error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            _copy_sorted(self._spool, self._path)
        except BaseException as error:
            self._error = error

    def join(self, timeout: float | None = None) -> None:
        super().join(timeout)
        if self._error is not None:
            raise self._error
