"""The research endpoints through ``regkit.Client``: company and person search, autocomplete, owners, holdings,
persons — against the local register in-process and over loopback HTTP.

Credits are checked against the register's own ``GET /v1/credits`` (``local.used()``); expected shares, owners,
holdings and positions come from the bundled world (``research_support``), never from the client.
"""

from __future__ import annotations

import math
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from research_support import (
    NOT_IN_REGISTER,
    holdings_by_holder,
    owners_by_company,
    pick_group_holder,
    positions_by_person,
)

from regkit.client import (
    BadRequestError,
    BudgetExceededError,
    CachePolicy,
    CompanySearchPage,
    CompanySearchResults,
    HoldingsRecord,
    NotFoundError,
    OwnersRecord,
    PersonRecord,
    PersonSearchPage,
    ValidationError,
)
from regkit.client.arguments import validation
from regkit.client.arguments.filter_fields import COMPANY_FILTERS

UUID = "9922b97a-9c35-4d0b-8d2b-3908753a84b7"


def _no_request_was_made(local: Any, client: Any) -> None:
    assert client.ledger.empty and client.requests_sent == 0 and local.counter.counted == []
    assert local.used() == 0


# -- company search --------------------------------------------------------------------------------------------


def test_company_search_pages_cost_ten_and_a_cached_page_nothing(local: Any, world: Any) -> None:
    client = local.client()
    page = client.search_companies("holding", {"legal_form": ["ag", "se"]}, per_page=5)
    assert isinstance(page, CompanySearchPage) and len(page) == 5 and page.total_results > 5 and page.has_next
    expected = {cid for cid, c in world.companies.items() if c["legal_form"] in ("ag", "se")}
    assert {r["company_id"] for r in page} <= expected
    assert all("holding" in r["name"].lower() for r in page)  # best match first: the current name matches
    again = client.search_companies("holding", [{"field": "legal_form", "values": ["se", "ag"]}], per_page=5)
    assert again.raw == page.raw and again.meta.from_cache and again.meta.credits == 0
    assert local.used() == client.credits_spent == 10 and client.credits_saved == 10
    assert list(client.ledger["call"]) == ["search_companies", "search_companies"]


def test_company_search_filters_reach_the_register_in_the_form_it_takes(local: Any, world: Any) -> None:
    client = local.client()
    frame = client.search_companies(
        filters={"revenue": (50_000_000, None), "active": True}, per_page=100
    ).to_dataframe()
    assert len(frame) and frame["active"].all()
    for cid in frame["company_id"]:
        latest = max(world.companies[cid]["indicators"], key=lambda i: i["date"])
        assert latest["revenue"] >= 50_000_000 * 100  # cents in the record


def test_iter_and_search_all_companies_page_and_agree(inprocess: Any) -> None:
    client = inprocess.client()
    wanted = {"legal_form": "kg"}
    lazily = list(client.iter_companies(filters=wanted, per_page=40, limit=90))
    assert len(lazily) == 90 and inprocess.used() == 30  # three pages of 40
    results = client.search_all_companies(filters=wanted, progress=False)
    assert isinstance(results, CompanySearchResults) and len(results) == results.total_results
    assert results.pages == math.ceil(results.total_results / 100)
    assert [r["company_id"] for r in results][:90] == [r["company_id"] for r in lazily]
    frame = results.to_dataframe()
    assert frame.attrs["total_results"] == results.total_results and (frame["legal_form"] == "kg").all()
    assert client.search_all_companies(filters=wanted, limit=0, progress=False).pages == 0


def test_search_all_companies_refuses_to_cross_the_budget_after_the_first_page(inprocess: Any) -> None:
    client = inprocess.client(budget=25)
    with pytest.raises(BudgetExceededError, match="search_all_companies"):
        client.search_all_companies(filters={"legal_form": "gmbh"}, progress=False)
    assert inprocess.used() == client.credits_spent == 10  # only the first page


def test_estimate_search_cost_for_each_kind(inprocess: Any) -> None:
    client = inprocess.client()
    assert client.estimate_search_cost("nordstern", kind="company") == 10
    client.search_companies("nordstern")
    assert client.estimate_search_cost("nordstern", kind="company") == 0
    assert client.estimate_search_cost("nordstern", kind="person") == 10
    assert client.estimate_search_cost("nordstern") == 10  # the insolvency search is another request
    with pytest.raises(ValidationError, match="kind must be one of"):
        client.estimate_search_cost("x", kind="companies")
    with pytest.raises(ValidationError, match="unknown filter field 'court' of the company search"):
        client.estimate_search_cost(filters={"court": "Kassel"}, kind="company")
    assert inprocess.used() == 10


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda c: c.search_companies(filters={"colour": "red"}), "unknown filter field 'colour'"),
        (lambda c: c.search_companies(filters={"legal_form": "GmbH"}), "did you mean 'gmbh'"),
        (lambda c: c.search_companies(filters={"revenue": ("lots", None)}), "must be a number"),
        (lambda c: c.search_companies(filters={"employees": (50, 10)}), "min 50 is above max 10"),
        (
            lambda c: c.search_companies(filters={"incorporated_at": ("2020-02-30", None)}),
            "is not a date: February 2020 has 29 days",
        ),
        (lambda c: c.search_companies(filters={"purpose": {"value": "Software"}}), "cannot use 'value'"),
        (lambda c: c.search_companies(filters={"industry_codes": "6201"}), "WZ 2025"),
        (lambda c: c.search_companies(filters={"active": "yes"}), "not an active value"),
        (lambda c: c.search_companies(per_page=101), "per_page"),
        (lambda c: c.search_persons(filters={"legal_form": "gmbh"}), "of the person search"),
        (lambda c: c.autocomplete_companies("N"), "2 to 200 characters"),
        (lambda c: c.autocomplete_companies("N" * 201), "2 to 200 characters"),
        (lambda c: c.get_owners("DE-HRB-nope"), "not a company identifier"),
        (lambda c: c.get_owners("DE-HRB-B1234-1", best_available="true"), "best_available must be True or False"),
        (lambda c: c.get_holdings(UUID), "not a company identifier"),
        (lambda c: c.get_person("DE-HRB-T2408-150289"), "that is a company id"),
        (lambda c: c.get_person_holdings("9922b97a-9c35"), "not a person id"),
        (lambda c: c.is_cached("DE-HRB-B1234-1", endpoint="subsidiaries"), "endpoint must be one of"),
        (lambda c: c.is_cached("DE-HRB-B1234-1", True, endpoint="holdings"), "no realtime variant"),
        (lambda c: c.estimate_cost([UUID], endpoint="person", realtime=True), "no realtime variant"),
        (lambda c: c.iter_companies(limit=-1), "limit must be a non-negative integer"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_sent(inprocess: Any, call: Any, fragment: str) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match=fragment):
        call(client)
    _no_request_was_made(inprocess, client)


def test_a_field_only_the_live_service_serves_is_a_free_400(local: Any) -> None:
    client = local.client()
    with pytest.raises(BadRequestError, match="unsupported_filter"):
        client.search_companies(filters={"ebitda": (1, None)})
    assert local.used() == client.credits_spent == 0


def test_autocomplete_is_free_and_cached(local: Any) -> None:
    client = local.client()
    suggestions = client.autocomplete_companies("  Nordst ")
    assert 0 < len(suggestions) <= 10 and all(r["name"].lower().find("nordst") >= 0 for r in suggestions)
    assert client.autocomplete_companies("Nordst").meta.from_cache
    assert local.used() == 0 and len(local.counter.counted) == 1
    assert list(suggestions.to_dataframe()["company_id"]) == [r["company_id"] for r in suggestions]


# -- owners and holdings ---------------------------------------------------------------------------------------


def test_owners_and_holdings_match_the_world_on_one_share_scale(local: Any, world: Any) -> None:
    holder, held = pick_group_holder(world)
    client = local.client()
    owners = client.get_owners(held)
    assert isinstance(owners, OwnersRecord) and owners.raw["company_id"] == held and not owners.raw["best_available"]
    expected = {row["holder_id"]: row for row in owners_by_company(world)[held]}
    frame = owners.to_dataframe().set_index("holder_id")
    assert set(frame.index) == set(expected)
    for holder_id, row in expected.items():
        assert frame.loc[holder_id, "share"] == pytest.approx(row["share"], abs=1e-9)
        assert frame.loc[holder_id, "nominal_share"] == pytest.approx(row["nominal_share"])
        assert frame.loc[holder_id, "relation_type"] == row["relation_type"]
    raw_percent = {o["id"]: o["percentage_share"] for o in owners}
    assert raw_percent[holder] == pytest.approx(100 * expected[holder]["share"])  # .raw keeps the percent

    holdings = client.get_holdings(holder)
    assert isinstance(holdings, HoldingsRecord) and holdings.holder_id == holder
    assert sorted((h["company_id"], h["start"]) for h in holdings) == sorted(
        (r["company_id"], r["start"]) for r in holdings_by_holder(world)[holder]
    )
    held_frame = holdings.to_dataframe()
    row = held_frame[(held_frame["company_id"] == held) & held_frame["is_current"]].iloc[0]
    assert row["share"] == frame.loc[holder, "share"]  # the same shareholding, the same value, exactly
    assert local.used() == client.credits_spent == 20


def test_owners_of_an_ag_need_best_available_and_a_404_costs_nothing(local: Any, world: Any) -> None:
    owners = owners_by_company(world)
    ag = next(cid for cid in sorted(owners) if world.companies[cid]["legal_form"] in NOT_IN_REGISTER)
    client = local.client()
    with pytest.raises(NotFoundError, match="owners_not_available") as caught:
        client.get_owners(ag)
    assert "best_available=True" in (caught.value.suggestion or "")
    assert local.used() == 0 and not client.is_cached(ag, endpoint="owners", best_available=True)
    record = client.get_owners(ag, best_available=True)
    assert record.raw["best_available"] and record.to_dataframe()["best_available"].all()
    assert {o["id"] for o in record} == {r["holder_id"] for r in owners[ag]}
    assert client.is_cached(ag, endpoint="owners", best_available=True) and not client.is_cached(ag, endpoint="owners")
    assert local.used() == 10


def test_lookups_are_cached_priced_and_estimated_per_endpoint(local: Any, world: Any) -> None:
    holder, held = pick_group_holder(world)
    client = local.client()
    before = client.estimate_cost([holder, held, holder, "bad id"], endpoint="holdings")
    assert (before.requested, before.distinct, before.cached, before.price, before.credits) == (4, 2, 0, 10, 20)
    client.get_holdings(holder)
    assert client.is_cached(holder, endpoint="holdings") and not client.is_cached(holder)  # the company is not
    assert client.get_holdings(holder).meta.from_cache
    after = client.estimate_cost([holder, held], endpoint="holdings")
    assert (after.cached, after.to_fetch, after.credits) == (1, 1, 10)
    assert client.estimate_cost([held], endpoint="owners", realtime=True).price == 20
    client.get_owners(held, realtime=True)
    client.get_owners(held, realtime=True)  # realtime is never cached
    assert not client.is_cached(held, realtime=True, endpoint="owners")
    assert local.used() == client.credits_spent == 10 + 40
    calls = client.ledger[["call", "credits", "source"]].values.tolist()
    assert calls == [
        ["get_holdings", 10, "network"],
        ["get_holdings", 0, "cache"],
        ["get_owners", 20, "network"],
        ["get_owners", 20, "network"],
    ]


def test_the_budget_refuses_a_lookup_before_it_is_sent(inprocess: Any, world: Any) -> None:
    holder, _ = pick_group_holder(world)
    client = inprocess.client(budget=5)
    assert not client.estimate_cost([holder], endpoint="holdings").within_budget
    with pytest.raises(BudgetExceededError, match="get_holdings"):
        client.get_holdings(holder)
    assert inprocess.used() == 0 and inprocess.counter.counted == []


def test_expired_owner_source_urls_are_left_out_unless_refreshed(inprocess: Any, world: Any) -> None:
    _, held = pick_group_holder(world)
    client = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    assert "sources" in client.get_owners(held).raw
    cached = client.get_owners(held)
    assert cached.meta.from_cache and cached.meta.urls_expired and "sources" not in cached.raw
    with pytest.raises(AttributeError, match="refresh_sources=True"):
        cached.sources  # noqa: B018
    fresh = client.get_owners(held, refresh_sources=True)
    assert not fresh.meta.from_cache and "sources" in fresh.raw and inprocess.used() == 20


# -- persons ---------------------------------------------------------------------------------------------------


def test_person_positions_and_holdings_match_the_world(local: Any, world: Any) -> None:
    positions = positions_by_person(world)
    holdings = holdings_by_holder(world)
    person_id = next(p for p in sorted(positions) if p in holdings and len(positions[p]) >= 2)
    client = local.client()
    person = client.get_person(person_id.upper())
    assert isinstance(person, PersonRecord) and person.raw["id"] == person_id
    frame = person.to_dataframe()
    assert sorted(zip(frame["company_id"], frame["role"].astype(str), frame["is_current"])) == sorted(
        (cid, role, end is None) for cid, role, _, end in positions[person_id]
    )
    assert client.get_person(person_id).meta.from_cache  # one cache entry whatever the letter case
    assert client.is_cached(person_id.upper(), endpoint="person")
    own = client.get_person_holdings(person_id)
    assert own.holder_id == person_id and len(own) == len(holdings[person_id])
    assert set(own.to_dataframe()["holder_type"].astype(str)) == {"natural_person"}
    assert "<div" in person._repr_html_() and person.full_name in person._repr_html_()
    assert local.used() == client.credits_spent == 20


def test_person_search_filters_and_pages(local: Any, world: Any) -> None:
    client = local.client()
    page = client.search_persons(filters={"date_of_birth": ("1980-01-01", "1980-12-31")}, per_page=50)
    assert isinstance(page, PersonSearchPage) and page.total_results > 0
    assert all(r["date_of_birth"].startswith("1980-") for r in page)
    frame = page.to_dataframe()
    assert list(frame["id"]) == [r["id"] for r in page] and frame["date_of_birth"].dt.year.eq(1980).all()
    assert page[0] == next(iter(page)) and page[-1]["id"] == frame["id"].iloc[-1] and page[:2] == list(page)[:2]
    assert page["pagination"]["total_results"] == page.total_results  # members stay items
    results = client.search_all_persons(filters={"date_of_birth": ("1980-01-01", "1980-12-31")}, progress=False)
    assert len(results) == page.total_results
    assert local.used() == client.credits_spent == 10 * (1 + math.ceil(page.total_results / 100))


def test_unknown_person_is_a_free_404(local: Any) -> None:
    client = local.client()
    with pytest.raises(NotFoundError) as caught:
        client.get_person("00000000-0000-4000-8000-000000000000")
    assert "person id" in (caught.value.suggestion or "") and local.used() == 0


# -- what is cached, for how long ------------------------------------------------------------------------------


def test_cache_rules_of_the_research_endpoints() -> None:
    from requests_cache import DO_NOT_CACHE
    from requests_cache.policy.expiration import get_url_expiration

    base = "http://local.regkit"
    policy = CachePolicy()
    rules = policy.urls_expire_after(base)
    expected = {
        "/v1/company/DE-HRB-B1234-1/owners": policy.ownership,
        "/v1/company/DE-HRB-B1234-1/owners?best_available=true": policy.ownership,
        "/v1/company/DE-HRB-B1234-1/owners?realtime=true": DO_NOT_CACHE,
        "/v1/company/DE-HRB-B1234-1/owners?best_available=true&realtime=true": DO_NOT_CACHE,
        "/v1/company/DE-HRB-B1234-1/holdings": policy.ownership,
        "/v1/company/DE-HRB-B1234-1": policy.company,
        "/v1/search/company": policy.search,
        "/v1/search/person": policy.search,
        "/v1/autocomplete/company?query=Nord": policy.autocomplete,
        f"/v1/person/{UUID}": policy.person,
        f"/v1/person/{UUID}/holdings": policy.person,
    }
    for path, lifetime in expected.items():
        assert get_url_expiration(base + path, rules) == lifetime, path
    assert policy.ownership == policy.person == policy.company and policy.autocomplete < policy.search


def test_only_the_answer_asked_for_is_kept() -> None:
    import json

    import requests

    from regkit.client.cache.policy import keep_response
    from regkit.schema.endpoints import match

    def kept(path: str, body: dict[str, Any]) -> bool:  # the answer to a GET of path, as the client stores it
        answer = requests.Response()
        answer.status_code, answer._content = 200, json.dumps(body).encode()
        found = match("GET", path)
        assert found is not None, path
        row, parameters = found
        return keep_response(row, parameters.get(row.identifier or ""), answer)

    company = "DE-HRB-B1234-1"
    assert kept(f"/v1/company/{company}/owners", {"company_id": company, "owners": []})
    assert not kept(f"/v1/company/{company}/owners", {"company_id": "DE-HRB-B1234-2"})
    # asked by a former id, the answer names the company's current id: kept (a repeat is free)
    assert kept(f"/v1/company/{company}/owners", {"company_id": "DE-HRB-B1234-2", "owners": []})
    assert not kept(f"/v1/company/{company}/owners", {"company_id": "HRB 2", "owners": []})
    assert kept(f"/v1/company/{company}/holdings", {"company_id": company, "holdings": []})
    assert not kept(f"/v1/company/{company}/holdings", {"id": company})
    assert kept(f"/v1/person/{UUID.upper()}", {"id": UUID})
    assert not kept(f"/v1/person/{UUID}", {"id": "00000000-0000-4000-8000-000000000000"})
    assert kept(f"/v1/person/{UUID}/holdings", {"person_id": UUID, "holdings": []})
    assert not kept(f"/v1/person/{UUID}/holdings", {"id": UUID})
    assert kept(f"/v1/company/{company}", {"id": company})


# -- what is sent ----------------------------------------------------------------------------------------------


def test_searches_send_the_live_services_body_form(local: Any) -> None:
    import json

    client = local.client()
    client.search_companies(" Nordstern ", {"revenue": (1e6, "2.5e6"), "legal_form": ["se", "ag"]}, per_page=10)
    client.search_persons("Roth", {"date_of_birth": ("1970-01-01", None), "active": False}, page=2)
    assert local.counter.counted == [("POST", "/v1/search/company"), ("POST", "/v1/search/person")]
    company, person = (json.loads(body) for body in local.counter.bodies)
    assert company == {
        "query": {"value": "Nordstern"},
        "filters": [
            {"field": "legal_form", "values": ["ag", "se"]},
            {"field": "revenue", "min": "1000000", "max": "2500000"},
        ],
        "pagination": {"page": 1, "per_page": 10},
    }
    assert person == {
        "query": {"value": "Roth"},
        "filters": [{"field": "active", "value": "false"}, {"field": "date_of_birth", "min": "1970-01-01"}],
        "pagination": {"page": 2, "per_page": 10},
    }


@given(st.decimals(min_value=Decimal("-1e20"), max_value=Decimal("1e20"), allow_nan=False, places=4))
def test_amounts_are_sent_as_exact_decimal_text(amount: Decimal) -> None:
    for value in (amount, str(amount), float(amount)):
        sent = validation.filters({"revenue": (value, None)}, COMPANY_FILTERS)[0]["min"]
        assert Decimal(sent) == Decimal(str(value)) and "e" not in sent.lower()
        assert validation.filters([{"field": "revenue", "min": sent}], COMPANY_FILTERS)[0]["min"] == sent  # stable


def test_owners_and_holdings_asked_by_a_former_id_are_paid_once(inprocess: Any, world: Any) -> None:
    former, current = next(
        (f, c)
        for f, c in sorted(world.meta["former_ids"].items())
        if world.companies[c]["legal_form"] in ("gmbh", "ug")
    )
    client = inprocess.client()
    first = client.get_owners(former)
    assert first.raw["company_id"] == current and client.credits_spent == 10
    assert client.get_owners(former).meta.from_cache and client.is_cached(former, endpoint="owners")
    client.get_holdings(former)
    assert client.get_holdings(former).meta.from_cache and client.credits_spent == 20 == inprocess.used()
