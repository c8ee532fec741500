"""Building the insolvency index: the proceedings table, its FTS5 table, column arrays and vocabulary.

The rows may come in any order: they are staged, then numbered ``1..n`` in result order (``last_event_at``
descending, nulls last, then ``id``) into ``proceedings`` and ``proceedings_fts``, so rowid order is result
order for every search (see :mod:`regkit.local.search.index`). The filterable columns are stored as arrays
(:class:`~regkit.local.search.columns.ColumnStore`), the FTS vocabulary with bitmaps of its common words
(:class:`~regkit.local.search.terms.Vocabulary`).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .columns import ColumnStore
from .query import GROUND_BITS, RESULT_MEMBERS, fold
from .terms import DENSE_MIN, Vocabulary

__all__ = ["build_index", "record_row", "PREFIX_INDEXED"]

#: Longest prefix FTS5 keeps an index of (``prefix='1 2 3 4'``); longer prefixes merge their terms per query.
PREFIX_INDEXED = 4

_TABLE = f"""
CREATE TABLE proceedings (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, debtor_name TEXT, debtor_kind TEXT,
    debtor_legal_form TEXT, case_number TEXT, court TEXT, city TEXT, current_status TEXT,
    has_open_insolvency INTEGER, proceeding_kind TEXT, administration_kind TEXT, insolvency_grounds TEXT,
    administrator_name TEXT, company_id TEXT, person_id TEXT, opened_at TEXT, closed_at TEXT,
    last_event_at TEXT, claims_filing_deadline TEXT, court_key TEXT, city_key TEXT, grounds_mask INTEGER);
CREATE VIRTUAL TABLE proceedings_fts USING fts5(
    debtor_name, case_number, administrator_name, court,
    content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='{" ".join(map(str, range(1, PREFIX_INDEXED + 1)))}');
"""
_TABLE_COLUMNS = ("rowid", *RESULT_MEMBERS, "claims_filing_deadline", "court_key", "city_key", "grounds_mask")
_FOLDED = ("debtor_fold", "case_fold", "administrator_fold")
_STAGED = (*_TABLE_COLUMNS[1:], *_FOLDED)
_ORDER = "row_number() OVER (ORDER BY last_event_at DESC, id, rowid)"


def record_row(rowid: int, record: Mapping[str, Any]) -> tuple[Any, ...]:
    """The index row of one proceeding: the table columns, then the folded debtor, case and administrator.

    ``rowid`` is a placeholder kept for the shape of the row: :func:`build_index` numbers the proceedings in
    result order itself.
    """
    grounds = record.get("insolvency_grounds")
    has_open = record.get("has_open_insolvency")
    return (
        rowid,
        record["id"],
        record.get("debtor_name"),
        record.get("debtor_kind"),
        record.get("debtor_legal_form"),
        record.get("case_number"),
        record.get("court"),
        record.get("city"),
        record.get("current_status"),
        None if has_open is None else int(bool(has_open)),
        record.get("proceeding_kind"),
        record.get("administration_kind"),
        None if grounds is None else json.dumps(grounds),
        record.get("administrator_name"),
        record.get("company_id"),
        record.get("person_id"),
        record.get("opened_at"),
        record.get("closed_at"),
        record.get("last_event_at"),
        record.get("claims_filing_deadline"),
        fold(record.get("court")),
        fold(record.get("city")),
        sum(GROUND_BITS.get(g, 0) for g in grounds or ()),
        fold(record.get("debtor_name")),
        fold(record.get("case_number")),
        fold(record.get("administrator_name")),
    )


def build_index(
    conn: sqlite3.Connection, rows: Iterable[Sequence[Any]], chunk_size: int = 50_000, *, dense_min: int = DENSE_MIN
) -> int:
    """Create the search tables in ``conn`` and fill them from ``rows`` (see :func:`record_row`), in any order.

    ``dense_min`` is the fewest proceedings a word needs for a bitmap (see
    :class:`~regkit.local.search.terms.Vocabulary`; tests lower it to reach every plan on a small index).

    Returns
    -------
    int
        The number of proceedings indexed.
    """
    conn.executescript(_TABLE)
    conn.execute(f"CREATE TEMP TABLE staged ({', '.join(_STAGED)})")
    insert = f"INSERT INTO staged VALUES ({', '.join('?' * len(_STAGED))})"
    iterator = iter(rows)
    with conn:
        while chunk := list(itertools.islice(iterator, chunk_size)):
            conn.executemany(insert, (row[1 : len(_STAGED) + 1] for row in chunk))
    table = ", ".join(_TABLE_COLUMNS[1:])
    with conn:
        conn.execute(f"INSERT INTO proceedings (rowid, {table}) SELECT {_ORDER}, {table} FROM staged")
        conn.execute(
            f"INSERT INTO proceedings_fts (rowid, debtor_name, case_number, administrator_name, court) "
            f"SELECT {_ORDER}, {', '.join(_FOLDED)}, court_key FROM staged"
        )
        conn.execute("DROP TABLE staged")
        conn.execute("INSERT INTO proceedings_fts (proceedings_fts) VALUES ('optimize')")
        store = ColumnStore.build(conn)
        store.save(conn)
        Vocabulary.build(conn, store.size, dense_min).save(conn)
    return store.size
