"""Search index files: written once under a temporary name and renamed into place, opened read-only at once.

A search index (companies, insolvencies, persons) is one SQLite file. :func:`writing` builds it beside its final
path under a temporary name and renames it into place only when the build has finished: an exception (or a
killed process) leaves no half file under the final name, and a reader never sees one. :func:`open_reader`
checks a file before use — that it is complete (its size is what its header promises: a truncated copy is
refused), that it is an index of the expected kind and format — and :func:`connect` opens read-only connections
to it (``mode=ro``, one per thread, memory-mapped), so opening reads a page or two, whatever the index holds.

Each index stores what it needs to open in table ``index_meta`` (``kind``, ``format``, ``size`` and its own keys).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = [
    "ConnectionPool",
    "IndexFileError",
    "writing",
    "open_reader",
    "connect",
    "read_meta",
    "META_TABLE",
    "MMAP_BYTES",
    "CACHE_KIB",
]

META_TABLE = "CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
#: Bytes of an index file a connection maps into memory. 0: pages are read into SQLite's page cache
#: (:data:`CACHE_KIB` per connection) from the operating system's, so the pages a search touched do not stay in
#: the process's resident memory (mapped pages do, as file-backed RSS: 280 MB after 1,200 searches on a million
#: companies; ``benchmarks/bench_company_search.py`` prints both ways side by side).
MMAP_BYTES = 0
#: Page cache of each read-only connection, KiB.
CACHE_KIB = 8192
_HEADER = b"SQLite format 3\x00"


class IndexFileError(ValueError):
    """A search index file is missing, truncated, damaged, or not an index of the kind asked for.

    The message names the file and says what to do (rebuild it: the index is derived from the world).
    """


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[sqlite3.Connection]:
    """A connection to a new database that becomes ``path`` when the ``with`` block ends without an exception.

    The database is written as a temporary file in the same directory (so the rename is atomic) with journaling
    and syncing off (it is not in place until it is complete); on an exception it is removed and ``path`` is left
    as it was.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    conn = sqlite3.connect(temporary)
    try:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA page_size=8192")
        conn.execute("PRAGMA cache_size=-262144")  # 256 MiB while building (FTS5 merges, sorting)
        conn.execute(META_TABLE)
        yield conn
        conn.commit()
        conn.close()
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        conn.close()
        temporary.unlink(missing_ok=True)
        raise


def _check_size(path: Path) -> None:
    """Refuse a file that is not SQLite or shorter than its header says (a truncated copy)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        raise IndexFileError(f"The search index {path} does not exist; build it first.") from None
    if len(header) < 100 or not header.startswith(_HEADER):
        raise IndexFileError(f"{path} is not a search index (not an SQLite file); delete it and rebuild the index.")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if pages and size < pages * page_size:
        raise IndexFileError(
            f"The search index {path} is truncated ({size:,} bytes of {pages * page_size:,}); "
            "delete it and rebuild the index."
        )


def connect(uri: str) -> sqlite3.Connection:
    """A read-only connection to an index (a ``file:`` URI with ``mode=ro``, or a shared in-memory one)."""
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    conn.execute(f"PRAGMA mmap_size={int(MMAP_BYTES)}")
    conn.execute(f"PRAGMA cache_size=-{int(CACHE_KIB)}")
    return conn


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """The ``index_meta`` table as a dict."""
    return dict(conn.execute("SELECT key, value FROM index_meta").fetchall())


def open_reader(path: str | os.PathLike[str], kind: str, version: int) -> tuple[str, dict[str, str]]:
    """Check an index file and return its read-only URI and its ``index_meta``.

    Raises
    ------
    IndexFileError
        The file is missing, truncated, damaged, of another kind or of another format version.
    """
    file = Path(path).resolve()
    _check_size(file)
    uri = file.as_uri() + "?mode=ro"
    try:
        conn = connect(uri)
        try:
            meta = read_meta(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise IndexFileError(f"The search index {file} cannot be read ({error}); delete it and rebuild it.") from None
    if meta.get("kind") != kind:
        raise IndexFileError(
            f"{file} is not the search index of {kind} (it indexes {meta.get('kind', 'nothing known')}); "
            f"open the {kind} index file."
        )
    if meta.get("format") != str(version):
        raise IndexFileError(
            f"The {kind} search index {file} has format {meta.get('format')}, this regkit reads format {version}; "
            "rebuild it."
        )
    return uri, meta


class ConnectionPool:
    """Read-only connections to one index database, borrowed by one search at a time and kept for the next.

    Parameters
    ----------
    connect : callable
        Opens a new read-only connection (when every pooled one is in use).
    keep_alive : sqlite3.Connection, optional
        The writer of an in-memory index, which keeps its database alive; closed with the pool.
    """

    def __init__(self, connect: Callable[[], sqlite3.Connection], keep_alive: sqlite3.Connection | None = None):
        self._connect = connect
        self._keep_alive = keep_alive
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a read-only connection (a new one when every pooled one is in use)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        finally:
            with self._lock:
                self._idle.append(conn)

    def close(self) -> None:
        """Close the pooled connections (and, for an in-memory index, the index itself)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        if self._keep_alive is not None:
            self._keep_alive.close()
