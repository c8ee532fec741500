"""``regkit.plot.group`` draws a group as an outline (issue 46): one row per company under its parent, the share
on every connector (100 % included), mergers and spin-offs as arrows that point as the legend says with their
years, people as columns of role markers — and no text over another or cut off, in a plain ``savefig`` too.

Expected values come from ``data/`` (shareholdings, spin-offs, mergers) or from graphs built here by hand, not from
regkit; the crawled groups are crawled through the local register over the client users use.
"""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import networkx as nx
import pytest
from figure_checks_support import assert_figure_ok, clip_problems, overprint_problems
from group_support import (
    EXPECTED_DEPTH,
    SUEDLICHT,
    WALDSTEIN,
    cid,
    hand_built,
    label_texts,
    wide,
    world_graph,
)

import regkit.graph
import regkit.plot
from regkit.errors import ArgumentError, ValidationError
from regkit.graph import NotInGraphError
from regkit.plot.group import select_group
from regkit.plot.group_labels import register_number
from regkit.plot.source_line import DEFAULT_SOURCE

DATA = Path(__file__).resolve().parents[2] / "data"
LUXLOG = "DE-HRB-R2103-65834"
LUXLOG_MEMBER = "DE-HRB-R2103-158659"  # where notebook 07's group explorer starts


def _jsonl(name: str) -> list[dict[str, Any]]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in _jsonl("companies.jsonl.gz")}


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The Waldstein and Luxlog groups crawled down from their parents (companies, holdings with shares, people)."""
    import regkit
    from regkit import graph
    from regkit.local import open_local_register

    where = tmp_path_factory.mktemp("groups")
    register = open_local_register(state_path=where / "state.sqlite", rate_limit=None, extract_delay=0.0)
    client = regkit.Client(cache=where / "cache.sqlite", adapter=register.adapter)
    try:
        return {
            top: graph.crawl(client, [top], depth=5, direction="down", budget=600, progress=False)
            for top in (WALDSTEIN, LUXLOG)
        }
    finally:
        client.close()
        register.close()


def _by_prefix(ax: Any, prefix: str) -> dict[str, Any]:
    return {t.get_gid()[len(prefix) :]: t for t in ax.texts if (t.get_gid() or "").startswith(prefix)}


def _row_y(ax: Any) -> dict[str, float]:
    return {node: text.get_position()[1] for node, text in label_texts(ax).items()}


def _drawings(crawled: dict[str, Any]) -> dict[str, Any]:
    G = world_graph()
    return {
        "Luxlog": lambda: regkit.plot.group(G, company_id=LUXLOG_MEMBER),
        "Luxlog crawled, people": lambda: regkit.plot.group(crawled[LUXLOG], company_id=LUXLOG, persons=True),
        "Luxlog, all people": lambda: regkit.plot.group(G, company_id=LUXLOG, all_persons=True),
        "Luxlog in 2010": lambda: regkit.plot.group(G, company_id=LUXLOG, date="2010-01-01"),
        "Waldstein crawled": lambda: regkit.plot.group(crawled[WALDSTEIN], company_id=WALDSTEIN),
        "Waldstein, all people": lambda: regkit.plot.group(G, company_id=WALDSTEIN, all_persons=True),
        "two groups": lambda: regkit.plot.group(G.subgraph(select_group(G, WALDSTEIN) | select_group(G, SUEDLICHT))),
        "wide": lambda: regkit.plot.group(wide()),
        "hand built, people": lambda: regkit.plot.group(hand_built(), company_id=cid(4), all_persons=True),
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "Luxlog",
        "Luxlog crawled, people",
        "Luxlog, all people",
        "Luxlog in 2010",
        "Waldstein crawled",
        "Waldstein, all people",
        "two groups",
        "wide",
        "hand built, people",
    ],
)
def test_every_group_drawing_passes_the_editors_checks(crawled: dict[str, Any], name: str) -> None:
    """No text over another (the title and rotated names included), nothing cut off in a plain savefig, 9 pt on
    screen in a 968 px cell, one language, the source line; at most 9.3 in wide; the title names the company."""
    ax = _drawings(crawled)[name]()
    names = [a.get("name") or n for G in (world_graph(), *crawled.values()) for n, a in G.nodes(data=True)]
    assert_figure_ok(ax.figure, source=DEFAULT_SOURCE, names=names)
    assert ax.figure.get_figwidth() <= 9.3 + 1e-6
    if name.startswith(("Luxlog", "Waldstein")):
        assert name.split()[0].strip(",") in ax.get_title()
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png")  # a plain savefig: the source line is in it (clip_problems above)
    assert buffer.getvalue()


def test_the_checks_catch_a_rotated_label_over_the_title_and_a_line_cut_off() -> None:
    """What issue 46 saw in the old drawing: a turned note across the title, a source line below the figure."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.set_title("Luxlog Holding AG and its group")
    ax.text(0.5, 0.8, "spin-off (Abspaltung) 2003", rotation=-70, transform=ax.transAxes, ha="center", va="center")
    fig.text(0.01, -0.05, "regkit local register — synthetic data")
    fig.canvas.draw()
    assert any("is printed over 'Luxlog Holding AG and its group'" in p for p in overprint_problems(fig))
    assert clip_problems(fig) == [
        "'regkit local register — synthetic data' reaches past the figure's edge (cut off by a plain savefig)"
    ]
    label = ax.text(0.5, 0.5, "83 %", clip_on=True)
    label.set_clip_box(ax.bbox)
    label.set_position((0.999, 0.5))
    label.set_transform(ax.transAxes)
    assert any(p == "'83 %' is cut by what clips it" for p in clip_problems(fig))


@pytest.mark.slow
def test_every_shareholding_carries_its_share_100_percent_included(crawled: dict[str, Any]) -> None:
    """Each company Waldstein Holding holds today: its connector from the holding, the share from data/."""
    held = {
        h["company_id"]: h["share"]
        for h in _jsonl("shareholdings.jsonl.gz")
        if h["holder_id"] == WALDSTEIN and not h["end"]
    }
    assert 1.0 in held.values() and len(held) >= 10  # the world's Waldstein holds whole companies
    ax = regkit.plot.group(crawled[WALDSTEIN], company_id=WALDSTEIN)
    shares = _by_prefix(ax, "share:")
    for company, share in held.items():
        said = shares[f"{WALDSTEIN}>{company}"].get_text()
        assert said == (f"{share * 100:.0f} %" if share < 0.995 or share == 1.0 else "> 99 %"), (company, said)


def test_a_share_the_record_does_not_state_is_a_question_mark_the_legend_explains() -> None:
    G = world_graph()
    ax = regkit.plot.group(G, company_id=WALDSTEIN)
    unknown = [t for t in _by_prefix(ax, "share:").values() if t.get_text() == "?"]
    assert unknown  # the record lists shareholders without their shares
    legend = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert "share not stated in the register's record" in legend


def test_a_flat_group_is_one_step_deep(records: dict[str, dict[str, Any]]) -> None:
    """Waldstein Holding's direct subsidiaries (its shareholder entries and profit-transfer agreements in data/)
    are all one step in, each its own row: no comb of columns that reads four levels deep."""
    direct = {
        r["id"]
        for r in records.values()
        if any(
            e.get("id") == WALDSTEIN and e.get("role") == "SHAREHOLDER" and not e.get("end_date")
            for e in r.get("representation") or ()
        )
        or any(a.get("company_id") == WALDSTEIN for a in r.get("profit_transfer_agreements") or ())
    }
    assert len(direct) >= 20
    ax = regkit.plot.group(world_graph(), company_id=WALDSTEIN)
    labels = label_texts(ax)
    x = {node: t.get_position()[0] for node, t in labels.items()}
    y = _row_y(ax)
    assert len({round(x[n], 6) for n in direct}) == 1 and min(x[n] for n in direct) > x[WALDSTEIN]
    assert len({round(v, 6) for v in y.values()}) == len(y)  # one row each
    assert y[WALDSTEIN] == max(y.values())  # the top company first


def test_depth_follows_control() -> None:
    ax = regkit.plot.group(hand_built())
    x = {node: t.get_position()[0] for node, t in label_texts(ax).items()}
    steps = sorted({round(v, 6) for v in x.values()})
    depth = {node: steps.index(round(v, 6)) for node, v in x.items()}
    expected = {**EXPECTED_DEPTH, cid(6): 0, cid(7): 0}  # a merger and a spin-off are no control: their own rows
    assert depth == expected


def _arrow_end_rows(ax: Any, relation: str) -> dict[str, tuple[float, float]]:
    """Event gid → (y where the line starts, y where its arrow head points)."""
    from matplotlib.patches import FancyArrowPatch

    starts = {
        line.get_gid(): line.get_ydata()[0]
        for line in ax.get_lines()
        if str(line.get_gid()).startswith(f"event:{relation}:")
    }
    heads = {p.get_gid()[: -len(":head")]: p for p in ax.patches if isinstance(p, FancyArrowPatch)}
    out = {}
    for gid, start in starts.items():
        (x0, y0), (x1, y1) = heads[gid]._posA_posB
        assert x1 < x0  # the head at the row's end, pointing at the company's name
        out[gid] = (float(start), float(y1))
    return out


def test_mergers_point_into_the_acquirer_and_spin_offs_to_the_recipient_with_their_years(
    records: dict[str, dict[str, Any]],
) -> None:
    G = world_graph()
    ax = regkit.plot.group(G, company_id=LUXLOG)
    y = _row_y(ax)
    legend = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert "merger (Verschmelzung): arrow into the acquirer" in legend
    assert "spin-off (Abspaltung): arrow to the recipient" in legend
    notes = {node: " ".join(t.get_text() for t in ax.texts if t.get_gid() == f"note:{node}") for node in y}
    mergers = [
        (r["id"], m["company_id"], m.get("registration_date"))
        for r in records.values()
        for m in ([r["merged_into"]] if isinstance(r.get("merged_into"), dict) else r.get("merged_into") or ())
        if r["id"] in y and m.get("company_id") in y
    ]
    spins = [
        (r["id"], s["company_id"], s.get("registration_date"))
        for r in records.values()
        for s in r.get("asset_spin_offs") or ()
        if r["id"] in y and s["company_id"] in y
    ]
    assert mergers and spins  # Luxlog's group has both (issue 46)
    merged = _arrow_end_rows(ax, "merger")
    for absorbed, acquirer, registered in mergers:
        start, head = merged[f"event:merger:{absorbed}>{acquirer}"]
        assert start == y[absorbed] and head == y[acquirer]
        assert f"merged into {G.nodes[acquirer]['name']} ({registered[:4]})" in notes[absorbed]
    spun = _arrow_end_rows(ax, "spin_off")
    for source, recipient, registered in spins:
        start, head = spun[f"event:spin_off:{source}>{recipient}"]
        assert start == y[source] and head == y[recipient]
        assert f"spin-off from {G.nodes[source]['name']} ({registered[:4]})" in notes[recipient]


def test_people_are_columns_with_a_marker_per_role_and_all_persons_alone_draws_them() -> None:
    G = hand_built()  # Eva Roth directs Top and Alpha; Jan Roth directs Gamma only
    with_two = regkit.plot.group(G, persons=True)
    assert set(_by_prefix(with_two, "person:")) == {"p-1"} and not _by_prefix(with_two, "people:")
    roles = {line.get_gid() for line in with_two.collections if str(line.get_gid()).startswith("role:")}
    assert roles == {f"role:p-1>{cid(1)}:DIRECTOR", f"role:p-1>{cid(2)}:DIRECTOR"}
    everyone = regkit.plot.group(G, all_persons=True)  # without persons=True: people drawn all the same
    assert set(_by_prefix(everyone, "person:")) == {"p-1"}
    assert [t.get_text() for t in _by_prefix(everyone, "people:").values()] == ["people: Jan Roth (director)"]
    assert _row_y(everyone)[cid(4)] == pytest.approx(
        _by_prefix(everyone, "people:")[cid(4)].get_position()[1] + 9 * 1.3 / 72
    )  # listed under Gamma's name


@pytest.fixture(params=["waldstein", "two groups", "wide"])
def drawing(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    G = {
        "waldstein": lambda: world_graph(),
        "two groups": lambda: world_graph().subgraph(
            select_group(world_graph(), WALDSTEIN) | select_group(world_graph(), SUEDLICHT)
        ),
        "wide": wide,
    }[request.param]()
    ax = regkit.plot.group(G, company_id=WALDSTEIN) if request.param == "waldstein" else regkit.plot.group(G)
    return G, ax


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


def test_the_removed_spring_layout_draws_the_outline_with_a_warning_and_others_are_refused() -> None:
    """Calls that passed layout="spring" and seed= still work (the public signature keeps them)."""
    with pytest.warns(FutureWarning, match="group_interactive"):
        ax = regkit.plot.group(hand_built(), layout="spring", seed=3)
    assert set(label_texts(ax)) == set(label_texts(regkit.plot.group(hand_built())))
    with pytest.raises(ValidationError, match="layout must be 'layered'"):
        regkit.plot.group(hand_built(), layout="circle")


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


def test_the_drawing_does_not_depend_on_the_order_the_graph_holds_its_nodes_in() -> None:
    """A crawl adds nodes in the order answers arrive: the same group must give the same drawing (the stored
    notebooks compare it byte for byte)."""
    from regkit.plot.style import figure_svg

    G = wide()  # siblings at equal distances from different parents: ties in the drawing order
    backwards = nx.MultiDiGraph()
    backwards.add_nodes_from(reversed(list(G.nodes(data=True))))
    backwards.add_edges_from(reversed(list(G.edges(keys=True, data=True))))
    backwards.graph.update(G.graph)
    one = figure_svg(regkit.plot.group(G).figure)
    other = figure_svg(regkit.plot.group(backwards).figure)
    assert one == other


@pytest.mark.parametrize("node_size", [60.0, 150.0, 600.0])
def test_node_size_scales_every_square_by_area(node_size: float) -> None:
    """``node_size / 150`` times the default square's area (7 pt a side: 49 pt²), as the docstring says."""
    ax = regkit.plot.group(hand_built(), node_size=node_size)
    squares = [c for c in ax.collections if str(c.get_gid()).startswith("nodes:")]
    assert squares
    for collection in squares:
        assert collection.get_sizes().tolist() == pytest.approx([49.0 * node_size / 150] * len(collection.get_sizes()))


def test_a_chain_deeper_than_pythons_recursion_limit_is_planned() -> None:
    """benchmarks/bench_group_outline.py found a RecursionError on a chain of 1,000 subsidiaries, each under the one
    before: the outline walks its tree with a stack now, every company a step deeper than its parent."""
    import sys

    import networkx as nx

    from regkit.plot.group_outline import plan_outline

    deep = sys.getrecursionlimit() + 500
    H = nx.MultiDiGraph()
    for i in range(deep):
        H.add_node(i, kind="company", name=f"Ebene {i} GmbH")
        if i:
            H.add_edge(i - 1, i, relation="ownership", share=0.51, relation_type="shareholder")
    plan = plan_outline(H, {i: f"Ebene {i} GmbH" for i in range(deep)}, top=0)
    assert plan.rows == list(range(deep))
    assert [plan.depth[i] for i in range(deep)] == list(range(deep))
