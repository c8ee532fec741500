"""Reading the OffeneRegister file line by line: bz2 or plain, never whole in memory, a truncated file noticed.

The bulk file is one bz2 stream (or several concatenated) of JSON lines. :class:`SourceLines` decompresses it in a
thread of its own (the bz2 module lets other threads run while it decompresses, so decompression takes the
second core while the importer maps records) and yields complete lines with their line numbers. A file that
ends before its bz2 stream does (a cut download) yields every line of its complete blocks and sets
:attr:`SourceLines.truncated`; the cut line is not yielded.
"""

from __future__ import annotations

import bz2
import io
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = ["SourceLines", "open_source"]

_BLOCK = 1 << 20
_END = b""


def open_source(path: Path) -> io.BufferedReader | bz2.BZ2File:
    """Open ``path`` for reading its decompressed bytes: bz2 when it starts with the bz2 magic, else plain."""
    with path.open("rb") as probe:
        magic = probe.read(3)
    if magic == b"BZh":
        return bz2.BZ2File(path, "rb")
    return path.open("rb")


class SourceLines:
    """The lines of a source file (see the module docstring); iterate once.

    Attributes
    ----------
    truncated : str or None
        Why the file ended early (and at which line), once iteration is over; ``None`` for a whole file.
    partial : bytes
        The start of the line the cut fell into (empty when the cut fell between lines).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.truncated: str | None = None
        self.partial = b""
        self._stop = threading.Event()
        self._queue: queue.Queue[bytes | BaseException] = queue.Queue(maxsize=16)

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        handle = open_source(self.path)
        thread = threading.Thread(target=self._read, args=(handle,), name="read offeneregister", daemon=True)
        thread.start()
        rest = b""
        number = 0
        try:
            while True:
                block = self._queue.get()
                if isinstance(block, BaseException):
                    self.truncated = f"the file ends inside a compressed block after line {number} ({block})"
                    self.partial = rest
                    return
                if block is _END or not block:
                    break
                lines = (rest + block).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    number += 1
                    yield number, line
            if rest:
                number += 1
                yield number, rest
        finally:
            self._stop.set()
            while thread.is_alive():
                try:
                    self._queue.get(timeout=0.05)
                except queue.Empty:
                    pass
            thread.join()
            handle.close()

    def _read(self, handle: io.BufferedReader | bz2.BZ2File) -> None:
        try:
            while not self._stop.is_set():
                try:
                    block = handle.read1(_BLOCK)  # what one read gives: a cut file loses only its cut block
                except (EOFError, OSError) as error:
                    self._put(error)
                    return
                self._put(block)
                if not block:
                    return
        except BaseException as error:  # handed to the reading thread
            self._put(error)

    def _put(self, item: bytes | BaseException) -> None:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue
