"""A small, fictional CompanyV1 payload for docstring examples (every member of the interface is set)."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["example_company"]


def _figures(equity: int | None, revenue: int | None, employees: int | None) -> dict[str, Any]:
    return {
        "balance_sheet_total": 250_000_00,
        "net_income": 12_345_67 if revenue else None,
        "revenue": revenue,
        "cash": 40_000_00,
        "equity": equity,
        "real_estate": None,
        "materials": None,
        "pension_provisions": None,
        "salaries": 90_000_00 if revenue else None,
        "taxes": None,
        "liabilities": 150_000_00,
        "capital_reserves": None,
        "employees": employees,
    }


_NAMES = [
    {"name": "Beispiel Werkzeug GmbH", "legal_form": "gmbh", "start_date": "1995-03-14"},
    {"name": "Beispiel Werkzeugbau GmbH", "legal_form": "gmbh", "start_date": "2012-07-01"},
]
_ADDRESSES = [
    {
        "street": "Hauptstraße 1",
        "city": "Kassel",
        "postal_code": "34117",
        "country": "Deutschland",
        "start_date": "1995-03-14",
        "formatted_value": "Hauptstraße 1, 34117 Kassel",
    },
    {
        "street": "Industriestraße 9",
        "city": "Kassel",
        "postal_code": "34123",
        "country": "Deutschland",
        "start_date": "2010-02-01",
        "formatted_value": "Industriestraße 9, 34123 Kassel",
    },
]
_CAPITALS = [
    {"amount": 50000.0, "currency": "DEM", "start_date": "1995-03-14"},
    {"amount": 25600.0, "currency": "EUR", "start_date": "2002-05-06"},
]
_REGISTER = {
    "company_id": "DE-HRB-F1103-99999",
    "register_number": "99999",
    "register_type": "HRB",
    "register_court": "Amtsgericht Kassel",
    "start_date": "1995-03-14",
}
_PURPOSE = {"purpose": "Herstellung von Werkzeugen.", "start_date": "1995-03-14"}
_PERSON = {"city": "Kassel", "first_name": "Eva", "last_name": "Muster", "date_of_birth": "1960-04-01"}
_PARENT = {
    "company_id": "DE-HRB-F1103-88888",
    "name": "Beispiel Holding AG",
    "registration_date": "2015-01-20",
    "agreement_date": "2014-11-30",
}

_COMPANY: dict[str, Any] = {
    "id": "DE-HRB-F1103-99999",
    "register": _REGISTER,
    "registers": [_REGISTER],
    "status": "active",
    "name": _NAMES[-1],
    "names": _NAMES,
    "address": _ADDRESSES[-1],
    "addresses": _ADDRESSES,
    "purpose": _PURPOSE,
    "purposes": [_PURPOSE],
    "capital": _CAPITALS[-1],
    "capitals": _CAPITALS,
    "representation": [
        {
            "id": "0c1f6c9e-8f43-4a4e-9a55-000000000001",
            "name": "Eva Muster",
            "type": "natural_person",
            "role": "DIRECTOR",
            "start_date": "1995-03-14",
            "end_date": "2016-12-31",
            "authority": "sole representation",
            "natural_person": _PERSON,
        },
        {
            "id": None,
            "name": "Max Beispiel",
            "type": "natural_person",
            "role": "DIRECTOR",
            "start_date": "2016-12-31",
            "end_date": None,
            "authority": None,
            "natural_person": {
                "city": "Göttingen",
                "first_name": "Max",
                "last_name": "Beispiel",
                "date_of_birth": "1975-09-09",
            },
        },
        {
            "id": "DE-HRB-F1103-88888",
            "name": "Beispiel Holding AG",
            "type": "legal_person",
            "role": "SHAREHOLDER",
            "start_date": "2015-01-20",
            "end_date": None,
            "authority": None,
            "legal_person": {"name": "Beispiel Holding AG", "city": "Kassel", "country": "DE"},
        },
    ],
    "representation_rule": "Die Gesellschaft wird durch einen Geschäftsführer vertreten.",
    "indicators": [
        {
            "date": "2022-12-31",
            "report_id": "5f0e2d4c-0000-4000-8000-000000002022",
            **_figures(80_000_00, 1_000_000_00, 12),
        },
        {
            "date": "2023-12-31",
            "report_id": "5f0e2d4c-0000-4000-8000-000000002023",
            **_figures(90_000_00, 1_100_000_00, 13),
        },
        {
            "date": "2023-12-31",
            "report_id": "5f0e2d4c-0000-4000-8000-00000002023c",
            **_figures(90_500_00, 1_100_000_00, 13),
        },
    ],
    "legal_form": "gmbh",
    "lei": "5299001EXAMPLE000042",
    "documents": [
        {"id": "doc-1", "type": "articles_of_association", "date": "1995-03-14", "latest": False},
        {"id": "doc-2", "type": "articles_of_association", "date": "2012-07-01", "latest": True},
    ],
    "incorporated_at": "1995-03-14",
    "notarized_at": "1995-02-20",
    "terminated_at": None,
    "merged_into": None,
    "acquisitions": [
        {
            "company_id": "DE-HRB-F1103-77777",
            "name": "Kleinwerkzeug GmbH",
            "registration_date": "2019-08-01",
            "agreement_date": "2019-05-15",
        }
    ],
    "asset_spin_offs": [],
    "profit_transfer_agreement": _PARENT,
    "industry_codes": {"WZ2025": [{"code": "25.73.0"}]},
    "contact": {
        "website_url": "https://www.beispiel-werkzeugbau.example",
        "email": "info@beispiel-werkzeugbau.example",
        "social_media": {},
    },
}


def example_company() -> dict[str, Any]:
    """A fresh copy of a small fictional CompanyV1 payload (no ``insolvencies``; that member is optional).

    Examples
    --------
    >>> example_company()["name"]["name"]
    'Beispiel Werkzeugbau GmbH'
    """
    return copy.deepcopy(_COMPANY)
