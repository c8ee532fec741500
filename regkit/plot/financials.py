"""Yearly indicators and ratios over time: one line per company and measure.

A null stays a gap: a report whose value is null (small companies publish no revenue) breaks the
line there — it is never drawn as 0 — and a value between two nulls shows as a lone marker. Where a
company has two reports for one date (a correction), only the latest revision is drawn
(``is_latest_revision``, see :mod:`regkit.frames.financials`). Years without any report are simply
not points: the line joins the reports on either side.

EUR axes are labelled in one unit per axis (``€250k``, ``€1.5M``: :class:`~regkit.plot.style.EuroFormatter`);
a frame in cents (``indicators(..., unit="cents")``) is drawn in EUR. Each ratio is drawn in its unit
(:data:`KINDS`), with a reference line where there is a yardstick (:mod:`regkit.plot.references`):

* percent ("%"): ``equity_ratio``, ``net_margin``, ``return_on_assets``, ``revenue_growth``,
  ``liabilities_to_equity`` and ``ebitda_margin``, fractions in the frame: 0.25 drawn at 25, ticks "25%";
* times ("×"): ``interest_coverage`` (EBIT over interest) and ``net_debt_to_ebitda`` (years of EBITDA to repay
  the net debt), as the frame has them, ticks "4×";
* days: ``days_sales_outstanding`` and ``payables_days``, as the frame has them, the axis from zero;
* EUR: ``salaries_per_employee``, as an amount.

One Axes has one unit: metrics of different units in one call are refused with a
:class:`~regkit.errors.ValidationError` that names the units and how to draw them apart (one Axes each, e.g.
``plt.subplots(2, 1, sharex=True)``), since a plot returns one Axes.

What a plot is given is checked first (:func:`regkit.plot.inputs.check_input`): a wrong kind of input, an unknown
metric, or a ratio the data cannot give (the five :data:`regkit.frames.FINANCIAL_RATIOS` need the 48 measures of
``client.get_financials(id)``, a company record carries 13) is a :class:`~regkit.errors.ValidationError` saying
what to pass, before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker

from regkit.errors import ValidationError
from regkit.frames import FINANCIAL_MEASURES, FINANCIAL_RATIOS, MEASURES, RATIOS
from regkit.frames import indicators as indicators_frame
from regkit.frames import ratios as ratios_frame
from regkit.frames.financial_ratios import FINANCIAL_RATIO_INPUTS

from .fiscal import fiscal_year_axis, fiscal_years
from .inputs import COMPANIES, FINANCIALS, INDICATORS, RATIOS_FRAME, Input, check_input, describe, frame_with
from .references import PercentTicks, TimesTicks, reference_line
from .source_line import add_source_line
from .style import EuroFormatter, eur_unit, new_axes, no_data

__all__ = ["KINDS", "UNIT_LABELS", "PALETTE", "indicators", "ratios", "line_data"]

KINDS: dict[str, str] = {
    **{m: "EUR" for m in FINANCIAL_MEASURES},
    "employees": "persons",
    **{r: "ratio" for r in RATIOS},
    "salaries_per_employee": "EUR",
    "ebitda_margin": "ratio",
    "interest_coverage": "multiple",
    "net_debt_to_ebitda": "multiple",
    "days_sales_outstanding": "days",
    "payables_days": "days",
}
"""What each plottable column measures: ``EUR``, ``persons``, ``ratio`` (a fraction, drawn in percent),
``multiple`` (times, drawn as is: interest coverage, net debt / EBITDA) or ``days``."""

UNIT_LABELS: dict[str, str] = {"ratio": "%", "multiple": "×", "days": "days", "persons": "persons"}
"""The unit each kind of :data:`KINDS` is drawn in, as the y label says it (EUR: the scale, e.g. "€M")."""

_NAMES = {
    "ebitda_margin": "EBITDA margin",
    "net_debt_to_ebitda": "net debt / EBITDA",
}
"""Metrics whose name in words is not their column's ("ebitda margin")."""

_RATIO_INPUTS = ("balance_sheet_total", "net_income", "revenue", "equity", "liabilities", "salaries", "employees")
"""The indicators :func:`regkit.frames.ratios` computes its six ratios from."""
_FROM_FINANCIALS = "the 48 measures of a financials answer (a company record carries 13)"

#: The frames the two plots take: any with a company and a date per row (the metrics are checked on their own).
_INDICATORS_FRAME = INDICATORS._replace(test=frame_with("company_id", "date"))
_RATIOS_FRAME = RATIOS_FRAME._replace(
    name="the ratios frame (or an indicators frame)", test=frame_with("company_id", "date")
)


def _missing_measures(data: pd.DataFrame, chosen: list[str], given: Any) -> None:
    """Refuse measures ``data`` lacks, saying where they are."""
    missing = [m for m in chosen if m not in data]
    if missing:
        rich = any(m not in MEASURES and m != "employees" for m in missing)
        raise ValidationError(
            f"{describe(given)} has no {', '.join(missing)}"
            + (
                f": {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} among {_FROM_FINANCIALS}"
                if rich
                else ""
            ),
            suggestion="pass client.get_financials(id) or its fin.indicators()"
            if rich
            else "pass the wide indicators frame (regkit.frames.indicators(companies)) or the companies themselves",
        )


def _with_ratios(data: pd.DataFrame, chosen: list[str], given: Any) -> pd.DataFrame:
    """``data`` with the ratios ``chosen`` (computed when the frame has their inputs only), or a clear error."""
    missing = [m for m in chosen if m not in data]
    if not missing:
        return data
    rich = [m for m in missing if m in FINANCIAL_RATIOS]
    lacking = [c for c in (*_RATIO_INPUTS, *(FINANCIAL_RATIO_INPUTS if rich else ())) if c not in data]
    if lacking or "measure" in data:
        what = describe(given)
        if rich and not any(c in data for c in FINANCIAL_RATIO_INPUTS[:3]):
            raise ValidationError(
                f"{', '.join(rich)} need{'s' if len(rich) == 1 else ''} {_FROM_FINANCIALS}; got {what}",
                suggestion="pass client.get_financials(id), or its fin.ratios()",
            )
        raise ValidationError(
            f"{what} has neither {', '.join(missing)} nor the indicators to compute "
            f"{'it' if len(missing) == 1 else 'them'} from (it lacks {', '.join(lacking) or 'the wide layout'})",
            suggestion="pass fin.ratios() (fin = client.get_financials(id)), regkit.frames.ratios(indicators) "
            "or the wide indicators frame",
        )
    return ratios_frame(data)


#: What people call some ratios, for the suggestion of an unknown metric.
_SHORT_NAMES = {"dso": "days_sales_outstanding", "dpo": "payables_days", "ebitda": "ebitda_margin"}


def _close_metric(name: str, allowed: Sequence[str]) -> str | None:
    """The metric ``name`` most likely means (a short name such as ``"dso"``, or a near spelling), if any."""
    import difflib

    folded = name.strip().lower().replace(" ", "_").replace("-", "_")
    if _SHORT_NAMES.get(folded) in allowed:
        return _SHORT_NAMES[folded]
    close = difflib.get_close_matches(folded, allowed, n=1, cutoff=0.6)
    return close[0] if close else None


def _metric_list(metrics: str | Sequence[str], allowed: Sequence[str]) -> list[str]:
    if isinstance(metrics, str):
        chosen = [metrics]
    elif isinstance(metrics, Sequence) and all(isinstance(m, str) for m in metrics):
        chosen = list(dict.fromkeys(metrics))
    else:
        raise ValidationError(
            f"metrics must be a column name or a list of them; got {describe(metrics)}",
            suggestion=f"pass e.g. {allowed[0]!r} or [{allowed[0]!r}, {allowed[1]!r}]",
        )
    unknown = [m for m in chosen if m not in allowed]
    if not chosen or unknown:
        meant = {m: _close_metric(m, allowed) for m in unknown}
        near = "; ".join(f"{m!r}: did you mean {c!r}?" for m, c in meant.items() if c)
        raise ValidationError(
            f"metrics must name one or more of {', '.join(allowed)}; not {unknown or chosen!r}",
            suggestion=(near + " — " if near else "") + "the names are the frame's column names",
        )
    kinds = {KINDS[m] for m in chosen}
    if len(kinds) > 1:
        groups = {kind: [m for m in chosen if KINDS[m] == kind] for kind in dict.fromkeys(KINDS[m] for m in chosen)}
        parts = "; ".join(f"{', '.join(ms)} in {UNIT_LABELS.get(kind, 'EUR')}" for kind, ms in groups.items())
        first, second = (ms[0] for ms in list(groups.values())[:2])
        raise ValidationError(
            f"{', '.join(chosen)} mix units ({parts}): one Axes has one unit",
            suggestion=f"draw them on separate axes: fig, (top, bottom) = plt.subplots(2, 1, sharex=True); "
            f"ratios(data, {first!r}, ax=top); ratios(data, {second!r}, ax=bottom)",
        )
    return chosen


def _companies(data: Any) -> list[Any]:
    """The companies in ``data``: one record or dict, an iterable of them, or a mapping of id → company."""
    if hasattr(data, "raw") or (isinstance(data, Mapping) and "id" in data):
        return [data]
    return list(data.values()) if isinstance(data, Mapping) else list(data)


def _frame(kind: Input, data: Any, build: Any) -> tuple[pd.DataFrame, dict[str, str]]:
    """The frame to draw and the company names (id → name; none for a frame or a financials answer)."""
    if isinstance(data, pd.DataFrame):
        return data, {}
    if kind is FINANCIALS:  # the answer does not name its company: the record knows its id
        named = getattr(data, "company_id", None)
        return indicators_frame(data), {named: named} if named else {}
    companies = _companies(data)
    names = {}
    for company in companies:
        raw = getattr(company, "raw", company)
        if isinstance(raw, Mapping) and "id" in raw:
            names[raw["id"]] = (raw.get("name") or {}).get("name") or raw["id"]
    return build([c for c in companies if c is not None]), names


def _words(metric: str) -> str:
    return _NAMES.get(metric, metric.replace("_", " "))


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
    date are left out; a frame in cents gives EUR for the monetary measures, a ratio (a fraction in the frame)
    is given in percent (0.25 as 25), a multiple (``interest_coverage``, ``net_debt_to_ebitda``) or a number of
    days as the frame has it.

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
    # a ratio in percent; a multiple or a number of days as the frame has it
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
    elif kind == "multiple":
        ax.yaxis.set_major_formatter(TimesTicks())
    else:  # head counts and days: whole numbers
        ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))


def _unit(lines: list[tuple[np.ndarray, np.ndarray]], scale: str | None) -> str:
    """The EUR unit of the axis: ``scale`` if given, else the one of the largest amount drawn (``€M``)."""
    if scale is not None:
        return scale
    finite = [abs(v) for _, y in lines for v in y if np.isfinite(v)]
    return eur_unit(max(finite) if finite else 0.0)


def _no_figures(ax: Any, companies: list[Any], names: Mapping[str, str], metrics: list[str]) -> None:
    """Say in the figure (and in a warning) that there is nothing to draw: never an empty axis."""
    who = ", ".join(names.get(c, c) for c in companies) or "these companies"
    reported = "financial figures" if len(metrics) > 1 or KINDS[metrics[0]] != "EUR" else _words(metrics[0])
    why = (
        "these ratios need a P&L, which small companies do not publish (a short balance sheet only)"
        if all(m in FINANCIAL_RATIOS for m in metrics)
        else "the register holds no annual accounts for it (partnerships and sole traders need publish none; a "
        "company that should may not have filed)"
    )
    no_data(ax, f"no published {reported} for {who}", why)


def _direct_labels(ax: Any, drawn: list[tuple[str, Any, np.ndarray, np.ndarray]]) -> None:
    """Name each line at its last value, right of the axes, the names pushed apart so that none overlaps; a name
    pushed off its line's end (or a line that ends before the last year) is joined to that end by a thin leader
    in the line's colour, so a name is found by its line, not by a close colour."""
    ends = []
    last = max((float(x[np.isfinite(y)].max()) for _, _, x, y in drawn if np.isfinite(y).any()), default=0.0)
    for label, line, x, y in drawn:
        finite = np.flatnonzero(np.isfinite(y))
        if finite.size:
            year = int(x[finite[-1]])
            end_x, end_y = float(x[finite[-1]]), float(y[finite[-1]])
            ends.append([end_y, label + (f" (to {year})" if year < last - 1 else ""), line, end_x, end_y])
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
    left_x, right = ax.get_xlim()
    beside = right + 0.012 * (right - left_x)  # a little right of the axes, as 4 points would be
    for y, label, line, end_x, end_y in ends:
        led = abs(y - end_y) > gap * 0.25 or end_x < last - 0.5
        ax.annotate(
            label,
            xy=(end_x, end_y) if led else (beside, y),
            xycoords="data",
            xytext=(beside, y),
            textcoords="data",
            va="center",
            ha="left",
            fontsize=_LABEL_SIZE,
            color=line.get_color(),
            gid=f"label:{line.get_gid()}",
            annotation_clip=False,
            arrowprops={"arrowstyle": "-", "color": line.get_color(), "linewidth": 0.6, "shrinkA": 2, "shrinkB": 0}
            if led
            else None,
        )


_LABEL_SIZE = 9.0
_SEVERAL = {
    "EUR": "amount",
    "persons": "employees",
    "ratio": "ratio",
    "multiple": "multiple",
    "days": "days outstanding",
}
"""The y label's words for several metrics of one kind."""


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
    axis_unit = UNIT_LABELS.get(kind, "")
    ratio = kind in ("ratio", "multiple", "days")
    line = reference_line(ax, metrics, reference, reference_label, lines, axis_unit) if ratio and lines else None
    if line is None or np.any(np.asarray(line.get_ydata(), dtype=float) != 0):
        ax.axhline(0.0, color="#555555", linewidth=0.8, zorder=1, gid="zero")  # where amounts, equity, growth run out
    if kind != "ratio":  # amounts, head counts, multiples and days from zero: a bar of €33M is not "nothing"
        values = [v for _, y in lines for v in y if np.isfinite(v)]
        low, high = min(0.0, *values), max(0.0, *values)
        pad = 0.05 * ((high - low) or 1.0)
        ax.set_ylim(low - pad if low < 0 else 0.0, high + pad if high > 0 else 0.0 + pad * (low == 0))
    what = _words(metrics[0]) if len(metrics) == 1 else _SEVERAL[kind]
    ax.set_ylabel(f"{what} ({unit})" if kind == "EUR" else f"{what} ({axis_unit})" if ratio else what)
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
        The wide frame of :func:`regkit.frames.indicators` (EUR or cents); company records / CompanyV1
        dicts (a list, a ``CompanyBatch``, a mapping of id → company) whose indicators are drawn; or a financials
        answer (``client.get_financials(id)``, or a mapping of company id → answers), whose 48 measures are.
    metrics : str or sequence of str
        Measures of :data:`regkit.frames.MEASURES` (EUR) or ``"employees"``; one unit per call. From a financials
        answer (or its frame) also the others of :data:`regkit.frames.FINANCIAL_MEASURES` (``"ebitda"``, …).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    names : mapping of str to str, optional
        Legend label per company id; default the records' names (company ids for a frame or a financials answer).
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
    regkit.errors.ArgumentError
        ``frame`` is none of these (None, a string, another plot's frame, a statements frame…): the message names
        what was given and what to pass.
    regkit.errors.ValidationError
        An unknown metric, metrics of different units, or a measure the data lacks (the 48 come with a financials
        answer only).

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
    kind, given = check_input(frame, "indicators", _INDICATORS_FRAME, COMPANIES, FINANCIALS)
    chosen = _metric_list(metrics, (*FINANCIAL_MEASURES, "employees"))
    data, found = _frame(kind, given, indicators_frame)
    _missing_measures(data, chosen, given)
    return _draw(data, chosen, {**found, **(names or {})}, ax, scale, marker, title, source=source, data=given)


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
    """Draw financial ratios of one or several companies over time, each in its unit.

    Parameters
    ----------
    frame : pandas.DataFrame, record, or many records
        What ``client.get_financials(id)`` returns (a financials answer; or a mapping of company id → answers),
        its ``fin.ratios()``, a frame of :func:`regkit.frames.ratios`, a wide indicators frame (its ratios are
        computed), or company records / CompanyV1 dicts (``client.get_company(id)``: the six ratios of
        :data:`regkit.frames.RATIOS`; the five others need the 48 measures of a financials answer).
    metrics : str or sequence of str
        Ratios of :data:`regkit.frames.RATIOS` and :data:`regkit.frames.FINANCIAL_RATIOS`, of one unit per call
        (:data:`KINDS`): percent — ``equity_ratio``, ``net_margin``, ``return_on_assets``, ``revenue_growth``,
        ``liabilities_to_equity``, ``ebitda_margin`` (fractions in the frame); times (×) — ``interest_coverage``,
        ``net_debt_to_ebitda``; days — ``days_sales_outstanding``, ``payables_days``; EUR —
        ``salaries_per_employee``. Ratios of different units are refused (a ``ValidationError`` that says how to
        draw them on separate axes of one figure).
    ax, names, scale, marker, title, source
        As for :func:`indicators`.
    reference : "auto", "median", float or None
        The reference line (:mod:`regkit.plot.references`): ``"auto"`` the ratio's yardstick (30 % for the
        equity ratio, 0 % for margins, returns and growth, 100 % for liabilities to equity, 1× for interest
        coverage; none for net debt / EBITDA and the days, which have no yardstick across industries),
        ``"median"`` the median of the companies drawn per fiscal year, a number a line there in the frame's
        unit (``0.3``: 30 %; ``3``: 3× or 3 days), ``None`` no line.
    reference_label : str, optional
        The reference line's legend entry (default: what it is, e.g. "30 %: typical of German SMEs").

    Returns
    -------
    matplotlib.axes.Axes
        One line per company and ratio, NaN (a gap) where a ratio is null (an input null or a zero denominator).
        Fractions are drawn in percent (the frame's 0.25 at 25; ticks "25%", y label "… (%)"), multiples as they
        are (ticks "2×", y label "interest coverage (×)"), days as they are (y label "… (days)"); the y axis of
        multiples and days includes zero. The reference line has gid ``"reference"`` and its label in the legend.

    Raises
    ------
    regkit.errors.ArgumentError
        ``frame`` is none of these (None, a string, a statements or events frame…): the message names what was
        given and what to pass.
    regkit.errors.ValidationError
        An unknown ratio, ratios of different units, or a ratio the data cannot give (one of the five from a
        company record, which carries 13 measures, not the 48 of ``client.get_financials(id)``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pd.DataFrame({"company_id": ["A", "A"], "date": pd.to_datetime(["2022-12-31", "2023-12-31"]),
    ...     "equity_ratio": pd.array([0.25, None], dtype="Float64")})
    >>> ax = ratios(frame, "equity_ratio")
    >>> ax.get_lines()[0].get_ydata().tolist(), ax.yaxis.get_major_formatter()(25)
    ([25.0, nan], '25 %')
    >>> [(line.get_label(), line.get_ydata()[0]) for line in ax.get_lines() if line.get_gid() == "reference"]
    [('30 %: typical of German SMEs', 30.0)]

    From a financials answer (``fin = client.get_financials(id)``; skipped here: it needs a client)::

        ratios(fin, "interest_coverage")                     # y label "interest coverage (×)", a 1× line
        ratios(fin, ["days_sales_outstanding", "payables_days"])   # both in days, one Axes
    """
    kind, given = check_input(frame, "ratios", _RATIOS_FRAME, FINANCIALS, COMPANIES)
    chosen = _metric_list(metrics, (*RATIOS, *FINANCIAL_RATIOS))
    data, found = _frame(kind, given, indicators_frame)
    data = _with_ratios(data, chosen, given)
    return _draw(
        data, chosen, {**found, **(names or {})}, ax, scale, marker, title, reference, reference_label, source, given
    )
