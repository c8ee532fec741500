"""The world store: a world directory built once into an indexed SQLite file and opened read-only, at once.

A world directory (``world.json`` and the ``*.jsonl.gz`` files, see :mod:`regkit.local.world.store`) stays the
source of truth; the store is derived from it and answers the same records one at a time, so opening a world
costs the same whether it holds 5,000 companies or 5,000,000. A store is a directory::

    store/
        records.sqlite   the records and the lookups derived from them (tables below)
        store.json       the manifest, written last: the store format, the size of records.sqlite, and the
                         source files' names, sizes, mtime_ns and their sha256 (a store without a valid
                         manifest is incomplete and never used)

``records.sqlite`` holds ``meta(key, value)`` (``world.json`` without ``former_ids``, the counts, the records'
compression dictionary), ``companies``, ``realtime`` and ``insolvencies`` (``id`` → the record as compact JSON,
exactly the line of the source file, compressed with a dictionary trained on the first records: :class:`RecordCodec`),
``shareholdings`` (in file order, indexed by company and holder), ``former_ids``,
``documents`` (id → company id and document), ``persons`` (UUID → details), ``positions`` (a person's
management positions), ``websites`` (host → company id), and ``derived`` with ``derived_marks``: the members of
a company's record that are derived, not the register's, as the ``X-Regkit-Derived`` header of a company lookup
sends them (:func:`regkit.schema.derived.format_marks`). ``derived_marks`` holds each distinct value once (``n`` →
text: an imported world has a few dozen, its companies share them), ``derived`` maps a company id to its value's
``n`` (``WITHOUT ROWID``: about 30 bytes a company); only companies with derived members are in
it, only in a world that has ``derived.jsonl.gz`` (one imported from OffeneRegister).

The source files are the world's files (:data:`~regkit.local.world.store.WORLD_FILES`) and, where the world has
it, ``derived.jsonl.gz`` (:data:`OPTIONAL_FILES`): a store is rebuilt when any of them changes.

Where a world's store lives (:func:`ensure_store`): ``DIR/store/`` when it is complete and made from the
current files; else, for a world directory the user can write (not the bundled world), it is built there; the
bundled world (in the wheel or a checkout) and read-only directories get theirs in the user cache directory
(``REGKIT_WORLD_CACHE``, else ``<user cache dir>/regkit/worlds``), keyed by the sha256 of the source files.
Builds go to a temporary directory renamed into place, so an interrupted build leaves no half store that could
be used, and two processes building at once both end with a good store.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, ItemsView, Iterator, Mapping, Sequence, ValuesView
from pathlib import Path
from typing import Any, TypeVar, overload

from ..json_lines import dump_text, load_line
from ..record_codec import RecordCodec
from .disk_space import disk_full, room, sqlite_temporary_directory
from .store import FORMAT_VERSION, WORLD_FILES, World, bundled_data_dirs, default_data_dir, gzip_reader, write_world

__all__ = [
    "STORE_FORMAT",
    "OPTIONAL_FILES",
    "PARALLEL_FROM",
    "SEARCH",
    "StoreError",
    "StoreBuild",
    "CompanyRecordFeed",
    "company_store_rows",
    "StoredWorld",
    "RecordTable",
    "ShareholdingRows",
    "Lookup",
    "StoreDatabase",
    "build_store",
    "build_record_indexes_from_files",
    "ensure_store",
    "open_world",
    "store_for_world",
    "world_cache_dir",
    "source_stamps",
    "source_digest",
    "check_store",
]

logger = logging.getLogger("regkit.local.world_store")

#: The version of the store's layout; a store of another version is rebuilt (5: the ``derived`` tables).
STORE_FORMAT = 5
#: Files a world may have beside :data:`~regkit.local.world.store.WORLD_FILES` that the store is made from too:
#: ``derived.jsonl.gz``, per company the members the OffeneRegister import derived (``{"id", "derived": [...]}``).
OPTIONAL_FILES = ("derived.jsonl.gz",)
#: The store's directory of search index files (``companies.sqlite``, ``insolvencies.sqlite``, ``persons.sqlite``).
SEARCH = "search"
RECORDS = "records.sqlite"
MANIFEST = "store.json"
_BATCH = 2_000
_READ_BYTES = 1 << 20
#: From this size of ``companies.jsonl.gz`` on (bytes; about 100,000 imported companies), the search indexes are
#: built in a second process while the records are written.
PARALLEL_FROM = 8 << 20
_SQLITE_MAGIC = b"SQLite format 3\x00"

V = TypeVar("V")


class StoreError(Exception):
    """A store that cannot be used (incomplete, damaged, made from other files); :func:`ensure_store` rebuilds it."""


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


def _missing_files(data_dir: Path) -> None:
    """Raise the message :func:`regkit.local.world.store.read_world` gives for a directory that is not a world."""
    from .store import _not_a_world  # the one wording, shared with the JSON-lines loader

    missing = [name for name in WORLD_FILES if not (data_dir / name).is_file()]
    if missing:
        raise FileNotFoundError(_not_a_world(data_dir, missing))


def _jsonl_lines(path: Path) -> Iterator[tuple[bytes, dict[str, Any]]]:
    """Each record of a ``.jsonl.gz`` file as its line (bytes, no newline) and parsed, one at a time (read in
    blocks of :data:`_READ_BYTES`: ``GzipFile``'s line iteration costs more than the parsing)."""
    with gzip_reader(path) as handle:
        rest = b""
        while block := handle.read(_READ_BYTES):
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            for raw in lines:
                line = raw.strip()
                if line:
                    yield line, load_line(line)
        line = rest.strip()
        if line:
            yield line, load_line(line)


# -- building ---------------------------------------------------------------------------------------------------

_SCHEMA = """
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
#: The tables of the records file (a store without one of them is not used).
_TABLES = frozenset(re.findall(r"CREATE TABLE (\w+)", _SCHEMA))
_INDEXES = """
CREATE INDEX shareholdings_company ON shareholdings (company_id, seq);
CREATE INDEX shareholdings_holder ON shareholdings (holder_id, seq);
CREATE INDEX persons_key ON persons (key);
CREATE INDEX positions_person ON positions (person_id, seq);
"""


def _compact(value: Any) -> str:
    return dump_text(value)


def company_store_rows(record: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """The rows of the records file's tables other than ``companies`` that a company's record gives, as
    ``(table, row)``: its documents, its natural-person representatives (``persons``) and their positions, its
    website's host. (The OffeneRegister import makes them in its mapping processes, beside the record.)"""
    company_id = record["id"]
    rows: list[tuple[str, list[Any]]] = [
        ("documents", [document["id"], company_id, _compact(document)]) for document in record.get("documents", ())
    ]
    for entry in record.get("representation", ()):
        person_id = entry.get("id")
        if not person_id or entry.get("type") != "natural_person":
            continue
        details = {"name": entry.get("name"), **(entry.get("natural_person") or {})}
        rows.append(("persons", [person_id, person_id.lower(), _compact(details)]))
        if entry["role"] != "SHAREHOLDER":
            position = {
                "company_name": record["name"]["name"],
                "register_id": company_id,
                "role": entry["role"],
                "start_date": entry["start_date"],
                "end_date": entry["end_date"],
            }
            rows.append(("positions", [person_id, _compact(position)]))
    website = (record.get("contact") or {}).get("website_url")
    if website:
        from regkit.schema.websites import website_host

        rows.append(("websites", [website_host(website), company_id]))
    return rows


class _Builder:
    """Writes one store file from a world's records, streaming, in batches of :data:`_BATCH` rows."""

    def __init__(self, path: Path, codec: RecordCodec):
        self.codec = codec
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA page_size = 8192")
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute("PRAGMA cache_size = -65536")  # 64 MiB: bounded whatever the world's size
        self.db.executescript(_SCHEMA)
        self.db.execute("BEGIN")
        self.counts = {"companies": 0, "realtime": 0, "insolvencies": 0, "shareholdings": 0, "derived": 0}
        self._derived_known: dict[tuple[str, ...], int] = {}  # the members as listed → n (0: none), formatted once
        self._sql = {
            "companies": "INSERT INTO companies VALUES (?, ?)",
            "realtime": "INSERT INTO realtime VALUES (?, ?)",
            "insolvencies": "INSERT INTO insolvencies VALUES (?, ?)",
            "shareholdings": "INSERT INTO shareholdings VALUES (?, ?, ?, ?)",
            "documents": "INSERT OR IGNORE INTO documents VALUES (?, ?, ?)",
            "persons": "INSERT OR IGNORE INTO persons VALUES (?, ?, ?)",
            "positions": "INSERT INTO positions (person_id, record) VALUES (?, ?)",
            # the smallest company id keeps a host several companies publish
            "websites": "INSERT INTO websites VALUES (?, ?) ON CONFLICT (host) DO UPDATE "
            "SET company_id = min(company_id, excluded.company_id)",
            "former_ids": "INSERT OR REPLACE INTO former_ids VALUES (?, ?)",
            "derived_marks": "INSERT INTO derived_marks VALUES (?, ?)",
            # of two rows of one id (a hand-edited file), the first is kept, as of two records of one id
            "derived": "INSERT OR IGNORE INTO derived VALUES (?, ?)",
        }
        self.pending: dict[str, list[tuple[Any, ...]]] = {table: [] for table in self._sql}
        self._rows = 0

    def add(self, table: str, row: tuple[Any, ...]) -> None:
        self.pending[table].append(row)
        self._rows += 1
        if self._rows >= _BATCH * 4:
            self.flush(commit=True)

    def flush(self, *, commit: bool = False) -> None:
        # tables in a fixed order, so that INSERT OR IGNORE keeps the first of equal keys in stream order
        for table, rows in self.pending.items():
            if rows:
                self.db.executemany(self._sql[table], rows)
                rows.clear()
        self._rows = 0
        if commit:
            self.db.execute("COMMIT")
            self.db.execute("BEGIN")

    def company(self, line: bytes, record: dict[str, Any], *, realtime: bool = False) -> None:
        company_id = record["id"]
        if realtime:
            self.add("realtime", (company_id, self.codec.encode(line)))
            self.counts["realtime"] += 1
            for document in record.get("documents", ()):
                self.add("documents", (document["id"], company_id, _compact(document)))
            return
        self.company_rows(company_id, line, company_store_rows(record))

    def company_rows(self, company_id: str, line: bytes, rows: Sequence[Sequence[Any]]) -> None:
        """Add the company ``company_id`` (its record's ``line``) and the rows of the other tables
        :func:`company_store_rows` made of it."""
        self.add("companies", (company_id, self.codec.encode(line)))
        self.counts["companies"] += 1
        pending = self.pending
        for table, row in rows:
            pending[table].append(row)
        self._rows += len(rows)

    def shareholding(self, line: bytes, row: dict[str, Any]) -> None:
        self.add("shareholdings", (self.counts["shareholdings"], row["company_id"], row.get("holder_id"), line))
        self.counts["shareholdings"] += 1
        if row.get("holder_type") == "natural_person" and row.get("holder_id"):
            details = {"name": row.get("holder_name"), **(row.get("holder_details") or {})}
            self.add("persons", (row["holder_id"], row["holder_id"].lower(), _compact(details)))

    def insolvency(self, line: bytes, proceeding: dict[str, Any]) -> None:
        self.add("insolvencies", (proceeding["id"], self.codec.encode(line)))
        self.counts["insolvencies"] += 1
        if proceeding.get("person_id"):
            details = {"name": proceeding.get("debtor_name"), "city": proceeding.get("city")}
            person_id = proceeding["person_id"]
            self.add("persons", (person_id, person_id.lower(), _compact(details)))

    def derived(self, path: Path) -> None:
        """The ``derived`` table from ``derived.jsonl.gz`` (``{"id": ..., "derived": [member, ...]}`` per company):
        each company with derived members, the number of its members' value in ``derived_marks`` (each distinct
        value written once, as the ``X-Regkit-Derived`` header writes it)."""
        for number, (_, row) in enumerate(_jsonl_lines(path), 1):
            try:
                company_id, members = row["id"], row["derived"]
                if not isinstance(company_id, str) or not isinstance(members, list):
                    raise TypeError("not an id and a list")
                self.company_derived(company_id, members)
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(
                    f"{path} line {number} is not a company's derived members ({type(exc).__name__}: {exc}); "
                    "import the world again"
                ) from None

    def company_derived(self, company_id: str, members: Sequence[str]) -> None:
        """One company's derived members (as ``derived.jsonl.gz`` lists them) into the ``derived`` tables."""
        from regkit.schema.derived import format_marks

        key = tuple(members)
        n = self._derived_known.get(key)
        if n is None:
            marks = format_marks(list(members))
            n = self._derived_known[key] = len(self._derived_known) + 1 if marks else 0
            if n:
                self.add("derived_marks", (n, marks))
        if n:
            self.add("derived", (company_id, n))
            self.counts["derived"] += 1

    def finish(self, meta: dict[str, Any], source: dict[str, Any]) -> None:
        former = meta.get("former_ids") or {}
        for old, new in former.items():
            self.add("former_ids", (old, new))
        self.flush()
        kept = {k: v for k, v in meta.items() if k != "former_ids"}
        values = {
            "world": _compact(kept),
            "counts": _compact(self.counts),
            "source": _compact(source),
            "format": str(STORE_FORMAT),
            "dictionary": self.codec.dictionary.hex(),
        }
        self.db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(values.items()))
        self.db.execute("COMMIT")
        self.db.executescript(_INDEXES)
        self.db.execute("ANALYZE")
        self.db.close()


def _build_file(
    data_dir: Path, path: Path, source: dict[str, Any], companies: CompanyRecordFeed | None = None
) -> dict[str, int]:
    """Write ``path`` from the world in ``data_dir``; return the counts. Reads every file once, streaming; with
    ``companies`` (fed every company as ``companies.jsonl.gz`` was written), not ``companies.jsonl.gz``."""
    meta = json.loads((data_dir / "world.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT_VERSION:
        raise ValueError(
            f"{data_dir}/world.json has format {meta.get('format')!r}; this regkit reads {FORMAT_VERSION}."
        )
    if companies is None:
        builder = _Builder(path, RecordCodec.sample_file(data_dir / "companies.jsonl.gz"))
    else:
        builder = companies.close()
    try:
        # the persons' order of precedence (first seen wins): representatives, shareholders, debtors
        if companies is None:
            for line, record in _jsonl_lines(data_dir / "companies.jsonl.gz"):
                builder.company(line, record)
        for line, record in _jsonl_lines(data_dir / "realtime.jsonl.gz"):
            builder.company(line, record, realtime=True)
        for line, row in _jsonl_lines(data_dir / "shareholdings.jsonl.gz"):
            builder.shareholding(line, row)
        for line, proceeding in _jsonl_lines(data_dir / "insolvencies.jsonl.gz"):
            builder.insolvency(line, proceeding)
        if (data_dir / OPTIONAL_FILES[0]).is_file() and (companies is None or not companies.derived_fed):
            builder.derived(data_dir / OPTIONAL_FILES[0])
        builder.finish(meta, source)
    except BaseException:
        builder.db.close()
        raise
    return builder.counts


class CompanyRecordFeed:
    """A world's companies written into a store's records file as ``companies.jsonl.gz`` is written (by the
    OffeneRegister import's merge), so that :meth:`StoreBuild.finish` need not read and parse them again.

    :meth:`add` takes each company in the file's order, with the rows :func:`company_store_rows` makes of its
    record. The records' dictionary is trained on the first lines, as :meth:`RecordCodec.sample_file` trains it
    on the finished file: the records file holds what :func:`build_store` would write.
    """

    def __init__(self, path: Path):
        self.path = path
        self._first: list[tuple[str, bytes, Sequence[Sequence[Any]], Sequence[str] | None]] = []
        self._builder: _Builder | None = None
        #: Whether :meth:`add` was given every company's derived members (then ``derived.jsonl.gz`` is not read).
        self.derived_fed = False

    def add(
        self, company_id: str, line: bytes, rows: Sequence[Sequence[Any]], derived: Sequence[str] | None = None
    ) -> None:
        """Add the next company: its id, its line in ``companies.jsonl.gz``, its other tables' rows and, from an
        import that writes ``derived.jsonl.gz``, its line's derived members (as that file lists them)."""
        self.derived_fed = derived is not None
        if self._builder is not None:
            self._builder.company_rows(company_id, line, rows)
            if derived is not None:
                self._builder.company_derived(company_id, derived)
            return
        self._first.append((company_id, line, rows, derived))
        if len(self._first) >= RecordCodec.SAMPLES:
            self._start()

    def _start(self) -> _Builder:
        builder = _Builder(self.path, RecordCodec.sample(line for _, line, _, _ in self._first))
        self._builder = builder
        first, self._first = self._first, []
        for company_id, line, rows, derived in first:
            builder.company_rows(company_id, line, rows)
            if derived is not None:
                builder.company_derived(company_id, derived)
        return builder

    def close(self) -> _Builder:
        """The builder every company went to (for :func:`_build_file` to finish)."""
        return self._builder if self._builder is not None else self._start()

    def abandon(self) -> None:
        """Close the records file without finishing it (the build failed)."""
        if self._builder is not None:
            self._builder.db.close()


def _write_json(path: Path, content: dict[str, Any]) -> None:
    """Write ``content`` to ``path`` atomically (a temporary file renamed over it)."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    temporary.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


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
        self._indexes: _RecordIndexBuild | None = None
        self._companies: CompanyRecordFeed | None = None

    def __enter__(self) -> StoreBuild:
        if self.company_stages is None:
            _missing_files(self.data_dir)  # before anything is created beside it
        self.target.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned(self.target)
        self.building = self.target.parent / f".{self.target.name}.building-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.building.mkdir()
        if self.company_stages is not None:
            self._start_indexes(separate=True)
        return self

    def _start_indexes(self, *, separate: bool) -> _RecordIndexBuild:
        assert self.building is not None
        self._indexes = _RecordIndexBuild(
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
        _missing_files(data_dir)
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
        counts = _build_file(data_dir, building / RECORDS, source, self._companies)
        self._companies = None
        records_done = time.perf_counter()
        record_indexes.check()
        _write_person_index(building)  # while the second process, if any, still builds its indexes
        persons_done = time.perf_counter()
        record_indexes.finish(building)
        indexes_done = time.perf_counter()
        search_sizes = _index_sizes(building / SEARCH)
        manifest = {
            "format": STORE_FORMAT,
            "records_size": (building / RECORDS).stat().st_size,
            "search_sizes": search_sizes,
            "source": source,
            "counts": counts,
        }
        _write_json(building / MANIFEST, manifest)
        _put_in_place(building, self.target, source["sha256"])
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


def _remove_abandoned(target: Path) -> None:
    """Remove what interrupted builds of ``target`` left beside it: temporary directories of processes that are
    gone, and stores set aside by a replacement."""
    for path in target.parent.glob(f".{target.name}.*"):
        kind, _, rest = path.name[len(target.name) + 2 :].partition("-")
        if kind == "building":
            try:
                os.kill(int(rest.split("-")[0]), 0)
                continue  # its process is still building
            except (ValueError, ProcessLookupError):
                pass
            except PermissionError:
                continue  # another user's live process
        elif kind != "old":
            continue
        shutil.rmtree(path, ignore_errors=True)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def build_record_indexes_from_files(data_dir: Path, target: Path, company_stages: list[Path] | None = None) -> None:
    """Build the company and insolvency search indexes of the world in ``data_dir`` from its files into
    ``target`` (with ``company_stages``: the company index alone, from those staged rows, removed once indexed).
    What :mod:`regkit.local.world.store_indexes` runs in a process of its own."""
    from ..search.index_files import build_record_indexes, build_staged_company_index

    if company_stages is not None:
        build_staged_company_index(target, company_stages)
        for stage in company_stages:  # indexed: their disk is free before the records are written
            stage.unlink(missing_ok=True)
    else:
        build_record_indexes(
            target,
            lambda: (record for _, record in _jsonl_lines(data_dir / "companies.jsonl.gz")),
            lambda: (record for _, record in _jsonl_lines(data_dir / "insolvencies.jsonl.gz")),
        )


#: The helper program: this process's ``sys.path`` (so it imports the same regkit and libraries, as a
#: multiprocessing "spawn" child would), then :func:`regkit.local.world.store_indexes.main`.
_HELPER = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from regkit.local.world.store_indexes import main; sys.exit(main(sys.argv[2:]))"
)


class _RecordIndexBuild:
    """The company and insolvency search indexes of a store being built: from the world's files in a second
    process started on entry (``separate``), or from the complete records in this one (:meth:`finish`).

    Leaving the block early (an error, an interrupt) ends the second process at once; its files go with the
    building directory.
    """

    def __init__(self, data_dir: Path, target: Path, *, separate: bool, company_stages: list[Path] | None = None):
        self.data_dir, self.target, self.separate = data_dir, target, separate
        self.company_stages = company_stages
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> _RecordIndexBuild:
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
            from ..search.index_files import build_record_indexes

            world = StoredWorld(store)
            try:
                build_record_indexes(self.target, lambda: world.companies.values(), lambda: world.insolvencies.values())
            finally:
                world.db.close()
            return
        if self.company_stages is not None:  # the second process builds the company index alone
            from ..search.index_files import build_insolvency_index

            build_insolvency_index(self.target, (p for _, p in _jsonl_lines(self.data_dir / "insolvencies.jsonl.gz")))
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


def _write_person_index(store: Path) -> None:
    """Build the person search index of the store being built in ``store`` (its ``records.sqlite`` complete)
    into ``store / SEARCH``, beside the company and insolvency indexes. Called before the manifest is written, so
    the indexes share the store's atomic rename."""
    from ..models.people_index import read_people
    from ..search.index_files import build_person_index

    world = StoredWorld(store)
    target = store / SEARCH
    try:
        build_person_index(target, read_people(world.db))
    finally:
        world.db.close()


def _index_sizes(search: Path) -> dict[str, int]:
    """The size of each search index file in ``search`` (kept in the manifest)."""
    from ..search.index_files import INDEX_FILES

    return {name: (search / file).stat().st_size for name, file in INDEX_FILES.items()}


def _put_in_place(building: Path, target: Path, digest: str) -> None:
    """Rename the complete store ``building`` to ``target``; a store already there is replaced unless another
    process has just put a good store of the same source there."""
    for _ in range(5):
        try:
            os.rename(building, target)  # atomic; fails when target is a non-empty directory
            return
        except OSError:
            if not target.exists():
                continue
        try:
            if check_store(target)["source"]["sha256"] == digest:
                return  # another process finished the same store first: keep it, drop ours
        except StoreError:
            pass
        aside = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(target, aside)
        except OSError:
            continue
        shutil.rmtree(aside, ignore_errors=True)  # open readers keep their file: POSIX unlinks lazily
    raise StoreError(f"Could not put the world store in place at {target}; remove it and retry.")


# -- checking and finding -------------------------------------------------------------------------------------


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
    missing = sorted(_TABLES - tables)
    if missing:  # a layout of this format's number that is not this format's (a development build)
        raise StoreError(f"{records} lacks the table(s) {', '.join(missing)} of its format")
    if row is None or json.loads(row[0]).get("sha256") != manifest.get("source", {}).get("sha256"):
        raise StoreError(f"{records} does not belong to its manifest")
    return manifest


def world_cache_dir() -> Path:
    """Where stores of worlds that cannot hold their own are built: ``REGKIT_WORLD_CACHE`` if set, else
    ``worlds/`` in the user cache directory (``platformdirs``)."""
    env = os.environ.get("REGKIT_WORLD_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("regkit")) / "worlds"


def _matches(manifest: dict[str, Any], stamps: list[list[Any]], data_dir: Path, digest: list[str]) -> bool:
    """Whether a store's manifest was made from the files now in ``data_dir``: the stamps, else the sha256
    (computed once, kept in ``digest``)."""
    source = manifest.get("source", {})
    if source.get("files") == stamps:
        return True
    if not digest:
        digest.append(source_digest(data_dir))
    return bool(source.get("sha256") == digest[0])


def _writable(directory: Path) -> bool:
    return os.access(directory, os.W_OK | os.X_OK)


def ensure_store(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The directory of a complete store of the world in ``data_dir`` (default: the bundled one), built first
    where there is none, or where it was made from other files or is damaged (see the module for where).

    Raises
    ------
    FileNotFoundError
        ``data_dir`` is not a world.
    RegkitError
        A disk ran full while the store was built (the message gives the room left and how to move the store).
    """
    directory = (Path(data_dir) if data_dir is not None else default_data_dir()).resolve()
    _missing_files(directory)
    stamps = source_stamps(directory)
    digest: list[str] = []
    local = directory / "store"
    if local.exists():
        try:
            manifest = check_store(local)
            if _matches(manifest, stamps, directory, digest):
                if manifest["source"]["files"] != stamps and _writable(local):
                    _write_json(local / MANIFEST, {**manifest, "source": {**manifest["source"], "files": stamps}})
                return local
            logger.info("The world store %s was made from other files: rebuilding it", local)
        except StoreError as exc:
            logger.warning("Not using the world store %s: %s; rebuilding it", local, exc)
    bundled = directory in {d.resolve() for d in bundled_data_dirs()}
    if not bundled and _writable(directory):
        return _timed_build(directory, local, digest)
    return _cached_store(directory, stamps, digest)


def _timed_build(directory: Path, target: Path, digest: list[str]) -> Path:
    started = time.perf_counter()
    try:
        built = build_store(directory, target, digest=digest[0] if digest else None)
    except Exception as exc:
        if not disk_full(exc):
            raise
        from regkit.errors import RegkitError

        temporary, variable = sqlite_temporary_directory()
        cached = target.parent.resolve() == world_cache_dir().resolve()
        move = "set REGKIT_WORLD_CACHE to a directory with more room" if cached else "free space there"
        raise RegkitError(
            f"a disk ran full while building the store of the world {directory} in {target} ({exc}); nothing was "
            "left there",
            suggestion=f"{move} ({room(target.parent)}; a store takes a few times the size of the world's files, "
            f"{sum(size for _, size, _ in source_stamps(directory)) / 1e6:,.1f} MB here), and for temporary files {room(temporary)} (set {variable} to "
            "move them)",
        ) from exc
    logger.info("World store for %s ready in %.1f s", directory, time.perf_counter() - started)
    return built


def _cached_store(directory: Path, stamps: list[list[Any]], digest: list[str]) -> Path:
    """The store of a world that cannot hold its own, in :func:`world_cache_dir` keyed by its sha256; a small
    pointer file per world path remembers the sha256 of the stamps last seen, so an unchanged world is not hashed
    again."""
    cache = world_cache_dir()
    pointer = cache / "paths" / f"{hashlib.sha256(str(directory).encode()).hexdigest()[:32]}.json"
    if not digest:
        try:
            known = json.loads(pointer.read_text(encoding="utf-8"))
            if known.get("files") == stamps:
                digest.append(str(known["sha256"]))
        except (OSError, ValueError, KeyError):
            pass
    if not digest:
        digest.append(source_digest(directory))
    store = cache / digest[0][:32]
    try:
        check_store(store)
        found = True
    except StoreError as exc:
        if store.exists():
            logger.warning("Not using the world store %s: %s; rebuilding it", store, exc)
        found = False
    if not found:
        _timed_build(directory, store, digest)
    pointer.parent.mkdir(parents=True, exist_ok=True)
    _write_json(pointer, {"world": str(directory), "files": stamps, "sha256": digest[0]})
    return store


# -- reading ----------------------------------------------------------------------------------------------------


class StoreDatabase:
    """A store's ``records.sqlite`` opened read-only (``immutable``), one connection per thread."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            self._local.connection = connection
        return connection

    def close(self) -> None:
        """Close this thread's connection (another use opens it again)."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def one(self, sql: str, parameters: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        """The first row of a query, or None."""
        row: tuple[Any, ...] | None = self.connection().execute(sql, parameters).fetchone()
        return row

    def all(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query."""
        return self.connection().execute(sql, parameters).fetchall()

    def stream(self, sql: str, parameters: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        """The rows of a query, fetched a batch at a time (never all in memory)."""
        cursor = self.connection().cursor()
        cursor.execute(sql, parameters)
        while True:
            rows = cursor.fetchmany(500)
            if not rows:
                return
            yield from rows


class RecordTable(Mapping[str, dict[str, Any]]):
    """A read-only mapping id → record over a table of the store, in id order; each read decodes a new dict."""

    def __init__(self, db: StoreDatabase, table: str, count: int, codec: RecordCodec):
        self._db, self._table, self._count, self._codec = db, table, count, codec

    def __getitem__(self, key: str) -> dict[str, Any]:
        row = self._db.one(f"SELECT record FROM {self._table} WHERE id = ?", (key,)) if isinstance(key, str) else None
        if row is None:
            raise KeyError(key)
        return self._codec.decode(row[0])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._db.one(f"SELECT 1 FROM {self._table} WHERE id = ?", (key,)) is not None

    def __iter__(self) -> Iterator[str]:
        return (row[0] for row in self._db.stream(f"SELECT id FROM {self._table} ORDER BY id"))

    def __len__(self) -> int:
        return self._count

    def values(self) -> ValuesView[dict[str, Any]]:
        """The records in id order, streamed."""
        return _Values(self)

    def items(self) -> ItemsView[str, dict[str, Any]]:
        """``(id, record)`` in id order, streamed."""
        return _Items(self)

    def stream(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(id, record)`` in id order, one query."""
        for key, blob in self._db.stream(f"SELECT id, record FROM {self._table} ORDER BY id"):
            yield key, self._codec.decode(blob)

    def __repr__(self) -> str:
        return f"<RecordTable {self._table}: {self._count} records in {self._db.path}>"


class _Values(ValuesView[dict[str, Any]]):
    _mapping: RecordTable

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (record for _, record in self._mapping.stream())


class _Items(ItemsView[str, dict[str, Any]]):
    _mapping: RecordTable

    def __iter__(self) -> Iterator[tuple[str, dict[str, Any]]]:
        return self._mapping.stream()


class ShareholdingRows(Sequence[dict[str, Any]]):
    """The world's shareholdings in file order, read from the store a row at a time."""

    def __init__(self, db: StoreDatabase, count: int):
        self._db, self._count = db, count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        position = index + self._count if index < 0 else index
        row = self._db.one("SELECT record FROM shareholdings WHERE seq = ?", (position,))
        if row is None:
            raise IndexError(index)
        result: dict[str, Any] = json.loads(row[0])
        return result

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (json.loads(row[0]) for row in self._db.stream("SELECT record FROM shareholdings ORDER BY seq"))


class Lookup(Mapping[str, V]):
    """A read-only mapping answered by a query of the store: ``fetch(key)`` returns the value or raises KeyError.

    ``keys`` streams the keys in order (for iteration); ``count`` gives the length (a query, when asked).
    """

    def __init__(self, fetch: Callable[[str], V], keys: Callable[[], Iterator[str]], count: Callable[[], int]):
        self._fetch, self._keys, self._count = fetch, keys, count

    def __getitem__(self, key: str) -> V:
        if not isinstance(key, str):
            raise KeyError(key)
        return self._fetch(key)

    def __iter__(self) -> Iterator[str]:
        return self._keys()

    def __len__(self) -> int:
        return self._count()


class StoredWorld:
    """A world served from its store, with the attribute names of :class:`~regkit.local.world.store.World`.

    ``companies``, ``realtime`` and ``insolvencies`` are read-only mappings (:class:`RecordTable`),
    ``shareholdings`` a read-only sequence; nothing is read before it is asked for. ``meta`` is ``world.json``,
    its ``former_ids`` a read-only mapping too. ``derived`` maps the id of a company whose record has derived
    members (a world imported from OffeneRegister) to them, as the ``X-Regkit-Derived`` header sends them
    (:mod:`regkit.schema.derived`); it holds no other company.

    Parameters
    ----------
    store : Path
        A store directory (see :func:`ensure_store`).
    """

    def __init__(self, store: Path):
        self.store = Path(store)
        self.db = StoreDatabase(self.store / RECORDS)
        values = dict(self.db.all("SELECT key, value FROM meta"))
        counts = json.loads(values["counts"])
        self.source: dict[str, Any] = json.loads(values["source"])
        self.meta: dict[str, Any] = json.loads(values["world"])
        self.meta["former_ids"] = Lookup(self._former_id, self._former_keys, self._former_count)
        codec = RecordCodec(bytes.fromhex(values.get("dictionary", "")))
        self.companies = RecordTable(self.db, "companies", counts["companies"], codec)
        self.realtime = RecordTable(self.db, "realtime", counts["realtime"], codec)
        self.insolvencies = RecordTable(self.db, "insolvencies", counts["insolvencies"], codec)
        self.shareholdings = ShareholdingRows(self.db, counts["shareholdings"])
        self.derived: Lookup[str] = Lookup(self._derived, self._derived_keys, self._derived_count)

    def _derived(self, key: str) -> str:
        row = self.db.one(
            "SELECT m.marks FROM derived AS d JOIN derived_marks AS m ON m.n = d.marks WHERE d.id = ?", (key,)
        )
        if row is None:
            raise KeyError(key)
        return str(row[0])

    def _derived_keys(self) -> Iterator[str]:
        return (row[0] for row in self.db.stream("SELECT id FROM derived ORDER BY id"))

    def _derived_count(self) -> int:
        row = self.db.one("SELECT count(*) FROM derived")
        return int(row[0]) if row else 0

    def _former_id(self, key: str) -> str:
        row = self.db.one("SELECT new FROM former_ids WHERE old = ?", (key,))
        if row is None:
            raise KeyError(key)
        return str(row[0])

    def _former_keys(self) -> Iterator[str]:
        return (row[0] for row in self.db.stream("SELECT old FROM former_ids ORDER BY old"))

    def _former_count(self) -> int:
        row = self.db.one("SELECT count(*) FROM former_ids")
        return int(row[0]) if row else 0

    def __repr__(self) -> str:
        return f"<StoredWorld {len(self.companies)} companies at {self.store}>"


def open_world(data_dir: str | os.PathLike[str] | None = None) -> StoredWorld:
    """Open the world in ``data_dir`` (default: the bundled one) from its store, building the store first where
    needed (:func:`ensure_store`)."""
    return StoredWorld(ensure_store(data_dir))


_TEMPORARY: list[Path] = []
_TEMPORARY_LOCK = threading.Lock()


def _remove_temporary() -> None:
    for path in _TEMPORARY:
        shutil.rmtree(path, ignore_errors=True)


def store_for_world(world: World) -> Path:
    """A store of an in-memory ``world`` in a temporary directory, removed when the process exits.

    The world is written as a world directory first and built like any other, so a world object and a
    directory are served by the same code.
    """
    with _TEMPORARY_LOCK:
        if not _TEMPORARY:
            atexit.register(_remove_temporary)
        directory = Path(tempfile.mkdtemp(prefix="regkit-world-"))
        _TEMPORARY.append(directory)
    source = write_world(world, directory / "world")
    return build_store(source, directory / "store")
