"""``regkit.plot.group``: draws on the Axes it is given, layered by control, deterministic, no show()."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import matplotlib.pyplot as plt
import pytest

import regkit.plot
from regkit.graph import as_of, control_chain, from_companies, layered_layout
from regkit.plot.group import EDGE_STYLES, NODE_STYLES, select_group

G065_TOP = "DE-HRB-R2103-65834"  # Luxlog Holding AG


@pytest.fixture(autouse=True)
def _no_show_and_close(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Library code must never call plt.show(); every figure is closed after the test."""
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("plt.show() was called"))
    yield
    plt.close("all")


def legend_labels(ax: Any) -> set[str]:
    """The legend's entries: the Axes' legend, or the figure's (a group drawing's own figure holds it)."""
    legends = [ax.get_legend()] if ax.get_legend() is not None else ax.figure.legends
    return {t.get_text() for legend in legends for t in legend.get_texts()}


def test_draws_a_group_on_the_given_axes(world_graph: Any) -> None:
    fig, ax = plt.subplots()
    out = regkit.plot.group(world_graph, ax, company_id="DE-HRB-R2103-158659")
    assert out is ax and ax.figure is fig
    assert ax.get_title() == f"Luxlog Holding AG ({G065_TOP}) and its group"
    labels = legend_labels(ax)
    assert {
        "company, active",
        "company, inactive",
        "profit-transfer agreement (Ergebnisabführungsvertrag), parent → company",
        "merger (Verschmelzung): arrow into the acquirer",
        "spin-off (Abspaltung): arrow to the recipient",
        "shareholding, parent → company",
    } <= labels
    assert "person" not in labels
    texts = {t.get_text().replace("\n", " ") for t in ax.texts}
    assert "Luxlog Holding AG" in texts


def test_the_group_is_the_top_and_what_it_controls(world: Any, world_graph: Any) -> None:
    members = next(g["members"] for g in world.meta["groups"] if g["organtraeger"] == G065_TOP)
    nodes = select_group(world_graph, "DE-HRB-R2103-158659")
    assert set(members) <= nodes
    assert all(world_graph.nodes[n]["kind"] == "company" for n in nodes)
    people = select_group(world_graph, G065_TOP, persons=True) - nodes
    assert people and all(world_graph.nodes[n]["kind"] == "natural_person" for n in people)


def test_layers_follow_control(world_graph: Any) -> None:
    nodes = select_group(world_graph, G065_TOP)
    H = world_graph.subgraph(nodes)
    pos = layered_layout(H)
    assert pos[G065_TOP][1] == 0.0 and all(y <= 0 for _, y in pos.values())
    for node in nodes:
        chain = control_chain(world_graph, node)
        for child, parent in zip(chain, chain[1:]):
            assert pos[child][1] < pos[parent][1]
    assert layered_layout(H) == pos  # deterministic
    assert len(set(pos.values())) == len(pos)  # no two nodes on one spot


def test_deterministic_drawings(world_graph: Any) -> None:
    def offsets(**kwargs: Any) -> list:
        ax = regkit.plot.group(world_graph, company_id=G065_TOP, **kwargs)
        return [c.get_offsets().tolist() for c in ax.collections]

    assert offsets() == offsets()
    with pytest.raises(ValueError, match="layout"):
        regkit.plot.group(world_graph, company_id=G065_TOP, layout="circle")


def test_a_date_draws_the_group_as_it_stood(world_graph: Any) -> None:
    ax = regkit.plot.group(world_graph, company_id=G065_TOP, date="2010-01-01", persons=True, legend=True)
    assert ax.get_title().endswith("on 2010-01-01")
    alive = {n for n, d in as_of(world_graph, "2010-01-01").nodes(data=True) if d["kind"] == "company"}
    drawn = {t.get_text().replace("\n", " ") for t in ax.texts}
    assert "company, inactive" not in legend_labels(ax)
    assert "person: director" in legend_labels(ax)
    assert all(
        world_graph.nodes[n]["name"] in drawn
        for n in select_group(world_graph, G065_TOP, "2010-01-01")
        if n in alive and len(world_graph.nodes[n]["name"]) <= 16
    )


def test_any_graph_and_styles(make_company: Any) -> None:
    link = make_company.link
    G = from_companies(
        [
            make_company(
                2,
                status="liquidation",
                asset_spin_offs=[link(3)],
                representation=[make_company.legal(None, "Acme Ltd.")],
            )
        ]
    )
    ax = regkit.plot.group(G, labels=False, legend=True, title="small")
    assert ax.get_title() == "small" and not [t for t in ax.texts if str(t.get_gid()).startswith("label:")]
    assert {
        "company, in liquidation",
        "company, not fetched",
        "legal person",
        "spin-off (Abspaltung): arrow to the recipient",
        "shareholding, parent → company",
        "share not stated in the register's record",
    } == legend_labels(ax)
    assert {label for label, *_ in NODE_STYLES.values()} >= legend_labels(ax) - {s[0] for s in EDGE_STYLES.values()} - {
        "share not stated in the register's record"
    }


def test_the_module_is_callable_too(world_graph: Any) -> None:
    import regkit.plot.group as module

    assert module(world_graph, company_id=G065_TOP).get_title().startswith("Luxlog")
    assert regkit.plot.group(world_graph, company_id=G065_TOP).get_title().startswith("Luxlog")


def test_imports_stay_light() -> None:
    code = (
        "import sys, regkit, regkit.plot, regkit.graph\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib'\n"
        "assert 'regkit.plot.group' not in sys.modules and 'regkit.widgets' not in sys.modules\n"
        "import regkit.graph.build, regkit.graph.control\n"
        "assert 'pandas' not in sys.modules, 'pandas'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_holdings_are_drawn_as_shareholdings_one_line_per_pair() -> None:
    parent = {"id": "DE-HRB-F1103-1", "name": {"name": "Mutter AG"}, "status": "active", "legal_form": "ag"}
    child = {"id": "DE-HRB-F1103-2", "name": {"name": "Tochter GmbH"}, "status": "active", "legal_form": "gmbh"}
    holdings = {
        "company_id": parent["id"],
        "holdings": [
            {
                "company_id": child["id"],
                "name": "Tochter GmbH",
                "relation_type": "shareholder",
                "nominal_share": 25000.0,
                "percentage_share": 0.8,
                "start": "2010-01-01",
                "end": None,
            }
        ],
    }
    G = from_companies([parent, child], holdings=holdings)
    assert [d["relation"] for *_, d in G.edges(data=True)] == ["ownership"]
    fig, ax = plt.subplots()
    regkit.plot.group(G, ax, company_id=parent["id"])
    assert "shareholding, parent → company" in legend_labels(ax)
    assert "officer / other role" not in legend_labels(ax)
