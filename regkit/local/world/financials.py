"""Yearly indicators: realistic sizes, realistic gaps (small firms publish no P&L), distress before insolvency."""

from __future__ import annotations

import random
from datetime import date

from .people import iso, new_uuid

__all__ = ["PUBLISHING_FORMS", "indicator_series"]

#: Legal forms that must publish annual accounts (capital companies, GmbH & Co. KG, cooperatives).
PUBLISHING_FORMS = {"gmbh", "ug", "ggmbh", "ag", "se", "kgaa", "kg", "eg"}

_MONETARY = (
    "balance_sheet_total",
    "net_income",
    "revenue",
    "cash",
    "equity",
    "real_estate",
    "materials",
    "pension_provisions",
    "salaries",
    "taxes",
    "liabilities",
    "capital_reserves",
)
_SMALL_ONLY = {"balance_sheet_total", "cash", "equity", "liabilities", "real_estate", "capital_reserves"}
_FISCAL_YEAR_ENDS = ((12, 31), (12, 31), (12, 31), (12, 31), (12, 31), (12, 31), (6, 30), (9, 30), (3, 31))


def _cents(value: float) -> int:
    return int(round(value * 100))


def indicator_series(
    rng: random.Random,
    legal_form: str,
    first_year: int,
    last_year: int,
    size: str,
    distress_year: int | None,
    as_of: date,
) -> list[dict]:
    """Indicator entries, oldest first, for the fiscal years ``first_year``..``last_year``.

    ``size`` is ``small`` (balance sheet only: revenue, P&L and employees null), ``medium`` or
    ``large``. With ``distress_year`` (the year an insolvency was filed) the three years before it
    show falling revenue, losses and melting equity, and no accounts are published after it.
    A fiscal year is published about a year after it ends, so none ends after ``as_of`` minus one year.
    """
    if legal_form not in PUBLISHING_FORMS:
        return []
    month, day = _FISCAL_YEAR_ENDS[rng.randrange(len(_FISCAL_YEAR_ENDS))]
    base = {"small": 400_000.0, "medium": 9_000_000.0, "large": 150_000_000.0}[size]
    firm = {
        "total": base * rng.lognormvariate(0, 0.6),
        "equity_ratio": rng.uniform(0.12, 0.5),
        "turnover": rng.uniform(0.7, 2.6),
        "margin": rng.uniform(0.01, 0.08),
        "wage": rng.uniform(42_000, 72_000),
    }
    entries: list[dict] = []
    stop = last_year if distress_year is None else min(last_year, distress_year - 1)
    for year in range(first_year, stop + 1):
        period_end = date(year, month, day)
        if period_end.replace(year=period_end.year + 1) > as_of:
            break
        distressed = distress_year is not None and distress_year - year <= 3
        values, employees = _year(rng, firm, size, distressed)
        entries.append(_entry(rng, period_end, values, employees, size))
    return entries


def _entry(rng: random.Random, period_end: date, values: dict, employees: int, size: str) -> dict:
    """One published report: the amounts in cents, null where the firm's size publishes none."""
    entry: dict = {"date": iso(period_end), "report_id": new_uuid(rng)}
    for name in _MONETARY:
        value = values[name]
        published = size != "small" or name in _SMALL_ONLY
        entry[name] = _cents(value) if published and value is not None else None
    entry["employees"] = employees if size == "large" or (size == "medium" and rng.random() < 0.7) else None
    return entry


def _year(rng: random.Random, firm: dict, size: str, distressed: bool) -> tuple[dict, int]:
    """One fiscal year's values in euros (``firm`` carries the balance sheet total, ratios and margin on)."""
    growth = rng.gauss(0.04, 0.07)
    if distressed:
        growth = -rng.uniform(0.08, 0.25)
        firm["equity_ratio"] -= rng.uniform(0.08, 0.2)
        firm["margin"] = -rng.uniform(0.03, 0.15)
    firm["total"] *= 1 + growth
    total, margin = firm["total"], firm["margin"]
    revenue = total * firm["turnover"]
    equity = total * firm["equity_ratio"]
    employees = max(1, int(revenue / rng.uniform(120_000, 260_000)))
    values = {
        "balance_sheet_total": total,
        "net_income": revenue * margin,
        "revenue": revenue,
        "cash": total * rng.uniform(0.02, 0.2) * (0.3 if equity < 0 else 1),
        "equity": equity,
        "real_estate": total * rng.uniform(0.0, 0.4) if rng.random() < 0.5 else None,
        "materials": revenue * rng.uniform(0.2, 0.6),
        "pension_provisions": total * rng.uniform(0.01, 0.08) if size == "large" else None,
        "salaries": employees * firm["wage"],
        "taxes": max(0.0, revenue * margin * 0.3),
        "liabilities": total - equity,
        "capital_reserves": total * rng.uniform(0.0, 0.1) if rng.random() < 0.4 else None,
    }
    return values, employees
