"""``panel``: a company-year research panel (one row per company and calendar year of its life).

A company has a row for every requested year from its incorporation year to its termination year (both
included: the year a company ends is often the one a study is about); a company without a termination date has
a row for every requested year from its incorporation year on — also one the record says is removed without
dating the removal: after its newest dated fact ``exists_at_year_end`` is ``<NA>`` (unknown) there, not False, and
the ``status`` null. The year's values:

* indicators: the report whose date falls in the year — the latest such date, and of several reports on it
  the latest revision (see :mod:`regkit.frames.financials`); ``reports_in_year`` says how many there were;
* at the year end (31 December): ``legal_form`` (names history), ``capital_eur`` (capitals history),
  ``status`` and ``exists_at_year_end`` (inferred as in :mod:`regkit.frames.status`, exactly as
  :func:`~regkit.frames.as_of` of 31 December says), ``active_directors`` (``DIRECTOR`` roles with
  ``start_date <= 31 Dec < end_date``; a role whose start is on or after its end counts in no year,
  :mod:`regkit.frames.mandates`);
* ``age``: completed years since incorporation at the year end (``year - incorporation year``);
* ``insolvency_opened``: a proceeding against the company has ``opened_at`` in the year.

Everything is computed on whole arrays: per company only the histories are read; the lookups "which version
was in force on 31 December" and "how many roles were active" are binary searches over all companies at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from regkit.schema import COMPANY_STATUSES, LEGAL_FORMS

from ._columns import (
    BOOL,
    BOOLEAN,
    CENTS_EUR,
    DATE,
    FLOAT,
    INT,
    INT64,
    STR,
    Cat,
    block_column,
    build_frame,
    date_array,
    number_block,
)
from ._input import company_list, required
from .financials import MEASURES, UNITS
from .histories import versions
from .mandates import mandate_days
from .money import capital_eur
from .status import dissolution_date, inferred_status, newest_date, removed_after

__all__ = ["panel"]

_NUMBERS = (*MEASURES, "employees")
_NO_REPORT: Mapping[str, Any] = {"date": None, "report_id": None, **{name: None for name in _NUMBERS}}
_OFFSET = 2**31  # days since 1970 + _OFFSET > 0 for every representable date; 0 stands for "unknown start"
_SPAN = 2**33


#: A day after every date a record carries: what the dated facts say once all of them are past.
_LATEST = "9999-12-31"


def _day_numbers(dates: Sequence[str | None], missing: int) -> np.ndarray:
    """``YYYY-MM-DD`` strings → search days (> 0); None → ``missing``."""
    days = date_array(dates).astype("datetime64[D]")
    out = days.astype(np.int64) + _OFFSET
    out[np.isnat(days)] = missing
    return out


def _keys(index: list[int], dates: Sequence[str | None], missing: int) -> np.ndarray:
    return np.asarray(index, dtype=np.int64) * _SPAN + _day_numbers(dates, missing)


class _Versions:
    """Values of one history for all companies, as sorted search keys (company index major, start minor)."""

    def __init__(self) -> None:
        self.index: list[int] = []
        self.starts: list[str | None] = []
        self.values: list[Any] = []

    def on(self, rows: np.ndarray, days: np.ndarray) -> list[Any]:
        """The value in force on ``days`` for each company index in ``rows`` (None where none)."""
        keys = _keys(self.index, self.starts, 0)
        if not len(keys):
            return [None] * len(rows)
        at = np.searchsorted(keys, rows * _SPAN + days, side="right") - 1
        ok = (at >= 0) & ((keys[np.maximum(at, 0)] // _SPAN) == rows)
        values = self.values
        return [values[i] if good else None for i, good in zip(at.tolist(), ok.tolist())]


class _Intervals:
    """Role intervals ``[start, end)`` for all companies; counts how many are active on given days."""

    def __init__(self) -> None:
        self.index: list[int] = []
        self.starts: list[str | None] = []
        self.ends: list[str | None] = []

    def add(self, index: int, start: str | None, end: str | None) -> None:
        """Add a role; one of no day (:func:`~regkit.frames.mandates.mandate_days` None) is active on none."""
        if mandate_days(start, end) is not None:
            self.index.append(index)
            self.starts.append(start)
            self.ends.append(end)

    def active(self, rows: np.ndarray, days: np.ndarray) -> np.ndarray:
        starts = _keys(self.index, self.starts, 0)
        ends = _keys(self.index, self.ends, _SPAN - 1)
        query, floor = rows * _SPAN + days, rows * _SPAN
        counts = np.zeros(len(rows), dtype=np.int64)
        for keys, sign in ((starts, 1), (ends, -1)):
            ordered = np.sort(keys)
            counts += sign * (np.searchsorted(ordered, query, "right") - np.searchsorted(ordered, floor, "left"))
        return counts


def _scan(records: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Read what the panel needs from every company (the only per-company Python loop)."""
    names, capitals, directors, liquidators = _Versions(), _Versions(), _Intervals(), _Intervals()
    scan: dict[str, Any] = {
        "inc": [],
        "term": [],
        "dissolved": [],
        "newest": [],
        "removed": [],
        "status": [],
        "opened": [],
        "report_index": [],
        "reports": [],
    }
    roles = {"DIRECTOR": directors, "LIQUIDATOR": liquidators}
    for i, c in enumerate(records):
        scan["inc"].append(c["incorporated_at"])
        scan["term"].append(c["terminated_at"])
        scan["dissolved"].append(dissolution_date(c))
        # the record's own status holds from its newest date on; only where it differs from the inference then,
        # and never "inactive", which the record does not date (a removed company: removed_after)
        recorded = c.get("status")
        differs = recorded not in (None, "inactive") and recorded != inferred_status(c, _LATEST)[1]
        scan["newest"].append(newest_date(c) if differs else None)
        scan["removed"].append(removed_after(c))
        scan["status"].append(c.get("status"))
        scan["opened"].extend(
            i * 10_000 + int(s["opened_at"][:4]) for s in c.get("insolvencies") or () if s.get("opened_at")
        )
        for history, value in ((names, None), (capitals, capital_eur)):
            entries = versions(c, "names" if value is None else "capitals")[0]
            history.index.extend([i] * len(entries))
            history.starts.extend(e["start_date"] for e in entries)
            history.values.extend(
                e["legal_form"] if value is None else value(e["amount"], e["currency"]) for e in entries
            )
        for r in c["representation"]:
            intervals = roles.get(r["role"])
            if intervals is not None:
                intervals.add(i, r["start_date"], r["end_date"])
        reports = c["indicators"]
        dates = [e["date"] for e in reports]
        if any(a > b for a, b in zip(dates, dates[1:])):
            reports = sorted(reports, key=lambda e: e["date"])
        scan["report_index"].extend([i] * len(reports))
        scan["reports"].extend(reports)
    scan.update(names=names, capitals=capitals, directors=directors, liquidators=liquidators)
    return scan


def _year_reports(scan: dict[str, Any], row_keys: np.ndarray) -> tuple[list[Mapping[str, Any]], np.ndarray]:
    """For each row key (company index × 10,000 + year): its year's report and how many there were."""
    entries = scan["reports"]
    years = date_array([e["date"] for e in entries]).astype("datetime64[Y]").astype(np.int64) + 1970
    keys = np.asarray(scan["report_index"], dtype=np.int64) * 10_000 + years  # non-decreasing
    if not len(keys):
        return [_NO_REPORT] * len(row_keys), np.zeros(len(row_keys), dtype=np.int64)
    last = np.flatnonzero(np.r_[keys[1:] != keys[:-1], True])  # the latest report of each company-year
    counts = np.diff(np.r_[-1, last])
    unique = keys[last]
    at = np.minimum(np.searchsorted(unique, row_keys), len(unique) - 1)
    found = unique[at] == row_keys
    picked = [entries[last[k]] if ok else _NO_REPORT for k, ok in zip(at.tolist(), found.tolist())]
    return picked, np.where(found, counts[at], 0)


def _spec(unit: str) -> list[tuple[str, Any]]:
    money = FLOAT if unit == "EUR" else INT
    return [
        ("company_id", STR),
        ("year", INT64),
        ("exists_at_year_end", BOOLEAN),
        ("status", Cat(COMPANY_STATUSES)),
        ("legal_form", Cat(LEGAL_FORMS)),
        ("capital_eur", FLOAT),
        ("active_directors", INT64),
        ("age", INT64),
        ("insolvency_opened", BOOL),
        ("indicators_date", DATE),
        ("report_id", STR),
        ("reports_in_year", INT64),
        *((m, money) for m in MEASURES),
        ("employees", INT),
    ]


def panel(companies: Any, years: Iterable[int] | None = None, unit: str = "EUR") -> pd.DataFrame:
    """A company-year panel: indicators of the year and the company's state at the year end.

    Parameters
    ----------
    companies : record, dict, or many of them
        A company, or an iterable / mapping of companies.
    years : iterable of int, optional
        Calendar years; default every year from the earliest to the latest indicators date among the
        companies (no indicators at all: no years — pass ``years``).
    unit : {"EUR", "cents"}
        Unit of the indicator columns (as in :func:`~regkit.frames.indicators`).

    Returns
    -------
    pandas.DataFrame
        One row per company and year from its incorporation year to its termination year (rules:
        :mod:`regkit.frames.panels`), by company in input order, then year:

        ===================  ==================  =======================================================
        company_id           str
        year                 int64
        exists_at_year_end   boolean (nullable)  at the year end: True from incorporation up to and on the
                                                 record's newest dated fact, False in the year it was
                                                 terminated; <NA> means unknown — after the newest dated
                                                 fact of a company the record says is removed (status
                                                 ``inactive``) without a termination date
        status               category            at the year end (inferred; ``inactive`` once terminated;
                                                 NaN where ``exists_at_year_end`` is <NA>)
        legal_form           category            at the year end (names history)
        capital_eur          Float64             at the year end; DEM at 1.95583, USD → <NA>
        active_directors     int64               DIRECTOR roles active at the year end
        age                  int64               completed years since incorporation at the year end
        insolvency_opened    bool                a proceeding against it was opened in the year
        indicators_date      datetime64[us]      the report used (NaT: none that year)
        report_id            str
        reports_in_year      int64               reports dated in the year (0, 1, or more)
        balance_sheet_total  Float64/Int64       ... the twelve measures (EUR ``Float64`` / cents ``Int64``)
        employees            Int64
        ===================  ==================  =======================================================

        ``exists_at_year_end`` is pandas' nullable ``"boolean"`` dtype: as a row mask <NA> counts as False, so
        ``frame[frame["exists_at_year_end"]]`` keeps the years known to exist and ``frame[~frame[...]]`` those
        known not to; ``frame["exists_at_year_end"].isna()`` finds the unknown ones (``sum()`` and ``mean()``
        skip them).

    Examples
    --------
    >>> from regkit.frames import example_company
    >>> frame = panel(example_company(), years=[2001, 2002, 2016, 2017, 2023])
    >>> frame[["year", "capital_eur", "active_directors", "age", "revenue", "reports_in_year"]]
       year  capital_eur  active_directors  age    revenue  reports_in_year
    0  2001     25564.59                 1    6       <NA>                0
    1  2002      25600.0                 1    7       <NA>                0
    2  2016      25600.0                 1   21       <NA>                0
    3  2017      25600.0                 1   22       <NA>                0
    4  2023      25600.0                 1   28  1100000.0                2
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be 'EUR' or 'cents', not {unit!r}")
    records = company_list(companies)
    with required("a company"):
        scan = _scan(records)
    if years is None:
        seen = [int(e["date"][:4]) for e in scan["reports"]]
        years = range(min(seen), max(seen) + 1) if seen else []
    year_list = np.array(sorted({int(y) for y in years}), dtype=np.int64)
    return _build(records, scan, year_list, unit)


def _build(records: list, scan: dict[str, Any], years: np.ndarray, unit: str) -> pd.DataFrame:
    first = np.array([int(d[:4]) for d in scan["inc"]], dtype=np.int64)
    last = np.array([int(d[:4]) if d else 10_000 for d in scan["term"]], dtype=np.int64)
    rows, which = np.nonzero((first[:, None] <= years[None, :]) & (last[:, None] >= years[None, :]))
    year = years[which]
    next_new_year = (year - 1970 + 1).astype("datetime64[Y]").astype("datetime64[D]").astype(np.int64)
    year_end = next_new_year - 1 + _OFFSET  # 31 December, as search days
    term = _day_numbers(scan["term"], 2**62)[rows]
    dissolved = _day_numbers(scan["dissolved"], 2**62)[rows]
    exists = year_end < term
    # a removed company without termination date: unknown after its newest date (regkit.frames.status.existed_on)
    unknown = exists & (year_end > _day_numbers(scan["removed"], 2**62)[rows])
    liquidation = (scan["liquidators"].active(rows, year_end) > 0) | (dissolved <= year_end)
    status = np.where(~exists, "inactive", np.where(liquidation, "liquidation", "active")).astype(object)
    # on or after the record's newest date the record's own status holds (regkit.frames.status)
    settled = exists & ~unknown & (year_end >= _day_numbers(scan["newest"], 2**62)[rows])
    recorded = np.asarray(scan["status"], dtype=object)[rows]
    status[settled] = recorded[settled]
    status[unknown] = None
    exists = pd.arrays.BooleanArray(exists, unknown)
    keys = rows * 10_000 + year
    reports, counts = _year_reports(scan, keys)
    columns: dict[str, Any] = {
        "company_id": [records[i]["id"] for i in rows.tolist()],
        "year": year,
        "exists_at_year_end": exists,
        "status": status.tolist(),
        "legal_form": scan["names"].on(rows, year_end),
        "capital_eur": scan["capitals"].on(rows, year_end),
        "active_directors": scan["directors"].active(rows, year_end),
        "age": year - first[rows],
        "insolvency_opened": np.isin(keys, np.asarray(scan["opened"], dtype=np.int64)),
        "indicators_date": [r["date"] for r in reports],
        "report_id": [r["report_id"] for r in reports],
        "reports_in_year": counts,
    }
    block = number_block(reports, _NUMBERS)
    money = CENTS_EUR if unit == "EUR" else INT
    for j, name in enumerate(_NUMBERS):
        columns[name] = block_column(INT if name == "employees" else money, block, j, reports, name)
    frame = build_frame(columns, _spec(unit))
    frame.attrs["unit"] = unit
    return frame
