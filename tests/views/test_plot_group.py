"""``regkit.plot.group``: layered by depth of control, at most 12 inches wide, legend inside, unique short labels
that do not overlap, the seed highlighted, people optional and apart."""

from __future__ import annotations

import re
from typing import Any

import matplotlib.pyplot as plt
import networkx as nx
import pytest
from group_support import (
    EXPECTED_DEPTH,
    SUEDLICHT,
    WALDSTEIN,
    cid,
    hand_built,
    label_texts,
    overlapping,
    wide,
    world_graph,
)

import regkit.graph
import regkit.plot
from regkit.errors import ArgumentError
from regkit.graph import NotInGraphError
from regkit.plot.group import select_group
from regkit.plot.group_labels import register_number


def _two_largest() -> Any:
    """The bundled world's two largest groups in one graph: 47 companies, two tops."""
    G = world_graph()
    return G.subgraph(select_group(G, WALDSTEIN) | select_group(G, SUEDLICHT))


def _drawn(ax: Any) -> Any:
    ax.figure.canvas.draw()
    return ax.figure.canvas.get_renderer()


@pytest.fixture(params=["waldstein", "two groups", "wide"])
def drawing(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """(graph, Axes) of the largest world group, the two largest together and a synthetic 46-company group."""
    G = {"waldstein": lambda: world_graph(), "two groups": _two_largest, "wide": wide}[request.param]()
    ax = regkit.plot.group(G, company_id=WALDSTEIN) if request.param == "waldstein" else regkit.plot.group(G)
    return G, ax


def test_the_figure_is_at_most_12_inches_wide(drawing: tuple[Any, Any]) -> None:
    _, ax = drawing
    assert ax.figure.get_figwidth() <= 12.0


def test_a_small_group_is_not_stretched() -> None:
    ax = regkit.plot.group(hand_built())
    width, height = ax.figure.get_size_inches()
    assert width <= 8 and height <= 6


def test_the_legend_is_inside_the_figure_and_clear_of_the_labels(drawing: tuple[Any, Any]) -> None:
    _, ax = drawing
    renderer = _drawn(ax)
    legend = ax.get_legend().get_window_extent(renderer)
    figure = ax.figure.bbox
    assert figure.x0 <= legend.x0 and legend.x1 <= figure.x1 and figure.y0 <= legend.y0 and legend.y1 <= figure.y1
    labels = [t.get_window_extent(renderer) for t in label_texts(ax).values()]
    assert [pair for pair in overlapping([legend, *labels]) if 0 in pair] == []


def test_labels_do_not_overlap_and_stay_in_the_figure(drawing: tuple[Any, Any]) -> None:
    G, ax = drawing
    renderer = _drawn(ax)
    texts = label_texts(ax)
    assert len(texts) == len({n for n in G if G.nodes[n]["kind"] != "natural_person"} & set(texts)) > 20
    boxes = [t.get_window_extent(renderer) for t in texts.values()]
    assert overlapping(boxes) == []
    figure = ax.figure.bbox
    assert all(figure.x0 <= b.x0 and b.x1 <= figure.x1 and figure.y0 <= b.y0 for b in boxes)


def test_labels_are_unique_and_repeated_names_carry_the_register_number(drawing: tuple[Any, Any]) -> None:
    G, ax = drawing
    texts = {node: " ".join(t.get_text().split()) for node, t in label_texts(ax).items()}
    assert len(set(texts.values())) == len(texts)
    names = [G.nodes[n]["name"] for n in texts]
    repeated = {n for n in texts if names.count(G.nodes[n]["name"]) > 1}
    assert repeated  # every fixture has names that repeat
    for node in repeated:  # e.g. "Waldstein Projekte GmbH (HRB 48171 KI)"
        entry = node.split("-", 3)  # DE, HRB, court, number + suffix: from the id, not from regkit
        number = re.fullmatch(r"(\d+)([A-Z]*)", entry[3])
        assert number is not None
        expected = f"({entry[1]} {number[1]}{' ' + number[2] if number[2] else ''})"
        assert texts[node].endswith(expected), texts[node]


def test_names_break_at_word_boundaries_only() -> None:
    G = wide()
    ax = regkit.plot.group(G)
    words = {w for n in G for w in G.nodes[n]["name"].split()}
    for node, text in label_texts(ax).items():
        for line in text.get_text().split("\n"):
            for token in line.split():
                assert token.strip("()…") in words or re.fullmatch(r"\(?HRB|\d+\)?|…", token), (node, line)
    assert any("Gesundheitszentrum" in t.get_text().split() for t in label_texts(ax).values())


def test_long_names_are_cut_at_a_word_with_an_ellipsis() -> None:
    ax = regkit.plot.group(wide())
    long = [t.get_text() for t in label_texts(ax).values() if "Verwaltungs-" in t.get_text()]
    assert long and all("…" in text and "mbH" not in text for text in long)


def test_layers_follow_the_depth_of_control() -> None:
    ax = regkit.plot.group(hand_built())
    ys = {node: text.get_position()[1] for node, text in label_texts(ax).items()}
    by_depth: dict[int, set[float]] = {}
    for node, depth in EXPECTED_DEPTH.items():
        by_depth.setdefault(depth, set()).add(ys[node])
    assert all(len(levels) == 1 for levels in by_depth.values())  # one row per depth in a small group
    levels = [by_depth[d].pop() for d in sorted(by_depth)]
    assert levels == sorted(levels, reverse=True)  # depth 0 on top, each depth below the one before


def test_wrapped_layers_never_mix_depths() -> None:
    G = wide()
    ax = regkit.plot.group(G)
    ys = {node: text.get_position()[1] for node, text in label_texts(ax).items()}
    children = [cid(n) for n in range(2, 42)]
    grandchildren = [cid(n) for n in (*range(500, 503), *range(900, 903))]
    assert len({ys[n] for n in children}) > 1  # 40 companies do not fit one row of 12 inches
    assert max(ys[n] for n in children) < ys[cid(1)]
    assert max(ys[n] for n in grandchildren) < min(ys[n] for n in children)


def test_the_seed_is_highlighted() -> None:
    G = world_graph()
    seed = "DE-HRB-X1517-134789KI"  # Waldstein Management GmbH, a member of the group
    ax = regkit.plot.group(G, company_id=seed)
    halo = [c for c in ax.collections if c.get_gid() == "seed"]
    assert len(halo) == 1
    ((x, y),) = halo[0].get_offsets().tolist()
    label_x, label_y = label_texts(ax)[seed].get_position()
    assert x == label_x and 0 < y - label_y < 0.3  # the halo sits on the seed's marker, just above its label
    assert label_texts(ax)[seed].get_fontweight() == "bold"
    assert all(t.get_fontweight() != "bold" for n, t in label_texts(ax).items() if n != seed)
    assert "the company asked about" in {t.get_text() for t in ax.get_legend().get_texts()}


def test_one_connector_per_company_pointing_down() -> None:
    G = hand_built()
    ax = regkit.plot.group(G)
    arrows = [p for p in ax.patches if p.__class__.__name__ == "FancyArrowPatch"]
    below_top = [n for n in EXPECTED_DEPTH if EXPECTED_DEPTH[n] > 0]
    assert len(arrows) == len(below_top)  # Top → Delta (10 %) is a thin line, not a second connector
    for arrow in arrows:
        (x0, y0), (x1, y1) = arrow._posA_posB  # the arrow's two ends
        assert y1 < y0 or (y1 == y0 and x1 > x0)  # down, or across from a spine into the node


def test_persons_are_optional_and_drawn_apart() -> None:
    G = hand_built()
    without = label_texts(regkit.plot.group(G))
    assert "p-1" not in without and "p-2" not in without
    linked = label_texts(regkit.plot.group(G, persons=True))
    assert "p-1" in linked and "p-2" not in linked  # Eva Roth serves two companies, Jan Roth one
    ax = regkit.plot.group(G, persons=True, all_persons=True)
    texts = label_texts(ax)
    people = [texts["p-1"].get_position()[1], texts["p-2"].get_position()[1]]
    companies = [texts[n].get_position()[1] for n in EXPECTED_DEPTH]
    assert max(people) < min(companies)
    assert "person" in {t.get_text() for t in ax.get_legend().get_texts()}
    assert any(t.get_gid() == "people-caption" for t in ax.texts)
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert "role of a person" in legend


def test_persons_of_a_world_group_do_not_overlap() -> None:
    ax = regkit.plot.group(
        world_graph(), company_id="DE-HRB-R2103-65834", date="2010-01-01", persons=True, all_persons=True
    )
    renderer = _drawn(ax)
    boxes = [t.get_window_extent(renderer) for t in label_texts(ax).values()]
    assert len(boxes) > 10 and overlapping(boxes) == []
    assert ax.figure.get_figwidth() <= 12.0


def test_the_caller_keeps_its_axes_and_size() -> None:
    fig, ax = plt.subplots(figsize=(9, 5))
    out = regkit.plot.group(hand_built(), ax, company_id=cid(4), title="given")
    assert out is ax and tuple(fig.get_size_inches()) == (9, 5) and ax.get_title() == "given"


def test_register_number() -> None:
    assert register_number("DE-HRB-F1103-270764B") == "HRB 270764 B"
    assert register_number("DE-GnR-M1103-12") == "GnR 12"
    assert register_number("p-1") is None


def test_a_company_not_in_the_graph_is_a_clear_error_before_drawing() -> None:
    G = nx.MultiDiGraph()
    G.add_node("DE-HRB-R2103-65834", kind="company", name="Beispiel GmbH")
    before = set(plt.get_fignums())
    message = (
        r"company_id 'DE-HRB-R2103-1' is not in the graph — pass one of its 1 companies, e\.g\. "
        r"'DE-HRB-R2103-65834', or crawl it first"
    )
    with pytest.raises(NotInGraphError, match=message) as raised:  # as regkit.graph.subsidiaries says it
        regkit.plot.group(G, company_id="DE-HRB-R2103-1")
    assert raised.value.node == "DE-HRB-R2103-1"
    with pytest.raises(NotInGraphError, match=message):
        regkit.plot.group(G, "DE-HRB-R2103-1")  # the id in second place is the company id too
    with pytest.raises(NotInGraphError, match=message):
        regkit.plot.group_interactive(G, company_id="DE-HRB-R2103-1")
    with pytest.raises(NotInGraphError, match=message):
        regkit.plot.group_interactive(G, "DE-HRB-R2103-1")
    with pytest.raises(NotInGraphError) as from_graph:
        regkit.graph.subsidiaries(G, "DE-HRB-R2103-1")
    assert str(from_graph.value) == str(raised.value)
    assert set(plt.get_fignums()) == before  # nothing was drawn


def test_the_company_id_may_be_given_in_second_place() -> None:
    G = world_graph()
    by_name = regkit.plot.group(G, company_id=WALDSTEIN)
    by_place = regkit.plot.group(G, WALDSTEIN)
    assert by_place.get_title() == by_name.get_title() and "and its group" in by_place.get_title()
    assert sorted(t.get_gid() for t in by_place.texts if t.get_gid()) == sorted(
        t.get_gid() for t in by_name.texts if t.get_gid()
    )
    with pytest.raises(ArgumentError, match="two companies"):
        regkit.plot.group(G, WALDSTEIN, company_id=SUEDLICHT)
