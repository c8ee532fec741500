"""The endpoint table (:mod:`regkit.schema.endpoints`) agrees with the interface document, the local register's
routes are built from it, and docs/interface.md's "Endpoints at a glance" is what the generator writes.

Expected values come from ``regkit/schema/openapi.json`` (operations, parameters, ``x-regkit-credits``,
``x-regkit-local``, security, tags, request bodies) and, for what the document cannot say (cache lifetimes, what may
be stored, the client's names), from the client itself while it still has its own rules for them.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import importlib.util
import inspect
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st

import regkit.client
from regkit.local.urls import HANDLERS, PUBLIC_ENDPOINTS, ROUTES, add_routes
from regkit.schema import endpoints
from regkit.schema.endpoints import (
    CACHE_LIFETIMES,
    ENDPOINTS,
    ENDPOINTS_BY_ID,
    IDENTIFIER_CHECKS,
    LOOKUP_NAMES,
    RESOURCES,
    SCOPES,
    STORED_WHEN,
    SUMMARY_MARKS,
    Endpoint,
    by_lookup,
    by_operation,
    match,
)
from regkit.schema.interface import (
    COMPANY_ID_PATTERN,
    EXTRACT_ID_PATTERN,
    PRICES,
    SANDBOX_CREDENTIAL_NAME,
    load_openapi,
)

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("docs_interface_tables", ROOT / "docs" / "generate_interface_tables.py")
assert _SPEC and _SPEC.loader
generator = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = generator
_SPEC.loader.exec_module(generator)

DOC = load_openapi()
METHODS = ("get", "put", "post", "delete", "patch")
OPERATIONS = {
    operation["operationId"]: (method.upper(), path, operation)
    for path, item in DOC["paths"].items()
    for method, operation in item.items()
    if method in METHODS
}
ROWS = [pytest.param(row, id=row.operation_id) for row in ENDPOINTS]

COMPANY = "DE-HRB-B1234-5"
FORMER = "DE-HRB-F1103-1"
PERSON = "9922b97a-9c35-4d0b-8d2b-3908753a84b7"
SAMPLES = {
    "company_id": COMPANY,
    "person_id": PERSON,
    "insolvency_id": "7da364e3-c5b0-4073-9e81-299f0003a075",
    "extract_id": "tre_12",
    "entity_id": COMPANY,
    "document_id": "350380e3-0c85-4c49-8e6a-3f0e8806a423",
    "report_id": "r-2023",
    "url": "example.de",
    "document_category": "current_printout",
    "query": "ab",
    "expires": "1700000000",
    "signature": "ab12",
}
"""A valid value of every parameter a row is asked by."""


def operation_of(row: Endpoint) -> dict[str, Any]:
    return OPERATIONS[row.operation_id][2]


def parameters_of(row: Endpoint, where: str) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in operation_of(row).get("parameters", []) if p["in"] == where}


def resolved(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = DOC
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def body_schema(row: Endpoint) -> dict[str, Any]:
    body = operation_of(row).get("requestBody")
    return resolved(body["content"]["application/json"]["schema"]) if body else {}


def sample_path(row: Endpoint) -> str:
    return row.path_for(**{name: SAMPLES[name] for name in row.path_parameters})


def sample_query(row: Endpoint) -> str:
    required = [name for name, p in parameters_of(row, "query").items() if p.get("required")]
    return "?" + "&".join(f"{name}={quote(SAMPLES[name])}" for name in required) if required else ""


# --------------------------------------------------------------------------- one row per operation


def test_every_operation_of_the_document_has_exactly_one_row_and_every_row_an_operation():
    assert len(OPERATIONS) == sum(1 for item in DOC["paths"].values() for m in item if m in METHODS) > 0
    assert len(ENDPOINTS_BY_ID) == len(ENDPOINTS), "two rows share an operation id"
    rows = {(row.operation_id, row.method, row.path) for row in ENDPOINTS}
    assert rows == {(op_id, method, path) for op_id, (method, path, _) in OPERATIONS.items()}
    assert [by_operation(row.operation_id) for row in ENDPOINTS] == list(ENDPOINTS)
    with pytest.raises(KeyError, match="no operation 'get_companies'"):
        by_operation("get_companies")


def test_rows_are_grouped_by_resource():
    order = [row.resource for row in ENDPOINTS]
    assert set(order) <= set(RESOURCES)
    assert order == sorted(order, key=RESOURCES.index), "ENDPOINTS is not grouped in the order of RESOURCES"


@pytest.mark.parametrize("row", ROWS)
def test_local_only_is_the_documents_extension(row):
    assert row.local_only is bool(operation_of(row).get("x-regkit-local", False))


@pytest.mark.parametrize("row", ROWS)
def test_the_scope_agrees_with_the_documents_security_and_tags(row):
    operation = operation_of(row)
    assert row.scope in SCOPES
    assert (row.scope == "public") is (operation.get("security") == []), "public means: no bearer token"
    user_tags = {"transparenzregister", "monitor", "account"}
    assert (row.scope == "user") is bool(set(operation["tags"]) & user_tags)


# --------------------------------------------------------------------------- prices


@pytest.mark.parametrize("row", ROWS)
def test_the_price_keys_are_the_documents_credits(row):
    credits = operation_of(row)["x-regkit-credits"]
    assert sorted(row.price_keys) == sorted(credits)
    assert {key: PRICES[key] for key in row.price_keys} == credits
    assert row.paid is any(value > 0 for value in credits.values())


@pytest.mark.parametrize("row", ROWS)
def test_a_realtime_price_exactly_where_the_operation_takes_realtime(row):
    assert (row.realtime_price is not None) is ("realtime" in parameters_of(row, "query"))
    if row.realtime_price is not None:
        assert row.credits(realtime=True) == PRICES[row.realtime_price] > row.credits()
    else:
        with pytest.raises(ValueError, match="no realtime variant"):
            row.credits(realtime=True)
    assert row.realtime_cached is False  # realtime answers are never stored


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].price_choice is not None])
def test_a_price_choice_names_what_the_request_carries(row):
    choice = row.price_choice
    assert choice.part in ("body", "header")
    if choice.part == "header":
        assert choice.name in parameters_of(row, "header")
        assert [value for value, _ in choice.prices] == [SANDBOX_CREDENTIAL_NAME]
    else:
        schema = body_schema(row)
        branches = [resolved(b) for b in schema.get("oneOf", [schema])]
        (member,) = [b["properties"][choice.name] for b in branches if choice.name in b.get("properties", {})]
        assert {value for value, _ in choice.prices} < set(resolved(member)["enum"])
        assert choice.label == member["default"], "the row's own price is that of the default"
    for value, key in choice.prices:
        assert row.credits(choice=value) == PRICES[key]
    assert row.credits(choice="anything else") == row.credits() == PRICES[row.price]


def test_the_monitor_and_extract_prices():
    assert (
        by_operation("create_monitor").credits(choice="daily")
        == DOC["paths"]["/v1/monitor"]["post"]["x-regkit-credits"]["monitor_daily"]
    )
    extracts = DOC["paths"]["/v1/transparenzregister/extracts"]["post"]["x-regkit-credits"]
    assert by_operation("order_extract").credits(choice="default") == extracts["extract_production"]
    assert by_operation("order_extract").credits(choice="sandbox") == extracts["extract_sandbox"]


@pytest.mark.parametrize("row", ROWS)
def test_paged_rows_are_the_searches_with_a_pagination_body(row):
    assert row.paged is ("pagination" in body_schema(row).get("properties", {}))


# --------------------------------------------------------------------------- parameters and identifiers


@pytest.mark.parametrize("row", ROWS)
def test_the_path_parameters_are_the_documents(row):
    assert list(row.path_parameters) == list(parameters_of(row, "path"))
    assert all(p.get("required") for p in parameters_of(row, "path").values())


def _check_agrees(check: str, parameter: dict[str, Any]) -> bool:
    schema = resolved(parameter["schema"])
    if check == "company_id":
        return schema["pattern"].removesuffix("$") == COMPANY_ID_PATTERN.pattern.removesuffix(r"\Z")
    if check == "uuid":
        return schema.get("format") == "uuid"
    if check == "extract_id":
        return schema["pattern"].removesuffix("$") == EXTRACT_ID_PATTERN.pattern.removesuffix(r"\Z")
    if check == "website":
        return parameter["name"] == "url" and "pattern" in schema
    return schema.get("type") == "string"  # document_id, entity_id: strings the client checks further


@pytest.mark.parametrize("row", ROWS)
def test_the_identifier_is_a_parameter_of_the_operation_and_its_check_fits_the_document(row):
    path, query = parameters_of(row, "path"), parameters_of(row, "query")
    if row.identifier is None:
        assert not path and row.identifier_check is None
        return
    assert row.identifier in path or (not path and row.identifier in query), "a query identifier only without path"
    parameter = path.get(row.identifier) or query[row.identifier]
    if row.identifier_check is None:
        assert row.scope == "public", "only presigned downloads go unchecked: their signature is the check"
    else:
        assert row.identifier_check in IDENTIFIER_CHECKS
        assert _check_agrees(row.identifier_check, parameter), (row.identifier_check, parameter)


@pytest.mark.parametrize("row", ROWS)
def test_a_path_keeps_slashes_unquoted_only_where_its_ids_are_checked(row):
    assert row.quote_safe in ("/", "")
    if row.quote_safe == "/" and row.path_parameters:
        assert row.identifier_check is not None and row.identifier_check != "document_id"


# --------------------------------------------------------------------------- cache rules and client names


@pytest.mark.parametrize("row", ROWS)
def test_cache_and_storage_rules_are_of_the_vocabulary(row):
    assert row.cache is None or row.cache in CACHE_LIFETIMES
    assert (row.stored_when is None) is (row.cache is None)
    assert row.stored_when is None or row.stored_when in STORED_WHEN
    if row.stored_when in ("names_company", "names_company_id", "names_person", "names_document"):
        assert row.answer_names is not None
    if row.stored_when in ("names_company_id", "has_list"):
        assert row.answer_list is not None
    if row.scope != "register":
        assert row.cache is None or row.operation_id == "get_extract"  # kept under the user's scope header
    assert row.summary_mark is None or row.summary_mark in SUMMARY_MARKS


def test_every_cache_lifetime_is_a_field_of_the_clients_cache_policy():
    fields = {f.name for f in dataclasses.fields(regkit.client.CachePolicy)}
    assert set(CACHE_LIFETIMES) <= fields


@pytest.mark.parametrize("row", ROWS)
def test_the_client_method_and_record_are_the_clients(row):
    if row.client_method is None:
        assert row.local_only and row.record is None and row.lookup is None
        return
    method = getattr(regkit.client.Client, row.client_method)
    returned = str(inspect.signature(method).return_annotation)
    if row.record is None:
        assert returned == "None"
    else:
        assert re.fullmatch(rf"(list\[)?{row.record}\]?", returned), returned
        assert isinstance(getattr(regkit.client, row.record), type)


def test_the_lookups():
    assert sorted(LOOKUP_NAMES) == sorted(row.lookup for row in ENDPOINTS if row.lookup)
    assert by_lookup("owners_historical").operation_id == "get_historical_owners"
    for name in LOOKUP_NAMES:
        row = by_lookup(name)
        assert row.method == "GET" and row.identifier_check is not None and row.cache is not None
    for wrong in ("companies", "", None):
        with pytest.raises(KeyError, match="no lookup"):
            by_lookup(wrong)  # type: ignore[arg-type]


def test_the_clients_lookups_are_the_tables_rows_and_each_identifier_is_checked():
    from regkit.client.lookups import CHECKS, LOOKUPS

    assert list(LOOKUPS) == list(LOOKUP_NAMES)
    for name, row in LOOKUPS.items():
        assert row.lookup == name
        assert row.identifier_check in CHECKS, f"{name}: the client does not check {row.identifier_check}"


# The client's cache rules come from the table: each row's lifetime and storage rule must be what they say.
_POLICY_VALUES = {
    "company": timedelta(days=1),
    "search": timedelta(days=2),
    "insolvency": timedelta(days=3),
    "extract": timedelta(days=4),
    "ownership": timedelta(days=5),
    "person": timedelta(days=6),
    "autocomplete": timedelta(hours=7),
    "document": timedelta(minutes=1),
    "financials": timedelta(days=8),
}


def _client_policy() -> tuple[Any, Any]:
    policy_class = regkit.client.CachePolicy
    return policy_class(**_POLICY_VALUES), sys.modules[policy_class.__module__].answers


@pytest.mark.parametrize("row", ROWS)
def test_the_cache_lifetime_is_the_policys_field_the_row_names_also_as_url_patterns(row):
    policy, _ = _client_policy()
    base = "https://api.example"
    rules = policy.urls_expire_after(base)
    url = base + sample_path(row) + sample_query(row)
    expected = (
        None if row.cache is None else getattr(policy, "document_lifetime" if row.cache == "document" else row.cache)
    )
    assert policy.lifetime(rules, url) == expected
    assert policy.lifetime_of(row.cache) == expected
    if row.realtime_price is not None:
        assert policy.lifetime(rules, base + sample_path(row) + "?realtime=true") is None


def _stored(row: Endpoint, asked: str | None, data: Any) -> bool:
    """The rules of STORED_WHEN, as its descriptions say them."""
    if not isinstance(data, dict):
        return False
    named = data.get(row.answer_names) if row.answer_names else None
    rule = row.stored_when
    if rule == "names_company":
        registers = [r.get("company_id") for r in data.get("registers") or [] if isinstance(r, dict)]
        return asked in {named, *registers}
    if rule == "names_company_id":
        return (
            isinstance(named, str)
            and bool(COMPANY_ID_PATTERN.match(named))
            and isinstance(data.get(row.answer_list), list)
        )
    if rule == "has_list":
        return isinstance(data.get(row.answer_list), list)
    if rule == "whole_financials":
        return isinstance(data.get("indicators"), list) and isinstance(data.get("reports"), list) and "merged" in data
    if rule in ("names_person", "names_document"):
        return isinstance(named, str) and asked is not None and named.casefold() == asked.casefold()
    if rule == "terminal_extract":
        return data.get("status") in ("completed", "failed")
    return rule == "json_object"


def _answers_to_try(asked: str) -> list[Any]:
    return [
        [],
        "text",
        {},
        {"id": asked},
        {"id": asked.upper()},
        {"id": FORMER},
        {"id": FORMER, "registers": [{"company_id": asked}]},
        {"id": FORMER, "registers": ["x", {"company_id": FORMER}]},
        {"company_id": FORMER, "owners": []},
        {"company_id": "not an id", "owners": []},
        {"company_id": asked, "holdings": []},
        {"company_id": asked, "holdings": None},
        {"company_id": asked, "ubos": []},
        {"owners": []},
        {"owners": {}},
        {"indicators": [], "reports": [], "merged": None},
        {"indicators": [], "reports": []},
        {"person_id": asked.upper()},
        {"person_id": FORMER},
        {"status": "completed"},
        {"status": "failed"},
        {"status": "processing"},
    ]


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].cache is not None])
def test_what_the_client_stores_is_what_the_rows_rule_says(row):
    _, answers = _client_policy()
    asked = SAMPLES[row.identifier] if row.identifier else None
    for data in _answers_to_try(asked or COMPANY):
        assert _stored(row, asked, data) is answers(row, asked, data), (row.operation_id, data)


# --------------------------------------------------------------------------- paths: path_for and match

_COMPANY_IDS = st.from_regex(DOC["components"]["schemas"]["CompanyId"]["pattern"].removesuffix("$") + r"\Z")
_UUIDS = st.uuids().map(str)
_ANY_TEXT = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40)
_VALUES = {
    "company_id": _COMPANY_IDS,
    "uuid": _UUIDS,
    "extract_id": st.from_regex(r"\Atre_[0-9]+\Z"),
    "entity_id": st.one_of(_COMPANY_IDS, _UUIDS),
    "document_id": _UUIDS,
}


def _values_of(row: Endpoint) -> st.SearchStrategy[dict[str, str]]:
    """Valid values of a row's path parameters: checked ids where it is checked, any text where it is not."""
    return st.fixed_dictionaries(
        {
            name: _VALUES[row.identifier_check] if name == row.identifier and row.identifier_check else _ANY_TEXT
            for name in row.path_parameters
        }
    )


@pytest.mark.parametrize("row", ROWS)
@given(data=st.data())
def test_match_finds_the_row_and_the_values_of_any_path_path_for_builds(row, data):
    values = data.draw(_values_of(row))
    path = row.path_for(**values)
    assert match(row.method, path) == (row, values)
    assert match(row.method.lower(), path + "?realtime=true#x") == (row, values)
    if row.quote_safe == "/":  # checked ids: the unquoted path is the same string
        assert path == row.path.format(**values)


def test_no_two_rows_could_match_one_request():
    def clash(a: str, b: str) -> bool:
        left, right = a.split("/"), b.split("/")
        return len(left) == len(right) and all(x == y or "{" in x or "{" in y for x, y in zip(left, right))

    clashing = [
        (a.operation_id, b.operation_id)
        for i, a in enumerate(ENDPOINTS)
        for b in ENDPOINTS[i + 1 :]
        if a.method == b.method and clash(a.path, b.path)
    ]
    assert not clashing


@pytest.mark.parametrize(
    "method, path, expected",
    [
        ("GET", f"/v1/company/{COMPANY}", ("get_company", {"company_id": COMPANY})),
        ("GET", f"/v1/company/{COMPANY}/", ("get_company", {"company_id": COMPANY})),
        ("GET", f"/v1/company/{COMPANY}?realtime=true", ("get_company", {"company_id": COMPANY})),
        ("GET", f"/v1/company/{COMPANY}/owners", ("get_owners", {"company_id": COMPANY})),
        ("GET", f"/v1/company/{COMPANY}/owners/historical", ("get_historical_owners", {"company_id": COMPANY})),
        ("GET", "/v1/company/owners", ("get_company", {"company_id": "owners"})),
        ("GET", "/v1/company/X%2Fowners", ("get_company", {"company_id": "X/owners"})),
        ("GET", f"/v1/company/{COMPANY}/ubo", ("get_ubos", {"company_id": COMPANY})),
        ("GET", f"/v0/company/{COMPANY}/contact", ("get_contact", {"company_id": COMPANY})),
        ("GET", "/v1/document", ("get_realtime_document", {})),
        ("GET", "/v1/document?company_id=x&document_category=y", ("get_realtime_document", {})),
        ("GET", "/v1/document/abc", ("get_document", {"document_id": "abc"})),
        ("GET", "/v1/documents/abc", ("download_document", {"document_id": "abc"})),
        ("GET", "/v1/financials/a%2Fb/r", ("download_financial_report", {"company_id": "a/b", "report_id": "r"})),
        ("GET", "/v1/monitor", ("list_monitors", {})),
        ("POST", "/v1/monitor", ("create_monitor", {})),
        ("delete", f"/v1/monitor/{PERSON}", ("delete_monitor", {"entity_id": PERSON})),
        ("GET", f"/v1/company/{COMPANY}/owners/other", None),
        ("GET", f"/v1/company/{COMPANY}/unknown", None),
        ("GET", "/v1/company/", None),
        ("GET", "/v1/company//owners", None),
        ("GET", f"/v1/company/{COMPANY}//", None),
        ("POST", f"/v1/company/{COMPANY}", None),
        ("DELETE", "/v1/monitor", None),
        ("GET", "/v2/credits", None),
        ("GET", "/", None),
        ("GET", "", None),
    ],
)
def test_match_on_overlapping_and_foreign_paths(method, path, expected):
    found = match(method, path)
    assert (found if found is None else (found[0].operation_id, found[1])) == expected


def test_path_for_takes_exactly_the_path_parameters_as_strings():
    row = by_operation("download_financial_report")
    assert row.path_for(company_id=COMPANY, report_id="a b/c") == f"/v1/financials/{COMPANY}/a%20b%2Fc"
    with pytest.raises(TypeError, match="takes the path parameters"):
        row.path_for(company_id=COMPANY)
    with pytest.raises(TypeError, match="takes the path parameters"):
        by_operation("get_credits").path_for(company_id=COMPANY)
    with pytest.raises(TypeError, match="must be a string"):
        by_operation("get_company").path_for(company_id=1)  # type: ignore[arg-type]
    assert by_operation("get_company").path_for(company_id="a b/c") == "/v1/company/a%20b/c"  # as quote() does


# --------------------------------------------------------------------------- the local register's routes


def test_every_row_has_a_handler_and_every_handler_a_row():
    assert sorted(HANDLERS) == sorted(ENDPOINTS_BY_ID)
    assert len({id(handler) for handler in HANDLERS.values()}) == len(HANDLERS), "one handler serves two operations"
    assert [(route.method, route.handler) for route in ROUTES] == [
        (r.method, HANDLERS[r.operation_id]) for r in ENDPOINTS
    ]
    assert PUBLIC_ENDPOINTS == {route.endpoint for route in ROUTES if route.public}
    assert {route.handler.__name__ for route in ROUTES if route.public} == {
        "download_document",
        "download_report",
        "get_openapi",
    }


@pytest.mark.parametrize("row", ROWS)
def test_a_handler_takes_its_rows_path_parameters(row):
    assert list(inspect.signature(HANDLERS[row.operation_id]).parameters) == list(row.path_parameters)


def _adapter() -> Any:
    app = Flask("endpoint_table_test")
    app.url_map.merge_slashes = False
    add_routes(app)
    return app.url_map.bind("local.regkit")


@pytest.mark.parametrize("row", ROWS)
def test_the_local_register_routes_each_rows_path_to_its_handler(row):
    route = ROUTES[ENDPOINTS.index(row)]
    assert _adapter().match(sample_path(row), method=row.method) == (
        route.endpoint,
        {name: SAMPLES[name] for name in row.path_parameters},
    )


@pytest.mark.parametrize(
    "method, path, expected",
    [
        ("GET", f"/v1/company/{COMPANY}/owners", ("ownership.get_owners", {"company_id": COMPANY})),
        (
            "GET",
            f"/v1/company/{COMPANY}/owners/historical",
            ("ownership_history.get_historical_owners", {"company_id": COMPANY}),
        ),
        # one path parameter takes the rest of the path: a malformed id reaches the handler (its 400/404)
        ("GET", "/v1/company/a/b", ("companies.get_company", {"company_id": "a/b"})),
        ("GET", "/v1/person/a/b/holdings", ("persons.get_person_holdings", {"person_id": "a/b"})),
        ("GET", "/v1/documents/a/b", ("documents.download_document", {"document_id": "a/b"})),
        # two are one segment each
        ("GET", "/v1/financials/a/b", ("financials.download_report", {"company_id": "a", "report_id": "b"})),
    ],
)
def test_the_local_register_keeps_its_path_rules(method, path, expected):
    assert _adapter().match(path, method=method) == expected


def test_a_report_path_with_more_segments_is_no_route():
    from werkzeug.exceptions import NotFound

    with pytest.raises(NotFound):
        _adapter().match("/v1/financials/a/b/c", method="GET")


# --------------------------------------------------------------------------- docs/interface.md


def test_the_interface_pages_endpoint_table_is_generated_from_the_table():
    page = (ROOT / "docs" / "interface.md").read_text(encoding="utf-8")
    assert page.count(generator.BEGIN) == 1 and page.count(generator.END) == 1
    assert page == generator.render_page(page, DOC), "run: python docs/generate_interface_tables.py"


def test_the_generated_table_has_a_line_per_operation_with_the_documents_statuses():
    lines = generator.table(DOC).splitlines()[2:]
    assert len(lines) == len(OPERATIONS)
    for line, row in zip(lines, ENDPOINTS):
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        assert cells[0].startswith(f"`{row.method} {row.path}")
        statuses = list(operation_of(row)["responses"])
        assert cells[3].split(" ")[0].rstrip(",") in [s for s in statuses if s.startswith("2")]
        assert cells[4] == ", ".join(s for s in statuses if not s.startswith("2"))
        assert ("**(local only)**" in cells[1]) is row.local_only
    assert "| `GET /v1/document?company_id=…&document_category=…` |" in "\n".join(lines)
    assert "| 50 production **(ours)**; 0 sandbox |" in "\n".join(lines)
    assert "| 10; 20 with `realtime=true` **(ours)** |" in "\n".join(lines)


def test_check_mode_reports_a_stale_page(tmp_path, monkeypatch):
    page = tmp_path / "interface.md"
    page.write_text(f"# Endpoints\n\n{generator.BEGIN}\n| old |\n{generator.END}\n\nAfter.\n", encoding="utf-8")
    monkeypatch.setattr(generator, "PAGE", page)
    assert generator.main(["--check"]) == 1
    assert generator.main([]) == 0 and generator.main(["--check"]) == 0
    text = page.read_text(encoding="utf-8")
    assert "| `GET /v1/credits` | credits used and remaining **(live)** | 0 | 200 | 401, 429, 500 |" in text
    assert text.endswith(f"{generator.END}\n\nAfter.\n") and "| old |" not in text


def test_the_examples_in_the_docstrings_hold():
    import regkit.local.urls

    for module in (endpoints, regkit.local.urls):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
