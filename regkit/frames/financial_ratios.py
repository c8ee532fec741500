"""Financial ratios from an indicators frame.

Every ratio is null (<NA>) where an input is unknown or the denominator is zero — never 0, never ±inf. Negative
denominators are kept (negative equity gives a negative liabilities-to-equity ratio: that is the fact).

Revenue growth compares a report with the company's report of the *previous year*: the latest revision of
the nearest earlier date, if that date lies 300 to 430 days earlier (a year, allowing for shifted year
ends). After a gap, or against a short fiscal year, growth is null rather than a misleading multi-year or
part-year figure.

The five :data:`FINANCIAL_RATIOS` need measures only a financials answer has (``client.get_financials``;
:func:`regkit.frames.indicators` of it has all 48); :func:`ratios` adds them when the frame has their inputs.
Expenses (``interest_expense``, ``materials``) are taken by their magnitude, whichever sign a filing gives
them, so that a coverage or a number of days is positive when the business is. A year is 365 days.

**An empty item is zero in a full report.** A report with a P&L (a full report: its ``ebitda`` is not null)
shows the full balance sheet, where an item the filing does not show is an empty item — zero (§ 265 (8) HGB).
So in such a row a null ``financial_debt``, ``cash``, ``trade_receivables`` or ``trade_payables`` counts as
0: no bank debt gives a ``net_debt_to_ebitda`` of −cash / EBITDA, no receivables a ``days_sales_outstanding``
of 0. In a short report (no P&L: ``ebitda`` null) those measures are unknown, and the ratios stay <NA>.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from regkit.errors import ArgumentError, ValidationError

__all__ = ["FINANCIAL_RATIOS", "FINANCIAL_RATIO_INPUTS", "RATIOS", "ratios"]

RATIOS = (
    "equity_ratio",
    "net_margin",
    "return_on_assets",
    "revenue_growth",
    "liabilities_to_equity",
    "salaries_per_employee",
)

FINANCIAL_RATIOS = (
    "ebitda_margin",
    "interest_coverage",
    "net_debt_to_ebitda",
    "days_sales_outstanding",
    "payables_days",
)
"""The ratios of the 48-measure indicators of a financials answer (added by :func:`ratios` when present)."""

FINANCIAL_RATIO_INPUTS = (
    "ebitda",
    "ebit",
    "interest_expense",
    "financial_debt",
    "cash",
    "trade_receivables",
    "trade_payables",
    "materials",
    "revenue",
)
"""The measures :data:`FINANCIAL_RATIOS` are computed from (most only a financials answer has)."""

_BALANCE_SHEET_ITEMS = ("financial_debt", "cash", "trade_receivables", "trade_payables")
"""Inputs that are items of the full balance sheet: zero where a full report does not show them."""

_DAYS_PER_YEAR = 365
_GROWTH_DAYS = (300, 430)


def _values(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    array = series.array
    return array.to_numpy(dtype=np.float64, na_value=0.0), np.asarray(array.isna(), dtype=bool)


def _divide(frame: pd.DataFrame, numerator: str, denominator: str) -> pd.arrays.FloatingArray:
    top, top_na = _values(frame[numerator])
    bottom, bottom_na = _values(frame[denominator])
    mask = top_na | bottom_na | (bottom == 0)
    out = np.divide(top, bottom, out=np.zeros_like(top), where=~mask)
    return pd.arrays.FloatingArray(out, mask)


def _magnitude(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name].astype("Float64").abs()


def _financial_ratios(out: pd.DataFrame) -> None:
    """Add :data:`FINANCIAL_RATIOS` to ``out`` in place (it has every column of ``FINANCIAL_RATIO_INPUTS``)."""
    work = pd.DataFrame(index=out.index)
    work["ebitda"] = out["ebitda"].astype("Float64")
    full = work["ebitda"].notna()  # a report with a P&L shows the full balance sheet: an empty item is zero
    item = {name: out[name].astype("Float64").mask(full & out[name].isna(), 0.0) for name in _BALANCE_SHEET_ITEMS}
    work["ebit"] = out["ebit"].astype("Float64")
    work["revenue"] = out["revenue"].astype("Float64")
    work["interest"] = _magnitude(out, "interest_expense")
    work["materials"] = _magnitude(out, "materials")
    work["net_debt"] = item["financial_debt"] - item["cash"]
    work["receivable_days"] = item["trade_receivables"] * _DAYS_PER_YEAR
    work["payable_days"] = item["trade_payables"] * _DAYS_PER_YEAR
    out["ebitda_margin"] = _divide(work, "ebitda", "revenue")
    out["interest_coverage"] = _divide(work, "ebit", "interest")
    out["net_debt_to_ebitda"] = _divide(work, "net_debt", "ebitda")
    out["days_sales_outstanding"] = _divide(work, "receivable_days", "revenue")
    out["payables_days"] = _divide(work, "payable_days", "materials")


def _previous_revenue(frame: pd.DataFrame) -> pd.arrays.FloatingArray:
    """For each row, the revenue of the same company's previous-year report (latest revision)."""
    keys = frame[["company_id", "date"]].copy()
    keys["_row"] = np.arange(len(frame))
    keys["_revenue"] = frame["revenue"].astype("Float64")
    latest = keys if "is_latest_revision" not in frame else keys[frame["is_latest_revision"].to_numpy(bool)]
    latest = latest.drop_duplicates(["company_id", "date"], keep="last").dropna(subset=["date"])
    latest = latest.rename(columns={"date": "_prev_date", "_revenue": "_prev_revenue"}).drop(columns="_row")
    rows = keys.dropna(subset=["date"]).sort_values("date", kind="stable")
    merged = pd.merge_asof(
        rows,
        latest.sort_values("_prev_date", kind="stable"),
        left_on="date",
        right_on="_prev_date",
        by="company_id",
        allow_exact_matches=False,
    )
    gap = (merged["date"] - merged["_prev_date"]).dt.days
    ok = gap.between(*_GROWTH_DAYS).fillna(False).to_numpy(bool)
    values, missing = _values(merged["_prev_revenue"])
    out, mask = np.zeros(len(frame)), np.ones(len(frame), dtype=bool)
    positions = merged["_row"].to_numpy()[ok]
    out[positions], mask[positions] = values[ok], missing[ok]
    return pd.arrays.FloatingArray(out, mask)


#: The indicator columns :func:`ratios` divides (a frame without them is not an indicators frame).
_NEEDED = ("equity", "balance_sheet_total", "net_income", "revenue", "liabilities", "salaries", "employees")


def ratios(indicators_frame: pd.DataFrame) -> pd.DataFrame:
    """The indicators frame with six ratios added, and five more where it has the 48 measures.

    Parameters
    ----------
    indicators_frame : pandas.DataFrame
        A wide frame of :func:`regkit.frames.indicators` (EUR or cents), or any frame with its columns
        ``company_id``, ``date``, ``balance_sheet_total``, ``net_income``, ``revenue``, ``equity``,
        ``liabilities``, ``salaries`` and ``employees``.

    Returns
    -------
    pandas.DataFrame
        A new frame: the input's columns, then (all ``Float64``, <NA> where an input is null or a denominator
        is zero):

        ======================  ==================================================================
        equity_ratio            equity / balance_sheet_total
        net_margin              net_income / revenue
        return_on_assets        net_income / balance_sheet_total
        revenue_growth          revenue / previous-year revenue − 1 (see the module docstring)
        liabilities_to_equity   liabilities / equity
        salaries_per_employee   salaries / employees, in the frame's unit (EUR or cents)
        ======================  ==================================================================

        When the frame has the 48 measures of a financials answer (``ebitda``, ``ebit``,
        ``interest_expense``, ``financial_debt``, ``cash``, ``trade_receivables``, ``trade_payables``,
        ``materials``, ``revenue``), also the :data:`FINANCIAL_RATIOS` (``Float64``, <NA> — never ±inf —
        where an input is null or a denominator is zero; in a full report, one whose ``ebitda`` is not null, a
        null ``financial_debt``, ``cash``, ``trade_receivables`` or ``trade_payables`` is an empty item of the
        balance sheet and counts as 0, § 265 (8) HGB — see the module docstring):

        ======================  ==================================================================
        ebitda_margin           ebitda / revenue
        interest_coverage       ebit / abs(interest_expense) (times the interest is earned)
        net_debt_to_ebitda      (financial_debt − cash) / ebitda (years of EBITDA to repay the net
                                debt; negative where cash exceeds the debt, or EBITDA is negative)
        days_sales_outstanding  trade_receivables / revenue × 365 (days of sales not yet paid)
        payables_days           trade_payables / abs(materials) × 365 (days of purchases not yet paid;
                                the cost of materials stands for the purchases)
        ======================  ==================================================================

    Examples
    --------
    >>> frame = pd.DataFrame({"company_id": ["A", "A"], "date": pd.to_datetime(["2022-12-31", "2023-12-31"]),
    ...     "balance_sheet_total": pd.array([200.0, 0.0], dtype="Float64"),
    ...     "net_income": pd.array([10.0, 12.0], dtype="Float64"),
    ...     "revenue": pd.array([100.0, 120.0], dtype="Float64"),
    ...     "equity": pd.array([50.0, None], dtype="Float64"),
    ...     "liabilities": pd.array([150.0, 160.0], dtype="Float64"),
    ...     "salaries": pd.array([40.0, 44.0], dtype="Float64"), "employees": pd.array([2, 0], dtype="Int64")})
    >>> ratios(frame)[["equity_ratio", "net_margin", "revenue_growth", "salaries_per_employee"]]
       equity_ratio  net_margin  revenue_growth  salaries_per_employee
    0          0.25         0.1            <NA>                   20.0
    1          <NA>         0.1             0.2                   <NA>
    """
    if not isinstance(indicators_frame, pd.DataFrame):
        raise ArgumentError(
            f"ratios() takes the frame regkit.frames.indicators returned, not {type(indicators_frame).__name__}",
            suggestion="pass regkit.frames.indicators(record) (a company record or client.get_financials(id))",
        )
    if "measure" in indicators_frame:
        raise ValidationError(
            "ratios needs the wide indicators frame", suggestion="pass indicators(..., wide=True), the default"
        )
    lacking = [c for c in _NEEDED if c not in indicators_frame.columns]
    if lacking:
        raise ValidationError(
            f"ratios needs a frame of regkit.frames.indicators; this one lacks {lacking}",
            suggestion="pass regkit.frames.indicators(record) (a company record or client.get_financials(id))",
        )
    out = indicators_frame.copy()
    out["equity_ratio"] = _divide(out, "equity", "balance_sheet_total")
    out["net_margin"] = _divide(out, "net_income", "revenue")
    out["return_on_assets"] = _divide(out, "net_income", "balance_sheet_total")
    previous = indicators_frame[[]].copy()
    previous["revenue"] = indicators_frame["revenue"].astype("Float64")
    previous["previous"] = _previous_revenue(indicators_frame)
    growth = _divide(previous, "revenue", "previous")
    out["revenue_growth"] = growth - 1
    out["liabilities_to_equity"] = _divide(out, "liabilities", "equity")
    out["salaries_per_employee"] = _divide(out, "salaries", "employees")
    if all(name in out for name in FINANCIAL_RATIO_INPUTS):
        _financial_ratios(out)
    return out
