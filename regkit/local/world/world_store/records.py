"""Writing a store's records file (``records.sqlite``) from a world's files, or as an importer writes them.

Records are streamed from the world's JSON-lines files and written in batches, so memory stays bounded whatever
the world's size; each record is kept as its line, compressed with a dictionary trained on the first records
(:class:`~regkit.local.record_codec.RecordCodec`). :func:`build_records_file` writes the file from a finished
world directory; :class:`CompanyRecordFeed` takes the companies while an importer writes ``companies.jsonl.gz``,
and :func:`build_records_file` then adds the rest from the files.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...json_lines import dump_text, load_line
from ...record_codec import RecordCodec
from ..store import FORMAT_VERSION, gzip_reader
from .layout import OPTIONAL_FILES, RECORDS_INDEXES, RECORDS_SCHEMA, STORE_FORMAT

__all__ = ["jsonl_lines", "company_store_rows", "CompanyRecordFeed", "build_records_file"]

_BATCH = 2_000
_READ_BYTES = 1 << 20


def jsonl_lines(path: Path) -> Iterator[tuple[bytes, dict[str, Any]]]:
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
        self.db.executescript(RECORDS_SCHEMA)
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
        for number, (_, row) in enumerate(jsonl_lines(path), 1):
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
        self.db.executescript(RECORDS_INDEXES)
        self.db.execute("ANALYZE")
        self.db.close()


def build_records_file(
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
            for line, record in jsonl_lines(data_dir / "companies.jsonl.gz"):
                builder.company(line, record)
        for line, record in jsonl_lines(data_dir / "realtime.jsonl.gz"):
            builder.company(line, record, realtime=True)
        for line, row in jsonl_lines(data_dir / "shareholdings.jsonl.gz"):
            builder.shareholding(line, row)
        for line, proceeding in jsonl_lines(data_dir / "insolvencies.jsonl.gz"):
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
    OffeneRegister import's merge), so that
    :meth:`~regkit.local.world.world_store.build.StoreBuild.finish` need not read and parse them again.

    :meth:`add` takes each company in the file's order, with the rows :func:`company_store_rows` makes of its
    record. The records' dictionary is trained on the first lines, as :meth:`RecordCodec.sample_file` trains it
    on the finished file: the records file holds what
    :func:`~regkit.local.world.world_store.build.build_store` would write.
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
        """The builder every company went to (for :func:`build_records_file` to finish)."""
        return self._builder if self._builder is not None else self._start()

    def abandon(self) -> None:
        """Close the records file without finishing it (the build failed)."""
        if self._builder is not None:
            self._builder.db.close()
