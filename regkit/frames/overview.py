"""``companies``: one row per company with its current facts and latest indicators."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import COMPANY_STATUSES, CURRENCIES, LEGAL_FORMS, REGISTER_TYPES

from ._columns import BOOL, CENTS_EUR, DATE, FLOAT, INT, STR, Cat, block_column, build_frame, number_block
from ._input import company_list, required
from .financials import MEASURES
from .money import capital_eur

__all__ = ["SPEC", "companies", "latest_report"]

_NUMBERS = (*MEASURES, "employees")
_NO_REPORT: Mapping[str, Any] = {"date": None, "report_id": None, **{name: None for name in _NUMBERS}}
_EMPTY: Mapping[str, Any] = {}

SPEC = [
    ("company_id", STR),
    ("name", STR),
    ("legal_form", Cat(LEGAL_FORMS)),
    ("status", Cat(COMPANY_STATUSES)),
    ("register_type", Cat(REGISTER_TYPES)),
    ("register_number", STR),
    ("register_court", STR),
    ("street", STR),
    ("postal_code", STR),
    ("city", STR),
    ("country", STR),
    ("capital_amount", FLOAT),
    ("capital_currency", Cat(CURRENCIES)),
    ("capital_eur", FLOAT),
    ("incorporated_at", DATE),
    ("terminated_at", DATE),
    ("wz_codes", STR),
    ("lei", STR),
    ("merged_into", STR),
    ("profit_transfer_to", STR),
    ("has_insolvency", BOOL),
    ("indicators_date", DATE),
    ("report_id", STR),
    *((m, CENTS_EUR) for m in MEASURES),
    ("employees", INT),
]


def latest_report(company: Mapping[str, Any]) -> Mapping[str, Any]:
    """The newest indicators entry (the last one of the newest date), or an all-null stand-in."""
    reports = company["indicators"]
    if not reports:
        return _NO_REPORT
    newest = max(e["date"] for e in reports)
    return [e for e in reports if e["date"] == newest][-1]


def _link_id(link: Mapping[str, Any] | None) -> str | None:
    return None if link is None else link["company_id"]


def _fact_columns(records: list[Mapping[str, Any]]) -> dict[str, list]:
    names = [c["name"] for c in records]
    registers = [c["register"] for c in records]
    addresses = [c["address"] for c in records]
    capitals = [c["capital"] or _EMPTY for c in records]
    amounts = [k.get("amount") for k in capitals]
    currencies = [k.get("currency") for k in capitals]
    return {
        "company_id": [c["id"] for c in records],
        "name": [n["name"] for n in names],
        "legal_form": [c["legal_form"] for c in records],
        "status": [c["status"] for c in records],
        "register_type": [r["register_type"] for r in registers],
        "register_number": [r["register_number"] for r in registers],
        "register_court": [r["register_court"] for r in registers],
        "street": [a.get("street") for a in addresses],
        "postal_code": [a.get("postal_code") for a in addresses],
        "city": [a["city"] for a in addresses],
        "country": [a["country"] for a in addresses],
        "capital_amount": amounts,
        "capital_currency": currencies,
        "capital_eur": list(map(capital_eur, amounts, currencies)),
        "incorporated_at": [c["incorporated_at"] for c in records],
        "terminated_at": [c["terminated_at"] for c in records],
        "wz_codes": [", ".join(e["code"] for e in c["industry_codes"]["WZ2025"]) or None for c in records],
        "lei": [c.get("lei") for c in records],
        "merged_into": [_link_id(c["merged_into"]) for c in records],
        "profit_transfer_to": [_link_id(c["profit_transfer_agreement"]) for c in records],
        "has_insolvency": [bool(c.get("insolvencies")) for c in records],
    }


def companies(companies: Any) -> pd.DataFrame:
    """One row per company: the current facts and the latest indicators.

    Parameters
    ----------
    companies : record, dict, or many of them
        A company, or an iterable (list, ``CompanyBatch``: failed slots are skipped) or mapping of companies.

    Returns
    -------
    pandas.DataFrame
        One row per company, in input order:

        ===================  ==============  ================================================================
        company_id           str
        name                 str             current name
        legal_form           category        the legal-form enum
        status               category        active / inactive / liquidation
        register_type        category        HRB, HRA, PR, GnR, VR (current register)
        register_number      str
        register_court       str
        street               str             current address (NaN where absent)
        postal_code          str
        city                 str
        country              str
        capital_amount       Float64         current capital in its currency (<NA>: none registered)
        capital_currency     category        EUR / DEM / USD
        capital_eur          Float64         EUR; DEM at 1.95583; USD → <NA> (no fixed rate), never 0
        incorporated_at      datetime64[us]
        terminated_at        datetime64[us]  NaT while it exists
        wz_codes             str             the WZ 2025 codes, ``", "``-joined in the record's order
        lei                  str             NaN where the optional ``lei`` is absent
        merged_into          str             id of the company it merged into
        profit_transfer_to   str             id of the Organträger of its profit-transfer agreement
        has_insolvency       bool            the record lists an insolvency proceeding
        indicators_date      datetime64[us]  date of the latest indicators (NaT: none published)
        report_id            str             that report (the latest revision of that date)
        balance_sheet_total  Float64         ... and the other eleven measures, in EUR
        employees            Int64
        ===================  ==============  ================================================================

    Examples
    --------
    >>> from regkit.frames import example_company
    >>> frame = companies(example_company())
    >>> frame[["legal_form", "capital_currency", "capital_eur", "indicators_date", "equity"]]
      legal_form capital_currency  capital_eur indicators_date   equity
    0       gmbh              EUR      25600.0      2023-12-31  90500.0
    """
    records = company_list(companies)
    with required("a company"):
        columns = _fact_columns(records)
        reports = [latest_report(c) for c in records]
    with required("an indicators entry"):
        columns["indicators_date"] = [r["date"] for r in reports]
        columns["report_id"] = [r["report_id"] for r in reports]
        block = number_block(reports, _NUMBERS)
    for j, name in enumerate(_NUMBERS):
        columns[name] = block_column(INT if name == "employees" else CENTS_EUR, block, j, reports, name)
    return build_frame(columns, SPEC)
