"""Yearly indicators and ratios over time: one line per company and measure.

A null stays a gap: a report whose value is null (small companies publish no revenue) breaks the
line there — it is never drawn as 0 — and a value between two nulls shows as a lone marker. Where a
company has two reports for one date (a correction), only the latest revision is drawn
(``is_latest_revision``, see :mod:`regkit.frames.financials`). Years without any report are simply
not points: the line joins the reports on either side.

EUR axes are labelled in one unit per axis (``€250k``, ``€1.5M``: :class:`~regkit.plot.style.EuroFormatter`);
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
from .source_line import add_source_line
from .style import EuroFormatter, eur_unit, new_axes, no_data

__all__ = ["KINDS", "PALETTE", "indicators", "ratios", "line_data"]

KINDS: dict[str, str] = {
    **{m: "EUR" for m in MEASURES},
    "employees": "persons",
    **{r: "ratio" for r in RATIOS},
    "salaries_per_employee": "EUR",
}
"""What each plottable column measures: ``EUR``, ``persons`` or ``ratio`` (a fraction)."""


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


#: Line colours of several companies (Okabe–Ito, then olive, wine and grey): no two alike, none pale on white;
#: past ten the lines repeat them dashed.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#999933",
    "#882255",
    "#7F7F7F",
)
_DIRECT = 5  # more lines than this: each labelled at its end instead of in a legend


def _format_axis(ax: Any, kind: str, scale: str | None) -> None:
    if kind == "EUR":
        ax.yaxis.set_major_formatter(EuroFormatter(scale))
    elif kind == "ratio":
        ax.yaxis.set_major_formatter(PercentTicks())
    else:
        ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))


def _words(metric: str) -> str:
    return metric.replace("_", " ")


def _unit(lines: list[tuple[np.ndarray, np.ndarray]], scale: str | None) -> str:
    """The EUR unit of the axis: ``scale`` if given, else the one of the largest amount drawn (``€M``)."""
    if scale is not None:
        return scale
    finite = [abs(v) for _, y in lines for v in y if np.isfinite(v)]
    return eur_unit(max(finite) if finite else 0.0)


def _no_figures(ax: Any, companies: list[Any], names: Mapping[str, str], metrics: list[str]) -> None:
    """Say in the figure (and in a warning) that there is nothing to draw: never an empty axis."""
    who = ", ".join(names.get(c, c) for c in companies) or "these companies"
    reported = "financial figures" if len(metrics) > 1 or metrics[0] in RATIOS else _words(metrics[0])
    no_data(ax, f"no published {reported} for {who}", "partnerships and sole traders publish no accounts")


def _direct_labels(ax: Any, drawn: list[tuple[str, Any, np.ndarray, np.ndarray]]) -> None:
    """Name each line at its last value, right of the axes, the names pushed apart so that none overlaps."""
    ends = []
    last = max((float(x[np.isfinite(y)].max()) for _, _, x, y in drawn if np.isfinite(y).any()), default=0.0)
    for label, line, x, y in drawn:
        finite = np.flatnonzero(np.isfinite(y))
        if finite.size:
            year = int(x[finite[-1]])
            ends.append([float(y[finite[-1]]), label + (f" (to {year})" if year < last - 1 else ""), line])
    if not ends:
        return
    low, high = ax.get_ylim()
    height = ax.figure.get_size_inches()[1] * 0.75 * 72  # points the axes is about high
    gap = (high - low) * (_LABEL_SIZE * 1.25) / max(height, 1.0)
    ends.sort(key=lambda e: e[0])
    for i in range(1, len(ends)):
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + gap)
    overflow = ends[-1][0] - high
    if overflow > 0:  # pushed above the top: move all of them down, keeping the gaps
        for end in ends:
            end[0] -= overflow
        for i in range(len(ends) - 2, -1, -1):
            ends[i][0] = min(ends[i][0], ends[i + 1][0] - gap)
    for y, label, line in ends:
        ax.annotate(
            label,
            xy=(1.0, y),
            xycoords=("axes fraction", "data"),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=_LABEL_SIZE,
            color=line.get_color(),
            gid=f"label:{line.get_gid()}",
            annotation_clip=False,
        )


_LABEL_SIZE = 9.0


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
    source: Any = True,
    data: Any = None,
) -> Any:
    companies = list(dict.fromkeys(frame["company_id"].dropna()))
    ax = new_axes(ax)
    add_source_line(ax, source, data, frame)
    drawn = [d for cid in companies for d in _rows(frame, cid)["date"]]
    lines = []
    plotted: list[tuple[str, Any, np.ndarray, np.ndarray]] = []
    n = len(companies) * len(metrics)
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
            style = {}
            if n > 1:
                i = len(plotted)
                style = {"color": PALETTE[i % len(PALETTE)], "linestyle": "-" if i < len(PALETTE) else "--"}
            (line,) = ax.plot(
                x, y, marker=marker, markersize=4, linewidth=1.6, label=label, gid=f"{cid}|{metric}", **style
            )
            lines.append((x, y))
            plotted.append((label, line, x, y))
    kind = KINDS[metrics[0]]
    if not any(np.isfinite(y).any() for _, y in lines):
        _no_figures(ax, companies or list(names), names, metrics)
        if title:
            ax.set_title(title)
        return ax
    fiscal_year_axis(ax, drawn)
    unit = _unit(lines, scale) if kind == "EUR" else None
    _format_axis(ax, kind, unit if kind == "EUR" else scale)
    line = reference_line(ax, metrics, reference, reference_label, lines) if kind == "ratio" and lines else None
    if line is None or np.any(np.asarray(line.get_ydata(), dtype=float) != 0):
        ax.axhline(0.0, color="#555555", linewidth=0.8, zorder=1, gid="zero")  # where amounts, equity, growth run out
    if kind != "ratio":  # amounts and head counts from zero: a bar of €33M is not "nothing"
        values = [v for _, y in lines for v in y if np.isfinite(v)]
        low, high = min(0.0, *values), max(0.0, *values)
        pad = 0.05 * ((high - low) or 1.0)
        ax.set_ylim(low - pad if low < 0 else 0.0, high + pad if high > 0 else 0.0 + pad * (low == 0))
    what = (
        _words(metrics[0]) if len(metrics) == 1 else {"EUR": "amount", "persons": "employees", "ratio": "ratio"}[kind]
    )
    ax.set_ylabel(
        f"{what} ({unit})" if kind == "EUR" else f"{what} (%)" if kind == "ratio" else what,
    )
    ax.grid(True, axis="y", alpha=0.3)
    if n > _DIRECT:  # too many for a legend: name each line at its end
        _direct_labels(ax, plotted)
        if line is not None:
            ax.legend(handles=[line], fontsize=_LABEL_SIZE, frameon=False, loc="best")
    elif n + (line is not None) > 1:
        ax.legend(fontsize=_LABEL_SIZE, frameon=False)
    if title is None:
        title = (
            names.get(companies[0], companies[0])
            if len(companies) == 1
            else f"{what[:1].upper()}{what[1:]} of {len(companies)} companies"
        )
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
    source: Any = True,
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
    scale : {None, "€", "€k", "€M", "€bn"}
        Unit of the EUR axis; default chosen from the largest tick.
    marker : str
        Marker of each report (a lone value between two nulls shows as a marker only).
    title : str, optional
        Default: the company's name when one company is drawn, else e.g. "Revenue of 10 companies".
    source : str, bool or None
        The source line at the figure's bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says (``frame.attrs["regkit_source"]``) or the session's default, a string that line, ``None`` or
        ``False`` none. Also with ``ax=``: the figure carries the line once.

    Returns
    -------
    matplotlib.axes.Axes
        One line per company and metric (``line.get_gid()`` is ``"<company_id>|<metric>"``), x the fiscal year
        (a report dated 2014-12-31 at 2014; a year closing on 30 June 2015 at 2015, labelled "2014/15": see
        :mod:`regkit.plot.fiscal`), y in EUR with NaN where the value is null. The y axis of amounts and head
        counts includes zero, the zero line (gid ``"zero"``) is always drawn, and the axis label names the unit
        of its ticks ("revenue (€M)"). More than five lines are named at their ends (annotations with gid
        ``"label:<company_id>|<metric>"``) instead of in a legend, in colours of :data:`PALETTE`. With nothing to
        draw the Axes is switched off and says "no published … for <company>" (gid ``"no-data"``), and a
        :class:`~regkit.errors.NoFinancialReportsWarning` is issued.

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
    ('A GmbH', '€1.5M')
    """
    data, found = _frame(frame, indicators_frame)
    chosen = _metric_list(metrics, (*MEASURES, "employees"))
    return _draw(data, chosen, {**found, **(names or {})}, ax, scale, marker, title, source=source, data=frame)


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
    source: Any = True,
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
    ax, names, scale, marker, title, source
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
    return _draw(
        data, chosen, {**found, **(names or {})}, ax, scale, marker, title, reference, reference_label, source, frame
    )
