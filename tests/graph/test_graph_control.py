"""Control and time: ultimate_parent, control_chain, organkreis, as_of — edge cases."""

from __future__ import annotations

import datetime as dt
from typing import Any

import networkx as nx
import pytest

from regkit.graph import as_of, control_chain, controlling_parents, from_companies, organkreis, ultimate_parent
from regkit.graph.timeline import in_force


def cid(n: int) -> str:
    return f"DE-HRB-B1204-{n}"


def test_a_cycle_of_shareholdings_ends(make_company: Any) -> None:
    legal = make_company.legal
    G = from_companies(
        [
            make_company(1, representation=[legal(2)]),
            make_company(2, representation=[legal(3)]),
            make_company(3, representation=[legal(1)]),
            make_company(4, representation=[legal(1)]),
        ]
    )
    # 2 holds 1, 3 holds 2, 1 holds 3; 1 holds 4
    assert control_chain(G, cid(4)) == [cid(4), cid(1), cid(2), cid(3)]
    assert ultimate_parent(G, cid(4)) == cid(3)
    assert ultimate_parent(G, cid(2)) == cid(1)  # the last company before the cycle closes


def test_a_cycle_of_agreements_ends(make_company: Any) -> None:
    link = make_company.link
    G = from_companies(
        [make_company(1, profit_transfer_agreement=link(2)), make_company(2, profit_transfer_agreement=link(1))]
    )
    top, members = organkreis(G, cid(1))
    assert top == cid(2) and members == {cid(1)}


def test_an_agreement_outranks_shareholdings(make_company: Any) -> None:
    G = from_companies(
        [make_company(3, profit_transfer_agreement=make_company.link(1), representation=[make_company.legal(2)])]
    )
    assert controlling_parents(G, cid(3)) == {cid(1)}
    assert ultimate_parent(G, cid(3)) == cid(1)


def test_shared_control_stops_the_walk(make_company: Any) -> None:
    legal = make_company.legal
    G = from_companies([make_company(3, representation=[legal(1), legal(2, "Beta AG")])])
    assert controlling_parents(G, cid(3)) == {cid(1), cid(2)}
    assert ultimate_parent(G, cid(3)) == cid(3)


def test_people_and_general_partners_do_not_control(make_company: Any) -> None:
    kg = make_company(
        3,
        representation=[
            make_company.person("p-1", role="SHAREHOLDER"),
            make_company.legal(2, "Komplementär GmbH", "PERSONAL_LIABLE_DIRECTOR"),
        ],
    )
    G = from_companies([kg])
    assert ultimate_parent(G, cid(3)) == cid(3)


def test_legal_person_without_company_id_can_be_the_ultimate_parent(make_company: Any) -> None:
    G = from_companies([make_company(3, representation=[make_company.legal(None, "Acme Ltd.")])])
    assert ultimate_parent(G, cid(3)) == "legal:acme ltd|berlin|de"


def test_control_over_time(make_company: Any) -> None:
    legal = make_company.legal
    company = make_company(
        3,
        representation=[
            legal(1, start_date="2000-01-01", end_date="2010-06-30"),
            legal(2, "Beta AG", start_date="2010-06-30"),
        ],
        profit_transfer_agreement=make_company.link(2, "2015-01-01"),
    )
    G = from_companies([company])
    assert ultimate_parent(G, cid(3), "2005-01-01") == cid(1)
    assert ultimate_parent(G, cid(3), "2010-06-29") == cid(1)
    assert ultimate_parent(G, cid(3), dt.date(2010, 6, 30)) == cid(2)  # half-open: the new holder on the day
    assert ultimate_parent(G, cid(3)) == cid(2)
    assert organkreis(G, cid(3), "2014-12-31") == (cid(3), frozenset())
    assert organkreis(G, cid(2), "2015-01-01") == (cid(2), frozenset({cid(3)}))


def test_unknown_company_raises(make_company: Any) -> None:
    G = from_companies([make_company(1)])
    for call in (ultimate_parent, organkreis, control_chain):
        with pytest.raises(nx.NodeNotFound):
            call(G, cid(9))


def test_in_force_is_half_open() -> None:
    edge = {"valid_from": dt.date(2010, 1, 1), "valid_to": dt.date(2011, 1, 1)}
    assert not in_force(edge, dt.date(2009, 12, 31))
    assert in_force(edge, dt.date(2010, 1, 1)) and in_force(edge, dt.date(2010, 12, 31))
    assert not in_force(edge, dt.date(2011, 1, 1)) and not in_force(edge, None)
    assert in_force({"valid_from": None, "valid_to": None}, dt.date(1900, 1, 1))


def test_as_of_keeps_what_existed_and_what_was_in_force(make_company: Any) -> None:
    person, link = make_company.person, make_company.link
    absorbed = make_company(
        2,
        status="inactive",
        terminated_at="2022-10-12",
        merged_into=link(1, "2022-10-12"),
        representation=[person("p-1", start_date="2005-01-01", end_date="2022-10-12")],
    )
    acquirer = make_company(
        1,
        incorporated_at="2001-01-01",
        representation=[person("p-2", start_date="2001-01-01"), person("p-1", start_date="2020-01-01")],
    )
    G = from_companies([absorbed, acquirer])
    before = as_of(G, "2021-01-01")
    assert set(before) == {cid(1), cid(2), "p-1", "p-2"}
    assert {d["relation"] for *_, d in before.edges(data=True)} == {"representation"}
    after = as_of(G, "2022-10-12")
    assert set(after) == {cid(1), "p-1", "p-2"} and after.number_of_edges() == 2
    assert set(as_of(G, "2000-06-01")) == {cid(2)}  # incorporated 2000-01-01; company 1 only in 2001
    assert set(as_of(G, "2000-06-01", keep_isolated=True)) == {cid(2), "p-1", "p-2"}
    assert before.nodes[cid(1)] == {**G.nodes[cid(1)], "existed": True}  # a copy, and whether it existed
    assert before.nodes[cid(1)] is not G.nodes[cid(1)] and "existed" not in G.nodes[cid(1)]
    assert "existed" not in before.nodes["p-1"]  # persons: always there
    with pytest.raises(ValueError):
        as_of(G, None)


def test_as_of_accepts_date_like_values(make_company: Any) -> None:
    import pandas as pd

    G = from_companies([make_company(1)])
    for day in ("2020-01-01", dt.date(2020, 1, 1), dt.datetime(2020, 1, 1, 12), pd.Timestamp("2020-01-01")):
        assert list(as_of(G, day)) == [cid(1)]


def test_as_of_on_the_world_drops_the_merged_and_ended(world: Any, world_graph: Any) -> None:
    day = dt.date(2015, 1, 1)
    H = as_of(world_graph, day)
    iso = day.isoformat()
    alive = {
        c
        for c, r in world.companies.items()
        if r["incorporated_at"] <= iso and (r["terminated_at"] is None or iso < r["terminated_at"])
    }
    assert {n for n, d in H.nodes(data=True) if d["kind"] == "company"} == alive
    # a company representative must exist on the day too (the world has shareholder mandates that start
    # before the holding company was incorporated: those are not in force before it exists)
    mandates = sum(
        1
        for c in alive
        for r in world.companies[c]["representation"]
        if r["start_date"] <= day.isoformat()
        and (r["end_date"] is None or day.isoformat() < r["end_date"])
        and (r["type"] == "natural_person" or r["id"] in alive)
    )
    assert sum(1 for *_, d in H.edges(data=True) if d["relation"] == "representation") == mandates
