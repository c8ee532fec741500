"""Representatives: one row per role held (director, Prokura, shareholder, liquidator, ...).

Identity
    ``id`` is the interface's id (a company id for a legal person, a UUID for an individual). Where the
    interface gives null, ``id`` holds a *derived* key (``id_derived`` is True), ``"derived-"`` + a UUID5 of:

    * a natural person with a date of birth: type, name and date of birth — the same person gets the same key
      in every company (the register identifies officers by name and birth date);
    * a legal person: type and the ``legal_person`` name, city and country;
    * otherwise: type, name and the company id — a key that holds within that company only, so that two
      namesakes elsewhere are never merged.

    A derived key is stable across runs and machines; it never equals an id the interface gives.

Activity
    A role is active on date ``d`` when ``start_date <= d`` and (``end_date`` is null or ``d < end_date``): the
    end date is the first day out of office, like ``valid_to`` in the histories. Without a date, ``is_active``
    means "no end date recorded".
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import ENTITY_TYPES, REPRESENTATION_ROLES

from ._columns import BOOL, DATE, STR, Cat, build_frame, iso_date
from ._input import company_list, required

__all__ = ["SPEC", "is_active_on", "person_key", "representatives", "role_columns", "role_entries"]

_NAMESPACE = uuid.UUID("5b0c4b52-6a37-4b8f-9d0e-2f1f5d0f7a11")

SPEC = [
    ("company_id", STR), ("id", STR), ("id_derived", BOOL), ("name", STR), ("type", Cat(ENTITY_TYPES)),
    ("role", Cat(REPRESENTATION_ROLES)), ("start_date", DATE), ("end_date", DATE), ("is_active", BOOL),
    ("authority", STR), ("first_name", STR), ("last_name", STR), ("date_of_birth", DATE), ("city", STR),
    ("country", STR), ("legal_name", STR),
]  # fmt: skip


def person_key(entry: Mapping[str, Any], company_id: str) -> tuple[str, bool]:
    """The representative's id, or a derived stable key where the interface gives null.

    Returns
    -------
    (str, bool)
        The key and whether it was derived.

    Examples
    --------
    >>> entry = {"id": None, "name": "Eva Muster", "type": "natural_person",
    ...          "natural_person": {"date_of_birth": "1970-01-02"}}
    >>> key, derived = person_key(entry, "DE-HRB-B1234-1")
    >>> key == person_key(entry, "DE-HRB-X9999-2")[0], key.startswith("derived-"), derived
    (True, True, True)
    """
    if entry["id"] is not None:
        return entry["id"], False
    natural, legal = entry.get("natural_person"), entry.get("legal_person")
    if entry["type"] == "natural_person" and natural and natural.get("date_of_birth"):
        basis = f"natural_person|{entry['name']}|{natural['date_of_birth']}"
    elif entry["type"] == "legal_person" and legal:
        basis = f"legal_person|{legal.get('name')}|{legal.get('city')}|{legal.get('country')}"
    else:
        basis = f"{entry['type']}|{entry['name']}|company:{company_id}"
    return f"derived-{uuid.uuid5(_NAMESPACE, basis)}", True


def is_active_on(entry: Mapping[str, Any], day: str | None) -> bool:
    """Whether a role is active on ``day`` (``YYYY-MM-DD``), or has no end date when ``day`` is None."""
    end = entry["end_date"]
    if day is None:
        return end is None
    return entry["start_date"] <= day and (end is None or day < end)


_EMPTY: Mapping[str, Any] = {}


def role_columns(cids: list[str], entries: list[Mapping[str, Any]], day: str | None) -> dict[str, list]:
    """The columns of :data:`SPEC` for a flat list of representation entries and their companies' ids."""
    ids = [e["id"] for e in entries]
    derived = [i is None for i in ids]
    for k, is_derived in enumerate(derived):
        if is_derived:
            ids[k] = person_key(entries[k], cids[k])[0]
    natural = [e.get("natural_person") or _EMPTY for e in entries]
    legal = [e.get("legal_person") or _EMPTY for e in entries]
    return {
        "company_id": cids, "id": ids, "id_derived": derived, "name": [e["name"] for e in entries],
        "type": [e["type"] for e in entries], "role": [e["role"] for e in entries],
        "start_date": [e["start_date"] for e in entries], "end_date": [e["end_date"] for e in entries],
        "is_active": [is_active_on(e, day) for e in entries], "authority": [e["authority"] for e in entries],
        "first_name": [n.get("first_name") for n in natural], "last_name": [n.get("last_name") for n in natural],
        "date_of_birth": [n.get("date_of_birth") for n in natural],
        "city": [n.get("city") or lp.get("city") for n, lp in zip(natural, legal)],
        "country": [lp.get("country") for lp in legal], "legal_name": [lp.get("name") for lp in legal],
    }  # fmt: skip


def role_entries(companies: Any) -> tuple[list[str], list[Mapping[str, Any]]]:
    """Company ids and representation entries of all companies, flat, in order."""
    cids: list[str] = []
    entries: list[Mapping[str, Any]] = []
    check = required("company")
    with check:
        for company in company_list(companies):
            check.company = cid = company["id"]
            roles = company["representation"]
            cids.extend([cid] * len(roles))
            entries.extend(roles)
    return cids, entries


def representatives(company: Any, as_of: Any = None) -> pd.DataFrame:
    """One row per role held, in the order of the record's ``representation``.

    Parameters
    ----------
    company : record, dict, or many of them
        A company or an iterable / mapping of companies.
    as_of : date-like, optional
        Compute ``is_active`` for this date (``start_date <= as_of < end_date``); default: active means no
        end date recorded.

    Returns
    -------
    pandas.DataFrame
        ==============  ==============  ============================================================
        company_id      str             the company represented
        id              str             the interface's id, or a derived key (see module docstring)
        id_derived      bool            ``id`` was derived because the interface gave null
        name            str
        type            category        natural_person / legal_person
        role            category        DIRECTOR, PROKURA, SHAREHOLDER, ... (the interface's enum)
        start_date      datetime64[us]
        end_date        datetime64[us]  NaT: no end recorded
        is_active       bool            see ``as_of``
        authority       str             the individual authority as published (NaN: none recorded)
        first_name      str             natural persons (NaN otherwise or when null)
        last_name       str             natural persons
        date_of_birth   datetime64[us]  natural persons
        city            str             natural person's city, or the legal person's seat
        country         str             legal persons: ISO 3166-1 alpha-2
        legal_name      str             legal persons: ``legal_person.name``
        ==============  ==============  ============================================================

    Examples
    --------
    >>> company = {"id": "DE-HRB-B1234-1", "names": [], "representation": [
    ...     {"id": None, "name": "Eva Muster", "type": "natural_person", "role": "DIRECTOR",
    ...      "start_date": "2010-01-01", "end_date": None, "authority": None,
    ...      "natural_person": {"city": "Berlin", "first_name": "Eva", "last_name": "Muster",
    ...                         "date_of_birth": None}}]}
    >>> representatives(company)[["name", "role", "is_active", "id_derived"]]
             name      role  is_active  id_derived
    0  Eva Muster  DIRECTOR       True        True
    """
    day = None if as_of is None else iso_date(as_of)
    cids, entries = role_entries(company)
    with required("a representation entry"):
        columns = role_columns(cids, entries, day)
    return build_frame(columns, SPEC)
