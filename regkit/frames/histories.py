"""Histories of a company's names, addresses, purposes, capitals and registers: one row per version.

The version rule
----------------
* The versions are the entries of the history array (``names``, ...), plus the current member (``name``,
  ...) when it is not null and equals none of them — a payload with ``names: []`` and a ``name`` still has
  one version. No entry is dropped or merged, duplicates included.
* They are sorted by ``start_date``, oldest first, with a *stable* sort: entries on the same date keep the
  payload's order (the interface lists histories oldest first). A register entry without ``start_date``
  (the only history whose ``start_date`` is optional) sorts first, with ``valid_from`` NaT.
* ``valid_to`` is the next version's ``valid_from``; NaT for the newest version (and where the next version's
  start is unknown). So ``valid_to >= valid_from`` always, and **two versions on the same start date both
  stay**: the earlier one gets ``valid_to == valid_from``, an empty interval — it was superseded the day it
  took effect, and no date falls in it (``as_of`` agrees: the later one is the version of that day).
* ``is_current`` marks the version equal to the record's current member (the last such one). Where the
  current member is null (``purpose``/``capital``: none registered any more) no version is current, although
  the newest one has ``valid_to`` NaT: the interface does not say when it ended.

Derived dates
-------------
A world imported from the OffeneRegister bulk data (``regkit world import offeneregister``) has no dates of names
or addresses: it derives them (every name and the address start at the derived incorporation date; the rules are
in the world's ``world.json`` → ``derived.rules``). The local register serving such a world names the derived
members of each company in the ``X-Regkit-Derived`` header of the lookup (:mod:`regkit.schema.derived`), and the
client keeps them with the record, also in the cache (``record.derived``). ``valid_from_derived`` is True where the
version's ``start_date`` is one of them — the entry's own (``names[2].start_date``), its list's
(``names.start_date``: every entry), or, for the version equal to the current member, the current member's
(``address.start_date``) — and ``valid_to_derived`` where the next version's is (``valid_to`` is that start). Both
are False for a date that is NaT, for every answer of the live service and of the bundled synthetic world (their
dates are the register's), and for a plain dict (``record.raw`` carries no marks: pass the record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import CURRENCIES, LEGAL_FORMS, REGISTER_TYPES
from regkit.schema.derived import is_derived

from ._columns import BOOL, DATE, FLOAT, INT64, STR, Cat, build_frame
from ._input import as_dict, company_list, is_collection, is_company, required
from .money import capital_eur

__all__ = [
    "CURRENT",
    "FIELDS",
    "MEMBERS",
    "derived_marks",
    "history",
    "history_columns",
    "member_columns",
    "versions",
]

FIELDS = ("names", "addresses", "purposes", "capitals", "registers")
"""The history members :func:`history` accepts."""

CURRENT = {
    "names": "name",
    "addresses": "address",
    "purposes": "purpose",
    "capitals": "capital",
    "registers": "register",
}

_PREFIX = [
    ("company_id", STR),
    ("version", INT64),
    ("valid_from", DATE),
    ("valid_to", DATE),
    ("is_current", BOOL),
    ("valid_from_derived", BOOL),
    ("valid_to_derived", BOOL),
]

MEMBERS: dict[str, list[tuple[str, Any]]] = {
    "names": [("name", STR), ("legal_form", Cat(LEGAL_FORMS))],
    "addresses": [
        ("street", STR),
        ("postal_code", STR),
        ("city", STR),
        ("country", STR),
        ("extra", STR),
        ("formatted_value", STR),
    ],
    "purposes": [("purpose", STR)],
    "capitals": [("amount", FLOAT), ("currency", Cat(CURRENCIES)), ("amount_eur", FLOAT)],
    "registers": [
        ("register_company_id", STR),
        ("register_type", Cat(REGISTER_TYPES)),
        ("register_number", STR),
        ("register_court", STR),
    ],
}
"""Per history: the member columns after the common ones."""

_REQUIRED = {
    "names": ("name", "legal_form"),
    "addresses": ("city", "country", "formatted_value"),
    "purposes": ("purpose",),
    "capitals": ("amount", "currency"),
    "registers": ("register_number", "register_type", "register_court"),
}
_SOURCE = {"register_company_id": "company_id"}


def member_columns(field: str, entries: list[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """The member columns of ``field`` for a flat list of history entries."""
    columns = {}
    for name, _ in MEMBERS[field]:
        if name == "amount_eur":
            continue
        key = _SOURCE.get(name, name)
        if key in _REQUIRED[field]:
            columns[name] = [e[key] for e in entries]
        else:
            columns[name] = [e.get(key) for e in entries]
    if field == "capitals":
        columns["amount_eur"] = list(map(capital_eur, columns["amount"], columns["currency"]))
    return columns


def _start(field: str, entry: Mapping[str, Any]) -> Any:
    return entry.get("start_date") if field == "registers" else entry["start_date"]


def versions(company: Mapping[str, Any], field: str) -> tuple[list[Mapping[str, Any]], int | None]:
    """The versions of one history, sorted, and the position of the current one (see the module docstring).

    Parameters
    ----------
    company : mapping
        A CompanyV1 payload.
    field : str
        One of :data:`FIELDS`.

    Returns
    -------
    (list of dict, int or None)
        The entries oldest first, and the index of the current version (None when there is none).
    """
    entries, position, _ = _ordered(company, field)
    return entries, position


def _ordered(company: Mapping[str, Any], field: str) -> tuple[list[Mapping[str, Any]], int | None, list[int]]:
    """:func:`versions`, and each version's index in the record's list (``len(list)`` for the current member
    appended as a version of its own)."""
    entries = list(company[field])
    current = company[CURRENT[field]]
    current_at = None
    if current is not None:
        if entries and entries[-1] == current:
            current_at = len(entries) - 1
        else:
            current_at = next((i for i in range(len(entries) - 1, -1, -1) if entries[i] == current), None)
            if current_at is None:
                entries.append(current)
                current_at = len(entries) - 1
    starts = [_start(field, e) for e in entries]
    order = sorted(range(len(entries)), key=lambda i: (starts[i] is not None, starts[i] or ""))
    position = None if current_at is None else order.index(current_at)
    return [entries[i] for i in order], position, order


def _derived_starts(
    field: str,
    marks: frozenset[str],
    starts: list[Any],
    origins: list[int],
    listed: int,
    current: int | None,
) -> list[bool]:
    """Per version (sorted): whether its start date is derived (see "Derived dates" in the module docstring)."""
    if not marks:
        return [False] * len(starts)
    current_marked = is_derived(marks, f"{CURRENT[field]}.start_date")
    return [
        start is not None
        and (
            (origin < listed and is_derived(marks, f"{field}[{origin}].start_date"))
            or (position == current and current_marked)
        )
        for position, (start, origin) in enumerate(zip(starts, origins))
    ]


def derived_marks(company: Any) -> frozenset[str]:
    """The derived members a company record carries (``record.derived``: see :mod:`regkit.schema.derived`); none
    for a plain dict or anything else without them."""
    if type(company) is dict:
        return frozenset()
    marks = getattr(company, "derived", None)
    if isinstance(marks, (frozenset, set)) and all(isinstance(m, str) for m in marks):
        return frozenset(marks)
    return frozenset()


def marked_companies(companies: Any) -> list[tuple[Mapping[str, Any], frozenset[str]]]:
    """:func:`~._input.company_list` of ``companies``, each with its :func:`derived_marks`."""
    if is_company(companies):
        return [(as_dict(companies), derived_marks(companies))]
    items = companies.values() if isinstance(companies, Mapping) else companies
    if not is_collection(items):
        company_list(companies)  # raises its error
    items = [item for item in items if item is not None]
    return list(zip(company_list(items), map(derived_marks, items)))


def _check_field(field: str) -> None:
    if field not in MEMBERS:
        raise ValueError(f"field must be one of {', '.join(FIELDS)}; not {field!r}")


def history(company: Any, field: str) -> pd.DataFrame:
    """One row per version of a history member, oldest first.

    Parameters
    ----------
    company : record, dict, or many of them
        A company (a client record or a CompanyV1 dict) or an iterable / mapping of companies; rows of several
        companies follow each other in input order.
    field : {"names", "addresses", "purposes", "capitals", "registers"}
        The history to show. The sort order, ``valid_to`` and same-day versions follow the rule in
        :mod:`regkit.frames.histories`.

    Returns
    -------
    pandas.DataFrame
        Common columns, then the members of ``field``:

        ==================  ===================  =================================================
        company_id          str                  the company whose record it is
        version             int64                0 for the oldest version of that company
        valid_from          datetime64[us]       the entry's ``start_date`` (NaT if unknown)
        valid_to            datetime64[us]       the next version's start; NaT for the newest
        is_current          bool                 equals the record's current member
        valid_from_derived  bool                 ``valid_from`` is derived, not the register's
        valid_to_derived    bool                 ``valid_to`` is derived (the next version's start)
        ==================  ===================  =================================================

        ``valid_from_derived`` and ``valid_to_derived`` are True only for a record of a world imported from
        OffeneRegister whose date was derived (it has no dates of names or addresses), as the local register names
        them (``record.derived``); False for a NaT, for every answer of the live service and of the bundled world,
        and for a plain dict, which carries no marks (see "Derived dates" in :mod:`regkit.frames.histories`).

        ``names``: ``name`` (str), ``legal_form`` (category: the legal-form enum).
        ``addresses``: ``street``, ``postal_code``, ``city``, ``country``, ``extra``, ``formatted_value``
        (str; optional members missing → NaN).
        ``purposes``: ``purpose`` (str).
        ``capitals``: ``amount`` (Float64, in ``currency``), ``currency`` (category EUR/DEM/USD),
        ``amount_eur`` (Float64: DEM at 1.95583, USD → <NA>; see :mod:`regkit.frames.money`).
        ``registers``: ``register_company_id`` (str: the company id under that registration),
        ``register_type`` (category), ``register_number``, ``register_court`` (str).

    Raises
    ------
    ValueError
        For an unknown ``field``, or a company lacking a required member.

    Examples
    --------
    >>> company = {"id": "DE-HRB-X1112-1", "name": {"name": "B GmbH", "legal_form": "gmbh",
    ...            "start_date": "2010-05-01"},
    ...            "names": [{"name": "A UG", "legal_form": "ug", "start_date": "2001-01-15"},
    ...                      {"name": "B GmbH", "legal_form": "gmbh", "start_date": "2010-05-01"}]}
    >>> history(company, "names")[["name", "legal_form", "valid_from", "valid_to", "is_current"]]
         name legal_form valid_from   valid_to  is_current
    0    A UG         ug 2001-01-15 2010-05-01       False
    1  B GmbH       gmbh 2010-05-01        NaT        True

    A dict carries no marks of derived dates; a record of an imported world does (``record.derived``):

    >>> history(company, "names")["valid_from_derived"].tolist()
    [False, False]
    """
    _check_field(field)
    columns_ = _columns(company, field)
    entries = columns_.pop("entries")
    with required(f"a {field} entry"):
        members = member_columns(field, entries)
    return build_frame({**columns_, **members}, _PREFIX + MEMBERS[field])


def history_columns(companies: Any, field: str) -> tuple[list, list, list, list, list, list]:
    """Company ids, version numbers, starts, ends, current flags and entries of every version, in order."""
    columns = _columns(companies, field)
    return (
        columns["company_id"],
        columns["version"],
        columns["valid_from"],
        columns["valid_to"],
        columns["is_current"],
        columns["entries"],
    )


def _columns(companies: Any, field: str) -> dict[str, list[Any]]:
    """The common columns of :func:`history` (the :data:`_PREFIX` names) and ``entries``, every version's entry."""
    _check_field(field)
    columns: dict[str, list[Any]] = {name: [] for name, _ in _PREFIX}
    entries: list[Any] = []
    check = required("company")
    with check:
        for company, marks in marked_companies(companies):
            check.company = cid = company["id"]
            sorted_entries, current, origins = _ordered(company, field)
            n = len(sorted_entries)
            if not n:
                continue
            version_starts = [_start(field, e) for e in sorted_entries]
            derived = _derived_starts(field, marks, version_starts, origins, len(company[field]), current)
            columns["company_id"].extend([cid] * n)
            columns["version"].extend(range(n))
            columns["valid_from"].extend(version_starts)
            columns["valid_to"].extend(version_starts[1:])
            columns["valid_to"].append(None)
            columns["is_current"].extend(i == current for i in range(n))
            columns["valid_from_derived"].extend(derived)
            columns["valid_to_derived"].extend(derived[1:])
            columns["valid_to_derived"].append(False)
            entries.extend(sorted_entries)
    columns["entries"] = entries
    return columns
