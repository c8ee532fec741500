"""Issue 25's figure checks (``figure_checks_support``) over every figure of regkit.plot, drawn from the bundled world
and the local register: a source line, one language of labels, 9 pt on screen in a JupyterLab cell, a zero line
where values turn negative, amount axes from zero with their unit; and the checks themselves catch each fault in a
figure made to have it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
from figure_checks_support import (
    amount_axis_problems,
    assert_figure_ok,
    language_problems,
    layout_problems,
    shortened_problems,
    size_problems,
    source_problems,
    zero_line_problems,
)
from matplotlib.text import Text

import regkit.frames as frames
import regkit.plot
from regkit.plot.source_line import DEFAULT_SOURCE
from regkit.widgets.person_chart import positions_chart

TOP = "DE-HRB-R2103-65834"  # Luxlog Holding AG: full accounts, a group
DISTRESSED = "DE-HRB-P2408-81776"  # open insolvency, negative equity at the end
CHANGING = "DE-HRB-U1308-101888"  # owners change from list to list
CONSUMER = "7da364e3-c5b0-4073-9e81-299f0003a075"  # a consumer proceeding with many events
SCHABER = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"  # director in two groups, holds two companies


def _with_opening(world: Any) -> Any:
    opened = {
        p["company_id"]: p["opened_at"]
        for p in world.insolvencies.values()
        if p.get("company_id") in world.companies and p.get("opened_at")
    }
    table = frames.ratios(frames.indicators([world.companies[cid] for cid in sorted(opened)][:60]))
    return table.assign(opened_at=table["company_id"].map(opened).astype("datetime64[us]"))


def _many(world: Any, n: int = 10) -> list[dict[str, Any]]:
    """The first ``n`` companies (in id order) that published any equity ratio."""
    chosen = []
    for cid in sorted(world.companies):
        reports = world.companies[cid]["indicators"]
        if any(r["equity"] is not None and r["balance_sheet_total"] for r in reports):
            chosen.append(world.companies[cid])
        if len(chosen) == n:
            break
    return chosen


def _westebbe(client: Any) -> Any:
    """A director and general partner (persönlich haftender Gesellschafter): the longest role label in a legend."""
    found = client.search_persons("Horst Westebbe").raw["results"][0]["id"]
    return positions_chart(client.get_person(found), holdings=client.get_person_holdings(found), until="2026-06-30")


def _drawings(world: Any, client: Any) -> dict[str, Callable[[], Any]]:
    results = frames.insolvency_results(list(world.insolvencies.values()))
    return {
        "indicators": lambda: regkit.plot.indicators(world.companies[TOP], ["equity", "revenue", "net_income"]),
        "indicators_negative": lambda: regkit.plot.indicators(world.companies[DISTRESSED], "equity"),
        "ratios_ten": lambda: regkit.plot.ratios(_many(world), "equity_ratio"),
        "insolvency_trend": lambda: regkit.plot.insolvency_trend(results, "Q", by="legal_form"),
        "insolvency_timeline": lambda: regkit.plot.insolvency_timeline(world.insolvencies[CONSUMER]),
        "insolvency_breakdown": lambda: regkit.plot.insolvency_breakdown(results, "legal_form", "status", share=True),
        "timeline": lambda: regkit.plot.timeline(world.companies[DISTRESSED]),
        "ratios_before": lambda: regkit.plot.ratios_before(_with_opening(world)),
        "cap_table": lambda: regkit.plot.cap_table(client.get_ownership_history(CHANGING).to_dataframe()),
        "balance_sheet": lambda: regkit.plot.balance_sheet(client.get_financials(DISTRESSED).statements()),
        "pnl_waterfall": lambda: regkit.plot.pnl_waterfall(client.get_financials(TOP)),
        "positions_chart": lambda: positions_chart(
            client.get_person(SCHABER), holdings=client.get_person_holdings(SCHABER)
        ),
        "positions_chart_general_partner": lambda: _westebbe(client),
        "group": lambda: regkit.plot.group(regkit.graph.from_companies(world.companies.values()), company_id=TOP),
    }


NAMES = [
    "indicators",
    "indicators_negative",
    "ratios_ten",
    "insolvency_trend",
    "insolvency_timeline",
    "insolvency_breakdown",
    "timeline",
    "ratios_before",
    "cap_table",
    "balance_sheet",
    "pnl_waterfall",
    "positions_chart",
    "positions_chart_general_partner",
]


MOVED = "DE-HRB-R2307-168089"  # two registers, two addresses
UG = "DE-HRB-R3101-94644"  # UG → GmbH
LIQUIDATION = "DE-HRA-T2408-42049"  # a sole trader in liquidation


def _explorer_figures(world: Any, client: Any) -> dict[str, Callable[[], Any]]:
    """The figures the explorers draw (``regkit.widgets``), built by the functions the explorers call."""
    from regkit.widgets.company_changes import changes_figure
    from regkit.widgets.company_logic import indicator_figure
    from regkit.widgets.company_tables import timeline_figure
    from regkit.widgets.insolvency_logic import proceeding_figure
    from regkit.widgets.person_tables import positions_figure

    def proceeding(insolvency_id: str) -> Any:
        record = client.get_insolvency(insolvency_id)
        return proceeding_figure(record, len(frames.events(record)))

    drawings: dict[str, Callable[[], Any]] = {
        f"histories {company_id}": (lambda company_id=company_id: timeline_figure(client.get_company(company_id)))
        for company_id in (TOP, DISTRESSED, MOVED, UG, LIQUIDATION, CHANGING)
    }
    drawings["indicators EUR and employees"] = lambda: indicator_figure(
        client.get_company(TOP), ["revenue", "equity", "net_income", "employees"]
    )
    drawings["indicators negative equity"] = lambda: indicator_figure(client.get_company(DISTRESSED), ["equity"])
    drawings["proceeding"] = lambda: proceeding(CONSUMER)
    drawings["positions"] = lambda: positions_figure(client.get_person(SCHABER), client.get_person_holdings(SCHABER))
    drawings["changes"] = lambda: changes_figure(_changes(), TOP, "Luxlog Holding AG")
    return drawings


def _changes() -> Any:
    """What ``client.changes`` finds between two answers about a company: a new name, an appointment, a report."""
    rows = [
        ("basic", "name_changed", "2026-08-03", {}),
        ("representation", "representative_appointed", "2026-07-14", {"name": "Max Hürtgen"}),
        ("financials", "report_filed", "2025-12-31", {"report_id": "r1"}),
    ]
    frame = frames.changes_table(
        [
            {"category": c, "kind": k, "date": d, "field": "f", "before": None, "after": None, "detail": detail}
            for c, k, d, detail in rows
        ]
    )
    frame.loc[0, "after"] = "Luxlog Holding AG"
    frame.loc[1, "after"] = "DIRECTOR"
    return frame


EXPLORER_FIGURES = [
    *(f"histories {c}" for c in (TOP, DISTRESSED, MOVED, UG, LIQUIDATION, CHANGING)),
    "indicators EUR and employees",
    "indicators negative equity",
    "proceeding",
    "positions",
    "changes",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", EXPLORER_FIGURES)
def test_every_explorer_figure_passes_the_checks(world: Any, client: Any, name: str) -> None:
    """Issue 46: the explorers' charts (drawn on figures of their own, shown as SVG in the panes) are read as
    every other figure is: no overprint, nothing clipped, no legend over data, one language."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _explorer_figures(world, client)[name]()
    FigureCanvasAgg(fig)  # a figure of its own, as the explorers draw (no pyplot): measured with Agg, as saved
    names = [c["name"]["name"] for c in world.companies.values()]
    assert_figure_ok(fig, source=DEFAULT_SOURCE, names=names, dpi=96.0)  # shown as SVG: 96 CSS px per inch


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_figure_passes_the_checks(world: Any, client: Any, name: str) -> None:
    ax = _drawings(world, client)[name]()
    names = [c["name"]["name"] for c in world.companies.values()]
    assert_figure_ok(ax.figure, source=DEFAULT_SOURCE, names=names)


def test_the_group_drawing_carries_its_source_line(world: Any, client: Any) -> None:
    """Only the source line: the rest of the group drawing is issue 25's group slice."""
    ax = _drawings(world, client)["group"]()
    assert source_problems(ax.figure, DEFAULT_SOURCE) == []


def test_the_shortening_check_catches_a_name_cut_to_its_bar() -> None:
    """Issue 46's "Gerber Dienstleistu…": a bar text with no room beside its bar is shortened, and the check says
    so; the same text with the line free beside the bar is written whole, and the check is quiet."""
    from regkit.plot.bar_text import bar_text

    for outside, expected in ((None, 1), ((0.0, 100.0), 0)):
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.set_xlim(0, 100)
        ax.barh([0], [20], left=[5], color="#F1CE63")
        bar_text(ax, 5, 25, 0, "Gerber Dienstleistungen UG (haftungsbeschränkt)", "#F1CE63", outside=outside)
        problems = shortened_problems(fig)
        assert len(problems) == expected, problems
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 2))  # a share on a sliver: whole or nothing, never "10…"
    ax.set_xlim(0, 100)
    share = bar_text(ax, 5, 12.75, 0, "10 %", "#4C72B0")  # room for "10…", not for "10 %"
    assert not shortened_problems(fig) and share.get_text() == ""
    plt.close(fig)


def test_the_checks_catch_each_fault() -> None:
    fig, ax = plt.subplots(figsize=(14, 4))
    ax.plot([2020, 2021, 2022], [3e6, -1e6, 2e6])
    ax.plot([2020, 2021, 2022], [2e6, 2e6, 2e6])
    ax.yaxis.set_major_formatter(regkit.plot.EuroFormatter())
    ax.set_ylim(1e6, 4e6)  # no zero
    ax.set_ylabel("EUR")
    ax.set_title("spin_off")
    ax.legend(["persönlich haftender Gesellschafter", "in Liquidation"], fontsize=8)
    assert source_problems(fig) == ["0 source lines (gid 'regkit-source'), not 1"]
    said = " ".join(language_problems(fig))
    assert "'spin_off'" in said and "'persönlich haftender Gesellschafter' without its English label" in said
    assert "'in Liquidation'" in said
    small = size_problems(fig)  # 14 in at 100 dpi is wider than 968 px: every text shrinks, 12 pt to 10 pt
    assert any(p.startswith("'in Liquidation' is 6.") for p in small) and not any("'spin_off'" in p for p in small)
    assert size_problems(fig, displayed_width_px=2000) == [  # shown at its own size: only the 8 pt legend is small
        "'persönlich haftender Gesellschafter' is 8.0 pt on screen (font 8 pt)",
        "'in Liquidation' is 8.0 pt on screen (font 8 pt)",
    ]
    assert amount_axis_problems(fig) and "without zero" in amount_axis_problems(fig)[0]
    assert any("labelled 'EUR' under ticks in €M" in p for p in amount_axis_problems(fig))
    ax.set_ylim(-2e6, 4e6)
    assert zero_line_problems(fig) == ["spin_off: values below zero and no zero line"]
    ax.axhline(0)
    assert zero_line_problems(fig) == []


def test_a_figure_narrower_than_the_cell_keeps_its_sizes() -> None:
    fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
    ax.plot([0, 1], [0, 1])
    ax.set_title("nine", fontsize=9)
    ax.tick_params(labelsize=9)
    ax.set_xlabel("eight", fontsize=8)
    assert size_problems(fig) == ["'eight' is 8.0 pt on screen (font 8 pt)"]


def test_amounts_start_at_zero_with_the_ticks_unit_in_the_label(world: Any) -> None:
    ax = regkit.plot.indicators(world.companies[TOP], "equity")
    company = world.companies[TOP]
    equity = [r["equity"] / 100 for r in company["indicators"] if r["equity"] is not None]
    low, high = ax.get_ylim()
    assert low == 0 and high >= max(equity)  # €33M of equity is drawn from zero, not from €30M
    ax.figure.canvas.draw()
    units = {re.sub(r"[\d,.\u2212-]", "", t.get_text()) for t in ax.get_yticklabels() if t.get_text() not in ("", "€0")}
    assert units == {"€M"} and ax.get_ylabel() == "equity (€M)"
    (zero,) = [line for line in ax.get_lines() if line.get_gid() == "zero"]
    assert list(zero.get_ydata()) == [0, 0]


def test_negative_equity_goes_below_a_zero_line(world: Any) -> None:
    company = world.companies[DISTRESSED]
    equity = [r["equity"] / 100 for r in company["indicators"] if r["equity"] is not None]
    assert min(equity) < 0  # the world's Elbwind ends with negative equity
    ax = regkit.plot.indicators(company, "equity")
    assert ax.get_ylim()[0] < min(equity) and zero_line_problems(ax.figure) == []


def test_ten_companies_are_named_at_their_lines_in_ten_colours(world: Any) -> None:
    companies = _many(world)
    ax = regkit.plot.ratios(companies, "equity_ratio")
    lines = [line for line in ax.get_lines() if "|" in str(line.get_gid())]
    assert len(lines) == 10 and len({line.get_color() for line in lines}) == 10
    labels = {t.get_gid(): t for t in ax.texts if str(t.get_gid()).startswith("label:")}
    for line, company in zip(lines, companies):
        label = labels[f"label:{line.get_gid()}"]
        assert label.get_text().startswith(company["name"]["name"]) and label.get_color() == line.get_color()
    ax.figure.canvas.draw()
    boxes = sorted((Text.get_window_extent(t) for t in labels.values()), key=lambda b: b.y0)  # the text, no leader
    assert all(a.y1 <= b.y0 + 0.5 for a, b in zip(boxes, boxes[1:]))  # no name over another
    legend = ax.get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == ["30 %: typical of German SMEs"]
    assert ax.get_title() == "Equity ratio of 10 companies"


def test_no_figures_is_said_in_the_figure_with_a_warning(world: Any) -> None:
    from regkit.errors import NoFinancialReportsWarning

    company = next(c for cid, c in sorted(world.companies.items()) if not c["indicators"])
    with pytest.warns(NoFinancialReportsWarning, match="no published revenue for"):
        ax = regkit.plot.indicators(company, "revenue")
    (said,) = [t for t in ax.texts if t.get_gid() == "no-data"]
    assert said.get_text().replace("\n", " ") == f"no published revenue for {company['name']['name']}"
    assert not ax.axison and not ax.get_lines()[:-1]
    assert source_problems(ax.figure, DEFAULT_SOURCE) == []


def test_ratios_of_a_company_without_figures_say_financial_figures(world: Any) -> None:
    from regkit.errors import NoFinancialReportsWarning

    company = next(c for cid, c in sorted(world.companies.items()) if not c["indicators"])
    with pytest.warns(NoFinancialReportsWarning):
        ax = regkit.plot.ratios(company, ["equity_ratio", "net_margin"])
    (said,) = [t for t in ax.texts if t.get_gid() == "no-data"]
    assert said.get_text().startswith("no published financial figures for")


def test_the_breakdown_shows_what_its_legend_names_and_pales_small_bars(world: Any) -> None:
    from matplotlib.colors import to_hex

    from regkit.plot.breakdown import FEW

    results = frames.insolvency_results(list(world.insolvencies.values()))
    results = results.assign(kiel=(results["court"] == "Amtsgericht Kiel").map({True: "Kiel", False: "rest"}))
    ax = regkit.plot.insolvency_breakdown(results, "kiel", "legal_form", share=True, top=None)
    ax.figure.canvas.draw()
    to_pixels = ax.transData.transform
    for container in ax.containers:  # every legend entry has a bar segment wide enough to see
        widest = max(to_pixels((p.get_width(), 0))[0] - to_pixels((0, 0))[0] for p in container)
        assert widest >= 0.015 * ax.get_window_extent().width - 0.5, container.get_label()
    kiel = sum(1 for p in world.insolvencies.values() if p["court"] == "Amtsgericht Kiel")
    rows = [t.get_text() for t in ax.get_yticklabels()]
    first = ax.containers[0]
    colour = {row: to_hex(first.patches[i].get_facecolor()) for i, row in enumerate(rows)}
    assert (colour["Kiel"] != colour["rest"]) == (kiel < FEW)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert (f"paler: fewer than {FEW} proceedings" in texts) == (kiel < FEW)
    assert layout_problems(ax.figure) == []  # two bars beside a long legend: the figure is sized for the legend


def test_the_layout_check_catches_a_figure_that_shrinks_each_time_it_is_drawn() -> None:
    def legend_beside(height: float) -> Any:
        fig, ax = plt.subplots(figsize=(8, height), layout="constrained")
        for n in range(12):
            ax.barh([0, 1], [n, n], label=f"group {n}")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9)
        ax.set_xlabel("x")
        return fig

    with pytest.warns(UserWarning, match="constrained_layout not applied"):  # where the shrinking ends
        [moved] = layout_problems(legend_beside(2.2))  # the legend is taller than the Axes it hangs from
    assert moved.startswith("the layout moves each time the figure is drawn: axes 0 from (")
    assert layout_problems(legend_beside(4.5)) == []


def test_timeline_markers_match_their_legend_and_none_hides_another(world: Any) -> None:
    from matplotlib.colors import to_hex

    proceeding = world.insolvencies[CONSUMER]
    ax = regkit.plot.insolvency_timeline(proceeding)
    legend = ax.get_legend()
    handles = {t.get_text(): h for t, h in zip(legend.get_texts(), legend.legend_handles)}
    for line in ax.get_lines():
        if line.get_gid() in ("published", "decision", "claims_deadline", "meetings"):
            handle = handles[line.get_label()]
            assert to_hex(handle.get_markeredgecolor()) == to_hex(line.get_markeredgecolor())
            assert handle.get_marker() == line.get_marker()
    published = next(line for line in ax.get_lines() if line.get_gid() == "published")
    decided = next(line for line in ax.get_lines() if line.get_gid() == "decision")
    same_day = [e for e in proceeding["events"] if e["decision_date"] == e["published_at"]]
    if same_day:  # a ring larger than the dot, drawn over it: both show
        assert decided.get_markersize() > published.get_markersize() + 2
        assert decided.get_markerfacecolor() == "none" and decided.get_zorder() > published.get_zorder()
    assert ax.get_xlabel() == "date"


def test_period_labels_sit_under_the_bars_centres_and_the_legend_reads_as_the_stack(world: Any) -> None:
    results = frames.insolvency_results(list(world.insolvencies.values()))
    opened = results[(results["opened_at"] >= "2024-01-01") & (results["opened_at"] <= "2025-12-31")]
    ax = regkit.plot.insolvency_trend(opened, "Q", by="legal_form")
    ax.figure.canvas.draw()
    bars = ax.containers[0].patches
    centres = [p.get_x() + p.get_width() / 2 for p in bars]
    ticks = ax.get_xticks()
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert np.allclose(ticks, centres) and all(labels)  # every one of the 8 quarters labelled
    assert labels == ["Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024", "Q1 2025", "Q2 2025", "Q3 2025", "Q4 2025"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    stacked = [c.get_label() for c in ax.containers]  # bottom first
    assert legend == stacked[::-1]


@pytest.mark.slow
def test_a_notebook_cell_whose_figure_fails_the_checks_fails_under_nbval(tmp_path: Any) -> None:
    """The suite's nbval run checks each pyplot figure a cell leaves (``tests/nbval_figure_checks.py``), before
    Jupyter shows and closes it: the cell of a faulty figure fails with its problems, the others pass."""
    import os
    import subprocess
    import sys
    import xml.etree.ElementTree as ET
    from pathlib import Path

    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nimport regkit.plot"),
        nbformat.v4.new_code_cell("fig, ax = plt.subplots()\nax.plot([1, 2], [-1, 1])\nax.set_title('x', fontsize=7)"),
        nbformat.v4.new_code_cell(
            "from regkit.local.world import read_world\n"
            f"ax = regkit.plot.indicators(read_world().companies[{TOP!r}], 'equity')"
        ),
        nbformat.v4.new_code_cell("print('no figure')"),
    ]
    path = tmp_path / "figures.ipynb"
    nbformat.write(nb, path)
    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")])}
    report = tmp_path / "report.xml"
    run = [sys.executable, "-m", "pytest", "-p", "nbval_figure_checks", "-p", "no:cacheprovider"]
    options = ["--nbval-lax", "--nbval-current-env", f"--junitxml={report}", str(path)]
    finished = subprocess.run([*run, *options], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 1, finished.stdout + finished.stderr  # one cell failed
    cases = ET.parse(report).getroot().findall(".//testcase")
    failures = [
        (case.find("failure").get("message", "") if case.find("failure") is not None else None) for case in cases
    ]
    assert len(failures) == 4 and failures[0] is None and failures[2] is None and failures[3] is None, failures
    assert "a figure of this cell fails the figure checks" in failures[1]
    assert "0 source lines (gid 'regkit-source'), not 1" in failures[1]
    assert "'x' is 7.0 pt on screen (font 7 pt)" in failures[1]
    assert "x: values below zero and no zero line" in failures[1]


def test_a_general_partner_without_capital_is_one_bar_not_a_zero_percent_holding(client: Any) -> None:
    """Issue 46: Horst Westebbe's general partnership was drawn twice — his position and a "shareholding" bar of
    0 % beside it. The register's holdings list the partnership with no share of the capital."""
    from regkit.widgets.person_chart import HOLDING, position_bars

    found = client.search_persons("Horst Westebbe").raw["results"][0]["id"]
    holdings = client.get_person_holdings(found)
    raw = [h for h in holdings.raw["holdings"] if h.get("relation_type") == "general_partner" and not h.get("share")]
    assert raw  # the world lists him as general partner without capital
    bars = position_bars(client.get_person(found), holdings=holdings, until="2026-06-30")
    for company in {h["company_id"] for h in raw}:
        at = bars[bars["company_id"] == company]
        assert "PERSONAL_LIABLE_DIRECTOR" in set(at["key"])
        assert not ((at["key"] == HOLDING) & at["text"].str.startswith("general partner")).any(), at


def test_a_name_pushed_off_its_line_is_joined_to_the_lines_end(world: Any) -> None:
    """Issue 46: ten companies' names were matched to their lines by close colours only."""
    ax = regkit.plot.ratios(_many(world), "equity_ratio")
    lines = {line.get_gid(): line for line in ax.get_lines() if "|" in str(line.get_gid())}
    labels = {t.get_gid()[len("label:") :]: t for t in ax.texts if str(t.get_gid()).startswith("label:")}
    joined = 0
    for gid, label in labels.items():
        line = lines[gid]
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        keep = np.isfinite(y)
        end = (x[keep][-1], y[keep][-1])
        if abs(label.xyann[1] - end[1]) > 1e-9 or end[0] < ax.get_xlim()[1] - 1.0:
            assert label.arrow_patch is not None and label.xy == pytest.approx(end), gid
            joined += 1
    assert joined >= 3  # several names are pushed apart in this chart
