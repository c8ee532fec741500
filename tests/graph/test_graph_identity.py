"""One identity of a person: ``representatives()`` ids are the graph's node ids; no entry is ever dropped."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.frames import representatives
from regkit.graph import from_companies

pytestmark = pytest.mark.slow


def iso(value: Any) -> str | None:
    return None if value is None or pd.isna(value) else value.isoformat()[:10]


def frame_mandates(frame: pd.DataFrame) -> Counter:
    """(person id, company, role, start, end, authority) of every row of ``representatives()``."""
    return Counter(
        (
            r.id,
            r.company_id,
            str(r.role),
            iso(r.start_date),
            iso(r.end_date),
            None if pd.isna(r.authority) else r.authority,
        )
        for r in frame.itertuples()
    )


def graph_mandates(G: Any) -> Counter:
    """The same for every representation edge of the graph: its source node is the person."""
    return Counter(
        (u, v, d["role"], iso(d["valid_from"]), iso(d["valid_to"]), d["authority"])
        for u, v, d in G.edges(data=True)
        if d["relation"] == "representation"
    )


def distinct_entries(companies: list[dict[str, Any]]) -> int:
    """Entries of the input that differ in some member (exact repeats within a company count once)."""
    return sum(
        len({json.dumps(e, sort_keys=True) for e in c["representation"]})
        for c in {c["id"]: c for c in companies}.values()
    )


def assert_joined(companies: Any, raw: list[dict[str, Any]], person_city: bool = False) -> None:
    G = from_companies(companies, person_city=person_city)
    frame = representatives(companies, person_city=person_city)
    assert set(frame["id"]) <= set(G), "every representatives() id is a node of the graph"
    # each row is an edge from its id, and every edge is a row: as sets, since an exact repeat is one edge
    assert set(frame_mandates(frame)) == set(graph_mandates(G))
    assert sum(graph_mandates(G).values()) == distinct_entries(raw)


def test_the_bundled_world(world: Any) -> None:
    companies = list(world.companies.values())
    assert_joined(companies, companies)
    assert_joined(companies, companies, person_city=True)


def test_through_the_local_register(world: Any, make_client: Any) -> None:
    """Companies fetched from the in-process local register (records, a CompanyBatch): the same join."""
    ids = [c["id"] for c in world.companies.values() if any(r["id"] is None for r in c["representation"])][
        :120
    ]  # id-less persons: derived keys
    batch = make_client().get_companies(ids, progress=False)
    assert len(batch.ok) == len(ids)
    assert_joined(batch, [record.raw for record in batch.ok])
    frame = batch.representatives()
    derived = frame[frame["id_derived"]]
    assert len(derived) >= 120 and derived["id"].str.startswith("person:").all()
    assert set(derived["id"]) <= set(from_companies(batch))


def test_one_person_listed_twice_with_another_split_is_two_edges(make_company: Any) -> None:
    """The register lists Hans Peter Müller twice at one company, the name split differently: 20 entries,
    20 edges — both to the same person node (the split does not change who he is)."""
    person = make_company.person
    others = [person(f"p-{i}", f"Eva{i} Roth", "1970-01-01", role="PROKURA") for i in range(18)]
    first = person(None, "Hans Peter Müller", "1960-05-05")
    first["natural_person"].update(first_name="Hans Peter", last_name="Müller")
    second = {**first, "natural_person": {**first["natural_person"], "first_name": "Hans", "last_name": "Peter Müller"}}
    company = make_company(1, representation=[*others, first, second])
    G = from_companies([company])
    assert G.number_of_edges() == 20
    hans = "person:hans mueller peter|1960-05-05"
    assert sorted(G[hans]["DE-HRB-B1204-1"]) == [
        "representation/DIRECTOR/2010-01-01",
        "representation/DIRECTOR/2010-01-01/2",
    ]
    assert representatives(company)["id"].tolist()[-2:] == [hans, hans]


# -- generated companies --------------------------------------------------------------------------------
FIRST, LAST = ["Hans", "Hans Peter", "Eva", "Jörg", "Dr. Eva"], ["Müller", "Peter Müller", "Mueller", "Roth", "ROTH"]
entries = st.fixed_dictionaries(
    {
        "id": st.sampled_from([None, None, "p-1", "p-2", "", "DE-HRB-B1204-9"]),
        "name": st.sampled_from(["Hans Peter Müller", "Eva Roth", "Dr. Eva Roth", "Acme Ltd."]),
        "type": st.sampled_from(["natural_person", "natural_person", "legal_person"]),
        "role": st.sampled_from(["DIRECTOR", "PROKURA", "SHAREHOLDER"]),
        "start_date": st.sampled_from(["2010-01-01", "2012-06-30"]),
        "end_date": st.sampled_from([None, "2015-01-01"]),
        "authority": st.sampled_from([None, "a", "b"]),
        "natural_person": st.none()
        | st.fixed_dictionaries(
            {
                "first_name": st.none() | st.sampled_from(FIRST),
                "last_name": st.none() | st.sampled_from(LAST),
                "date_of_birth": st.sampled_from([None, "1960-05-05", "1970-01-01"]),
                "city": st.sampled_from([None, "Köln", "Koeln", "Hof"]),
            }
        ),
        "legal_person": st.none()
        | st.fixed_dictionaries(
            {
                "name": st.sampled_from(["Acme Ltd.", "ACME Ltd"]),
                "city": st.sampled_from([None, "London"]),
                "country": st.sampled_from(["GB", None]),
            }
        ),
    }
)


@st.composite
def variant(draw: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with one member changed that the edge does not show (name, split, city, legal name)."""
    other = {
        **entry,
        "natural_person": dict(entry["natural_person"] or {}),
        "legal_person": dict(entry["legal_person"] or {}),
    }
    member = draw(st.sampled_from(["name", "split", "city", "legal"]))
    if member == "name":
        other["name"] = draw(st.sampled_from(["Hans Peter Müller", "Eva Roth", "Dr. Eva Roth", "Acme Ltd."]))
    elif member == "split":
        other["natural_person"].update(first_name=draw(st.sampled_from(FIRST)), last_name=draw(st.sampled_from(LAST)))
    elif member == "city":
        other["natural_person"]["city"] = draw(st.sampled_from([None, "Köln", "Koeln", "Hof"]))
    else:
        other["legal_person"].update(name=draw(st.sampled_from(["Acme Ltd.", "ACME Ltd"])), city=None, country=None)
    return other


@st.composite
def companies(draw: Any) -> list[dict[str, Any]]:
    """One to four companies (ids sometimes repeated) whose entries repeat, exactly or nearly."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        pool = draw(st.lists(entries, min_size=1, max_size=3))
        pool += [draw(variant(e)) for e in pool if draw(st.booleans())]
        reps = draw(st.lists(st.sampled_from(pool), max_size=8))  # exact repeats, and near ones from the pool
        n = draw(st.integers(1, 3))
        out.append({"id": f"DE-HRB-B1204-{n}", "name": {"name": f"F{n}"}, "names": [], "representation": reps})
    return out


@settings(max_examples=150, deadline=None)
@given(companies(), st.booleans())
def test_property_ids_are_nodes_and_every_entry_is_an_edge(generated: list[dict[str, Any]], city: bool) -> None:
    # a company id given twice is the same company: the graph adds the entries of both (as one company);
    # representatives() lists both (as given) — their sets of mandates agree
    merged = {}
    for c in generated:
        merged.setdefault(c["id"], {**c, "representation": []})["representation"].extend(c["representation"])
    G = from_companies(generated, person_city=city)
    frame = representatives(generated, person_city=city)
    assert set(frame["id"]) <= set(G)
    assert set(frame_mandates(frame)) == set(graph_mandates(G))
    assert sum(graph_mandates(G).values()) == distinct_entries(list(merged.values()))
