"""Crawling down through holdings, person seeds, and ownership edges in the graph and in control.

Graph tests build from hand-made records and holdings answers; crawl tests run against the local register
in-process (``regkit.Client``, a temporary cache), with the register's own ``GET /v1/credits`` and the client
ledger as referees and the world (``data/``) as the expected answer.
"""

from __future__ import annotations

import datetime
import io
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

import regkit
from regkit.errors import BudgetStopWarning
from regkit.graph import (
    as_of,
    control_layers,
    controlled_companies,
    controlling_parents,
    crawl,
    from_companies,
    from_edgelist,
    node_link_data,
    node_link_graph,
    organkreis,
    read_gexf,
    read_graphml,
    to_edgelist,
    to_nodelist,
    ultimate_parent,
    write_gexf,
    write_graphml,
)
from regkit.graph.control import holder_shares

A, B, C, D = (f"DE-HRB-B1204-{n}" for n in range(1, 5))
PERSON = "0f8fad5b-d9cb-469f-a165-70867728950e"
D_ = datetime.date


def holding(
    cid: str,
    share: float | None,
    start: str | None = None,
    end: str | None = None,
    kind: str = "shareholder",
    nominal: float | None = 25000,
) -> dict[str, Any]:
    return {
        "company_id": cid,
        "name": f"Firma {cid[-1]} GmbH",
        "relation_type": kind,
        "nominal_share": nominal,
        "percentage_share": share,
        "start": start,
        "end": end,
    }


def answer(holder: str, *holdings: dict[str, Any]) -> dict[str, Any]:
    key = "company_id" if holder.startswith("DE-") else "person_id"
    return {key: holder, "holdings": list(holdings)}


# -- ownership edges in the graph ---------------------------------------------------------------------
def test_holdings_become_ownership_edges(make_company: Any) -> None:
    G = from_companies(
        [make_company(1)],
        holdings=[
            answer(A, holding(B, 0.6, "2005-01-31", nominal=42000), holding(C, 1, "2001-01-01", "2019-06-30")),
            answer(PERSON, holding(B, 0.4, "2005-01-31", nominal=28000)),
        ],
    )
    edges = {(u, v, k): d for u, v, k, d in G.edges(keys=True, data=True)}
    assert set(edges) == {
        (A, B, "ownership/shareholder/2005-01-31"),
        (A, C, "ownership/shareholder/2001-01-01"),
        (PERSON, B, "ownership/shareholder/2005-01-31"),
    }
    assert edges[(A, B, "ownership/shareholder/2005-01-31")] == {
        "relation": "ownership",
        "role": None,
        "valid_from": D_(2005, 1, 31),
        "valid_to": None,
        "registration_date": None,
        "agreement_date": None,
        "authority": None,
        "share": 0.6,
        "nominal_share": 42000.0,
        "relation_type": "shareholder",
    }
    past = edges[(A, C, "ownership/shareholder/2001-01-01")]
    assert (past["valid_to"], type(past["share"]), past["share"]) == (D_(2019, 6, 30), float, 1.0)
    assert G.nodes[A]["fetched"] and not G.nodes[B]["fetched"] and G.nodes[B]["name"] == "Firma 2 GmbH"
    assert G.nodes[PERSON] == {
        "kind": "natural_person",
        "name": None,
        "first_name": None,
        "last_name": None,
        "date_of_birth": None,
        "city": None,
        "person_id": PERSON,
    }
    assert from_companies([make_company(1)], relations=("merger",), holdings=[answer(A, holding(B, 0.6))]).size() == 0


def test_a_share_must_be_a_fraction_and_answers_must_be_answers(make_company: Any) -> None:
    with pytest.raises(ValueError, match="not a fraction"):
        from_companies([], holdings=[answer(A, holding(B, 60.0))])  # percent, not normalised
    with pytest.raises(TypeError, match="holdings answer"):
        from_companies([], holdings=[{"holdings": []}])
    with pytest.raises(TypeError, match="person answer"):
        from_companies([], persons=[{"first_name": "Eva"}])


def test_a_person_answer_adds_the_person_and_one_edge_per_position(make_company: Any) -> None:
    entry = make_company.person(PERSON, "Eva Roth", start_date="2010-01-01", authority="Einzelvertretung")
    person = {
        "id": PERSON,
        "first_name": "Eva",
        "last_name": "Roth",
        "city": "Hof",
        "date_of_birth": "1970-01-01",
        "age": 56,
        "management_positions": [
            {
                "company_name": "Firma 1 GmbH",
                "register_id": A,
                "role": "DIRECTOR",
                "start_date": "2010-01-01",
                "end_date": None,
            },
            {
                "company_name": "Firma 2 GmbH",
                "register_id": B,
                "role": "PROKURA",
                "start_date": "2012-03-04",
                "end_date": "2015-01-01",
            },
        ],
    }
    G = from_companies([make_company(1, representation=[entry])], persons=[person])
    edges = {(u, v, k): d for u, v, k, d in G.edges(keys=True, data=True)}
    assert set(edges) == {
        (PERSON, A, "representation/DIRECTOR/2010-01-01"),
        (PERSON, B, "representation/PROKURA/2012-03-04"),
    }
    assert edges[(PERSON, A, "representation/DIRECTOR/2010-01-01")]["authority"] == "Einzelvertretung"  # the record's
    assert edges[(PERSON, B, "representation/PROKURA/2012-03-04")]["valid_to"] == D_(2015, 1, 1)
    assert G.nodes[PERSON]["name"] == "Eva Roth" and G.nodes[PERSON]["city"] == "Berlin"  # the record's, gaps filled
    alone = from_companies([], persons=[person])
    assert alone.nodes[PERSON]["city"] == "Hof" and alone.nodes[PERSON]["date_of_birth"] == D_(1970, 1, 1)
    assert from_companies([], relations=("ownership",), persons=[person]).size() == 0


# -- control with shares -------------------------------------------------------------------------------
def held(make_company: Any, pta: int | None = None) -> list[dict[str, Any]]:
    """C, listing A and B as shareholders (the register gives no shares), and A, B."""
    return [
        make_company(1),
        make_company(2),
        make_company(
            3,
            representation=[
                make_company.legal(1, start_date="2005-01-31"),
                make_company.legal(2, "Beta AG", start_date="2005-01-31"),
            ],
            profit_transfer_agreement=None if pta is None else make_company.link(pta),
        ),
    ]


def test_a_known_majority_decides_who_controls(make_company: Any) -> None:
    without = from_companies(held(make_company))
    assert controlling_parents(without, C) == {A, B}  # no shares: shared control, the walk stops
    assert ultimate_parent(without, C) == C

    shares = [answer(A, holding(C, 0.6, "2005-01-31")), answer(B, holding(C, 0.4, "2005-01-31"))]
    G = from_companies(held(make_company), holdings=shares)
    assert holder_shares(G, C) == {A: 0.6, B: 0.4}  # each holder once, though two edges name it
    assert controlling_parents(G, C) == {A} and ultimate_parent(G, C) == A
    assert controlled_companies(G, A) == {C} and controlled_companies(G, B) == set()
    assert control_layers(G)[C] > control_layers(G)[A]

    halves = from_companies(held(make_company), holdings=[answer(A, holding(C, 0.5)), answer(B, holding(C, 0.5))])
    assert controlling_parents(halves, C) == set()  # half is not more than half

    G = from_companies(held(make_company, pta=2), holdings=shares)
    assert controlling_parents(G, C) == {B} and organkreis(G, C).organtraeger == B  # an agreement outranks shares


def test_control_on_a_date_follows_past_holdings(make_company: Any) -> None:
    records = [make_company(1), make_company(2), make_company(3)]
    G = from_companies(
        records,
        holdings=[
            answer(A, holding(C, 0.9, "2001-01-01", "2015-01-01")),
            answer(B, holding(C, 0.75, "2015-01-01"), holding(D, 0.2, None, None, "general_partner")),
            answer(D, holding(C, 0.25, "2015-01-01")),
        ],
    )
    assert controlling_parents(G, C) == {B} and controlling_parents(G, C, "2010-06-01") == {A}
    assert controlled_companies(G, A) == set() and controlled_companies(G, A, "2010-06-01") == {C}
    assert controlling_parents(G, D) == set()  # a partner's known minority share
    then, now = as_of(G, "2010-06-01"), as_of(G, "2020-06-01")
    assert (A, C) in then.edges() and (B, C) not in then.edges()
    assert (A, C) not in now.edges() and (B, C) in now.edges() and (D, C) in now.edges()


def test_ownership_edges_survive_every_file_and_frame(make_company: Any, assert_same_graph: Any) -> None:
    G = from_companies(
        held(make_company),
        holdings=[
            answer(A, holding(C, 0.6, "2005-01-31", nominal=15000.5), holding(D, None, "2001-01-01", "2019-06-30")),
            answer(PERSON, holding(C, 0.4, nominal=None, kind="limited_partner")),
        ],
    )
    frame = to_edgelist(G)
    assert list(frame.columns)[-3:] == ["nominal_share", "relation_type", "share"]
    assert (str(frame["share"].dtype), str(frame["nominal_share"].dtype)) == ("Float64", "Float64")
    assert frame["share"].isna().sum() == len(frame) - 2  # other edges and the holding without a share
    assert_same_graph(from_edgelist(frame, nodes=to_nodelist(G)), G)
    H = from_edgelist(frame.drop(columns=["key"]), nodes=to_nodelist(G))
    assert sorted(H.edges(keys=True)) == sorted(G.edges(keys=True))
    for write, read in ((write_graphml, read_graphml), (write_gexf, read_gexf)):
        buffer = io.BytesIO()
        write(G, buffer)
        buffer.seek(0)
        assert_same_graph(read(buffer), G)
    assert_same_graph(node_link_graph(node_link_data(G)), G)


# -- crawling down through the local register -----------------------------------------------------------
def used(client: Any) -> int:
    return int(client.get_credits().raw["used_credits"])


def network(client: Any, call: str) -> pd.DataFrame:
    ledger = client.ledger
    return ledger[(ledger["call"] == call) & (ledger["source"] == "network")]


def largest_group(world: Any) -> dict[str, Any]:
    return max(world.meta["groups"], key=lambda g: (len(g["members"]), g["id"]))


def fetched(G: Any) -> set[str]:
    return {n for n, d in G.nodes(data=True) if d.get("kind") == "company" and d.get("fetched")}


def pta_top(world: Any, cid: str) -> str:
    """Where a company's chain of profit-transfer agreements ends, in the world's records."""
    seen = {cid}
    while (pta := world.companies[cid]["profit_transfer_agreement"]) and pta["company_id"] not in seen:
        cid = pta["company_id"]
        seen.add(cid)
    return cid


@pytest.fixture
def unlimited_client(tmp_path: Any) -> Iterator[Any]:
    """A client on an in-process register of its own without a rate limit (many calls, no 429 waits)."""
    from regkit.local import open_local_register

    register = open_local_register(state_path=tmp_path / "unlimited.sqlite", rate_limit=None)
    client = regkit.Client(
        api_key=register.default_api_key,
        base_url=register.base_url,
        cache=tmp_path / "unlimited-cache.sqlite",
        adapter=register.adapter,
    )
    yield client
    client.close()
    register.close()


@pytest.mark.slow
def test_every_group_is_reached_down_from_its_organtraeger(unlimited_client: Any, world: Any) -> None:
    held_by: dict[str, set[str]] = defaultdict(set)
    for row in world.shareholdings:
        held_by[row["holder_id"]].add(row["company_id"])
    for group in world.meta["groups"]:
        top, members = group["organtraeger"], set(group["members"])
        depth, level, reached = 0, {top}, {top}  # levels of holdings, current and past, the world knows
        while level := {c for h in level for c in held_by[h]} - reached:
            reached |= level
            depth += 1
        G = crawl(unlimited_client, top, depth=depth, direction="down", progress=False)
        assert members <= fetched(G), (group["id"], sorted(members - fetched(G)))
        alive = {c for c in members if world.companies[c]["terminated_at"] is None}
        assert controlled_companies(G, top) | {top} == alive, group["id"]
        assert all(ultimate_parent(G, c) == top for c in alive), group["id"]
        assert organkreis(G, top).companies == {c for c in alive if pta_top(world, c) == top}, group["id"]
        assert G.graph["crawl"].stopped is None and not G.graph["crawl"].failed_calls


def test_the_largest_group_costs_ten_per_company_and_ten_per_holdings_call_once(
    make_client: Any, world: Any, assert_same_graph: Any
) -> None:
    group = largest_group(world)
    client = make_client()
    before = used(client)
    told: list[Any] = []
    G = crawl(client, group["organtraeger"], depth=6, direction="down", progress=False, callback=told.append)
    report = G.graph["crawl"]
    companies, holdings = network(client, "get_company"), network(client, "get_holdings")
    assert set(group["members"]) <= fetched(G)
    assert companies["path"].is_unique and holdings["path"].is_unique  # nothing asked twice
    assert {p.rsplit("/", 1)[1] for p in companies["path"]} == fetched(G)
    assert {p.split("/")[3] for p in holdings["path"]} == fetched(G)  # /v1/company/<id>/holdings
    expected = 10 * len(companies) + 10 * len(holdings)
    assert used(client) - before == client.credits_spent == report.spent_credits == expected
    assert report.credits_by_endpoint() == {"company": 10 * len(fetched(G)), "holdings": 10 * len(fetched(G))}
    endpoints = report.endpoints
    assert (endpoints["estimated_credits"] == endpoints["spent_credits"]).all()
    assert (report.levels["estimated_credits"] == report.levels["spent_credits"]).all()
    assert [plan.credits for plan in told][0] == {"company": 10, "holdings": 10}
    assert (
        str(told[0]) == "level 0: 1 company (0 cached) + 1 holdings (0 cached) → 20 credits (company 10, holdings 10)"
    )

    again = make_client()  # a new client on the same cache
    before = used(again)
    H = crawl(again, group["organtraeger"], depth=6, direction="down", progress=False)
    assert H.graph["crawl"].spent_credits == 0 == again.credits_spent == used(again) - before
    assert (H.graph["crawl"].endpoints["estimated_credits"] == 0).all()
    assert network(again, "get_company").empty and network(again, "get_holdings").empty
    assert_same_graph(G, H)


def test_ownership_edges_are_the_worlds_holdings(make_client: Any, world: Any) -> None:
    group = largest_group(world)
    G = crawl(make_client(), group["organtraeger"], depth=6, direction="down", progress=False)
    want = {
        (r["holder_id"], r["company_id"], r["share"], r["start"], r["end"])
        for r in world.shareholdings
        if r["holder_id"] in fetched(G)
    }
    got = {
        (u, v, d["share"], d["valid_from"] and d["valid_from"].isoformat(), d["valid_to"] and d["valid_to"].isoformat())
        for u, v, d in G.edges(data=True)
        if d["relation"] == "ownership"
    }
    assert got == want


def test_a_person_seed_brings_their_positions_and_holdings(make_client: Any, world: Any) -> None:
    holdings: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in world.shareholdings:
        if row["holder_type"] == "natural_person":
            holdings[row["holder_id"]].append(row)
    positions: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry.get("type") == "natural_person" and entry.get("id") and entry["role"] != "SHAREHOLDER":
                positions[entry["id"]].add((company["id"], entry["role"], entry["start_date"]))
    person = min(p for p in holdings if positions[p] and any(r["end"] for r in holdings[p]))
    client = make_client()
    before = used(client)
    G = crawl(client, person.upper(), depth=1, direction="down", progress=False)
    report = G.graph["crawl"]
    first = report.endpoints[report.endpoints["level"] == 0]
    assert dict(zip(first["endpoint"], first["spent_credits"])) == {"person": 10, "person_holdings": 10}
    targets = {c for c, _, _ in positions[person]} | {r["company_id"] for r in holdings[person]}
    assert fetched(G) == targets and set(report.rows[1]["ids"]) == targets
    assert used(client) - before == report.spent_credits == 20 + 20 * len(targets)

    node = G.nodes[person]
    assert node["kind"] == "natural_person" and node["person_id"] == person and node["name"]
    serving = {
        (v, d["role"], d["valid_from"].isoformat())
        for _, v, d in G.out_edges(person, data=True)
        if d["relation"] == "representation" and d["role"] != "SHAREHOLDER"
    }
    assert serving == positions[person]
    owning = {
        (v, d["share"], d["valid_to"]) for _, v, d in G.out_edges(person, data=True) if d["relation"] == "ownership"
    }
    assert owning == {(r["company_id"], r["share"], r["end"] and D_.fromisoformat(r["end"])) for r in holdings[person]}


def test_the_budget_cuts_whole_companies_and_both_goes_up_and_down(make_client: Any, world: Any) -> None:
    group = largest_group(world)
    client = make_client()
    with pytest.warns(BudgetStopWarning, match="crawl stopped at the budget: level 1 needs"):
        G = crawl(client, group["organtraeger"], depth=3, direction="down", budget=50, progress=False)
    report = G.graph["crawl"]
    assert report.stopped.startswith("budget: level 1") and client.credits_spent == 40  # 20 + one company with holdings
    assert len(report.rows[1]["ids"]) == 1 and report.rows[1]["skipped"] == len(report.skipped) > 0

    leaf = next(
        c
        for c in group["members"]
        if c != group["organtraeger"]
        and world.companies[c]["profit_transfer_agreement"]
        and world.companies[c]["terminated_at"] is None
    )
    up = crawl(client, leaf, depth=6, progress=False)
    both = crawl(client, leaf, depth=6, direction="both", progress=False)
    assert group["organtraeger"] in fetched(up) and not set(group["members"]) <= fetched(up)
    assert set(group["members"]) <= fetched(both)


def test_arguments_are_checked_before_anything_is_spent() -> None:
    class NoClient:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError("nothing may be called")

    cases: tuple[tuple[dict[str, Any], str], ...] = (
        ({"direction": "sideways"}, "direction"),
        ({"direction": "down", "relations": ("merger", "profit_transfer")}, "ownership"),
        ({"relations": ("ownership",)}, "direction='up'"),
        ({"seeds": ["not-a-uuid-or-id"]}, "person ids"),
        ({"seeds": [PERSON], "relations": ("merger",)}, "person seeds"),
    )
    for kwargs, match in cases:
        with pytest.raises(regkit.ValidationError, match=match):
            crawl(NoClient(), **{"seeds": [A], **kwargs})


def test_down_from_a_subsidiary_stays_below_it(make_client: Any, world: Any) -> None:
    # The companies below a holding in the world: what it holds (current or past), and so on, by shareholdings,
    # plus what those absorbed or spun off to, from the records — never its parent or Organträger.
    holds: dict[str, set[str]] = {}
    for row in world.shareholdings:
        holds.setdefault(row["holder_id"], set()).add(row["company_id"])
    middle = next(
        cid
        for cid in sorted(h for h in holds if h)
        if cid in world.companies
        and world.companies[cid]["profit_transfer_agreement"]
        and any(c in holds for c in holds[cid])
    )
    below, todo = {middle}, [middle]
    while todo:
        cid = todo.pop()
        record = world.companies[cid]
        nxt = holds.get(cid, set()) | {a["company_id"] for a in record["acquisitions"]}
        nxt |= {s["company_id"] for s in record["asset_spin_offs"]}
        todo += sorted(nxt - below)
        below |= nxt
    G = crawl(make_client(), middle, depth=10, direction="down", progress=False)
    assert fetched(G) == below and world.companies[middle]["profit_transfer_agreement"]["company_id"] not in fetched(G)
