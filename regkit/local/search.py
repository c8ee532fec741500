"""Insolvency search over SQLite FTS5.

The index is one table of proceedings (the search-result members plus folded keys for the
case-insensitive filters) and a contentless FTS5 table over debtor name, case number, administrator
name and court. German spellings are folded on both sides before FTS5 sees them (:func:`fold`), so
``Müller``, ``Mueller`` and ``muller`` find each other.

A text query always starts from the FTS table (``CROSS JOIN`` fixes the join order): letting the
planner start from a column index cost seconds on a million rows (DESIGN.md).
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from regkit.schema.interface import INSOLVENCY_GROUNDS

__all__ = [
    "Filter",
    "SearchRequest",
    "InsolvencyIndex",
    "build_index",
    "fold",
    "match_expression",
    "record_row",
    "GROUND_BITS",
]

_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "s"})
_DIGRAPHS = re.compile(r"ae|oe|ue|ss")
_TOKEN = re.compile(r"[^\W_]+")

#: Bit of each insolvency ground in the ``grounds_mask`` column.
GROUND_BITS = {ground: 1 << i for i, ground in enumerate(INSOLVENCY_GROUNDS)}


def fold(text: str | None) -> str:
    """Fold German spelling variants to one form: lower case, ``ä``/``ae`` → ``a``, ``ö``/``oe`` → ``o``,
    ``ü``/``ue`` → ``u``, ``ß``/``ss`` → ``s``.

    Examples
    --------
    >>> fold("Müller"), fold("Mueller"), fold("MULLER")
    ('muller', 'muller', 'muller')
    >>> fold("Straße") == fold("Strasse")
    True
    """
    if not text:
        return ""
    return _DIGRAPHS.sub(lambda m: m.group()[0], text.lower().translate(_UMLAUTS))


def match_expression(query: str | None) -> str | None:
    """Turn free text into an FTS5 query: every word must match, the last one as a prefix.

    Each whitespace-separated word becomes a phrase of its tokens (``345/24`` → ``"345 24"``), so a case
    number matches in sequence. Returns ``None`` when the text has no token (blank text matches all).

    Examples
    --------
    >>> match_expression("Müller Bau")
    '"muller" "bau"*'
    >>> match_expression("12 IN 345/24")
    '"12" "in" "345 24"*'
    >>> match_expression("  ") is None
    True
    """
    phrases = []
    for word in fold(query).split():
        tokens = _TOKEN.findall(word)
        if tokens:
            phrases.append('"' + " ".join(tokens) + '"')
    if not phrases:
        return None
    phrases[-1] += "*"
    return " ".join(phrases)


@dataclass(frozen=True)
class Filter:
    """One validated filter: SQL ``column`` and the ``kind`` of match with its normalised ``operand``.

    ``kind`` is ``eq``, ``in``, ``contains_all`` (keywords), ``mask`` (insolvency grounds), ``min`` or
    ``max``.
    """

    column: str
    kind: str
    operand: Any


@dataclass(frozen=True)
class SearchRequest:
    """A validated search: free text, filters (all must match) and the page wanted."""

    query: str | None = None
    filters: tuple[Filter, ...] = ()
    page: int = 1
    per_page: int = 10


_TABLE = """
CREATE TABLE proceedings (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, debtor_name TEXT, debtor_kind TEXT,
    debtor_legal_form TEXT, case_number TEXT, court TEXT, city TEXT, current_status TEXT,
    has_open_insolvency INTEGER, proceeding_kind TEXT, administration_kind TEXT, insolvency_grounds TEXT,
    administrator_name TEXT, company_id TEXT, person_id TEXT, opened_at TEXT, closed_at TEXT,
    last_event_at TEXT, claims_filing_deadline TEXT, court_key TEXT, city_key TEXT, grounds_mask INTEGER);
CREATE VIRTUAL TABLE proceedings_fts USING fts5(
    debtor_name, case_number, administrator_name, court,
    content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4');
"""
_INDEXES = """
CREATE INDEX proceedings_order ON proceedings (last_event_at DESC, id);
CREATE INDEX proceedings_court ON proceedings (court_key);
CREATE INDEX proceedings_city ON proceedings (city_key);
CREATE INDEX proceedings_status ON proceedings (current_status);
CREATE INDEX proceedings_company ON proceedings (company_id);
CREATE INDEX proceedings_person ON proceedings (person_id);
INSERT INTO proceedings_fts (proceedings_fts) VALUES ('optimize');
"""
#: Members of a search result, in the interface's order (also the first columns after ``rowid``).
RESULT_MEMBERS = (
    "id", "debtor_name", "debtor_kind", "debtor_legal_form", "case_number", "court", "city",
    "current_status", "has_open_insolvency", "proceeding_kind", "administration_kind", "insolvency_grounds",
    "administrator_name", "company_id", "person_id", "opened_at", "closed_at", "last_event_at",
)
_TABLE_COLUMNS = ("rowid", *RESULT_MEMBERS, "claims_filing_deadline", "court_key", "city_key", "grounds_mask")
_SELECT = ", ".join(f"p.{member}" for member in RESULT_MEMBERS)
_INSERT = f"INSERT INTO proceedings ({', '.join(_TABLE_COLUMNS)}) VALUES ({', '.join('?' * len(_TABLE_COLUMNS))})"
_INSERT_FTS = "INSERT INTO proceedings_fts (rowid, debtor_name, case_number, administrator_name, court) VALUES (?, ?, ?, ?, ?)"


def record_row(rowid: int, record: dict[str, Any]) -> tuple[Any, ...]:
    """The index row of one proceeding: the table columns, then the folded debtor, case and administrator."""
    grounds = record.get("insolvency_grounds")
    has_open = record.get("has_open_insolvency")
    return (
        rowid, record["id"], record.get("debtor_name"), record.get("debtor_kind"), record.get("debtor_legal_form"),
        record.get("case_number"), record.get("court"), record.get("city"), record.get("current_status"),
        None if has_open is None else int(bool(has_open)), record.get("proceeding_kind"),
        record.get("administration_kind"), None if grounds is None else json.dumps(grounds),
        record.get("administrator_name"), record.get("company_id"), record.get("person_id"),
        record.get("opened_at"), record.get("closed_at"), record.get("last_event_at"),
        record.get("claims_filing_deadline"), fold(record.get("court")), fold(record.get("city")),
        sum(GROUND_BITS.get(g, 0) for g in grounds or ()),
        fold(record.get("debtor_name")), fold(record.get("case_number")), fold(record.get("administrator_name")),
    )


def build_index(conn: sqlite3.Connection, rows: Iterable[Sequence[Any]], chunk_size: int = 50_000) -> int:
    """Create the search tables in ``conn`` and fill them from ``rows`` (see :func:`record_row`).

    Returns
    -------
    int
        The number of proceedings indexed.
    """
    conn.executescript(_TABLE)
    width = len(_TABLE_COLUMNS)
    count = 0
    iterator = iter(rows)
    with conn:
        while chunk := list(itertools.islice(iterator, chunk_size)):
            conn.executemany(_INSERT, (row[:width] for row in chunk))
            # FTS columns: debtor, case number, administrator (folded, after the table columns), court key
            conn.executemany(_INSERT_FTS, ((r[0], r[width], r[width + 1], r[width + 2], r[width - 3]) for r in chunk))
            count += len(chunk)
    conn.executescript(_INDEXES)
    conn.execute("ANALYZE")
    return count


def _where(filters: Sequence[Filter], text: bool) -> tuple[str, list[Any]]:
    # With a text query, "+column" keeps the planner from reaching for a column index.
    prefix = "+" if text else ""
    clauses: list[str] = []
    params: list[Any] = []
    for item in filters:
        column = f"{prefix}p.{item.column}"
        if item.kind == "eq":
            clauses.append(f"{column} = ?")
            params.append(item.operand)
        elif item.kind == "in":
            clauses.append(f"{column} IN ({', '.join('?' * len(item.operand))})")
            params.extend(item.operand)
        elif item.kind == "contains_all":
            clauses.extend(f"instr({column}, ?) > 0" for _ in item.operand)
            params.extend(item.operand)
        elif item.kind == "mask":
            clauses.append(f"({column} & ?) != 0")
            params.append(item.operand)
        elif item.kind in ("min", "max"):
            clauses.append(f"{column} {'>=' if item.kind == 'min' else '<='} ?")
            params.append(item.operand)
        else:  # pragma: no cover - the parser only builds the kinds above
            raise ValueError(f"unknown filter kind {item.kind!r}")
    return " AND ".join(clauses), params


def _result(row: Sequence[Any]) -> dict[str, Any]:
    result = dict(zip(RESULT_MEMBERS, row))
    result["has_open_insolvency"] = bool(result["has_open_insolvency"])
    grounds = result["insolvency_grounds"]
    result["insolvency_grounds"] = None if grounds is None else json.loads(grounds)
    return result


@dataclass
class InsolvencyIndex:
    """Runs searches over an index built by :func:`build_index`.

    Parameters
    ----------
    conn : sqlite3.Connection
        A connection to the index (read only from here on; opened with ``check_same_thread=False``).
        Searches from several threads take turns on it.
    """

    conn: sqlite3.Connection
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        # A file-backed index is read through memory mapping and a large page cache (no effect in memory).
        self.conn.execute("PRAGMA mmap_size=4294967296")
        self.conn.execute("PRAGMA cache_size=-262144")
        self.conn.execute("PRAGMA query_only=ON")

    def search(self, request: SearchRequest) -> tuple[list[dict[str, Any]], int]:
        """Return one page of results and the total number of matches."""
        match = match_expression(request.query)
        where, params = _where(request.filters, text=match is not None)
        if match is not None:
            source = "proceedings_fts f CROSS JOIN proceedings p ON p.rowid = f.rowid"
            where = "proceedings_fts MATCH ?" + (f" AND {where}" if where else "")
            params = [match, *params]
        else:
            source = "proceedings p"
        condition = f" WHERE {where}" if where else ""
        offset = min((request.page - 1) * request.per_page, 2**62)
        order = f"ORDER BY p.last_event_at DESC, p.id LIMIT {request.per_page:d} OFFSET {offset:d}"
        count = f"SELECT count(*) FROM {source}{condition}"
        with self._lock:
            if match is None:  # the order index serves the page; counting is separate
                total = self.conn.execute(count, params).fetchone()[0]
                page = [] if offset >= total else self.conn.execute(
                    f"SELECT {_SELECT} FROM {source}{condition} {order}", params).fetchall()
                return [_result(row) for row in page], total
            # One pass over the text matches: the window count sees them all before LIMIT cuts the page.
            page = self.conn.execute(f"SELECT {_SELECT}, count(*) OVER () FROM {source}{condition} {order}",
                                     params).fetchall()
            total = page[0][-1] if page else self.conn.execute(count, params).fetchone()[0]
        return [_result(row[:-1]) for row in page], total
