"""Yearly financial indicators: one row per company and report.

Two sources
    A company record (CompanyV1) carries 13 of them: the twelve :data:`MEASURES` and ``employees``. The
    financials answer (``client.get_financials``, ``GET /v1/company/{id}/financials``) carries all 48: the
    47 monetary :data:`FINANCIAL_MEASURES` (the twelve first, the other 35 in the interface's alphabetical
    order) and ``employees``. :func:`indicators` takes either and gives the columns of what it was given.
    ``liabilities`` is everything on the passiva side except equity: provisions (pensions included),
    Verbindlichkeiten and deferred income; the statement tree (:func:`regkit.frames.statements`) gives them
    separately, as do ``provisions``, ``financial_debt``, ``trade_payables``, ``passive_accruals`` here.
    A financials answer lists its indicators latest first, a correction before the report it corrects (the
    reverse of a company record's order): ``revision`` and ``is_latest_revision`` mean the same for both.

Reports on the same date
    A company can have two reports for one date (a correction is published beside the original). Both rows
    are kept, each with its ``report_id``; nothing is merged or averaged. ``revision`` numbers the reports of
    one date in payload order (0 first) and ``is_latest_revision`` marks the last one: the interface does not
    say which report supersedes which, and regkit assumes the payload lists them in publication order (the
    bundled world appends corrections). Where one value per company and date is needed (``companies``,
    ``panel``, revenue growth in ``ratios``) the latest revision is used.

Units
    ``unit="EUR"``: ``Float64`` EUR, exact (see :mod:`regkit.frames.money`); ``unit="cents"``: ``Int64`` cents
    as the interface gives them. A null stays null in both; it is never 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from regkit.schema.statements import RECORD_AMOUNTS

from ._columns import BOOL, CENTS_EUR, DATE, INT, INT64, STR, block_column, build_frame, column, number_block
from ._input import company_list, required
from .statement_input import company_names, financial_answers, is_financials, warn_without_reports

__all__ = [
    "FINANCIAL_MEASURES",
    "MEASURES",
    "UNITS",
    "indicators",
    "indicator_columns",
    "indicator_spec",
    "measure_array",
]

MEASURES = RECORD_AMOUNTS
"""The twelve monetary measures of a company record, in the interface's order."""

FINANCIAL_MEASURES = (
    *MEASURES,
    "active_accruals",
    "affiliated_liabilities",
    "bank_debt",
    "commission_expense",
    "commission_income",
    "current_assets",
    "ebit",
    "ebitda",
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
    "operating_depreciation",
    "other_liabilities",
    "other_operating_expenses",
    "other_operating_income",
    "other_provisions",
    "other_taxes",
    "parent_net_income",
    "passive_accruals",
    "profit_carryforward",
    "provisions",
    "receivables",
    "retained_earnings",
    "shareholder_liabilities",
    "tangible_assets",
    "trade_payables",
    "trade_receivables",
)
"""The 47 monetary measures of a financials answer: :data:`MEASURES` first, then the other 35 alphabetically."""

UNITS = ("EUR", "cents")


def indicator_spec(unit: str, measures: tuple[str, ...] = MEASURES) -> list[tuple[str, Any]]:
    """The columns of the wide indicators frame in ``unit`` (``measures``: the monetary ones)."""
    if unit not in UNITS:
        raise ValueError(f"unit must be 'EUR' or 'cents', not {unit!r}")
    money = CENTS_EUR if unit == "EUR" else INT
    return [
        ("company_id", STR),
        ("date", DATE),
        ("report_id", STR),
        ("revision", INT64),
        ("is_latest_revision", BOOL),
        *((m, money) for m in measures),
        ("employees", INT),
    ]


def indicator_columns(companies: Any) -> tuple[dict[str, list], np.ndarray, list]:
    """The text and date columns of the wide frame, the numbers as one block (cents), and the entries."""
    pairs = []
    check = required("company")
    with check:
        for company in company_list(companies):
            check.company = company["id"]
            pairs.append((company["id"], company["indicators"]))
    columns, entries = _revision_columns(pairs)
    with required("an indicators entry"):
        block = number_block(entries, _NUMBERS)
    return columns, block, entries


def _revision_columns(pairs: list[tuple[Any, list]]) -> tuple[dict[str, list], list[Mapping[str, Any]]]:
    """Company ids, revisions, dates and report ids of ``(company_id, indicator entries)`` pairs, oldest first."""
    cids: list[str] = []
    revisions: list[int] = []
    latest: list[bool] = []
    entries: list[Mapping[str, Any]] = []
    check = required("company")
    with check:
        for cid, reports in pairs:
            check.company = cid
            if not reports:
                continue
            dates = [e["date"] for e in reports]
            if any(a > b for a, b in zip(dates, dates[1:])):
                reports = sorted(reports, key=lambda e: e["date"])
                dates = [e["date"] for e in reports]
            cids.extend([cid] * len(reports))
            entries.extend(reports)
            if len(set(dates)) == len(dates):
                revisions.extend([0] * len(dates))
                latest.extend([True] * len(dates))
                continue
            counts = Counter(dates)
            seen: Counter[str] = Counter()
            for date in dates:
                revisions.append(seen[date])
                seen[date] += 1
                latest.append(seen[date] == counts[date])
    with required("an indicators entry"):
        columns = {name: [e[name] for e in entries] for name in ("date", "report_id")}
    return {"company_id": cids, "revision": revisions, "is_latest_revision": latest, **columns}, entries


_NUMBERS = (*MEASURES, "employees")
_FINANCIAL_NUMBERS = (*FINANCIAL_MEASURES, "employees")


def _financial_columns(answers: Any, unit: str) -> pd.DataFrame:
    """The wide frame of financials answers: every member of an entry is optional (absent → <NA>)."""
    # latest first, a correction before the report it corrects: reversed, oldest first with corrections after
    pairs = [(cid, (answer.get("indicators") or [])[::-1]) for cid, answer in financial_answers(answers)]
    warn_without_reports([cid for cid, entries in pairs if not entries], "indicators")
    columns, entries = _revision_columns(pairs)
    spec = indicator_spec(unit, FINANCIAL_MEASURES)
    kinds = dict(spec)
    for name in _FINANCIAL_NUMBERS:
        columns[name] = column(kinds[name], [e.get(name) for e in entries])
    return build_frame(columns, spec)


def _long(wide: pd.DataFrame, unit: str) -> pd.DataFrame:
    names = tuple(wide.columns[5:])
    n, k = len(wide), len(names)
    values = np.empty(n * k, dtype=np.float64 if unit == "EUR" else np.int64)
    mask = np.empty(n * k, dtype=bool)
    for j, name in enumerate(names):
        array = wide[name].array
        values[j::k] = array.to_numpy(dtype=values.dtype, na_value=0)
        mask[j::k] = array.isna()
    index = np.repeat(np.arange(n), k)
    frame = wide.iloc[index, :5].reset_index(drop=True)
    frame["measure"] = pd.Categorical.from_codes(np.tile(np.arange(k), n), categories=list(names))
    array_type = pd.arrays.FloatingArray if unit == "EUR" else pd.arrays.IntegerArray
    frame["value"] = array_type(values, mask)
    frame["unit"] = pd.Categorical.from_codes(np.tile(np.r_[np.zeros(k - 1, int), 1], n), categories=[unit, "persons"])
    return frame


def indicators(companies: Any, unit: str = "EUR", wide: bool = True) -> pd.DataFrame:
    """The yearly indicators of one or many companies: 13 from company records, 48 from financials answers.

    Parameters
    ----------
    companies : record, dict, or many of them
        A company (CompanyV1) or an iterable / mapping of companies: the twelve :data:`MEASURES` and
        ``employees``. Or a financials answer (``client.get_financials(id)``; a plain dict has no company id,
        so hand it in as a mapping of company id → answer, as many companies are): all 47 :data:`FINANCIAL_MEASURES` and ``employees``
        (a member the answer leaves out is <NA>). A financials answer with no indicators warns
        (:class:`regkit.errors.NoFinancialReportsWarning`) and adds no rows.
    unit : {"EUR", "cents"}
        ``"EUR"``: monetary measures as ``Float64`` euros (exact; values beyond ±2**51 cents raise
        ``ValueError``); ``"cents"``: ``Int64`` cents as given.
    wide : bool
        One row per report with a column per measure (default), or one row per report and measure.

    Returns
    -------
    pandas.DataFrame
        Wide (sorted by company in input order, then ``date``; reports on one date in payload order):

        ===================  ===============  ====================================================
        company_id           str
        date                 datetime64[us]   the date the indicators apply to
        report_id            str              the source report (UUID)
        revision             int64            0 for the first report of that date, 1 for the next
        is_latest_revision   bool             the last report of that date
        balance_sheet_total  Float64 / Int64  ... and the other eleven of :data:`MEASURES`, in EUR
                                              (``Float64``) or cents (``Int64``); <NA> where null;
                                              from financials answers all 47 of
                                              :data:`FINANCIAL_MEASURES`
        employees            Int64            a count; <NA> where null
        ===================  ===============  ====================================================

        Long (``wide=False``): the first five columns, then ``measure`` (category: the monetary measures and
        ``employees``), ``value`` (``Float64`` for EUR, ``Int64`` for cents; employees as counts in the same
        column) and ``unit`` (category: ``"EUR"`` or ``"cents"``, ``"persons"`` for employees). Null values
        are kept as <NA> rows (drop them with ``dropna(subset=["value"])``).

        ``attrs``: ``unit``, and ``company_names`` (``{company_id: name}`` of the financials records that know
        their company's name, from the client's cache; empty otherwise).

    Examples
    --------
    >>> company = {"id": "DE-HRB-B1234-1", "names": [], "indicators": [
    ...     {"date": "2023-12-31", "report_id": "r1", "revenue": 123456789, "employees": 12,
    ...      **{m: None for m in MEASURES if m != "revenue"}}]}
    >>> indicators(company)[["date", "revenue", "equity", "employees"]]
            date     revenue  equity  employees
    0 2023-12-31  1234567.89    <NA>         12
    >>> indicators(company, unit="cents")["revenue"].tolist()
    [123456789]
    """
    spec = indicator_spec(unit)
    if is_financials(companies):
        frame = _financial_columns(companies, unit)
    else:
        columns, block, entries = indicator_columns(companies)
        for j, name in enumerate(_NUMBERS):
            kind = INT if name == "employees" else dict(spec)[name]
            columns[name] = block_column(kind, block, j, entries, name)
        frame = build_frame(columns, spec)
    frame.attrs["unit"] = unit
    frame.attrs["company_names"] = company_names(companies) if is_financials(companies) else {}
    if wide:
        return frame
    long = _long(frame, unit)
    long.attrs.update(frame.attrs)
    return long


def measure_array(values: list[Any], unit: str) -> Any:
    """A list of cents (or None) as the measure array of ``unit`` (for other builders)."""
    return column(CENTS_EUR if unit == "EUR" else INT, values)
