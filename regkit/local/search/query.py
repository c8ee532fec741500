"""Insolvency search: the text and request model shared by the parser, the index builder and the searches.

German spellings are folded on both sides before FTS5 sees them (:func:`fold`), so ``Müller``,
``Mueller`` and ``muller`` find each other; free text becomes phrases (:func:`phrases_of`), every word must
match and the last one is a prefix. Text holding a lone surrogate (:func:`lone_surrogate`) is refused
before any of that, in a search body as in every other body.

The body is validated by :mod:`regkit.local.search.request`. The index itself:
:mod:`regkit.local.search.build` (tables, built in result order), :mod:`regkit.local.search.columns`
(filters over numpy arrays), :mod:`regkit.local.search.terms` (the vocabulary and bitmaps of common words)
and :mod:`regkit.local.search.index` (running searches, side by side).
"""

from __future__ import annotations

import json
import re
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
    "GROUND_BITS",
    "RESULT_MEMBERS",
    "result_of",
    "lone_surrogate",
]

_TOKEN = re.compile(r"[^\W_]+")
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Bit of each insolvency ground in the ``grounds_mask`` column.
GROUND_BITS = {ground: 1 << i for i, ground in enumerate(INSOLVENCY_GROUNDS)}


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
    matches in sequence. A repeated word is asked for once (the answer is the same, the work is not), and the
    last word is dropped as a prefix when it is also asked for exactly (the exact word implies it).
    """
    words = [tuple(tokens) for word in fold(query).split() if (tokens := _TOKEN.findall(word))]
    if not words:
        return []
    last = words.pop()
    exact = [Phrase(tokens) for tokens in dict.fromkeys(words)]
    return exact + ([] if Phrase(last) in exact else [Phrase(last, prefix=True)])


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
