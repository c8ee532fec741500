"""Yearly indicators and ratios over time: one line per company and measure.

A null stays a gap: a report whose value is null (small companies publish no revenue) breaks the
line there — it is never drawn as 0 — and a value between two nulls shows as a lone marker. Where a
company has two reports for one date (a correction), only the latest revision is drawn
(``is_latest_revision``, see :mod:`regkit.frames.financials`). Years without any report are simply
not points: the line joins the reports on either side.

EUR axes are labelled in one unit per axis (``250 k€``, ``1.5 M€``: :class:`~regkit.plot.style.EuroFormatter`);
a frame in cents (``indicators(..., unit="cents")``) is drawn in EUR. Ratios are drawn in percent (the frame's
fraction 0.25 at 25, the axis labelled "%"), with a reference line (:mod:`regkit.plot.references`);
``salaries_per_employee`` in EUR.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker

from regkit.frames import MEASURES, RATIOS
from regkit.frames import indicators as indicators_frame
from regkit.frames import ratios as ratios_frame

from .fiscal import fiscal_year_axis, fiscal_years
from .references import PercentTicks, reference_line
from .style import EuroFormatter, new_axes

__all__ = ["KINDS", "indicators", "ratios", "line_data"]

KINDS: dict[str, str] = {
    **{m: "EUR" for m in MEASURES},
    "employees": "persons",
    **{r: "ratio" for r in RATIOS},
    "salaries_per_employee": "EUR",
}
"""What each plottable column measures: ``EUR``, ``persons`` or ``ratio`` (a fraction)."""

_AXIS_LABELS = {"EUR": "EUR", "persons": "employees", "ratio": "%"}


def _metric_list(metrics: str | Sequence[str], allowed: Sequence[str]) -> list[str]:
    chosen = [metrics] if isinstance(metrics, str) else list(dict.fromkeys(metrics))
    unknown = [m for m in chosen if m not in allowed]
    if not chosen or unknown:
        raise ValueError(f"metrics must name one or more of {', '.join(allowed)}; not {unknown or chosen!r}")
    kinds = {KINDS[m] for m in chosen}
    if len(kinds) > 1:
        raise ValueError(
            f"{', '.join(chosen)} mix units ({', '.join(sorted(kinds))}): draw them on separate axes "
            "(plt.subplots(2, 1, sharex=True))"
        )
    return chosen


def _companies(data: Any) -> list[Any]:
    """The companies in ``data``: one record or dict, an iterable of them, or a mapping of id → company."""
    if hasattr(data, "raw") or (isinstance(data, Mapping) and "id" in data):
        return [data]
    return list(data.values()) if isinstance(data, Mapping) else list(data)


def _frame(data: Any, build: Any) -> tuple[pd.DataFrame, dict[str, str]]:
    """The frame to draw and the company names (id → name; none for a frame)."""
    if isinstance(data, pd.DataFrame):
        return data, {}
    companies = _companies(data)
    names = {}
    for company in companies:
        raw = getattr(company, "raw", company)
        if isinstance(raw, Mapping) and "id" in raw:
            names[raw["id"]] = (raw.get("name") or {}).get("name") or raw["id"]
    return build([c for c in companies if c is not None]), names


def _rows(frame: pd.DataFrame, company_id: str) -> pd.DataFrame:
    """The reports of one company that are drawn: dated, latest revision, in date order."""
    rows = frame[(frame["company_id"] == company_id).to_numpy(bool) & frame["date"].notna().to_numpy(bool)]
    if "is_latest_revision" in rows:
        rows = rows[rows["is_latest_revision"].to_numpy(bool)]
    return rows.sort_values("date", kind="stable")


def line_data(frame: pd.DataFrame, company_id: str, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """The x (fiscal years, ``int64``) and y (``float``, NaN where null) of one line, as :func:`indicators` draws it.

    A report is drawn at the fiscal year it reports on (:func:`regkit.plot.fiscal.fiscal_years`: the report dated
    2014-12-31 at 2014), not at its closing date. Rows of other companies, earlier revisions and rows without a
    date are left out; a frame in cents gives EUR for the monetary measures, and a ratio (a fraction in the frame)
    is given in percent: 0.25 as 25.

    Examples
    --------
    >>> frame = pd.DataFrame({"company_id": ["A", "A", "A"],
    ...     "date": pd.to_datetime(["2021-12-31", "2022-12-31", "2023-12-31"]),
    ...     "revenue": pd.array([150, None, 300], dtype="Int64")})
    >>> frame.attrs["unit"] = "cents"
    >>> x, y = line_data(frame, "A", "revenue")
    >>> x.tolist(), y
    ([2021, 2022, 2023], array([1.5, nan, 3. ]))
    """
    rows = _rows(frame, company_id)
    y = rows[metric].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    if frame.attrs.get("unit") == "cents" and KINDS.get(metric) == "EUR":
        y = y / 100
    if KINDS.get(metric) == "ratio":
        y = y * 100
    return fiscal_years(rows["date"]), y


def _format_axis(ax: Any, kind: str, scale: str | None) -> None:
    if kind == "EUR":
        ax.yaxis.set_major_formatter(EuroFormatter(scale))
    elif kind == "ratio":
        ax.yaxis.set_major_formatter(PercentTicks())
    else:
        ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))


def _words(metric: str) -> str:
    return metric.replace("_", " ")


def _draw(
    frame: pd.DataFrame,
    metrics: list[str],
    names: dict[str, str],
    ax: Any,
    scale: str | None,
    marker: str,
    title: str | None,
    reference: Any = None,
    reference_label: str | None = None,
) -> Any:
    companies = list(dict.fromkeys(frame["company_id"].dropna()))
    ax = new_axes(ax)
    drawn = [d for cid in companies for d in _rows(frame, cid)["date"]]
    lines = []
    for cid in companies:
        for metric in metrics:
            x, y = line_data(frame, cid, metric)
            label = (
                names.get(cid, cid)
                if len(metrics) == 1
                else _words(metric)
                if len(companies) == 1
                else f"{names.get(cid, cid)} · {_words(metric)}"
            )
            ax.plot(x, y, marker=marker, markersize=4, linewidth=1.6, label=label, gid=f"{cid}|{metric}")
            lines.append((x, y))
    kind = KINDS[metrics[0]]
    fiscal_year_axis(ax, drawn)
    _format_axis(ax, kind, scale)
    line = reference_line(ax, metrics, reference, reference_label, lines) if kind == "ratio" and lines else None
    if kind == "ratio" and lines and (line is None or np.any(np.asarray(line.get_ydata(), dtype=float) != 0)):
        ax.axhline(0.0, color="#888888", linewidth=0.6, zorder=0)  # where equity, profit or growth run out
    unit = _AXIS_LABELS[kind]
    ax.set_ylabel(
        f"{_words(metrics[0])} ({unit})"
        if len(metrics) == 1 and kind == "ratio"
        else _words(metrics[0])
        if len(metrics) == 1
        else unit
    )
    ax.grid(True, axis="y", alpha=0.3)
    entries = len(companies) * len(metrics) + (line is not None)
    if entries > 5:  # beside the lines, not over them
        ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    elif entries > 1:
        ax.legend(fontsize=8, frameon=False)
    if title is None and len(companies) == 1:
        title = names.get(companies[0], companies[0])
    if title:
        ax.set_title(title)
    return ax


def indicators(
    frame: Any,
    metrics: str | Sequence[str] = "revenue",
    *,
    ax: Any = None,
    names: Mapping[str, str] | None = None,
    scale: str | None = None,
    marker: str = "o",
    title: str | None = None,
) -> Any:
    """Draw yearly indicators of one or several companies over time.

    Parameters
    ----------
    frame : pandas.DataFrame, record, or many records
        The wide frame of :func:`regkit.frames.indicators` (EUR or cents), or company records / CompanyV1
        dicts (a list, a ``CompanyBatch``, a mapping of id → company) whose indicators are drawn.
    metrics : str or sequence of str
        Measures of :data:`regkit.frames.MEASURES` (EUR) or ``"employees"``; one unit per call.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    names : mapping of str to str, optional
        Legend label per company id; default the records' names (company ids for a frame).
    scale : {None, "€", "k€", "M€", "bn€"}
        Unit of the EUR axis; default chosen from the largest tick.
    marker : str
        Marker of each report (a lone value between two nulls shows as a marker only).
    title : str, optional
        Default: the company's name when one company is drawn.

    Returns
    -------
    matplotlib.axes.Axes
        One line per company and metric (``line.get_gid()`` is ``"<company_id>|<metric>"``), x the fiscal year
        (a report dated 2014-12-31 at 2014; a year closing on 30 June 2015 at 2015, labelled "2014/15": see
        :mod:`regkit.plot.fiscal`), y in EUR with NaN where the value is null.

    Raises
    ------
    ValueError
        For an unknown metric, or metrics of different units.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> company = {"id": "DE-HRB-B1234-1", "name": {"name": "A GmbH"}, "names": [], "indicators": [
    ...     {"date": f"{y}-12-31", "report_id": f"r{y}", "revenue": cents, "employees": None,
    ...      **{m: None for m in MEASURES if m != "revenue"}}
    ...     for y, cents in ((2021, 120_000_000), (2022, None), (2023, 150_000_000))]}
    >>> ax = indicators(company, "revenue")
    >>> ax.get_lines()[0].get_ydata().tolist()
    [1200000.0, nan, 1500000.0]
    >>> ax.get_title(), ax.yaxis.get_major_formatter()(1_500_000)
    ('A GmbH', '1.5 M€')
    """
    data, found = _frame(frame, indicators_frame)
    chosen = _metric_list(metrics, (*MEASURES, "employees"))
    return _draw(data, chosen, {**found, **(names or {})}, ax, scale, marker, title)


def ratios(
    frame: Any,
    metrics: str | Sequence[str] = "equity_ratio",
    *,
    ax: Any = None,
    names: Mapping[str, str] | None = None,
    scale: str | None = None,
    marker: str = "o",
    title: str | None = None,
    reference: Any = "auto",
    reference_label: str | None = None,
) -> Any:
    """Draw financial ratios of one or several companies over time.

    Parameters
    ----------
    frame : pandas.DataFrame, record, or many records
        A frame of :func:`regkit.frames.ratios`, a wide indicators frame (its ratios are computed), or
        company records / CompanyV1 dicts.
    metrics : str or sequence of str
        Ratios of :data:`regkit.frames.RATIOS`. ``salaries_per_employee`` (EUR) cannot share an axis
        with the others (fractions, drawn in percent).
    ax, names, scale, marker, title
        As for :func:`indicators`.
    reference : "auto", "median", float or None
        The reference line (:mod:`regkit.plot.references`): ``"auto"`` the ratio's yardstick (30 % for the
        equity ratio, 0 % for margins, returns and growth, 100 % for liabilities to equity), ``"median"`` the
        median of the companies drawn per fiscal year, a fraction (``0.3``) a line at that percentage, ``None``
        no line.
    reference_label : str, optional
        The reference line's legend entry (default: what it is, e.g. "30 %: typical of German SMEs").

    Returns
    -------
    matplotlib.axes.Axes
        One line per company and ratio, y in percent (the frame's 0.25 at 25; ticks "25%", y label "… (%)");
        NaN (a gap) where a ratio is null (an input null or a zero denominator). The reference line has gid
        ``"reference"`` and its label in the legend.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pd.DataFrame({"company_id": ["A", "A"], "date": pd.to_datetime(["2022-12-31", "2023-12-31"]),
    ...     "equity_ratio": pd.array([0.25, None], dtype="Float64")})
    >>> ax = ratios(frame, "equity_ratio")
    >>> ax.get_lines()[0].get_ydata().tolist(), ax.yaxis.get_major_formatter()(25)
    ([25.0, nan], '25%')
    >>> [(line.get_label(), line.get_ydata()[0]) for line in ax.get_lines() if line.get_gid() == "reference"]
    [('30 %: typical of German SMEs', 30.0)]
    """
    chosen = _metric_list(metrics, RATIOS)
    data, found = _frame(frame, lambda items: ratios_frame(indicators_frame(items)))
    if any(m not in data for m in chosen):
        data = ratios_frame(data)
    return _draw(data, chosen, {**found, **(names or {})}, ax, scale, marker, title, reference, reference_label)
