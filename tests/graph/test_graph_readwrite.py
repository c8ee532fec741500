"""Round trips: edge lists, GraphML, GEXF and node-link JSON give back an equal graph."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.errors import ValidationError
from regkit.graph import (
    CrawlReport,
    from_companies,
    from_edgelist,
    node_link_data,
    node_link_graph,
    read_gexf,
    read_graphml,
    read_node_link,
    to_edgelist,
    to_nodelist,
    write_gexf,
    write_graphml,
    write_node_link,
)


@pytest.fixture
def tricky(make_company: Any) -> nx.MultiDiGraph:
    """A small graph with every relation, stubs, id-less persons, empty strings, umlauts and duplicate keys."""
    person, legal, link = make_company.person, make_company.legal, make_company.link
    companies = [
        make_company(
            1,
            acquisitions=[link(2, "2022-10-12", "2022-07-01")],
            address={"city": "Köln"},
            representation=[
                person("p-1", "Jörg Müller", "1960-05-05", "Köln", authority=""),
                person("p-1", "Jörg Müller", "1960-05-05", "Köln", authority="b"),
                person(None, "Anna Schmidt", None, None),
                legal(None, "Acme & Söhne <Ltd.>"),
            ],
        ),
        make_company(2, status="inactive", terminated_at="2022-10-12", merged_into=link(1, "2022-10-12", None)),
        make_company(
            3,
            profit_transfer_agreement=link(1, "2019-03-01"),
            asset_spin_offs=[link(8, "2015-03-01")],
            representation=[
                legal(1, role="SHAREHOLDER", end_date="2020-01-01"),
                legal(7, "Beta GmbH", "PERSONAL_LIABLE_DIRECTOR"),
            ],
        ),
    ]
    return from_companies(companies)


def round_trips(tmp_path: Path) -> dict[str, Callable[[nx.MultiDiGraph], nx.MultiDiGraph]]:
    def graphml(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
        write_graphml(G, tmp_path / "g.graphml")
        return read_graphml(tmp_path / "g.graphml")

    def gexf(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
        write_gexf(G, tmp_path / "g.gexf")
        return read_gexf(tmp_path / "g.gexf")

    def node_link(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
        write_node_link(G, tmp_path / "g.json")
        return read_node_link(tmp_path / "g.json")

    def edgelist(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
        return from_edgelist(to_edgelist(G), nodes=to_nodelist(G))

    return {"graphml": graphml, "gexf": gexf, "node_link": node_link, "edgelist": edgelist}


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "node_link", "edgelist"])
def test_round_trip_of_a_tricky_graph(
    fmt: str, tricky: nx.MultiDiGraph, tmp_path: Path, assert_same_graph: Any
) -> None:
    assert_same_graph(tricky, round_trips(tmp_path)[fmt](tricky))


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "node_link", "edgelist"])
def test_round_trip_of_the_largest_groups(
    fmt: str, world: Any, readme_groups: list, tmp_path: Path, assert_same_graph: Any
) -> None:
    groups = {g["organtraeger"]: g["members"] for g in world.meta["groups"]}
    members = [world.companies[c] for row in readme_groups[:4] for c in groups[row["organtraeger"]]]
    G = from_companies(members)
    assert_same_graph(G, round_trips(tmp_path)[fmt](G))


def test_the_encoding_is_readable_without_regkit(tricky: nx.MultiDiGraph, tmp_path: Path) -> None:
    write_graphml(tricky, tmp_path / "g.graphml")
    plain = nx.read_graphml(tmp_path / "g.graphml", edge_key_type=str, force_multigraph=True)
    merger = plain.edges["DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger"]
    assert merger["valid_from"] == "2022-10-12" and "valid_to" not in merger  # dates ISO, None absent
    assert plain.edges["p-1", "DE-HRB-B1204-1", "representation/DIRECTOR/2010-01-01"]["authority"] == ""
    data = node_link_data(tricky)
    json.dumps(data)
    assert data["multigraph"] and data["directed"] and "edges" in data
    write_gexf(tricky, tmp_path / "g.gexf")
    assert 'label="Jörg Müller"' in (tmp_path / "g.gexf").read_text(encoding="utf-8")


def test_files_and_buffers(tricky: nx.MultiDiGraph, assert_same_graph: Any) -> None:
    for write, read in ((write_graphml, read_graphml), (write_gexf, read_gexf)):
        buffer = io.BytesIO()
        write(tricky, buffer)
        buffer.seek(0)
        assert_same_graph(tricky, read(buffer))
    text = io.StringIO()
    write_node_link(tricky, text)
    text.seek(0)
    assert_same_graph(tricky, read_node_link(text))
    assert_same_graph(tricky, node_link_graph(node_link_data(tricky)))


def test_graph_attributes_and_the_crawl_report(tricky: nx.MultiDiGraph, tmp_path: Path) -> None:
    G = tricky.copy()
    G.graph.update(name="Nordstern", source="regkit", as_of=dt.date(2026, 6, 30), crawl=CrawlReport())
    for fmt in ("graphml", "node_link"):
        H = round_trips(tmp_path)[fmt](G)
        assert "crawl" not in H.graph and H.graph["name"] == "Nordstern" and H.graph["source"] == "regkit"
        assert H.graph["as_of"] == "2026-06-30"  # not a schema attribute: stays the ISO string
    assert round_trips(tmp_path)["gexf"](G).graph == {"name": "Nordstern"}


def test_what_cannot_be_written(tricky: nx.MultiDiGraph, tmp_path: Path) -> None:
    G = tricky.copy()
    G.nodes["p-1"]["aliases"] = ["J. Müller"]
    with pytest.raises(TypeError, match="aliases"):
        write_graphml(G, tmp_path / "g.graphml")
    G = tricky.copy()
    G.nodes["p-1"]["label"] = "x"
    with pytest.raises(ValueError, match="GEXF reserves"):
        write_gexf(G, tmp_path / "g.gexf")


def test_edgelist_columns_and_a_relation_frame_without_keys(tricky: nx.MultiDiGraph) -> None:
    frame = to_edgelist(tricky)
    assert list(frame.columns[:10]) == [
        "source",
        "target",
        "key",
        "relation",
        "role",
        "valid_from",
        "valid_to",
        "registration_date",
        "agreement_date",
        "authority",
    ]
    assert str(frame["valid_from"].dtype) == "datetime64[us]" and str(frame["relation"].dtype) == "str"
    nodes = to_nodelist(tricky)
    assert str(nodes["fetched"].dtype) == "boolean" and str(nodes["date_of_birth"].dtype) == "datetime64[us]"
    # a relation frame from elsewhere: keys are made by the schema's rule
    H = from_edgelist(frame.drop(columns=["key"]))
    assert {(u, v, k): d for u, v, k, d in H.edges(keys=True, data=True)} == {
        (u, v, k): d for u, v, k, d in tricky.edges(keys=True, data=True)
    }
    repeated = frame.drop(columns=["key"]).iloc[[0, 0]]  # one row twice: two edges (every row is one)
    assert from_edgelist(repeated).number_of_edges() == len(repeated) == 2
    with pytest.raises(ValidationError, match="from_edgelist needs the column 'relation'") as raised:
        from_edgelist(frame[["source", "target"]], edge_key=None)
    assert "to_edgelist(G)" in raised.value.suggestion


def test_the_frames_relation_frame_feeds_from_edgelist(world: Any, world_graph: Any) -> None:
    """``regkit.frames.links`` (another module's relation frame) gives the same link edges, once a merger both
    ends list is one row (``drop_duplicates`` as ``regkit.frames.relations`` says: every row is an edge)."""
    frames = pytest.importorskip("regkit.frames")
    if not hasattr(frames, "links"):
        pytest.skip("regkit.frames has no links() yet")
    from regkit.graph.schema import EDGE_ATTRIBUTES

    frame = frames.links(world.companies).drop_duplicates(["source", "target", "relation", "registration_date"])
    H = from_edgelist(frame, edge_key=None, edge_attr=EDGE_ATTRIBUTES)
    expected = {
        (u, v, k): d for u, v, k, d in world_graph.edges(keys=True, data=True) if d["relation"] != "representation"
    }
    assert {(u, v, k): d for u, v, k, d in H.edges(keys=True, data=True)} == expected


# -- every character ------------------------------------------------------------------------------------
def _xml_char(ch: str) -> bool:
    code = ord(ch)
    return ch in "\t\n\r" or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or code >= 0x10000


TRICKY = [
    "\r\n",
    "\r",
    "\n",
    "\t",
    " ",
    "\x85",
    "\u2028",
    "\x7f",
    "\x9f",
    "\U0001f600",
    "\U0010fffd",
    "&",
    "<",
    "]]>",
    '"',
    "'",
    "&#13;",
]
xml_text = st.lists(st.characters().filter(_xml_char) | st.sampled_from(TRICKY), max_size=10).map("".join)
NOT_XML = ["\x00", "\x0b", "\x0c", "\x1b", "\x1f", "\ud800", "\udfff", "\ufffe", "\uffff"]


def text_graph(name: str, person: str, city: str, authority: str, role: str, note: str) -> nx.MultiDiGraph:
    """A graph whose ids, keys, attribute values and graph attribute hold the given strings."""
    company = {
        "id": "DE-HRB-B1204-1",
        "name": {"name": name},
        "address": {"city": city},
        "representation": [
            {
                "id": f"p{person}",
                "name": person,
                "type": "natural_person",
                "role": role,
                "start_date": "2020-01-01",
                "end_date": None,
                "authority": authority,
                "natural_person": {"first_name": person, "last_name": name, "date_of_birth": None, "city": city},
            },
            {
                "id": None,
                "name": name,
                "type": "legal_person",
                "role": "SHAREHOLDER",
                "start_date": None,
                "end_date": None,
                "authority": authority,
                "legal_person": {"name": name, "city": city, "country": "DE"},
            },
            {
                "id": None,
                "name": f"{person} {name}",
                "type": "natural_person",
                "role": "DIRECTOR",
                "start_date": None,
                "end_date": None,
                "authority": authority,
                "natural_person": None,
            },
        ],
    }
    G = from_companies([company])
    G.graph["note"] = note
    return G


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(name=xml_text, person=xml_text, city=xml_text, authority=xml_text, role=xml_text, note=xml_text)
def test_property_every_character_survives(
    name: str, person: str, city: str, authority: str, role: str, note: str, assert_same_graph: Any
) -> None:
    G = text_graph(name, person, city, authority, role, note)
    for fmt in ("graphml", "gexf", "node_link"):
        buffer = io.BytesIO() if fmt != "node_link" else io.StringIO()
        {"graphml": write_graphml, "gexf": write_gexf, "node_link": write_node_link}[fmt](G, buffer)
        buffer.seek(0)
        H = {"graphml": read_graphml, "gexf": read_gexf, "node_link": read_node_link}[fmt](buffer)
        if fmt == "gexf":  # GEXF keeps no graph attributes but the name
            H.graph["note"] = note
        assert_same_graph(G, H)


@settings(max_examples=60, deadline=None)
@given(
    before=xml_text,
    bad=st.sampled_from(NOT_XML),
    after=xml_text,
    where=st.sampled_from(["name", "person", "authority", "note"]),
)
def test_property_what_xml_cannot_hold_is_refused_and_json_keeps_it(
    before: str, bad: str, after: str, where: str, tmp_path_factory: Any, assert_same_graph: Any
) -> None:
    values = dict.fromkeys(("name", "person", "city", "authority", "role", "note"), "x")
    values[where] = before + bad + after
    G = text_graph(**values)
    folder = tmp_path_factory.mktemp("w")
    for write in (write_graphml, write_gexf):
        with pytest.raises(ValidationError, match=f"U\\+{ord(bad):04X}") as error:
            write(G, folder / "g.xml")
        assert isinstance(error.value, ValueError) and "write_node_link" in str(error.value)
        assert not (folder / "g.xml").exists(), "nothing is written"
    write_node_link(G, folder / "g.json")
    assert_same_graph(G, read_node_link(folder / "g.json"))


def test_carriage_returns_in_a_file_graphml_and_gexf(tricky: nx.MultiDiGraph, tmp_path: Path) -> None:
    G = tricky.copy()
    G.nodes["p-1"]["name"] = "Jörg\r\nMüller\r"
    write_graphml(G, tmp_path / "g.graphml.gz")  # compressed by the name, as networkx does
    assert read_graphml(tmp_path / "g.graphml.gz").nodes["p-1"]["name"] == "Jörg\r\nMüller\r"
    write_graphml(G, tmp_path / "g.graphml")
    assert "Jörg&#13;\nMüller&#13;" in (tmp_path / "g.graphml").read_text(encoding="utf-8")
    plain = nx.read_graphml(tmp_path / "g.graphml")  # any XML reader gets the characters back
    assert plain.nodes["p-1"]["name"] == "Jörg\r\nMüller\r"
