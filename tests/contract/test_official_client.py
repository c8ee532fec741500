"""Contract test: the live service's official client, strictly validating, against ``regkit serve``.

Every method of ``openregister-sdk`` that the local register's interface shares is driven over real HTTP
(company lookups plain / export / realtime, insolvency search and details, Transparenzregister extracts and
credentials, monitors, credits), and every error status maps to the client's exception class with the
register's error code. What the client parses is compared with the bundled world the register serves.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest
from openregister import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
)

pytestmark = pytest.mark.serve

VALID_ACCOUNT = {"username": "tr-demo@regkit.example", "password": "Transparenz-2026!"}  # data/README.md
LOCKED_ACCOUNT = {"username": "tr-locked@regkit.example", "password": "Gesperrt-2026!"}
SEARCH_ONLY = ("city", "person_id", "has_open_insolvency")


def dump(model: Any) -> dict[str, Any]:
    """What the client parsed, as JSON with the interface's member names (only members the server sent)."""
    return model.to_dict(mode="json")


def code_of(error: APIStatusError) -> str:
    """The ``error.code`` of an error response's body."""
    return error.body["error"]["code"]


def scenario(world, case: str) -> str:
    """The id the scenario table (``world.json`` ``scenarios``, ``data/README.md``) gives for ``case``."""
    return next(row["company_id"] for row in world.meta["scenarios"] if row["case"] == case)


def used(sdk) -> int:
    """Credits the client's user has used (``GET /v1/credits``, free)."""
    return sdk.usage.get_credits_v1().used_credits


def poll(sdk, extract_id: str, timeout: float = 60.0):
    """Poll an extract with ``get_v1`` until it is no longer ``processing``."""
    deadline = time.monotonic() + timeout
    while True:
        extract = sdk.transparenzregister.extract.get_v1(extract_id)
        if extract.status != "processing" or time.monotonic() > deadline:
            return extract
        time.sleep(0.1)


# --------------------------------------------------------------------------- company


@pytest.mark.slow
def test_company_plain_export_and_realtime_parse_strictly(register, world):
    sdk = register.client()
    scenario_ids = {row["company_id"] for row in world.meta["scenarios"]} & set(world.companies)
    sample = sorted(scenario_ids | set(list(world.companies)[::50]))
    before = used(sdk)
    for company_id in sample:
        stored = world.companies[company_id]
        exported = sdk.company.get_details_v1(company_id, export=True)
        assert exported.sources == []
        assert dump(exported) == {**stored, "sources": []}  # every member, parsed as served
        plain = sdk.company.get_details_v1(company_id)
        assert dump(plain) == {**stored, "sources": dump(plain)["sources"]}
        assert len(plain.sources) == len(stored["documents"])
        assert isinstance(plain.incorporated_at, date)
    realtime = sorted(world.realtime)
    for company_id in realtime:
        fresh = sdk.company.get_details_v1(company_id, realtime=True, export=True)
        assert (
            dump(fresh)
            == {**world.realtime[company_id], "sources": []}
            != {**world.companies[company_id], "sources": []}
        )
    assert used(sdk) - before == 2 * 10 * len(sample) + 20 * len(realtime)


def test_company_source_urls_are_presigned_downloads_on_the_server(register, world):
    company = register.client().company.get_details_v1(scenario(world, "unique Transparenzregister match"))
    assert company.sources
    for source in company.sources:
        assert source.document_url.startswith(f"{register.url}/v1/documents/")
        download = httpx.get(source.document_url)  # no key: the signature is the authorisation
        assert download.status_code == 200 and download.headers["content-type"] == "application/pdf"


# --------------------------------------------------------------------------- insolvency search


def _search_all(sdk, **body: Any) -> tuple[list[Any], Any]:
    """Every result of a search, page by page (100 a page), then one page past the end."""
    results, page = [], 1
    while True:
        found = sdk.search.find_insolvencies_v1(pagination={"page": page, "per_page": 100}, **body)
        if not found.results:
            return results, found.pagination
        assert found.pagination.page == page and found.pagination.total_pages >= page
        results += found.results
        page += 1


def test_search_without_arguments_lists_every_proceeding_on_default_pages(register, world):
    found = register.client().search.find_insolvencies_v1()
    assert (found.pagination.page, found.pagination.per_page) == (1, 10)
    assert found.pagination.total_results == len(world.insolvencies) and len(found.results) == 10


def test_search_pages_through_everything_and_past_the_end(register, world):
    results, past_the_end = _search_all(register.client())
    ids = [r.id for r in results]
    assert sorted(ids) == sorted(world.insolvencies)  # each proceeding exactly once
    assert past_the_end.total_results == len(world.insolvencies)
    assert past_the_end.page == past_the_end.total_pages + 1
    order = [(r.last_event_at, r.id) for r in results]  # last_event_at descending, then id
    assert order == sorted(order, key=lambda k: (-k[0].toordinal(), k[1]))
    for result in results:
        stored = world.insolvencies[result.id]
        assert (result.debtor_name, result.current_status, result.has_open_insolvency, result.city) == (
            stored["debtor_name"],
            stored["current_status"],
            stored["has_open_insolvency"],
            stored["city"],
        )


def test_search_query_as_the_official_client_sends_it(register, world):
    target = world.insolvencies[scenario(world, "consumer insolvency with discharge (insolvency id)")]
    word = target["debtor_name"].split()[-1]
    found = register.client().search.find_insolvencies_v1(query={"value": word.lower()})
    assert target["id"] in {r.id for r in found.results}
    for result in found.results:
        stored = world.insolvencies[result.id]
        texts = (stored["debtor_name"], stored["case_number"], stored["administrator_name"] or "", stored["court"])
        assert any(word.casefold() in text.casefold() for text in texts), result.id


FILTERS: dict[str, tuple[list[dict[str, Any]], Callable[[dict[str, Any]], bool]]] = {
    "value": ([{"field": "current_status", "value": "opened"}], lambda p: p["current_status"] == "opened"),
    "values": (
        [
            {"field": "current_status", "values": ["discharge_pending", "discharge_granted"]},
            {"field": "debtor_kind", "values": ["natural_person"]},
        ],
        lambda p: (
            p["current_status"] in ("discharge_pending", "discharge_granted") and p["debtor_kind"] == "natural_person"
        ),
    ),
    # keywords without umlauts or ae/oe/ue/ss, so that case-insensitive containment is the whole rule
    "keywords": (
        [{"field": "court", "keywords": ["amtsgericht", "stuttgart"]}],
        lambda p: "stuttgart" in p["court"].casefold() and "amtsgericht" in p["court"].casefold(),
    ),
    "min/max": (
        [{"field": "opened_at", "min": "2023-01-01", "max": "2024-12-31"}],
        lambda p: p["opened_at"] is not None and "2023-01-01" <= p["opened_at"] <= "2024-12-31",
    ),
    "min only, boolean value": (
        [{"field": "last_event_at", "min": "2025-01-01"}, {"field": "has_open_insolvency", "value": "true"}],
        lambda p: p["last_event_at"] >= "2025-01-01" and p["has_open_insolvency"],
    ),
}


@pytest.mark.parametrize("kind", FILTERS)
def test_search_filters_of_every_kind(register, world, kind):
    filters, keeps = FILTERS[kind]
    expected = {p["id"] for p in world.insolvencies.values() if keeps(p)}
    assert expected  # the world has proceedings of that kind
    results, past_the_end = _search_all(register.client(), filters=filters)
    assert {r.id for r in results} == expected and past_the_end.total_results == len(expected)


# --------------------------------------------------------------------------- insolvency details


@pytest.mark.slow
def test_every_proceeding_of_the_world_parses_strictly(register, world):
    sdk = register.client()
    event_types: set[str] = set()
    amounts: list[str] = []
    dates: list[str] = []
    for proceeding_id, stored in world.insolvencies.items():
        parsed = sdk.insolvency.get_details_v1(proceeding_id)
        expected = {k: v for k, v in stored.items() if k not in SEARCH_ONLY}
        expected["insolvency_grounds"] = stored["insolvency_grounds"] or []  # the detail always has the array
        assert dump(parsed) == expected, proceeding_id
        for event in parsed.events:
            event_types.add(event.event_type)
            details = event.details
            amounts += [a for a in (details.distribution_available, details.distribution_claims_total) if a]
            dates += [d for d in (details.claims_filing_deadline, details.closed_at) if d]
    assert event_types == {e["event_type"] for p in world.insolvencies.values() for e in p["events"]}
    assert all(isinstance(text, str) for text in amounts + dates)
    shapes = Counter(re.sub(r"\d+", "9", text) for text in amounts + dates)
    for shape in ("9.9,9 €", "9.9,9 EUR", "EUR 9.9,9", "9.9", "9,9 Euro", "9.9.9", "9-9-9"):
        assert shape in shapes, (shape, shapes)
    assert any(not re.search(r"\d", text) for text in amounts) and any(not re.search(r"\d", t) for t in dates)


# --------------------------------------------------------------------------- Transparenzregister


def test_credentials_are_stored_and_overwritten(register):
    store = register.client().transparenzregister.set_credentials_v1
    assert store(**VALID_ACCOUNT) is None  # name "default"
    assert store(**VALID_ACCOUNT, name="client_a") is None
    assert store(**VALID_ACCOUNT, name="client_a") is None  # overwriting a name is always allowed


def test_sandbox_extract_is_created_then_polled_to_completion(register, world):
    sdk = register.client()
    before = used(sdk)
    order = sdk.transparenzregister.extract.create_v1(x_credential_name="sandbox")
    assert (order.status, order.company_id, order.ekrn) == (
        "processing",
        None,
        world.meta["transparenzregister"]["sandbox_ekrn"],
    )
    assert re.fullmatch(r"tre_\d+", order.id) and order.submitted_at.tzinfo is not None
    done = poll(sdk, order.id)
    assert done.status == "completed" and done.completed_at >= done.submitted_at and done.reference_number
    flags = done.report.status_flags
    assert isinstance(flags.corrected_by_reference, str) and flags.deleted is False  # a corrected test notice
    assert done.report.ubos and done.report.ubos[0].natural_person.last_name
    assert [d.format for d in done.documents] == ["pdf"]
    assert used(sdk) == before  # sandbox orders and polling are free


def test_production_extract_completes_or_fails_and_costs_50(register, world):
    sdk = register.client()
    sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name="production")
    entities = world.meta["transparenzregister"]["entities"]
    unique = scenario(world, "unique Transparenzregister match")
    before = used(sdk)
    order = sdk.transparenzregister.extract.create_v1(company_id=unique, x_credential_name="production")
    assert (order.status, order.company_id, order.ekrn) == ("processing", unique, entities[unique][0])
    done = poll(sdk, order.id)
    assert done.status == "completed" and done.report.status_flags.corrected_by_reference is None
    assert done.report.ubos and done.documents
    document = httpx.get(done.documents[0].url)
    assert document.status_code == 200 and document.content.startswith(b"%PDF")
    # a company deleted from the register (inactive) with one entity: the extract is ordered, then fails
    deleted = next(
        c for c, ekrns in sorted(entities.items()) if len(ekrns) == 1 and world.companies[c]["status"] == "inactive"
    )
    failed = poll(sdk, sdk.transparenzregister.extract.create_v1(company_id=deleted, x_credential_name="production").id)
    assert failed.status == "failed" and failed.report is None and failed.documents is None
    assert used(sdk) - before == 2 * 50


# --------------------------------------------------------------------------- monitors and credits


def test_monitors_are_created_listed_and_deleted(register, world):
    sdk = register.client()
    company_id = scenario(world, "large group's Organträger")
    other_id = scenario(world, "GmbH & Co. KG")
    person_id = next(
        r["id"]
        for c in world.companies.values()
        if c["status"] == "active"
        for r in c["representation"]
        if r["type"] == "natural_person" and r["id"]
    )
    before = used(sdk)
    weekly = sdk.monitor.create(entity_type="company", entity_id=company_id, preferences=["basic", "insolvencies"])
    assert (weekly.entity_id, weekly.update_frequency, weekly.disabled) == (company_id, "weekly", False)
    daily = sdk.monitor.create(
        entity_type="company", entity_id=other_id, preferences=["financials"], update_frequency="daily"
    )
    assert daily.update_frequency == "daily"
    person = sdk.monitor.create(entity_type="person", entity_id=person_id, preferences=["management_positions"])
    assert (person.entity_type, person.update_frequency) == ("person", "weekly")
    listed = {item.entity_id: item for item in sdk.monitor.list().items}
    assert {company_id, other_id, person_id} <= set(listed) and listed[other_id].preferences == ["financials"]
    assert sdk.monitor.delete(company_id) is None
    assert company_id not in {item.entity_id for item in sdk.monitor.list().items}
    assert used(sdk) - before == 25 + 50 + 25


@pytest.mark.parametrize("key", ["demo-paid", "demo-free", "demo-empty"])
def test_credits_of_every_plan(register, world, key):
    user = next(u for u in world.meta["users"] if u["api_key"] == key)
    credits = register.client(key).usage.get_credits_v1()
    assert credits.included_credits == user["included_credits"]
    assert credits.paid is world.meta["plans"][user["plan"]]["paid"]
    assert credits.period.type == user["period"] and credits.period.reset_at.tzinfo is not None
    assert credits.remaining_credits == max(credits.included_credits - credits.used_credits, 0)


# --------------------------------------------------------------------------- errors


def _locked_credentials(sdk, world):
    sdk.transparenzregister.set_credentials_v1(**LOCKED_ACCOUNT, name="locked")  # the password is right
    return lambda: sdk.transparenzregister.extract.create_v1(
        company_id=scenario(world, "unique Transparenzregister match"), x_credential_name="locked"
    )


def _monitor_twice(sdk, world):
    company_id = scenario(world, "company in liquidation")
    sdk.monitor.create(entity_type="company", entity_id=company_id, preferences=["basic"])
    return lambda: sdk.monitor.create(entity_type="company", entity_id=company_id, preferences=["basic"])


def _order(case: str, name: str = "errors"):
    def prepare(sdk, world):
        sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name=name)
        return lambda: sdk.transparenzregister.extract.create_v1(
            company_id=scenario(world, case), x_credential_name=name
        )

    return prepare


def _call(function: Callable[[Any, Any], Any]):
    """A case without set-up: ``function(sdk, world)`` is the failing call."""
    return lambda sdk, world: lambda: function(sdk, world)


#: (status, the official client's exception class, error code, API key, prepare(sdk, world) -> the failing call)
ERRORS = {
    "malformed company id": (
        400,
        BadRequestError,
        "invalid_company_id",
        "demo-paid",
        _call(lambda sdk, world: sdk.company.get_details_v1("DE-HRB-1")),
    ),
    "unknown filter value": (
        400,
        BadRequestError,
        "invalid_filter",
        "demo-paid",
        _call(
            lambda sdk, world: sdk.search.find_insolvencies_v1(
                filters=[{"field": "current_status", "value": "bankrupt"}]
            )
        ),
    ),
    "page too large": (
        400,
        BadRequestError,
        "invalid_pagination",
        "demo-paid",
        _call(lambda sdk, world: sdk.search.find_insolvencies_v1(pagination={"page": 1, "per_page": 500})),
    ),
    "reserved credential name": (
        400,
        BadRequestError,
        "reserved_credential_name",
        "demo-paid",
        _call(lambda sdk, world: sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name="sandbox")),
    ),
    "unknown API key": (
        401,
        AuthenticationError,
        "unauthorized",
        "not-a-key",
        _call(lambda sdk, world: sdk.usage.get_credits_v1()),
    ),
    "rejected register login": (
        401,
        AuthenticationError,
        "register_credentials_rejected",
        "demo-paid",
        _call(
            lambda sdk, world: sdk.transparenzregister.set_credentials_v1(
                username=VALID_ACCOUNT["username"], password="not-the-password"
            )
        ),
    ),
    "no credits left": (
        402,
        APIStatusError,
        "insufficient_credits",
        "demo-empty",
        _call(lambda sdk, world: sdk.company.get_details_v1(scenario(world, "UG → GmbH conversion"))),
    ),
    "free plan extract": (
        402,
        APIStatusError,
        "plan_required",
        "demo-free",
        _call(lambda sdk, world: sdk.transparenzregister.extract.create_v1(x_credential_name="sandbox")),
    ),
    "free plan monitors": (
        402,
        APIStatusError,
        "plan_required",
        "demo-free",
        _call(lambda sdk, world: sdk.monitor.list()),
    ),
    "locked register account": (
        403,
        PermissionDeniedError,
        "register_authentication_rejected",
        "demo-paid",
        _locked_credentials,
    ),
    "unknown company": (
        404,
        NotFoundError,
        "company_not_found",
        "demo-paid",
        _call(lambda sdk, world: sdk.company.get_details_v1("DE-HRB-Z9999-1")),
    ),
    "unknown proceeding": (
        404,
        NotFoundError,
        "insolvency_not_found",
        "demo-paid",
        _call(lambda sdk, world: sdk.insolvency.get_details_v1("00000000-0000-4000-8000-000000000000")),
    ),
    "unknown extract": (
        404,
        NotFoundError,
        "extract_not_found",
        "demo-paid",
        _call(lambda sdk, world: sdk.transparenzregister.extract.get_v1("tre_999999999")),
    ),
    "no stored credentials of that name": (
        404,
        NotFoundError,
        "credentials_not_found",
        "demo-paid",
        _call(
            lambda sdk, world: sdk.transparenzregister.extract.create_v1(
                company_id=scenario(world, "unique Transparenzregister match"), x_credential_name="never-stored"
            )
        ),
    ),
    "no Transparenzregister match": (
        404,
        NotFoundError,
        "register_entity_not_found",
        "demo-paid",
        _order("no Transparenzregister match"),
    ),
    "no such monitor": (
        404,
        NotFoundError,
        "monitor_not_found",
        "demo-paid",
        _call(lambda sdk, world: sdk.monitor.delete("DE-HRB-Z9999-1")),
    ),
    "ambiguous Transparenzregister match": (
        409,
        ConflictError,
        "ambiguous_register_entity",
        "demo-paid",
        _order("ambiguous Transparenzregister match"),
    ),
    "monitor exists": (409, ConflictError, "monitor_exists", "demo-paid", _monitor_twice),
}


@pytest.mark.parametrize("case", ERRORS)
def test_error_status_maps_to_the_official_clients_exception(register, world, case):
    status, error_class, code, key, prepare = ERRORS[case]
    sdk = register.client(key)
    call = prepare(sdk, world)
    metered = key in {u["api_key"] for u in world.meta["users"]}
    before = used(sdk) if metered else None
    with pytest.raises(APIStatusError) as caught:
        call()
    assert type(caught.value) is error_class, type(caught.value)  # 402 has no class of its own
    assert caught.value.status_code == status and code_of(caught.value) == code
    assert caught.value.body["error"]["message"]
    if metered:
        assert used(sdk) == before  # a refused call spends nothing


@pytest.mark.slow
def test_eleventh_credential_set_is_a_conflict(start_register):
    sdk = start_register().client()
    for number in range(10):  # filled-gaps.md: at most 10 sets per API user
        sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name=f"set-{number}")
    sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name="set-0")  # overwriting stays allowed
    with pytest.raises(ConflictError) as caught:
        sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT, name="set-10")
    assert code_of(caught.value) == "credential_limit_reached"


def test_rate_limit_is_a_rate_limit_error_with_retry_after(start_register):
    sdk = start_register("--rate-limit", "1").client()
    with pytest.raises(RateLimitError) as caught:
        for _ in range(100):  # one request a second is allowed; a burst of them is not
            sdk.usage.get_credits_v1()
    assert code_of(caught.value) == "rate_limited"
    assert int(caught.value.response.headers["Retry-After"]) >= 1


def test_production_extract_quota_is_a_rate_limit_error(start_register, world):
    sdk = start_register("--rate-limit", "0").client()
    quota = world.meta["plans"]["pro"]["extract_quota_30d"]
    sdk.transparenzregister.set_credentials_v1(**VALID_ACCOUNT)
    unique = scenario(world, "unique Transparenzregister match")
    for _ in range(quota):
        assert sdk.transparenzregister.extract.create_v1(company_id=unique, x_credential_name="default").id
    before = used(sdk)
    with pytest.raises(RateLimitError) as caught:
        sdk.transparenzregister.extract.create_v1(company_id=unique, x_credential_name="default")
    assert code_of(caught.value) == "extract_quota_exceeded" and int(caught.value.response.headers["Retry-After"]) > 0
    assert used(sdk) == before
