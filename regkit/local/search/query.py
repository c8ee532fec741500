"""Insolvency search: the text and request model shared by the parser, the index builder and the searches.

German spellings are folded on both sides before FTS5 sees them (:func:`fold`), so ``Müller``,
``Mueller`` and ``muller`` find each other; free text becomes phrases (:func:`phrases_of`), every word must
match and the last one is a prefix. Text holding a lone surrogate (:func:`lone_surrogate`) is refused
before any of that, in a search body as in every other body.

A query may be a full legal name (up to :data:`~regkit.schema.interface.MAX_QUERY_TERMS` search terms), and its
work must stay bounded whatever its words: a phrase's letters are written as FTS5's tokenizer folds them
(``é`` → ``e``: :func:`fts_folded`), so that spellings FTS5 reads as one word are one phrase, planned by the
vocabulary (``Gésellschaft`` is the common ``gesellschaft``, not another pass over its matches), and a query
checks at most :data:`SEQUENCE_TOKENS` tokens in sequence (its words of several tokens: ``i.L.``, ``345/24``).

The body is validated by :mod:`regkit.local.search.request`. The index itself:
:mod:`regkit.local.search.build` (tables, built in result order), :mod:`regkit.local.search.columns`
(filters over numpy arrays), :mod:`regkit.local.search.terms` (the vocabulary and bitmaps of common words)
and :mod:`regkit.local.search.index` (running searches, side by side).
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import string
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from regkit.schema.interface import INSOLVENCY_GROUNDS

__all__ = [
    "Filter",
    "SearchRequest",
    "fold",
    "match_expression",
    "phrases_of",
    "Phrase",
    "query_terms",
    "fts_folded",
    "SEQUENCE_TOKENS",
    "GROUND_BITS",
    "RESULT_MEMBERS",
    "result_of",
    "lone_surrogate",
]

_TOKEN = re.compile(r"[^\W_]+")
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Bit of each insolvency ground in the ``grounds_mask`` column.
GROUND_BITS = {ground: 1 << i for i, ground in enumerate(INSOLVENCY_GROUNDS)}
#: Most tokens a query checks in sequence: the tokens of its words of several tokens (``i.L.`` has two,
#: ``M.O.C.H.E.N.W.A.N.G.E.N.`` twelve), in the query's order; the words past them match token by token, each token
#: anywhere (a few more matches, never fewer). FTS5 checks a phrase's positions token by token in every text holding
#: all of its tokens: one word of 128 common tokens (``gmbh/co/kg/gmbh/…``) took 0.7 s over a million companies.
#: Ten is what the query limit that was (10 search terms) allowed a query in all, so no query checks more than one
#: could before; of 267,477 real company names 24 have more than 10 such tokens (17 at most), 99.96 % at most 8.
SEQUENCE_TOKENS = 10
#: The tokenizer whose folding :func:`fts_folded` follows (the company and insolvency indexes').
_TOKENIZER = "unicode61 remove_diacritics 2"
_ASCII_LETTERS = frozenset(string.ascii_letters)


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (a code point U+D800–U+DFFF, which UTF-8 cannot encode)."""
    return _SURROGATE.search(text) is not None


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
    # the four digraphs cannot overlap one another (each ends in e or s, none but ss starts with either), so
    # replacing them one after the other is one left-to-right pass, as a regular expression would make it;
    # str.replace scans in C, five times faster than str.translate's lookup per character (a million names)
    folded = text.lower()
    if not folded.isascii():
        folded = folded.replace("ä", "a").replace("ö", "o").replace("ü", "u").replace("ß", "s")
    return folded.replace("ae", "a").replace("oe", "o").replace("ue", "u").replace("ss", "s")


@functools.cache
def _diacritics() -> dict[int, str]:
    """The letters FTS5's tokenizer folds to an ASCII letter (``é`` → ``e``, ``ſ`` → ``s``), as a
    :meth:`str.translate` table: asked of the SQLite in use (its tables differ between versions), once, by
    tokenizing every letter whose compatibility decomposition starts with an ASCII letter."""
    letters = [
        code
        for code in range(0x80, 0x2200)
        if chr(code).isalpha() and unicodedata.normalize("NFKD", chr(code))[:1] in _ASCII_LETTERS
    ]
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"CREATE VIRTUAL TABLE letters USING fts5(text, tokenize='{_TOKENIZER}')")
        conn.executemany("INSERT INTO letters (rowid, text) VALUES (?, ?)", ((c, f"0{chr(c)}0") for c in letters))
        conn.execute("CREATE VIRTUAL TABLE tokens USING fts5vocab(letters, 'instance')")
        found = conn.execute("SELECT doc, term FROM tokens").fetchall()
    finally:
        conn.close()
    return {code: term[1] for code, term in found if len(term) == 3 and term[1] in string.ascii_lowercase}


def fts_folded(text: str) -> str:
    """``text`` (:func:`fold` ed) with the letters FTS5's tokenizer (``unicode61 remove_diacritics 2``) folds to
    an ASCII letter written so: FTS5 matches the same, and the vocabulary can plan it.

    Examples
    --------
    >>> fts_folded("société générale")
    'societe generale'
    >>> fts_folded("søren")  # FTS5 keeps ø
    'søren'
    """
    return text if text.isascii() else text.translate(_diacritics())


def query_terms(query: str | None) -> list[str]:
    """The search terms of free text: its runs of letters and digits, folded (what the FTS index holds).

    Examples
    --------
    >>> query_terms("12 IN 345/24 Müller")
    ['12', 'in', '345', '24', 'muller']
    """
    return _TOKEN.findall(fold(query))


@dataclass(frozen=True)
class Phrase:
    """One word of a query: its folded tokens in sequence, the last one a prefix if ``prefix``."""

    tokens: tuple[str, ...]
    prefix: bool = False

    def expression(self) -> str:
        """The phrase in FTS5 syntax (``"345 24"*``)."""
        return '"' + " ".join(self.tokens) + '"' + ("*" if self.prefix else "")


def phrases_of(query: str | None) -> list[Phrase]:
    """The phrases free text asks for: every word must match, the last one as a prefix.

    Each whitespace-separated word becomes a phrase of its tokens (``345/24`` → ``345 24``), so a case number
    matches in sequence, as long as the query's words of several tokens hold at most :data:`SEQUENCE_TOKENS`
    tokens so far; a further such word becomes one phrase per token (each must match, in any order). Letters FTS5
    folds (``é``) are written folded (:func:`fts_folded`). A repeated word or token is asked for once (the answer
    is the same, the work is not), and the last word is dropped as a prefix when it is also asked for exactly
    (the exact word implies it).

    Examples
    --------
    >>> [p.expression() for p in phrases_of("Gésellschaft gesellschaft Co.KG")]
    ['"gesellschaft"', '"co kg"*']
    >>> [p.expression() for p in phrases_of(" ".join(["G.m.b.H."] * 3 + ["A.B.C.D.E.F.G.H.I.J.K.L.M.N"]))]
    ['"g m b h"', '"a"', '"b"', '"c"', '"d"', '"e"', '"f"', '"g"', '"h"', '"i"', '"j"', '"k"', '"l"', '"m"', '"n"*']
    """
    words = [tuple(parts) for word in fts_folded(fold(query)).split() if (parts := _TOKEN.findall(word))]
    if not words:
        return []
    last = words.pop()
    phrases: dict[Phrase, None] = {}
    budget = SEQUENCE_TOKENS
    for tokens, prefix in [*((w, False) for w in dict.fromkeys(words)), (last, True)]:
        if len(tokens) == 1 or len(tokens) <= budget:
            budget -= len(tokens) if len(tokens) > 1 else 0
            phrases[Phrase(tokens, prefix)] = None
        else:  # past the tokens checked in sequence: each token must match
            phrases.update((Phrase((token,), prefix and i == len(tokens) - 1), None) for i, token in enumerate(tokens))
    asked = list(phrases)
    final = asked[-1]
    if final.prefix and Phrase(final.tokens) in phrases:  # the exact word implies the prefix
        asked.pop()
    return asked


def match_expression(query: str | None) -> str | None:
    """Turn free text into an FTS5 query (see :func:`phrases_of`); ``None`` when the text has no token
    (blank text matches all).

    Examples
    --------
    >>> match_expression("Müller Bau")
    '"muller" "bau"*'
    >>> match_expression("12 IN 345/24")
    '"12" "in" "345 24"*'
    >>> match_expression("in in in")
    '"in"'
    >>> match_expression("  ") is None
    True
    """
    phrases = phrases_of(query)
    return " ".join(p.expression() for p in phrases) if phrases else None


@dataclass(frozen=True)
class Filter:
    """One validated filter: ``column`` and the ``kind`` of match with its normalised ``operand``.

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


#: Members of a search result, in the interface's order (also the first columns after ``rowid``).
RESULT_MEMBERS = (
    "id",
    "debtor_name",
    "debtor_kind",
    "debtor_legal_form",
    "case_number",
    "court",
    "city",
    "current_status",
    "has_open_insolvency",
    "proceeding_kind",
    "administration_kind",
    "insolvency_grounds",
    "administrator_name",
    "company_id",
    "person_id",
    "opened_at",
    "closed_at",
    "last_event_at",
)


def result_of(row: Sequence[Any]) -> dict[str, Any]:
    """A search result from a row of :data:`RESULT_MEMBERS`."""
    result = dict(zip(RESULT_MEMBERS, row))
    result["has_open_insolvency"] = bool(result["has_open_insolvency"])
    grounds = result["insolvency_grounds"]
    result["insolvency_grounds"] = None if grounds is None else json.loads(grounds)
    return result
