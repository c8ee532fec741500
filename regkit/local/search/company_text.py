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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["TextLabels", "CHECK_MAX", "KEPT_MAX"]

#: Candidates checked one by one for a keyword spanning words; with more, all values are scanned once.
CHECK_MAX = 100_000
#: One-character keywords whose answers are kept (packed bits: an eighth of a byte per value each).
KEPT_MAX = 128
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
        self._labels: list[str] | None = list(labels)
        self.count = len(self._labels)
        self._fetch: Callable[[np.ndarray], list[str]] | None = None
        self._load: Callable[[], list[str]] | None = None
        ids: dict[str, int] = {}
        owners: list[list[int]] = []
        for code, label in enumerate(self._labels):
            for word in dict.fromkeys(_WORD.findall(label)):  # in text order: the same file every build
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
        self._kept: dict[str, np.ndarray] = {}  # one-character keywords' answers, packed

    @classmethod
    def from_parts(
        cls,
        count: int,
        parts: Mapping[str, Any],
        fetch: Callable[[np.ndarray], list[str]],
        load: Callable[[], list[str]],
    ) -> TextLabels:
        """Labels kept elsewhere (an index file): :meth:`parts` as stored, ``fetch(codes)`` the labels of some
        codes, ``load()`` all of them (read only when a keyword has no letter or digit, or spans words in very
        many values)."""
        self = cls.__new__(cls)
        self.count = count
        self._labels = None
        self._fetch = fetch
        self._load = load
        self._vocabulary = parts["vocabulary"]
        self._word_starts = parts["word_starts"]
        self._offsets = parts["offsets"]
        self._postings = parts["postings"]
        self._joined = None
        self._kept = {}
        return self

    def parts(self) -> dict[str, Any]:
        """What :meth:`from_parts` needs besides the labels: the vocabulary text and its offset arrays."""
        return {
            "vocabulary": self._vocabulary,
            "word_starts": self._word_starts,
            "offsets": self._offsets,
            "postings": self._postings,
        }

    @property
    def labels(self) -> list[str]:
        """Every value (code = position); read in full only when needed."""
        if self._labels is None:
            assert self._load is not None  # only labels kept elsewhere are not at hand
            self._labels = self._load()
        return self._labels

    def _labels_of(self, codes: np.ndarray) -> list[str]:
        if self._labels is not None or self._fetch is None:
            return [self.labels[c] for c in codes.tolist()]
        return self._fetch(codes)

    def _holding(self, part: str) -> np.ndarray:
        """Values holding a word that contains ``part`` (letters and digits only), as a boolean array."""
        hit = np.zeros(self.count, dtype=bool)
        words = _found(self._vocabulary, self._word_starts, part).tolist()
        if words:
            hit[np.concatenate([self._postings[self._offsets[w] : self._offsets[w + 1]] for w in words])] = True
        return hit

    def _scan(self, keyword: str) -> np.ndarray:
        if self._joined is None:
            self._joined = (_SEPARATOR.join(self.labels), _starts(self.labels, len(self.labels)))
        hit = np.zeros(self.count, dtype=bool)
        hit[_found(*self._joined, keyword)] = True
        return hit

    def containing(self, keyword: str) -> np.ndarray:
        """Which values contain ``keyword`` (a boolean array over :attr:`labels`).

        A one-character keyword is found in most values (``"a"``) and costs a pass over most postings: its answer
        is kept (packed bits, at most :data:`KEPT_MAX` characters), so a filter repeating such keywords costs
        array operations, not passes.
        """
        if len(keyword) != 1:
            return self._containing(keyword)
        packed = self._kept.get(keyword)
        if packed is None:
            hit = self._containing(keyword)
            if len(self._kept) < KEPT_MAX:
                self._kept[keyword] = np.packbits(hit)
            return hit
        return np.unpackbits(packed, count=self.count).view(bool)

    def _containing(self, keyword: str) -> np.ndarray:
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
        hit[[c for c, label in zip(candidates.tolist(), self._labels_of(candidates)) if keyword in label]] = True
        return hit

    def containing_all(self, keywords: Iterable[str]) -> np.ndarray:
        """Which values contain every keyword (a boolean array over :attr:`labels`)."""
        hit = np.ones(self.count, dtype=bool)
        for keyword in set(keywords):
            hit &= self.containing(keyword)
        return hit
