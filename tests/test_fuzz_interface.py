"""Fuzzing the local register from the interface description (schemathesis 4, in-process WSGI).

Every operation of ``regkit/schema/openapi.json`` is exercised with generated requests, schema-valid
(positive) and schema-invalid (negative), authenticated as ``demo-paid``. The register must never answer
500, and every answer must be one the description declares (status, Content-Type, headers, body).

Random identifiers rarely exist, so about half of the positive cases are steered onto real ones of the
bundled world (companies, proceedings, extracts, signed document URLs, monitors, the valid
Transparenzregister account); that way success bodies are validated too, and each operation must produce at
least one 2xx.

schemathesis' pytest integration for fixtures (``schemathesis.pytest.from_fixture``) does not work with
pytest 9 (it writes ``Item._nodeid``), so the operations are driven through its public Python API instead:
``openapi.from_dict`` → ``APIOperation.as_strategy`` → ``Case.call`` / ``Case.validate_response``.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_check import assert_conforms
from requests.structures import CaseInsensitiveDict
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from regkit.local.app import create_app
from regkit.local.config import Config
from regkit.local.register import LocalRegister
from regkit.schema import COMPANY_ID_PATTERN, load_openapi

pytestmark = pytest.mark.slow

API_KEY = "demo-paid"


def _fuzz_document() -> dict[str, Any]:
    """The description without its global bearer requirement.

    The tests send the key themselves; left in, half of the negative cases would only break the
    ``Authorization`` header instead of parameters and bodies.
    """
    document = copy.deepcopy(load_openapi())
    document.pop("security")
    return document


SCHEMA = schemathesis.openapi.from_dict(_fuzz_document())
OPERATIONS = {op.label: op for op in (result.ok() for result in SCHEMA.get_all_operations())}
DECLARED_REFUSALS: dict[str, dict[str, tuple[str, str]]] = {
    "POST /v1/search/company": {
        "unsupported_location": ("", "the local world has no coordinates to search by location"),
        "unsupported_filter": ("", "fields only the live service filters on"),
        "invalid_filter": ("nothing could match", "a range whose min is after its max"),
    },
    "POST /v1/search/person": {
        "invalid_filter": ("is after max", "a date range whose min is after its max"),
    },
    "POST /v1/transparenzregister/extracts": {
        "invalid_body": ("is required in production mode", "no company_id unless X-Credential-Name selects sandbox"),
    },
}
"""400s for schema-valid requests that a schema cannot express (they depend on a header, on two members at
once, or on what the local register's world lacks): by operation and error code, the words of the message that
single the rule out, and the rule. Each code is named in the operation's 400 description, with the rule."""


def _error(response: Any) -> tuple[str, str]:
    try:
        error = response.json()["error"]
        return str(error["code"]), str(error["message"])
    except (ValueError, KeyError, TypeError):
        return "", ""


@schemathesis.check
def valid_data_accepted(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis' ``positive_data_acceptance``, except for the :data:`DECLARED_REFUSALS`."""
    code, message = _error(response)
    declared = DECLARED_REFUSALS.get(case.operation.label, {}).get(code)
    if response.status_code == 400 and declared is not None and declared[0] in message:
        return None
    return positive_data_acceptance(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    valid_data_accepted,
    negative_data_rejection,
]
FUZZ_SETTINGS = settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def _negatable(label: str) -> bool:
    """Whether an operation has anything to make invalid: a body, or a parameter that is not any string."""
    op = OPERATIONS[label]
    definition = load_openapi()["paths"][op.path][op.method.lower()]
    return "requestBody" in definition or any(
        p["schema"] != {"type": "string"} for p in definition.get("parameters", [])
    )


CASES = [
    (label, mode)
    for label in OPERATIONS
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode is GenerationMode.POSITIVE or _negatable(label)
]


@pytest.fixture(scope="module")
def register(tmp_path_factory) -> Iterator[LocalRegister]:
    """A local register over the bundled world with a fresh state file; no rate limit, instant extracts."""
    state_dir, key_dir = tmp_path_factory.mktemp("fuzz-state"), tmp_path_factory.mktemp("fuzz-key")
    config = Config(rate_limit=None, extract_delay=0, key_path=key_dir / "register.key")
    with LocalRegister(create_app(state_path=state_dir / "state.sqlite", config=config)) as reg:
        yield reg


def _checked(response: requests.Response, *expected: int) -> requests.Response:
    assert_conforms(response)
    assert response.status_code in expected, (response.status_code, response.text[:300])
    return response


@pytest.fixture(scope="module")
def real(register) -> dict[str, list[Any]]:
    """Real values to steer generated cases onto, made by a conforming happy-path walk through the register."""
    world = register.context.catalog.world
    session = register.session(API_KEY)
    base = register.base_url
    scenario_ids = [s["company_id"] for s in world.meta["scenarios"] if COMPANY_ID_PATTERN.match(s["company_id"])]
    company_ids = sorted(set(scenario_ids) | set(itertools.islice(world.companies, 0, None, 100)) | set(world.realtime))
    persons = sorted(
        {
            r["id"]
            for c in itertools.islice(world.companies.values(), 0, None, 100)
            for r in c["representation"]
            if r["type"] == "natural_person" and r["id"]
        }
    )
    account = next(a for a in world.meta["transparenzregister"]["accounts"] if a["state"] == "valid")
    unique = next(cid for cid, ekrns in world.meta["transparenzregister"]["entities"].items() if len(ekrns) == 1)

    _checked(
        session.post(
            f"{base}/v1/transparenzregister/credentials",
            json={"username": account["username"], "password": account["password"]},
        ),
        201,
    )
    extracts = [
        _checked(
            session.post(f"{base}/v1/transparenzregister/extracts", json={}, headers={"X-Credential-Name": "sandbox"}),
            201,
        ).json()["id"],
        _checked(
            session.post(
                f"{base}/v1/transparenzregister/extracts",
                json={"company_id": unique},
                headers={"X-Credential-Name": "default"},
            ),
            201,
        ).json()["id"],
    ]
    documents = []
    for company_id in scenario_ids:
        record = _checked(session.get(f"{base}/v1/company/{company_id}"), 200).json()
        for source in record["sources"][:2]:
            url = urlsplit(source["document_url"])
            query = parse_qs(url.query)
            documents.append((unquote(url.path.rsplit("/", 1)[1]), int(query["expires"][0]), query["signature"][0]))
    reports = []  # presigned HTML of financial reports: (company id, report id, expires, signature)
    for company_id in [c for c in company_ids if world.companies.get(c, {}).get("indicators")][:3]:
        for report in _checked(session.get(f"{base}/v1/company/{company_id}/financials"), 200).json()["reports"][:2]:
            url = urlsplit(report["sources"][0]["html_url"])
            query = parse_qs(url.query)
            reports.append((company_id, report["report_id"], int(query["expires"][0]), query["signature"][0]))
    monitored = company_ids[:3]
    for company_id in monitored:
        _checked(
            session.post(
                f"{base}/v1/monitor", json={"entity_type": "company", "entity_id": company_id, "preferences": ["basic"]}
            ),
            200,
        )
    return {
        "company_id": company_ids,
        "person_id": persons,
        "insolvency_id": sorted(world.insolvencies)[::30],
        "extract_id": extracts,
        "document": documents,
        "report": reports,
        "monitored": monitored,
        "unique": [unique],
        "credential_name": ["default", "sandbox", "default", "not-stored"],
        "account": [account],
        "website": [
            world.companies[c]["contact"]["website_url"]
            for c in company_ids
            if world.companies.get(c, {}).get("contact")
        ],
    }


def _steer(case: Any, real: dict[str, list[Any]], draw: Callable[[Any], Any]) -> None:
    """Replace generated identifiers of ``case`` with real ones of the world (in place)."""
    pick = lambda key: draw(st.sampled_from(real[key]))  # noqa: E731
    path, body = case.path_parameters, case.body
    if "company_id" in path:
        path["company_id"] = pick("company_id")
    if "insolvency_id" in path:
        path["insolvency_id"] = pick("insolvency_id")
    if "person_id" in path:
        path["person_id"] = pick("person_id")
    if "extract_id" in path:
        path["extract_id"] = pick("extract_id")
    if "entity_id" in path:
        path["entity_id"] = pick("monitored") if draw(st.booleans()) else pick("company_id")
    if "document_id" in path:
        document_id, expires, signature = pick("document")
        path["document_id"] = document_id
        case.query = {**(case.query or {}), "expires": expires, "signature": signature}
    if "report_id" in path:
        company_id, report_id, expires, signature = pick("report")
        path.update(company_id=company_id, report_id=report_id)
        case.query = {**(case.query or {}), "expires": expires, "signature": signature}
    if case.operation.label == "POST /v1/transparenzregister/extracts":
        case.headers["X-Credential-Name"] = pick("credential_name")
        if isinstance(body, dict) and "company_id" in body:
            body["company_id"] = pick("unique") if draw(st.booleans()) else pick("company_id")
    if case.operation.label == "POST /v1/transparenzregister/credentials" and isinstance(body, dict):
        account = pick("account")
        body.update(username=account["username"], password=account["password"])
    if case.operation.label == "GET /v1/document" and isinstance(case.query, dict):
        case.query["company_id"] = pick("company_id")
    if case.operation.label == "GET /v0/search/lookup":
        case.query = {**(case.query or {}), "url": pick("website")}
    if case.operation.label == "POST /v1/monitor" and isinstance(body, dict):
        body["entity_id"] = pick("company_id" if body.get("entity_type") == "company" else "person_id")


def _as_requests(response: Any) -> requests.Response:
    """A schemathesis transport response as a ``requests.Response`` (what :func:`assert_conforms` takes)."""
    converted = requests.Response()
    converted.status_code = response.status_code
    converted.headers = CaseInsensitiveDict({k: ", ".join(v) for k, v in response.headers.items()})
    converted._content = response.content
    converted.request = response.request
    converted.url = response.request.url
    return converted


@pytest.mark.parametrize("label,mode", CASES, ids=[f"{label} {mode.value}" for label, mode in CASES])
def test_fuzz_operation(label, mode, register, real):
    operation = OPERATIONS[label]
    statuses: list[int] = []

    @FUZZ_SETTINGS
    @given(case=operation.as_strategy(generation_mode=mode), steer=st.booleans(), data=st.data())
    def run(case, steer, data):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {API_KEY}"}
        if steer and mode is GenerationMode.POSITIVE:
            _steer(case, real, data.draw)
        response = case.call(app=register.app)
        statuses.append(response.status_code)
        case.validate_response(response, checks=CHECKS)
        assert response.status_code < 500, response.content[:300]
        if mode is GenerationMode.POSITIVE:
            assert_conforms(_as_requests(response))

    run()
    if mode is GenerationMode.POSITIVE:
        assert any(200 <= s < 300 for s in statuses), f"{label}: no success among {sorted(set(statuses))}"


@pytest.mark.parametrize("label", sorted(DECLARED_REFUSALS))
def test_declared_refusals_are_in_the_document(label):
    operation = OPERATIONS[label]
    described = load_openapi()["paths"][operation.path][operation.method.lower()]["responses"]["400"]["description"]
    for code in DECLARED_REFUSALS[label]:
        assert f"`{code}`" in described, (label, code)


def test_register_serves_the_package_document(register):
    response = _checked(register.session().get(f"{register.base_url}/v1/openapi.json"), 200)
    served = response.json()
    expected = load_openapi()
    assert served["paths"] == expected["paths"] and served["components"] == expected["components"]
    assert served["info"] == expected["info"]


def test_completed_extract_conforms(register, real):
    session = register.session(API_KEY)
    for extract_id in real["extract_id"]:
        extract = _checked(session.get(f"{register.base_url}/v1/transparenzregister/extracts/{extract_id}"), 200).json()
        assert extract["status"] in ("completed", "failed")
        if extract["status"] == "completed":
            assert extract["report"] is not None and extract["documents"] is not None


@pytest.mark.parametrize("params", [{}, {"export": "true"}, {"realtime": "true"}])
def test_sampled_companies_conform(register, real, params):
    session = register.session(API_KEY)
    for company_id in real["company_id"]:
        record = _checked(session.get(f"{register.base_url}/v1/company/{company_id}", params=params), 200).json()
        assert (record["sources"] == []) is (params.get("export") == "true" or not record["documents"])


def test_sampled_proceedings_and_search_conform(register, real):
    session = register.session(API_KEY)
    for insolvency_id in real["insolvency_id"]:
        _checked(session.get(f"{register.base_url}/v1/insolvency/{insolvency_id}"), 200)
    body = {
        "query": {"value": "gmbh"},
        "filters": [{"field": "has_open_insolvency", "value": "true"}],
        "pagination": {"page": 1, "per_page": 100},
    }
    page = _checked(session.post(f"{register.base_url}/v1/search/insolvency", json=body), 200).json()
    assert page["results"] and page["pagination"]["per_page"] == 100


SECURED = [
    label
    for label, op in OPERATIONS.items()
    if load_openapi()["paths"][op.path][op.method.lower()].get("security") != []
]


@pytest.mark.parametrize("label", SECURED)
def test_secured_operation_without_key_is_401(label, register):
    operation = OPERATIONS[label]

    @settings(FUZZ_SETTINGS, max_examples=3)
    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    def run(case):
        response = case.call(app=register.app)
        case.validate_response(response, checks=CHECKS)
        assert response.status_code == 401, response.content[:300]
        assert_conforms(_as_requests(response))

    run()
