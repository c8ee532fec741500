"""The interface description allows nothing the official client refuses.

The local register's tests validate every response against ``regkit/schema/openapi.json``
(``tests/openapi_check.py``); when that document is no looser than the live service's official client, each of
those checks is also a check that the client would accept the response. This compares, for every operation
both share, the document's response schema with the client's pydantic model (no server needed).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from openregister import types as sdk_types
from openregister.types import transparenzregister as sdk_extracts
from sdk_models import looser_than

from regkit.schema import load_openapi

DOCUMENT = load_openapi()

#: (method, path, status) of the document → the official client's model of that response.
SHARED = {
    ("get", "/v1/company/{company_id}", "200"): sdk_types.CompanyGetDetailsV1Response,
    ("post", "/v1/search/insolvency", "200"): sdk_types.SearchFindInsolvenciesV1Response,
    ("get", "/v1/insolvency/{insolvency_id}", "200"): sdk_types.InsolvencyGetDetailsV1Response,
    ("post", "/v1/transparenzregister/extracts", "201"): sdk_extracts.ExtractCreateV1Response,
    ("get", "/v1/transparenzregister/extracts/{extract_id}", "200"): sdk_extracts.TransparenzregisterExtract,
    ("get", "/v1/monitor", "200"): sdk_types.MonitorListResponse,
    ("post", "/v1/monitor", "200"): sdk_types.MonitorCreateResponse,
    ("get", "/v1/credits", "200"): sdk_types.UsageGetCreditsV1Response,
    ("post", "/v1/search/company", "200"): sdk_types.CompanySearch,
    ("get", "/v1/autocomplete/company", "200"): sdk_types.SearchAutocompleteCompaniesV1Response,
    ("get", "/v1/company/{company_id}/owners", "200"): sdk_types.CompanyGetOwnersV1Response,
    ("get", "/v1/company/{company_id}/holdings", "200"): sdk_types.CompanyGetHoldingsV1Response,
    ("post", "/v1/search/person", "200"): sdk_types.SearchFindPersonV1Response,
    ("get", "/v1/person/{person_id}", "200"): sdk_types.PersonGetDetailsV1Response,
    ("get", "/v1/person/{person_id}/holdings", "200"): sdk_types.PersonGetHoldingsV1Response,
    ("get", "/v1/document/{document_id}", "200"): sdk_types.Document,
    ("get", "/v1/document", "200"): sdk_types.DocumentGetRealtimeV1Response,
    ("get", "/v1/company/{company_id}/ubo", "200"): sdk_types.CompanyGetUbosV1Response,
    ("get", "/v1/company/{company_id}/owners/historical", "200"): sdk_types.CompanyGetHistoricalOwnersV1Response,
    ("get", "/v1/company/{company_id}/financials", "200"): sdk_types.CompanyGetFinancialsV1Response,
    ("get", "/v0/company/{company_id}/contact", "200"): sdk_types.CompanyGetContactV0Response,
    ("get", "/v0/search/lookup", "200"): sdk_types.SearchLookupCompanyByURLResponse,
}


def resolver(document: dict[str, Any]):
    """``resolve(ref)`` for local ``#/...`` references into ``document``."""

    def resolve(ref: str) -> dict[str, Any]:
        node: Any = document
        for segment in ref.removeprefix("#/").split("/"):
            node = node[segment.replace("~1", "/").replace("~0", "~")]
        return node

    return resolve


def response_schema(document: dict[str, Any], method: str, path: str, status: str) -> dict[str, Any]:
    return document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]


@pytest.mark.parametrize("operation", SHARED, ids=lambda o: f"{o[0].upper()} {o[1]} {o[2]}")
def test_document_is_no_looser_than_the_official_client(operation):
    problems = looser_than(response_schema(DOCUMENT, *operation), SHARED[operation], resolver(DOCUMENT))
    assert not problems, "\n".join(problems)


def test_every_operation_the_client_shares_is_compared():
    # the official client's methods whose paths the local register serves (tests/contract/test_official_client.py)
    served = {(method, path) for path, item in DOCUMENT["paths"].items() for method in item}
    shared = {
        ("get", "/v1/company/{company_id}"),
        ("post", "/v1/search/insolvency"),
        ("get", "/v1/insolvency/{insolvency_id}"),
        ("post", "/v1/transparenzregister/extracts"),
        ("get", "/v1/transparenzregister/extracts/{extract_id}"),
        ("post", "/v1/transparenzregister/credentials"),
        ("get", "/v1/monitor"),
        ("post", "/v1/monitor"),
        ("delete", "/v1/monitor/{entity_id}"),
        ("get", "/v1/credits"),
        ("post", "/v1/search/company"),
        ("get", "/v1/autocomplete/company"),
        ("get", "/v1/company/{company_id}/owners"),
        ("get", "/v1/company/{company_id}/holdings"),
        ("post", "/v1/search/person"),
        ("get", "/v1/person/{person_id}"),
        ("get", "/v1/person/{person_id}/holdings"),
        ("get", "/v1/document/{document_id}"),
        ("get", "/v1/document"),
        ("get", "/v1/company/{company_id}/ubo"),
        ("get", "/v1/company/{company_id}/owners/historical"),
        ("get", "/v1/company/{company_id}/financials"),
        ("get", "/v0/company/{company_id}/contact"),
        ("get", "/v0/search/lookup"),
    }
    assert shared <= served
    # the client reads no body of the credentials store (201) or of a monitor's deletion (204)
    assert {(m, p) for m, p, _ in SHARED} == shared - {
        ("post", "/v1/transparenzregister/credentials"),
        ("delete", "/v1/monitor/{entity_id}"),
    }


def _loosened(pointer: list[str], change) -> dict[str, Any]:
    document = copy.deepcopy(DOCUMENT)
    node = document
    for segment in pointer:
        node = node[segment]
    change(node)
    return document


@pytest.mark.parametrize(
    "pointer,change,operation,expected",
    [
        (
            ["components", "schemas", "CompanyV1", "required"],
            lambda n: n.remove("sources"),
            ("get", "/v1/company/{company_id}", "200"),
            "$.sources: the document lets it be absent",
        ),
        (
            ["components", "schemas", "InsolvencyEventDetails", "properties", "distribution_available"],
            lambda n: n.update(type=["number", "null"]),
            ("get", "/v1/insolvency/{insolvency_id}", "200"),
            "$.events[].details.distribution_available: the document allows number",
        ),
        (
            ["components", "schemas", "InsolvencyProceeding", "properties", "insolvency_grounds"],
            lambda n: n.update(type=["array", "null"]),
            ("get", "/v1/insolvency/{insolvency_id}", "200"),
            "$.insolvency_grounds: the document allows null",
        ),
        (
            ["components", "schemas", "Credits", "properties", "period", "properties", "reset_at"],
            lambda n: n.update(type=["string", "null"]),
            ("get", "/v1/credits", "200"),
            "$.period.reset_at: the document allows null",
        ),
        (
            [
                "components",
                "schemas",
                "TransparenzregisterReport",
                "properties",
                "status_flags",
                "properties",
                "corrected_by_reference",
            ],
            lambda n: n.update(type=["boolean", "null"]),
            ("get", "/v1/transparenzregister/extracts/{extract_id}", "200"),
            "$.report.status_flags.corrected_by_reference: the document allows boolean",
        ),
        (
            ["components", "schemas", "InsolvencyProceeding", "properties", "opened_at"],
            lambda n: n.pop("format"),
            ("get", "/v1/insolvency/{insolvency_id}", "200"),
            "$.opened_at: the document allows any string",
        ),
        (
            ["components", "schemas", "Monitor", "properties", "update_frequency"],
            lambda n: n.clear(),
            ("get", "/v1/monitor", "200"),
            "$.items[].update_frequency: the document allows any",
        ),
        (
            ["paths", "/v1/transparenzregister/extracts", "post", "responses", "201", "content", "application/json"],
            lambda n: n.update(schema={"$ref": "#/components/schemas/TransparenzregisterExtract"}),
            ("post", "/v1/transparenzregister/extracts", "201"),
            "$.status: the document allows ['completed', 'failed']",
        ),
        (
            ["components", "schemas", "OwnerNaturalPerson", "properties", "city"],
            lambda n: n.update(type=["string", "null"]),
            ("get", "/v1/company/{company_id}/owners", "200"),
            "$.owners[].natural_person.city: the document allows null",
        ),
        (
            ["components", "schemas", "CompanyHolding", "required"],
            lambda n: n.remove("company_id"),
            ("get", "/v1/person/{person_id}/holdings", "200"),
            "$.holdings[].company_id: the document lets it be absent",
        ),
        (
            ["components", "schemas", "PersonSearchResult", "properties", "date_of_birth"],
            lambda n: n.update(type=["string", "null"]),
            ("post", "/v1/search/person", "200"),
            "$.results[].date_of_birth: the document allows null",
        ),
        (
            ["components", "schemas", "PersonV1", "properties", "city"],
            lambda n: n.update(type=["string", "null"]),
            ("get", "/v1/person/{person_id}", "200"),
            "$.city: the document allows null",
        ),
        (
            ["components", "schemas", "CompanySearchAddress", "required"],
            lambda n: n.remove("formatted_value"),
            ("get", "/v1/autocomplete/company", "200"),
            "$.results[].address.formatted_value: the document lets it be absent",
        ),
        (  # a row's children are rows: the recursion is compared too, once
            ["components", "schemas", "ReportRow", "properties", "name"],
            lambda n: n.update(type=["string", "null"]),
            ("get", "/v1/company/{company_id}/financials", "200"),
            "$.reports[].aktiva.rows[].name: the document allows null",
        ),
        (
            ["components", "schemas", "MergedReportRow", "properties", "values", "additionalProperties"],
            lambda n: n.update(type=["integer", "null"]),
            ("get", "/v1/company/{company_id}/financials", "200"),
            "$.merged.aktiva.rows[].values{}: the document allows null",
        ),
    ],
)
def test_the_comparison_finds_a_looser_document(pointer, change, operation, expected):
    document = _loosened(pointer, change)
    problems = looser_than(response_schema(document, *operation), SHARED[operation], resolver(document))
    assert any(p.startswith(expected) for p in problems), problems
