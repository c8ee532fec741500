"""The **financials** tab of :class:`~regkit.widgets.CompanyExplorer`: a company's balance sheet and P&L as filed.

The statements are a lookup of their own (``GET /v1/company/{id}/financials``, 10 credits, free from the cache):
the tab's button says what a click costs before anything is paid, and says so when the company record lists
no annual report at all (its ``indicators`` are the reports' own, so there is nothing to fetch: no credits are
spent on an empty answer). Once fetched, one statement (aktiva, passiva or the P&L) is shown as a tree with a
column per fiscal year, latest first: each subtotal is a native HTML ``<details>`` element that opens and
closes with a click, and **Levels** opens every subtotal down to a depth at once.

The functions return HTML or plain data of a client, a record or a frame, so they are tested without widgets;
:class:`FinancialsPane` only wires them to controls.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import pandas as pd

from regkit.errors import RegkitError
from regkit.frames import statements
from regkit.schema.formatting import credits_text, euro_text
from regkit.schema.interface import PRICES

from .messages import error_html, message_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = [
    "STATEMENT_TITLES",
    "FINANCIALS_CSS",
    "FinancialsPane",
    "financials_cost",
    "financials_button_text",
    "has_reports",
    "load_financials",
    "statement_years",
    "statement_html",
]

STATEMENT_TITLES = {"aktiva": "Assets (Aktiva)", "passiva": "Equity & liabilities (Passiva)", "guv": "P&L (GuV)"}
"""The statements a report holds, as the tab's picker names them."""

FINANCIALS_CSS = (
    "<style>"
    ".regkit-fin{font-size:12.5px;margin:4px 0 10px 0;overflow-x:auto}"
    ".regkit-fin .regkit-fin-row{display:grid;grid-template-columns:minmax(300px,1fr) repeat(var(--years),104px);"
    "min-width:calc(300px + var(--years) * 104px);border-bottom:1px solid #e5e7eb;padding:2px 0}"
    ".regkit-fin .regkit-fin-head{font-weight:600;border-bottom:1.5px solid #57606a}"
    ".regkit-fin summary{list-style:none;cursor:pointer;display:block}"
    ".regkit-fin summary::-webkit-details-marker{display:none}"
    ".regkit-fin .regkit-fin-label::before{content:'';display:inline-block;width:1.1em}"
    ".regkit-fin details>summary .regkit-fin-label::before{content:'\\25B8'}"
    ".regkit-fin details[open]>summary .regkit-fin-label::before{content:'\\25BE'}"
    ".regkit-fin .regkit-fin-num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;"
    "padding-right:8px}"
    ".regkit-fin .regkit-fin-total{font-weight:600}"
    ".regkit-fin .regkit-fin-de{color:#6b7280;font-size:11px;margin-left:6px}"
    "</style>"
)
"""The style of the statement tree (rows are CSS grids: the label, then one column per year)."""


def has_reports(record: Any) -> bool:
    """Whether the company record lists any annual report (its ``indicators``, one entry per report)."""
    raw = getattr(record, "raw", record)
    return bool(raw.get("indicators"))


def financials_cost(client: RegisterClient, company_id: str) -> int:
    """Credits fetching the company's financials would cost now: 0 when cached, else 10 (nothing is sent)."""
    cached = client.is_cached(company_id, endpoint="financials")
    return 0 if cached else PRICES["financials"]


def financials_button_text(client: RegisterClient, record: Any) -> str:
    """``"Fetch financials (10 credits)"``, ``"… (0 credits, cached)"``, or that there is nothing to fetch."""
    if not has_reports(record):
        return "No annual reports filed"
    cost = financials_cost(client, str(getattr(record, "raw", record)["id"]))
    return f"Fetch financials ({credits_text(cost, cached=cost == 0)})"


def load_financials(client: RegisterClient, company_id: str) -> tuple[Any, str]:
    """Fetch a company's financials; ``(answer, message)`` or ``(None, error message)`` — errors are shown."""
    try:
        found = client.get_financials(company_id)
    except RegkitError as exc:
        return None, error_html(exc)
    meta = getattr(found, "meta", None)
    cost = credits_text(meta.credits, cached=meta.from_cache) if meta is not None else ""
    reports = len(getattr(found, "raw", found).get("reports") or [])
    return found, message_html(f"Fetched {reports} annual report(s){f' ({cost})' if cost else ''}.", "ok")


def _kind(frame: pd.DataFrame, consolidated: bool) -> pd.DataFrame:
    part = frame[frame["consolidated"] == consolidated]
    return part[part["is_latest_revision"].to_numpy(bool)]  # a correction replaces the report it corrects


def statement_years(frame: pd.DataFrame, consolidated: bool = False) -> list[pd.Timestamp]:
    """The period ends of the reports :func:`statement_html` shows as columns, latest first."""
    return sorted(_kind(frame, consolidated)["period_end"].unique(), reverse=True)


def _year_label(end: Any) -> str:
    stamp = pd.Timestamp(end)
    return str(stamp.year) if (stamp.month, stamp.day) == (12, 31) else stamp.strftime("%Y-%m-%d")


def statement_html(
    frame: pd.DataFrame, statement: str = "aktiva", depth: int = 1, *, consolidated: bool = False
) -> str:
    """One statement of a :func:`regkit.frames.statements` frame as a collapsible tree, a column per year.

    Parameters
    ----------
    frame : pandas.DataFrame
        The statements of one company (EUR).
    statement : {"aktiva", "passiva", "guv"}
    depth : int
        Subtotals above this level start open (1: only the top rows show; a large number: everything).
    consolidated : bool
        Show the group's consolidated reports instead of the company's own.

    Returns
    -------
    str
        HTML: a header row (the line item, then the fiscal years, latest first) and one row per line item of
        the latest report's structure (a line item of an earlier year only is added where it was), each amount
        in EUR (``–`` where not filed); a subtotal is a ``<details>`` element holding its children.
    """
    if statement not in STATEMENT_TITLES:
        raise ValueError(f"statement must be one of {', '.join(STATEMENT_TITLES)}, not {statement!r}")
    part = _kind(frame, consolidated)
    part = part[part["statement"] == statement]
    if part.empty:
        what = "P&L: a small company files a short balance sheet only" if statement == "guv" else statement
        return message_html(f"No {what} in the {'consolidated ' if consolidated else ''}reports.")
    years = statement_years(frame, consolidated)
    values = part.pivot_table(index="path", columns="period_end", values="value", aggfunc="last")
    rows = part.sort_values(["period_end", "position"], ascending=[False, True]).drop_duplicates("path")
    children: dict[str, list[Any]] = {}
    for row in rows.itertuples(index=False):
        parent = row.path.rsplit("/", 1)[0] if row.level > 1 else ""
        children.setdefault(parent, []).append(row)

    def cells(path: str) -> str:
        out = []
        for end in years:
            value = values.at[path, end] if path in values.index and end in values.columns else None
            out.append(
                f'<span class="regkit-fin-num">{html.escape(euro_text(None if pd.isna(value) else value))}</span>'
            )
        return "".join(out)

    def line(row: Any) -> str:
        indent = 14 * (row.level - 1)
        german = f'<span class="regkit-fin-de">{html.escape(row.formatted_name)}</span>'
        label = (
            f'<span class="regkit-fin-label" style="padding-left:{indent}px">{html.escape(row.label)}{german}</span>'
        )
        total = " regkit-fin-total" if row.has_children else ""
        body = f'<div class="regkit-fin-row{total}" data-path="{html.escape(row.path)}">{label}{cells(row.path)}</div>'
        below = children.get(row.path)
        if not below:
            return body
        is_open = " open" if row.level < depth else ""
        inner = "".join(line(child) for child in below)
        return f"<details{is_open}><summary>{body}</summary>{inner}</details>"

    head = "".join(f'<span class="regkit-fin-num">{_year_label(end)}</span>' for end in years)
    header = f'<div class="regkit-fin-row regkit-fin-head"><span>Line item (EUR)</span>{head}</div>'
    body = "".join(line(row) for row in children.get("", []))
    return f'{FINANCIALS_CSS}<div class="regkit-fin" style="--years:{len(years)}">{header}{body}</div>'


class FinancialsPane(widgets.VBox):
    """The financials tab: **Fetch** (its cost on the button), the statement and level pickers, the tree.

    Attributes
    ----------
    button : ipywidgets.Button
    statement : ipywidgets.ToggleButtons
        ``aktiva``, ``passiva`` or ``guv``.
    levels : ipywidgets.ToggleButtons
        How deep the subtotals start open (1, 2, 3: everything).
    consolidated : ipywidgets.Checkbox
        The group's consolidated reports (shown only for a company that files them).
    head, table : ipywidgets.HTML
        Messages; the statement tree (:func:`statement_html`).
    answer : record or None
        The financials fetched; ``frame`` their :func:`regkit.frames.statements` frame.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.button = widgets.Button(
            description="Fetch financials",
            disabled=True,
            tooltip="GET /v1/company/{id}/financials: 10 credits, free from the cache",
            layout=widgets.Layout(width="auto"),
        )
        self.statement = widgets.ToggleButtons(
            options=[(t, s) for s, t in STATEMENT_TITLES.items()], value="aktiva", style={"button_width": "auto"}
        )
        self.levels = widgets.ToggleButtons(
            description="Levels open", options=[("1", 1), ("2", 2), ("all", 9)], value=1, style={"button_width": "44px"}
        )
        self.consolidated = widgets.Checkbox(description="consolidated (group)", value=False, indent=False)
        self.head = widgets.HTML()
        self.table = widgets.HTML()
        self.answer: Any = None
        self.frame: pd.DataFrame | None = None
        self.controls = widgets.VBox([self.statement, widgets.HBox([self.levels, self.consolidated])])
        super().__init__([widgets.HBox([self.button]), self.head, self.controls, self.table], **kwargs)
        for control in (self.statement, self.levels, self.consolidated):
            control.observe(lambda _: self.draw(), names="value")
        self.clear("Load a company first.")

    def clear(self, text: str = "") -> None:
        """Forget the financials shown; show ``text``."""
        self.answer, self.frame = None, None
        self.head.value = message_html(text) if text else ""
        self.table.value = ""
        self.controls.layout.display = "none"

    def prepare(self, client: RegisterClient, record: Any) -> None:
        """Ready the tab for ``record`` (nothing is sent): the button says what fetching costs."""
        self.clear(
            "The financial statements are a lookup of their own: GET /v1/company/{id}/financials, "
            "10 credits, free from the cache."
            if has_reports(record)
            else "The company record lists no annual report: there are no statements to fetch (nothing is spent)."
        )
        self.button.description = financials_button_text(client, record)
        self.button.disabled = not has_reports(record)

    def show(self, answer: Any, message: str = "") -> None:
        """Show a financials answer (a record of ``client.get_financials``)."""
        self.answer = answer
        self.frame = statements(answer)
        has_group = bool(self.frame["consolidated"].any())
        self.consolidated.layout.display = None if has_group else "none"
        if not has_group:
            self.consolidated.value = False
        self.head.value = message
        self.controls.layout.display = None
        self.draw()

    def draw(self) -> None:
        """Redraw the tree from the pickers."""
        if self.frame is None:
            return
        if self.frame.empty:
            self.table.value = message_html("No annual reports filed.")
            return
        self.table.value = statement_html(
            self.frame, self.statement.value, self.levels.value, consolidated=self.consolidated.value
        )
