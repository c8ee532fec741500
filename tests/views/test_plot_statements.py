"""``regkit.plot.balance_sheet`` and ``pnl_waterfall``: what is drawn equals the statements and indicators frames."""

from __future__ import annotations

from typing import Any

import matplotlib.colors
import pytest
import statements_support as support

from regkit.frames import indicators, statements
from regkit.plot import balance_sheet, pnl_waterfall
from regkit.plot.statements import balance_sheet_data, waterfall_steps


def _bars(ax: Any) -> dict[str, Any]:
    return {p.get_gid(): p for p in ax.patches if p.get_gid()}


def test_the_balance_sheet_draws_every_top_item_of_every_year_at_its_value() -> None:
    answer = support.answer()
    ax = balance_sheet(statements({support.COMPANY: answer}))
    bars = _bars(ax)
    expected = {}
    for report in answer["reports"]:
        year = int(report["report_end_date"][:4])
        for statement in ("aktiva", "passiva"):
            for row in report[statement]["rows"]:
                expected[f"{statement}|{statement}/{row['formatted_name']}|{year}"] = row["current_value"] / 100
    assert {gid: bar.get_height() for gid, bar in bars.items()} == pytest.approx(expected)


def test_each_side_is_stacked_from_zero_and_both_reach_the_total() -> None:
    answer = support.answer()
    ax = balance_sheet(statements({support.COMPANY: answer}))
    bars = _bars(ax)
    for report in answer["reports"]:
        year = report["report_end_date"][:4]
        total = sum(r["current_value"] for r in report["aktiva"]["rows"]) / 100
        for statement in ("aktiva", "passiva"):
            side = sorted(
                (b for g, b in bars.items() if g.startswith(statement) and g.endswith(year)), key=lambda b: b.get_y()
            )
            assert side[0].get_y() == 0
            for lower, upper in zip(side, side[1:]):
                assert upper.get_y() == pytest.approx(lower.get_y() + lower.get_height())
            assert side[-1].get_y() + side[-1].get_height() == pytest.approx(total)
    assert ax.get_ylim()[0] == 0
    assert ax.get_ylabel() == "amount (€M)"
    ax.figure.canvas.draw()
    assert all(
        t.get_text().startswith("€") and t.get_text().endswith("M")
        for t in ax.get_yticklabels()
        if t.get_text() and t.get_text() != "€0"  # zero without a unit
    )
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2022", "2023"]


def test_equity_is_coloured_apart_from_the_liabilities() -> None:
    ax = balance_sheet(statements({support.COMPANY: support.answer()}))
    bars = _bars(ax)
    colour = {g.split("|")[1]: matplotlib.colors.to_hex(b.get_facecolor()) for g, b in bars.items()}
    equity = colour["passiva/A. Eigenkapital"]
    assert equity not in {colour["passiva/C. Verbindlichkeiten"], colour["passiva/B. Rückstellungen"]}
    assert equity not in {c for p, c in colour.items() if p.startswith("aktiva")}


def test_negative_equity_is_a_deficit_on_the_aktiva_side_as_hgb_shows_it() -> None:
    """HGB § 268 (3): a deficit not covered by equity is the last aktiva item, equity 0 on the passiva side — so
    both bars stand equally tall (the total of the passiva), and the equity ratio above says how deep the deficit
    is, negative."""
    answer = support.small_answer()
    ax = balance_sheet(statements({support.SMALL: answer}))
    bars = _bars(ax)
    assert "passiva|passiva/A. Eigenkapital|2023" not in bars  # the year to 2023-06-30 is fiscal 2023
    deficit = bars["aktiva|aktiva/deficit|2023"]
    assert deficit.get_height() == 4000.0 and deficit.get_hatch() == "////"
    [report] = [r for r in answer["reports"] if r["report_end_date"].startswith("2023")]
    assets = sum(row["current_value"] for row in report["aktiva"]["rows"]) / 100
    assert deficit.get_y() == pytest.approx(assets)  # on top of the assets
    tops = {
        side: max(b.get_y() + b.get_height() for g, b in bars.items() if g.startswith(side) and g.endswith("2023"))
        for side in ("aktiva", "passiva")
    }
    assert tops["aktiva"] == pytest.approx(tops["passiva"]) == pytest.approx(assets + 4000.0)
    share = f"{-4000.0 / (assets + 4000.0) * 100:.0f} %".replace("-", "\N{MINUS SIGN}")  # "−9 %", as every label
    assert share in {t.get_text() for t in ax.texts}
    assert ax.get_ylim()[0] == 0 and ax.get_ylabel() == "amount (€k)"
    assert "A: aktiva (assets)" in ax.get_xlabel()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "A: Deficit not covered by equity\n    (nicht durch Eigenkapital gedeckter Fehlbetrag)" in legend


def test_no_balance_sheet_is_said_in_the_figure() -> None:
    from regkit.errors import NoFinancialReportsWarning

    with pytest.warns(NoFinancialReportsWarning, match="no published balance sheet for DE-HRB-B1234-9"):
        ax = balance_sheet({"DE-HRB-B1234-9": support.empty_answer()})
    (said,) = [t for t in ax.texts if t.get_gid() == "no-data"]
    assert said.get_text() == "no published balance sheet for DE-HRB-B1234-9" and not ax.axison
    with pytest.warns(NoFinancialReportsWarning), pytest.raises(ValueError, match="no balance sheet"):
        balance_sheet_data(support.empty_answer())  # the data function still says it plainly
    with pytest.raises(ValueError, match="no consolidated balance sheet"):
        balance_sheet(support.answer(), consolidated=True)


def _steps_by_hand(entry: dict[str, Any]) -> list[tuple[str, float]]:
    """The waterfall's steps from one indicators entry (cents → EUR), the costs as charges."""
    revenue, ebit, net = entry["revenue"], entry["ebit"], entry["net_income"]
    costs = [
        ("Other operating income", entry["other_operating_income"]),
        ("Cost of materials", -entry["materials"]),
        ("Personnel expenses", -entry["salaries"]),
        ("Depreciation", -entry["operating_depreciation"]),
        ("Other operating expenses", -entry["other_operating_expenses"]),
    ]
    steps = [("Revenue", revenue), *costs]
    rest = ebit - revenue - sum(v for _, v in costs)
    if rest:
        steps.append(("Change in inventories", rest))
    steps += [
        ("EBIT", ebit),
        ("Financial result", entry["income_before_tax"] - ebit),
        ("Income and other taxes", net - entry["income_before_tax"]),
        ("Net income", net),
    ]
    return [(name, value / 100) for name, value in steps]


def test_the_waterfall_walks_from_revenue_to_net_income() -> None:
    answer = support.answer()
    latest = answer["indicators"][0]
    ax = pnl_waterfall(indicators({support.COMPANY: answer}))
    panels = ax.figure.axes
    bars = [p for a in panels for p in a.patches if (p.get_gid() or "").split("|")[0] in ("step", "result")]
    expected = _steps_by_hand(latest)
    if len(panels) == 2:  # the results on their own scale: the account to EBIT, then EBIT to net income
        cut = [name for name, _ in expected].index("EBIT") + 1
        expected = [*expected[:cut], *expected[cut - 1 :]]
    assert [b.get_gid().split("|")[1] for b in bars] == [name for name, _ in expected]
    level = 0.0
    for bar, (name, value) in zip(bars, expected):
        if name in ("Revenue", "EBIT", "Net income"):
            assert (bar.get_y(), bar.get_height()) == pytest.approx((0.0, value))
            level = value
        else:
            assert (bar.get_y(), bar.get_height()) == pytest.approx((level, value))
            level += value
    assert level == pytest.approx(latest["net_income"] / 100)
    ticks = [t.get_text().replace("\n", " ") for a in panels for t in a.get_xticklabels()]
    assert ticks == [name for name, _ in expected]
    assert any(line.get_ydata()[0] == 0 == line.get_ydata()[-1] for line in ax.get_lines())
    title = ax.figure.get_suptitle() if len(panels) == 2 else ax.get_title()
    assert "2023" in title and ax.get_ylabel() == "amount (€M)"


def test_charges_and_gains_are_drawn_apart() -> None:
    ax = pnl_waterfall(support.answer(), company_id=support.COMPANY)
    colours = {
        p.get_gid(): matplotlib.colors.to_hex(p.get_facecolor())
        for a in ax.figure.axes
        for p in a.patches
        if p.get_gid()
    }
    charge, gain, total = (
        colours["step|Cost of materials"],
        colours["step|Other operating income"],
        colours["step|EBIT"],
    )
    assert len({charge, gain, total}) == 3
    net = colours.get("step|Net income", colours.get("result|Net income"))
    assert colours["step|Personnel expenses"] == charge and net == total


def test_an_earlier_year_and_the_steps_frame() -> None:
    answer = support.answer()
    steps = waterfall_steps(answer, year=2022, company_id=support.COMPANY)
    older = answer["indicators"][1]
    expected = _steps_by_hand(older)
    assert steps["step"].tolist() == [name for name, _ in expected]
    assert steps["amount"].tolist() == pytest.approx([value for _, value in expected])
    with pytest.raises(ValueError, match="fiscal year 2019"):
        waterfall_steps(answer, year=2019, company_id=support.COMPANY)


def test_a_small_company_without_pnl_is_said_in_the_figure() -> None:
    from regkit.errors import NoFinancialReportsWarning

    with pytest.warns(NoFinancialReportsWarning, match="short balance sheet"):
        ax = pnl_waterfall(support.small_answer(), company_id=support.SMALL)
    (said,) = [t for t in ax.texts if t.get_gid() == "no-data"]
    assert said.get_text() == f"no published P&L for {support.SMALL}"
    with pytest.raises(ValueError, match="short balance sheet"):
        waterfall_steps(support.small_answer(), company_id=support.SMALL)


def test_only_the_last_years_when_asked() -> None:
    ax = balance_sheet(support.answer(), company_id=support.COMPANY, years=1)
    assert {gid.rsplit("|", 1)[1] for gid in _bars(ax)} == {"2023"}
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2023"]
    with pytest.raises(ValueError, match="positive number"):
        balance_sheet(support.answer(), company_id=support.COMPANY, years=0)


LUXLOG = "DE-HRB-R2103-65834"  # full accounts, 17 years, a group parent
ELBWIND = "DE-HRB-P2408-81776"  # a small company: short balance sheet, negative equity at the end


def test_the_registers_balance_sheets_are_drawn_as_filed(client: Any) -> None:
    for company_id in (LUXLOG, ELBWIND):
        record = client.get_financials(company_id)
        own = [r for r in record.raw["reports"] if not r["consolidated"]]
        last_of_year: dict[str, dict[str, Any]] = {}
        for report in own:  # latest first, a correction before the report it corrects: the first of a date wins
            last_of_year.setdefault(report["report_end_date"], report)
        ax = balance_sheet(record.statements())
        drawn = {gid: bar.get_height() for gid, bar in _bars(ax).items()}
        expected = {}
        for end, report in last_of_year.items():
            year = int(regkit_fiscal_year(end))
            for statement in ("aktiva", "passiva"):
                for row in report[statement]["rows"]:
                    if row["current_value"]:
                        name = row["formatted_name"].replace("/", "\u2215")
                        expected[f"{statement}|{statement}/{name}|{year}"] = row["current_value"] / 100
            equity = report["passiva"]["rows"][0]["current_value"]
            if equity < 0:  # HGB § 268 (3): the deficit is an aktiva item, equity is not drawn
                del expected[f"passiva|passiva/{report['passiva']['rows'][0]['formatted_name']}|{year}"]
                expected[f"aktiva|aktiva/deficit|{year}"] = -equity / 100
        assert drawn == pytest.approx(expected), company_id


def regkit_fiscal_year(day: str) -> int:
    """The fiscal year of a report ending on ``day`` (a year ending January–May counts to the one before)."""
    return int(day[:4]) - (1 if int(day[5:7]) <= 5 else 0)


def test_the_registers_pnl_walks_to_its_net_income(client: Any) -> None:
    record = client.get_financials(LUXLOG)
    latest = record.raw["indicators"][0]
    ax = pnl_waterfall(record)
    bars = {p.get_gid(): p for a in ax.figure.axes for p in a.patches if p.get_gid()}
    assert bars["step|Revenue"].get_height() == pytest.approx(latest["revenue"] / 100)
    assert bars["step|EBIT"].get_height() == pytest.approx(latest["ebit"] / 100)
    net = bars["result|Net income"]  # Luxlog's results are small beside its revenue: a panel of their own
    assert (net.get_y(), net.get_height()) == pytest.approx((0.0, latest["net_income"] / 100))
    taxes = bars["result|Income and other taxes"]
    assert taxes.get_y() + taxes.get_height() == pytest.approx(latest["net_income"] / 100)


def test_the_waterfalls_labels_stay_inside_the_frame_below_the_title(client: Any) -> None:
    """The highest bars leave room above them: every amount label is drawn inside the axes, none at the title's
    height (the axis used to end exactly at the highest bar)."""
    ax = pnl_waterfall(client.get_financials(LUXLOG))
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    labels = [text for text in ax.texts if text.get_text().startswith(("€", "+€", "\u2212€"))]
    assert len(labels) == len(_bars(ax))
    for label in labels:
        box = label.get_window_extent(renderer)
        assert frame.y0 <= box.y0 and box.y1 <= frame.y1, label.get_text()
    assert ax.title.get_window_extent(renderer).y0 >= frame.y1


def _filed(report: dict[str, Any], number: str) -> float:
    """The current value (EUR) of the P&L line numbered ``number`` ("2.") in a filed report."""
    (row,) = [r for r in report["guv"]["rows"] if r["formatted_name"].startswith(f"{number} ")]
    return row["current_value"] / 100


def test_the_waterfalls_results_are_bars_a_reader_can_see_and_its_steps_say_what_they_are(client: Any) -> None:
    """Issue 46: on a 0–281 M axis, EBIT, the financial result, taxes and net income were a few pixels tall. They
    get a panel on their own scale, each at least 8 px tall in a 968 px cell; the unexplained step is the filed
    change in inventories (line 2) and the tax step is income and other taxes (lines 11 and 13)."""
    answer = client.get_financials(LUXLOG)
    ax = pnl_waterfall(answer)
    fig = ax.figure
    fig.canvas.draw()
    shown = min(1.0, 968 / (fig.get_tightbbox(fig.canvas.get_renderer()).width * fig.dpi))  # a wider one shrinks
    results = {
        p.get_gid().split("|")[1]: p.get_window_extent().height * shown * 100 / fig.dpi
        for a in fig.axes
        for p in a.patches
        if (p.get_gid() or "").startswith("result|")
    }
    assert set(results) == {"EBIT", "Financial result", "Income and other taxes", "Net income"}
    assert min(results.values()) >= 8, results
    report = max(answer.raw["reports"], key=lambda r: r["report_end_date"])
    steps = {p.get_gid().split("|")[1]: p for p in ax.patches if (p.get_gid() or "").startswith("step|")}
    assert steps["Change in inventories"].get_height() == pytest.approx(_filed(report, "2."), abs=0.01)
    taxes = next(p for a in fig.axes for p in a.patches if p.get_gid() == "result|Income and other taxes")
    assert taxes.get_height() == pytest.approx(-(_filed(report, "11.") + _filed(report, "13.")), abs=0.01)
