"""Hand-made financials answers shaped as the interface specifies them (spec "Financials", the official client's
``CompanyGetFinancialsV1Response``): two years of a mid-sized GmbH with an HGB balance sheet and a P&L, a small
company's short balance sheet without P&L, and a company without reports.

Amounts are written out here in cents, line by line; the subtotals are computed by :func:`node` from the leaves,
so every expectation a test takes from these trees is a sum it can redo itself.
"""

from __future__ import annotations

from typing import Any

__all__ = ["COMPANY", "SMALL", "answer", "small_answer", "empty_answer", "node"]

COMPANY = "DE-HRB-B1234-1"
SMALL = "DE-HRB-F5678-2"


def node(formatted: str, value: int | None, children: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A report row: a leaf with ``value``, or (``value`` None and children) their sum."""
    children = children or []
    if children and value is None:
        value = sum(c["current_value"] for c in children)
    first, _, rest = formatted.partition(" ")
    name = rest if first.endswith(".") else formatted
    return {
        "name": name,
        "formatted_name": formatted,
        "current_value": value,
        "previous_value": None,
        "children": children,
    }


def _year(cash: int, equity_profit: int, bank: int) -> dict[str, Any]:
    aktiva = [
        node(
            "A. Anlagevermögen",
            None,
            [
                node("I. Immaterielle Vermögensgegenstände", 40_000_00),
                node(
                    "II. Sachanlagen",
                    None,
                    [
                        node("1. Grundstücke und Bauten", 900_000_00),
                        node("2. Technische Anlagen und Maschinen", 310_000_00),
                    ],
                ),
            ],
        ),
        node(
            "B. Umlaufvermögen",
            None,
            [
                node("I. Vorräte", 220_000_00),
                node(
                    "II. Forderungen und sonstige Vermögensgegenstände",
                    None,
                    [
                        node("1. Forderungen aus Lieferungen und Leistungen", 180_000_00),
                        node("2. Sonstige Vermögensgegenstände", 20_000_00),
                    ],
                ),
                node("IV. Kassenbestand", cash),
            ],
        ),
        node("C. Rechnungsabgrenzungsposten", 5_000_00),
    ]
    total = sum(r["current_value"] for r in aktiva)
    liabilities = [
        node(
            "B. Rückstellungen",
            None,
            [
                node("1. Rückstellungen für Pensionen und ähnliche Verpflichtungen", 120_000_00),
                node("3. Sonstige Rückstellungen", 30_000_00),
            ],
        ),
        node(
            "C. Verbindlichkeiten",
            None,
            [
                node("2. Verbindlichkeiten gegenüber Kreditinstituten", bank),
                node("4. Verbindlichkeiten aus Lieferungen und Leistungen", 95_000_00),
            ],
        ),
    ]
    owed = sum(r["current_value"] for r in liabilities)
    equity = total - owed
    passiva = [
        node(
            "A. Eigenkapital",
            None,
            [
                node("I. Gezeichnetes Kapital", 25_000_00),
                node("II. Kapitalrücklage", 100_000_00),
                node("III. Gewinnrücklagen", equity - 25_000_00 - 100_000_00 - equity_profit),
                node("V. Jahresüberschuss/Jahresfehlbetrag", equity_profit),
            ],
        ),
        *liabilities,
    ]
    return {"aktiva": {"rows": aktiva}, "passiva": {"rows": passiva}}


def _guv(revenue: int, net: int) -> dict[str, Any]:
    rows = [
        node("1. Umsatzerlöse", revenue),
        node("4. Sonstige betriebliche Erträge", 12_000_00),
        node("5. Materialaufwand", -(revenue * 45 // 100)),
        node("6. Personalaufwand", -(revenue * 25 // 100)),
        node("7. Abschreibungen", -60_000_00),
        node("8. Sonstige betriebliche Aufwendungen", -(revenue * 10 // 100)),
        node("13. Zinsen und ähnliche Aufwendungen", -18_000_00),
    ]
    before_tax = sum(r["current_value"] for r in rows)
    taxes = before_tax - net
    rows.append(node("14. Steuern vom Einkommen und vom Ertrag", -taxes))
    rows.append(node("17. Jahresüberschuss/Jahresfehlbetrag", net))
    return {"rows": rows}


def _previous(table: dict[str, Any], before: dict[str, Any] | None) -> None:
    """Set ``previous_value`` of every row of ``table`` to the same row's value in ``before``."""

    def walk(rows: list[dict[str, Any]], old: list[dict[str, Any]]) -> None:
        by_name = {r["formatted_name"]: r for r in old}
        for row in rows:
            match = by_name.get(row["formatted_name"])
            row["previous_value"] = match["current_value"] if match else None
            walk(row["children"], match["children"] if match else [])

    walk(table["rows"], before["rows"] if before else [])


def _indicators(report: dict[str, Any], date: str, employees: int | None) -> dict[str, Any]:
    flat: dict[str, int] = {}

    def walk(rows: list[dict[str, Any]]) -> None:
        for row in rows:
            flat[row["name"]] = row["current_value"]
            walk(row["children"])

    for statement in ("aktiva", "passiva", "guv"):
        if report.get(statement):
            walk(report[statement]["rows"])
    out: dict[str, Any] = {"date": date, "report_id": report["report_id"], "employees": employees}
    out["balance_sheet_total"] = sum(r["current_value"] for r in report["aktiva"]["rows"])
    out["equity"] = flat["Eigenkapital"]
    out["liabilities"] = out["balance_sheet_total"] - out["equity"]
    out["cash"] = flat["Kassenbestand"]
    out["real_estate"] = flat.get("Grundstücke und Bauten")
    out["capital_reserves"] = flat["Kapitalrücklage"]
    out["pension_provisions"] = flat.get("Rückstellungen für Pensionen und ähnliche Verpflichtungen")
    out["bank_debt"] = out["financial_debt"] = flat.get("Verbindlichkeiten gegenüber Kreditinstituten")
    out["trade_payables"] = flat.get("Verbindlichkeiten aus Lieferungen und Leistungen")
    out["trade_receivables"] = flat.get("Forderungen aus Lieferungen und Leistungen")
    if report.get("guv"):
        revenue = flat["Umsatzerlöse"]
        out["revenue"] = revenue
        out["other_operating_income"] = flat["Sonstige betriebliche Erträge"]
        out["materials"] = -flat["Materialaufwand"]
        out["salaries"] = -flat["Personalaufwand"]
        out["operating_depreciation"] = -flat["Abschreibungen"]
        out["other_operating_expenses"] = -flat["Sonstige betriebliche Aufwendungen"]
        out["interest_expense"] = -flat["Zinsen und ähnliche Aufwendungen"]
        out["taxes"] = -flat["Steuern vom Einkommen und vom Ertrag"]
        out["net_income"] = flat["Jahresüberschuss/Jahresfehlbetrag"]
        out["ebit"] = sum(r["current_value"] for r in report["guv"]["rows"][:6])
        out["ebitda"] = out["ebit"] + out["operating_depreciation"]
        out["income_before_tax"] = out["ebit"] - out["interest_expense"]
    return out


def answer() -> dict[str, Any]:
    """Two fiscal years (2022, 2023) of a GmbH, latest first as the interface sends them."""
    years = [
        ("r-2022", "2022-12-31", 150_000_00, 290_000_00, 400_000_00, 2_400_000_00, 41),
        ("r-2023", "2023-12-31", 90_000_00, 320_000_00, 520_000_00, 2_650_000_00, 44),
    ]
    reports, before = [], None
    for report_id, end, cash, profit, bank, revenue, _ in years:
        report = {
            "report_id": report_id,
            "report_start_date": end[:4] + "-01-01",
            "report_end_date": end,
            "consolidated": False,
            "sources": [],
            **_year(cash, profit, bank),
            "guv": _guv(revenue, profit),
        }
        for statement in ("aktiva", "passiva", "guv"):
            _previous(report[statement], before[statement] if before else None)
        reports.append(report)
        before = report
    indicators = [_indicators(r, y[1], y[6]) for r, y in zip(reports, years)]
    return {"indicators": indicators[::-1], "reports": reports[::-1], "merged": None}


def small_answer() -> dict[str, Any]:
    """A small company's short balance sheet (top rows only) and no P&L."""
    report = {
        "report_id": "s-2023",
        "report_start_date": None,
        "report_end_date": "2023-06-30",
        "consolidated": False,
        "sources": [],
        "guv": None,
        "aktiva": {"rows": [node("A. Anlagevermögen", 10_000_00), node("B. Umlaufvermögen", 32_500_50)]},
        "passiva": {"rows": [node("A. Eigenkapital", -4_000_00), node("C. Verbindlichkeiten", 46_500_50)]},
    }
    indicator = {
        "date": "2023-06-30",
        "report_id": "s-2023",
        "balance_sheet_total": 42_500_50,
        "equity": -4_000_00,
        "liabilities": 46_500_50,
    }
    return {"indicators": [indicator], "reports": [report], "merged": None}


def empty_answer() -> dict[str, Any]:
    """A company that has filed no reports (spec: 200 with empty lists, ``merged`` null)."""
    return {"indicators": [], "reports": [], "merged": None}
