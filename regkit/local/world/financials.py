"""Yearly indicators: realistic sizes, realistic gaps (small firms publish no P&L), distress before insolvency.

A healthy firm's ratios move from year to year around its own level: the equity ratio, the net margin and the
asset turnover (revenue per euro of balance sheet) each follow a mean-reverting random walk (AR(1)), a good
year's margin lifting the equity ratio; the balance sheet total grows by a few percent a year, with noise.
"""

from __future__ import annotations

import math
import random
from datetime import date

from regkit.schema.statements import RECORD_AMOUNTS

from .people import iso, new_uuid

__all__ = ["PUBLISHING_FORMS", "indicator_series"]

#: Legal forms that must publish annual accounts (capital companies, GmbH & Co. KG, cooperatives).
PUBLISHING_FORMS = {"gmbh", "ug", "ggmbh", "ag", "se", "kgaa", "kg", "eg"}

_MONETARY = RECORD_AMOUNTS
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
        "equity_level": rng.uniform(0.12, 0.5),
        "turnover_level": rng.uniform(0.7, 2.6),
        "margin_level": rng.uniform(0.01, 0.08),
        "wage": rng.uniform(42_000, 72_000),
    }
    moves = _moves(firm)
    firm.update(equity_ratio=firm["equity_level"], turnover=firm["turnover_level"], margin=firm["margin_level"])
    firm["volatility"] = moves.uniform(0.6, 1.6)  # how much this firm's ratios move: a few points a year
    entries: list[dict] = []
    stop = last_year if distress_year is None else min(last_year, distress_year - 1)
    for year in range(first_year, stop + 1):
        period_end = date(year, month, day)
        if period_end.replace(year=period_end.year + 1) > as_of:
            break
        distressed = distress_year is not None and distress_year - year <= 3
        values, employees = _year(rng, moves, firm, size, distressed)
        entries.append(_entry(rng, period_end, values, employees, size))
    return entries


def _moves(firm: dict) -> random.Random:
    """The generator of a firm's year-to-year movement, seeded from what the stage drew for the firm.

    The stage's own generator then draws the same numbers whether or not ratios move: which reports exist,
    which amounts are null, report ids and corrections do not depend on the movement. Seeding with a string
    goes through SHA-512, the same in every process (as :func:`~.seeding.stage_rng`).
    """
    return random.Random("regkit-world/accounts-moves/" + repr(tuple(firm.values())))


def _entry(rng: random.Random, period_end: date, values: dict, employees: int, size: str) -> dict:
    """One published report: the amounts in cents, null where the firm's size publishes none."""
    entry: dict = {"date": iso(period_end), "report_id": new_uuid(rng)}
    for name in _MONETARY:
        value = values[name]
        published = size != "small" or name in _SMALL_ONLY
        entry[name] = _cents(value) if published and value is not None else None
    entry["liabilities"] = entry["balance_sheet_total"] - entry["equity"]  # to the cent: equity + liabilities = total
    entry["employees"] = employees if size == "large" or (size == "medium" and rng.random() < 0.7) else None
    return entry


#: Year-to-year movement of a healthy firm's ratios: persistence (AR(1) coefficient) and shock size (at
#: volatility 1) of the equity ratio, the net margin and the log of the asset turnover; how much a margin
#: above the firm's level lifts the equity ratio; the band the equity ratio stays in.
_PERSISTENCE = {"equity_ratio": 0.75, "margin": 0.5, "turnover": 0.6}
_SHOCK = {"equity_ratio": 0.022, "margin": 0.012, "turnover": 0.05}
_RETAINED = 0.6
_EQUITY_BAND = (0.03, 0.92)


def _move(rng: random.Random, firm: dict) -> None:
    """One healthy year: margin, turnover and equity ratio move around the firm's levels (see the module)."""
    scale = firm["volatility"]
    level = firm["margin_level"]
    firm["margin"] = level + _PERSISTENCE["margin"] * (firm["margin"] - level) + rng.gauss(0, _SHOCK["margin"] * scale)
    drift = _PERSISTENCE["turnover"] * math.log(firm["turnover"] / firm["turnover_level"])
    firm["turnover"] = firm["turnover_level"] * math.exp(drift + rng.gauss(0, _SHOCK["turnover"] * scale))
    level = firm["equity_level"]
    ratio = level + _PERSISTENCE["equity_ratio"] * (firm["equity_ratio"] - level)
    ratio += _RETAINED * (firm["margin"] - firm["margin_level"]) + rng.gauss(0, _SHOCK["equity_ratio"] * scale)
    firm["equity_ratio"] = min(max(ratio, _EQUITY_BAND[0]), _EQUITY_BAND[1])


def _year(rng: random.Random, moves: random.Random, firm: dict, size: str, distressed: bool) -> tuple[dict, int]:
    """One fiscal year's values in euros (``firm`` carries the balance sheet total, ratios and margin on).

    ``moves`` draws a healthy year's movement of the ratios (:func:`_moves`), ``rng`` everything else.
    """
    growth = rng.gauss(0.04, 0.07)
    if distressed:
        growth = -rng.uniform(0.08, 0.25)
        firm["equity_ratio"] -= rng.uniform(0.08, 0.2)
        firm["margin"] = -rng.uniform(0.03, 0.15)
    else:
        _move(moves, firm)
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
