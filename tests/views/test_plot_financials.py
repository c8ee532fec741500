"""``regkit.plot.indicators`` and ``ratios`` (module ``regkit.plot.financials``): gaps for nulls, EUR axes, one unit."""

from __future__ import annotations

import math
import re
from typing import Any

import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regkit.frames as frames
from regkit.errors import ValidationError
from regkit.plot.financials import indicators, line_data, ratios

DISTRESSED = "DE-HRB-P2408-81776"  # open insolvency, balance sheet only (revenue never published)
TOP = "DE-HRB-R2103-65834"
CORRECTED = "DE-HRA-B1204-20819"  # two reports for 2024-12-31


def _fiscal_year(day: str) -> int:
    """The year a report closing on ``day`` reports on: a year closing January–May mostly lies in the one before."""
    year, month = int(day[:4]), int(day[5:7])
    return year - 1 if month <= 5 else year


def _expected(company: dict[str, Any], measure: str) -> tuple[list[float], list[float]]:
    """x (fiscal years) and y (EUR, NaN for null) straight from the payload, the last report of a date winning."""
    by_date: dict[str, Any] = {}
    for report in company["indicators"]:
        by_date[report["date"]] = report[measure]
    days = sorted(by_date)
    xs = [_fiscal_year(d) for d in days]
    ys = [math.nan if by_date[d] is None else by_date[d] / 100 for d in days]
    return xs, ys


def _line(ax: Any, gid: str) -> Any:
    (line,) = [line for line in ax.get_lines() if line.get_gid() == gid]
    return line


def _company_lines(ax: Any) -> list[str]:
    """The gids of the drawn companies' lines (``"<id>|<metric>"``), leaving out the zero and reference lines."""
    return [line.get_gid() for line in ax.get_lines() if "|" in str(line.get_gid())]


def _assert_same(actual: Any, expected: list[float]) -> None:
    np.testing.assert_allclose(np.asarray(actual, dtype=float), np.asarray(expected, dtype=float), rtol=0, atol=1e-9)


def test_a_null_in_the_middle_is_a_gap_not_a_zero(company: Any) -> None:
    record = company(TOP)
    record["indicators"][2]["equity"] = None
    ax = indicators(record, "equity")
    xs, ys = _expected(record, "equity")
    line = _line(ax, f"{TOP}|equity")
    _assert_same(line.get_xdata(), xs)
    _assert_same(line.get_ydata(), ys)
    assert math.isnan(line.get_ydata()[2]) and not (line.get_ydata() == 0).any()


def test_a_measure_never_published_draws_nothing(company: Any) -> None:
    record = company(DISTRESSED)
    ax = indicators(record, ["revenue", "equity"])
    assert np.isnan(_line(ax, f"{DISTRESSED}|revenue").get_ydata()).all()
    _assert_same(_line(ax, f"{DISTRESSED}|equity").get_ydata(), _expected(record, "equity")[1])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["revenue", "equity"]


def test_a_correction_draws_only_the_latest_report_of_its_date(company: Any) -> None:
    record = company(CORRECTED)
    ax = indicators(record, "balance_sheet_total")
    xs, ys = _expected(record, "balance_sheet_total")
    line = _line(ax, f"{CORRECTED}|balance_sheet_total")
    assert len(line.get_xdata()) == len(xs) < len(record["indicators"])
    _assert_same(line.get_ydata(), ys)


def test_several_companies_one_line_each_named(company: Any) -> None:
    records = [company(TOP), company(DISTRESSED)]
    ax = indicators(records, "equity")
    assert _company_lines(ax) == [f"{TOP}|equity", f"{DISTRESSED}|equity"]
    names = [r["name"]["name"] for r in records]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == names
    assert ax.get_title() == "Equity of 2 companies"  # a title says what is drawn


def test_the_eur_axis_is_in_thousands_or_millions(company: Any) -> None:
    ax = indicators(company(TOP), "balance_sheet_total")
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text() not in ("", "€0")]  # zero has no unit
    units = {re.sub(r"[\d,.\u2212-]", "", label) for label in labels}  # "€1.5M" → "€M"
    assert len(units) == 1 and units <= {"€k", "€M", "€bn"}
    small = pd.DataFrame(
        {
            "company_id": ["A", "A"],
            "date": pd.to_datetime(["2022-12-31", "2023-12-31"]),
            "revenue": pd.array([1_000_000.0, 1_500_000.0], dtype="Float64"),
        }
    )
    ax = indicators(small, "revenue", ax=plt.subplots()[1])
    ax.set_yticks([1_000_000, 1_500_000])
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["€1M", "€1.5M"]


def test_a_frame_in_cents_is_drawn_in_euros(company: Any) -> None:
    record = company(TOP)
    ax = indicators(frames.indicators(record, unit="cents"), "equity")
    _assert_same(ax.get_lines()[0].get_ydata(), _expected(record, "equity")[1])


def test_the_given_axes_is_used_and_returned(company: Any) -> None:
    fig, (top, bottom) = plt.subplots(2, 1)
    count = len(plt.get_fignums())
    assert indicators(company(TOP), "employees", ax=bottom) is bottom
    assert len(_company_lines(bottom)) == 1 and not top.get_lines() and len(plt.get_fignums()) == count
    assert bottom.get_ylabel() == "employees"


def test_units_are_not_mixed_and_names_are_checked(company: Any) -> None:
    with pytest.raises(ValueError, match="mix units"):
        indicators(company(TOP), ["revenue", "employees"])
    with pytest.raises(ValueError, match="metrics must name"):
        indicators(company(TOP), "turnover")
    with pytest.raises(ValueError, match="mix units"):
        ratios(company(TOP), ["equity_ratio", "salaries_per_employee"])


def test_ratios_are_computed_from_the_payload_and_drawn_as_percentages(company: Any) -> None:
    record = company(TOP)
    record["indicators"][1]["balance_sheet_total"] = 0  # a zero denominator: a gap, never ±inf
    ax = ratios(record, "equity_ratio")
    _, equity = _expected(record, "equity")
    _, total = _expected(record, "balance_sheet_total")
    expected = [100 * e / t if t else math.nan for e, t in zip(equity, total)]  # percent
    _assert_same(ax.get_lines()[0].get_ydata(), expected)
    assert math.isnan(ax.get_lines()[0].get_ydata()[1])
    assert isinstance(ax.yaxis.get_major_formatter(), matplotlib.ticker.PercentFormatter)


def test_ratios_take_an_indicators_frame_or_a_ratios_frame(company: Any) -> None:
    wide = frames.indicators(company(TOP))
    from_wide = ratios(wide, "net_margin").get_lines()[0].get_ydata()
    from_ratios = ratios(frames.ratios(wide), "net_margin", ax=plt.subplots()[1]).get_lines()[0].get_ydata()
    _assert_same(from_wide, from_ratios)


_CENTS = st.one_of(st.none(), st.integers(min_value=-(10**12), max_value=10**12))


@settings(max_examples=60, deadline=None)
@given(values=st.lists(_CENTS, min_size=1, max_size=12))
def test_every_null_is_a_nan_and_every_value_its_euros(values: list[int | None]) -> None:
    days = pd.date_range("2000-12-31", periods=len(values), freq="YE")
    frame = pd.DataFrame({"company_id": "A", "date": days, "cash": pd.array(values, dtype="Int64")})
    frame.attrs["unit"] = "cents"
    _, y = line_data(frame, "A", "cash")
    assert np.isnan(y).tolist() == [v is None for v in values]
    _assert_same(y[~np.isnan(y)], [v / 100 for v in values if v is not None])


def test_records_of_the_client_and_a_batch(client: Any) -> None:
    batch = client.get_companies([TOP, DISTRESSED, "DE-HRB-B1204-999999999"], errors="collect", progress=False)
    ax = indicators(batch, "equity")
    assert _company_lines(ax) == [f"{TOP}|equity", f"{DISTRESSED}|equity"]
    record = client.get_company(TOP)
    ax = ratios({TOP: record}, "net_margin", ax=plt.subplots()[1])
    assert ax.get_title() == record.raw["name"]["name"]


def _tick_labels(ax: Any) -> dict[float, str]:
    ax.figure.canvas.draw()
    lo, hi = ax.get_xlim()
    return {t.get_position()[0]: t.get_text() for t in ax.get_xticklabels() if lo <= t.get_position()[0] <= hi}


def _reports(days: list[str]) -> dict[str, Any]:
    return {
        "id": "DE-HRB-B1234-1",
        "name": {"name": "A GmbH"},
        "names": [],
        "indicators": [
            {
                "date": day,
                "report_id": f"r{day}",
                "revenue": 100_000 * (i + 1),
                "employees": None,
                **{m: None for m in frames.MEASURES if m != "revenue"},
            }
            for i, day in enumerate(days)
        ],
    }


def test_a_report_closing_on_31_december_sits_on_its_own_year() -> None:
    """The report dated 2014-12-31 is fiscal year 2014: drawn at the tick labelled 2014, not next to 2015."""
    ax = indicators(_reports(["2013-12-31", "2014-12-31", "2015-12-31"]), "revenue")
    line = ax.get_lines()[0]
    labels = _tick_labels(ax)
    assert [labels[x] for x in line.get_xdata()] == ["2013", "2014", "2015"]
    assert ax.get_xlabel() == "fiscal year"
    plt.close(ax.figure)


def test_a_fiscal_year_closing_mid_year_is_named_by_both_years() -> None:
    ax = indicators(_reports(["2014-06-30", "2015-06-30"]), "revenue")
    labels = _tick_labels(ax)
    assert [labels[x] for x in ax.get_lines()[0].get_xdata()] == ["2013/14", "2014/15"]
    assert ax.get_xlabel() == "fiscal year (ending 30 Jun)"
    plt.close(ax.figure)


def test_ratios_share_the_fiscal_year_axis(company: Any) -> None:
    record = company(TOP)
    ax = ratios(record, "equity_ratio")
    xs, _ = _expected(record, "equity")
    _assert_same(ax.get_lines()[0].get_xdata(), xs)
    labels = _tick_labels(ax)
    assert all(label.isdigit() or "/" in label for label in labels.values())
    plt.close(ax.figure)


def test_a_long_series_is_thinned_to_at_most_twelve_ticks() -> None:
    days = [f"{year}-12-31" for year in range(1995, 2025)]
    ax = indicators(_reports(days), "revenue")
    labels = _tick_labels(ax)
    assert 2 <= len(labels) <= 12 and all(label.isdigit() for label in labels.values())
    plt.close(ax.figure)


def _reference(ax: Any) -> Any:
    (line,) = [line for line in ax.get_lines() if line.get_gid() == "reference"]
    return line


def test_ratios_are_drawn_in_percent_of_the_frames_fractions(company: Any) -> None:
    wide = frames.indicators([company(TOP), company(DISTRESSED)])
    table = frames.ratios(wide)
    ax = ratios(table, "equity_ratio")
    for cid in (TOP, DISTRESSED):
        rows = table[(table["company_id"] == cid) & table["is_latest_revision"]].sort_values("date")
        expected = rows["equity_ratio"].astype("Float64").to_numpy(dtype=float, na_value=np.nan) * 100
        _assert_same(_line(ax, f"{cid}|equity_ratio").get_ydata(), list(expected))
    ax.figure.canvas.draw()
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert len(ticks) >= 3 and all(t.endswith("%") for t in ticks), ticks
    assert "%" in ax.get_ylabel()


@pytest.mark.parametrize(
    ("metrics", "value", "label"),
    [
        ("equity_ratio", 30.0, "30 %: typical of German SMEs"),
        ("net_margin", 0.0, "0 %: break-even"),
        ("revenue_growth", 0.0, "0 %: no growth"),
        (["net_margin", "return_on_assets"], 0.0, "0 %: break-even"),
    ],
)
def test_each_ratio_has_its_reference_line_named_in_the_legend(
    company: Any, metrics: Any, value: float, label: str
) -> None:
    ax = ratios(company(TOP), metrics)
    line = _reference(ax)
    assert set(line.get_ydata()) == {value} and line.get_label() == label
    assert label in [t.get_text() for t in ax.get_legend().get_texts()]


def test_a_reference_of_ones_own_or_none(company: Any) -> None:
    ax = ratios(company(TOP), "equity_ratio", reference=0.4, reference_label="peer group")
    assert set(_reference(ax).get_ydata()) == {40.0} and _reference(ax).get_label() == "peer group"
    ax = ratios(company(TOP), "equity_ratio", reference=None, ax=plt.subplots()[1])
    assert not [line for line in ax.get_lines() if line.get_gid() == "reference"] and ax.get_legend() is None
    with pytest.raises(ValueError, match="reference must be"):
        ratios(company(TOP), "equity_ratio", reference="typical")


def test_the_median_reference_is_the_median_of_the_companies_per_year(company: Any) -> None:
    records = [company(TOP), company(DISTRESSED), company(CORRECTED)]
    ax = ratios(records, "equity_ratio", reference="median")
    line = _reference(ax)
    assert line.get_label() == "median of the 3 companies"
    table = frames.ratios(frames.indicators(records))
    table = table[table["is_latest_revision"]]
    years = table["date"].dt.year.where(table["date"].dt.month > 5, table["date"].dt.year - 1)
    expected = table.assign(year=years, pct=table["equity_ratio"].astype(float) * 100).groupby("year")["pct"].median()
    _assert_same(line.get_xdata(), list(expected.index))
    _assert_same(line.get_ydata(), list(expected.to_numpy()))


def _debtors(world: Any) -> tuple[pd.DataFrame, dict[str, str]]:
    """Ratios of every company with a proceeding opened 2020–2025, and each company's (first) opening date."""
    opened: dict[str, str] = {}
    for case in sorted(world.insolvencies.values(), key=lambda p: p.get("opened_at") or ""):
        if case.get("company_id") in world.companies and "2020" <= (case.get("opened_at") or "") < "2026":
            opened.setdefault(case["company_id"], case["opened_at"])
    table = frames.ratios(frames.indicators([world.companies[cid] for cid in opened]))
    return table.assign(opened_at=pd.to_datetime(table["company_id"].map(opened))), opened


def test_ratios_before_an_event_are_the_medians_of_each_year_counted_back(world: Any) -> None:
    from regkit.plot.before_event import ratios_before, ratios_before_summary

    table, opened = _debtors(world)
    per_year: dict[int, list[float]] = {}
    for cid, day in opened.items():
        by_date: dict[str, Any] = {}
        for report in world.companies[cid]["indicators"]:
            by_date[report["date"]] = report  # the last report of a date wins (a correction)
        for date, report in by_date.items():
            back = int(day[:4]) - _fiscal_year(date)
            if 1 <= back <= 5 and report["equity"] is not None and report["balance_sheet_total"]:
                per_year.setdefault(back, []).append(report["equity"] / report["balance_sheet_total"])
    summary = ratios_before_summary(table, "opened_at", "equity_ratio", years=5)
    assert list(summary.index) == [5, 4, 3, 2, 1]
    for back, values in per_year.items():
        assert summary.loc[back, ("equity_ratio", "median")] == pytest.approx(float(np.median(values)))
        assert summary.loc[back, ("equity_ratio", "count")] == len(values)
    ax = ratios_before(table, "opened_at", "equity_ratio", years=5)
    line = _line(ax, "equity_ratio")
    _assert_same(line.get_xdata(), [5, 4, 3, 2, 1])
    _assert_same(line.get_ydata(), [100 * float(np.median(per_year[b])) for b in (5, 4, 3, 2, 1)])
    counts = [len(per_year[b]) for b in (5, 4, 3, 2, 1)]
    assert line.get_label() == f"equity ratio (median of {min(counts)}–{max(counts)})"


def test_the_years_before_chart_reads_left_to_right_in_percent_with_its_reference(world: Any) -> None:
    from regkit.plot.before_event import ratios_before

    table, _ = _debtors(world)
    ax = ratios_before(table, title="debtors")
    ax.figure.canvas.draw()
    left, right = ax.get_xlim()
    assert left > right  # the earliest year on the left, the year before the event on the right
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(n) for n in range(8, 0, -1)]
    assert all(t.get_text().endswith("%") for t in ax.get_yticklabels() if t.get_text())
    assert ax.get_xlabel() == "fiscal years before the proceeding was opened"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "0 %" in legend and "middle half of the companies" in legend
    assert {c.get_gid() for c in ax.collections} == {"equity_ratio|spread", "net_margin|spread"}
    with pytest.raises(ValidationError, match="needs the column .closed_on. \\(the event.s date"):
        ratios_before(table, "closed_on")
    with pytest.raises(ValueError, match="reference='median'"):
        ratios_before(table, reference="median")  # the lines are medians already: no "median of 2 companies"
