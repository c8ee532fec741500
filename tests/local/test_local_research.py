"""Owners, holdings and persons in the local register, through requests (in-process and over loopback).

Expected answers are computed from the companies' records (their ``SHAREHOLDER`` and other representation
entries), not from the shareholdings file the register answers from: the two describe the same shareholdings
(research-endpoints.md, "Consistency rules"), and these tests hold the register to that.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from local_support import EMPTY, charged, error_of

WALDSTEIN = "DE-HRB-X1517-62135KI"  # G017's Organträger, a GmbH
GMBH_AND_CO_KG = "DE-HRA-R1504-23543"  # a GmbH of the world as general partner
IN_REGISTER = {"gmbh", "ug", "ggmbh", "kg", "ohg"}


@pytest.fixture(scope="module")
def entries_by_person(catalog):
    """Every representation entry with a person id, by that id: ``(company, entry)``."""
    found = defaultdict(list)
    for company in catalog.world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person" and entry["id"]:
                found[entry["id"]].append((company, entry))
    return found


def _shareholder_entries(company, current=True):
    return {
        e["id"]: e
        for e in company["representation"]
        if e["role"] == "SHAREHOLDER" and (not current or e["end_date"] is None)
    }


def test_owners_of_a_gmbh_are_its_current_shareholder_entries(api, catalog):
    session = api()
    for company_id in (WALDSTEIN, "DE-HRB-T2408-79657"):
        response = session.get(f"/v1/company/{company_id}/owners")
        assert response.status_code == 200 and charged(response) == 10
        body = response.json()
        entries = _shareholder_entries(catalog.world.companies[company_id])
        assert {o["id"]: o["start"] for o in body["owners"]} == {i: e["start_date"] for i, e in entries.items()}
        assert body["best_available"] is False and body["company_id"] == company_id
        assert sum(o["percentage_share"] for o in body["owners"]) == pytest.approx(100, abs=0.05)
        shares = [o["percentage_share"] for o in body["owners"]]
        assert shares == sorted(shares, reverse=True)
        for owner in body["owners"]:
            details = owner["natural_person"] if owner["type"] == "natural_person" else owner["legal_person"]
            assert details is not None and (owner["legal_person"] is None) != (owner["natural_person"] is None)
            if owner["type"] == "natural_person":
                assert details["full_name"] == owner["name"] == entries[owner["id"]]["name"]
                assert details["date_of_birth"] == entries[owner["id"]]["natural_person"]["date_of_birth"]


def test_a_kg_lists_limited_partners_and_its_general_partner(api, catalog):
    body = api().get(f"/v1/company/{GMBH_AND_CO_KG}/owners").json()
    company = catalog.world.companies[GMBH_AND_CO_KG]
    limited = {o["id"] for o in body["owners"] if o["relation_type"] == "limited_partner"}
    general = {o["id"]: o for o in body["owners"] if o["relation_type"] == "general_partner"}
    assert limited == set(_shareholder_entries(company))
    partners = {
        e["id"] for e in company["representation"] if e["role"] == "PERSONAL_LIABLE_DIRECTOR" and e["end_date"] is None
    }
    assert set(general) == partners and partners
    assert all(o["percentage_share"] == 0 and o["nominal_share"] == 0 for o in general.values())


def test_stock_corporations_answer_only_with_best_available(api, catalog):
    session = api()
    corporation = next(
        c for c in catalog.world.companies.values() if c["legal_form"] == "ag" and c["status"] == "active"
    )
    refused = session.get(f"/v1/company/{corporation['id']}/owners")
    assert error_of(refused) == (404, "owners_not_available")
    assert "best_available=true" in refused.json()["error"]["message"] and charged(refused) == 0
    answered = session.get(f"/v1/company/{corporation['id']}/owners", params={"best_available": "true"})
    assert answered.status_code == 200 and answered.json()["best_available"] is True
    assert {o["relation_type"] for o in answered.json()["owners"]} <= {"stockholder"}
    assert sum(o["percentage_share"] for o in answered.json()["owners"]) <= 100.0001


def test_owners_realtime_costs_20_and_export_drops_the_sources(api):
    session = api()
    plain = session.get(f"/v1/company/{WALDSTEIN}/owners")
    assert plain.json()["sources"] and all("signature=" in s["document_url"] for s in plain.json()["sources"])
    realtime = session.get(f"/v1/company/{WALDSTEIN}/owners", params={"realtime": "true", "export": "true"})
    assert charged(realtime) == 20 and realtime.json()["sources"] == []
    assert realtime.json()["owners"] == plain.json()["owners"]


def test_holdings_are_the_companies_whose_records_list_the_holder(api, catalog):
    holder = WALDSTEIN
    listed = {}
    for company in catalog.world.companies.values():
        for entry in company["representation"]:
            if entry["id"] == holder and entry["role"] == "SHAREHOLDER":
                listed[company["id"]] = (entry["start_date"], entry["end_date"])
    response = api().get(f"/v1/company/{holder}/holdings")
    assert response.status_code == 200 and charged(response) == 10
    holdings = response.json()["holdings"]
    assert {h["company_id"]: (h["start"], h["end"]) for h in holdings} == listed
    assert len(listed) >= 5
    current = [h["end"] is None for h in holdings]
    assert current == sorted(current, reverse=True)  # current holdings first


def test_holdings_and_owners_describe_the_same_shares_on_two_scales(api, catalog):
    session = api()
    holdings = session.get(f"/v1/company/{WALDSTEIN}/holdings").json()["holdings"]
    checked = 0
    for holding in holdings:
        held = catalog.world.companies[holding["company_id"]]
        if holding["end"] is not None or held["legal_form"] not in IN_REGISTER:
            continue
        owners = {o["id"]: o for o in session.get(f"/v1/company/{holding['company_id']}/owners").json()["owners"]}
        owner = owners[WALDSTEIN]
        assert owner["percentage_share"] == pytest.approx(holding["percentage_share"] * 100)
        assert 0 < holding["percentage_share"] <= 1 and owner["nominal_share"] == holding["nominal_share"]
        checked += 1
    assert checked >= 3


def test_past_holdings_have_an_end(api, catalog):
    handed_on = next(
        (e["id"], c["id"])
        for c in catalog.world.companies.values()
        if c["status"] == "active"
        for e in c["representation"]
        if e["role"] == "SHAREHOLDER" and e["end_date"] is not None and e["type"] == "natural_person"
    )
    person_id, company_id = handed_on
    holdings = api().get(f"/v1/person/{person_id}/holdings").json()["holdings"]
    past = [h for h in holdings if h["company_id"] == company_id]
    assert past and all(h["end"] is not None for h in past)


def test_a_persons_positions_are_their_non_shareholder_entries(api, catalog, entries_by_person):
    session = api()
    busy = sorted(entries_by_person, key=lambda p: (-len(entries_by_person[p]), p))[:3]
    for person_id in busy:
        response = session.get(f"/v1/person/{person_id.upper()}")
        assert response.status_code == 200 and charged(response) == 10
        body = response.json()
        expected = sorted(
            (c["id"], e["role"], e["start_date"], e["end_date"])
            for c, e in entries_by_person[person_id]
            if e["role"] != "SHAREHOLDER"
        )
        got = sorted(
            (p["register_id"], p["role"], p["start_date"], p["end_date"]) for p in body["management_positions"]
        )
        assert got == expected
        details = entries_by_person[person_id][0][1]["natural_person"]
        assert (body["id"], body["first_name"], body["last_name"], body["date_of_birth"]) == (
            person_id,
            details["first_name"],
            details["last_name"],
            details["date_of_birth"],
        )


def test_age_is_counted_on_the_registers_clock(api, catalog, entries_by_person, clock):
    import datetime as dt

    person_id = next(p for p, e in entries_by_person.items() if e[0][1]["natural_person"]["date_of_birth"])
    born = dt.date.fromisoformat(entries_by_person[person_id][0][1]["natural_person"]["date_of_birth"])
    today = dt.datetime.fromtimestamp(clock.now, dt.timezone.utc).date()
    expected = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    assert api().get(f"/v1/person/{person_id}").json()["age"] == expected


def test_person_holdings_match_the_shareholder_entries(api, entries_by_person):
    holder = next(
        p for p, found in sorted(entries_by_person.items()) if sum(e["role"] == "SHAREHOLDER" for _, e in found) >= 2
    )
    response = api().get(f"/v1/person/{holder}/holdings")
    assert response.status_code == 200 and charged(response) == 10
    body = response.json()
    expected = {
        (c["id"], e["start_date"], e["end_date"]) for c, e in entries_by_person[holder] if e["role"] == "SHAREHOLDER"
    }
    assert body["person_id"] == holder
    assert {(h["company_id"], h["start"], h["end"]) for h in body["holdings"]} == expected


def test_person_search_folds_german_spelling_and_lists_only_persons_with_a_birth_date(api, catalog):
    session = api()
    umlaut = next(p for p in catalog.people.values() if "ü" in (p.last_name or "") and p.date_of_birth)
    spelled = umlaut.last_name.replace("ü", "ue")
    response = session.post("/v1/search/person", json={"query": {"value": spelled}, "pagination": {"per_page": 100}})
    assert response.status_code == 200 and charged(response) == 10
    assert umlaut.id in {r["id"] for r in response.json()["results"]}
    prefix = session.post(
        "/v1/search/person",
        json={"query": f"{umlaut.first_name} {umlaut.last_name[:3]}", "pagination": {"per_page": 100}},
    ).json()
    assert umlaut.id in {r["id"] for r in prefix["results"]}
    unborn = next(p for p in catalog.people.values() if p.date_of_birth is None and p.positions)
    found = session.post("/v1/search/person", json={"query": unborn.name, "pagination": {"per_page": 100}}).json()
    assert unborn.id not in {r["id"] for r in found["results"]}
    assert all(r["date_of_birth"] for r in found["results"])


def test_person_search_filters(api, entries_by_person):
    session = api()
    body = {
        "filters": [
            {"field": "city", "value": "Köln"},
            {"field": "date_of_birth", "min": "1960-01-01", "max": "1969-12-31"},
            {"field": "active", "value": "true"},
        ],
        "pagination": {"per_page": 100},
    }
    results = session.post("/v1/search/person", json=body).json()
    expected = set()
    for person_id, found in entries_by_person.items():
        details = found[0][1]["natural_person"]
        active = any(e["role"] != "SHAREHOLDER" and e["end_date"] is None for _, e in found)
        born = details["date_of_birth"]
        if details["city"] == "Köln" and born and "1960-01-01" <= born <= "1969-12-31" and active:
            expected.add(person_id)
    assert {r["id"] for r in results["results"]} == expected and expected
    assert results["pagination"]["total_results"] == len(expected)
    past_end = session.post("/v1/search/person", json={**body, "pagination": {"page": 99, "per_page": 100}}).json()
    assert past_end["results"] == [] and past_end["pagination"]["total_results"] == len(expected)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"filters": [{"field": "zip", "value": "10115"}]}, "invalid_filter"),
        ({"filters": [{"field": "date_of_birth", "value": "1.1.1960"}]}, "invalid_filter"),
        ({"filters": [{"field": "active", "value": "yes"}]}, "invalid_filter"),
        ({"filters": [{"field": "date_of_birth", "min": None}]}, "invalid_filter"),
        ({"filters": [{"field": "city", "value": "Köln", "keywords": "Köln"}]}, "invalid_filter"),
        ({"query": 5}, "invalid_query"),
        ({"pagination": {"per_page": 101}}, "invalid_pagination"),
        ({"sort": "name"}, "invalid_body"),
    ],
)
def test_person_search_refuses_bad_bodies_free(api, body, code):
    response = api().post("/v1/search/person", json=body)
    assert error_of(response) == (400, code) and charged(response) == 0


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/v1/person/not-a-uuid", 400, "invalid_person_id"),
        ("/v1/person/00000000-0000-4000-8000-000000000000", 404, "person_not_found"),
        ("/v1/person/00000000-0000-4000-8000-000000000000/holdings", 404, "person_not_found"),
        ("/v1/company/HRB-123/owners", 400, "invalid_company_id"),
        ("/v1/company/DE-HRB-F1103-1/holdings", 404, "company_not_found"),
        (f"/v1/company/{WALDSTEIN}/owners?best_available=maybe", 400, "invalid_parameter"),
    ],
)
def test_bad_and_unknown_ids_cost_nothing(api, path, status, code):
    response = api().get(path)
    assert error_of(response) == (status, code) and charged(response) == 0


def test_every_research_endpoint_is_metered_and_refused_without_credits(api):
    empty = api(EMPTY)
    for method, path in [
        ("GET", f"/v1/company/{WALDSTEIN}/owners"),
        ("GET", f"/v1/company/{WALDSTEIN}/holdings"),
        ("POST", "/v1/search/person"),
    ]:
        response = empty.request(method, path, json={} if method == "POST" else None)
        assert error_of(response) == (402, "insufficient_credits")
    assert api(None).get(f"/v1/company/{WALDSTEIN}/holdings").status_code == 401


def test_the_same_answers_over_loopback(remote, api):
    for path in (f"/v1/company/{WALDSTEIN}/owners", f"/v1/company/{WALDSTEIN}/holdings"):
        assert (
            remote().get(path).json()["owners" if path.endswith("owners") else "holdings"]
            == (api().get(path).json()["owners" if path.endswith("owners") else "holdings"])
        )
    found = remote().post("/v1/search/person", json={"query": "Stadler"})
    assert found.status_code == 200 and charged(found) == 10
    person = found.json()["results"][0]["id"]
    assert remote().get(f"/v1/person/{person}").json() == api().get(f"/v1/person/{person}").json()


def test_a_general_partner_without_an_id_is_an_owner_with_a_null_id(api, catalog):
    kg = next(
        c
        for c in catalog.world.companies.values()
        if c["legal_form"] == "kg"
        and c["status"] == "active"
        and any(
            e["role"] == "PERSONAL_LIABLE_DIRECTOR" and e["id"] is None and e["end_date"] is None
            for e in c["representation"]
        )
    )
    owners = api().get(f"/v1/company/{kg['id']}/owners").json()["owners"]
    nameless = [o for o in owners if o["id"] is None]
    expected = [
        e["name"]
        for e in kg["representation"]
        if e["role"] == "PERSONAL_LIABLE_DIRECTOR" and e["id"] is None and e["end_date"] is None
    ]
    assert sorted(o["name"] for o in nameless) == sorted(expected)
    assert all(o["relation_type"] == "general_partner" and o["percentage_share"] == 0 for o in nameless)
