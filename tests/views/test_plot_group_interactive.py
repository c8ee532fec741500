"""``regkit.plot.group_interactive``: the ipysigma widget's data carries the drawing's labels, colours and details."""

from __future__ import annotations

import base64
import re

import pytest
from group_support import WALDSTEIN, cid, hand_built, world_graph

import regkit.plot
from regkit.plot.group_labels import short_labels

pytest.importorskip("ipysigma")


def _nodes(widget):
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
    assert widget.sigma.visual_variables["nodeLabel"]["attribute"] == "label"
    assert widget.sigma.visual_variables["nodeColor"]["attribute"] == "color"


def test_edges_carry_the_share_and_events_follow_the_name_as_in_the_drawing() -> None:
    """Issue 46: the view showed no share and dropped the spin-off. Every connector carries its share (100 %
    included); a merger, a spin-off and a minority holding are said after the affected company's name, with the
    year; the outline puts each company one step right of its parent and below it, so no edge crosses a label."""
    G = hand_built()
    widget = regkit.plot.group_interactive(G)
    edges = {(e["source"], e["target"]): e["attributes"] for e in widget.data["edges"]}
    assert (cid(1), cid(2)) in edges and (cid(2), cid(1)) not in edges  # profit transfer drawn parent → child
    assert edges[cid(1), cid(2)]["relation"].startswith("profit-transfer agreement")
    assert edges[cid(1), cid(2)]["share"] == "100 %" and edges[cid(1), cid(3)]["share"] == "100 %"
    assert edges[cid(4), cid(5)]["share"] == "100 %"
    assert not any("label" in a for a in edges.values())  # sigma would write a fan of labels one over the next
    nodes = _nodes(widget)
    # the share before the name, as a list of subsidiaries writes it; events after it
    assert nodes[cid(2)]["label"].startswith("100 % · ") and nodes[cid(3)]["label"].startswith("100 % · ")
    assert nodes[cid(6)]["label"] == "Epsilon GmbH — merged into Alpha GmbH (2001)"
    assert nodes[cid(7)]["label"] == "Zeta GmbH — spin-off from Beta GmbH (2001)"
    assert nodes[cid(5)]["label"] == "100 % · Delta GmbH — also 10 % held by Top Holding AG"
    assert nodes[cid(7)]["events"] == "spin-off from Beta GmbH (2001)"
    assert nodes[cid(5)]["held"] == f"100 % by {nodes[cid(4)]['name']}"
    for (parent, child), _ in edges.items():  # one step right, further down: sigma's y grows upwards
        assert nodes[child]["x"] > nodes[parent]["x"] and nodes[child]["y"] < nodes[parent]["y"]
    assert nodes[cid(6)]["status"] == "inactive" and nodes[cid(6)]["color"] != nodes[cid(1)]["color"]


def test_persons_optional_labels_shared_with_the_drawing_and_deterministic() -> None:
    G = hand_built()
    assert "p-1" not in _nodes(regkit.plot.group_interactive(G))
    assert {"p-1", "p-2"} & set(_nodes(regkit.plot.group_interactive(G, persons=True))) == {"p-1"}  # on 2 companies
    widget = regkit.plot.group_interactive(G, persons=True, all_persons=True)
    nodes = _nodes(widget)
    assert {"p-1", "p-2"} <= set(nodes)
    names = {n: re.sub(r"^(\?|> 99 %|[\d.]+ %) · ", "", a["label"]).split(" — ")[0] for n, a in nodes.items()}
    assert names == short_labels(G, sorted(G))
    roles = {(e["source"], e["target"]): e["attributes"]["label"] for e in widget.data["edges"] if e["source"] == "p-1"}
    assert roles == {("p-1", cid(1)): "director", ("p-1", cid(2)): "director"}
    assert widget.data == regkit.plot.group_interactive(G, persons=True, all_persons=True).data


def test_selecting_a_node_calls_back() -> None:
    chosen: list[str] = []
    widget = regkit.plot.group_interactive(hand_built(), on_select=chosen.append)
    widget.selected_node = cid(4)
    widget.selected_node = None
    assert chosen == [cid(4)]


def test_every_company_has_one_size_and_the_legend_says_what_colours_and_sizes_mean() -> None:
    G = hand_built()
    widget = regkit.plot.group_interactive(G, company_id=cid(1), persons=True, all_persons=True)
    nodes = _nodes(widget)
    (company,) = {a["size"] for n, a in nodes.items() if G.nodes[n]["kind"] == "company"}  # one size
    people = {a["size"] for n, a in nodes.items() if G.nodes[n]["kind"] == "natural_person"}
    assert people and all(size < company for size in people)  # a person is drawn smaller
    legend = re.sub(r"<[^>]+>", " ", widget.legend.value)
    for words in ("company, active", "company, inactive", "person", "the company asked about", "same size"):
        assert words in legend, legend
    for relation in ("profit-transfer agreement", "merger (Verschmelzung)", "spin-off (Abspaltung)", "shareholding"):
        assert relation in legend, legend


def test_ipywidgets_layout_stays_a_layout() -> None:
    """ipywidgets 8 hands ``layout`` to its layout view: positions there logged "Cannot read properties of
    undefined (reading 'then')" in the browser (tests/notebooks/test_group_interactive_browser.py)."""
    import ipywidgets

    widget = regkit.plot.group_interactive(hand_built())
    assert isinstance(widget.sigma.layout, ipywidgets.Layout) and isinstance(widget.layout, ipywidgets.Layout)
    assert all({"x", "y"} <= set(a) for a in _nodes(widget).values())  # positions travel with the nodes


def test_where_widgets_cannot_run_the_static_drawing_is_shown() -> None:
    widget = regkit.plot.group_interactive(world_graph(), company_id=WALDSTEIN)
    bundle = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    html = bundle["text/html"]
    match = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert match is not None and "run the notebook" in html
    svg = base64.b64decode(match[1]).decode("utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
    assert bundle["text/html"] == widget._repr_mimebundle_()["text/html"]  # deterministic
