"""Which members of a company record are derived, not the register's: the ``X-Regkit-Derived`` header.

A world imported from the OffeneRegister bulk data (``regkit world import offeneregister``) derives what the source
lacks — the incorporation date, the dates of names and addresses, an officer's missing start date, ... (the rules:
``world.json`` → ``derived.rules``) — and lists per company the members it derived (``derived.jsonl.gz``). The local
register serving such a world sends them with a company lookup in the response header :data:`HEADER`; the live
service and the bundled synthetic world send none (their dates are the register's). Both sides use this module:
the store writes the header's value (:func:`format_marks`), the client reads it (:func:`parse_marks`) and the frames
ask of a member whether it is derived (:func:`is_derived`). It imports only the standard library.

The members
-----------
A member is a path into the CompanyV1 record: names joined by ``.``, a list entry by its index in the record's list
(``representation[2].start_date``: the start date of the third entry of ``representation``). A path without an
index where the record has a list (``names.start_date``) stands for every entry of that list.

The header's value
------------------
The members, separated by ``,`` without spaces; the members that differ only in one list index are written once,
with the indices as a set of numbers and ranges (``a-b``: ``a`` to ``b``, both included), ascending::

    X-Regkit-Derived: incorporated_at,names.start_date,address.start_date,legal_form,representation[0-2,5].start_date

stands for ``representation[0].start_date``, ``[1]``, ``[2]`` and ``[5]`` besides the four plain members. The
header is sent only when the company has derived members; no header means none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from functools import lru_cache

__all__ = ["HEADER", "MAX_MARKS", "format_marks", "is_derived", "parse_marks"]

#: The response header of a company lookup naming the record's derived members (local register only).
HEADER = "X-Regkit-Derived"
#: The most members one header may stand for (a longer range is refused as malformed, not expanded).
MAX_MARKS = 100_000

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH = re.compile(rf"{_NAME}(?:\[[0-9]+\])?(?:\.{_NAME}(?:\[[0-9]+\])?)*")
_SET = r"[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*"
_ENCODED = re.compile(rf"({_NAME}(?:\[(?:{_SET})\])?(?:\.{_NAME}(?:\[(?:{_SET})\])?)*)(?:,|\Z)")
_INDEX = re.compile(r"\[[0-9]+\]")
_INDEX_SET = re.compile(rf"\[({_SET})\]")


def format_marks(members: Iterable[str]) -> str:
    """The header's value for the derived ``members`` (paths, see the module docstring); ``""`` for none.

    Members that differ only in their one list index are written once, at the place of the first of them, with
    their indices as ascending numbers and ranges; the others are written as given, once each.

    Raises
    ------
    ValueError
        A member that is not a path.

    Examples
    --------
    >>> format_marks(["incorporated_at", "representation[2].start_date", "names.start_date",
    ...               "representation[0].start_date", "representation[1].start_date", "representation[4].id"])
    'incorporated_at,representation[0-2].start_date,names.start_date,representation[4].id'
    """
    groups: dict[tuple[str, str], list[int]] = {}
    order: list[str | tuple[str, str]] = []
    seen: set[str] = set()
    for member in members:
        if member in seen:
            continue
        seen.add(member)
        if "[" not in member:
            if not _PATH.fullmatch(member):
                raise ValueError(f"{member!r} is not a member path")
            order.append(member)
            continue
        if not _PATH.fullmatch(member):
            raise ValueError(f"{member!r} is not a member path")
        head, _, rest = member.partition("[")
        index, _, tail = rest.partition("]")
        if "[" in tail:  # two indices (no such member is derived today): written as it is
            order.append(member)
            continue
        key = (head, tail)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(int(index))
    parts = []
    for item in order:
        if isinstance(item, str):
            parts.append(item)
        else:
            head, tail = item
            parts.append(f"{head}[{_ranges(groups[item])}]{tail}")
    return ",".join(parts)


def _ranges(indices: list[int]) -> str:
    ordered = sorted(set(indices))
    runs: list[str] = []
    start = previous = ordered[0]
    for index in ordered[1:] + [-2]:
        if index == previous + 1:
            previous = index
            continue
        runs.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = index
    return ",".join(runs)


@lru_cache(maxsize=4096)  # most companies of a world share a handful of values: one frozenset each
def parse_marks(text: str | None) -> frozenset[str]:
    """The derived members a header's value stands for, each list index spelled out (empty for ``None`` or ``""``).

    Raises
    ------
    ValueError
        ``text`` is not a value :func:`format_marks` writes (or stands for more than :data:`MAX_MARKS` members).

    Examples
    --------
    >>> sorted(parse_marks("incorporated_at,representation[0-2,5].start_date"))  # doctest: +NORMALIZE_WHITESPACE
    ['incorporated_at', 'representation[0].start_date', 'representation[1].start_date',
     'representation[2].start_date', 'representation[5].start_date']
    """
    if not text:
        return frozenset()
    text = text.strip()
    members: set[str] = set()
    position = 0
    while position < len(text):
        match = _ENCODED.match(text, position)
        if match is None:
            raise ValueError(f"{HEADER} is malformed at character {position + 1}: {text[position : position + 40]!r}")
        position = match.end()
        _expand(match.group(1), members)
        if len(members) > MAX_MARKS:
            raise ValueError(f"{HEADER} stands for more than {MAX_MARKS:,} members")
    if text.endswith(","):
        raise ValueError(f"{HEADER} ends with a comma")
    return frozenset(members)


def _expand(member: str, into: set[str]) -> None:
    sets = list(_INDEX_SET.finditer(member))
    if not sets:
        into.add(member)
        return
    if len(sets) > 1 and any("," in s.group(1) or "-" in s.group(1) for s in sets):
        raise ValueError(f"{HEADER}: {member!r} has a set of indices in more than one list")
    if len(sets) > 1:
        into.add(member)
        return
    found = sets[0]
    head, tail = member[: found.start()], member[found.end() :]
    for part in found.group(1).split(","):
        first, _, last = part.partition("-")
        low, high = int(first), int(last or first)
        if high < low or high - low >= MAX_MARKS:
            raise ValueError(f"{HEADER}: {member!r} has the range {part!r}")
        into.update(f"{head}[{index}]{tail}" for index in range(low, high + 1))
        if len(into) > MAX_MARKS:
            raise ValueError(f"{HEADER} stands for more than {MAX_MARKS:,} members")


def is_derived(marks: Set[str], member: str) -> bool:
    """Whether ``member`` (a path with the indices of its list entries) is among ``marks``: named itself, or named
    without its indices (``names.start_date`` marks every entry of ``names``).

    Examples
    --------
    >>> marks = parse_marks("names.start_date,representation[1].start_date")
    >>> is_derived(marks, "names[3].start_date"), is_derived(marks, "representation[1].start_date")
    (True, True)
    >>> is_derived(marks, "representation[0].start_date"), is_derived(marks, "representation[1].end_date")
    (False, False)
    """
    if not marks:
        return False
    if member in marks:
        return True
    return "[" in member and _INDEX.sub("", member) in marks
