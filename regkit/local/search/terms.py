"""The vocabulary of the insolvency index: which terms it holds, in how many proceedings, and bitmaps of the
common ones — what lets a search plan by the selectivity of its words.

With it, :meth:`Vocabulary.plan` splits a query's phrases into

- **bitmaps**: a word in at least one proceeding in :data:`DENSE_SHARE` (``gmbh``, ``amtsgericht``, ``in``)
  or a one-letter prefix is a precomputed bitmap over positions, combined with the filter mask by numpy —
  the common worst case costs a millisecond, not a pass over hundreds of thousands of FTS5 entries;
- **unions**: a prefix standing for common words and a few rare ones (``in`` for ``in``, ``inge``,
  ``ingrid``, …) is the union of the common words' bitmaps and the rare words' matches;
- **FTS5**: the other phrases, with an upper bound of their matches (the fewest proceedings any of their
  words is in) that chooses between probing filtered proceedings and reading text matches;
- **nothing**: a word the index does not hold matches nothing, answered without a lookup.

Only words of ASCII letters and digits are looked up (after :func:`~regkit.local.search.query.fold`, and with the
letters the tokenizer folds written folded: ``josé`` is ``jose``, :func:`~regkit.local.search.query.fts_folded`): for
them the FTS5 tokenizer (``unicode61 remove_diacritics 2``) changes nothing, so a vocabulary entry is exactly what
FTS5 would match. Any other phrase (``søren``) goes to FTS5 as it is, with no estimate.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .query import Phrase

__all__ = ["Vocabulary", "TextPlan", "DENSE_SHARE"]

#: A word in at least ``size / DENSE_SHARE`` (and :data:`DENSE_MIN`) proceedings gets a bitmap, and so does a
#: one-letter prefix as common.
DENSE_SHARE = 32
DENSE_MIN = 1000
#: A union takes at most this many rare words, in at most ``size / UNION_SHARE`` proceedings together.
UNION_TERMS = 64
UNION_SHARE = 8
_ASCII = re.compile(r"[a-z0-9]+\Z")
_TABLE = "CREATE TABLE search_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL, bitmap BLOB) WITHOUT ROWID"
_MATCHING = "SELECT group_concat(rowid) FROM proceedings_fts WHERE proceedings_fts MATCH ?"


@dataclass
class TextPlan:
    """How to answer a query's text: bitmaps to combine, an FTS5 expression for the rest, or no match.

    ``unions`` are ``(bitmap keys, FTS5 expression or None)``: the positions in any of the bitmaps or matching
    the expression. ``estimate`` bounds the matches of :attr:`fts` from above (``None``: unknown).
    """

    bitmaps: list[str] = field(default_factory=list)
    unions: list[tuple[list[str], str | None]] = field(default_factory=list)
    phrases: list[Phrase] = field(default_factory=list)
    estimate: int | None = None
    empty: bool = False

    @property
    def fts(self) -> str | None:
        """The FTS5 expression of the phrases left for FTS5, or ``None``."""
        return " ".join(p.expression() for p in self.phrases) if self.phrases else None


def _rowids(conn: sqlite3.Connection, expression: str) -> np.ndarray:
    text = conn.execute(_MATCHING, (expression,)).fetchone()[0]
    return np.fromstring(text, dtype=np.int64, sep=",") if text else np.empty(0, dtype=np.int64)


class Vocabulary:
    """Terms of the FTS index with their document counts, and packed bitmaps of the dense ones.

    Parameters
    ----------
    size : int
        Number of proceedings (bitmap length).
    terms : sequence of str
        Every term of the index, sorted.
    docs : sequence of int
        Proceedings holding each term.
    bitmaps : dict
        Term (or one-letter prefix ``"a*"``) → ``np.packbits`` of its positions.
    """

    def __init__(self, size: int, terms: Sequence[str], docs: Sequence[int], bitmaps: dict[str, bytes]):
        self.size = size
        self.terms = list(terms)
        self.docs = dict(zip(self.terms, docs))
        self._cumulative = np.concatenate(([0], np.cumsum(np.asarray(docs, dtype=np.int64))))
        self._bitmaps = {key: np.frombuffer(data, dtype=np.uint8) for key, data in bitmaps.items()}

    @classmethod
    def build(cls, conn: sqlite3.Connection, size: int, dense_min: int = DENSE_MIN) -> Vocabulary:
        """Read the terms of ``proceedings_fts`` and compute the bitmaps of the dense ones."""
        conn.execute("CREATE VIRTUAL TABLE temp.search_vocabulary USING fts5vocab(main, 'proceedings_fts', 'row')")
        rows = sorted(conn.execute("SELECT term, doc FROM temp.search_vocabulary").fetchall())
        conn.execute("DROP TABLE temp.search_vocabulary")
        threshold = max(1, dense_min, size // DENSE_SHARE)
        initials: dict[str, int] = {}
        for term, docs in rows:
            if _ASCII.match(term):
                initials[term[0]] = initials.get(term[0], 0) + docs
        keys = [(t, f'"{t}"') for t, d in rows if d >= threshold and _ASCII.match(t)]
        keys += [(f"{c}*", f'"{c}"*') for c, d in sorted(initials.items()) if d >= threshold]
        bitmaps = {}
        for key, expression in keys:
            flags = np.zeros(size, dtype=bool)
            flags[_rowids(conn, expression) - 1] = True
            bitmaps[key] = np.packbits(flags).tobytes()
        return cls(size, [t for t, _ in rows], [d for _, d in rows], bitmaps)

    def save(self, conn: sqlite3.Connection) -> None:
        """Store the vocabulary in ``conn`` (table ``search_terms``)."""
        conn.execute(_TABLE)
        conn.executemany(
            "INSERT INTO search_terms (term, docs, bitmap) VALUES (?, ?, ?)",
            [(t, self.docs[t], self._bitmaps[t].tobytes() if t in self._bitmaps else None) for t in self.terms],
        )
        conn.executemany(
            "INSERT INTO search_terms (term, docs, bitmap) VALUES (?, -1, ?)",
            [(k, b.tobytes()) for k, b in self._bitmaps.items() if k.endswith("*")],
        )

    @classmethod
    def load(cls, conn: sqlite3.Connection, size: int) -> Vocabulary:
        """Read a vocabulary stored by :meth:`save`."""
        rows = conn.execute("SELECT term, docs, bitmap FROM search_terms").fetchall()
        terms = sorted((t, d) for t, d, _ in rows if d >= 0)
        bitmaps = {t: b for t, _, b in rows if b is not None}
        return cls(size, [t for t, _ in terms], [d for _, d in terms], bitmaps)

    def bitmap(self, key: str) -> np.ndarray:
        """The positions of a dense term or prefix as a boolean array."""
        return np.unpackbits(self._bitmaps[key], count=self.size).view(bool)

    def _expansion(self, prefix: str) -> tuple[int, int]:
        """Index range of the terms starting with ``prefix``."""
        return bisect.bisect_left(self.terms, prefix), bisect.bisect_left(self.terms, prefix + "\U0010ffff")

    def _union(self, low: int, high: int) -> tuple[list[str], str | None] | None:
        """The terms ``low:high`` as dense bitmaps plus an FTS5 ``OR`` of the rare ones, if that is cheap."""
        dense = [t for t in self.terms[low:high] if t in self._bitmaps]
        rare = [t for t in self.terms[low:high] if t not in self._bitmaps]
        if not dense or len(rare) > UNION_TERMS or sum(self.docs[t] for t in rare) > self.size // UNION_SHARE:
            return None
        return dense, " OR ".join(f'"{t}"' for t in rare) if rare else None

    def plan(self, phrases: Sequence[Phrase]) -> TextPlan:
        """Split ``phrases`` (all must match) into bitmaps, unions and FTS5 phrases; see the module docstring. The
        FTS5 phrases rarest first (by the fewest proceedings any of their words is in; phrases the vocabulary cannot
        count last), so that FTS5's intersection is led by its rarest phrase."""
        plan = TextPlan()
        fewest: dict[Phrase, int] = {}
        for phrase in phrases:
            if not all(_ASCII.match(t) for t in phrase.tokens):
                plan.phrases.append(phrase)
                continue
            *exact, last = phrase.tokens
            counts = [self.docs.get(t, 0) for t in exact]
            union = None
            if phrase.prefix:
                low, high = self._expansion(last)
                if high - low == 1:  # the prefix stands for one term: ask for that term exactly
                    last, phrase = self.terms[low], Phrase(phrase.tokens[:-1] + (self.terms[low],))
                elif not exact and last + "*" not in self._bitmaps:
                    union = self._union(low, high)
                counts.append(int(self._cumulative[high] - self._cumulative[low]))
            else:
                counts.append(self.docs.get(last, 0))
            if min(counts) == 0:
                return TextPlan(empty=True)
            key = (last + "*" if phrase.prefix else last) if not exact else None
            if key in self._bitmaps:
                plan.bitmaps.append(key)
            elif union is not None:
                plan.unions.append(union)
            else:
                plan.phrases.append(phrase)
                plan.estimate = min(counts) if plan.estimate is None else min(plan.estimate, min(counts))
                fewest[phrase] = min(counts)
        plan.phrases.sort(key=lambda phrase: fewest.get(phrase, self.size + 1))
        return plan
