"""Folding a person's name for comparison: the name part of regkit's one rule of who a person is.

:func:`normalise` (case, umlauts, diacritics, punctuation, white space) and :func:`name_key` (a natural
person's name, titles removed, words sorted) are the name part of the identity rule that
:mod:`regkit.schema.identity` documents and the frames and the graph use. They live here, below every layer,
so that the local register's importer of real register data (``regkit world import offeneregister``) keys its
persons by the very same rule (the register may import nothing above ``regkit.schema``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["name_key", "normalise"]

_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "œ": "oe"})
_NON_WORD = re.compile(r"[\W_]+")
_DOCTORATE = (
    r"med|dent|vet|rer|nat|pol|oec|soc|jur|iur|phil|theol|ing|sc|techn|agr|habil|mult|paed|pharm|"
    r"publ|biol|hum|math|troph|h\.?\s*c"
)
_TITLES = re.compile(
    rf"\b(?:(?:prof(?:essor)?|dr(?:es)?|doktor|doctor)\b\.?(?:\s*-?\s*(?:{_DOCTORATE})\b\.?)*"
    r"|dipl(?:om)?\b\.?\s*-?\s*[a-z]+\b\.?(?:\s*-\s*[a-z]+\b\.)*(?:\s*\(\s*(?:fh|th|tu|ba|univ)\s*\))?"
    r"|ing\.|mag\.|mba\b|ll\.?\s*m\b\.?)"
)


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_FOLD)  # ä → ae before its mark is dropped
    if folded.isascii():  # no marks to drop (most names once umlauts are spelled out): the same, 10 times faster
        return folded
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.category(ch).startswith("M"))
    return bare.translate(_FOLD)  # a letter freed of its mark (ǣ → æ) folds too, so folding twice changes nothing


def normalise(text: str | None) -> str:
    """Fold a name, city or country for comparison: case, umlauts, diacritics, punctuation, white space.

    Returns
    -------
    str
        Lower case words separated by single spaces; ``""`` for ``None`` or ``""``.

    Examples
    --------
    >>> normalise("Hans-Jürgen  GRÄFE"), normalise("Hans Juergen Graefe"), normalise("Zoë Weiß")
    ('hans juergen graefe', 'hans juergen graefe', 'zoe weiss')
    """
    if not text:
        return ""
    return _NON_WORD.sub(" ", _fold(text)).strip()


@lru_cache(maxsize=1 << 16)
def _name_key(text: str) -> str:
    return " ".join(sorted(_NON_WORD.sub(" ", _TITLES.sub(" ", _fold(text))).split()))


def name_key(first_name: str | None, last_name: str | None, name: str | None) -> str:
    """The name key of a natural person (see the module docstring).

    Examples
    --------
    >>> name_key("Hans Peter", "Müller", None) == name_key("Hans", "Peter Müller", None) == \\
    ...     name_key(None, None, "Prof. Dr. med. Hans-Peter MUELLER")
    True
    >>> name_key(None, None, "Dipl.-Ing. Zoë Weiß")
    'weiss zoe'
    """
    text = f"{first_name} {last_name}" if first_name and last_name else name
    return _name_key(text) if isinstance(text, str) else ""
