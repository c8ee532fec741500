"""The vocabulary of the company index: its words with their counts, bitmaps of the common ones, and the plan
that turns a query's phrases into bitmaps, unions and FTS5 phrases.

Words in at least ``size / DENSE_SHARE`` companies (``gmbh``, ``kg``) and prefixes of up to
:data:`PREFIX_BITMAPS` letters as common have precomputed bitmaps, one for the current name and one for all
text, so the worst case is a few numpy passes rather than reading half a million FTS5 entries. A longer prefix
standing for common words and a few rare ones (``handel`` for ``handel``, ``handels``, ``handelshaus``) is a
union: the common words' bitmaps and an FTS5 ``OR`` of the rare ones. Any other phrase is left to FTS5; a word
the index does not hold matches nothing, answered without a lookup.

The words and their counts (table ``company_terms``) and the bitmaps (table ``company_bitmaps``) stay in the
index database: a plan looks words up by SQL and reads the bitmaps it uses (``np.frombuffer`` of the stored
bytes), so opening an index reads only the list of keys with bitmaps.

Only words of ASCII letters and digits are looked up (after :func:`~regkit.local.search.query.fold`, and with the
letters the tokenizer folds written folded: ``société`` is ``societe``, :func:`~regkit.local.search.query.fts_folded`):
for them the tokenizer (``unicode61 remove_diacritics 2``) changes nothing, so a vocabulary entry is exactly what
FTS5 would match. Any other phrase (``søren``) goes to FTS5 as it is.

A query may be a full legal name (up to :data:`~regkit.schema.interface.MAX_QUERY_TERMS` search terms), many of
its words common ("Gesellschaft mit beschränkter Haftung und Co. Kommanditgesellschaft"): a plan lists its
bitmaps rarest word first, and the bitmaps are combined packed (a byte holds eight companies), rarest first,
stopping as soon as no company is left; a match is tested against them one bitmap at a time, only the candidates
still standing, and the rest are not read once none is. The work is then bounded by the number of common words
the index has, not by the words of the query.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .query import Phrase

__all__ = [
    "CompanyTerms",
    "CompanyPlan",
    "rowids",
    "bits",
    "in_column",
    "DENSE_SHARE",
    "DENSE_MIN",
    "PREFIX_BITMAPS",
    "UNION_TERMS",
    "UNION_SHARE",
    "TABLES",
]

#: A word or prefix in at least ``size / DENSE_SHARE`` companies (and :data:`DENSE_MIN`) gets bitmaps.
DENSE_SHARE = 32
DENSE_MIN = 1000
#: Longest prefix with bitmaps (when common); FTS5 keeps prefix indexes up to 4 letters.
PREFIX_BITMAPS = 3
#: A longer prefix with common words becomes a union of their bitmaps and at most this many rare words, in at
#: most ``size / UNION_SHARE`` companies together.
UNION_TERMS = 64
UNION_SHARE = 8
#: Threads that read the bitmaps when the index is written to a file, and keys read per batch between writes.
BITMAP_THREADS = 2
BITMAP_BATCH = 16

TABLES = """
CREATE TABLE company_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE company_bitmaps (key TEXT UNIQUE NOT NULL, name BLOB NOT NULL, every BLOB NOT NULL);
"""
_RANGE = "SELECT term, docs FROM company_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?"
_ALL = "SELECT group_concat(rowid) FROM companies_fts WHERE companies_fts MATCH ?"
_ASCII = re.compile(r"[a-z0-9]+\Z")


@dataclass
class CompanyPlan:
    """A query's phrases split into bitmap keys, unions and FTS5 phrases; ``empty`` when a word is in no company.

    A union stands for a prefix: the companies in any of its bitmaps (common words) or matching its FTS5
    expression (the rare words, ``"a" OR "b"``; ``None`` when there are none).
    """

    dense: list[str] = field(default_factory=list)
    unions: list[tuple[list[str], str | None]] = field(default_factory=list)
    phrases: list[Phrase] = field(default_factory=list)
    empty: bool = False
    #: Companies holding each word of :attr:`dense` (its text anywhere); a prefix (``"ab*"``) is not counted.
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def expression(self) -> str:
        """The FTS5 expression of the phrases left to FTS5."""
        return " ".join(p.expression() for p in self.phrases)


def rowids(conn: sqlite3.Connection, expression: str) -> np.ndarray:
    """Rowids, ascending, matching an FTS5 expression on ``companies_fts`` (one string, parsed by numpy)."""
    text = conn.execute(_ALL, (expression,)).fetchone()[0]
    found = np.fromstring(text, dtype=np.int64, sep=",") if text else np.empty(0, dtype=np.int64)
    if found.size > 1 and not bool(np.all(found[1:] > found[:-1])):
        found = np.unique(found)
    return found


def bits(packed: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Whether each position is set in a ``np.packbits`` bitmap."""
    return ((packed[positions >> 3] >> (7 - (positions & 7))) & 1).astype(bool)


def _set(packed: np.ndarray, positions: np.ndarray) -> None:
    """Set the bits of ``positions`` in a ``np.packbits`` bitmap, in place."""
    np.bitwise_or.at(packed, positions >> 3, np.left_shift(1, 7 - (positions & 7)).astype(np.uint8))


def _bit(packed: np.ndarray, position: int) -> bool:
    return bool((packed[position >> 3] >> (7 - (position & 7))) & 1)


def _bitmaps(conn: sqlite3.Connection, expression: str, size: int) -> tuple[bytes, bytes]:
    """The ``np.packbits`` bitmaps of an FTS5 expression: over the current name, and over all text."""
    maps = []
    for which in (0, 1):
        flags = np.zeros(size, dtype=bool)
        flags[rowids(conn, in_column(expression, which)) - 1] = True
        maps.append(np.packbits(flags).tobytes())
    return maps[0], maps[1]


def in_column(expression: str, which: int) -> str:
    """The expression restricted to the current name (``which`` 0) or over all text (1)."""
    return f"name : ({expression})" if which == 0 else expression


class CompanyTerms:
    """The words of the FTS5 index with their document counts, and the bitmaps of the common words and prefixes,
    read from the index database as a plan needs them.

    Parameters
    ----------
    size : int
        Number of companies (bitmap length).
    keys : iterable of str
        The words (and prefixes ``"ab*"``) that have bitmaps.
    """

    def __init__(self, size: int, keys: Iterable[str]):
        self.size = size
        self.keys = frozenset(keys)
        self._words = sorted(k for k in self.keys if not k.endswith("*"))

    @staticmethod
    def write(
        conn: sqlite3.Connection,
        size: int,
        dense_min: int = DENSE_MIN,
        *,
        readers: Callable[[], sqlite3.Connection] | None = None,
    ) -> list[str]:
        """Store the words of ``companies_fts`` with their counts and the bitmaps of the common words and prefixes
        in ``conn``; return the keys with bitmaps.

        ``readers``: opens another connection to the database of ``conn`` (a file; ``companies_fts`` committed).
        The bitmaps are then read by :data:`BITMAP_THREADS` threads, each on a connection of its own (SQLite
        releases the GIL while it runs a query), and stored in the same order as without.
        """
        conn.executescript(TABLES)
        conn.execute("CREATE VIRTUAL TABLE temp.company_vocabulary USING fts5vocab(main, 'companies_fts', 'row')")
        conn.execute("INSERT INTO company_terms (term, docs) SELECT term, doc FROM temp.company_vocabulary")
        conn.execute("DROP TABLE temp.company_vocabulary")
        threshold = max(1, dense_min, size // DENSE_SHARE)
        prefixes: dict[str, int] = {}
        keys: list[tuple[str, str]] = []
        for term, docs in conn.execute("SELECT term, docs FROM company_terms ORDER BY term"):
            if _ASCII.match(term):
                if docs >= threshold:
                    keys.append((term, f'"{term}"'))
                for length in range(1, min(PREFIX_BITMAPS, len(term)) + 1):
                    prefixes[term[:length]] = prefixes.get(term[:length], 0) + docs
        keys += [(f"{p}*", f'"{p}"*') for p, d in sorted(prefixes.items()) if d >= threshold]
        insert = "INSERT INTO company_bitmaps (key, name, every) VALUES (?, ?, ?)"
        if readers is None:
            for key, expression in keys:
                conn.execute(insert, (key, *_bitmaps(conn, expression, size)))
            return [key for key, _ in keys]
        conn.commit()  # the readers see the words; nothing is written while they read
        local = threading.local()
        opened: list[sqlite3.Connection] = []
        lock = threading.Lock()

        def read(expression: str) -> tuple[bytes, bytes]:
            reader = getattr(local, "conn", None)
            if reader is None:
                reader = local.conn = readers()
                with lock:
                    opened.append(reader)
            return _bitmaps(reader, expression, size)

        try:
            with ThreadPoolExecutor(BITMAP_THREADS) as pool:
                # a batch at a time: at most BITMAP_BATCH keys' bitmaps in memory (0.7 MB each at 5.4 M companies)
                for start in range(0, len(keys), BITMAP_BATCH):
                    batch = keys[start : start + BITMAP_BATCH]
                    found = list(pool.map(read, [expression for _, expression in batch]))
                    conn.executemany(insert, [(key, *maps) for (key, _), maps in zip(batch, found)])
                    conn.commit()
        finally:
            for reader in opened:
                reader.close()
        return [key for key, _ in keys]

    @classmethod
    def load(cls, conn: sqlite3.Connection, size: int) -> CompanyTerms:
        """The vocabulary of an index database written by :meth:`write` (reads only the keys with bitmaps)."""
        return cls(size, (key for (key,) in conn.execute("SELECT key FROM company_bitmaps")))

    def packed(self, conn: sqlite3.Connection, key: str, which: int) -> np.ndarray:
        """The ``np.packbits`` bitmap of a common word or prefix (``which``: 0 current name, 1 all text)."""
        column = "name" if which == 0 else "every"
        (data,) = conn.execute(f"SELECT {column} FROM company_bitmaps WHERE key = ?", (key,)).fetchone()
        return np.frombuffer(data, dtype=np.uint8)

    def bitmap(self, conn: sqlite3.Connection, key: str, which: int) -> np.ndarray:
        """The positions of a common word or prefix as a boolean array (``which``: 0 current name, 1 all text)."""
        return np.unpackbits(self.packed(conn, key, which), count=self.size).view(bool)

    def docs(self, conn: sqlite3.Connection, term: str) -> int:
        """Companies holding ``term`` (0 when none does)."""
        row = conn.execute("SELECT docs FROM company_terms WHERE term = ?", (term,)).fetchone()
        return 0 if row is None else int(row[0])

    def _starting(self, conn: sqlite3.Connection, prefix: str, limit: int) -> list[tuple[str, int]]:
        """The first ``limit`` terms starting with ``prefix``, with their counts, in order."""
        return conn.execute(_RANGE, (prefix, prefix + "\U0010ffff", limit)).fetchall()

    def _union(self, found: list[tuple[str, int]]) -> tuple[list[str], str | None] | None:
        """The terms ``found`` as bitmaps of the common ones and an FTS5 ``OR`` of the rare ones, if cheap."""
        dense = [t for t, _ in found if t in self.keys]
        rare = [(t, d) for t, d in found if t not in self.keys]
        if not dense or len(rare) > UNION_TERMS or sum(d for _, d in rare) > self.size // UNION_SHARE:
            return None
        return dense, " OR ".join(f'"{t}"' for t, _ in rare) or None

    def plan(self, conn: sqlite3.Connection, phrases: list[Phrase]) -> CompanyPlan:
        """Split ``phrases`` (all must match) into bitmap keys, unions and FTS5 phrases; the bitmap keys and the
        FTS5 phrases rarest first (by the fewest companies any of their words is in; prefixes and phrases of letters
        the vocabulary does not hold last), so that FTS5's intersection is led by its rarest phrase."""
        plan = CompanyPlan()
        fewest: dict[Phrase, int] = {}  # an FTS5 phrase: the fewest companies any of its words is in
        for phrase in phrases:
            if not all(_ASCII.match(t) for t in phrase.tokens):
                plan.phrases.append(phrase)  # a letter FTS5 keeps (ø): no vocabulary lookup
                continue
            *exact, last = phrase.tokens
            counts = [self.docs(conn, t) for t in dict.fromkeys(exact)]
            if 0 in counts:
                return CompanyPlan(empty=True)
            union = None
            if phrase.prefix:
                wants_union = not exact and last + "*" not in self.keys
                dense = bisect.bisect_left(self._words, last + "\U0010ffff") - bisect.bisect_left(self._words, last)
                limit = UNION_TERMS + dense + 1 if wants_union else 2
                found = self._starting(conn, last, limit)
                if not found:
                    return CompanyPlan(empty=True)
                if len(found) == 1:  # the prefix stands for one word: ask for that word
                    phrase = Phrase((*exact, found[0][0]))
                    plan.counts[found[0][0]] = found[0][1]
                    counts.append(found[0][1])
                elif wants_union and len(found) < limit:
                    union = self._union(found)
                key = phrase.tokens[-1] if not phrase.prefix else last + "*"
            elif (docs := self.docs(conn, last)) == 0:
                return CompanyPlan(empty=True)
            else:
                key = last
                plan.counts[key] = docs
                counts.append(docs)
            if not exact and key in self.keys:
                if key not in plan.dense:  # "Handelsgesellschaft Handelsges": the prefix stands for the same word
                    plan.dense.append(key)
            elif union is not None:
                plan.unions.append(union)
            else:
                plan.phrases.append(phrase)
                fewest[phrase] = min(counts, default=self.size)
        plan.dense.sort(key=lambda key: plan.counts.get(key, self.size))  # rarest first, the prefixes last (stable)
        plan.phrases.sort(key=lambda phrase: fewest.get(phrase, self.size + 1))
        return plan

    def mask(self, conn: sqlite3.Connection, plan: CompanyPlan, which: int) -> np.ndarray:
        """The companies every bitmap key and union of ``plan`` selects, over all positions."""
        return np.unpackbits(self.packed_mask(conn, plan, which), count=self.size).view(bool)

    def packed_mask(self, conn: sqlite3.Connection, plan: CompanyPlan, which: int) -> np.ndarray:
        """:meth:`mask` as a ``np.packbits`` bitmap: the bitmaps ANDed packed, in the plan's order (rarest first),
        the unions after them; the rest is not read once no company is left."""
        selected: np.ndarray | None = None
        for key in plan.dense:
            packed = self.packed(conn, key, which)
            selected = packed.copy() if selected is None else np.bitwise_and(selected, packed, out=selected)
            if not selected.any():
                return selected
        for keys, rare in plan.unions:
            union = np.bitwise_or.reduce([self.packed(conn, k, which) for k in keys])
            if rare is not None:
                _set(union, rowids(conn, in_column(rare, which)) - 1)
            selected = union if selected is None else np.bitwise_and(selected, union, out=selected)
            if not selected.any():
                return selected
        return selected if selected is not None else np.packbits(np.ones(self.size, dtype=bool))

    def member(self, conn: sqlite3.Connection, plan: CompanyPlan, found: np.ndarray, which: int) -> np.ndarray:
        """Which of the rowids ``found`` every bitmap key and union of ``plan`` selects (each bitmap tested on the
        rowids still selected, in the plan's order; the rest is not read once none is)."""
        standing = np.arange(found.size)  # indices into found of the rowids every bitmap so far selects
        for key in plan.dense:
            if standing.size == 0:
                break
            standing = standing[bits(self.packed(conn, key, which), found[standing] - 1)]
        for keys, rare in plan.unions:
            if standing.size == 0:
                break
            candidates = found[standing]
            union = np.logical_or.reduce([bits(self.packed(conn, k, which), candidates - 1) for k in keys])
            if rare is not None:
                union |= np.isin(candidates, rowids(conn, in_column(rare, which)))
            standing = standing[union]
        selected = np.zeros(found.size, dtype=bool)
        selected[standing] = True
        return selected

    def test(self, conn: sqlite3.Connection, plan: CompanyPlan, which: int) -> Callable[[int], bool]:
        """:meth:`member` for one rowid at a time (the bitmaps and the rare words of unions read once)."""
        dense = [self.packed(conn, key, which) for key in plan.dense]
        unions = [
            (
                [self.packed(conn, k, which) for k in keys],
                set(rowids(conn, in_column(rare, which)).tolist()) if rare is not None else set(),
            )
            for keys, rare in plan.unions
        ]

        def test(rowid: int) -> bool:
            position = rowid - 1
            return all(_bit(b, position) for b in dense) and all(
                rowid in rare or any(_bit(b, position) for b in maps) for maps, rare in unions
            )

        return test
