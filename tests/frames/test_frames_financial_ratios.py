"""The five financial ratios on hand-built rows: an empty item of a full report is zero, a short report's is unknown.

Every expected value below is worked out by hand from the row's numbers (written next to it), not by the code.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from regkit.frames import FINANCIAL_RATIOS, ratios

_MEASURES = (
    "balance_sheet_total",
    "net_income",
    "revenue",
    "equity",
    "liabilities",
    "salaries",
    "ebitda",
    "ebit",
    "interest_expense",
    "financial_debt",
    "cash",
    "trade_receivables",
    "trade_payables",
    "materials",
)


def _frame(*rows: dict[str, Any]) -> pd.DataFrame:
    data: dict[str, Any] = {
        "company_id": [f"C{i}" for i in range(len(rows))],
        "date": pd.to_datetime(["2023-12-31"] * len(rows)),
    }
    for name in _MEASURES:
        data[name] = pd.array([row.get(name) for row in rows], dtype="Float64")
    data["employees"] = pd.array([row.get("employees") for row in rows], dtype="Int64")
    return pd.DataFrame(data)


FULL = {  # a full report: a P&L (ebitda, revenue, materials) and the full balance sheet
    "balance_sheet_total": 1000.0,
    "revenue": 730.0,
    "ebitda": 50.0,
    "ebit": 40.0,
    "interest_expense": -8.0,
    "financial_debt": 120.0,
    "cash": 20.0,
    "trade_receivables": 100.0,
    "trade_payables": 30.0,
    "materials": -365.0,
}


def test_the_ratios_of_a_full_report_with_every_item() -> None:
    out = ratios(_frame(FULL)).iloc[0]
    assert out["ebitda_margin"] == pytest.approx(50 / 730)
    assert out["interest_coverage"] == pytest.approx(5.0)  # 40 / |-8|
    assert out["net_debt_to_ebitda"] == pytest.approx(2.0)  # (120 - 20) / 50
    assert out["days_sales_outstanding"] == pytest.approx(50.0)  # 100 × 365 / 730
    assert out["payables_days"] == pytest.approx(30.0)  # 30 × 365 / |-365|


def test_a_full_report_without_bank_debt_has_net_debt_of_minus_its_cash() -> None:
    out = ratios(_frame({**FULL, "financial_debt": None})).iloc[0]
    assert out["net_debt_to_ebitda"] == pytest.approx(-0.4)  # (0 - 20) / 50


def test_a_full_report_without_receivables_or_payables_has_zero_days() -> None:
    out = ratios(_frame({**FULL, "trade_receivables": None, "trade_payables": None})).iloc[0]
    assert out["days_sales_outstanding"] == 0.0
    assert out["payables_days"] == 0.0
    assert not pd.isna(out["days_sales_outstanding"]) and not pd.isna(out["payables_days"])


def test_a_full_report_without_cash_or_bank_debt_has_no_net_debt() -> None:
    out = ratios(_frame({**FULL, "financial_debt": None, "cash": None})).iloc[0]
    assert out["net_debt_to_ebitda"] == 0.0  # (0 - 0) / 50


def test_a_short_report_keeps_unknown_items_unknown() -> None:
    short = {"balance_sheet_total": 400.0, "cash": 15.0}  # no P&L: a short balance sheet, nothing else known
    out = ratios(_frame(short)).iloc[0]
    for name in FINANCIAL_RATIOS:
        assert pd.isna(out[name]), name


def test_an_unknown_ebitda_keeps_the_net_debt_ratio_unknown_even_with_revenue() -> None:
    # EBITDA unknown: not a full report by the rule, so a missing receivable is unknown too
    row = {**FULL, "ebitda": None, "trade_receivables": None, "financial_debt": None}
    out = ratios(_frame(row)).iloc[0]
    assert pd.isna(out["net_debt_to_ebitda"])
    assert pd.isna(out["days_sales_outstanding"])
    assert out["ebitda_margin"] is pd.NA


def test_full_and_short_rows_side_by_side_and_the_input_is_not_changed() -> None:
    frame = _frame({**FULL, "financial_debt": None}, {"balance_sheet_total": 10.0})
    before = frame.copy()
    out = ratios(frame)
    assert out["net_debt_to_ebitda"].iloc[0] == pytest.approx(-0.4)
    assert pd.isna(out["net_debt_to_ebitda"].iloc[1])
    assert pd.isna(out["financial_debt"].iloc[0])  # the measure itself stays as filed
    pd.testing.assert_frame_equal(frame, before)
    assert all(str(out[name].dtype) == "Float64" for name in FINANCIAL_RATIOS)
