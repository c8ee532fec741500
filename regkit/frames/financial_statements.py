"""Financial statements as filed: one row per line item and report, and the trees rebuilt from those rows.

A financials answer (``client.get_financials``) carries, per filed annual report, three trees by the HGB:
``aktiva`` and ``passiva`` (the balance sheet, § 266) and ``guv`` (the profit and loss account by the
Gesamtkostenverfahren, § 275; null for a small company's short filing). :func:`statements` flattens them,
depth first, into one row per line item; :func:`statement_reports` turns such a frame back into the trees
(``statement_reports(statements(answer))`` gives the answer's reports again, ``sources`` aside).

The path of a row
    ``path`` joins the statement and the ``formatted_name`` of every row from the top down to the row with
    ``/``: ``"passiva/A. Eigenkapital/I. Gezeichnetes Kapital"``. A ``/`` inside a name
    (``"V. Jahresüberschuss/Jahresfehlbetrag"``) is written ``∕`` (the division slash, :data:`PATH_SLASH`) in the
    path, so that ``path.split("/")`` gives the names down the tree; the ``formatted_name`` column keeps the name
    as filed. A path is the same for the same line item in every year of a company, so
    ``frame.pivot_table(index="path", columns="period_end", values="value")`` lines the years up. The order of
    the rows (``position``) and their ``level`` are what rebuild the tree.

Units
    ``value`` and ``previous_value`` are the interface's cents as ``Float64`` EUR (``unit="EUR"``, exact, see
    :mod:`regkit.frames.money`) or as ``Int64`` cents (``unit="cents"``); null stays null, never 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pandas as pd

from regkit.errors import ArgumentError, ValidationError
from regkit.schema.labels import line_item_label

from ._columns import BOOL, CENTS_EUR, DATE, INT, INT64, STR, Cat, build_frame, rows_to_columns
from .statement_input import company_names, financial_answers, warn_without_reports

__all__ = ["PATH_SLASH", "STATEMENTS", "statements", "statement_reports", "statement_columns"]

STATEMENTS = ("aktiva", "passiva", "guv")
"""The three statements of a report, in the order the frame lists them."""

_UNITS = {"EUR": CENTS_EUR, "cents": INT}


def statement_columns(unit: str = "EUR") -> list[tuple[str, Any]]:
    """The columns of :func:`statements` in ``unit`` (``"EUR"`` or ``"cents"``), with their kinds."""
    if unit not in _UNITS:
        raise ValueError(f"unit must be 'EUR' or 'cents', not {unit!r}")
    money = _UNITS[unit]
    return [
        ("company_id", STR),
        ("report_id", STR),
        ("period_start", DATE),
        ("period_end", DATE),
        ("consolidated", BOOL),
        ("revision", INT64),
        ("is_latest_revision", BOOL),
        ("statement", Cat(STATEMENTS)),
        ("position", INT64),
        ("level", INT64),
        ("path", STR),
        ("name", STR),
        ("formatted_name", STR),
        ("label", STR),
        ("value", money),
        ("previous_value", money),
        ("has_children", BOOL),
    ]


PATH_SLASH = "\u2215"
"""What a ``/`` inside a line item's name becomes in ``path`` (∕, the division slash: it reads the same)."""


def _walk(rows: list[Mapping[str, Any]], prefix: str, level: int) -> Iterator[tuple[int, str, Mapping[str, Any]]]:
    for row in rows:
        path = f"{prefix}/{row['formatted_name'].replace('/', PATH_SLASH)}"
        yield level, path, row
        yield from _walk(row.get("children") or [], path, level + 1)


def statements(answer: Any, unit: str = "EUR") -> pd.DataFrame:
    """The balance sheets and P&L accounts of a financials answer, one row per line item and report.

    Parameters
    ----------
    answer : record or dict, or a mapping of company id → answer
        What ``client.get_financials(company_id)`` returns; a plain dict (which does not name its company) or
        many companies as a mapping of company id → answer. An answer without reports warns
        (:class:`regkit.errors.NoFinancialReportsWarning`) and adds no rows.
    unit : {"EUR", "cents"}
        ``"EUR"``: amounts as ``Float64`` euros (exact); ``"cents"``: ``Int64`` cents as given.

    Returns
    -------
    pandas.DataFrame
        One row per line item of every report, in the answer's report order, then ``aktiva``, ``passiva``,
        ``guv``, then depth first (a row before its children). Zero rows keep the columns and dtypes.

        ==================  ===============  ===========================================================
        company_id          str              the company (missing where not known)
        report_id           str              the filed report (UUID)
        period_start        datetime64[us]   first day of the fiscal year; NaT where not given
        period_end          datetime64[us]   last day of the fiscal year (the balance sheet date)
        consolidated        bool             a group's consolidated report
        revision            int64            0 for the first report of its date (and kind), 1 for a
                                             correction of it, …
        is_latest_revision  bool             the last report of its date (and kind): the one to use
        statement           category         ``aktiva``, ``passiva`` or ``guv``
        position            int64            the row's place in its statement, depth first, from 0
        level               int64            1 for a top row (``A. Anlagevermögen``), 2 below it, …
        path                str              ``statement/formatted name/…`` (see the module docstring)
        name                str              the line item's German name as the interface gives it
        formatted_name      str              the name as printed in the filing (``A. Anlagevermögen``)
        label               str              the English label (``Fixed assets``); the German name where
                                             regkit has none (:func:`regkit.schema.line_item_label`)
        value               Float64 / Int64  the amount of this fiscal year, EUR or cents; <NA> if not filed
        previous_value      Float64 / Int64  the amount of the fiscal year before, as filed with this one
        has_children        bool             the row is a subtotal of the rows below it
        ==================  ===============  ===========================================================

        ``attrs``: ``unit`` (``"EUR"`` or ``"cents"``) and ``company_names`` (``{company_id: name}`` of the
        records that know their company's name, from the client's cache; empty for plain answers).

    Raises
    ------
    TypeError
        ``answer`` is not a financials answer (a company record's 13 indicators are no statements).
    ValueError
        ``unit`` is neither ``"EUR"`` nor ``"cents"``, or a report lacks a required member.

    Examples
    --------
    >>> row = {"name": "Kassenbestand", "formatted_name": "IV. Kassenbestand", "current_value": 150000,
    ...        "previous_value": 90000, "children": []}
    >>> top = {"name": "Umlaufvermögen", "formatted_name": "B. Umlaufvermögen", "current_value": 150000,
    ...        "previous_value": 90000, "children": [row]}
    >>> answer = {"indicators": [], "merged": None, "reports": [{"report_id": "r1",
    ...     "report_start_date": "2023-01-01", "report_end_date": "2023-12-31", "consolidated": False,
    ...     "aktiva": {"rows": [top]}, "passiva": {"rows": []}, "guv": None, "sources": []}]}
    >>> frame = statements({"DE-HRB-B1234-1": answer})
    >>> frame[["level", "name", "label", "value"]]
       level            name           label   value
    0      1  Umlaufvermögen  Current assets  1500.0
    1      2   Kassenbestand    Cash in hand  1500.0
    >>> frame["path"].tolist()
    ['aktiva/B. Umlaufvermögen', 'aktiva/B. Umlaufvermögen/IV. Kassenbestand']
    """
    spec = statement_columns(unit)
    rows: list[tuple] = []
    without = []
    for cid, raw in financial_answers(answer):
        reports = raw.get("reports") or []
        if not reports:
            without.append(cid)
        revisions = _revisions(cid, reports)
        for report, (revision, latest) in zip(reports, revisions):
            head = (cid, report["report_id"], report.get("report_start_date"), report["report_end_date"])
            consolidated = bool(report["consolidated"])
            for statement in STATEMENTS:
                table = report.get(statement)
                if not table:
                    continue
                for position, (level, path, row) in enumerate(_walk(table.get("rows") or [], statement, 1)):
                    name = row["name"]
                    rows.append(
                        (
                            *head,
                            consolidated,
                            revision,
                            latest,
                            statement,
                            position,
                            level,
                            path,
                            name,
                            row["formatted_name"],
                            line_item_label(name, row["formatted_name"], statement),
                            row.get("current_value"),
                            row.get("previous_value"),
                            bool(row.get("children")),
                        )
                    )
    warn_without_reports(without, "statement")
    frame = build_frame(rows_to_columns(rows, spec), spec)
    frame.attrs["unit"] = unit
    frame.attrs["company_names"] = company_names(answer)
    return frame


def _revisions(cid: Any, reports: list[Mapping[str, Any]]) -> list[tuple[int, bool]]:
    """``(revision, is_latest_revision)`` of each report: the answer lists reports latest first, a correction
    before the report it corrects, so of the reports of one date and kind the first listed is the latest."""
    try:
        keys = [(bool(r["consolidated"]), r["report_end_date"], r["report_id"]) for r in reports]
    except KeyError as exc:
        raise ValueError(
            f"a report of company {cid!r} lacks the required member {exc.args[0]!r}; is it a financials answer?"
        ) from exc
    counts = Counter(key[:2] for key in keys)
    seen: Counter[tuple[bool, str]] = Counter()
    out = []
    for key in keys:
        seen[key[:2]] += 1
        out.append((counts[key[:2]] - seen[key[:2]], seen[key[:2]] == 1))
    return out


def _cents(value: Any, unit: str) -> int | None:
    if value is None or pd.isna(value):
        return None
    return int(round(float(value) * 100)) if unit == "EUR" else int(value)


def _date(value: Any) -> str | None:
    return None if pd.isna(value) else pd.Timestamp(value).strftime("%Y-%m-%d")


def statement_reports(frame: pd.DataFrame) -> dict[str | None, list[dict[str, Any]]]:
    """The report trees of a :func:`statements` frame: the inverse of :func:`statements`.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame of :func:`statements` (EUR or cents, as its ``attrs["unit"]`` says; EUR when it does not),
        in any row order: the tree is rebuilt from ``position`` and ``level``. A filtered frame gives the
        trees of the rows it kept (keep whole subtrees: a row whose parent is missing is refused).

    Returns
    -------
    dict
        Company id → its reports in the frame's order, each as the interface gives one, ``sources`` aside:
        ``{"report_id", "report_start_date", "report_end_date", "consolidated", "aktiva", "passiva",
        "guv"}``; a statement is ``{"rows": [...]}`` with rows ``{"name", "formatted_name", "current_value",
        "previous_value", "children"}`` in integer cents, or ``None`` where the report has no rows of it.

    Raises
    ------
    ValueError
        Columns of :func:`statements` are missing, or a row's level skips one below its parent.

    Examples
    --------
    >>> row = {"name": "Kassenbestand", "formatted_name": "IV. Kassenbestand", "current_value": 150000,
    ...        "previous_value": None, "children": []}
    >>> answer = {"indicators": [], "merged": None, "reports": [{"report_id": "r1",
    ...     "report_start_date": None, "report_end_date": "2023-12-31", "consolidated": False,
    ...     "aktiva": {"rows": [row]}, "passiva": {"rows": [row]}, "guv": None, "sources": []}]}
    >>> rebuilt = statement_reports(statements({"C": answer}))["C"][0]
    >>> rebuilt["aktiva"] == answer["reports"][0]["aktiva"], rebuilt["guv"]
    (True, None)
    """
    if not isinstance(frame, pd.DataFrame):
        raise ArgumentError(
            f"statement_reports() takes the frame regkit.frames.statements returned, not {type(frame).__name__}",
            suggestion="pass regkit.frames.statements(client.get_financials(company_id))",
        )
    missing = [name for name, _ in statement_columns() if name not in frame.columns]
    if missing:
        raise ValidationError(
            f"statement_reports needs a frame of regkit.frames.statements; it lacks {missing}",
            suggestion="pass regkit.frames.statements(client.get_financials(company_id))",
        )
    unit = frame.attrs.get("unit", "EUR")
    order = {name: i for i, name in enumerate(STATEMENTS)}
    work = frame.assign(
        k_company=frame["company_id"].astype(object).where(frame["company_id"].notna(), None),
        k_report=pd.factorize(frame["company_id"].astype(str) + "\x00" + frame["report_id"].astype(str))[0],
        k_statement=frame["statement"].astype(str).map(order),
    ).sort_values(["k_report", "k_statement", "position"], kind="stable")
    out: dict[str | None, list[dict[str, Any]]] = {}
    reports: dict[int, dict[str, Any]] = {}
    stack: list[list[dict[str, Any]]] = []
    for item in work.itertuples(index=False):
        report = reports.get(item.k_report)
        if report is None:
            report = reports[item.k_report] = {
                "report_id": item.report_id,
                "report_start_date": _date(item.period_start),
                "report_end_date": _date(item.period_end),
                "consolidated": bool(item.consolidated),
                **{statement: None for statement in STATEMENTS},
            }
            out.setdefault(item.k_company, []).append(report)
        if report[item.statement] is None:
            report[item.statement] = {"rows": []}
            stack = [report[item.statement]["rows"]]
        if not 1 <= item.level <= len(stack):
            raise ValueError(
                f"row {item.path!r} of report {item.report_id!r} is at level {item.level}, but its parent "
                "is not in the frame: keep whole subtrees"
            )
        del stack[item.level :]
        children: list[dict[str, Any]] = []
        stack[-1].append(
            {
                "name": item.name,
                "formatted_name": item.formatted_name,
                "current_value": _cents(item.value, unit),
                "previous_value": _cents(item.previous_value, unit),
                "children": children,
            }
        )
        stack.append(children)
    return out
