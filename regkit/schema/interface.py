"""The interface's fixed vocabulary, shared by the client and the local register.

``openapi.json`` beside this module is the one description of the interface (OpenAPI 3.1.0, interface
version 2.5.0). The constants below are kept as literals so that they read well and import fast; the test
suite checks each of them against the document's enums, so they cannot drift apart.

The client validates with them before it sends a request (and spends credits); the local register validates
with them on receipt. This module imports only the standard library and nothing else from regkit.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from decimal import Decimal
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = [
    "API_VERSION",
    "SCOPE_HEADER",
    "LOCAL_ORIGIN",
    "DEM_PER_EUR",
    "MAX_QUERY_LENGTH",
    "MAX_QUERY_TERMS",
    "MAX_FILTERS",
    "MAX_FILTER_VALUES",
    "MAX_FILTER_TEXT",
    "PAGE_MAX",
    "COMPANY_ID_PATTERN",
    "EXTRACT_ID_PATTERN",
    "CREDENTIAL_NAME_PATTERN",
    "UUID_PATTERN",
    "DEFAULT_CREDENTIAL_NAME",
    "SANDBOX_CREDENTIAL_NAME",
    "MAX_CREDENTIAL_SETS",
    "LEGAL_FORMS",
    "REGISTER_TYPES",
    "COMPANY_STATUSES",
    "DOCUMENT_TYPES",
    "ENTITY_TYPES",
    "REPRESENTATION_ROLES",
    "CURRENCIES",
    "INSOLVENCY_STATUSES",
    "PROCEEDING_KINDS",
    "ADMINISTRATION_KINDS",
    "INSOLVENCY_GROUNDS",
    "DEBTOR_KINDS",
    "EVENT_TYPES",
    "REPORT_TYPES",
    "FILTER_FIELDS",
    "FILTER_MEMBER_KINDS",
    "FILTER_VALUES",
    "FILTER_MEMBERS",
    "PAGE_DEFAULT",
    "PER_PAGE_DEFAULT",
    "PER_PAGE_MIN",
    "PER_PAGE_MAX",
    "MONITOR_ENTITY_TYPES",
    "PREFERENCES",
    "UPDATE_FREQUENCIES",
    "EXTRACT_STATUSES",
    "SOURCE_URL_VALIDITY_SECONDS",
    "DOCUMENT_CATEGORIES",
    "DOCUMENT_URL_VALIDITY_SECONDS",
    "PRICES",
    "load_openapi",
]

#: The non-secret request header regkit's client stores with a user-scoped answer (a Transparenzregister extract:
#: it belongs to one API user). The cache keys such answers by it and the Parquet export leaves them out.
SCOPE_HEADER = "X-Regkit-Scope"

API_VERSION = "2.5.0"
"""``info.version`` of the interface description."""

LOCAL_ORIGIN = "http://local.regkit"
"""The fixed pseudo-origin at which the in-process local register is mounted: the client sends there,
the register answers there, and cache keys stay the same from run to run."""

DEM_PER_EUR = Decimal("1.95583")
"""Deutsche Mark per euro: the irrevocably fixed conversion rate (Council Regulation (EC) No 2866/98).
Amounts in ``DEM`` in the register convert with it."""


def _anchored(pattern: str) -> re.Pattern[str]:
    """Compile a document pattern (``^...$``) so that ``$`` cannot match before a trailing newline."""
    return re.compile(pattern.removesuffix("$") + r"\Z")


COMPANY_ID_PATTERN = _anchored(r"^DE-(HRB|HRA|PR|GnR|VR)-[A-Z][0-9]{4}-[0-9]+[A-Z]{0,2}$")
"""A well-formed company identifier; anything else is a 400 (no credits spent).

The document's pattern with ``$`` replaced by ``\\Z``: Python's ``$`` would accept ``"DE-HRB-F1103-1\\n"``.
``.match``, ``.fullmatch`` and ``.search`` all behave the same on it.
"""

EXTRACT_ID_PATTERN = _anchored(r"^tre_[0-9]+$")
"""A Transparenzregister extract id (the polling handle)."""

UUID_PATTERN = _anchored(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
"""A UUID as the interface uses it: insolvency proceedings (``insolvency_id``) and persons (``person_id``,
a natural person's ``representation[].id``, the ``entity_id`` of a person monitor)."""

CREDENTIAL_NAME_PATTERN = _anchored(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""A credential set name (``X-Credential-Name`` header and the ``name`` of a stored set)."""

DEFAULT_CREDENTIAL_NAME = "default"
"""Credential name used when none is given."""

SANDBOX_CREDENTIAL_NAME = "sandbox"
"""Reserved credential name selecting the built-in test mode; it cannot be stored."""

MAX_CREDENTIAL_SETS = 10
"""Stored credential sets per API user; the 11th new name is a 409."""

LEGAL_FORMS = (
    "ag",
    "eg",
    "ek",
    "ev",
    "ewiv",
    "foreign",
    "gbr",
    "ggmbh",
    "gmbh",
    "kg",
    "kgaa",
    "unknown",
    "llp",
    "municipal",
    "ohg",
    "se",
    "ug",
)
REGISTER_TYPES = ("HRB", "HRA", "PR", "GnR", "VR")
COMPANY_STATUSES = ("active", "inactive", "liquidation")
DOCUMENT_TYPES = ("articles_of_association", "sample_protocol", "shareholder_list")
ENTITY_TYPES = ("natural_person", "legal_person")
REPRESENTATION_ROLES = (
    "DIRECTOR",
    "PROKURA",
    "SHAREHOLDER",
    "OWNER",
    "PARTNER",
    "PERSONAL_LIABLE_DIRECTOR",
    "LIQUIDATOR",
    "OTHER",
)
CURRENCIES = ("EUR", "DEM", "USD")

INSOLVENCY_STATUSES = (
    "preliminary",
    "opened",
    "rejected_no_assets",
    "mass_insufficient",
    "plan_supervised",
    "lifted",
    "discontinued",
    "discharge_pending",
    "discharge_granted",
    "discharge_denied",
    "discharge_revoked",
    "unknown",
)
PROCEEDING_KINDS = ("regular_insolvency", "consumer_insolvency")
ADMINISTRATION_KINDS = ("external_administration", "self_administration", "protective_shield")
INSOLVENCY_GROUNDS = ("illiquidity", "over_indebtedness", "imminent_illiquidity")
DEBTOR_KINDS = ("legal_person", "natural_person")
EVENT_TYPES = (
    "preliminary_measures",
    "preliminary_measures_lifted",
    "proceedings_opened",
    "rejected_insufficient_assets",
    "in_proceeding_decision",
    "mass_insufficiency_notified",
    "distribution_announced",
    "distribution_record_filed",
    "final_distribution_announced",
    "proceedings_lifted",
    "proceedings_discontinued",
    "proceedings_terminated",
    "post_termination_decision",
    "subsequent_distribution_ordered",
    "discharge_pending",
    "discharge_granted",
    "discharge_denied",
    "discharge_revoked",
    "plan_confirmed",
    "plan_supervision_ordered",
    "plan_supervision_terminated",
    "other",
)
REPORT_TYPES = (
    "security_measures",
    "rejection_for_insufficiency_of_assets",
    "openings",
    "decisions_in_proceedings",
    "misc",
    "decisions_after_termination",
    "distribution_lists",
    "decisions_in_discharge_proceedings",
    "supervised_insolvency_plans",
)

FILTER_FIELDS = (
    "current_status",
    "proceeding_kind",
    "administration_kind",
    "insolvency_grounds",
    "has_open_insolvency",
    "debtor_kind",
    "debtor_legal_form",
    "court",
    "city",
    "opened_at",
    "closed_at",
    "last_event_at",
    "claims_filing_deadline",
    "company_id",
    "person_id",
)
"""The 15 filterable attributes of the insolvency search, in the interface's order."""

FILTER_MEMBERS = ("value", "values", "keywords", "min", "max")
"""Members a filter may carry besides ``field``."""

_ENUM_LIKE = frozenset({"value", "values"})
_TEXT = frozenset({"value", "values", "keywords"})
_DATE = frozenset({"value", "min", "max"})
FILTER_MEMBER_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "current_status": _ENUM_LIKE,
        "proceeding_kind": _ENUM_LIKE,
        "administration_kind": _ENUM_LIKE,
        "insolvency_grounds": _ENUM_LIKE,
        "has_open_insolvency": frozenset({"value"}),
        "debtor_kind": _ENUM_LIKE,
        "debtor_legal_form": _ENUM_LIKE,
        "court": _TEXT,
        "city": _TEXT,
        "opened_at": _DATE,
        "closed_at": _DATE,
        "last_event_at": _DATE,
        "claims_filing_deadline": _DATE,
        "company_id": _ENUM_LIKE,
        "person_id": _ENUM_LIKE,
    }
)
"""For each filter field, the members that fit it.

A filter carries ``field`` and exactly one way of matching: ``value``, ``values``, ``keywords``, or a range of
``min`` and/or ``max`` (inclusive, dates ``YYYY-MM-DD``). Anything else is a 400.
"""

FILTER_VALUES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "current_status": INSOLVENCY_STATUSES,
        "proceeding_kind": PROCEEDING_KINDS,
        "administration_kind": ADMINISTRATION_KINDS,
        "insolvency_grounds": INSOLVENCY_GROUNDS,
        "has_open_insolvency": ("true", "false"),
        "debtor_kind": DEBTOR_KINDS,
        "debtor_legal_form": LEGAL_FORMS,
    }
)
"""Allowed ``value``/``values`` for the enum-like filter fields (others take any non-empty string or date)."""

PAGE_DEFAULT = 1
PER_PAGE_DEFAULT = 10
PER_PAGE_MIN = 1
PER_PAGE_MAX = 100

# Limits of one search: insolvency, company and person (ours: they bound a search's work, and keep every search
# well under a second; the OpenAPI document states them too, and both the register and the client enforce them).
# The query's are well above the longest real company names: of 267,477 current and former names of 200,000
# OffeneRegister companies, the longest has 69 search terms and 528 characters (one in a thousand has more than
# 19 terms or 151 characters), and a full legal name must find its company. A search term costs a vocabulary lookup
# and a bitmap or an FTS5 phrase, and a query checks at most 10 terms in sequence (regkit.local.search.query):
# benchmarks/bench_company_search.py times full legal names and the worst queries these limits allow.
#: Longest free text, in characters.
MAX_QUERY_LENGTH = 1024
#: Most search terms (runs of letters or digits: ``12 IN 345/24`` has four) in the free text.
MAX_QUERY_TERMS = 128
#: Most filters in one search.
MAX_FILTERS = 32
#: Most entries of one filter's ``values`` or ``keywords``.
MAX_FILTER_VALUES = 100
#: Longest string in a filter (``value``, each of ``values`` and ``keywords``, ``min``, ``max``), in characters.
MAX_FILTER_TEXT = 256
#: Highest page number: the largest integer every JSON reader keeps exactly (2**53 - 1).
PAGE_MAX = 2**53 - 1

MONITOR_ENTITY_TYPES = ("company", "person")
PREFERENCES = (
    "basic",
    "representation",
    "financials",
    "documents",
    "ownership",
    "holdings",
    "management_positions",
    "insolvencies",
)
"""Data categories a monitor can watch."""
UPDATE_FREQUENCIES = ("daily", "weekly")
EXTRACT_STATUSES = ("processing", "completed", "failed")

SOURCE_URL_VALIDITY_SECONDS = 30 * 60
"""How long a presigned ``sources[].document_url`` stays valid."""

# -- documents (issue 23, slice D) ---------------------------------------------------------------------------
DOCUMENT_CATEGORIES = (
    "current_printout",
    "chronological_printout",
    "historical_printout",
    "structured_information",
    "shareholder_list",
    "articles_of_association",
)
"""What ``GET /v1/document?company_id=…&document_category=…`` fetches from the register now: the printouts AD,
CD and HD, the structured information SI (XML), the latest shareholder list and the latest articles."""
DOCUMENT_URL_VALIDITY_SECONDS = 15 * 60
"""How long the ``url`` of a ``/v1/document`` answer (listed or fetched now) stays valid."""

PRICES: Mapping[str, int] = MappingProxyType(
    {
        "company": 10,
        "company_realtime": 20,
        "insolvency_search": 10,
        "insolvency_detail": 10,
        "company_search": 10,
        "autocomplete": 0,
        "owners": 10,
        "owners_realtime": 20,
        "holdings": 10,
        "person_search": 10,
        "person": 10,
        "person_holdings": 10,
        "extract_production": 50,
        "extract_sandbox": 0,
        "extract_poll": 0,
        "credentials_store": 0,
        "monitor_weekly": 25,
        "monitor_daily": 50,
        "monitor_list": 0,
        "monitor_delete": 0,
        "credits": 0,
        "document_download": 0,
        "openapi": 0,
        # documents (issue 23, slice D)
        "document": 0,
        "document_realtime": 20,
        "owners_historical": 10,
        "ubos": 10,
        "financials": 10,
        "financial_report_download": 0,
        "contact": 10,
        "website_lookup": 10,
    }
)
"""Credits per call, by price key; each operation names its keys in ``x-regkit-credits``.

A call that fails (any non-2xx) and a cache hit cost 0.
"""


@functools.lru_cache(maxsize=1)
def load_openapi() -> dict[str, Any]:
    """Return the OpenAPI 3.1 description of the interface shipped with the package.

    Returns
    -------
    dict
        The parsed ``openapi.json``. The same object is returned on every call: treat it as read-only
        (``copy.deepcopy`` it before changing anything).

    Examples
    --------
    >>> doc = load_openapi()
    >>> doc["openapi"], doc["info"]["version"]
    ('3.1.0', '2.5.0')
    """
    text = resources.files(__package__).joinpath("openapi.json").read_text(encoding="utf-8")
    return json.loads(text)
