"""The ``statements`` stage: each company's filed annual reports as HGB trees (aktiva, passiva, P&L), on demand.

:func:`company_financials` turns one company record into the answer of ``GET /v1/company/{id}/financials``
(without the presigned ``sources``, which the register signs per request): one report per entry of the
record's ``indicators`` (same ``report_id``, ``report_end_date`` its ``date``), a consolidated report per year
for some group parents, the 48 measures of ``indicators`` read off the rows, and the reports merged across
periods. The layout of the rows is :mod:`regkit.schema.statements`.

**Why no data file.** The reports are a pure function of the company record and the world's seed: every report
draws from its own generator, seeded with ``"regkit-world/<seed>/statements/<company id>/<report date>"`` (a
group's consolidation with ``.../statements/<group id>``), never from another stage's. So the register derives
them when asked, at no start-up cost, ``data/`` stays as it is, and adding this stage reshuffles nothing that
existed. An original report and its correction (same date) share their draws, so they differ only where their
indicators do.

**What the rows reproduce.** The record's 13 indicator members stay exactly as they are and are the rows:
``balance_sheet_total`` is the total of both sides, ``cash`` the Kassenbestand, ``real_estate`` the land and
buildings, ``equity`` the Eigenkapital, ``capital_reserves`` the Kapitalrücklage, ``pension_provisions`` the
pension provisions, ``revenue``/``materials``/``salaries``/``taxes``/``net_income`` the P&L lines of those
names. **``liabilities`` is everything on the passiva side except equity**: B. Rückstellungen (pensions
included) + C. Verbindlichkeiten + D. Rechnungsabgrenzungsposten — in the world, ``equity + liabilities =
balance_sheet_total`` in every year, and the tree shows provisions and Verbindlichkeiten separately.

**Rules every report keeps** (tested over the whole bundled world): a row with children is the sum of its
children; a row whose value is null is an item the filing does not show (an empty item, § 265 (8) HGB) and counts
as nothing in that sum, and a row is null only when it and all its children are; the top rows of aktiva and of
passiva each sum to ``balance_sheet_total``; the P&L's signed lines (:attr:`~regkit.schema.statements.Line.sign`)
add up to its subtotals, and its Jahresüberschuss is the balance sheet's; ``previous_value`` is the previous
report's ``current_value`` of the same row (a company's reports share one row structure); a measure that is
null in the record is a null row.

**Size.** A company whose indicators carry no revenue (the world's *small* companies, which publish no P&L: the
size class below the thresholds of § 267 (1) HGB) files a short balance sheet (§ 266 (1) sentence 3 HGB) and no
P&L (``guv`` null). Every other company files the full balance sheet and a P&L by the Gesamtkostenverfahren.

**What the record's values imply, shown as they are.** Where losses exceed the capital, equity is negative
(about one report in 45 in the bundled world): the Eigenkapital row is negative and ``liabilities`` exceeds the
total. The HGB would show a "nicht durch Eigenkapital gedeckter Fehlbetrag" on the aktiva side instead
(§ 268 (3) HGB); the tree keeps the signed form, so that equity stays the Eigenkapital row. Where the record's
materials, salaries, taxes and net income together exceed revenue (about one P&L in 15), the P&L balances
through *other operating income*; no other amount is bent.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from regkit.schema.interface import DEM_PER_EUR
from regkit.schema.statements import AKTIVA, GUV, INDICATOR_MEASURES, PASSIVA, RECORD_AMOUNTS, ROW_MEASURES, Line

from .people import new_uuid

__all__ = [
    "company_financials",
    "statement_reports",
    "consolidating_groups",
    "indicators_of",
    "merge_reports",
    "is_short_filer",
]

#: Members of a record's indicators that are amounts in cents (all but ``employees``).
_RECORD_AMOUNTS = RECORD_AMOUNTS

#: Share of groups whose parent files consolidated reports, and how much bigger the group is than the parent.
_CONSOLIDATING_SHARE = 0.5
_GROUP_FACTOR = (1.2, 3.0)


def is_short_filer(indicators: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a company files short balance sheets and no P&L: its indicators carry no revenue in any year."""
    return all(entry.get("revenue") is None for entry in indicators)


def _rng(seed: int | str, key: str) -> random.Random:
    """The generator of one report (``key`` is ``<company id>/<date>``) or one group's consolidation."""
    return random.Random(f"regkit-world/{seed}/statements/{key}")


def _cents(value: float) -> int:
    return int(round(value))


def _split(total: int, weights: Sequence[float]) -> list[int]:
    """``total`` cut into parts proportional to ``weights`` (all ≥ 0), summing to ``total`` to the cent."""
    weight = sum(weights)
    if weight <= 0:
        return [total] + [0] * (len(weights) - 1)
    parts = [_cents(total * w / weight) for w in weights]
    parts[max(range(len(parts)), key=lambda i: weights[i])] += total - sum(parts)
    return parts


def _shown(value: int | None) -> int | None:
    """An amount as filed: an empty item (zero) is not shown (§ 265 (8) HGB)."""
    return value if value else None


def _subscribed_capital(company: Mapping[str, Any], period_end: str) -> int | None:
    """The registered share capital on ``period_end`` in cents, converted from DEM where needed."""
    amount = None
    for capital in company.get("capitals") or ():
        if capital.get("start_date") and capital["start_date"] <= period_end and capital.get("amount") is not None:
            value = float(capital["amount"])
            if capital.get("currency") == "DEM":
                value = value / float(DEM_PER_EUR)
            amount = _cents(value * 100)
    return amount


@dataclass(frozen=True)
class _Filer:
    """What a company's reports depend on besides each year's indicators."""

    company: Mapping[str, Any]
    short: bool  # a short balance sheet and no P&L
    group_member: bool  # in a group: owes and is owed by affiliated companies
    group_parent: bool  # files consolidated reports: holds shares in affiliated companies
    key: str  # what the reports are drawn under: the company's id on the world's as_of


def _amounts(rng: random.Random, filer: _Filer, entry: Mapping[str, Any], capital: int | None) -> dict[str, int | None]:
    """The leaf amounts of one report, by German line name (prefixed ``a:``, ``p:``, ``g:`` by statement)."""
    company, short = filer.company, filer.short
    total, equity, cash = entry["balance_sheet_total"], entry["equity"], entry["cash"]
    real_estate = entry.get("real_estate")
    leaves: dict[str, int | None] = {}
    # Aktiva: what is not cash or real estate, cut into fixed assets, current assets and prepaid expenses.
    rest = total - cash - (real_estate or 0)
    fixed_share, accrual_share = rng.uniform(0.15, 0.5), rng.uniform(0.0, 0.02)
    has_investments = rng.random() < (0.8 if filer.group_parent else 0.3)
    fixed, accruals, current = _split(rest, [fixed_share, accrual_share, 1 - fixed_share - accrual_share])
    intangible, tangible, financial = _split(
        fixed, [rng.uniform(0.0, 0.15), rng.uniform(0.4, 1.0), rng.uniform(0.1, 0.6) if has_investments else 0.0]
    )
    inventory, receivables, securities = _split(
        current, [rng.uniform(0.1, 0.6), rng.uniform(0.3, 0.9), rng.uniform(0.0, 0.1) if rng.random() < 0.2 else 0.0]
    )
    leaves["a:Immaterielle Vermögensgegenstände"] = _shown(intangible)
    leaves["a:Grundstücke, grundstücksgleiche Rechte und Bauten"] = real_estate
    machines, equipment = _split(tangible, [rng.uniform(0.2, 0.7), rng.uniform(0.3, 0.8)])
    if short:
        leaves["a:Übrige Sachanlagen"] = _shown(tangible)
        leaves["a:Finanzanlagen"] = _shown(financial)
        leaves["a:Forderungen und sonstige Vermögensgegenstände"] = _shown(receivables)
    else:
        leaves["a:Technische Anlagen und Maschinen"] = _shown(machines)
        leaves["a:Andere Anlagen, Betriebs- und Geschäftsausstattung"] = _shown(equipment)
        affiliated_shares, investments = _split(financial, [rng.uniform(0.3, 1.0), rng.uniform(0.0, 0.7)])
        leaves["a:Anteile an verbundenen Unternehmen"] = _shown(affiliated_shares)
        leaves["a:Beteiligungen und sonstige Finanzanlagen"] = _shown(investments)
        trade, group, other = _split(
            receivables,
            [rng.uniform(0.5, 0.9), rng.uniform(0.0, 0.3) if has_investments else 0.0, rng.uniform(0.05, 0.3)],
        )
        leaves["a:Forderungen aus Lieferungen und Leistungen"] = _shown(trade)
        leaves["a:Forderungen gegen verbundene Unternehmen"] = _shown(group)
        leaves["a:Sonstige Vermögensgegenstände"] = _shown(other)
    leaves["a:Vorräte"] = _shown(inventory)
    leaves["a:Wertpapiere"] = _shown(securities)
    leaves["a:Kassenbestand, Guthaben bei Kreditinstituten und Schecks"] = cash
    leaves["a:Rechnungsabgrenzungsposten"] = _shown(accruals)
    # Passiva, equity: the registered capital, the capital reserves, the year's result, and reserves or a
    # carry-forward for the rest (a loss carried forward is negative).
    reserves = entry.get("capital_reserves")
    net_income = None if short else entry["net_income"]
    subscribed = capital if capital is not None else _cents(max(abs(equity), total // 20) * rng.uniform(0.05, 0.4))
    remainder = equity - subscribed - (reserves or 0) - (net_income or 0)
    retained = _cents(max(remainder, 0) * rng.uniform(0.0, 1.0))
    leaves["p:Gezeichnetes Kapital"] = subscribed
    leaves["p:Kapitalrücklage"] = reserves
    leaves["p:Gewinnrücklagen"] = _shown(retained)
    if short:
        leaves["p:Bilanzgewinn/Bilanzverlust"] = remainder - retained
    else:
        leaves["p:Gewinnvortrag/Verlustvortrag"] = remainder - retained
        leaves["p:Jahresüberschuss/Jahresfehlbetrag"] = net_income
    # Passiva, the rest (``liabilities``): provisions, Verbindlichkeiten, deferred income.
    liabilities = total - equity
    pensions = entry.get("pension_provisions")
    free = liabilities - (pensions or 0)
    taxes_provided, other_provisions, deferred = (
        _cents(free * rng.uniform(0.0, 0.05)),
        _cents(free * rng.uniform(0.03, 0.15)),
        _cents(free * rng.uniform(0.0, 0.02)),
    )
    debts = free - taxes_provided - other_provisions - deferred
    leaves["p:Rechnungsabgrenzungsposten"] = _shown(deferred)
    if short:
        leaves["p:Rückstellungen"] = _shown(taxes_provided + other_provisions)
        leaves["p:Verbindlichkeiten"] = _shown(debts)
    else:
        leaves["p:Rückstellungen für Pensionen und ähnliche Verpflichtungen"] = pensions
        leaves["p:Steuerrückstellungen"] = _shown(taxes_provided)
        leaves["p:Sonstige Rückstellungen"] = _shown(other_provisions)
        lends = company.get("legal_form") in {"gmbh", "ug", "ggmbh"} and rng.random() < 0.3
        bank, trade_payables, group_debts, shareholder, other_debts = _split(
            debts,
            [
                rng.uniform(0.1, 0.6),
                rng.uniform(0.15, 0.5),
                rng.uniform(0.0, 0.3) if filer.group_member else 0.0,
                rng.uniform(0.02, 0.15) if lends else 0.0,
                rng.uniform(0.05, 0.25),
            ],
        )
        leaves["p:Verbindlichkeiten gegenüber Kreditinstituten"] = _shown(bank)
        leaves["p:Verbindlichkeiten aus Lieferungen und Leistungen"] = _shown(trade_payables)
        leaves["p:Verbindlichkeiten gegenüber verbundenen Unternehmen"] = _shown(group_debts)
        leaves["p:Verbindlichkeiten gegenüber Gesellschaftern"] = _shown(shareholder)
        leaves["p:Sonstige Verbindlichkeiten"] = _shown(other_debts)
        leaves.update(_pl_amounts(rng, entry, bank, cash, intangible + tangible, financial, inventory))
    return leaves


def _pl_amounts(
    rng: random.Random, entry: Mapping[str, Any], bank: int, cash: int, depreciable: int, financial: int, stock: int
) -> dict[str, int | None]:
    """The P&L lines of one report (``g:`` + German name), as filed: expenses positive."""
    revenue, materials, salaries = entry["revenue"], entry["materials"], entry["salaries"]
    taxes, net_income = entry["taxes"], entry["net_income"]
    change = _cents(revenue * rng.uniform(-0.02, 0.02)) if stock else 0
    depreciation = _cents(depreciable * rng.uniform(0.06, 0.2))
    interest_income = _cents(cash * rng.uniform(0.0, 0.02))
    interest_expense = _cents(bank * rng.uniform(0.02, 0.06))
    write_down = _cents(financial * rng.uniform(0.01, 0.1)) if financial and rng.random() < 0.1 else 0
    other_taxes = _cents(revenue * rng.uniform(0.0005, 0.003))
    # The result before the other operating items; other operating expenses (or, where the record's own
    # amounts leave too little, other operating income) balance the P&L to the record's net income.
    known = revenue + change - materials - salaries - depreciation + interest_income
    known -= write_down + interest_expense + taxes + other_taxes
    gap = known - net_income
    if gap >= 0:
        other_income = _cents(revenue * rng.uniform(0.005, 0.03))
        other_expenses = gap + other_income
    else:
        other_expenses = _cents(revenue * rng.uniform(0.02, 0.06))
        other_income = other_expenses - gap
    raw, services = _split(materials, [rng.uniform(0.5, 0.9), rng.uniform(0.1, 0.5)])
    wages, social = _split(salaries, [0.8, 0.2])
    after_tax = net_income + other_taxes
    return {
        "g:Umsatzerlöse": revenue,
        "g:Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen": _shown(change),
        "g:Sonstige betriebliche Erträge": _shown(other_income),
        "g:Aufwendungen für Roh-, Hilfs- und Betriebsstoffe und für bezogene Waren": raw,
        "g:Aufwendungen für bezogene Leistungen": _shown(services),
        "g:Löhne und Gehälter": wages,
        "g:Soziale Abgaben und Aufwendungen für Altersversorgung und für Unterstützung": _shown(social),
        "g:Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen": _shown(
            depreciation
        ),
        "g:Sonstige betriebliche Aufwendungen": _shown(other_expenses),
        "g:Sonstige Zinsen und ähnliche Erträge": _shown(interest_income),
        "g:Abschreibungen auf Finanzanlagen und auf Wertpapiere des Umlaufvermögens": _shown(write_down),
        "g:Zinsen und ähnliche Aufwendungen": _shown(interest_expense),
        "g:Steuern vom Einkommen und vom Ertrag": taxes,
        "g:Ergebnis nach Steuern": after_tax,
        "g:Sonstige Steuern": _shown(other_taxes),
        "g:Jahresüberschuss/Jahresfehlbetrag": net_income,
    }


def _rows(lines: Sequence[Line], leaves: Mapping[str, int | None], prefix: str, short: bool) -> list[dict]:
    """Report rows of ``lines`` (values from ``leaves``; a row with children is their sum)."""
    rows = []
    for line in lines:
        if not line.in_form(short):
            continue
        children = _rows(line.children, leaves, prefix, short)
        if children:
            known = [child["current_value"] for child in children if child["current_value"] is not None]
            value = sum(known) if known else None
        else:
            value = leaves.get(prefix + line.name)
        rows.append(
            {
                "name": line.name,
                "formatted_name": line.formatted_name,
                "current_value": value,
                "previous_value": None,
                "children": children,
            }
        )
    return rows


def _start_date(company: Mapping[str, Any], end: str) -> str | None:
    """One year before ``end`` plus a day; null for a short first year (begun after the company was founded)."""
    day = date.fromisoformat(end)
    try:
        start = day.replace(year=day.year - 1) + timedelta(days=1)
    except ValueError:  # 29 February
        start = day.replace(year=day.year - 1, day=28) + timedelta(days=1)
    founded = company.get("incorporated_at")
    if founded and start.isoformat() < founded:
        return None
    return start.isoformat()


def _link_previous(reports: list[dict]) -> None:
    """Set each row's ``previous_value``: the same row of the latest report with an earlier end date."""
    previous: dict[str, dict] | None = None
    latest: dict[str, dict] | None = None
    current_date = None
    for report in reports:
        if report["report_end_date"] != current_date:
            previous, current_date = latest, report["report_end_date"]
        for member in ("aktiva", "passiva", "guv"):
            if report[member] is None:
                continue
            before = previous[member]["rows"] if previous and previous[member] else None
            _link_rows(report[member]["rows"], before)
        latest = report


def _link_rows(rows: list[dict], before: list[dict] | None) -> None:
    by_name = {row["name"]: row for row in before or ()}
    for row in rows:
        match = by_name.get(row["name"])
        row["previous_value"] = match["current_value"] if match else None
        _link_rows(row["children"], match["children"] if match else None)


def _report(filer: _Filer, entry: Mapping[str, Any], seed: int | str, *, report_id: str) -> dict:
    """One report of ``filer`` from one year's indicators ``entry`` (its own generator: company and date)."""
    company, short = filer.company, filer.short
    rng = _rng(seed, f"{filer.key}/{entry['date']}")
    leaves = _amounts(rng, filer, entry, _subscribed_capital(company, entry["date"]))
    return {
        "report_id": report_id,
        "report_start_date": _start_date(company, entry["date"]),
        "report_end_date": entry["date"],
        "consolidated": False,
        "aktiva": {"rows": _rows(AKTIVA, leaves, "a:", short)},
        "passiva": {"rows": _rows(PASSIVA, leaves, "p:", short)},
        "guv": None if short else {"rows": _rows(GUV, leaves, "g:", short)},
    }


def consolidating_groups(groups: Sequence[Mapping[str, Any]], seed: int | str) -> dict[str, tuple[str, float]]:
    """The group parents that file consolidated reports: parent id → (group id, group size factor).

    About half of the world's groups (``world.json``'s ``groups``), decided per group by its own generator; the
    factor (1.2–3) is how much bigger the group's amounts are than the parent's own.
    """
    chosen: dict[str, tuple[str, float]] = {}
    for group in groups:
        rng = _rng(seed, str(group["id"]))
        if rng.random() < _CONSOLIDATING_SHARE and len(group.get("members", ())) > 1:
            chosen[group["organtraeger"]] = (str(group["id"]), rng.uniform(*_GROUP_FACTOR))
    return chosen


def _scaled(entry: Mapping[str, Any], factor: float) -> dict[str, Any]:
    """A group's indicators from its parent's: every amount times ``factor``, equity + liabilities = total."""
    scaled = dict(entry)
    for name in _RECORD_AMOUNTS:
        if entry.get(name) is not None:
            scaled[name] = _cents(entry[name] * factor)
    scaled["liabilities"] = scaled["balance_sheet_total"] - scaled["equity"]
    return scaled


def statement_reports(
    company: Mapping[str, Any],
    seed: int | str,
    *,
    group_members: frozenset[str] = frozenset(),
    consolidation: tuple[str, float] | None = None,
    key: str | None = None,
) -> list[dict]:
    """A company's filed reports, oldest first (a correction after the report it corrects), consolidated last.

    Parameters
    ----------
    company : mapping
        The company record (``id``, ``legal_form``, ``capitals``, ``incorporated_at``, ``indicators``).
    seed : int or str
        The world's seed.
    group_members : frozenset of str
        The ids of every company in some group (they owe and are owed by affiliated companies).
    consolidation : tuple or None
        ``(group id, factor)`` when the company is a group parent that files consolidated reports.
    key : str, optional
        The id the company had on the world's ``as_of`` (default: its id), which the reports are drawn under and
        group membership is known by: a company that moved to another court's district since keeps its reports.

    Returns
    -------
    list of dict
        Reports as the financials answer has them, without ``sources``.
    """
    indicators = sorted(company.get("indicators") or (), key=lambda entry: entry["date"])  # stable: corrections last
    if not indicators:
        return []
    key = company["id"] if key is None else key
    filer = _Filer(company, is_short_filer(indicators), key in group_members, consolidation is not None, key)
    own = [_report(filer, entry, seed, report_id=entry["report_id"]) for entry in indicators]
    _link_previous(own)
    if consolidation is None:
        return own
    group_id, factor = consolidation
    ids = _rng(seed, f"{group_id}/report-ids")
    group = []
    for entry in indicators:
        report = _report(filer, _scaled(entry, factor), seed, report_id=new_uuid(ids))
        report["consolidated"] = True
        group.append(report)
    _link_previous(group)
    return own + group


def _values(rows: Sequence[Mapping[str, Any]], into: dict[str, int | None]) -> dict[str, int | None]:
    """Every row's value by its name (names are unique within a statement)."""
    for row in rows:
        into[row["name"]] = row["current_value"]
        _values(row["children"], into)
    return into


def indicators_of(report: Mapping[str, Any], employees: int | None) -> dict[str, Any]:
    """The 48 measures of one report, read off its rows (``employees`` is the record's, not a row).

    A measure whose row is null is null; the derived ones (``ebit``, ``ebitda``, ``gross_profit``,
    ``income_before_tax``, ``liabilities``, ``financial_debt``) are sums of rows, null without a P&L. Banks'
    commission income and expense and a group's parent share of net income are null (no row carries them).
    """
    tables = {member: (report[member] or {"rows": []})["rows"] for member in ("aktiva", "passiva", "guv")}
    by_name = {member: _values(rows, {}) for member, rows in tables.items()}
    values: dict[str, Any] = {}
    for measure, (statement, name) in ROW_MEASURES.items():
        values[measure] = by_name[statement].get(name)
    passiva = tables["passiva"]
    values["balance_sheet_total"] = sum(row["current_value"] or 0 for row in tables["aktiva"])
    values["liabilities"] = sum(row["current_value"] or 0 for row in passiva if row["name"] != "Eigenkapital")
    values["financial_debt"] = values["bank_debt"]
    guv = tables["guv"]
    if guv:
        amount = {row["name"]: row["current_value"] or 0 for row in guv}
        gross = (
            amount["Umsatzerlöse"]
            + amount["Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen"]
            + amount["Sonstige betriebliche Erträge"]
            - amount["Materialaufwand"]
        )
        ebit = (
            gross
            - amount["Personalaufwand"]
            - amount["Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen"]
            - amount["Sonstige betriebliche Aufwendungen"]
        )
        values["gross_profit"] = gross
        values["ebit"] = ebit
        values["ebitda"] = (
            ebit + amount["Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen"]
        )
        values["income_before_tax"] = amount["Ergebnis nach Steuern"] + amount["Steuern vom Einkommen und vom Ertrag"]
    else:
        for measure in ("gross_profit", "ebit", "ebitda", "income_before_tax"):
            values[measure] = None
    values["employees"] = employees
    out: dict[str, Any] = {"date": report["report_end_date"], "report_id": report["report_id"]}
    out.update({measure: values.get(measure) for measure in INDICATOR_MEASURES})
    return out


def merge_reports(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The reports' tables merged across periods: each row's ``values`` maps end date → cents (nulls left out).

    Where two reports share an end date (a report and its correction), the later one in ``reports`` wins.
    ``None`` when there are no reports.
    """
    if not reports:
        return None
    merged: dict[str, Any] = {}
    for member in ("aktiva", "passiva", "guv"):
        tables = [(r["report_end_date"], r[member]["rows"]) for r in reports if r[member] is not None]
        merged[member] = {"rows": _merge_rows(tables)} if tables else None
    return merged


def _merge_rows(tables: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> list[dict]:
    order: dict[str, dict] = {}
    for period, rows in tables:
        for row in rows:
            target = order.setdefault(
                row["name"],
                {"name": row["name"], "formatted_name": row["formatted_name"], "values": {}, "_children": []},
            )
            if row["current_value"] is not None:
                target["values"][period] = row["current_value"]
            elif period in target["values"]:
                del target["values"][period]
            target["_children"].append((period, row["children"]))
    out = []
    for target in order.values():
        children = _merge_rows(target.pop("_children"))
        target["values"] = dict(sorted(target["values"].items()))
        out.append({**target, "children": children})
    return out


def company_financials(
    company: Mapping[str, Any],
    seed: int | str,
    *,
    group_members: frozenset[str] = frozenset(),
    consolidation: tuple[str, float] | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """The financials answer of ``company`` without ``sources``: ``indicators`` (latest first), ``reports``
    (latest first, consolidated after the company's own of the same date) and ``merged`` (the company's own
    reports; null without reports).

    Parameters are those of :func:`statement_reports`.
    """
    reports = statement_reports(company, seed, group_members=group_members, consolidation=consolidation, key=key)
    own = [report for report in reports if not report["consolidated"]]
    employees = {entry["report_id"]: entry.get("employees") for entry in company.get("indicators") or ()}
    indicators = [indicators_of(report, employees.get(report["report_id"])) for report in own]
    # latest first: of one date, a correction before the report it corrects, the consolidated report last
    ordered = sorted(reports, key=lambda report: (report["report_end_date"], not report["consolidated"]))[::-1]
    return {
        "indicators": indicators[::-1],
        "reports": ordered,
        "merged": merge_reports(own),
    }
