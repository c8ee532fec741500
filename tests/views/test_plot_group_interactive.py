"""``regkit.plot.group_interactive``: the ipysigma widget's data carries the drawing's labels, colours and details."""

from __future__ import annotations

import pytest
from group_support import EXPECTED_DEPTH, WALDSTEIN, cid, hand_built, world_graph

import regkit.plot
from regkit.plot.group_labels import short_labels

pytest.importorskip("ipysigma")


def _nodes(widget):  # noqa: ANN001, ANN202
    return {n["key"]: n["attributes"] for n in widget.data["nodes"]}


def test_nodes_carry_unique_labels_colours_and_hover_details() -> None:
    G = world_graph()
    widget = regkit.plot.group_interactive(G, company_id=WALDSTEIN)
    nodes = _nodes(widget)
    assert len(nodes) == 24  # the Waldstein group of data/README.md
    labels = [a["label"] for a in nodes.values()]
    assert len(set(labels)) == len(labels)
    assert nodes[WALDSTEIN]["label"] == "Waldstein Holding GmbH"
    top = nodes[WALDSTEIN]
    assert top["name"] == G.nodes[WALDSTEIN]["name"] and top["city"] == G.nodes[WALDSTEIN]["city"]
    assert top["register_number"] == "HRB 62135 KI" and top["legal_form"] == "GmbH"
    assert top["halo"] > 0 and all(a["halo"] == 0 for n, a in nodes.items() if n != WALDSTEIN)
    assert {a["color"] for a in nodes.values()} == {"#4C72B0"}  # all active companies
    assert widget.visual_variables["nodeLabel"]["attribute"] == "label"
    assert widget.visual_variables["nodeColor"]["attribute"] == "color"


def test_edges_point_down_and_are_coloured_by_relation() -> None:
    G = hand_built()
    widget = regkit.plot.group_interactive(G)
    edges = {(e["source"], e["target"]): e["attributes"] for e in widget.data["edges"]}
    assert (cid(1), cid(2)) in edges and (cid(2), cid(1)) not in edges  # profit transfer drawn parent → child
    assert edges[cid(1), cid(2)]["relation"].startswith("profit-transfer agreement")
    assert edges[cid(2), cid(6)]["relation"].startswith("merger")  # acquirer → absorbed
    assert len({a["color"] for a in edges.values()}) >= 3
    nodes = _nodes(widget)
    ys = {n: widget.layout[n]["y"] for n in nodes}
    for node, depth in EXPECTED_DEPTH.items():  # layout seeded from the layers: deeper is lower
        assert all(ys[node] < ys[other] for other, d in EXPECTED_DEPTH.items() if d < depth)
    assert nodes[cid(6)]["status"] == "inactive" and nodes[cid(6)]["color"] != nodes[cid(1)]["color"]


def test_persons_optional_labels_shared_with_the_drawing_and_deterministic() -> None:
    G = hand_built()
    assert "p-1" not in _nodes(regkit.plot.group_interactive(G))
    assert {"p-1", "p-2"} & set(_nodes(regkit.plot.group_interactive(G, persons=True))) == {"p-1"}  # on 2 companies
    widget = regkit.plot.group_interactive(G, persons=True, all_persons=True)
    nodes = _nodes(widget)
    assert {"p-1", "p-2"} <= set(nodes)
    assert {n: a["label"] for n, a in nodes.items()} == short_labels(G, sorted(G))
    assert widget.layout == regkit.plot.group_interactive(G, persons=True, all_persons=True).layout


def test_selecting_a_node_calls_back() -> None:
    chosen: list[str] = []
    widget = regkit.plot.group_interactive(hand_built(), on_select=chosen.append)
    widget.selected_node = cid(4)
    widget.selected_node = None
    assert chosen == [cid(4)]
