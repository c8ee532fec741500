"""Financial statements as figures: the balance sheet's structure by year, and one year's P&L as a waterfall.

:func:`balance_sheet` draws, for each fiscal year, the aktiva (assets) and the passiva (equity and liabilities)
side by side, each stacked from zero by its top-level line items (``A. Anlagevermögen``, ``B. Umlaufvermögen``,
…; ``A. Eigenkapital``, ``B. Rückstellungen``, ``C. Verbindlichkeiten``, …), in €M (€k for a small company). Equity is green and the
liabilities side warm, so the eye weighs equity against what is owed; negative equity is drawn as HGB § 268 (3)
shows it — the deficit not covered by equity on top of the assets, hatched in the equity colour — never hidden,
and both sides stand equally tall; any other negative item hangs below zero.

:func:`pnl_waterfall` walks one year's profit and loss account from revenue down to net income: revenue, the
costs that eat it (cost of materials, personnel, depreciation, other operating expenses, and other operating
income as a gain), EBIT, the financial result, taxes and net income. Totals start at zero; each step floats
from where the one before it ended, gains green, charges red, and a zero line marks where a loss begins.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.patches import Patch

from regkit.errors import ValidationError
from regkit.frames import indicators as indicators_frame
from regkit.frames import statements as statements_frame

from .fiscal import fiscal_year_label, fiscal_years
from .inputs import FINANCIAL_INDICATORS, FINANCIALS, STATEMENTS, check_input
from .source_line import add_source_line
from .style import EuroFormatter, eur_text, new_axes, no_data

__all__ = ["NoStatement", "balance_sheet", "pnl_waterfall", "balance_sheet_data", "waterfall_steps"]

_ASSET_COLOURS = ("#1f5f8b", "#5b9bd5", "#a9cce3", "#7f7f7f", "#c7c7c7")
_CLAIM_COLOURS = {"equity": "#2e8b57", "provisions": "#f0a04b", "liabilities": "#c0392b", "other": "#e6b0aa"}
#: The aktiva item HGB § 268 (3) shows for negative equity (its path and label in :func:`balance_sheet_data`).
DEFICIT_PATH = "aktiva/deficit"
DEFICIT_LABEL = "Deficit not covered by equity (nicht durch Eigenkapital gedeckter Fehlbetrag)"
_GAIN, _CHARGE, _TOTAL = "#2e8b57", "#c0392b", "#34495e"
_NO_PNL = "no P&L (guv) in the data: small companies file a short balance sheet only"


def _claim_colour(label: str, position: int) -> str:
    text = label.casefold()
    for key in ("equity", "provisions", "liabilities"):
        if key in text and "deferred" not in text:
            return _CLAIM_COLOURS[key]
    return _CLAIM_COLOURS["other"] if position else _CLAIM_COLOURS["equity"]


def _money_axis(ax: Any, largest: float) -> str:
    """Label the y axis of ``ax`` in one unit: €M from a million on, €k below it (the unit is returned)."""
    unit = "€M" if largest >= 1e6 else "€k" if largest >= 1e3 else "€"
    ax.yaxis.set_major_formatter(EuroFormatter(scale=unit, digits=2))
    ax.set_ylabel(f"amount ({unit})")
    return unit


def _named(data: Any, company_id: str | None) -> Any:
    """A financials answer named by ``company_id`` (a mapping of id → answer) when it does not name itself."""
    raw = getattr(data, "raw", data)
    if company_id is None or not (isinstance(raw, dict) and "reports" in raw):
        return data
    return {company_id: data}


class NoStatement(ValidationError):
    """The data hold no statement of the kind asked for (a company without reports, a short filing without P&L).

    A :class:`~regkit.errors.ValidationError` (so a ``ValueError``, as before)."""

    default_suggestion = "draw another company, or another kind of statement (consolidated=False)"


def _who(data: Any, company_id: str | None) -> str:
    """The company a financials answer or frame is about: ``company_id``, else the one id it names, else "it"."""
    if company_id:
        return company_id
    raw = getattr(data, "raw", data)
    if isinstance(data, pd.DataFrame) and "company_id" in data:
        ids = data["company_id"].dropna().unique().tolist()
        return str(ids[0]) if len(ids) == 1 else "these companies"
    named = getattr(data, "company_id", None) or (raw.get("company_id") if isinstance(raw, dict) else None)
    if named:
        return str(named)
    if isinstance(raw, dict) and len(raw) == 1 and "reports" not in raw:
        return str(next(iter(raw)))
    return "this company"


def _one_company(frame: pd.DataFrame, company_id: str | None) -> pd.DataFrame:
    if "company_id" not in frame:
        return frame
    ids = frame["company_id"].dropna().unique().tolist()
    if company_id is not None:
        if company_id not in ids:
            raise ValidationError(
                f"company {company_id!r} is not in the frame (it has {', '.join(ids) or 'none'})",
                suggestion="pass one of the frame's company ids, or a frame of that company",
            )
        return frame[frame["company_id"] == company_id]
    if len(ids) > 1:
        raise ValidationError(
            f"the frame holds {len(ids)} companies", suggestion=f"choose one with company_id= (e.g. {ids[0]!r})"
        )
    return frame


def balance_sheet_data(data: Any, company_id: str | None = None, consolidated: bool = False) -> pd.DataFrame:
    """What :func:`balance_sheet` draws: the top-level rows of the latest report of each fiscal year.

    Parameters
    ----------
    data : DataFrame or financials answer
        A :func:`regkit.frames.statements` frame (EUR), or what that takes.
    company_id : str, optional
        The company to draw, when the frame holds several.
    consolidated : bool
        Draw the group's consolidated reports instead of the company's own.

    Returns
    -------
    pandas.DataFrame
        One row per fiscal year, statement and top-level item, in drawing order: ``fiscal_year`` (int64),
        ``period_end`` (datetime64[us]), ``report_id`` (str), ``statement`` (category: ``aktiva`` or
        ``passiva``), ``path``, ``label`` (str) and ``value`` (Float64, EUR; <NA> where not filed). A year whose
        equity is negative shows it as HGB § 268 (3) does: equity 0 on the passiva side, and the deficit as the
        last aktiva item (path :data:`DEFICIT_PATH`), so both sides add up to the same total.
    """
    return _balance_sheet_rows("statements.balance_sheet_data", data, company_id, consolidated)


def _balance_sheet_rows(plot: str, data: Any, company_id: str | None, consolidated: bool) -> pd.DataFrame:
    kind, data = check_input(data, plot, STATEMENTS, FINANCIALS)
    frame = data if kind is STATEMENTS else statements_frame(_named(data, company_id))
    if frame.attrs.get("unit", "EUR") != "EUR":
        raise ValidationError(
            "balance_sheet draws EUR; the statements frame is in cents",
            suggestion="build the frame with statements(answer) (unit='EUR'), or pass the answer itself",
        )
    frame = _one_company(frame, company_id)
    frame = frame[(frame["consolidated"] == consolidated) & (frame["level"] == 1)]
    frame = frame[frame["statement"].isin(["aktiva", "passiva"])]
    if frame.empty:
        which = "consolidated " if consolidated else ""
        raise NoStatement(
            f"no {which}balance sheet in the data (a company without reports, or none of this kind)",
            suggestion="draw the company's own reports (consolidated=False)" if consolidated else None,
        )
    frame = frame[frame["is_latest_revision"].to_numpy(bool)]  # a correction replaces the report it corrects
    frame = frame.sort_values(["period_end", "statement", "position"])
    out = frame[["period_end", "report_id", "statement", "path", "label", "value"]].reset_index(drop=True)
    out.insert(0, "fiscal_year", fiscal_years(out["period_end"]))
    out["statement"] = out["statement"].cat.remove_unused_categories()
    out = _deficits_on_the_aktiva_side(out)
    ids = frame["company_id"].dropna().unique()
    out.attrs["company_id"] = str(ids[0]) if len(ids) == 1 else None
    return out


def _deficits_on_the_aktiva_side(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with each year's negative equity (its first passiva item) shown as HGB § 268 (3) shows it: 0 on the
    passiva side, and a last aktiva item "not covered by equity" of the deficit."""
    out: list[pd.DataFrame] = []
    for _, year in rows.groupby("fiscal_year", sort=False):
        passiva = year[year["statement"] == "passiva"]
        equity = passiva["value"].iloc[0] if len(passiva) else pd.NA
        if pd.isna(equity) or float(equity) >= 0:
            out.append(year)
            continue
        year = year.copy()
        year.loc[passiva.index[0], "value"] = 0.0
        deficit = year.loc[[passiva.index[0]]].assign(
            statement=pd.Categorical(["aktiva"], categories=rows["statement"].cat.categories),
            path=DEFICIT_PATH,
            label=DEFICIT_LABEL,
            value=pd.array([-float(equity)], dtype="Float64"),
        )
        aktiva = year[year["statement"] == "aktiva"]
        out.append(pd.concat([aktiva, deficit, year[year["statement"] != "aktiva"]]))
    merged = pd.concat(out, ignore_index=True) if out else rows
    merged["statement"] = merged["statement"].astype(rows["statement"].dtype)
    merged.attrs.update(rows.attrs)
    return merged


def _equity_shares(ax: Any, part: pd.DataFrame, years: list[int], tops: dict[int, float], offset: float) -> None:
    """Write the equity ratio (the first passiva item over the passiva total; minus the deficit over it where equity
    is negative) above each passiva bar, as "19 %" in the equity colour (the legend's equity entry says what it is)."""
    for year in years:
        items = part[part["fiscal_year"] == year]["value"].dropna()
        total = float(items.sum())
        if items.empty or total <= 0:
            continue
        deficit = part.attrs.get("deficits", {}).get(year)
        share = (-deficit if deficit else float(items.iloc[0])) / total
        ax.annotate(
            f"{share * 100:.0f} %".replace("-", "\N{MINUS SIGN}"),
            (years.index(year) + offset, tops[year]),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
            color=_CLAIM_COLOURS["equity"],
        )


def balance_sheet(
    data: Any,
    company_id: str | None = None,
    *,
    consolidated: bool = False,
    years: int | None = None,
    ax: Any = None,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """The balance sheet's structure by year: aktiva beside passiva, each stacked by its top-level items.

    Parameters
    ----------
    data : DataFrame or financials answer
        A :func:`regkit.frames.statements` frame (EUR), or a financials answer (``client.get_financials``).
    company_id : str, optional
        The company to draw, when the frame holds several.
    consolidated : bool
        Draw the consolidated (group) reports instead of the company's own.
    years : int, optional
        Draw only the last ``years`` fiscal years (all by default).
    ax : matplotlib Axes, optional
        Where to draw; a new figure otherwise.
    title : str, optional
        The title; ``"Balance sheet structure"`` with the company id by default.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        Each segment is a bar with gid ``"<statement>|<path>|<fiscal year>"``; above each passiva bar its
        equity ratio (negative where equity is: the deficit over the total, the deficit drawn as the last aktiva
        segment with gid ``"aktiva|aktiva/deficit|<fiscal year>"``). The y axis starts at zero (another negative item
        hangs below it) and is in €M (€k for a balance sheet below a million), its label says which.

    Without any balance sheet (a company that files no accounts) the figure says "no published balance sheet for
    <company>" instead and a :class:`~regkit.errors.NoFinancialReportsWarning` is issued.

    Raises
    ------
    regkit.errors.ArgumentError
        ``data`` is neither a statements frame nor a financials answer (an indicators frame, a company record,
        None, a string…): the message names what was given and what to pass.
    regkit.errors.ValidationError
        No consolidated balance sheet when ``consolidated=True`` (:class:`NoStatement`), several companies without
        ``company_id``, or a frame in cents.

    Examples
    --------
    >>> ax = balance_sheet(statements(client.get_financials("DE-HRB-B1234-1")))  # doctest: +SKIP
    """
    try:
        rows = _balance_sheet_rows("balance_sheet", data, company_id, consolidated)
    except NoStatement as missing:
        if consolidated:
            raise
        ax = new_axes(ax, figsize=(8.0, 3.0))
        add_source_line(ax, source, data)
        no_data(
            ax,
            f"no published balance sheet for {_titled(_who(data, company_id), _name_of(data, company_id))}",
            str(missing),
        )
        return ax
    if years is not None:
        if not isinstance(years, int) or isinstance(years, bool) or years < 1:
            raise ValidationError(
                f"years must be a positive number of fiscal years, not {years!r}",
                suggestion="pass e.g. years=5 for the last five, or leave it out for all",
            )
        rows = rows[rows["fiscal_year"].isin(sorted(rows["fiscal_year"].unique())[-years:])]
    shown = sorted(rows["fiscal_year"].unique().tolist())
    ax = new_axes(ax, figsize=(min(9.5, max(6.0, 0.75 * len(shown) + 3.5)), 4.5))
    add_source_line(ax, source, data)
    width = 0.38
    legend: dict[tuple[str, str], str] = {}
    for statement, offset in (("aktiva", -0.2), ("passiva", 0.2)):
        part = rows[rows["statement"] == statement]
        order = list(dict.fromkeys(part["path"]))
        for index, path in enumerate(order):
            item = part[part["path"] == path]
            label = item["label"].iloc[0]
            if path == DEFICIT_PATH:  # white, hatched in the equity colour: the equity that is missing
                colour = "white"
            elif statement == "aktiva":
                colour = _ASSET_COLOURS[index % len(_ASSET_COLOURS)]
            else:
                colour = _claim_colour(label, index)
            legend.setdefault((statement, label), colour)
        up = dict.fromkeys(shown, 0.0)
        down = dict.fromkeys(shown, 0.0)
        for row in part.itertuples(index=False):
            if pd.isna(row.value) or row.value == 0:
                continue
            value, year = float(row.value), int(row.fiscal_year)
            base = up[year] if value > 0 else down[year]
            colour = legend[(statement, row.label)]
            deficit = row.path == DEFICIT_PATH
            (bar,) = ax.bar(
                shown.index(year) + offset,
                value,
                width,
                bottom=base,
                color=colour,
                edgecolor=_CLAIM_COLOURS["equity"] if deficit else "white",
                linewidth=0.6,
                hatch="////" if deficit else None,
            )
            bar.set_gid(f"{statement}|{row.path}|{year}")
            if value > 0:
                up[year] += value
            else:
                down[year] += value
        if statement == "passiva":
            deficits = rows[rows["path"] == DEFICIT_PATH]
            part.attrs["deficits"] = {int(y): float(v) for y, v in zip(deficits["fiscal_year"], deficits["value"])}
            _equity_shares(ax, part, shown, up, offset)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
    ax.set_xlim(-0.6, len(shown) - 0.4)
    _money_axis(ax, float(rows["value"].abs().groupby([rows["fiscal_year"], rows["statement"]]).sum().max()))
    labels = {int(y): fiscal_year_label(d) for y, d in zip(rows["fiscal_year"], rows["period_end"])}
    ax.set_xticks(range(len(shown)), [labels[y] for y in shown])
    ax.set_xticks([i + o for i in range(len(shown)) for o in (-0.2, 0.2)], minor=True)
    ax.set_xticklabels(["A", "P"] * len(shown), minor=True, fontsize=9, color="dimgray")
    ax.tick_params(axis="x", which="major", pad=14, length=0)
    ax.tick_params(axis="x", which="minor", length=0)
    handles = [
        Patch(
            facecolor=c,
            edgecolor=_CLAIM_COLOURS["equity"] if c == "white" else c,
            hatch="////" if c == "white" else None,
            label=f"{'A' if s == 'aktiva' else 'P'}: {label.replace(' (', chr(10) + '    (') if c == 'white' else label}"
            + (" (% of total above)" if s == "passiva" and c == _CLAIM_COLOURS["equity"] else ""),
        )
        for (s, label), c in legend.items()
    ]
    ax.set_xlabel("A: aktiva (assets)   P: passiva (equity and liabilities)", fontsize=9, color="dimgray")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    who = _titled(company_id or rows.attrs.get("company_id") or "", _name_of(data, company_id))
    kind = " (consolidated)" if consolidated else ""
    ax.set_title(
        title
        if title is not None
        else f"Balance sheet structure{kind} of {who}"
        if who
        else f"Balance sheet structure{kind}",
        wrap=True,  # a company's long name: on two lines rather than past the figure's edge
    )
    ax.grid(axis="y", linewidth=0.4, alpha=0.5)
    ax.set_axisbelow(True)
    return ax


#: The cost lines of the waterfall: (measure, label, sign the step takes: +1 a gain, -1 a charge).
#: The step for what EBIT leaves unexplained by the listed lines: the P&L's line 2, the change in inventories.
INVENTORY_STEP = "Change in inventories"
#: The step from income before tax to net income: taxes on income (line 11) and other taxes (line 13) together.
TAX_STEP = "Income and other taxes"
#: The steps a waterfall's results panel shows on its own scale (:func:`pnl_waterfall`).
RESULT_STEPS = ("EBIT", "Financial result", TAX_STEP, "Net income")
#: A results bar shorter than this share of the revenue axis gets a panel of its own: about 8 px of a
#: 968 px cell's waterfall (some 300 px of axis) is 2.5 %.
RESULTS_PANEL_BELOW = 0.04

_COSTS = (
    ("other_operating_income", "Other operating income", 1),
    ("materials", "Cost of materials", -1),
    ("salaries", "Personnel expenses", -1),
    ("operating_depreciation", "Depreciation", -1),
    ("other_operating_expenses", "Other operating expenses", -1),
)


def _value(row: pd.Series, name: str) -> float | None:
    value = row.get(name)
    return None if value is None or pd.isna(value) else float(value)


def waterfall_steps(data: Any, year: int | None = None, company_id: str | None = None) -> pd.DataFrame:
    """The steps of :func:`pnl_waterfall`: from revenue down to net income for one fiscal year.

    Parameters
    ----------
    data : DataFrame or financials answer
        A wide :func:`regkit.frames.indicators` frame of a financials answer (EUR, the 48 measures), or the
        answer itself.
    year : int, optional
        The fiscal year (:func:`regkit.plot.fiscal_years`); the latest with revenue by default.
    company_id : str, optional
        The company, when the frame holds several.

    Returns
    -------
    pandas.DataFrame
        One row per bar: ``step`` (str), ``kind`` (str: ``total``, ``gain`` or ``charge``), ``amount``
        (float64, EUR: a total's value, or the signed change), ``start`` and ``end`` (float64, EUR: where the
        bar begins and ends). Costs are taken by their magnitude; what EBIT leaves unexplained by the listed
        lines is the P&L's line 2 (and own work capitalised, where filed): the ``Change in inventories`` step.
        Financial result = income before tax − EBIT; ``Income and other taxes`` = net income − income before
        tax (lines 11 and 13: taxes on income and other taxes).

    Raises
    ------
    NoStatement
        (a ``ValidationError``) The data hold no P&L (a small company's short filing, a company without reports).
    regkit.errors.ArgumentError
        ``data`` is neither a frame of the 48 measures nor a financials answer.
    regkit.errors.ValidationError
        The data hold no P&L for ``year``.

    Examples
    --------
    >>> frame = pd.DataFrame({"date": pd.to_datetime(["2023-12-31"]), "revenue": [1000.0], "materials": [500.0],
    ...     "salaries": [400.0], "ebit": [100.0], "income_before_tax": [90.0], "net_income": [60.0]})
    >>> waterfall_steps(frame)[["step", "kind", "amount", "end"]]
                         step    kind  amount     end
    0                 Revenue   total  1000.0  1000.0
    1       Cost of materials  charge  -500.0   500.0
    2      Personnel expenses  charge  -400.0   100.0
    3                    EBIT   total   100.0   100.0
    4        Financial result  charge   -10.0    90.0
    5  Income and other taxes  charge   -30.0    60.0
    6              Net income   total    60.0    60.0
    """
    return _steps("statements.waterfall_steps", data, year, company_id)


def _steps(plot: str, data: Any, year: int | None, company_id: str | None) -> pd.DataFrame:
    found, data = check_input(data, plot, FINANCIAL_INDICATORS, FINANCIALS)
    frame = data if found is FINANCIAL_INDICATORS else indicators_frame(_named(data, company_id))
    frame = _one_company(frame, company_id)
    if "is_latest_revision" in frame:
        frame = frame[frame["is_latest_revision"].to_numpy(bool)]
    frame = frame[frame["revenue"].notna() & frame["ebit"].notna() & frame["net_income"].notna()]
    if frame.empty:
        raise NoStatement(_NO_PNL)
    frame = frame.assign(fiscal_year=fiscal_years(frame["date"]))
    if year is None:
        year = int(frame["fiscal_year"].max())
    chosen = frame[frame["fiscal_year"] == year]
    if chosen.empty:
        years = ", ".join(str(y) for y in sorted(frame["fiscal_year"].unique()))
        raise ValidationError(f"no P&L for fiscal year {year}", suggestion=f"pick one the data has: {years}")
    row = chosen.iloc[-1]
    revenue, ebit, net = _value(row, "revenue"), _value(row, "ebit"), _value(row, "net_income")
    assert revenue is not None and ebit is not None and net is not None
    steps: list[tuple[str, str, float]] = [("Revenue", "total", revenue)]
    explained = revenue
    for name, label, sign in _COSTS:
        value = _value(row, name)
        if value:
            steps.append((label, "gain" if sign > 0 else "charge", sign * abs(value)))
            explained += sign * abs(value)
    if round(ebit - explained, 2):
        rest = ebit - explained
        steps.append((INVENTORY_STEP, "gain" if rest > 0 else "charge", rest))
    steps.append(("EBIT", "total", ebit))
    before_tax = _value(row, "income_before_tax")
    if before_tax is None:
        taxes = _value(row, "taxes")
        before_tax = net + abs(taxes) if taxes is not None else net
    financial = before_tax - ebit
    steps.append(("Financial result", "gain" if financial >= 0 else "charge", financial))
    tax_step = net - before_tax
    steps.append((TAX_STEP, "gain" if tax_step > 0 else "charge", tax_step))
    steps.append(("Net income", "total", net))
    level, records = 0.0, []
    for step, kind, amount in steps:
        start, end = (0.0, amount) if kind == "total" else (level, level + amount)
        level = end
        records.append((step, kind, amount, start, end))
    out = pd.DataFrame(records, columns=["step", "kind", "amount", "start", "end"])
    out.attrs.update(fiscal_year=year, period_end=row["date"], company_id=row.get("company_id"))
    return out


def pnl_waterfall(
    data: Any,
    year: int | None = None,
    company_id: str | None = None,
    *,
    ax: Any = None,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """One year's profit and loss account as a waterfall: revenue, costs, EBIT, financial result, taxes, net income.

    Parameters
    ----------
    data : DataFrame or financials answer
        A wide :func:`regkit.frames.indicators` frame of a financials answer (EUR), or the answer.
    year : int, optional
        The fiscal year; the latest with a P&L by default.
    company_id : str, optional
        The company, when the frame holds several.
    ax : matplotlib Axes, optional
        Where to draw; a new figure otherwise.
    title : str, optional
        The title; ``"P&L <year>"`` with the company id by default.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        One bar per step of :func:`waterfall_steps` (gid ``"step|<step>"``; a bar's bottom is its ``start``,
        its height the signed ``amount``), each labelled with its amount inside the frame (the y axis reaches an
        eighth of its span above the highest bar); the y axis is in €M (€k below a million), its label says which.

    Without a P&L (a small company's short filing, or no accounts at all) the figure says "no published P&L for
    <company>" instead and a :class:`~regkit.errors.NoFinancialReportsWarning` is issued.

    Raises
    ------
    regkit.errors.ArgumentError
        ``data`` is neither a frame of the 48 measures nor a financials answer (a statements frame, a company
        record, whose 13 measures hold no EBIT, None…): the message names what was given and what to pass.
    regkit.errors.ValidationError
        The data have no P&L for ``year``.

    Examples
    --------
    >>> ax = pnl_waterfall(client.get_financials("DE-HRB-B1234-1"))  # doctest: +SKIP
    """
    try:
        steps = _steps("pnl_waterfall", data, year, company_id)
    except NoStatement as missing:
        ax = new_axes(ax, figsize=(8.0, 3.0))
        add_source_line(ax, source, data)
        no_data(ax, f"no published P&L for {_titled(_who(data, company_id), _name_of(data, company_id))}", str(missing))
        return ax
    results = steps[steps["step"].isin(RESULT_STEPS)]
    scale = float(steps[["start", "end"]].abs().to_numpy().max()) or 1.0
    small = float(results["amount"].abs().min()) < RESULTS_PANEL_BELOW * scale
    own = ax is None
    if own and small:  # the account down to EBIT above, the results below it on their own scale
        import matplotlib.pyplot as plt

        fig, (ax, zoom) = plt.subplots(
            2, 1, figsize=(9.3, 7.4), layout="constrained", gridspec_kw={"height_ratios": [3, 2]}
        )
        operating = steps.iloc[: int(np.flatnonzero(steps["step"].to_numpy() == "EBIT")[0]) + 1]
    else:
        ax = new_axes(ax, figsize=(min(9.5, max(7.0, 0.95 * len(steps) + 1.5)), 4.5))
        zoom, operating = None, steps
    add_source_line(ax, source, data)
    _waterfall_bars(ax, operating.reset_index(drop=True))
    unit = _money_axis(ax, scale)
    if zoom is not None:
        _waterfall_bars(zoom, results.reset_index(drop=True), gid_prefix="result")
        own_unit = _money_axis(zoom, float(results[["start", "end"]].abs().to_numpy().max()))
        zoom.set_title(f"EBIT to net income, on its own scale ({own_unit})", fontsize=10, loc="left")
        zoom.grid(axis="y", linewidth=0.4, alpha=0.5)
        zoom.set_axisbelow(True)
    handles = [
        Patch(color=_TOTAL, label="total"),
        Patch(color=_GAIN, label="adds"),
        Patch(color=_CHARGE, label="costs"),
    ]
    ax.legend(handles=handles, loc="upper right", fontsize=9, frameon=False)
    who = _titled(steps.attrs.get("company_id") or "", _name_of(data, company_id))
    label = fiscal_year_label(steps.attrs["period_end"])
    default = f"P&L {label} of {who}" if who else f"P&L {label}"
    if zoom is not None:
        ax.figure.suptitle(title if title is not None else default, fontsize=12)
        ax.set_title(f"revenue to EBIT ({unit})", fontsize=10, loc="left")
    else:
        ax.set_title(title if title is not None else default, wrap=True)
    ax.grid(axis="y", linewidth=0.4, alpha=0.5)
    ax.set_axisbelow(True)
    return ax


def _waterfall_bars(ax: Any, steps: pd.DataFrame, gid_prefix: str = "step") -> None:
    """The bars of a waterfall (one per row of ``steps``), each with its amount above it, the connectors between
    them, a zero line and room above the highest label."""
    colours = {"total": _TOTAL, "gain": _GAIN, "charge": _CHARGE}
    xs = np.arange(len(steps))
    for x, row in zip(xs, steps.itertuples(index=False)):
        height = row.end - row.start
        (bar,) = ax.bar(x, height, 0.6, bottom=row.start, color=colours[row.kind], edgecolor="white")
        bar.set_gid(f"{gid_prefix}|{row.step}")
        top = max(row.start, row.end)
        sign = "+" if row.kind == "gain" else ""
        ax.annotate(
            f"{sign}{eur_text(row.amount, 1)}",
            (x, top),
            xytext=(0, 2),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
        )
    for i, (level, kind) in enumerate(zip(steps["end"].iloc[:-1], steps["kind"].iloc[1:])):
        if kind != "total":
            ax.plot([i + 0.3, i + 0.7], [level, level], color="gray", linewidth=0.6)
    ax.axhline(0, color="black", linewidth=0.9, gid="zero")
    highest = max(0.0, float(steps[["start", "end"]].to_numpy().max()))
    lowest = min(0.0, float(steps[["start", "end"]].to_numpy().min()))
    span = (highest - lowest) or 1.0
    ax.set_ylim(lowest - (0.06 * span if lowest < 0 else 0.0), highest + 0.16 * span)  # room for the top labels
    ax.set_xticks(xs, [textwrap.fill(step, 11, break_long_words=False) for step in steps["step"]], fontsize=9)
    ax.yaxis.set_major_locator(ticker.MaxNLocator(6))


def _name_of(data: Any, company_id: str | None) -> str | None:
    """The company's name where the data carry one, else ``None``: a record's ``company_name`` (the client read
    it from its cache), a frame's ``attrs["company_names"]``, a frame's ``company_name`` column, an answer's
    ``name``."""
    name = getattr(data, "company_name", None)
    if isinstance(name, str) and name.strip():
        return name.strip()
    if isinstance(data, Mapping) and company_id in data and not isinstance(data, pd.DataFrame):
        return _name_of(data[company_id], company_id)
    if isinstance(data, Mapping) and len(data) == 1 and "reports" not in data:
        return _name_of(next(iter(data.values())), company_id)
    if isinstance(data, pd.DataFrame):
        names = data.attrs.get("company_names") or {}
        ids = (
            [company_id]
            if company_id
            else data["company_id"].dropna().unique().tolist()
            if "company_id" in data
            else []
        )
        if len(ids) == 1 and names.get(ids[0]):
            return str(names[ids[0]])
    raw = getattr(data, "raw", data)
    if isinstance(raw, dict):
        for key in ("name", "company_name"):
            value = raw.get(key)
            if isinstance(value, dict):
                value = value.get("name")
            if isinstance(value, str) and value.strip():
                return value.strip()
    if isinstance(data, pd.DataFrame) and "company_name" in data:
        names = data["company_name"].dropna().unique().tolist()
        if len(names) == 1:
            return str(names[0])
    return None


def _titled(who: str, name: str | None) -> str:
    """``"Name (id)"``, the id alone without a name, the name alone without an id."""
    if name and who and who not in name:
        return f"{name} ({who})"
    return name or who
