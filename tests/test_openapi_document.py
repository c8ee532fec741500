"""The interface description (``regkit/schema/openapi.json``), its vocabulary, and the conformance helper.

These tests keep the document a valid OpenAPI 3.1 description that covers every operation with every status
code the interface defines, keep ``regkit.schema.interface`` in step with the document's enums, and check
that :func:`openapi_check.assert_conforms` tells right responses from wrong ones.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from jsonschema import Draft202012Validator
from openapi_check import assert_conforms, find_operation, schema_validator

import regkit.schema as schema_pkg
from regkit.schema import interface
from regkit.schema.interface import load_openapi

DOC = load_openapi()
SCHEMAS = DOC["components"]["schemas"]
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
UNAUTHENTICATED = {"get_openapi", "download_document", "download_financial_report"}

EXPECTED_STATUS = {
    ("get", "/v1/company/{company_id}"): "200 400 401 402 404 429 500",
    ("get", "/v1/company/{company_id}/owners"): "200 400 401 402 404 429 500",
    ("get", "/v1/company/{company_id}/holdings"): "200 400 401 402 404 429 500",
    ("post", "/v1/search/company"): "200 400 401 402 429 500",
    ("get", "/v1/autocomplete/company"): "200 400 401 429 500",
    ("post", "/v1/search/person"): "200 400 401 402 429 500",
    ("get", "/v1/person/{person_id}"): "200 400 401 402 404 429 500",
    ("get", "/v1/person/{person_id}/holdings"): "200 400 401 402 404 429 500",
    ("post", "/v1/search/insolvency"): "200 400 401 402 429 500",
    ("get", "/v1/insolvency/{insolvency_id}"): "200 400 401 402 404 429 500",
    ("post", "/v1/transparenzregister/extracts"): "201 400 401 402 403 404 409 429 500",
    ("get", "/v1/transparenzregister/extracts/{extract_id}"): "200 400 401 402 404 429 500",
    ("post", "/v1/transparenzregister/credentials"): "201 400 401 402 409 429 500",
    ("get", "/v1/monitor"): "200 401 402 429 500",
    ("post", "/v1/monitor"): "200 400 401 402 404 409 429 500",
    ("delete", "/v1/monitor/{entity_id}"): "204 401 402 404 429 500",
    ("get", "/v1/credits"): "200 401 429 500",
    ("get", "/v1/documents/{document_id}"): "200 403 404 500",
    ("get", "/v1/openapi.json"): "200 500",
    ("get", "/v1/document/{document_id}"): "200 401 404 429 500",
    ("get", "/v1/document"): "200 400 401 402 404 429 500",
    ("get", "/v1/company/{company_id}/owners/historical"): "200 400 401 402 404 429 500",
    ("get", "/v1/company/{company_id}/ubo"): "200 400 401 402 404 429 500",
    ("get", "/v1/company/{company_id}/financials"): "200 400 401 402 404 429 500",
    ("get", "/v1/financials/{company_id}/{report_id}"): "200 403 404 500",
    ("get", "/v0/company/{company_id}/contact"): "200 400 401 402 404 429 500",
    ("get", "/v0/search/lookup"): "200 400 401 402 404 429 500",
}
"""Every operation and the status codes the interface gives it (spec plus filled gaps)."""


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Yield ``(method, path, operation)`` for every operation of the document."""
    for path, item in DOC["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def walk(node: Any, where: str = "#") -> Iterator[tuple[str, Any]]:
    """Yield ``(pointer, node)`` for every node of a JSON document."""
    yield where, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, f"{where}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{where}/{i}")


def resolve(ref: str) -> Any:
    """Return the node a local ``$ref`` points to (raises KeyError when it points nowhere)."""
    node: Any = DOC
    for segment in ref.lstrip("#").split("/")[1:]:
        node = node[segment.replace("~1", "/").replace("~0", "~")]
    return node


def enum_of(name: str) -> tuple[str, ...]:
    """Return the enum of a component schema as a tuple."""
    return tuple(SCHEMAS[name]["enum"])


# --------------------------------------------------------------------------- the document is valid


def test_document_header():
    assert DOC["openapi"] == "3.1.0"
    assert DOC["info"]["version"] == "2.5.0" == interface.API_VERSION
    assert DOC["components"]["securitySchemes"]["bearerAuth"] == {
        **DOC["components"]["securitySchemes"]["bearerAuth"],
        "type": "http",
        "scheme": "bearer",
    }


def test_load_openapi_is_cached_and_matches_the_shipped_file():
    shipped = Path(interface.__file__).with_name("openapi.json")
    assert load_openapi() is load_openapi()
    assert load_openapi() == json.loads(shipped.read_text(encoding="utf-8"))


def test_valid_against_openapi_31_meta_schema():
    validator_module = pytest.importorskip("openapi_spec_validator")
    errors = list(validator_module.OpenAPIV31SpecValidator(copy.deepcopy(DOC)).iter_errors())
    assert not errors, "\n".join(e.message[:300] for e in errors[:5])


def test_meta_schema_check_can_fail():
    validator_module = pytest.importorskip("openapi_spec_validator")
    broken = copy.deepcopy(DOC)
    broken["paths"]["/v1/credits"]["get"]["responses"]["200"] = {"content": {}}  # no description
    assert list(validator_module.OpenAPIV31SpecValidator(broken).iter_errors())


def test_every_ref_resolves():
    refs = [(where, node["$ref"]) for where, node in walk(DOC) if isinstance(node, dict) and "$ref" in node]
    assert len(refs) > 100
    unresolved = []
    for where, ref in refs:
        try:
            assert ref.startswith("#/")
            resolve(ref)
        except (KeyError, IndexError, AssertionError):
            unresolved.append(f"{where}: {ref}")
    assert not unresolved


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_component_schema_is_valid_json_schema_2020_12(name):
    Draft202012Validator.check_schema(SCHEMAS[name])


def test_components_named_as_in_the_spec():
    named = {
        "CompanyV1",
        "CompanyRegister",
        "CompanyName",
        "CompanyAddress",
        "CompanyPurpose",
        "CompanyCapital",
        "CompanyRepresentativeV1",
        "CompanyIndicatorSummary",
        "CompanyDocument",
        "CompanyMergedInto",
        "CompanyAcquisition",
        "CompanyAssetSpinOff",
        "CompanyProfitTransferAgreement",
        "Website",
        "CompanyInsolvencySummary",
        "Source",
        "InsolvencySearchRequest",
        "InsolvencyFilter",
        "InsolvencySearchResult",
        "InsolvencySearchResponse",
        "Pagination",
        "InsolvencyProceeding",
        "InsolvencyEvent",
        "TransparenzregisterExtract",
        "TransparenzregisterReport",
        "TransparenzregisterDocument",
        "CredentialSet",
        "Monitor",
        "MonitorList",
        "MonitorCreate",
        "Credits",
        "Error",
        "EntityType",
        "RepresentationRole",
        "InsolvencyStatus",
        "InsolvencyProceedingKind",
        "InsolvencyAdministrationKind",
        "PersonV1",
    }
    assert named <= set(SCHEMAS)


def test_operations_and_status_codes_are_exactly_the_interfaces():
    found = {(m, p): " ".join(sorted(op["responses"])) for m, p, op in operations()}
    assert found == EXPECTED_STATUS


@pytest.mark.parametrize("method,path,operation", list(operations()), ids=lambda v: v if isinstance(v, str) else "")
def test_operation_shape(method, path, operation):
    codes = operation["responses"]
    assert [c for c in codes if c.startswith("2")], "no success response"
    assert operation["operationId"] and operation.get("description")
    for code, response in codes.items():
        if code.startswith("2"):
            continue
        content = response["content"]
        assert list(content) == ["application/json"], f"{code} is not JSON"
        assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, code
        if code == "429":
            header = resolve(response["headers"]["Retry-After"]["$ref"])
            assert header["required"] is True and header["schema"]["type"] == "integer"


@pytest.mark.parametrize("method,path,operation", list(operations()), ids=lambda v: v if isinstance(v, str) else "")
def test_path_parameters_match_the_template(method, path, operation):
    in_template = set(re.findall(r"\{([^}]+)\}", path))
    declared = [p for p in operation.get("parameters", []) if p["in"] == "path"]
    assert {p["name"] for p in declared} == in_template
    assert all(p["required"] is True for p in declared)


def test_security_bearer_everywhere_but_the_document_and_the_presigned_download():
    assert DOC["security"] == [{"bearerAuth": []}]
    for _method, path, operation in operations():
        if operation["operationId"] in UNAUTHENTICATED:
            assert operation["security"] == [], path
            assert "401" not in operation["responses"]
        else:
            assert "security" not in operation, path
            assert "401" in operation["responses"], path


def test_local_only_operations_are_marked():
    local = {op["operationId"] for _, _, op in operations() if op.get("x-regkit-local") is True}
    assert local == {"download_document", "get_openapi", "download_financial_report"}
    for _, _, op in operations():
        assert ("x-regkit-local: true" in op["description"]) == (op["operationId"] in local)


def test_operation_ids_are_unique():
    ids = [op["operationId"] for _, _, op in operations()]
    assert len(ids) == len(set(ids))


def test_request_bodies_fixed_by_the_spec_are_closed():
    for name in (
        "InsolvencySearchRequest",
        "CompanySearchRequest",
        "CompanySearchLocation",
        "PersonSearchRequest",
        "PaginationRequest",
        "ExtractOrder",
        "CredentialSetCreate",
    ):
        assert SCHEMAS[name]["additionalProperties"] is False, name
    for variant in SCHEMAS["MonitorCreate"]["oneOf"]:
        assert variant["additionalProperties"] is False


# --------------------------------------------------------------------------- constants agree with the document


@pytest.mark.parametrize(
    "constant,component",
    [
        ("LEGAL_FORMS", "LegalForm"),
        ("REGISTER_TYPES", "RegisterType"),
        ("COMPANY_STATUSES", "CompanyStatus"),
        ("DOCUMENT_TYPES", "DocumentType"),
        ("ENTITY_TYPES", "EntityType"),
        ("REPRESENTATION_ROLES", "RepresentationRole"),
        ("CURRENCIES", "Currency"),
        ("INSOLVENCY_STATUSES", "InsolvencyStatus"),
        ("PROCEEDING_KINDS", "InsolvencyProceedingKind"),
        ("ADMINISTRATION_KINDS", "InsolvencyAdministrationKind"),
        ("INSOLVENCY_GROUNDS", "InsolvencyGround"),
        ("DEBTOR_KINDS", "DebtorKind"),
        ("EVENT_TYPES", "InsolvencyEventType"),
        ("REPORT_TYPES", "InsolvencyReportType"),
        ("FILTER_FIELDS", "InsolvencyFilterField"),
        ("MONITOR_ENTITY_TYPES", "MonitorEntityType"),
        ("PREFERENCES", "MonitorPreference"),
        ("UPDATE_FREQUENCIES", "UpdateFrequency"),
        ("EXTRACT_STATUSES", "ExtractStatus"),
        ("DOCUMENT_CATEGORIES", "DocumentCategory"),
    ],
)
def test_enum_constant_matches_document(constant, component):
    assert getattr(interface, constant) == enum_of(component)


def test_enum_sizes_as_the_spec_lists_them():
    assert len(interface.LEGAL_FORMS) == 17
    assert len(interface.FILTER_FIELDS) == 15
    assert len(interface.INSOLVENCY_STATUSES) == 12
    assert len(interface.EVENT_TYPES) == 22
    assert len(interface.REPORT_TYPES) == 9


def _filter_variants() -> dict[str, list[dict[str, Any]]]:
    out = {}
    for by_field in SCHEMAS["InsolvencyFilter"]["oneOf"]:
        field = by_field["oneOf"][0]["properties"]["field"]["const"]
        assert all(v["properties"]["field"]["const"] == field for v in by_field["oneOf"])
        out[field] = by_field["oneOf"]
    return out


def test_filter_member_kinds_match_document():
    derived = {
        field: frozenset(m for v in variants for m in v["properties"] if m != "field")
        for field, variants in _filter_variants().items()
    }
    assert derived == dict(interface.FILTER_MEMBER_KINDS)
    assert tuple(derived) == interface.FILTER_FIELDS


def test_filter_values_match_document():
    derived = {}
    for field, variants in _filter_variants().items():
        value = variants[0]["properties"]["value"]
        if "$ref" in value:
            value = resolve(value["$ref"])
        if "enum" in value:
            derived[field] = tuple(value["enum"])
    assert derived == dict(interface.FILTER_VALUES)


def test_prices_match_document():
    declared: dict[str, int] = {}
    for _, _, operation in operations():
        for key, credits in operation["x-regkit-credits"].items():
            assert key not in declared, key
            declared[key] = credits
    assert declared == dict(interface.PRICES)
    assert interface.PRICES["company"] == 10 and interface.PRICES["company_realtime"] == 20
    assert interface.PRICES["monitor_daily"] == 50 and interface.PRICES["extract_production"] == 50


def _as_python(pattern: str) -> str:
    """The document's ``^...$`` pattern as interface.py compiles it (``$`` becomes ``\\Z``)."""
    assert pattern.startswith("^") and pattern.endswith("$")
    return pattern[:-1] + r"\Z"


def test_patterns_match_document():
    company = DOC["paths"]["/v1/company/{company_id}"]["get"]["parameters"][0]["schema"]
    assert _as_python(resolve(company["$ref"])["pattern"]) == interface.COMPANY_ID_PATTERN.pattern
    extract = DOC["paths"]["/v1/transparenzregister/extracts/{extract_id}"]["get"]["parameters"][0]["schema"]
    assert _as_python(extract["pattern"]) == interface.EXTRACT_ID_PATTERN.pattern
    assert _as_python(SCHEMAS["CredentialName"]["pattern"]) == interface.CREDENTIAL_NAME_PATTERN.pattern


def test_pagination_bounds_match_document():
    page = SCHEMAS["PaginationRequest"]["properties"]
    assert (page["per_page"]["minimum"], page["per_page"]["maximum"], page["per_page"]["default"]) == (
        interface.PER_PAGE_MIN,
        interface.PER_PAGE_MAX,
        interface.PER_PAGE_DEFAULT,
    )
    assert (page["page"]["minimum"], page["page"]["default"]) == (1, interface.PAGE_DEFAULT)


@pytest.mark.parametrize(
    "company_id,ok",
    [
        ("DE-HRB-F1103-267645", True),
        ("DE-GnR-B1234-1AB", True),
        ("DE-VR-Z0000-0", True),
        ("DE-HRB-F1103-267645ABC", False),
        ("DE-XY-F1103-1", False),
        ("de-HRB-F1103-1", False),
        ("DE-HRB-1103-1", False),
        ("DE-HRB-F1103-", False),
        ("DE-HRB-F1103-1\n", False),
    ],
)
def test_company_id_pattern(company_id, ok):
    assert bool(interface.COMPANY_ID_PATTERN.match(company_id)) is ok
    assert bool(interface.COMPANY_ID_PATTERN.search(company_id)) is ok
    if not company_id.endswith("\n"):  # jsonschema applies Python's re, where "$" allows a final newline
        assert (not list(schema_validator("/components/schemas/CompanyId").iter_errors(company_id))) is ok


def test_interface_imports_only_the_standard_library():
    tree = ast.parse(Path(interface.__file__).read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, modules


def test_package_reexports_exactly_the_public_names():
    from regkit.schema import dates, endpoints, formatting, labels

    assert sorted(schema_pkg.__all__) == sorted(
        [*interface.__all__, *labels.__all__, *formatting.__all__, *dates.__all__, *endpoints.__all__]
    )
    assert all(getattr(schema_pkg, n) is getattr(endpoints, n) for n in endpoints.__all__)
    assert all(getattr(schema_pkg, n) is getattr(dates, n) for n in dates.__all__)
    assert all(getattr(schema_pkg, n) is getattr(interface, n) for n in interface.__all__)
    assert all(getattr(schema_pkg, n) is getattr(labels, n) for n in labels.__all__)
    assert all(getattr(schema_pkg, n) is getattr(formatting, n) for n in formatting.__all__)


# --------------------------------------------------------------------------- request bodies


def _valid(component: str, body: Any) -> bool:
    return not list(schema_validator(f"/components/schemas/{component}").iter_errors(body))


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"query": "bau gmbh"},
        {"query": {"value": "bau"}},
        {"pagination": {"page": 3, "per_page": 100}},
        {"filters": [{"field": "court", "value": "Charlottenburg"}]},
        {"filters": [{"field": "city", "keywords": ["berl"]}, {"field": "court", "values": ["Köln", "Bonn"]}]},
        {"filters": [{"field": "current_status", "values": ["opened", "preliminary"]}]},
        {"filters": [{"field": "debtor_legal_form", "value": "gmbh"}]},
        {"filters": [{"field": "has_open_insolvency", "value": "true"}]},
        {"filters": [{"field": "opened_at", "min": "2024-01-01", "max": "2024-12-31"}]},
        {"filters": [{"field": "claims_filing_deadline", "max": "2024-12-31"}]},
        {"filters": [{"field": "last_event_at", "value": "2024-05-01"}]},
        {"filters": [{"field": "company_id", "values": ["DE-HRB-F1103-1"]}]},
    ],
)
def test_search_body_accepted(body):
    assert _valid("InsolvencySearchRequest", body)


@pytest.mark.parametrize(
    "body",
    [
        {"q": "x"},
        {"query": 5},
        {"query": {"value": "x", "extra": 1}},
        {"pagination": {"per_page": 0}},
        {"pagination": {"per_page": 101}},
        {"pagination": {"page": 0}},
        {"filters": [{"value": "x"}]},
        {"filters": [{"field": "nope", "value": "x"}]},
        {"filters": [{"field": "court"}]},
        {"filters": [{"field": "court", "value": "a", "values": ["b"]}]},
        {"filters": [{"field": "court", "min": "a"}]},
        {"filters": [{"field": "opened_at"}]},
        {"filters": [{"field": "opened_at", "value": "2024-01-01", "min": "2023-01-01"}]},
        {"filters": [{"field": "opened_at", "keywords": ["2024"]}]},
        {"filters": [{"field": "opened_at", "min": "01.01.2024"}]},
        {"filters": [{"field": "current_status", "value": "open"}]},
        {"filters": [{"field": "current_status", "keywords": ["open"]}]},
        {"filters": [{"field": "has_open_insolvency", "value": True}]},
        {"filters": [{"field": "has_open_insolvency", "values": ["true"]}]},
        {"filters": [{"field": "court", "values": []}]},
        {"filters": [{"field": "court", "value": "  "}]},
    ],
)
def test_search_body_rejected(body):
    assert not _valid("InsolvencySearchRequest", body)


@pytest.mark.parametrize(
    "body,ok",
    [
        ({"entity_type": "company", "entity_id": "DE-HRB-F1103-1", "preferences": ["basic"]}, True),
        (
            {
                "entity_type": "company",
                "entity_id": "DE-HRB-F1103-1",
                "preferences": ["basic", "financials"],
                "update_frequency": "daily",
            },
            True,
        ),
        (
            {"entity_type": "person", "entity_id": "0b9f5a52-4c3e-4f3a-9d0e-2f3c1b6a7d88", "preferences": ["basic"]},
            True,
        ),
        (
            {
                "entity_type": "person",
                "entity_id": "0b9f5a52-4c3e-4f3a-9d0e-2f3c1b6a7d88",
                "preferences": ["basic"],
                "update_frequency": "weekly",
            },
            False,
        ),
        ({"entity_type": "company", "entity_id": "DE-HRB-F1103-1", "preferences": []}, False),
        ({"entity_type": "company", "entity_id": "DE-HRB-F1103-1", "preferences": ["everything"]}, False),
        ({"entity_type": "company", "entity_id": "DE-HRB-F1103-1", "preferences": ["basic", "basic"]}, False),
        ({"entity_type": "company", "entity_id": "DE-HRB-F1103-1"}, False),
    ],
)
def test_monitor_create_body(body, ok):
    assert _valid("MonitorCreate", body) is ok


@pytest.mark.parametrize(
    "body,ok",
    [
        ({"username": "u", "password": "p"}, True),
        ({"username": "u", "password": "p", "name": "work-2024"}, True),
        ({"username": "u", "password": "p", "name": "sandbox"}, False),
        ({"username": "u"}, False),
        ({"username": "", "password": "p"}, False),
        ({"username": "u", "password": "p", "name": "has space"}, False),
        ({"username": "u", "password": "p", "extra": 1}, False),
    ],
)
def test_credentials_body(body, ok):
    assert _valid("CredentialSetCreate", body) is ok


def test_extract_order_body():
    assert _valid("ExtractOrder", {}) and _valid("ExtractOrder", {"company_id": "DE-HRB-F1103-1"})
    assert not _valid("ExtractOrder", {"company_id": "12345"})


# --------------------------------------------------------------------------- response examples


def company() -> dict[str, Any]:
    """A complete CompanyV1 record (as a non-export lookup returns it)."""
    register = {
        "company_id": "DE-HRB-F1103-267645",
        "register_number": "267645",
        "register_type": "HRB",
        "register_court": "Amtsgericht Frankfurt am Main",
        "start_date": "2015-03-02",
    }
    name = {"name": "Muster Bau GmbH", "legal_form": "gmbh", "start_date": "2015-03-02"}
    address = {
        "street": "Hauptstr. 1",
        "city": "Frankfurt am Main",
        "postal_code": "60311",
        "country": "Deutschland",
        "start_date": "2015-03-02",
        "formatted_value": "Hauptstr. 1, 60311 Frankfurt am Main",
    }
    link = {
        "company_id": "DE-HRB-F1103-1",
        "name": "Muster Holding AG",
        "registration_date": "2019-05-01",
        "agreement_date": None,
    }
    money = dict.fromkeys(
        [
            "balance_sheet_total",
            "net_income",
            "revenue",
            "cash",
            "equity",
            "real_estate",
            "materials",
            "pension_provisions",
            "salaries",
            "taxes",
            "liabilities",
            "capital_reserves",
        ],
        None,
    )
    return {
        "id": "DE-HRB-F1103-267645",
        "register": register,
        "registers": [register],
        "status": "active",
        "name": name,
        "names": [name],
        "address": address,
        "addresses": [address],
        "purpose": {"purpose": "Bauleistungen aller Art.", "start_date": "2015-03-02"},
        "purposes": [{"purpose": "Bauleistungen aller Art.", "start_date": "2015-03-02"}],
        "capital": {"amount": 25000.0, "currency": "EUR", "start_date": "2015-03-02"},
        "capitals": [{"amount": 25000, "currency": "EUR", "start_date": "2015-03-02"}],
        "representation": [
            {
                "id": "0b9f5a52-4c3e-4f3a-9d0e-2f3c1b6a7d88",
                "name": "Erika Mustermann",
                "type": "natural_person",
                "role": "DIRECTOR",
                "start_date": "2015-03-02",
                "end_date": None,
                "authority": "einzelvertretungsberechtigt",
                "natural_person": {
                    "city": "Frankfurt am Main",
                    "first_name": "Erika",
                    "last_name": "Mustermann",
                    "date_of_birth": "1970-01-31",
                },
            },
            {
                "id": "DE-HRB-F1103-1",
                "name": "Muster Holding AG",
                "type": "legal_person",
                "role": "SHAREHOLDER",
                "start_date": "2015-03-02",
                "end_date": None,
                "authority": None,
                "legal_person": {"name": "Muster Holding AG", "city": None, "country": "DE"},
            },
            {
                "id": None,
                "name": "Foreign Ltd",
                "type": "legal_person",
                "role": "SHAREHOLDER",
                "start_date": "2015-03-02",
                "end_date": "2016-01-01",
                "authority": None,
                "legal_person": None,
            },
        ],
        "representation_rule": None,
        "indicators": [
            {
                "date": "2023-12-31",
                "report_id": "5d1c2a3b-0f4e-4b6a-8c9d-1e2f3a4b5c6d",
                **money,
                "equity": 2500000,
                "employees": 12,
            }
        ],
        "legal_form": "gmbh",
        "documents": [{"id": "doc-1", "type": "shareholder_list", "date": "2019-05-01", "latest": True}],
        "incorporated_at": "2015-03-02",
        "notarized_at": None,
        "terminated_at": None,
        "merged_into": None,
        "acquisitions": [link],
        "asset_spin_offs": [],
        "profit_transfer_agreement": link,
        "industry_codes": {"WZ2025": [{"code": "41.00.1"}]},
        "contact": {"website_url": "https://example.org", "social_media": {"linkedin": "muster"}},
        "insolvencies": [
            {
                "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                "current_status": "opened",
                "court": "Frankfurt am Main",
                "case_number": "810 IN 12/24",
                "proceeding_kind": None,
                "opened_at": "2024-02-01",
            }
        ],
        "sources": [{"document_url": "http://local.regkit/v1/documents/doc-1?expires=1&signature=ab"}],
    }


def proceeding() -> dict[str, Any]:
    """An InsolvencyProceeding with one event."""
    event = {
        "id": "ev-1",
        "event_type": "proceedings_opened",
        "report_type": "openings",
        "published_at": "2024-02-02",
        "decision_date": "2024-02-01",
        "effective_at": "2024-02-01T10:00:00+01:00",
        "summary": "Eröffnung",
        "details": {
            "insolvency_grounds": ["illiquidity"],
            "meetings": [{"kind": "report_meeting", "at": "2024-04-01T10:00:00+02:00", "location": "Saal 1"}],
            "administrator_name": "Dr. A",
            "administrator_address": None,
            "claims_filing_deadline": "2024-03-15",
            "closed_at": None,
            "discharge_granted": None,
            "distribution_available": None,
            "distribution_claims_total": None,
        },
    }
    return {
        "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
        "case_number": "810 IN 12/24",
        "court": "Frankfurt am Main",
        "current_status": "opened",
        "debtor_name": "Muster Bau GmbH",
        "debtor_kind": "legal_person",
        "debtor_legal_form": "gmbh",
        "company_id": "DE-HRB-F1103-267645",
        "proceeding_kind": "regular_insolvency",
        "administration_kind": None,
        "administrator_name": "Dr. A",
        "administrator_address": None,
        "insolvency_grounds": ["illiquidity"],
        "claims_filing_deadline": "2024-03-15",
        "opened_at": "2024-02-01",
        "closed_at": None,
        "first_event_at": "2024-02-02",
        "last_event_at": "2024-02-02",
        "distribution_available": None,
        "distribution_claims_total": 1234.5,
        "events": [event],
    }


def published_event() -> dict[str, Any]:
    """A final-distribution event whose details hold amounts and a date as the announcement's text."""
    return {
        **proceeding()["events"][0],
        "event_type": "proceedings_lifted",
        "report_type": "decisions_after_termination",
        "effective_at": None,
        "details": {
            "insolvency_grounds": [],
            "meetings": [{"kind": "final_meeting", "at": None, "location": None}],
            "administrator_name": None,
            "administrator_address": None,
            "claims_filing_deadline": None,
            "closed_at": "31.03.2024",
            "discharge_granted": None,
            "distribution_available": "EUR 14.102,57",
            "distribution_claims_total": "siehe Bekanntmachung",
        },
    }


STATUS_FLAGS = {
    "corrected_by_reference": "TR-2025-0000042",
    "corrected_references": ["TR-2024-0000007"],
    "deleted": False,
    "deletion_date": None,
    "discrepancy_note": None,
}


def extract(status: str = "completed") -> dict[str, Any]:
    """A TransparenzregisterExtract, completed (with report and documents) or processing."""
    if status == "processing":
        return {
            "id": "tre_1",
            "status": "processing",
            "company_id": None,
            "ekrn": "DE727032388716",
            "submitted_at": "2026-06-30T12:00:00Z",
            "completed_at": None,
            "reference_number": None,
            "report": None,
            "documents": None,
        }
    point = {"date": None, "note": None}
    return {
        "id": "tre_2",
        "status": "completed",
        "company_id": "DE-HRB-F1103-267645",
        "ekrn": "DE1",
        "submitted_at": "2026-06-30T12:00:00Z",
        "completed_at": "2026-06-30T12:00:05Z",
        "reference_number": "R-1",
        "report": {
            "created_at": "2026-06-30",
            "notice_type": None,
            "fictional_ubo_reason": None,
            "status_flags": None,
            "validity": {"from": point, "until": point},
            "groups": [],
            "ubos": [
                {
                    "position": 1,
                    "natural_person": {
                        "title": None,
                        "first_name": "Erika",
                        "last_name": "Mustermann",
                        "full_name": None,
                        "date_of_birth": "1970-01-31",
                        "city": None,
                        "country": "DE",
                        "nationalities": ["DE"],
                    },
                    "interest": {"type": "direct", "scope": "capital", "percentage": 60.0},
                }
            ],
        },
        "documents": [
            {
                "document_id": "5d1c2a3b-0f4e-4b6a-8c9d-1e2f3a4b5c6d",
                "filename": "x.pdf",
                "format": "pdf",
                "url": "http://local.regkit/x.pdf",
            }
        ],
    }


SEARCH_RESULT = {
    "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    "debtor_name": "Erika Mustermann",
    "debtor_kind": "natural_person",
    "debtor_legal_form": None,
    "case_number": "810 IK 1/24",
    "court": "Frankfurt am Main",
    "city": None,
    "current_status": "discharge_pending",
    "has_open_insolvency": True,
    "proceeding_kind": "consumer_insolvency",
    "administration_kind": None,
    "insolvency_grounds": None,
    "administrator_name": None,
    "company_id": None,
    "person_id": "0b9f5a52-4c3e-4f3a-9d0e-2f3c1b6a7d88",
    "opened_at": None,
    "closed_at": None,
    "last_event_at": "2024-05-01",
}


@pytest.mark.parametrize(
    "component,body",
    [
        ("CompanyV1", company()),
        ("CompanyV1", {**{k: v for k, v in company().items() if k != "insolvencies"}, "sources": []}),  # export=true
        (
            "InsolvencySearchResponse",
            {
                "results": [SEARCH_RESULT],
                "pagination": {"page": 1, "per_page": 10, "total_pages": 1, "total_results": 1},
            },
        ),
        (
            "InsolvencySearchResponse",
            {"results": [], "pagination": {"page": 9, "per_page": 10, "total_pages": 0, "total_results": 0}},
        ),
        ("InsolvencyProceeding", proceeding()),
        ("InsolvencyProceeding", {**proceeding(), "events": [published_event()]}),
        ("TransparenzregisterExtract", extract("processing")),
        ("TransparenzregisterExtract", extract()),
        ("TransparenzregisterExtract", {**extract(), "report": {**extract()["report"], "status_flags": STATUS_FLAGS}}),
        (
            "CredentialSet",
            {
                "name": "default",
                "username": "u",
                "created_at": "2026-06-30T12:00:00+00:00",
                "updated_at": "2026-06-30T12:00:00+00:00",
            },
        ),
        (
            "MonitorList",
            {
                "items": [
                    {
                        "entity_type": "company",
                        "entity_id": "DE-HRB-F1103-1",
                        "preferences": ["basic"],
                        "update_frequency": "daily",
                        "disabled": False,
                    }
                ]
            },
        ),
        (
            "Credits",
            {
                "used_credits": 10,
                "remaining_credits": 99990,
                "included_credits": 100000,
                "overage_credits": 0,
                "paid": True,
                "period": {"type": "billing_cycle", "reset_at": "2026-07-01T00:00:00Z"},
            },
        ),
        ("Error", {"error": {"code": "company_not_found", "message": "No company DE-HRB-F1103-9."}}),
    ],
)
def test_example_response_conforms(component, body):
    errors = list(schema_validator(f"/components/schemas/{component}").iter_errors(body))
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize(
    "component,body,why",
    [
        ("CompanyV1", {**company(), "purpose": "x"}, "purpose is an object or null"),
        ("CompanyV1", {k: v for k, v in company().items() if k != "contact"}, "contact is required (nullable)"),
        (
            "CompanyV1",
            {k: v for k, v in company().items() if k != "sources"},
            "sources is required (empty with export)",
        ),
        ("CompanyV1", {**company(), "legal_form": "GmbH"}, "legal_form enum"),
        ("CompanyV1", {**company(), "incorporated_at": "02.03.2015"}, "date format"),
        ("CompanyV1", {**company(), "id": "DE-HRB-1"}, "company id pattern"),
        (
            "CompanyV1",
            {**company(), "indicators": [{**company()["indicators"][0], "revenue": 1.5}]},
            "cents are integers",
        ),
        ("CompanyV1", {**company(), "indicators": [{**company()["indicators"][0], "revenue": 2**63}]}, "int64 range"),
        ("CompanyV1", {**company(), "indicators": [{**company()["indicators"][0], "report_id": "r1"}]}, "uuid format"),
        (
            "CompanyV1",
            {**company(), "representation": [{**company()["representation"][0], "id": "p-1"}]},
            "representative id: company id, UUID or null",
        ),
        ("CompanyV1", {**company(), "merged_into": {"company_id": "x", "name": "y"}}, "link members required"),
        ("InsolvencyProceeding", {**proceeding(), "current_status": "open"}, "status enum"),
        (
            "InsolvencyProceeding",
            {**proceeding(), "events": [{**proceeding()["events"][0], "effective_at": "2024-02-01"}]},
            "date-time format",
        ),
        ("InsolvencyProceeding", {**proceeding(), "insolvency_grounds": None}, "grounds of a proceeding are an array"),
        (
            "InsolvencyProceeding",
            {**proceeding(), "distribution_available": "14.102,57 EUR"},
            "proceeding-level amounts are numbers",
        ),
        (
            "InsolvencyProceeding",
            {
                **proceeding(),
                "events": [
                    {
                        **published_event(),
                        "details": {**published_event()["details"], "distribution_available": 14102.57},
                    }
                ],
            },
            "event details amounts are published text",
        ),
        (
            "InsolvencyProceeding",
            {
                **proceeding(),
                "events": [{**published_event(), "details": {**published_event()["details"], "closed_at": 20240331}}],
            },
            "event details dates are published text",
        ),
        (
            "TransparenzregisterExtract",
            {
                **extract(),
                "report": {**extract()["report"], "status_flags": {**STATUS_FLAGS, "corrected_by_reference": False}},
            },
            "corrected_by_reference is a reference, not a flag",
        ),
        ("TransparenzregisterExtract", {**extract(), "id": "42"}, "extract id pattern"),
        ("TransparenzregisterExtract", {k: v for k, v in extract().items() if k != "report"}, "report required"),
        (
            "CredentialSet",
            {
                "name": "d",
                "username": "u",
                "password": "p",
                "created_at": "2026-06-30T12:00:00Z",
                "updated_at": "2026-06-30T12:00:00Z",
            },
            "password never comes back",
        ),
        (
            "Credits",
            {
                "used_credits": 0,
                "remaining_credits": 500,
                "included_credits": 500,
                "overage_credits": 0,
                "paid": False,
                "period": {"type": "rolling_30_days", "reset_at": None},
            },
            "reset_at is never null",
        ),
        ("Error", {"error": {"code": "Not Found", "message": "x"}}, "snake_case code"),
        ("Error", {"error": "not found"}, "error is an object"),
    ],
)
def test_wrong_response_rejected(component, body, why):
    assert list(schema_validator(f"/components/schemas/{component}").iter_errors(body)), why


# --------------------------------------------------------------------------- assert_conforms


def make_response(
    method: str,
    path: str,
    status: int,
    body: Any = None,
    *,
    content_type: str | None = None,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
) -> requests.Response:
    """Build a ``requests.Response`` by hand, with a prepared request giving method and URL."""
    response = requests.Response()
    response.status_code = status
    response.request = requests.Request(method, "http://local.regkit" + path).prepare()
    response.url = response.request.url
    if body is not None:
        response._content = json.dumps(body).encode()
        response.headers["Content-Type"] = content_type or "application/json"
    else:
        response._content = raw or b""
        if content_type:
            response.headers["Content-Type"] = content_type
    response.headers.update(headers or {})
    return response


ERROR = {"error": {"code": "rate_limited", "message": "Too many requests; retry later."}}


@pytest.mark.parametrize(
    "response",
    [
        make_response("GET", "/v1/company/DE-HRB-F1103-267645?realtime=true", 200, company()),
        make_response(
            "GET", "/v1/company/DE-HRB-F1103-267645", 200, company(), content_type="application/json; charset=utf-8"
        ),
        make_response("GET", "/v1/company/nonsense", 400, {"error": {"code": "invalid_company_id", "message": "Bad."}}),
        make_response("GET", "/v1/credits", 429, ERROR, headers={"Retry-After": "3"}),
        make_response("DELETE", "/v1/monitor/DE-HRB-F1103-1", 204),
        make_response("GET", "/v1/monitor", 200, {"items": []}),
        make_response("POST", "/v1/transparenzregister/extracts", 201, extract("processing")),
        make_response("GET", "/v1/transparenzregister/extracts/tre_2", 200, extract()),
        make_response("GET", "/v1/insolvency/7c9e6679-7425-40de-944b-e07fc1f90ae7", 200, proceeding()),
        make_response(
            "GET", "/v1/documents/doc-1?expires=1&signature=ab", 200, raw=b"%PDF-1.4", content_type="application/pdf"
        ),
        make_response("GET", "/v1/openapi.json", 200, DOC),
    ],
    ids=lambda r: f"{r.request.method} {r.request.path_url} {r.status_code}",
)
def test_assert_conforms_accepts(response):
    assert_conforms(response)


@pytest.mark.parametrize(
    "response,message",
    [
        (
            make_response("GET", "/v1/company/DE-HRB-F1103-267645", 200, {**company(), "status": "dissolved"}),
            "at status",
        ),
        (make_response("GET", "/v1/company/DE-HRB-F1103-267645", 403, ERROR), "status not declared"),
        (
            make_response("GET", "/v1/company/DE-HRB-F1103-267645", 404, {"message": "not found"}),
            "'error' is a required",
        ),
        (
            make_response("GET", "/v1/company/DE-HRB-F1103-267645", 200, raw=b"<html>", content_type="text/html"),
            "Content-Type 'text/html'",
        ),
        (
            make_response(
                "GET", "/v1/company/DE-HRB-F1103-267645", 200, raw=b"{not json", content_type="application/json"
            ),
            "not JSON",
        ),
        (make_response("GET", "/v1/credits", 429, ERROR), "Retry-After is missing"),
        (make_response("GET", "/v1/credits", 429, ERROR, headers={"Retry-After": "soon"}), "not an integer"),
        (make_response("POST", "/v1/transparenzregister/extracts", 201, extract()), "body does not match"),
        (make_response("DELETE", "/v1/monitor/DE-HRB-F1103-1", 204, {"deleted": True}), "without a body"),
        (make_response("DELETE", "/v1/monitor/DE-HRB-F1103-1", 200, {}), "status not declared"),
        (make_response("GET", "/v1/nowhere", 200, {}), "no path of the description matches"),
        (make_response("PUT", "/v1/monitor", 200, {}), "has no PUT"),
        (
            make_response(
                "POST",
                "/v1/transparenzregister/credentials",
                201,
                {
                    "name": "d",
                    "username": "u",
                    "password": "secret",
                    "created_at": "2026-06-30T12:00:00Z",
                    "updated_at": "2026-06-30T12:00:00Z",
                },
            ),
            "body does not match",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else f"{v.request.method} {v.request.path_url} {v.status_code}",
)
def test_assert_conforms_rejects(response, message):
    with pytest.raises(AssertionError, match=re.escape(message)):
        assert_conforms(response)


def test_find_operation_prefers_literal_paths_and_ignores_base_path():
    assert find_operation("GET", "http://h/v1/monitor")[1]["operationId"] == "list_monitors"
    assert find_operation("delete", "http://h/base/v1/monitor/x")[1]["operationId"] == "delete_monitor"
    assert find_operation("GET", "http://h/v1/openapi.json")[1]["operationId"] == "get_openapi"
