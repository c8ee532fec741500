"""The research endpoints' vocabulary: what the company and person searches filter on, and how holders relate.

One definition for both sides: the client checks filters with it before anything is sent
(:mod:`regkit.client.arguments.filter_fields`), and the local register parses search bodies with it
(:mod:`regkit.local.search.company_request`, :mod:`regkit.local.search.person_request`). The fields and members
follow ``research-endpoints.md``: the company search's fields the local register serves, the fields only the
live service serves (a 400 ``unsupported_filter`` there, which costs nothing), and the person search's three.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from .interface import COMPANY_STATUSES, CURRENCIES, LEGAL_FORMS, REGISTER_TYPES

__all__ = [
    "OWNER_RELATION_TYPES",
    "COMPANY_AMOUNT_FIELDS",
    "COMPANY_FLAG_FIELDS",
    "COMPANY_FILTER_FIELDS",
    "COMPANY_FILTER_MEMBER_KINDS",
    "COMPANY_FILTER_VALUES",
    "COMPANY_LIVE_ONLY_FILTER_FIELDS",
    "COMPANY_LIVE_ONLY_MEMBER_KINDS",
    "PERSON_FILTER_MEMBER_KINDS",
    "WZ_CODE_PATTERN",
    "AUTOCOMPLETE_MIN_LENGTH",
    "AUTOCOMPLETE_MAX_LENGTH",
    "AUTOCOMPLETE_LIMIT",
]

#: How an owner relates to a company (owners' and holdings' ``relation_type``).
OWNER_RELATION_TYPES = ("shareholder", "stockholder", "limited_partner", "general_partner")

_ENUM = frozenset({"value", "values"})
_TEXT = frozenset({"value", "values", "keywords"})
_DATE = frozenset({"value", "min", "max"})
_RANGE = frozenset({"min", "max"})
_FLAG = frozenset({"value"})

#: Amount filters of the company search: EUR ranges over the latest reported year.
COMPANY_AMOUNT_FIELDS = ("balance_sheet_total", "revenue", "equity", "net_income", "cash", "liabilities")
#: Boolean filters of the company search (``"true"`` / ``"false"``).
COMPANY_FLAG_FIELDS = ("active", "had_insolvency", "has_open_insolvency", "has_lei")

#: For each company-search field the local register serves (in the interface's order), the members that fit it.
COMPANY_FILTER_MEMBER_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "status": _ENUM,
        "active": _FLAG,
        "legal_form": _ENUM,
        "register_type": _ENUM,
        "register_court": _TEXT,
        "register_number": _ENUM,
        "city": _TEXT,
        "zip": _TEXT,
        "address": _TEXT,
        "purpose": frozenset({"keywords"}),
        "incorporated_at": _DATE,
        "industry_codes": _ENUM,
        "capital_amount": _RANGE,
        "capital_currency": _ENUM,
        **dict.fromkeys(COMPANY_AMOUNT_FIELDS, _RANGE),
        "employees": _RANGE,
        **dict.fromkeys(COMPANY_FLAG_FIELDS[1:], _FLAG),
    }
)
#: The company-search fields the local register serves.
COMPANY_FILTER_FIELDS = tuple(COMPANY_FILTER_MEMBER_KINDS)

#: Allowed ``value``/``values`` of the enum-like company-search fields.
COMPANY_FILTER_VALUES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "status": COMPANY_STATUSES,
        "legal_form": LEGAL_FORMS,
        "register_type": REGISTER_TYPES,
        "capital_currency": CURRENCIES,
        **dict.fromkeys(COMPANY_FLAG_FIELDS, ("true", "false")),
    }
)

_LIVE_AMOUNTS = (
    "real_estate",
    "materials",
    "pension_provisions",
    "salaries",
    "taxes",
    "other_taxes",
    "commission_income",
    "commission_expense",
    "capital_reserves",
    "active_accruals",
    "passive_accruals",
    "fixed_assets",
    "current_assets",
    "receivables",
    "trade_receivables",
    "inventory",
    "provisions",
    "bank_debt",
    "trade_payables",
    "tangible_assets",
    "financial_assets",
    "retained_earnings",
    "profit_carryforward",
    "other_provisions",
    "shareholder_liabilities",
    "operating_depreciation",
    "financial_depreciation",
    "other_operating_income",
    "interest_income",
    "interest_expense",
    "other_liabilities",
    "financial_debt",
    "intangible_assets",
    "other_operating_expenses",
    "affiliated_liabilities",
    "parent_net_income",
    "income_before_tax",
    "income_after_tax",
    "ebit",
    "ebitda",
)

#: Company-search fields only the live service serves, with the members that fit them.
COMPANY_LIVE_ONLY_MEMBER_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        **dict.fromkeys(_LIVE_AMOUNTS, _RANGE),
        "number_of_owners": _RANGE,
        "has_sole_owner": _FLAG,
        "has_representative_owner": _FLAG,
        "is_family_owned": _FLAG,
        "youngest_owner_age": _RANGE,
        "lei": _ENUM,
        "insolvency_stage": _ENUM,
        "insolvency_opened_at": _DATE,
    }
)
#: Company-search fields only the live service serves (the local register answers them with a free 400).
COMPANY_LIVE_ONLY_FILTER_FIELDS = tuple(COMPANY_LIVE_ONLY_MEMBER_KINDS)

#: The person search's fields and the members that fit them.
PERSON_FILTER_MEMBER_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {"date_of_birth": _DATE, "city": _TEXT, "active": _FLAG}
)

#: A WZ 2025 code: a section letter (A–V) or a division, group, class or subclass (``62``, ``62.1``, ``62.10``,
#: ``62.10.1``).
WZ_CODE_PATTERN = re.compile(r"^(?:[A-V]|[0-9]{2}(?:\.[0-9]{1,2}(?:\.[0-9])?)?)\Z")

#: Shortest and longest autocomplete query, in characters (blanks around it not counted).
AUTOCOMPLETE_MIN_LENGTH = 2
AUTOCOMPLETE_MAX_LENGTH = 200
#: Most results of an autocomplete.
AUTOCOMPLETE_LIMIT = 10
