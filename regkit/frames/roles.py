"""Representatives: one row per role held (director, Prokura, shareholder, liquidator, ...).

Identity
    ``id`` is the interface's id (a company id for a legal person, a UUID for an individual). Where the
    interface gives none, ``id`` holds a *derived* key (``id_derived`` is True) by the one rule of
    :mod:`regkit.frames.identity`: ``person:<name key>|<date of birth>`` for a natural person (name folded —
    case, umlauts, diacritics, punctuation, titles such as ``Dr.``, the first/last split — see there; the
    company id is added where the date of birth is unknown), ``legal:<name>|<city>|<country>`` for a legal
    person. The graph's node ids (:func:`regkit.graph.from_companies`) follow the same rule, so ``id`` joins
    them; ``person_city=True`` adds the city to natural persons' derived keys in both.

Activity
    A role is active on date ``d`` when ``start_date <= d`` and (``end_date`` is null or ``d < end_date``): the
    end date is the first day out of office, like ``valid_to`` in the histories. A role whose start is on or after
    its end (``start_date == end_date``, as the OffeneRegister import writes for an officer of unknown start, or
    ``start_date > end_date``) lasts no day and is active on none. Without a date, ``is_active`` means "no end date
    recorded". The rule is :mod:`regkit.frames.mandates`, the one the graph uses too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import ENTITY_TYPES, REPRESENTATION_ROLES
from regkit.schema.derived import is_derived

from ._columns import BOOL, DATE, STR, Cat, build_frame, iso_date
from ._input import required
from .histories import marked_companies
from .identity import person_key
from .mandates import mandate_active

__all__ = ["SPEC", "is_active_on", "representatives", "role_columns", "role_entries"]

SPEC = [
    ("company_id", STR),
    ("id", STR),
    ("id_derived", BOOL),
    ("name", STR),
    ("type", Cat(ENTITY_TYPES)),
    ("role", Cat(REPRESENTATION_ROLES)),
    ("start_date", DATE),
    ("start_date_derived", BOOL),
    ("end_date", DATE),
    ("is_active", BOOL),
    ("authority", STR),
    ("first_name", STR),
    ("last_name", STR),
    ("date_of_birth", DATE),
    ("city", STR),
    ("country", STR),
    ("legal_name", STR),
]


def is_active_on(entry: Mapping[str, Any], day: str | None) -> bool:
    """Whether a role is active on ``day`` (``YYYY-MM-DD``), or has no end date when ``day`` is None
    (:func:`regkit.frames.mandates.mandate_active`: a role of no day is never active)."""
    return mandate_active(entry["start_date"], entry["end_date"], day)


_EMPTY: Mapping[str, Any] = {}


def role_columns(
    cids: list[str],
    entries: list[Mapping[str, Any]],
    day: str | None,
    use_city: bool = False,
    derived_starts: list[bool] | None = None,
) -> dict[str, list]:
    """The columns of :data:`SPEC` for a flat list of representation entries and their companies' ids
    (``derived_starts``: whether each entry's start date is derived, :func:`role_entries`; default none is)."""
    ids = [e["id"] for e in entries]
    derived = [not (isinstance(i, str) and i) for i in ids]
    for k, derived_id in enumerate(derived):
        if derived_id:
            ids[k] = person_key(entries[k], cids[k], use_city=use_city)
    natural = [e.get("natural_person") or _EMPTY for e in entries]
    legal = [e.get("legal_person") or _EMPTY for e in entries]
    return {
        "company_id": cids,
        "id": ids,
        "id_derived": derived,
        "name": [e["name"] for e in entries],
        "type": [e["type"] for e in entries],
        "role": [e["role"] for e in entries],
        "start_date": [e["start_date"] for e in entries],
        "start_date_derived": derived_starts if derived_starts is not None else [False] * len(entries),
        "end_date": [e["end_date"] for e in entries],
        "is_active": [is_active_on(e, day) for e in entries],
        "authority": [e["authority"] for e in entries],
        "first_name": [n.get("first_name") for n in natural],
        "last_name": [n.get("last_name") for n in natural],
        "date_of_birth": [n.get("date_of_birth") for n in natural],
        "city": [n.get("city") or lp.get("city") for n, lp in zip(natural, legal)],
        "country": [lp.get("country") for lp in legal],
        "legal_name": [lp.get("name") for lp in legal],
    }


def role_entries(companies: Any) -> tuple[list[str], list[Mapping[str, Any]], list[bool]]:
    """Company ids and representation entries of all companies, flat, in order, and whether each entry's start
    date is derived (a company record's marks, :func:`regkit.frames.histories.derived_marks`)."""
    cids: list[str] = []
    entries: list[Mapping[str, Any]] = []
    derived: list[bool] = []
    check = required("company")
    with check:
        for company, marks in marked_companies(companies):
            check.company = cid = company["id"]
            roles = company["representation"]
            cids.extend([cid] * len(roles))
            entries.extend(roles)
            derived.extend(is_derived(marks, f"representation[{index}].start_date") for index in range(len(roles)))
    return cids, entries, derived


def representatives(company: Any, active_on: Any = None, *, person_city: bool = False) -> pd.DataFrame:
    """One row per role held, in the order of the record's ``representation``.

    Parameters
    ----------
    company : record, dict, or many of them
        A company or an iterable / mapping of companies.
    active_on : date-like, optional
        Compute ``is_active`` for this date (``start_date <= active_on < end_date``; a role whose start is on
        or after its end is active on no date); default: active means no end date recorded.  Every role is listed either way (:func:`~regkit.frames.as_of` keeps only the
        roles of a date).  A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO ``"2024-02-01"`` or German
        ``"01.02.2024"`` (day first); anything else is a ``ValidationError``.
    person_city : bool, default False
        Add the city to the derived key of a natural person without id (a tie-breaker between namesakes
        born on the same day; pass the same to :func:`regkit.graph.from_companies` to join its nodes).

    Returns
    -------
    pandas.DataFrame
        ==================  ==============  ============================================================
        company_id          str             the company represented
        id                  str             the interface's id, or a derived key (see module docstring);
                                            equals the person's node id in :func:`regkit.graph.from_companies`
        id_derived          bool            ``id`` was derived because the interface gave none
        name                str
        type                category        natural_person / legal_person
        role                category        DIRECTOR, PROKURA, SHAREHOLDER, ... (the interface's enum)
        start_date          datetime64[us]
        start_date_derived  bool            the start date is derived, not the register's (an officer without
                                            one in a world imported from OffeneRegister: the local register
                                            says so in ``X-Regkit-Derived``); False for the live service
        end_date            datetime64[us]  NaT: no end recorded (end dates are never derived)
        is_active           bool            see ``active_on``
        authority           str             the individual authority as published (NaN: none recorded)
        first_name          str             natural persons (NaN otherwise or when null)
        last_name           str             natural persons
        date_of_birth       datetime64[us]  natural persons
        city                str             natural person's city, or the legal person's seat
        country             str             legal persons: ISO 3166-1 alpha-2
        legal_name          str             legal persons: ``legal_person.name``
        ==================  ==============  ============================================================

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
    >>> representatives(company).loc[0, "id"]  # no date of birth: a key within this company
    'person:eva muster|@DE-HRB-B1234-1'
    """
    day = None if active_on is None else iso_date(active_on, "active_on")
    cids, entries, derived_starts = role_entries(company)
    with required("a representation entry"):
        columns = role_columns(cids, entries, day, use_city=person_city, derived_starts=derived_starts)
    return build_frame(columns, SPEC)
