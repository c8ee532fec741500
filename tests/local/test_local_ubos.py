"""``GET /v1/company/{id}/ubo`` over every company of the bundled world, and the Transparenzregister extracts that
must agree with it except for the planted discrepancies.

The expected beneficial owners are computed here, from the world's shareholdings, by the rule as § 3 GwG and
filings-and-financials.md state it: a natural person holding more than 25 % effectively — the shares multiplied
along each chain of current holdings through companies, summed over the chains — with a share through a
partner's stake (limited or general partner) only a maximum; with nobody, the legal representatives with null
shares.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from local_support import VALID_ACCOUNT, charged, error_of

from regkit.local.models.owners import build_report

pytestmark = pytest.mark.slow

PARTNERS = {"limited_partner", "general_partner"}
MANAGERS = {"DIRECTOR", "PERSONAL_LIABLE_DIRECTOR", "OWNER", "PARTNER", "LIQUIDATOR"}
EXTRACTS = "/v1/transparenzregister/extracts"


@pytest.fixture(scope="module")
def current_holders(catalog):
    grouped = defaultdict(list)
    for row in catalog.world.shareholdings:
        if row["end"] is None and row["share"] > 0 and row["holder_id"]:
            grouped[row["company_id"]].append(row)
    return grouped


def chains(company_id, holders, factor=1.0, path=(), fixed=True):
    """Yield ``(person id, product of the shares, fixed)`` for every chain of holdings ending in ``company_id``."""
    for row in holders.get(company_id, ()):
        share = factor * row["share"]
        still_fixed = fixed and row["relation_type"] not in PARTNERS
        if row["holder_type"] == "natural_person":
            yield row["holder_id"], share, still_fixed
        elif row["holder_id"] not in path and row["holder_id"] != company_id:
            yield from chains(row["holder_id"], holders, share, (*path, company_id), still_fixed)


def expected_ubos(company_id, holders):
    """``{person id: (percent, fixed)}`` of the persons holding more than 25 %."""
    totals, fixed = defaultdict(float), defaultdict(lambda: True)
    for person, share, is_fixed in chains(company_id, holders):
        totals[person] += share
        fixed[person] &= is_fixed
    return {p: (round(s * 100, 4), fixed[p]) for p, s in totals.items() if s * 100 > 25 + 1e-7}


@pytest.fixture(scope="module")
def answers(make_module_register, catalog):
    session = make_module_register()
    found = {}
    for company_id in catalog.world.companies:
        response = session.get(f"/v1/company/{company_id}/ubo")
        assert response.status_code == 200 and charged(response) == 10, company_id
        body = response.json()
        assert body["company_id"] == company_id
        found[company_id] = body["ubos"]
    return found


@pytest.fixture(scope="module")
def make_module_register(tmp_path_factory):
    """A session on an in-process register of this module's own (every company is asked once)."""
    from local_support import open_test_register, session_for

    directory = tmp_path_factory.mktemp("ubos")
    opened = []

    def make():
        register = open_test_register(directory)
        opened.append(register)
        return session_for(register)

    yield make
    for register in opened:
        register.close()


def test_every_company_has_the_beneficial_owners_of_the_chains(answers, catalog, current_holders):
    with_owners = partnership_maxima = 0
    for company_id, ubos in answers.items():
        expected = expected_ubos(company_id, current_holders)
        if not expected:
            continue
        with_owners += 1
        got = {}
        for ubo in ubos:
            assert ubo["natural_person"]["full_name"] == ubo["name"] and ubo["legal_person"] is None
            fixed = ubo["percentage_share"] is not None
            assert fixed != (ubo["max_percentage_share"] is not None), ubo
            got[ubo["id"]] = (ubo["percentage_share"] if fixed else ubo["max_percentage_share"], fixed)
            partnership_maxima += not fixed
        assert got.keys() == expected.keys(), company_id
        for person, (percent, fixed) in expected.items():
            assert got[person][0] == pytest.approx(percent, abs=1e-4) and got[person][1] == fixed, (company_id, person)
    assert with_owners > 1500 and partnership_maxima > 0


def test_without_anyone_above_25_percent_the_directors_stand_in(answers, catalog, current_holders):
    companies = catalog.world.companies
    fictitious = 0
    for company_id, ubos in answers.items():
        if expected_ubos(company_id, current_holders):
            continue
        company = companies[company_id]
        current = [r for r in company["representation"] if r["end_date"] is None and r["role"] in MANAGERS]
        allowed = {r["name"] for r in current if r["type"] == "natural_person"}
        for partner in current:
            if partner["type"] == "legal_person" and partner["id"] in companies:
                allowed |= {
                    r["name"]
                    for r in companies[partner["id"]]["representation"]
                    if r["end_date"] is None and r["role"] in MANAGERS and r["type"] == "natural_person"
                }
        assert all(u["percentage_share"] is None and u["max_percentage_share"] is None for u in ubos)
        assert {u["name"] for u in ubos} <= allowed, company_id
        if company["status"] == "inactive":
            assert ubos == []
        elif any(r["type"] == "natural_person" for r in current):
            assert ubos, company_id
        fictitious += bool(ubos)
    assert fictitious > 500


def test_exactly_25_percent_is_no_beneficial_owner_in_the_world(answers, current_holders):
    """The world has direct holdings of exactly 25 %: none of them alone makes a beneficial owner."""
    quarter = [
        (c, r["holder_id"])
        for c, rows in current_holders.items()
        for r in rows
        if r["holder_type"] == "natural_person" and r["share"] == 0.25
    ]
    assert quarter
    for company_id, person in quarter:
        if person not in expected_ubos(company_id, current_holders):
            assert person not in {u["id"] for u in answers[company_id]}


def _extract_people(report):
    return {u["natural_person"]["full_name"]: u["interest"]["percentage"] for u in report["ubos"]}


def test_extracts_agree_with_the_chains_except_the_planted_companies(answers, catalog):
    """Every company whose production extract completes (one EKRN, not deleted): the report that extract gets."""
    plants = {p["company_id"]: p for p in catalog.meta["transparenzregister"]["discrepancies"]}
    assert {p["kind"] for p in plants.values()} == {"stale_owner", "missing_owner"}
    differing = set()
    for company_id, ekrns in catalog.entities.items():
        company = catalog.world.companies[company_id]
        if len(ekrns) != 1 or company["status"] == "inactive":
            continue
        report = build_report(
            company,
            catalog.world.companies,
            catalog.holders,
            catalog.persons,
            "2026-07-01",
            catalog.discrepancies.get(company_id),
        )
        ubos = answers[company_id]
        if report["notice_type"] == "fictional_beneficial_owners":
            assert all(u["percentage_share"] is None and u["max_percentage_share"] is None for u in ubos)
            assert set(_extract_people(report)) == {u["name"] for u in ubos}, company_id
            continue
        # the extract has two places; a share through a partnership is reported at its maximum
        owners = {u["name"]: u["percentage_share"] or u["max_percentage_share"] for u in ubos}
        reported = _extract_people(report)
        if reported.keys() != owners.keys():
            differing.add(company_id)
            plant = plants[company_id]
            extra = set(reported) - set(owners) if plant["kind"] == "stale_owner" else set(owners) - set(reported)
            assert extra == {plant["name"]} and (set(owners) <= set(reported) or set(reported) <= set(owners))
            if plant["kind"] == "stale_owner":
                assert reported[plant["name"]] == plant["percentage"]
        for name in reported.keys() & owners.keys():
            assert reported[name] == pytest.approx(owners[name], abs=0.006), (company_id, name)
    assert differing == set(plants)


def test_a_planted_stale_owner_is_in_the_production_extract_over_http(api, clock, catalog):
    session = api()
    assert session.post("/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    for kind in ("stale_owner", "missing_owner"):
        plant = next(p for p in catalog.meta["transparenzregister"]["discrepancies"] if p["kind"] == kind)
        ordered = session.post(
            EXTRACTS, json={"company_id": plant["company_id"]}, headers={"X-Credential-Name": "default"}
        )
        assert ordered.status_code == 201
        clock.advance(5)
        report = session.get(f"{EXTRACTS}/{ordered.json()['id']}").json()["report"]
        names = {u["natural_person"]["full_name"] for u in report["ubos"]}
        ubos = {u["name"] for u in session.get(f"/v1/company/{plant['company_id']}/ubo").json()["ubos"]}
        assert (plant["name"] in names) == (kind == "stale_owner")
        assert (plant["name"] in ubos) == (kind == "missing_owner")
        assert names ^ ubos == {plant["name"]}


def test_unknown_company_is_a_free_404(api):
    session = api()
    assert error_of(session.get("/v1/company/DE-HRB-X9999-1/ubo")) == (404, "company_not_found")
    assert session.get("/v1/credits").json()["used_credits"] == 0
