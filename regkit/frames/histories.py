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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import CURRENCIES, LEGAL_FORMS, REGISTER_TYPES

from ._columns import BOOL, DATE, FLOAT, INT64, STR, Cat, build_frame
from ._input import company_list, required
from .money import capital_eur

__all__ = ["CURRENT", "FIELDS", "MEMBERS", "history", "history_columns", "member_columns", "versions"]

FIELDS = ("names", "addresses", "purposes", "capitals", "registers")
"""The history members :func:`history` accepts."""

CURRENT = {
    "names": "name",
    "addresses": "address",
    "purposes": "purpose",
    "capitals": "capital",
    "registers": "register",
}

_PREFIX = [("company_id", STR), ("version", INT64), ("valid_from", DATE), ("valid_to", DATE), ("is_current", BOOL)]

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
    return [entries[i] for i in order], position


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
        ==================  ===================  =================================================

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
    """
    _check_field(field)
    cids, positions, starts, ends, current, entries = history_columns(company, field)
    with required(f"a {field} entry"):
        members = member_columns(field, entries)
    columns = {
        "company_id": cids,
        "version": positions,
        "valid_from": starts,
        "valid_to": ends,
        "is_current": current,
        **members,
    }
    return build_frame(columns, _PREFIX + MEMBERS[field])


def history_columns(companies: Any, field: str) -> tuple[list, list, list, list, list, list]:
    """Company ids, version numbers, starts, ends, current flags and entries of every version, in order."""
    _check_field(field)
    cids: list = []
    positions: list = []
    starts: list = []
    ends: list = []
    current_flags: list = []
    entries: list = []
    check = required("company")
    with check:
        for company in company_list(companies):
            check.company = cid = company["id"]
            sorted_entries, current = versions(company, field)
            n = len(sorted_entries)
            if not n:
                continue
            version_starts = [_start(field, e) for e in sorted_entries]
            cids.extend([cid] * n)
            positions.extend(range(n))
            starts.extend(version_starts)
            ends.extend(version_starts[1:])
            ends.append(None)
            current_flags.extend(i == current for i in range(n))
            entries.extend(sorted_entries)
    return cids, positions, starts, ends, current_flags, entries
