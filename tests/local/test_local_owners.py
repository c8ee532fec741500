"""Beneficial owners from shareholdings by the one rule (pure functions, no HTTP): the rule module
:mod:`regkit.local.models.beneficial_owners` and the Transparenzregister report built on it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.local.models.beneficial_owners import beneficial_owners, effective_shares, holders_by_company
from regkit.local.models.owners import build_report


def person(company, holder, share, relation="shareholder"):
    return {
        "company_id": company,
        "holder_id": holder,
        "holder_type": "natural_person",
        "holder_name": f"Person {holder}",
        "share": share,
        "relation_type": relation,
    }


def firm(company, holder, share, relation="shareholder"):
    return {
        "company_id": company,
        "holder_id": holder,
        "holder_type": "legal_person",
        "holder_name": f"Firm {holder}",
        "share": share,
        "relation_type": relation,
    }


def owners(rows, company="A"):
    return {o.person_id: (round(o.share, 6), o.scope) for o in beneficial_owners(company, holders_by_company(rows))}


def test_exactly_25_percent_is_not_a_beneficial_owner_and_25_01_percent_is():
    # § 3 GwG: "mehr als 25 Prozent".
    assert owners([person("A", "p", 0.25), person("A", "q", 0.2501), person("A", "r", 0.4999)]) == {
        "q": (0.2501, "direct"),
        "r": (0.4999, "direct"),
    }


def test_exactly_25_percent_through_a_chain_is_not_a_beneficial_owner():
    # 0.5 × 0.5 = 0.25 on paper: not more than 25 %.
    assert owners([firm("A", "B", 0.5), person("B", "p", 0.5)]) == {}


def test_a_hand_built_group_multiplies_along_chains_and_sums_over_them():
    # On paper: A is held 40 % by B, 35 % by C, 25 % by Paula directly. B is held 60 % by Paula and 40 % by
    # Quirin; C is held 50 % by B and 50 % by Rita.
    #   Paula:  0.25 + 0.40·0.60 + 0.35·0.50·0.60 = 0.25 + 0.24 + 0.105 = 0.595
    #   Quirin: 0.40·0.40 + 0.35·0.50·0.40 = 0.16 + 0.07 = 0.23  (not more than 25 %)
    #   Rita:   0.35·0.50 = 0.175
    rows = [
        firm("A", "B", 0.40),
        firm("A", "C", 0.35),
        person("A", "paula", 0.25),
        person("B", "paula", 0.60),
        person("B", "quirin", 0.40),
        firm("C", "B", 0.50),
        person("C", "rita", 0.50),
    ]
    assert owners(rows) == {"paula": (0.595, "direct_and_indirect")}
    every = {o.person_id: round(o.share, 6) for o in effective_shares("A", holders_by_company(rows))}
    assert every == {"paula": 0.595, "quirin": 0.23, "rita": 0.175}


def test_a_share_through_a_partnership_is_only_a_maximum():
    # Paula is a limited partner of K (50 %), K holds 60 % of A: at most 30 %; Quirin holds 40 % of A directly.
    rows = [firm("A", "K", 0.6), person("K", "paula", 0.5, "limited_partner"), person("A", "quirin", 0.4)]
    found = {o.person_id: (round(o.share, 6), o.fixed) for o in beneficial_owners("A", holders_by_company(rows))}
    assert found == {"quirin": (0.4, True), "paula": (0.3, False)}


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


def test_a_planted_discrepancy_adds_a_stale_owner_or_leaves_a_missing_one_out():
    company = {"id": "A", "incorporated_at": "2019-05-01", "representation": []}
    holders = holders_by_company([person("A", "p", 0.6), person("A", "q", 0.4)])
    plain = build_report(company, {}, holders, {}, "2026-07-01")
    assert [u["natural_person"]["full_name"] for u in plain["ubos"]] == ["Person p", "Person q"]
    stale = {"kind": "stale_owner", "person_id": "s", "name": "Stefan Stale", "percentage": 50.0}
    report = build_report(company, {}, holders, {}, "2026-07-01", stale)
    assert [(u["natural_person"]["full_name"], u["interest"]["percentage"]) for u in report["ubos"]] == [
        ("Person p", 60.0),
        ("Stefan Stale", 50.0),
        ("Person q", 40.0),
    ]
    missing = {"kind": "missing_owner", "person_id": "q", "name": "Person q", "percentage": 40.0}
    report = build_report(company, {}, holders, {}, "2026-07-01", missing)
    assert [u["natural_person"]["full_name"] for u in report["ubos"]] == ["Person p"]
