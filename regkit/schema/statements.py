"""The HGB layout of a financial statement: the lines of ``aktiva``, ``passiva`` and ``guv``, their order and labels.

``GET /v1/company/{company_id}/financials`` answers report tables of rows ``{name, formatted_name, current_value,
previous_value, children}``. This module is the one description of which rows exist, shared by the local register
(which fills them, :mod:`regkit.local.world.statements`) and the analysis layer (which reads them): ``name`` is a
line's German name as :class:`Line` gives it, ``formatted_name`` the same with its HGB outline number
(``"A. Anlagevermögen"``). Each line knows its English label and the measure of ``indicators`` it carries.

The balance sheet follows § 266 HGB and the P&L the Gesamtkostenverfahren of § 275 (2) HGB. A *short* balance
sheet (§ 266 (1) sentence 3 HGB: only the lines with letters and Roman numerals) is what a small company files;
it shows the equity after partial appropriation of the result (§ 268 (1) HGB: "Bilanzgewinn/Bilanzverlust"
instead of carry-forward and the year's result), and a small company files no P&L. The one line below a Roman
numeral a short balance sheet keeps is "Grundstücke, grundstücksgleiche Rechte und Bauten": the register's
indicators carry ``real_estate`` for small companies too, and a measure is only ever read off a row.

Signs: balance-sheet amounts are as filed (an equity row can be negative when losses exceed the capital). P&L
amounts are as filed too — expenses positive — and :attr:`Line.sign` says how a line enters the year's result
(``+1`` income, ``-1`` expense, ``0`` a subtotal that is the sum of the signed lines above it).

>>> [line.formatted_name for line in AKTIVA]
['A. Anlagevermögen', 'B. Umlaufvermögen', 'C. Rechnungsabgrenzungsposten']
>>> find_line("passiva", "Eigenkapital").measure
'equity'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "RECORD_AMOUNTS",
    "Line",
    "AKTIVA",
    "PASSIVA",
    "GUV",
    "STATEMENTS",
    "INDICATOR_MEASURES",
    "ROW_MEASURES",
    "walk_lines",
    "find_line",
]


@dataclass(frozen=True)
class Line:
    """One line of a statement.

    Attributes
    ----------
    number : str
        Its HGB outline number as filed (``"A."``, ``"II."``, ``"1."``, ``"a)"``).
    name : str
        Its German name: the ``name`` of its row.
    label : str
        Its English label.
    measure : str or None
        The measure of ``indicators`` that equals this row's value, if any.
    children : tuple of Line
        The lines below it; its value is their sum.
    sign : int
        P&L only: ``+1`` income, ``-1`` expense, ``0`` a subtotal.
    form : str
        ``"both"``, ``"full"`` (only in a full balance sheet) or ``"short"`` (only in a short one).
    """

    number: str
    name: str
    label: str
    measure: str | None = None
    children: tuple[Line, ...] = ()
    sign: int = 1
    form: str = "both"

    @property
    def formatted_name(self) -> str:
        """``number`` and ``name``: ``"A. Anlagevermögen"``."""
        return f"{self.number} {self.name}"

    def in_form(self, short: bool) -> bool:
        """Whether the line is part of a short (``short=True``) or a full balance sheet."""
        return self.form == "both" or self.form == ("short" if short else "full")


def _full(number: str, name: str, label: str, measure: str | None = None, sign: int = 1) -> Line:
    return Line(number, name, label, measure, sign=sign, form="full")


AKTIVA: tuple[Line, ...] = (
    Line(
        "A.",
        "Anlagevermögen",
        "Fixed assets",
        "fixed_assets",
        (
            Line("I.", "Immaterielle Vermögensgegenstände", "Intangible assets", "intangible_assets"),
            Line(
                "II.",
                "Sachanlagen",
                "Property, plant and equipment",
                "tangible_assets",
                (
                    Line(
                        "1.", "Grundstücke, grundstücksgleiche Rechte und Bauten", "Land and buildings", "real_estate"
                    ),
                    _full("2.", "Technische Anlagen und Maschinen", "Technical equipment and machinery"),
                    _full("3.", "Andere Anlagen, Betriebs- und Geschäftsausstattung", "Other equipment"),
                    Line("2.", "Übrige Sachanlagen", "Other property, plant and equipment", form="short"),
                ),
            ),
            Line(
                "III.",
                "Finanzanlagen",
                "Financial assets",
                "financial_assets",
                (
                    _full("1.", "Anteile an verbundenen Unternehmen", "Shares in affiliated companies"),
                    _full("2.", "Beteiligungen und sonstige Finanzanlagen", "Participations and other investments"),
                ),
            ),
        ),
    ),
    Line(
        "B.",
        "Umlaufvermögen",
        "Current assets",
        "current_assets",
        (
            Line("I.", "Vorräte", "Inventories", "inventory"),
            Line(
                "II.",
                "Forderungen und sonstige Vermögensgegenstände",
                "Receivables and other assets",
                "receivables",
                (
                    _full("1.", "Forderungen aus Lieferungen und Leistungen", "Trade receivables", "trade_receivables"),
                    _full("2.", "Forderungen gegen verbundene Unternehmen", "Receivables from affiliated companies"),
                    _full("3.", "Sonstige Vermögensgegenstände", "Other assets"),
                ),
            ),
            Line("III.", "Wertpapiere", "Securities"),
            Line(
                "IV.",
                "Kassenbestand, Guthaben bei Kreditinstituten und Schecks",
                "Cash and bank balances",
                "cash",
            ),
        ),
    ),
    Line("C.", "Rechnungsabgrenzungsposten", "Prepaid expenses", "active_accruals"),
)

PASSIVA: tuple[Line, ...] = (
    Line(
        "A.",
        "Eigenkapital",
        "Equity",
        "equity",
        (
            Line("I.", "Gezeichnetes Kapital", "Subscribed capital"),
            Line("II.", "Kapitalrücklage", "Capital reserves", "capital_reserves"),
            Line("III.", "Gewinnrücklagen", "Revenue reserves", "retained_earnings"),
            _full("IV.", "Gewinnvortrag/Verlustvortrag", "Profit or loss carried forward", "profit_carryforward"),
            _full("V.", "Jahresüberschuss/Jahresfehlbetrag", "Net income or loss for the year", "net_income"),
            Line("IV.", "Bilanzgewinn/Bilanzverlust", "Balance sheet profit or loss", form="short"),
        ),
    ),
    Line(
        "B.",
        "Rückstellungen",
        "Provisions",
        "provisions",
        (
            _full(
                "1.",
                "Rückstellungen für Pensionen und ähnliche Verpflichtungen",
                "Pension provisions",
                "pension_provisions",
            ),
            _full("2.", "Steuerrückstellungen", "Tax provisions"),
            _full("3.", "Sonstige Rückstellungen", "Other provisions", "other_provisions"),
        ),
    ),
    Line(
        "C.",
        "Verbindlichkeiten",
        "Liabilities",
        None,
        (
            _full("1.", "Verbindlichkeiten gegenüber Kreditinstituten", "Liabilities to banks", "bank_debt"),
            _full("2.", "Verbindlichkeiten aus Lieferungen und Leistungen", "Trade payables", "trade_payables"),
            _full(
                "3.",
                "Verbindlichkeiten gegenüber verbundenen Unternehmen",
                "Liabilities to affiliated companies",
                "affiliated_liabilities",
            ),
            _full(
                "4.",
                "Verbindlichkeiten gegenüber Gesellschaftern",
                "Liabilities to shareholders",
                "shareholder_liabilities",
            ),
            _full("5.", "Sonstige Verbindlichkeiten", "Other liabilities", "other_liabilities"),
        ),
    ),
    Line("D.", "Rechnungsabgrenzungsposten", "Deferred income", "passive_accruals"),
)

GUV: tuple[Line, ...] = (
    Line("1.", "Umsatzerlöse", "Revenue", "revenue"),
    Line(
        "2.",
        "Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen",
        "Change in inventories of finished goods and work in progress",
    ),
    Line("3.", "Sonstige betriebliche Erträge", "Other operating income", "other_operating_income"),
    Line(
        "4.",
        "Materialaufwand",
        "Cost of materials",
        "materials",
        (
            Line(
                "a)",
                "Aufwendungen für Roh-, Hilfs- und Betriebsstoffe und für bezogene Waren",
                "Raw materials, consumables and goods for resale",
                sign=-1,
            ),
            Line("b)", "Aufwendungen für bezogene Leistungen", "Purchased services", sign=-1),
        ),
        sign=-1,
    ),
    Line(
        "5.",
        "Personalaufwand",
        "Personnel expenses",
        "salaries",
        (
            Line("a)", "Löhne und Gehälter", "Wages and salaries", sign=-1),
            Line(
                "b)",
                "Soziale Abgaben und Aufwendungen für Altersversorgung und für Unterstützung",
                "Social security and pension costs",
                sign=-1,
            ),
        ),
        sign=-1,
    ),
    Line(
        "6.",
        "Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen",
        "Depreciation and amortisation",
        "operating_depreciation",
        sign=-1,
    ),
    Line("7.", "Sonstige betriebliche Aufwendungen", "Other operating expenses", "other_operating_expenses", sign=-1),
    Line("8.", "Sonstige Zinsen und ähnliche Erträge", "Interest and similar income", "interest_income"),
    Line(
        "9.",
        "Abschreibungen auf Finanzanlagen und auf Wertpapiere des Umlaufvermögens",
        "Write-downs of financial assets and securities",
        "financial_depreciation",
        sign=-1,
    ),
    Line("10.", "Zinsen und ähnliche Aufwendungen", "Interest and similar expenses", "interest_expense", sign=-1),
    Line("11.", "Steuern vom Einkommen und vom Ertrag", "Income taxes", "taxes", sign=-1),
    Line("12.", "Ergebnis nach Steuern", "Result after taxes", "income_after_tax", sign=0),
    Line("13.", "Sonstige Steuern", "Other taxes", "other_taxes", sign=-1),
    Line("14.", "Jahresüberschuss/Jahresfehlbetrag", "Net income or loss for the year", "net_income", sign=0),
)

#: The three statements of a report, by the member that holds each.
STATEMENTS: dict[str, tuple[Line, ...]] = {"aktiva": AKTIVA, "passiva": PASSIVA, "guv": GUV}

#: The twelve amounts (cents) of a company record's ``indicators`` (``CompanyV1``), in the interface's order; with
#: ``employees`` they are the 13 members a financials answer's ``indicators`` carry unchanged.
RECORD_AMOUNTS: tuple[str, ...] = (
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

#: The 48 measures of a financials answer's ``indicators``, in the order the official client's model lists them
#: (``date`` and ``report_id`` are not measures).
INDICATOR_MEASURES: tuple[str, ...] = (
    "active_accruals",
    "affiliated_liabilities",
    "balance_sheet_total",
    "bank_debt",
    "capital_reserves",
    "cash",
    "commission_expense",
    "commission_income",
    "current_assets",
    "ebit",
    "ebitda",
    "employees",
    "equity",
    "financial_assets",
    "financial_debt",
    "financial_depreciation",
    "fixed_assets",
    "gross_profit",
    "income_after_tax",
    "income_before_tax",
    "intangible_assets",
    "interest_expense",
    "interest_income",
    "inventory",
    "liabilities",
    "materials",
    "net_income",
    "operating_depreciation",
    "other_liabilities",
    "other_operating_expenses",
    "other_operating_income",
    "other_provisions",
    "other_taxes",
    "parent_net_income",
    "passive_accruals",
    "pension_provisions",
    "profit_carryforward",
    "provisions",
    "real_estate",
    "receivables",
    "retained_earnings",
    "revenue",
    "salaries",
    "shareholder_liabilities",
    "tangible_assets",
    "taxes",
    "trade_payables",
    "trade_receivables",
)


def walk_lines(lines: tuple[Line, ...], short: bool = False, depth: int = 0) -> Iterator[tuple[int, Line]]:
    """Every line of a layout in its printed order, with its depth (0 for the top lines).

    Parameters
    ----------
    lines : tuple of Line
        :data:`AKTIVA`, :data:`PASSIVA` or :data:`GUV`.
    short : bool
        Walk the short balance sheet's lines instead of the full one's.
    depth : int
        The depth of ``lines`` themselves.
    """
    for line in lines:
        if line.in_form(short):
            yield depth, line
            yield from walk_lines(line.children, short, depth + 1)


def find_line(statement: str, name: str) -> Line:
    """The line of ``statement`` (``"aktiva"``, ``"passiva"``, ``"guv"``) whose German ``name`` is ``name``.

    Raises
    ------
    KeyError
        When the statement has no such line.
    """
    for short in (False, True):
        for _, line in walk_lines(STATEMENTS[statement], short):
            if line.name == name:
                return line
    raise KeyError(f"{statement} has no line named {name!r}")


#: The measures that are a row's value, with the statement and German line name they are read from.
#: (``net_income`` is read from the P&L where there is one; the balance sheet's line of that name equals it.)
ROW_MEASURES: dict[str, tuple[str, str]] = {
    line.measure: (statement, line.name)
    for statement in ("aktiva", "passiva", "guv")
    for _, line in walk_lines(STATEMENTS[statement])
    if line.measure is not None
}
ROW_MEASURES["real_estate"] = ("aktiva", "Grundstücke, grundstücksgleiche Rechte und Bauten")
