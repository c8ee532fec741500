"""Yearly financial indicators: one row per company and report.

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

from ._columns import BOOL, CENTS_EUR, DATE, INT, INT64, STR, block_column, build_frame, column, number_block
from ._input import company_list, required

__all__ = ["MEASURES", "UNITS", "indicators", "indicator_columns", "indicator_spec", "measure_array"]

MEASURES = (
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
"""The twelve monetary measures, in the interface's order."""

UNITS = ("EUR", "cents")


def indicator_spec(unit: str) -> list[tuple[str, Any]]:
    """The columns of the wide indicators frame in ``unit``."""
    if unit not in UNITS:
        raise ValueError(f"unit must be 'EUR' or 'cents', not {unit!r}")
    money = CENTS_EUR if unit == "EUR" else INT
    return [
        ("company_id", STR),
        ("date", DATE),
        ("report_id", STR),
        ("revision", INT64),
        ("is_latest_revision", BOOL),
        *((m, money) for m in MEASURES),
        ("employees", INT),
    ]


def indicator_columns(companies: Any) -> tuple[dict[str, list], np.ndarray, list]:
    """The text and date columns of the wide frame, the numbers as one block (cents), and the entries."""
    cids: list[str] = []
    revisions: list[int] = []
    latest: list[bool] = []
    entries: list[Mapping[str, Any]] = []
    check = required("company")
    with check:
        for company in company_list(companies):
            check.company = cid = company["id"]
            reports = company["indicators"]
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
        block = number_block(entries, _NUMBERS)
    return {"company_id": cids, "revision": revisions, "is_latest_revision": latest, **columns}, block, entries


_NUMBERS = (*MEASURES, "employees")


def _long(wide: pd.DataFrame, unit: str) -> pd.DataFrame:
    names = (*MEASURES, "employees")
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
    """The yearly indicators of one or many companies.

    Parameters
    ----------
    companies : record, dict, or many of them
        A company or an iterable / mapping of companies.
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
                                              (``Float64``) or cents (``Int64``); <NA> where null
        employees            Int64            a count; <NA> where null
        ===================  ===============  ====================================================

        Long (``wide=False``): the first five columns, then ``measure`` (category: the twelve measures and
        ``employees``), ``value`` (``Float64`` for EUR, ``Int64`` for cents; employees as counts in the same
        column) and ``unit`` (category: ``"EUR"`` or ``"cents"``, ``"persons"`` for employees). Null values
        are kept as <NA> rows (drop them with ``dropna(subset=["value"])``).

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
    columns, block, entries = indicator_columns(companies)
    for j, name in enumerate(_NUMBERS):
        kind = INT if name == "employees" else dict(spec)[name]
        columns[name] = block_column(kind, block, j, entries, name)
    frame = build_frame(columns, spec)
    frame.attrs["unit"] = unit
    if wide:
        return frame
    long = _long(frame, unit)
    long.attrs["unit"] = unit
    return long


def measure_array(values: list[Any], unit: str) -> Any:
    """A list of cents (or None) as the measure array of ``unit`` (for other builders)."""
    return column(CENTS_EUR if unit == "EUR" else INT, values)
