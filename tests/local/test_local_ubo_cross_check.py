"""The graph's beneficial owners beside the service's and the Transparenzregister's, over every company of the world.

The graph is built from what the register serves (in-process through requests): every holder's
``GET …/holdings`` answer and every company record; the service's answer is ``GET …/ubo``; the extract's report
is the one a production extract of the company gets (``models.owners.build_report``, as the register stores it).
The planted discrepancies of ``world.json`` (``transparenzregister.discrepancies``) must be found, and nothing
else.
"""

from __future__ import annotations

import pytest
from local_support import VALID_ACCOUNT, session_for

from regkit.graph import add_ownership_history, as_of, from_companies, ubo_cross_check, ubos
from regkit.local.models.owners import build_report
from regkit.local.register import open_local_register

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(tmp_path_factory, catalog):
    """``(graph, UBO answers by company)`` from one in-process register of this module's own."""
    directory = tmp_path_factory.mktemp("cross")
    registers = [
        open_local_register(  # one for the holdings, one for the UBOs: a user's credits do not cover both
            state_path=directory / f"register-{n}.sqlite",
            key_path=directory / "local.key",
            rate_limit=None,
            extract_delay=0.0,
            realtime_latency=0.0,
        )
        for n in range(2)
    ]
    session = session_for(registers[0])
    companies = catalog.world.companies
    holders = sorted({r["holder_id"] for r in catalog.world.shareholdings if r["holder_id"] and r["end"] is None})
    holdings = []
    for holder in holders:
        path = f"/v1/company/{holder}/holdings" if holder in companies else f"/v1/person/{holder}/holdings"
        response = session.get(path)
        assert response.status_code == 200, holder
        holdings.append(response.json())
    graph = from_companies(companies, relations=("representation", "ownership"), holdings=holdings)
    answers = {}
    session = session_for(registers[1])
    for company_id in companies:
        response = session.get(f"/v1/company/{company_id}/ubo")
        assert response.status_code == 200, company_id
        answers[company_id] = response.json()
    yield graph, answers, registers[1]
    for register in registers:
        register.close()


@pytest.mark.slow
def test_the_planted_discrepancies_are_found_and_no_others(served, catalog):
    graph, answers, _ = served
    plants = {p["company_id"]: p for p in catalog.meta["transparenzregister"]["discrepancies"]}
    assert len(plants) >= 4
    flagged, checked = {}, 0
    for company_id, ekrns in catalog.entities.items():
        company = catalog.world.companies[company_id]
        if len(ekrns) != 1 or company["status"] == "inactive":  # only these extracts complete
            continue
        report = build_report(
            company,
            catalog.world.companies,
            catalog.holders,
            catalog.persons,
            "2026-07-01",
            catalog.discrepancies.get(company_id),
        )
        frame = ubo_cross_check(graph, company_id, answers[company_id], report)
        checked += 1
        assert not frame["service_differs"].any(), company_id  # the graph and the service follow one rule
        if frame["differs"].any():
            flagged[company_id] = frame[frame["differs"]]
    assert checked > 3000
    assert set(flagged) == set(plants)
    for company_id, rows in flagged.items():
        plant = plants[company_id]
        assert len(rows) == 1, rows
        row = rows.iloc[0]
        assert row["name"] == plant["name"]
        if plant["kind"] == "stale_owner":  # the extract still names a founder who has handed their stake on
            assert pd_na(row["graph_percentage"]) and row["extract_percentage"] == plant["percentage"]
        else:  # the extract leaves out a person holding more than 25 %
            assert row["person_id"] == plant["person_id"] and pd_na(row["extract_percentage"])
            assert row["graph_percentage"] == pytest.approx(plant["percentage"], abs=0.01)


def pd_na(value):
    import pandas as pd

    return value is None or pd.isna(value)


def test_the_graph_names_the_service_s_owners_for_every_company(served):
    graph, answers, _ = served
    with_owners = 0
    for company_id, answer in answers.items():
        frame = ubos(graph, company_id)
        real = {
            u["id"]: u["percentage_share"] if u["percentage_share"] is not None else u["max_percentage_share"]
            for u in answer["ubos"]
            if u["percentage_share"] is not None or u["max_percentage_share"] is not None
        }
        assert dict(zip(frame["person"], frame["percentage"].astype(float))) == pytest.approx(real, abs=1e-3), (
            company_id
        )
        with_owners += bool(real)
    assert with_owners > 1500


def test_a_stale_owner_shows_in_a_production_extract_and_the_cross_check_over_http(served, catalog):
    graph, answers, register = served
    session = session_for(register)
    assert session.post("/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    plant = next(p for p in catalog.meta["transparenzregister"]["discrepancies"] if p["kind"] == "stale_owner")
    ordered = session.post(
        "/v1/transparenzregister/extracts",
        json={"company_id": plant["company_id"]},
        headers={"X-Credential-Name": "default"},
    )
    assert ordered.status_code == 201
    extract = session.get(f"/v1/transparenzregister/extracts/{ordered.json()['id']}").json()
    assert extract["status"] == "completed"
    frame = ubo_cross_check(graph, plant["company_id"], answers[plant["company_id"]], extract)
    assert frame.loc[frame["differs"], "name"].tolist() == [plant["name"]]
    assert frame.loc[frame["differs"], "extract_differs"].tolist() == [True]


def test_ownership_dated_by_the_lists_shows_who_held_what_when(served, catalog):
    """A company whose owners changed: before and after the change, the graph's holders are the lists'."""
    graph, _, register = served
    session = session_for(register)
    stale = next(p for p in catalog.meta["transparenzregister"]["discrepancies"] if p["kind"] == "stale_owner")
    company_id = stale["company_id"]
    answer = session.get(f"/v1/company/{company_id}/owners/historical").json()
    G = graph.copy()
    add_ownership_history(G, company_id, answer)
    rows = [r for r in catalog.world.shareholdings if r["company_id"] == company_id and r["share"] > 0]
    for day in ("2010-01-01", stale["until"], "2026-06-30"):
        expected = {
            r["holder_id"]: round(r["share"], 6)
            for r in rows
            if r["start"] <= day and (r["end"] is None or day < r["end"])
        }
        got = {
            u: round(d["share"], 6)
            for u, _, d in as_of(G, day).in_edges(company_id, data=True)
            if d["relation"] == "ownership"
        }
        assert got == expected, day
    # the founder held more than 25 % before handing on, and is no beneficial owner after
    before = ubos(G, company_id, date=_day_before(stale["until"]))
    assert stale["person_id"] in set(before["person"])
    assert stale["person_id"] not in set(ubos(G, company_id)["person"])


def _day_before(iso):
    import datetime as dt

    return (dt.date.fromisoformat(iso) - dt.timedelta(days=1)).isoformat()
