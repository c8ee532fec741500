"""What a world store is: its files and format, the world files it is made from, and the check that a directory
is a complete store.

The store's directory holds ``records.sqlite`` (:data:`RECORDS`, its tables :data:`RECORDS_SCHEMA`), the search
index files under ``search/`` (:data:`SEARCH`) and the manifest ``store.json`` (:data:`MANIFEST`), written last.
:func:`check_store` is the one test of "complete, undamaged and of this format" that building, replacing and
finding a store rely on.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from ..store import WORLD_FILES

__all__ = [
    "STORE_FORMAT",
    "OPTIONAL_FILES",
    "SEARCH",
    "RECORDS",
    "MANIFEST",
    "RECORDS_SCHEMA",
    "RECORDS_TABLES",
    "RECORDS_INDEXES",
    "StoreError",
    "source_stamps",
    "source_digest",
    "check_store",
    "write_json_atomically",
]

#: The version of the store's layout; a store of another version is rebuilt (5: the ``derived`` tables).
STORE_FORMAT = 5
#: Files a world may have beside :data:`~regkit.local.world.store.WORLD_FILES` that the store is made from too:
#: ``derived.jsonl.gz``, per company the members the OffeneRegister import derived (``{"id", "derived": [...]}``).
OPTIONAL_FILES = ("derived.jsonl.gz",)
#: The store's directory of search index files (``companies.sqlite``, ``insolvencies.sqlite``, ``persons.sqlite``).
SEARCH = "search"
#: The store's records file.
RECORDS = "records.sqlite"
#: The store's manifest, written last: a directory without a valid one is no store.
MANIFEST = "store.json"
_SQLITE_MAGIC = b"SQLite format 3\x00"

#: The tables of the records file (:mod:`regkit.local.world.world_store` describes them).
RECORDS_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE companies (id TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE realtime (id TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE insolvencies (id TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE shareholdings (seq INTEGER PRIMARY KEY, company_id TEXT NOT NULL, holder_id TEXT,
                            record TEXT NOT NULL);
CREATE TABLE former_ids (old TEXT PRIMARY KEY, new TEXT NOT NULL);
CREATE TABLE documents (id TEXT PRIMARY KEY, company_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE TABLE persons (id TEXT PRIMARY KEY, key TEXT NOT NULL, details TEXT NOT NULL);
CREATE TABLE positions (seq INTEGER PRIMARY KEY, person_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE TABLE websites (host TEXT PRIMARY KEY, company_id TEXT NOT NULL);
CREATE TABLE derived_marks (n INTEGER PRIMARY KEY, marks TEXT NOT NULL);
CREATE TABLE derived (id TEXT PRIMARY KEY, marks INTEGER NOT NULL) WITHOUT ROWID;
"""
#: The names of the records file's tables (a store without one of them is not used).
RECORDS_TABLES = frozenset(re.findall(r"CREATE TABLE (\w+)", RECORDS_SCHEMA))
#: The records file's indexes, made once its rows are written.
RECORDS_INDEXES = """
CREATE INDEX shareholdings_company ON shareholdings (company_id, seq);
CREATE INDEX shareholdings_holder ON shareholdings (holder_id, seq);
CREATE INDEX persons_key ON persons (key);
CREATE INDEX positions_person ON positions (person_id, seq);
"""


class StoreError(Exception):
    """A store that cannot be used (incomplete, damaged, made from other files).

    :func:`~regkit.local.world.world_store.cache.ensure_store` rebuilds it.
    """


# -- the source files -----------------------------------------------------------------------------------------


def _source_names(data_dir: Path) -> list[str]:
    """The files the store of the world in ``data_dir`` is made from: its world files, then the optional ones it has."""
    return [*WORLD_FILES, *(name for name in OPTIONAL_FILES if (data_dir / name).is_file())]


def source_stamps(data_dir: Path) -> list[list[Any]]:
    """``[name, size, mtime_ns]`` of each file of the world in ``data_dir`` (the cheap check of a store): the world
    files, then the :data:`OPTIONAL_FILES` it has."""
    stamps = []
    for name in _source_names(data_dir):
        stat = (data_dir / name).stat()
        stamps.append([name, stat.st_size, stat.st_mtime_ns])
    return stamps


def source_digest(data_dir: Path) -> str:
    """The sha256 (hex) of the world's files in ``data_dir``: their names and contents, in a fixed order (the
    :data:`OPTIONAL_FILES` it has last, so a world without them keeps the digest it had before they existed)."""
    total = hashlib.sha256()
    for name in _source_names(data_dir):
        digest = hashlib.sha256()
        with (data_dir / name).open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        total.update(f"{name}\0{digest.hexdigest()}\n".encode())
    return total.hexdigest()


# -- the manifest and the check -------------------------------------------------------------------------------


def write_json_atomically(path: Path, content: dict[str, Any]) -> None:
    """Write ``content`` to ``path`` atomically (a temporary file renamed over it): a reader sees the old file or
    the new one, never a part."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    temporary.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def check_store(store: Path) -> dict[str, Any]:
    """The manifest of a complete, undamaged-looking store directory; :class:`StoreError` otherwise.

    Checks what is cheap whatever the size: the manifest, the store format, the size of ``records.sqlite``
    against the manifest and against the page count in its own header, that it has the tables of the format,
    and that its meta table reads back the manifest's source digest.
    """
    manifest_path, records = store / MANIFEST, store / RECORDS
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(f"{store} has no readable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != STORE_FORMAT:
        raise StoreError(f"{store} is a store of another format ({manifest.get('format')!r})")
    try:
        size = records.stat().st_size
        with records.open("rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        raise StoreError(f"{records} cannot be read ({exc})") from None
    if size != manifest.get("records_size"):
        raise StoreError(f"{records} has {size} bytes, the build wrote {manifest.get('records_size')}")
    for name, written in (manifest.get("search_sizes") or {}).items():
        index = store / SEARCH / f"{name}.sqlite"
        if not index.is_file() or index.stat().st_size != written:
            raise StoreError(f"{index} is missing or not the size the build wrote ({written} bytes)")
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{records} is not a SQLite file")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if int.from_bytes(header[28:32], "big") * page_size != size:
        raise StoreError(f"{records} is truncated or damaged (its header counts other pages)")
    try:
        with sqlite3.connect(f"{records.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'source'").fetchone()
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        db.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{records} is damaged ({exc})") from None
    missing = sorted(RECORDS_TABLES - tables)
    if missing:  # a layout of this format's number that is not this format's (a development build)
        raise StoreError(f"{records} lacks the table(s) {', '.join(missing)} of its format")
    if row is None or json.loads(row[0]).get("sha256") != manifest.get("source", {}).get("sha256"):
        raise StoreError(f"{records} does not belong to its manifest")
    return manifest
