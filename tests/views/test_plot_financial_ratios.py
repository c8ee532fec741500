"""``regkit.plot.ratios`` of what ``client.get_financials`` returns: the record and its ``fin.ratios()`` draw the same
lines, every ratio of ``fin.ratios()`` draws, each in its unit (percent, ×, days), with a reference line only where
there is a yardstick.

Expected values are read from ``fin.ratios()`` (the frame builder's, not the plot's) and, for interest coverage,
from the answer's own indicators, in cents.
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import regkit.plot
from regkit.errors import ValidationError
from regkit.frames import FINANCIAL_RATIOS, RATIOS

TOP = "DE-HRB-R2103-65834"  # Luxlog Holding AG: 17 full reports, 2008-2024

#: Each ratio of fin.ratios() → the unit its axis is labelled in, and the factor from the frame's value to the drawn.
UNITS = {
    "equity_ratio": ("%", 100.0),
    "net_margin": ("%", 100.0),
    "return_on_assets": ("%", 100.0),
    "revenue_growth": ("%", 100.0),
    "liabilities_to_equity": ("%", 100.0),
    "ebitda_margin": ("%", 100.0),
    "interest_coverage": ("×", 1.0),
    "net_debt_to_ebitda": ("×", 1.0),
    "days_sales_outstanding": ("days", 1.0),
    "payables_days": ("days", 1.0),
    "salaries_per_employee": ("€k", 1.0),
}


@pytest.fixture
def fin(client: Any) -> Any:
    return client.get_financials(TOP)


def _fiscal_year(day: Any) -> int:
    return day.year - 1 if day.month <= 5 else day.year


def _expected(fin: Any, ratio: str) -> tuple[list[int], list[float]]:
    """x and y of the ratio's line, read from ``fin.ratios()``: latest revisions, date order, NaN for <NA>."""
    frame = fin.ratios()
    rows = frame[frame["is_latest_revision"].to_numpy(bool)].sort_values("date")
    factor = UNITS[ratio][1]
    ys = [math.nan if pd.isna(v) else float(v) * factor for v in rows[ratio].astype(object)]
    return [_fiscal_year(d) for d in rows["date"]], ys


def _line(ax: Any, ratio: str) -> Any:
    (line,) = [line for line in ax.get_lines() if line.get_gid() == f"{TOP}|{ratio}"]
    return line


def test_every_ratio_of_the_frame_is_one_the_plot_draws() -> None:
    assert set(UNITS) == {*RATIOS, *FINANCIAL_RATIOS}


@pytest.mark.parametrize("ratio", sorted(UNITS))
def test_the_record_and_its_ratios_frame_draw_the_frames_values(fin: Any, ratio: str) -> None:
    from_record = _line(regkit.plot.ratios(fin, ratio), ratio)
    from_frame = _line(regkit.plot.ratios(fin.ratios(), ratio), ratio)
    xs, ys = _expected(fin, ratio)
    assert len(xs) == 17 and np.isfinite(ys).sum() >= 16  # the company's reports, with values (growth: not the first)
    for line in (from_record, from_frame):
        np.testing.assert_array_equal(np.asarray(line.get_xdata(), dtype=int), xs)
        np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), ys, rtol=1e-12, equal_nan=True)


def test_interest_coverage_is_ebit_over_the_interest_as_filed(fin: Any) -> None:
    by_date = {entry["date"]: entry for entry in fin.raw["indicators"]}  # one report per date for this company
    days = sorted(by_date)
    expected = [by_date[d]["ebit"] / abs(by_date[d]["interest_expense"]) for d in days]  # cents over cents
    ax = regkit.plot.ratios(fin, "interest_coverage")
    np.testing.assert_allclose(_line(ax, "interest_coverage").get_ydata(), expected, rtol=1e-9)
    assert _line(ax, "interest_coverage").get_xdata().tolist() == [int(d[:4]) for d in days]


@pytest.mark.parametrize("ratio", sorted(FINANCIAL_RATIOS))
def test_each_of_the_five_draws_with_its_unit_on_the_axis(fin: Any, ratio: str) -> None:
    unit, _ = UNITS[ratio]
    ax = regkit.plot.ratios(fin, ratio)
    ax.figure.canvas.draw()
    assert ax.get_ylabel().endswith(f"({unit})"), ax.get_ylabel()
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    if unit == "%":
        assert all(t.endswith("%") for t in ticks), ticks
    elif unit == "×":
        assert all(t.endswith("×") for t in ticks), ticks
    else:  # days: whole numbers, the axis from zero
        assert all(t.replace(",", "").lstrip("\N{MINUS SIGN}").isdigit() for t in ticks), ticks
        assert ax.get_ylim()[0] == 0.0
    assert TOP in ax.get_title()  # the answer does not name its company: its id does


def test_the_axis_labels_say_the_ratio_in_words(fin: Any) -> None:
    labels = {ratio: regkit.plot.ratios(fin, ratio).get_ylabel() for ratio in FINANCIAL_RATIOS}
    assert labels == {
        "ebitda_margin": "EBITDA margin (%)",
        "interest_coverage": "interest coverage (×)",
        "net_debt_to_ebitda": "net debt / EBITDA (×)",
        "days_sales_outstanding": "days sales outstanding (days)",
        "payables_days": "payables days (days)",
    }


def _reference(ax: Any) -> tuple[str, float] | None:
    found = [(line.get_label(), float(line.get_ydata()[0])) for line in ax.get_lines() if line.get_gid() == "reference"]
    return found[0] if found else None


def test_a_reference_line_only_where_there_is_a_yardstick(fin: Any) -> None:
    assert _reference(regkit.plot.ratios(fin, "ebitda_margin")) == ("0 %: EBITDA break-even", 0.0)
    assert _reference(regkit.plot.ratios(fin, "interest_coverage")) == ("1×: EBIT just covers the interest", 1.0)
    for ratio in ("net_debt_to_ebitda", "days_sales_outstanding", "payables_days"):
        assert _reference(regkit.plot.ratios(fin, ratio)) is None, ratio
    zero = [line for line in regkit.plot.ratios(fin, "net_debt_to_ebitda").get_lines() if line.get_gid() == "zero"]
    assert len(zero) == 1  # below it, cash exceeds the debt
    assert _reference(regkit.plot.ratios(fin, "net_debt_to_ebitda", reference=3)) == ("3×", 3.0)
    assert _reference(regkit.plot.ratios(fin, "payables_days", reference=60)) == ("60 days", 60.0)


def test_ratios_of_one_unit_share_an_axis(fin: Any) -> None:
    ax = regkit.plot.ratios(fin, ["days_sales_outstanding", "payables_days"])
    assert ax.get_ylabel() == "days outstanding (days)"
    assert [line.get_label() for line in ax.get_lines() if "|" in str(line.get_gid())] == [
        "days sales outstanding",
        "payables days",
    ]
    ax = regkit.plot.ratios(fin, ["equity_ratio", "ebitda_margin"])
    assert ax.get_ylabel() == "ratio (%)"


def test_ratios_of_different_units_are_refused_saying_how_to_draw_them_apart(fin: Any) -> None:
    before = set(plt.get_fignums())
    with pytest.raises(ValidationError, match="mix units") as raised:
        regkit.plot.ratios(fin, ["ebitda_margin", "interest_coverage", "payables_days"])
    assert raised.value.message == (
        "ebitda_margin, interest_coverage, payables_days mix units (ebitda_margin in %; interest_coverage in ×; "
        "payables_days in days): one Axes has one unit"
    )
    assert "plt.subplots(2, 1, sharex=True)" in raised.value.suggestion
    assert set(plt.get_fignums()) == before
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True)  # what the suggestion says works
    assert regkit.plot.ratios(fin, "ebitda_margin", ax=top) is top
    assert regkit.plot.ratios(fin, "interest_coverage", ax=bottom) is bottom


def test_a_company_record_cannot_give_the_five(client: Any) -> None:
    company = client.get_company(TOP)
    assert regkit.plot.ratios(company, "equity_ratio").get_ylabel() == "equity ratio (%)"  # as before
    with pytest.raises(ValidationError) as raised:
        regkit.plot.ratios(company, "interest_coverage")
    assert raised.value.message == (
        "interest_coverage needs the 48 measures of a financials answer (a company record carries 13); "
        "got one company (CompanyRecord)"
    )
    assert raised.value.suggestion == "pass client.get_financials(id), or its fin.ratios()"
    with pytest.raises(ValidationError, match="unknown|must name one or more of"):
        regkit.plot.ratios(company, "ebitda")


def test_indicators_takes_the_financials_answer_and_its_48_measures(fin: Any) -> None:
    ax = regkit.plot.indicators(fin, "ebitda")
    by_date = {entry["date"]: entry["ebitda"] for entry in fin.raw["indicators"]}
    np.testing.assert_allclose(_line(ax, "ebitda").get_ydata(), [by_date[d] / 100 for d in sorted(by_date)])
    assert ax.get_ylabel().startswith("ebitda (€")


@pytest.mark.parametrize(
    ("asked", "meant"),
    [("dso", "days_sales_outstanding"), ("equity_ratios", "equity_ratio"), ("DPO", "payables_days")],
)
def test_an_unknown_ratio_name_suggests_the_one_meant(fin: Any, asked: str, meant: str) -> None:
    with pytest.raises(ValidationError) as caught:
        regkit.plot.ratios(fin, ["equity_ratio", asked])
    assert f"{asked!r}: did you mean {meant!r}?" in caught.value.suggestion
    plt.close("all")
