"""Who holds shares in whom: a company's owners and a company's or person's holdings, on one share scale.

The interface gives shares on two scales: an owner's ``percentage_share`` is a **percentage** (``5.36`` means
5.36 %), a holding's ``percentage_share`` a **fraction** (``0.5`` means 50 %). Both frames here have one column
``share``, a **fraction in [0, 1]** (owners' percentages divided by 100), rounded to 12 decimal places so that
the same shareholding seen from either side has the same value; ``nominal_share`` stays in EUR. Their first
eleven columns are the same (:data:`OWNERSHIP_COLUMNS`), so ``pd.concat([owners(o), holdings(h)])`` is one
list of ownership edges: ``holder_id`` holds ``share`` of ``company_id``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from regkit.errors import ArgumentError
from regkit.schema import ENTITY_TYPES

from ._columns import BOOL, DATE, FLOAT, STR, Cat, build_frame, rows_to_columns
from ._input import as_dict, is_collection, required, wrong_kind

__all__ = ["OWNERSHIP_COLUMNS", "RELATION_TYPES", "owners", "holdings", "share_fraction"]

RELATION_TYPES = ("shareholder", "stockholder", "limited_partner", "general_partner")
"""``relation_type`` of owners and holdings (the interface's CompanyRelationType)."""

_OWNERSHIP_SPEC = [
    ("company_id", STR),
    ("company_name", STR),
    ("holder_id", STR),
    ("holder_name", STR),
    ("holder_type", Cat(ENTITY_TYPES)),
    ("relation_type", Cat(RELATION_TYPES)),
    ("share", FLOAT),
    ("nominal_share", FLOAT),
    ("start", DATE),
    ("end", DATE),
    ("is_current", BOOL),
]
OWNERSHIP_COLUMNS = tuple(name for name, _ in _OWNERSHIP_SPEC)
"""The columns :func:`owners` and :func:`holdings` share, in order."""

_OWNERS_SPEC = [
    *_OWNERSHIP_SPEC,
    ("holder_city", STR),
    ("holder_country", STR),
    ("holder_date_of_birth", DATE),
    ("best_available", BOOL),
]
_EMPTY: Mapping[str, Any] = {}


def share_fraction(value: float | None, scale: float) -> float | None:
    """A share on the interface's ``scale`` (100 for percentages, 1 for fractions) as a fraction in [0, 1],
    rounded to 12 decimal places; ``None`` stays ``None``.

    Examples
    --------
    >>> share_fraction(5.36, 100), share_fraction(0.5, 1), share_fraction(None, 100)
    (0.0536, 0.5, None)

    Raises
    ------
    regkit.errors.ArgumentError
        ``value`` is not a number (a frame, a word): the message shows what was given.
    """
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        given = repr(value[:40]) if isinstance(value, str) else f"a {type(value).__name__}"
        raise ArgumentError(
            f"share_fraction needs one share as a number (or None), not {given}",
            suggestion="pass the number the answer gives (5.36 for a percentage with scale=100, 0.0536 for a "
            "fraction with scale=1); for a column, frame['share'] is already a fraction",
        ) from None
    return round(number / scale, 12)


def _records(record: Any, what: str, function: str, fetch: str) -> list[Mapping[str, Any]]:
    """The answers ``record`` holds: one answer (a record or dict), or a collection of them (``None`` skipped)."""
    if isinstance(getattr(record, "raw", record), Mapping):
        return [as_dict(record)]
    if is_collection(record):
        return [as_dict(item) for item in record if item is not None]
    raise wrong_kind(
        f"{what} (a record or dict) or several",
        record,
        f"pass {fetch} (or its .raw), or a list of them",
        function=function,
    )


def _known_names(names: Mapping[str, str] | None, pairs: Iterable[tuple[Any, Any]]) -> dict[str, str]:
    """Id → name: what the answers themselves name (``pairs``), then ``names`` on top."""
    if names is not None and not isinstance(names, Mapping):
        raise ArgumentError(
            f"names must be a mapping of id to name, not {type(names).__name__}",
            suggestion="pass a dict such as {'DE-HRB-B1234-1': 'Alpha GmbH'}, or leave names out",
        )
    known = {str(i): str(n) for i, n in pairs if i and n}
    known.update({str(i): str(n) for i, n in (names or _EMPTY).items() if n})
    return known


def owners(record: Any, names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """A company's current owners (``client.get_owners(id)``), one row per owner.

    Parameters
    ----------
    record : record, dict, or many of them
        ``OwnersRecord`` or the owners answer (``{"company_id", "best_available", "owners", "sources"}``).
    names : mapping of str to str, optional
        Company id → name, for ``company_name`` (the owners answer does not name the company it is about).
        ``client.get_owners(id).to_dataframe()`` passes the name when the company's record is in the client's
        cache. Without it, a company is named where one of the answers given names it as an owner.

    Returns
    -------
    pandas.DataFrame
        ======================  ==============  ===============================================================
        company_id              str             the company owned
        company_name            str             from ``names``, else from an answer naming the company as an
                                                owner; NaN when neither does
        holder_id               str             the owner: a company id or a person UUID; NaN where unknown
        holder_name             str             the owner's name
        holder_type             category        natural_person / legal_person
        relation_type           category        shareholder, stockholder, limited_partner, general_partner
        share                   Float64         **fraction** in [0, 1]: ``percentage_share`` / 100; <NA> if null
        nominal_share           Float64         EUR
        start                   datetime64[us]  NaT where unknown
        end                     datetime64[us]  NaT: owners are the current ones
        is_current              bool            True
        holder_city             str             ``natural_person.city`` or ``legal_person.city``
        holder_country          str             of the person or legal person
        holder_date_of_birth    datetime64[us]  natural persons, where known
        best_available          bool            owners known from filed documents (AG, SE, KGaA)
        ======================  ==============  ===============================================================

    Examples
    --------
    >>> answer = {"company_id": "DE-HRB-B1234-1", "best_available": False, "sources": [], "owners": [
    ...     {"id": None, "name": "Ida Roth", "type": "natural_person", "relation_type": "shareholder",
    ...      "nominal_share": 12500.0, "percentage_share": 50.0, "start": "2019-04-01", "legal_person": None,
    ...      "natural_person": {"first_name": "Ida", "last_name": "Roth", "full_name": "Ida Roth",
    ...                         "city": "Kassel", "country": "DE"}}]}
    >>> owners(answer)[["holder_name", "share", "nominal_share", "start", "holder_city"]]
      holder_name  share  nominal_share      start holder_city
    0    Ida Roth    0.5        12500.0 2019-04-01      Kassel
    """
    rows = []
    answers = _records(record, "an owners answer", "owners", "client.get_owners(company_id)")
    with required("an owners answer") as context:
        known = _known_names(names, ((o.get("id"), o.get("name")) for a in answers for o in a["owners"]))
        for answer in answers:
            context.company = answer["company_id"]
            for o in answer["owners"]:
                person = o.get("natural_person") or _EMPTY
                detail = person or o.get("legal_person") or _EMPTY
                rows.append(
                    (
                        answer["company_id"],
                        known.get(answer["company_id"]),
                        o.get("id"),
                        o["name"],
                        o["type"],
                        o["relation_type"],
                        share_fraction(o.get("percentage_share"), 100),
                        o["nominal_share"],
                        o.get("start"),
                        None,
                        True,
                        detail.get("city"),
                        detail.get("country"),
                        person.get("date_of_birth"),
                        bool(answer["best_available"]),
                    )
                )
    return build_frame(rows_to_columns(rows, _OWNERS_SPEC), _OWNERS_SPEC)


def holdings(record: Any, names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The companies a company or a person holds shares in (``client.get_holdings(id)``,
    ``client.get_person_holdings(uuid)``), current and past, one row per holding.

    Parameters
    ----------
    record : record, dict, or many of them
        ``HoldingsRecord`` or the holdings answer (``{"company_id" or "person_id", "holdings"}``).
    names : mapping of str to str, optional
        Holder id (company id or person UUID) → name, for ``holder_name`` (the holdings answer does not name its
        holder). ``client.get_holdings(id).to_dataframe()`` and ``get_person_holdings`` pass the name when the
        holder's record is in the client's cache. Without it, a holder is named where one of the answers given
        lists it as a held company.

    Returns
    -------
    pandas.DataFrame
        ======================  ==============  ===============================================================
        company_id              str             the company held
        company_name            str             its name
        holder_id               str             the holder: the answer's ``company_id`` or ``person_id``
        holder_name             str             from ``names``, else from an answer holding the holder; NaN
                                                when neither names it
        holder_type             category        legal_person (a company's holdings) / natural_person (a person's)
        relation_type           category        shareholder, stockholder, limited_partner, general_partner
        share                   Float64         **fraction** in [0, 1] (the interface's ``percentage_share``,
                                                already a fraction here); <NA> if null
        nominal_share           Float64         EUR
        start                   datetime64[us]  NaT where unknown
        end                     datetime64[us]  when the holding ended; NaT for current holdings
        is_current              bool            no ``end``
        ======================  ==============  ===============================================================

    Examples
    --------
    >>> answer = {"person_id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7", "holdings": [
    ...     {"company_id": "DE-HRB-B1234-1", "name": "Roth GmbH", "relation_type": "shareholder",
    ...      "nominal_share": 12500.0, "percentage_share": 0.5, "start": "2019-04-01", "end": None}]}
    >>> holdings(answer)[["company_name", "holder_type", "share", "is_current"]]
      company_name     holder_type  share  is_current
    0    Roth GmbH  natural_person    0.5        True
    """
    rows = []
    answers = _records(
        record,
        "a holdings answer",
        "holdings",
        "client.get_holdings(company_id) or client.get_person_holdings(person_id)",
    )
    with required("a holdings answer") as context:
        known = _known_names(names, ((h.get("company_id"), h.get("name")) for a in answers for h in a["holdings"]))
        for answer in answers:
            person = "company_id" not in answer
            holder = answer["person_id"] if person else answer["company_id"]
            context.company = holder
            kind = "natural_person" if person else "legal_person"
            for h in answer["holdings"]:
                end = h.get("end")
                rows.append(
                    (
                        h["company_id"],
                        h["name"],
                        holder,
                        known.get(holder),
                        kind,
                        h["relation_type"],
                        share_fraction(h.get("percentage_share"), 1),
                        h["nominal_share"],
                        h.get("start"),
                        end,
                        end is None,
                    )
                )
    return build_frame(rows_to_columns(rows, _OWNERSHIP_SPEC), _OWNERSHIP_SPEC)
