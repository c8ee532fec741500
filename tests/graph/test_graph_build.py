"""``from_companies``: nodes, edges, directions, dates, person identity, inputs."""

from __future__ import annotations

import datetime as dt
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.client.company import CompanyBatch, CompanyRecord
from regkit.graph import RELATIONS, from_companies
from regkit.graph.persons import name_key, normalise
from regkit.graph.schema import EDGE_ATTRIBUTES, NODE_ATTRIBUTES

D = dt.date


def test_every_relation_in_its_direction_with_its_dates(make_company: Any) -> None:
    link = make_company.link
    absorbed = make_company(
        2, status="inactive", terminated_at="2022-10-12", merged_into=link(1, "2022-10-12", "2022-07-01")
    )
    child = make_company(
        3,
        profit_transfer_agreement=link(1, "2019-03-01", "2018-12-20"),
        asset_spin_offs=[link(4, "2015-03-01", "2015-01-12")],
        representation=[
            make_company.person(
                "p-1", role="DIRECTOR", start_date="2011-02-03", end_date="2018-08-09", authority="Einzelvertretung"
            ),
            make_company.legal(1, role="SHAREHOLDER", start_date="2009-01-01"),
        ],
    )
    G = from_companies([absorbed, child, make_company(1)])
    assert isinstance(G, nx.MultiDiGraph)
    edges = {(u, v, k): d for u, v, k, d in G.edges(keys=True, data=True)}
    assert set(edges) == {
        ("DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger"),
        ("DE-HRB-B1204-3", "DE-HRB-B1204-1", "profit_transfer"),
        ("DE-HRB-B1204-3", "DE-HRB-B1204-4", "spin_off/2015-03-01"),
        ("p-1", "DE-HRB-B1204-3", "representation/DIRECTOR/2011-02-03"),
        ("DE-HRB-B1204-1", "DE-HRB-B1204-3", "representation/SHAREHOLDER/2009-01-01"),
    }
    assert all(tuple(d) == EDGE_ATTRIBUTES for d in edges.values())
    merger = edges[("DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger")]
    assert merger == {
        "relation": "merger",
        "role": None,
        "valid_from": D(2022, 10, 12),
        "valid_to": None,
        "registration_date": D(2022, 10, 12),
        "agreement_date": D(2022, 7, 1),
        "authority": None,
    }
    pta = edges[("DE-HRB-B1204-3", "DE-HRB-B1204-1", "profit_transfer")]
    assert (pta["valid_from"], pta["agreement_date"]) == (D(2019, 3, 1), D(2018, 12, 20))
    director = edges[("p-1", "DE-HRB-B1204-3", "representation/DIRECTOR/2011-02-03")]
    assert director == {
        "relation": "representation",
        "role": "DIRECTOR",
        "valid_from": D(2011, 2, 3),
        "valid_to": D(2018, 8, 9),
        "registration_date": None,
        "agreement_date": None,
        "authority": "Einzelvertretung",
    }


def test_nodes_by_kind_with_their_attributes(make_company: Any) -> None:
    company = make_company(
        1,
        representation=[make_company.person("p-1", "Eva Roth", "1970-01-01", "Hof")],
        acquisitions=[make_company.link(9)],
    )
    G = from_companies([company])
    assert G.nodes["DE-HRB-B1204-1"] == {
        "kind": "company",
        "name": "Firma 1 GmbH",
        "legal_form": "gmbh",
        "status": "active",
        "city": "Berlin",
        "incorporated_at": D(2000, 1, 1),
        "terminated_at": None,
        "removed_after": None,
        "fetched": True,
    }
    assert G.nodes["DE-HRB-B1204-9"] == {
        "kind": "company",
        "name": "Firma 9 GmbH",
        "legal_form": None,
        "status": None,
        "city": None,
        "incorporated_at": None,
        "terminated_at": None,
        "removed_after": None,
        "fetched": False,
    }
    assert G.nodes["p-1"] == {
        "kind": "natural_person",
        "name": "Eva Roth",
        "first_name": "Eva",
        "last_name": "Roth",
        "date_of_birth": D(1970, 1, 1),
        "city": "Hof",
        "person_id": "p-1",
    }
    for _, attrs in G.nodes(data=True):
        assert tuple(attrs) == NODE_ATTRIBUTES[attrs["kind"]]


def test_a_merger_both_ends_report_is_one_edge(make_company: Any) -> None:
    absorbed = make_company(2, merged_into=make_company.link(1, "2022-10-12", None))
    acquirer = make_company(1, acquisitions=[make_company.link(2, "2022-10-12", "2022-07-01")])
    G = from_companies([absorbed, acquirer])
    assert G.number_of_edges() == 1
    assert G.edges["DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger"]["agreement_date"] == D(2022, 7, 1)


def test_a_fetched_company_replaces_its_stub_whatever_the_order(make_company: Any) -> None:
    child = make_company(2, profit_transfer_agreement=make_company.link(1))
    for order in ([child, make_company(1)], [make_company(1), child]):
        assert from_companies(order).nodes["DE-HRB-B1204-1"]["fetched"] is True


def test_persons_are_merged_by_id_and_id_less_ones_by_name_and_birth(make_company: Any) -> None:
    person = make_company.person
    companies = [
        make_company(1, representation=[person("p-1", "Jörg Müller", "1960-05-05", "Köln")]),
        make_company(9, representation=[person("p-1", "J. Mueller", None, None)]),  # an id is an id
        # the same name and birth without id, spelled and titled differently, in another city: one node
        make_company(2, representation=[person(None, "Joerg Mueller", "1960-05-05", "Koeln")]),
        make_company(3, representation=[person(None, "Dr. JÖRG  MÜLLER", "1960-05-05", "Hamburg")]),
        # no date of birth: never merged across companies
        make_company(5, representation=[person(None, "Max Meier", None, "Ulm")]),
        make_company(6, representation=[person(None, "Max Meier", None, "Ulm")]),
    ]
    G = from_companies(companies)
    assert set(G.successors("p-1")) == {"DE-HRB-B1204-1", "DE-HRB-B1204-9"}
    joerg = "person:joerg mueller|1960-05-05"
    assert set(G.successors(joerg)) == {"DE-HRB-B1204-2", "DE-HRB-B1204-3"}
    assert G.nodes[joerg]["person_id"] is None and G.nodes[joerg]["name"] == "Joerg Mueller"  # the first entry's
    meier = sorted(n for n in G if n.startswith("person:max meier"))
    assert meier == ["person:max meier|@DE-HRB-B1204-5", "person:max meier|@DE-HRB-B1204-6"]


def test_the_city_is_a_tie_breaker_only_on_request(make_company: Any) -> None:
    person = make_company.person
    companies = [
        make_company(2, representation=[person(None, "Joerg Mueller", "1960-05-05", "Köln")]),
        make_company(3, representation=[person(None, "Jörg Müller", "1960-05-05", "Hamburg")]),
        make_company(4, representation=[person(None, "Jörg Müller", "1960-05-05", "Koeln")]),
    ]
    G = from_companies(companies, person_city=True)
    assert set(G.successors("person:joerg mueller|1960-05-05|koeln")) == {"DE-HRB-B1204-2", "DE-HRB-B1204-4"}
    assert set(G.successors("person:joerg mueller|1960-05-05|hamburg")) == {"DE-HRB-B1204-3"}
    assert len(from_companies(companies)) == 4  # three companies, one person


def test_an_id_less_entry_never_joins_a_person_with_an_id(make_company: Any) -> None:
    """The key depends on the entry alone, so it is the same whatever else is in the input."""
    person = make_company.person
    G = from_companies(
        [
            make_company(1, representation=[person("p-1", "Eva Roth", "1970-01-01", "Hof")]),
            make_company(3, representation=[person(None, "Eva Roth", "1970-01-01", "Hof")]),
        ]
    )
    assert set(G.predecessors("DE-HRB-B1204-3")) == {"person:eva roth|1970-01-01"}


def test_legal_persons_with_and_without_a_company_id(make_company: Any) -> None:
    legal = make_company.legal
    G = from_companies(
        [
            make_company(
                1,
                representation=[
                    legal(7, "Beta GmbH", "PERSONAL_LIABLE_DIRECTOR"),
                    legal(None, "Acme Ltd.", "SHAREHOLDER"),
                    legal("LEI-529900T8BM49AURSDO55", "Foreign Holding Inc.", "SHAREHOLDER"),
                ],
            )
        ]
    )
    assert G.nodes["DE-HRB-B1204-7"]["kind"] == "company" and G.nodes["DE-HRB-B1204-7"]["fetched"] is False
    assert G.nodes["legal:acme ltd|berlin|de"] == {
        "kind": "legal_person",
        "name": "Acme Ltd.",
        "city": "Berlin",
        "country": "DE",
        "person_id": None,
    }
    assert G.nodes["LEI-529900T8BM49AURSDO55"]["kind"] == "legal_person"


def test_two_mandates_with_the_same_start_are_two_edges(make_company: Any) -> None:
    person = make_company.person
    company = make_company(
        1,
        representation=[
            person("p-1", end_date="2012-01-01", authority="a"),
            person("p-1", end_date=None, authority="b"),
            person("p-1", end_date=None, authority="b"),
        ],
    )  # exact repeat: once
    keys = sorted(k for *_, k in from_companies([company]).edges(keys=True))
    assert keys == ["representation/DIRECTOR/2010-01-01", "representation/DIRECTOR/2010-01-01/2"]


def test_the_same_company_twice_adds_nothing(make_company: Any) -> None:
    company = make_company(1, representation=[make_company.person()], asset_spin_offs=[make_company.link(2)])
    assert from_companies([company, company]).number_of_edges() == 2


def test_relations_select_what_is_built(make_company: Any) -> None:
    company = make_company(2, merged_into=make_company.link(1), representation=[make_company.person()])
    G = from_companies([company], relations=("merger",))
    assert [d["relation"] for *_, d in G.edges(data=True)] == ["merger"] and "p-1" not in G
    with pytest.raises(ValueError, match="unknown relations"):
        from_companies([company], relations=("owns",))
    assert from_companies([company], relations="representation").number_of_edges() == 1


def test_accepts_records_batches_mappings_and_one_company(make_company: Any) -> None:
    a, b = make_company(1), make_company(2)
    batch = CompanyBatch(["DE-HRB-B1204-1", "x", "DE-HRB-B1204-2"], [CompanyRecord(a), None, CompanyRecord(b)], {})
    for given_ in (batch, [CompanyRecord(a), b], {"x": a, "y": b}):
        assert sorted(from_companies(given_)) == ["DE-HRB-B1204-1", "DE-HRB-B1204-2"]
    assert list(from_companies(CompanyRecord(a))) == ["DE-HRB-B1204-1"]
    with pytest.raises(TypeError):
        from_companies([1, 2])
    with pytest.raises(TypeError):
        from_companies("DE-HRB-B1204-1")


def test_create_using(make_company: Any) -> None:
    class Mine(nx.MultiDiGraph):
        pass

    assert type(from_companies([make_company(1)], create_using=Mine)) is Mine
    with pytest.raises(TypeError, match="directed multigraph"):
        from_companies([make_company(1)], create_using=nx.Graph)


def test_normalise_folds_spelling_variants() -> None:
    assert normalise("MÜLLER-Lüdenscheidt,  Hans") == normalise("Mueller Luedenscheidt Hans")
    assert name_key("Zoë", "Weiß", "x") == "weiss zoe"  # first and last name win over ``name`` when both given


def test_the_whole_world_every_entry_and_link_once(world: Any, world_graph: Any) -> None:
    entries = sum(len(c["representation"]) for c in world.companies.values())
    relations = {r: 0 for r in RELATIONS}
    for _, _, d in world_graph.edges(data=True):
        relations[d["relation"]] += 1
    assert relations["representation"] == entries
    assert relations["profit_transfer"] == sum(1 for c in world.companies.values() if c["profit_transfer_agreement"])
    assert relations["merger"] == sum(1 for c in world.companies.values() if c["merged_into"])
    assert relations["merger"] == sum(len(c["acquisitions"]) for c in world.companies.values())
    assert relations["spin_off"] == sum(len(c["asset_spin_offs"]) for c in world.companies.values())
    assert all(world_graph.nodes[cid]["fetched"] for cid in world.companies)
    assert all(d.get("fetched", True) for _, d in world_graph.nodes(data=True)), "every link resolves in the world"


days = st.dates(min_value=D(1990, 1, 1), max_value=D(2030, 1, 1)).map(D.isoformat)
entries = st.builds(
    lambda pid, role, start, end, authority: {
        "id": pid,
        "name": "Eva Roth",
        "type": "natural_person",
        "role": role,
        "start_date": start,
        "end_date": end,
        "authority": authority,
        "natural_person": None,
    },
    st.sampled_from(["p-1", "p-2", "p-3"]),
    st.sampled_from(["DIRECTOR", "PROKURA", "SHAREHOLDER"]),
    days,
    st.none() | days,
    st.sampled_from([None, "a", "b"]),
)


def _iso(day: D | None) -> str | None:
    return None if day is None else day.isoformat()


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(entries, max_size=8), min_size=1, max_size=4))
def test_property_every_distinct_entry_is_one_edge(representations: list[list[dict[str, Any]]]) -> None:
    companies = [
        {"id": f"DE-HRB-B1204-{i}", "name": {"name": f"F{i}"}, "representation": reps}
        for i, reps in enumerate(representations)
    ]
    G = from_companies(companies)
    for company in companies:
        expected = {
            (e["id"], e["role"], e["start_date"], e["end_date"], e["authority"]) for e in company["representation"]
        }
        edges = list(G.in_edges(company["id"], data=True))
        got = {(u, d["role"], _iso(d["valid_from"]), _iso(d["valid_to"]), d["authority"]) for u, _, d in edges}
        assert got == expected and len(edges) == len(expected)
