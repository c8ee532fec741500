"""Ownership over time and beneficial owners: the ownership-history and UBO answers as frames.

``GET /v1/company/{id}/owners/historical`` lists each owner a company's shareholder lists ever named, with one
entry per list (``document_id``, ``document_date``, nominal shares in cents, percentage). :func:`ownership_history`
turns it into one row per owner and list — the cap table of every list date, the frame
``regkit.frames.shareholder_list`` reads back from the list's PDF. ``GET /v1/company/{id}/ubo`` names the
beneficial owners; :func:`ubos` gives one row per owner. Both give shares as every regkit frame does: ``share``,
a **fraction** in [0, 1] (the answer's percentage / 100, as :func:`regkit.frames.share_fraction` puts it, so an
owner's ``share`` here equals theirs in :func:`regkit.frames.owners`); beside it ``percentage`` in **percent**,
as the answers and the lists print them (``33.3333`` is a third). Nominal amounts are EUR.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ._columns import CENTS_EUR, DATE, FLOAT, STR, Cat, build_frame, rows_to_columns
from ._input import as_dict
from .ownership import share_fraction

__all__ = ["OWNER_ENTITY_TYPES", "OWNER_STATUSES", "ownership_history", "ubos"]

OWNER_ENTITY_TYPES = (
    "natural_person",
    "german_company",
    "foreign_company",
    "german_government_entity",
    "german_foundation",
    "german_multiple_shareholder",
)
"""``entity_type`` of an owner in the ownership history (the live service's enum)."""

OWNER_STATUSES = ("active", "removed")
"""``status`` of an owner in the ownership history: ``active`` exactly for the owners of the latest list."""

_HISTORY_SPEC = [
    ("company_id", STR),
    ("document_id", STR),
    ("document_date", DATE),
    ("owner_id", STR),
    ("owner_name", STR),
    ("entity_type", Cat(OWNER_ENTITY_TYPES)),
    ("country", STR),
    ("status", Cat(OWNER_STATUSES)),
    ("first_appearance", DATE),
    ("last_appearance", DATE),
    ("nominal_share", CENTS_EUR),
    ("share", FLOAT),
    ("percentage", FLOAT),
]

_UBO_SPEC = [
    ("company_id", STR),
    ("ubo_id", STR),
    ("name", STR),
    ("holder_type", Cat(("natural_person", "legal_person"))),
    ("date_of_birth", DATE),
    ("city", STR),
    ("country", STR),
    ("share", FLOAT),
    ("max_share", FLOAT),
    ("percentage", FLOAT),
    ("max_percentage", FLOAT),
    ("is_fictitious", "bool"),
]


def _day(value: Any) -> str | None:
    return None if value is None else str(value)[:10]


def _answer(answer: Any, what: str, member: str) -> Mapping[str, Any]:
    raw = as_dict(answer)
    if not isinstance(raw.get(member), list):
        raise TypeError(f"expected {what} with a list {member!r}, got keys {sorted(raw)[:8]}")
    return raw


def ownership_history(answer: Any, company_id: str | None = None) -> pd.DataFrame:
    """One row per owner and shareholder list of an ownership-history answer.

    Parameters
    ----------
    answer : record or dict
        ``client.get_ownership_history(id)`` or its JSON (``{"owners": [...]}``).
    company_id : str, optional
        The company the answer is about (the answer does not name it); the ``company_id`` column. Default: the
        record's ``company_id`` (a record of ``client.get_ownership_history`` knows it), else NaN.

    Returns
    -------
    pandas.DataFrame
        Sorted by ``document_date``, then by ``percentage`` (largest first) and ``owner_name``:

        ================  ==============  ================================================================
        company_id        str             as given; NaN without
        document_id       str             the shareholder list (a ``shareholder_list`` document's id)
        document_date     datetime64[us]  the list's date
        owner_id          str             company id or person UUID; NaN where the answer has none
        owner_name        str             name or firm
        entity_type       category        :data:`OWNER_ENTITY_TYPES`
        country           str             NaN where unknown
        status            category        ``active`` (on the latest list) / ``removed``
        first_appearance  datetime64[us]  the first list naming the owner
        last_appearance   datetime64[us]  NaT while active
        nominal_share     Float64         EUR (the answer's cents / 100)
        share             Float64         **fraction** of the capital on this list, in [0, 1]:
                                          ``percentage_shares`` / 100; <NA> where the answer has none
        percentage        Float64         percent of the capital on this list (``percentage_shares``)
        ================  ==============  ================================================================

        At each ``document_date`` the shares add up to 1 and the percentages to 100 (± rounding).
        ``attrs["company_names"]``: ``{company_id: name}`` when the record knows its company's name (from the
        client's cache), else empty.

    Examples
    --------
    >>> answer = {"owners": [{"id": "p-1", "name": "Ida Roth", "entity_type": "natural_person",
    ...     "country": "DE", "status": "active", "first_appearance": "2019-04-01", "last_appearance": None,
    ...     "ownership_history": [{"document_id": "d-1", "document_date": "2019-04-01",
    ...                            "nominal_shares": 2500000, "percentage_shares": 100.0}]}]}
    >>> ownership_history(answer, "DE-HRB-B1234-1")[["owner_name", "document_date", "nominal_share", "share"]]
      owner_name document_date  nominal_share  share
    0   Ida Roth    2019-04-01        25000.0    1.0
    """
    raw = _answer(answer, "an ownership-history answer", "owners")
    if company_id is None:  # a record of client.get_ownership_history knows the company it was asked for
        company_id = getattr(answer, "company_id", None) or None
    rows = []
    for owner in raw["owners"]:
        for entry in owner.get("ownership_history") or ():
            rows.append(
                (
                    company_id,
                    entry["document_id"],
                    _day(entry["document_date"]),
                    owner.get("id") or None,
                    owner["name"],
                    owner.get("entity_type"),
                    owner.get("country"),
                    owner.get("status"),
                    _day(owner.get("first_appearance")),
                    _day(owner.get("last_appearance")),
                    entry["nominal_shares"],
                    share_fraction(entry["percentage_shares"], 100),
                    entry["percentage_shares"],
                )
            )
    rows.sort(key=lambda r: (r[2], -float(r[12]), r[4], r[3] or ""))
    frame = build_frame(rows_to_columns(rows, _HISTORY_SPEC), _HISTORY_SPEC)
    name = getattr(answer, "company_name", None)
    frame.attrs["company_names"] = {str(company_id): name} if company_id and isinstance(name, str) and name else {}
    return frame


def ubos(answer: Any) -> pd.DataFrame:
    """One row per beneficial owner of a UBO answer (``GET /v1/company/{id}/ubo``).

    Parameters
    ----------
    answer : record or dict
        ``client.get_ubos(id)`` or its JSON (``{"company_id", "ubos": [...]}``).

    Returns
    -------
    pandas.DataFrame
        In the answer's order:

        ==============  ==============  ================================================================
        company_id      str             the company
        ubo_id          str             person UUID or company id; NaN where the answer has none
        name            str             as the answer names the owner
        holder_type     category        natural_person / legal_person (NaN where neither is given)
        date_of_birth   datetime64[us]  natural persons, where known
        city            str             of the person or legal person
        country         str             of the person or legal person
        share           Float64         effective share, a **fraction** in [0, 1]: ``percentage_share`` /
                                        100; <NA> where not fixed
        max_share       Float64         the most a partner could hold, a **fraction**:
                                        ``max_percentage_share`` / 100; <NA> otherwise
        percentage      Float64         effective share in percent (``percentage_share``); <NA> where
                                        not fixed
        max_percentage  Float64         the most a partner could hold, in percent; <NA> otherwise
        is_fictitious   bool            no share at all: a legal representative listed because no
                                        person holds more than 25 % (§ 3 (2) sentence 5 GwG)
        ==============  ==============  ================================================================

    Examples
    --------
    >>> ubos({"company_id": "DE-HRB-B1234-1", "ubos": [{"id": "p-1", "name": "Ida Roth",
    ...     "natural_person": {"first_name": "Ida", "last_name": "Roth", "city": "Kassel"},
    ...     "legal_person": None, "percentage_share": 60.0, "max_percentage_share": None}]})[
    ...     ["name", "holder_type", "city", "share", "percentage", "is_fictitious"]]
           name     holder_type    city  share  percentage  is_fictitious
    0  Ida Roth  natural_person  Kassel    0.6        60.0          False
    """
    raw = _answer(answer, "a UBO answer", "ubos")
    rows = []
    for ubo in raw["ubos"]:
        person, legal = ubo.get("natural_person"), ubo.get("legal_person")
        detail = person or legal or {}
        kind = "natural_person" if person else ("legal_person" if legal else None)
        share, most = ubo.get("percentage_share"), ubo.get("max_percentage_share")
        rows.append(
            (
                raw.get("company_id"),
                ubo.get("id") or None,
                ubo["name"],
                kind,
                _day((person or {}).get("date_of_birth")),
                detail.get("city"),
                detail.get("country"),
                share_fraction(share, 100),
                share_fraction(most, 100),
                share,
                most,
                share is None and most is None,
            )
        )
    return build_frame(rows_to_columns(rows, _UBO_SPEC), _UBO_SPEC)
