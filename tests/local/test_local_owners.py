"""Beneficial owners from shareholdings (pure functions, no HTTP)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.local.models.owners import beneficial_owners, build_report, effective_shares, holders_by_company


def person(company, holder, share):
    return {
        "company_id": company,
        "holder_id": holder,
        "holder_type": "natural_person",
        "holder_name": f"Person {holder}",
        "share": share,
    }


def firm(company, holder, share):
    return {
        "company_id": company,
        "holder_id": holder,
        "holder_type": "legal_person",
        "holder_name": f"Firm {holder}",
        "share": share,
    }


def owners(rows, company="A"):
    return {o.person_id: (round(o.share, 6), o.scope) for o in beneficial_owners(company, holders_by_company(rows))}


def test_direct_owner_at_exactly_25_percent_counts():
    assert owners([person("A", "p", 0.25), person("A", "q", 0.2499)]) == {"p": (0.25, "direct")}


def test_shares_multiply_along_a_chain():
    rows = [firm("A", "B", 0.5), firm("B", "C", 0.8), person("C", "p", 1.0)]
    assert owners(rows) == {"p": (0.4, "indirect")}


def test_direct_and_indirect_shares_add_up():
    rows = [person("A", "p", 0.15), firm("A", "B", 0.5), person("B", "p", 0.3)]
    assert owners(rows) == {"p": (0.3, "direct_and_indirect")}


def test_below_threshold_through_a_chain_is_not_an_owner():
    rows = [firm("A", "B", 0.4), person("B", "p", 0.6)]  # 24 %
    assert owners(rows) == {}


def test_cycles_terminate():
    rows = [firm("A", "B", 0.6), firm("B", "A", 0.5), firm("B", "C", 0.5), person("C", "p", 1.0), person("A", "q", 0.4)]
    assert owners(rows) == {"p": (0.3, "indirect"), "q": (0.4, "direct")}


@given(st.lists(st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDEpq"), st.floats(0.01, 1.0)), max_size=25))
def test_any_graph_terminates_with_shares_in_range(edges):
    rows = [person(c, h, s) if h in "pq" else firm(c, h, s) for c, h, s in edges if c != h]
    for owner in effective_shares("A", holders_by_company(rows)):
        assert 0 < owner.share <= 1


def test_report_lists_owners_or_fictional_representatives():
    company = {
        "id": "A",
        "incorporated_at": "2019-05-01",
        "representation": [
            {
                "id": "d",
                "name": "Dora Direktorin",
                "type": "natural_person",
                "role": "DIRECTOR",
                "end_date": None,
                "natural_person": {
                    "first_name": "Dora",
                    "last_name": "Direktorin",
                    "city": "Kiel",
                    "date_of_birth": None,
                },
            },
            {
                "id": "x",
                "name": "Xaver Alt",
                "type": "natural_person",
                "role": "DIRECTOR",
                "end_date": "2020-01-01",
                "natural_person": None,
            },
            {"id": "k", "name": "Klara Prokura", "type": "natural_person", "role": "PROKURA", "end_date": None},
        ],
    }
    persons = {"p": {"first_name": "Paula", "last_name": "Eigner", "city": "Ulm", "date_of_birth": "1970-01-02"}}
    real = build_report(company, {}, holders_by_company([person("A", "p", 0.6)]), persons, "2026-07-01")
    assert real["fictional_ubo_reason"] is None and real["validity"]["from"]["date"] == "2019-05-01"
    [ubo] = real["ubos"]
    assert ubo["natural_person"]["last_name"] == "Eigner" and ubo["interest"]["percentage"] == pytest.approx(60.0)
    fictional = build_report(company, {}, {}, persons, "2026-07-01")
    assert fictional["fictional_ubo_reason"]
    assert [u["natural_person"]["full_name"] for u in fictional["ubos"]] == ["Dora Direktorin"]


def test_kg_without_natural_directors_takes_the_general_partners_directors():
    gmbh = {
        "id": "G",
        "representation": [
            {"id": "m", "name": "Max Muster", "type": "natural_person", "role": "DIRECTOR", "end_date": None}
        ],
    }
    kg = {
        "id": "K",
        "incorporated_at": "2010-01-01",
        "representation": [
            {
                "id": "G",
                "name": "Komplementär GmbH",
                "type": "legal_person",
                "role": "PERSONAL_LIABLE_DIRECTOR",
                "end_date": None,
            }
        ],
    }
    report = build_report(kg, {"G": gmbh}, {}, {}, "2026-07-01")
    assert [u["natural_person"]["full_name"] for u in report["ubos"]] == ["Max Muster"]
    assert report["validity"]["from"]["date"] == "2017-10-01"
