"""Persons: person search results, one row per person, and the management positions they hold and held."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import REPRESENTATION_ROLES

from ._columns import BOOL, DATE, INT, INT64, STR, Cat, build_frame, rows_to_columns
from ._input import RECORD_HINT, as_dict, is_collection, required, wrong_kind
from .insolvency import result_list

__all__ = ["person_search_results", "persons", "management_positions"]

_RESULT_SPEC = [("id", STR), ("name", STR), ("city", STR), ("date_of_birth", DATE), ("active", BOOL)]
_PERSON_SPEC = [
    ("id", STR),
    ("first_name", STR),
    ("last_name", STR),
    ("city", STR),
    ("date_of_birth", DATE),
    ("age", INT),
    ("positions", INT64),
    ("current_positions", INT64),
]
_POSITION_SPEC = [
    ("person_id", STR),
    ("first_name", STR),
    ("last_name", STR),
    ("company_id", STR),
    ("company_name", STR),
    ("role", Cat(REPRESENTATION_ROLES)),
    ("start_date", DATE),
    ("end_date", DATE),
    ("is_current", BOOL),
]


def _person_list(person: Any) -> list[Mapping[str, Any]]:
    if isinstance(getattr(person, "raw", person), Mapping):
        return [as_dict(person)]
    if is_collection(person):
        return [as_dict(item) for item in person if item is not None]
    raise wrong_kind("a person (record or dict) or several", person, f"{RECORD_HINT}: client.get_person(person_id)")


def person_search_results(results: Any) -> pd.DataFrame:
    """Person search results as a typed frame, one row per result in the order given.

    Parameters
    ----------
    results : page, pages, or results
        A ``PersonSearchPage`` (or its dict), ``PersonSearchResults``, a list of pages, or an iterable of
        result dicts such as ``client.iter_persons(...)``.

    Returns
    -------
    pandas.DataFrame
        ===============  ==============  ===================================================
        id               str             the person's UUID (``client.get_person`` takes it)
        name             str
        city             str             NaN where null
        date_of_birth    datetime64[us]
        active           bool            holds at least one current position
        ===============  ==============  ===================================================

    Examples
    --------
    >>> person_search_results({"results": [{"id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7", "name": "Ida Roth",
    ...     "city": "Kassel", "date_of_birth": "1970-05-04", "active": True}]})[["name", "date_of_birth", "active"]]
           name date_of_birth  active
    0  Ida Roth    1970-05-04    True
    """
    rows = []
    with required("a person search result"):
        for r in result_list(results):
            rows.append((r["id"], r["name"], r.get("city"), r["date_of_birth"], r["active"]))
    return build_frame(rows_to_columns(rows, _RESULT_SPEC), _RESULT_SPEC)


def persons(person: Any) -> pd.DataFrame:
    """One row per person (``client.get_person(uuid)``), their positions counted, not listed.

    Parameters
    ----------
    person : record, dict, or many of them
        ``PersonRecord`` or PersonV1 dicts.

    Returns
    -------
    pandas.DataFrame
        ==================  ==============  ==============================================
        id                  str             the person's UUID
        first_name          str
        last_name           str
        city                str
        date_of_birth       datetime64[us]  NaT where unknown
        age                 Int64           on the register's current date; <NA> if unknown
        positions           int64           management positions, current and past
        current_positions   int64           those without an ``end_date``
        ==================  ==============  ==============================================

    Examples
    --------
    >>> persons([]).shape
    (0, 8)
    """
    rows = []
    with required("a person") as context:
        for p in _person_list(person):
            context.company = p["id"]
            held = p["management_positions"]
            rows.append(
                (
                    p["id"],
                    p["first_name"],
                    p["last_name"],
                    p["city"],
                    p.get("date_of_birth"),
                    p.get("age"),
                    len(held),
                    sum(1 for h in held if h.get("end_date") is None),
                )
            )
    return build_frame(rows_to_columns(rows, _PERSON_SPEC), _PERSON_SPEC)


def management_positions(person: Any) -> pd.DataFrame:
    """The management positions of one or more persons, current and past, one row per position.

    Parameters
    ----------
    person : record, dict, or many of them
        ``PersonRecord`` or PersonV1 dicts.

    Returns
    -------
    pandas.DataFrame
        Per person in input order, the positions in the order the interface lists them:

        ===============  ==============  ================================================================
        person_id        str             the person's UUID
        first_name       str
        last_name        str
        company_id       str             the company (the position's ``register_id``)
        company_name     str
        role             category        RepresentationRole (never ``SHAREHOLDER``: see ``holdings``)
        start_date       datetime64[us]
        end_date         datetime64[us]  NaT for a current position
        is_current       bool            no ``end_date``
        ===============  ==============  ================================================================

    Examples
    --------
    >>> frame = management_positions({"id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7", "first_name": "Ida",
    ...     "last_name": "Roth", "city": "Kassel", "date_of_birth": None, "age": None, "management_positions": [
    ...     {"company_name": "Roth GmbH", "register_id": "DE-HRB-B1234-1", "role": "DIRECTOR",
    ...      "start_date": "2019-04-01", "end_date": None}]})
    >>> frame[["last_name", "company_id", "role", "start_date", "is_current"]]
      last_name      company_id      role start_date  is_current
    0      Roth  DE-HRB-B1234-1  DIRECTOR 2019-04-01        True
    """
    rows = []
    with required("a person") as context:
        for p in _person_list(person):
            context.company = p["id"]
            for m in p["management_positions"]:
                end = m.get("end_date")
                rows.append(
                    (
                        p["id"],
                        p["first_name"],
                        p["last_name"],
                        m["register_id"],
                        m["company_name"],
                        m["role"],
                        m["start_date"],
                        end,
                        end is None,
                    )
                )
    return build_frame(rows_to_columns(rows, _POSITION_SPEC), _POSITION_SPEC)
