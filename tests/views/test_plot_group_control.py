"""``regkit.plot.group`` shows control (issue 25): shares on the connectors, weight by share, the spin-off drawn
and labelled, people linked to two or more companies with their roles, stable columns, and a figure that fits a
JupyterLab cell with every text at least 9 points on screen.

The group is the Waldstein group crawled down from its parent through the local register (holdings carry the
shares); expected shares and the spin-off are read from ``data/`` directly, not from regkit.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from group_support import WALDSTEIN, label_texts, overlapping, wide

import regkit.plot

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[2] / "data"
CELL_PX = 968  # a JupyterLab notebook cell's output width (issue 25)


def _jsonl(name: str) -> list[dict[str, Any]]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def shares() -> dict[str, float]:
    """Company → the share Waldstein Holding holds today, from ``data/shareholdings.jsonl.gz``."""
    return {
        h["company_id"]: h["share"]
        for h in _jsonl("shareholdings.jsonl.gz")
        if h["holder_id"] == WALDSTEIN and not h["end"]
    }


@pytest.fixture(scope="module")
def spin_offs() -> list[tuple[str, str, int]]:
    """(transferor, recipient, year of registration) of every spin-off involving Waldstein Holding."""
    found = []
    for record in _jsonl("companies.jsonl.gz"):
        for spin in record.get("asset_spin_offs") or ():
            if WALDSTEIN in (record["id"], spin["company_id"]):
                found.append((record["id"], spin["company_id"], int(spin["registration_date"][:4])))
    return found


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The Waldstein group crawled down from its parent (companies, holdings with shares, people)."""
    import regkit
    from regkit import graph
    from regkit.local import open_local_register

    where = tmp_path_factory.mktemp("waldstein")
    register = open_local_register(state_path=where / "state.sqlite", rate_limit=None, extract_delay=0.0)
    client = regkit.Client(cache=where / "cache.sqlite", adapter=register.adapter)
    try:
        return graph.crawl(client, [WALDSTEIN], depth=5, direction="down", budget=600, progress=False)
    finally:
        client.close()
        register.close()


def _texts(ax: Any, prefix: str) -> dict[str, Any]:
    return {t.get_gid()[len(prefix) :]: t for t in ax.texts if (t.get_gid() or "").startswith(prefix)}


def _arrows(ax: Any) -> dict[str, Any]:
    """Child → the arrow of its connector (the arrow ends at the child's marker)."""
    labels = {n: t.get_position() for n, t in label_texts(ax).items()}
    out = {}
    for arrow in (p for p in ax.patches if p.__class__.__name__ == "FancyArrowPatch"):
        (_, _), (x1, y1) = arrow._posA_posB  # the arrow's two ends
        child = min(labels, key=lambda n: abs(labels[n][0] - x1) + abs(labels[n][1] - y1))
        out[child] = arrow
    return out


def test_every_share_below_100_percent_is_printed_on_its_connector(crawled: Any, shares: dict[str, float]) -> None:
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN)
    partial = {c: s for c, s in shares.items() if s < 1}
    assert sorted(round(s * 100) for s in partial.values()) == [80, 88, 94]  # the three holdings
    printed = _texts(ax, "share:")
    assert {key.split(">")[1]: t.get_text() for key, t in printed.items() if "%" in t.get_text()} == {
        c: f"{round(s * 100)} %" for c, s in partial.items()
    }
    arrows = _arrows(ax)
    for key, text in printed.items():  # the number sits beside the last stretch of the child's connector
        child = key.split(">")[1]
        (x0, y0), (x1, y1) = arrows[child]._posA_posB
        x, y = text.get_position()
        assert min(x0, x1) - 0.01 <= x <= max(x0, x1) + 0.1 and min(y0, y1) - 0.01 <= y <= max(y0, y1) + 0.05
        assert text.get_fontsize() >= 9


def test_line_weight_follows_the_share_and_the_legend_says_so(crawled: Any, shares: dict[str, float]) -> None:
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN)
    arrows = _arrows(ax)
    held = sorted((s, arrows[c].get_linewidth()) for c, s in shares.items() if c in arrows)
    widths = [w for _, w in held]
    assert widths == sorted(widths) and widths[0] < widths[-1]  # lighter for a smaller share
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("weight" in text and "share" in text for text in legend), legend


def test_the_spin_off_from_the_holding_is_drawn_and_labelled(
    crawled: Any, spin_offs: list[tuple[str, str, int]]
) -> None:
    assert spin_offs, "the world has a spin-off from Waldstein Holding (issue 25)"
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN)
    lines = {line.get_gid(): line for line in ax.lines if line.get_gid()}
    notes = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith(("share:", "note:"))]
    for source, target, year in spin_offs:
        line = lines[f"spin_off:{source}>{target}"]
        assert line.get_linestyle() == "-."  # dash-dot, unlike every connector
        assert any("spin-off" in note and str(year) in note for note in notes), notes
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(text.startswith("spin-off") for text in legend), legend


def _people_of(G: Any, companies: set[str]) -> dict[str, set[str]]:
    linked: dict[str, set[str]] = {}
    for u, v in G.edges():
        for person, company in ((u, v), (v, u)):
            if G.nodes[person].get("kind") == "natural_person" and company in companies:
                linked.setdefault(person, set()).add(company)
    return linked


def test_by_default_only_people_on_two_or_more_companies_with_their_roles(crawled: Any) -> None:
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN, persons=True)
    drawn = label_texts(ax)
    companies = {n for n in drawn if crawled.nodes[n]["kind"] == "company"}
    linked = _people_of(crawled, companies)
    expected = {p for p, found in linked.items() if len(found) >= 2}
    assert 0 < len(expected) < len(linked)
    assert {n for n in drawn if crawled.nodes[n]["kind"] == "natural_person"} == expected
    roles = _texts(ax, "role:")
    on_lines = {tuple(key.split(">")) for key in roles}
    assert on_lines <= {(p, c) for p in expected for c in linked[p]} and len(on_lines) > len(expected)
    for person in expected:  # a line whose role found no free spot is counted under the person's name
        said = [line for line in drawn[person].get_text().split("\n") if " ×" in line]
        counted = sum(int(line.rsplit("×", 1)[1]) for line in said)
        assert counted + sum(1 for p, _ in on_lines if p == person) == len(linked[person]), person
    for text in roles.values():  # English, one language
        assert text.get_text().split(",")[0].split(" ")[0] in {"director", "signatory", "shareholder", "general"}
        assert "Geschäftsführer" not in text.get_text() and text.get_fontsize() >= 9
    everyone = label_texts(regkit.plot.group(crawled, company_id=WALDSTEIN, persons=True, all_persons=True))
    assert {n for n in everyone if crawled.nodes[n]["kind"] == "natural_person"} == set(linked)


def _columns(ax: Any, G: Any) -> dict[str, tuple[int, float]]:
    """Company → (layer: steps of holdings from the top, x of its column)."""
    import networkx as nx

    held = nx.DiGraph([(u, v) for u, v, r in G.edges(data="relation") if r == "ownership"])
    depth = nx.single_source_shortest_path_length(held, WALDSTEIN)
    pos = {n: t.get_position() for n, t in label_texts(ax).items() if G.nodes[n]["kind"] == "company"}
    return {n: (depth[n], round(pos[n][0], 3)) for n in pos}


def _disagree(a: dict[str, tuple[int, float]], b: dict[str, tuple[int, float]]) -> list[tuple[str, str]]:
    """Pairs of companies of one layer, drawn in two different columns in both drawings, left-right swapped."""
    common = sorted(set(a) & set(b))
    return [
        (m, n)
        for i, m in enumerate(common)
        for n in common[i + 1 :]
        if a[m][0] == a[n][0]
        and a[m][1] != a[n][1]
        and b[m][1] != b[n][1]
        and (a[m][1] < a[n][1]) != (b[m][1] < b[n][1])
    ]


def test_company_columns_keep_their_order_with_people_and_across_dates(crawled: Any) -> None:
    plain = _columns(regkit.plot.group(crawled, company_id=WALDSTEIN), crawled)
    for persons in ({"persons": True}, {"persons": True, "all_persons": True}):
        assert _columns(regkit.plot.group(crawled, company_id=WALDSTEIN, **persons), crawled).keys() == plain.keys()
        assert _disagree(plain, _columns(regkit.plot.group(crawled, company_id=WALDSTEIN, **persons), crawled)) == []
    for day in ("2012-01-01", "2016-01-01", "2020-01-01"):
        dated = _columns(regkit.plot.group(crawled, company_id=WALDSTEIN, date=day), crawled)
        assert 5 < len(dated) < len(plain)  # fewer companies then
        assert _disagree(plain, dated) == [], day  # the same left-to-right order, the later ones left out
        with_people = _columns(regkit.plot.group(crawled, company_id=WALDSTEIN, date=day, persons=True), crawled)
        assert with_people == dated


def _on_screen(ax: Any) -> tuple[int, list[tuple[str, float]]]:
    """The PNG's width as Jupyter shows it (100 dpi, tight) and each text's size on screen (points)."""
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    width = plt.imread(io.BytesIO(buffer.getvalue())).shape[1]
    scale = min(width, CELL_PX) / width  # the browser shrinks a wider image to the cell
    texts = [*ax.texts, ax.title, *ax.get_legend().get_texts()]
    return width, [(t.get_text(), t.get_fontsize() * scale) for t in texts if t.get_text()]


@pytest.mark.parametrize("persons", [False, True])
@pytest.mark.parametrize("which", ["waldstein", "wide"])
def test_the_figure_fits_a_cell_and_every_text_is_at_least_9_points_on_screen(
    crawled: Any, which: str, persons: bool
) -> None:
    G = crawled if which == "waldstein" else wide()
    ax = regkit.plot.group(G, company_id=WALDSTEIN if which == "waldstein" else None, persons=persons)
    width, sizes = _on_screen(ax)
    assert width <= CELL_PX  # PNG, as an untrusted notebook shows it
    assert ax.figure.get_figwidth() * 96 <= CELL_PX  # SVG: 72 pt an inch, 96 CSS pixels an inch
    small = [(text, size) for text, size in sizes if size < 9]
    assert small == [] and len(sizes) > 20


def test_company_labels_and_share_labels_do_not_overlap(crawled: Any) -> None:
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN)
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    texts = [*label_texts(ax).values(), *_texts(ax, "share:").values()]
    boxes = [t.get_window_extent(renderer) for t in texts]
    assert overlapping(boxes) == []
    figure = ax.figure.bbox
    assert all(figure.x0 <= b.x0 and b.x1 <= figure.x1 and figure.y0 <= b.y0 and b.y1 <= figure.y1 for b in boxes)


def test_no_text_of_the_drawing_covers_another(crawled: Any) -> None:
    ax = regkit.plot.group(crawled, company_id=WALDSTEIN, persons=True)
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text().strip()]
    assert sum(1 for t in texts if (t.get_gid() or "").startswith("role:")) > 10
    boxes = [t.get_window_extent(renderer) for t in texts]
    assert [(texts[i].get_text(), texts[j].get_text()) for i, j in overlapping(boxes)] == []
