"""Which distinct values of a text column contain a keyword: found through the words they are made of.

A keyword made of letters and digits only can only occur inside one word of a value, so the values containing
it are those holding a word that contains it: the (small) vocabulary is searched, and the postings of the words
found give the values — exact, and independent of how many values there are. A keyword with other characters
(``"strase 1"``) is looked up by its words first, then checked in each candidate value; a keyword without any
letter or digit is searched in all values at once.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["TextLabels", "CHECK_MAX"]

#: Candidates checked one by one for a keyword spanning words; with more, all values are scanned once.
CHECK_MAX = 100_000
_WORD = re.compile(r"[^\W_]+")
_SEPARATOR = "\x00"


def _starts(texts: Iterable[str], count: int) -> np.ndarray:
    """Offsets of each text in ``_SEPARATOR.join(texts)``."""
    lengths = np.fromiter((len(text) + 1 for text in texts), dtype=np.int64, count=count)
    return np.concatenate(([0], np.cumsum(lengths)[:-1])) if count else np.empty(0, dtype=np.int64)


def _found(text: str, starts: np.ndarray, keyword: str) -> np.ndarray:
    """Indices (ascending, unique) of the joined texts in which ``keyword`` occurs."""
    if _SEPARATOR in keyword:
        return np.empty(0, dtype=np.int64)
    offsets = np.fromiter((m.start() for m in re.finditer(re.escape(keyword), text)), dtype=np.int64)
    return np.unique(np.searchsorted(starts, offsets, side="right") - 1)


class TextLabels:
    """The distinct values of a text column, and which of them contain given substrings.

    Examples
    --------
    >>> labels = TextLabels(["hafenstrase 1, hamburg", "lindenweg 2, berlin", "hafenweg 3, kiel"])
    >>> labels.containing_all(["hafen", "weg"]).tolist()
    [False, False, True]
    >>> labels.containing_all(["weg 2,"]).tolist()
    [False, True, False]
    """

    def __init__(self, labels: Sequence[str]):
        self.labels = list(labels)
        ids: dict[str, int] = {}
        owners: list[list[int]] = []
        for code, label in enumerate(self.labels):
            for word in set(_WORD.findall(label)):
                index = ids.setdefault(word, len(owners))
                if index == len(owners):
                    owners.append([])
                owners[index].append(code)
        self._vocabulary = _SEPARATOR.join(ids)
        self._word_starts = _starts(ids, len(ids))
        counts = np.fromiter((len(found) for found in owners), dtype=np.int64, count=len(owners))
        self._offsets = np.concatenate(([0], np.cumsum(counts)))
        self._postings = np.fromiter(
            itertools.chain.from_iterable(owners), dtype=np.int64, count=int(self._offsets[-1])
        )
        self._joined: tuple[str, np.ndarray] | None = None  # every value in one string, when a scan needs it

    def _holding(self, part: str) -> np.ndarray:
        """Values holding a word that contains ``part`` (letters and digits only), as a boolean array."""
        hit = np.zeros(len(self.labels), dtype=bool)
        words = _found(self._vocabulary, self._word_starts, part).tolist()
        if words:
            hit[np.concatenate([self._postings[self._offsets[w] : self._offsets[w + 1]] for w in words])] = True
        return hit

    def _scan(self, keyword: str) -> np.ndarray:
        if self._joined is None:
            self._joined = (_SEPARATOR.join(self.labels), _starts(self.labels, len(self.labels)))
        hit = np.zeros(len(self.labels), dtype=bool)
        hit[_found(*self._joined, keyword)] = True
        return hit

    def containing(self, keyword: str) -> np.ndarray:
        """Which values contain ``keyword`` (a boolean array over :attr:`labels`)."""
        parts = sorted(set(_WORD.findall(keyword)), key=len, reverse=True)
        if not parts:
            return self._scan(keyword)
        hit = self._holding(parts[0])
        for part in parts[1:]:
            hit &= self._holding(part)
        if parts == [keyword]:
            return hit
        candidates = np.flatnonzero(hit)
        if candidates.size > CHECK_MAX:
            return hit & self._scan(keyword)
        hit[:] = False
        hit[[c for c in candidates.tolist() if keyword in self.labels[c]]] = True
        return hit

    def containing_all(self, keywords: Iterable[str]) -> np.ndarray:
        """Which values contain every keyword (a boolean array over :attr:`labels`)."""
        hit = np.ones(len(self.labels), dtype=bool)
        for keyword in set(keywords):
            hit &= self.containing(keyword)
        return hit
