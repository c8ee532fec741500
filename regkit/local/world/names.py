"""Personal names as the register writes them, read from the officer name lists (``data/reference``).

The lists are counts over parsed register entries, and the parse left debris in some values: an academic
title spelled out inside the last name (``Doctor Müller``, ``Prof. Doctor med. Vetter``), a professional
designation (``Diplomingenieur Schmidt``), punctuation from the entry's text (``: Müller``, ``:6) Momberg``),
a town where a first name belongs (``Birmingham/Großbritannien``), initials, firms (``persona service AG``).

:func:`personal_names` reads every value as a :class:`Name`: the academic title (``Dr.``, ``Prof. Dr.``,
``Dr.-Ing.``; the share of titled officers is the list's own) apart from the name, designations and debris
removed. A value that holds no personal name keeps its place and its count and is read as the nearest name of
the list (a name of about the same frequency), so a random number draws the same row of a list as it would from
the raw values: cleaning the lists changes a world only where the drawn value was not a clean name.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

__all__ = ["Name", "first_names", "is_clean_name", "last_names", "personal_names", "titled", "written"]


class Name(NamedTuple):
    """A personal name (``Müller``, ``Hans Peter``) and the academic title written before it (``""`` if none)."""

    title: str
    name: str


#: Academic titles as the lists spell them → as the register writes them.
_TITLES = {
    "doctor": "Dr.",
    "doktor": "Dr.",
    "dr": "Dr.",
    "doktoringenieur": "Dr.-Ing.",
    "prof": "Prof.",
    "professor": "Prof.",
}
#: Faculty suffixes that follow a doctorate (``Dr. med.``).
_FACULTIES = {"med", "rer", "nat", "jur", "phil", "oec", "pol", "dent", "vet"}
#: Professional designations and degrees: not part of a name in the register's person fields.
_DESIGNATION = re.compile(
    r"(Dipl(om)?\S*|DI|Pharmazierat|Rechtsanw(alt|ältin)|Steuerberater(in)?|Ingenieur(in)?|Mag\.?)$"
)
#: Words of firms, not of persons.
_FIRM_WORDS = {
    "limited",
    "ltd",
    "gmbh",
    "ag",
    "kg",
    "aps",
    "stiftung",
    "familienstiftung",
    "services",
    "service",
    "investments",
    "industrial",
    "international",
    "holding",
    "deutschland",
    "beratung",
}
#: Lower-case words inside names (``von der Heide``, ``Cavaco da Silva``).
_PARTICLES = {
    "von",
    "van",
    "de",
    "der",
    "den",
    "dem",
    "zu",
    "zum",
    "zur",
    "vor",
    "in",
    "da",
    "di",
    "do",
    "dos",
    "du",
    "la",
    "le",
    "ten",
    "ter",
    "y",
    "i",
    "el",
    "al",
}
#: Capitals inside a word are a name's only after these (``McGuire``, ``MacLean``, ``O'Neill``).
_INNER_CAPITAL_AFTER = ("Mc", "Mac", "O'", "O’", "D'", "D’")


def _strip(value: str) -> str:
    """``value`` without leading characters that are not letters and trailing ones that are not letters or dots."""
    start, end = 0, len(value)
    while start < end and not value[start].isalpha():
        start += 1
    while end > start and not (value[end - 1].isalpha() or value[end - 1] == "."):
        end -= 1
    return value[start:end]


def _title_and_rest(value: str) -> tuple[str, list[str]]:
    """Split leading titles and designations off a value: (``Prof. Dr. med.``, the remaining words)."""
    words = _strip(value).split()
    title: list[str] = []
    while words:
        key = words[0].rstrip(".").lower()
        if key in _TITLES:
            title.append(_TITLES[key])
        elif key in _FACULTIES and title and title[-1].startswith("Dr"):
            title[-1] += f" {key}."
        elif not _DESIGNATION.match(words[0]):
            break
        words.pop(0)
    ordered = sorted(dict.fromkeys(title), key=lambda t: not t.startswith("Prof"))  # Prof. Dr., as written
    return " ".join(ordered), words


def _is_part(part: str, first: bool) -> bool:
    """One hyphen-separated part of a name word: letters (and apostrophes), capitalised where a name is."""
    letters = part.replace("'", "").replace("’", "")
    if not letters.isalpha() or (first and not part[0].isupper()):
        return False
    inner = part[1:]
    return inner == inner.lower() or part.startswith(_INNER_CAPITAL_AFTER) and part[2:] != part[2:].upper()


def _is_word(word: str) -> bool:
    if word in _PARTICLES:
        return True
    parts = word.split("-")
    return word.lower() not in _FIRM_WORDS and all(_is_part(p, i == 0) for i, p in enumerate(parts))


def is_clean_name(name: str) -> bool:
    """Whether ``name`` reads as a personal name: capitalised words and name particles, nothing else.

    >>> [is_clean_name(n) for n in ("Müller", "von der Heide", "Hans-Peter", "McGuire", "Łukasz", "René")]
    [True, True, True, True, True, True]
    >>> [is_clean_name(n) for n in (": Müller", "M.", "persona service AG", "Doctor Müller", "WoIfgang", "von")]
    [False, False, False, False, False, False]
    """
    words = name.split(" ")
    if any(w in _PARTICLES for w in words) and all(w in _PARTICLES for w in words):
        return False
    return all(_is_word(w) and w.rstrip(".").lower() not in _TITLES for w in words)


def personal_names(values: Sequence[str], not_names: Collection[str] = ()) -> list[Name]:
    """Each list value read as a :class:`Name`, in the list's order (see the module docstring).

    ``not_names`` are values (titles and debris removed) that look like names but are not: towns in the
    first-name list, a first and a last name in one value of the last-name list. A value without a name is
    read as the nearest clean name of the list (the next one, else the one before), keeping its own title.

    >>> personal_names(["Müller", "Doctor Müller", ": Schmidt", "persona service AG", "Prof. Doctor med. Vetter"])
    [Name(title='', name='Müller'), Name(title='Dr.', name='Müller'), Name(title='', name='Schmidt'), \
Name(title='', name='Vetter'), Name(title='Prof. Dr. med.', name='Vetter')]
    """
    parsed = [_title_and_rest(value) for value in values]
    names = [" ".join(words) for _, words in parsed]
    clean = [is_clean_name(n) and n not in not_names for n in names]
    if not any(clean):
        raise ValueError("a name list needs at least one clean personal name")
    out = []
    for i, (title, _) in enumerate(parsed):
        j = i if clean[i] else next((k for k in range(i + 1, len(names)) if clean[k]), None)
        j = j if j is not None else next(k for k in range(i - 1, -1, -1) if clean[k])
        out.append(Name(title, names[j]))
    return out


def first_names(rows: Sequence[tuple[str, int]], towns: Mapping[str, int], last: Mapping[str, int]) -> list[Name]:
    """The first-name list's values (``(value, count)`` rows) as names.

    Not first names: a town the officers' home-town counts ``towns`` name at least half as often as the list
    does (``Stuttgart``, ``Hagen``; ``Horst`` and ``Achim`` stay), a place the list itself shows as one
    (``Birmingham``, because of ``Birmingham/GB``), and a last name the last-name counts ``last`` show ten
    times as often (``Müller``, ``Meyer``; ``Wolf`` and ``Albrecht`` stay).
    """
    slashed = {value.split("/")[0] for value, _ in rows if "/" in value} | _PLACES
    misread = {
        value
        for value, count in rows
        if value in slashed or 2 * towns.get(value, 0) >= count or last.get(value, 0) >= 10 * count
    }
    return personal_names([value for value, _ in rows], misread)


#: Places in the first-name list that no ``Place/Country`` value there marks as one.
_PLACES = frozenset({"Luxemburg"})


def last_names(rows: Sequence[tuple[str, int]], first: Mapping[str, int]) -> list[Name]:
    """The last-name list's values (``(value, count)`` rows) as names.

    Not a last name: several words of which the first is a first name the first-name counts ``first`` show 20
    times or more (``Frank Nagel``, ``Rolf-Dieter Schaefer``; ``Di Noto`` stays).
    """
    names = [" ".join(_title_and_rest(value)[1]) for value, _ in rows]
    both = {n for n in names if " " in n and first.get(n.split(" ")[0], 0) >= _FIRST_NAME_MINIMUM}
    return personal_names([value for value, _ in rows], both)


_FIRST_NAME_MINIMUM = 20


def titled(*names: Name) -> tuple[str, str]:
    """The title a person carries (the first one given, ``""`` if none) and their names joined by a space.

    >>> titled(Name("", "Sven"), Name("Dr.", "Müller"))
    ('Dr.', 'Sven Müller')
    """
    title = next((n.title for n in names if n.title), "")
    return title, " ".join(n.name for n in names)


def written(*names: Name) -> str:
    """The names as the register writes them, the title in front (``Dr. Sven Müller``, ``Dr. Müller``).

    >>> written(Name("", "Sven"), Name("Dr.", "Müller")), written(Name("", "Schmidt"))
    ('Dr. Sven Müller', 'Schmidt')
    """
    title, joined = titled(*names)
    return f"{title} {joined}" if title else joined
