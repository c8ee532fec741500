"""Company search results (a page, every page of a search, or the suggestions of autocomplete) as a frame."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import pandas as pd

from regkit.schema import LEGAL_FORMS, REGISTER_TYPES

from ._columns import BOOL, STR, Cat, build_frame, rows_to_columns
from ._input import required
from .insolvency import result_list

__all__ = ["company_search_results"]

_SPEC = [
    ("company_id", STR),
    ("name", STR),
    ("legal_form", Cat(LEGAL_FORMS)),
    ("register_type", Cat(REGISTER_TYPES)),
    ("register_court", STR),
    ("register_number", STR),
    ("active", BOOL),
    ("country", STR),
    ("purpose", STR),
    ("street", STR),
    ("postal_code", STR),
    ("city", STR),
    ("address_country", STR),
    ("address_extra", STR),
    ("address", STR),
]
_EMPTY: Mapping[str, Any] = {}


def company_search_results(results: Any, holdings_cached: Collection[str] | None = None) -> pd.DataFrame:
    """Company search results as a typed frame, one row per result in the order given.

    Parameters
    ----------
    results : page, pages, or results
        A ``CompanySearchPage`` (or its dict), ``CompanySearchResults``, ``CompanySuggestions``, a list of
        pages, or an iterable of result dicts such as ``client.iter_companies(...)``. Not de-duplicated.
    holdings_cached : collection of str, optional
        The company ids whose holdings a client's cache holds: adds the column ``holdings_cached``. A client's
        search page, results and suggestions pass it (``page.to_dataframe()``): free, read from the cache
        when the search was answered, where the live search has no such member.

    Returns
    -------
    pandas.DataFrame
        ===================  ==========  =====================================================
        company_id           str         the company (``client.get_company`` takes it)
        name                 str         current official name
        legal_form           category    the legal-form enum
        register_type        category    HRB, HRA, PR, GnR, VR
        register_court       str
        register_number      str
        active               bool        status is not ``inactive``
        country              str         ISO 3166-1 alpha-2; NaN where null
        purpose              str         NaN where null
        street, postal_code  str         of the current address; NaN where absent
        city                 str         of the current address
        address_country      str         of the current address (ISO alpha-2)
        address_extra        str         c/o line
        address              str         the whole address on one line (``formatted_value``)
        holdings_cached      bool        only with ``holdings_cached``: the company's holdings are in the
                                         cache, so ``get_holdings`` or a crawl down from it is free
        ===================  ==========  =====================================================

    Examples
    --------
    >>> page = {"results": [{"company_id": "DE-HRB-B1234-1", "name": "Roth GmbH", "legal_form": "gmbh",
    ...     "register_court": "Kassel", "register_number": "1", "register_type": "HRB", "active": True,
    ...     "country": "DE", "purpose": None, "address": {"street": "Hauptstr. 1", "city": "Kassel",
    ...     "postal_code": "34117", "country": "DE", "formatted_value": "Hauptstr. 1, 34117 Kassel"}}],
    ...     "pagination": {"page": 1, "per_page": 10, "total_pages": 1, "total_results": 1}}
    >>> company_search_results(page)[["company_id", "legal_form", "active", "city"]]
           company_id legal_form  active    city
    0  DE-HRB-B1234-1       gmbh    True  Kassel
    """
    rows = []
    with required("a company search result") as context:
        for r in result_list(results):
            context.company = r["company_id"]
            a = r.get("address") or _EMPTY
            rows.append(
                (
                    r["company_id"],
                    r["name"],
                    r["legal_form"],
                    r["register_type"],
                    r["register_court"],
                    r["register_number"],
                    r["active"],
                    r.get("country"),
                    r.get("purpose"),
                    a.get("street"),
                    a.get("postal_code"),
                    a.get("city"),
                    a.get("country"),
                    a.get("extra"),
                    a.get("formatted_value"),
                )
            )
    frame = build_frame(rows_to_columns(rows, _SPEC), _SPEC)
    if holdings_cached is not None:
        if isinstance(holdings_cached, str) or not isinstance(holdings_cached, Collection):
            raise TypeError(f"holdings_cached must be a collection of company ids, not {holdings_cached!r}")
        frame["holdings_cached"] = frame["company_id"].isin(set(holdings_cached)).astype(bool)
    return frame
