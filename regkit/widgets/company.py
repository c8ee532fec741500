"""``CompanyExplorer``: find a company, then browse it in tabs — thin wiring over
:mod:`regkit.widgets.company_logic`, :mod:`regkit.widgets.company_tables` and :mod:`regkit.widgets.search_logic`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import RegkitError, explain_arguments
from regkit.schema import column_label

from . import company_logic as logic
from . import company_tables, search_logic
from .base import Explorer
from .company_changes import ChangesPane
from .company_documents import DocumentDownloads
from .company_financials import FinancialsPane
from .company_panes import TablePane
from .messages import error_text
from .render import message_html

if TYPE_CHECKING:
    import pandas as pd

    from regkit.client import CompanyRecord, OwnersRecord
    from regkit.client.protocol import RegisterClient

__all__ = ["CompanyExplorer"]

_OWNERS_HELP = "Owners are a lookup of their own: GET /v1/company/{id}/owners, 10 credits, free from the cache."
_TABLE_TABS = {"representatives": company_tables.representatives_table, "documents": company_tables.documents_table}
_EMPTY = {"representatives": "no representatives registered", "documents": "no documents"}


@explain_arguments
class CompanyExplorer(Explorer):
    """Find a company and browse it: summary, histories, representatives, owners, indicators, documents,
    insolvencies and links.

    If you know the id, type it: it is checked as it is typed, with the client's own validation, and nothing
    is sent (and nothing paid) until it is well formed and **Load** is clicked. Otherwise type a name or
    register text into **Find** and press Enter or click **Find**: register text (``"HRB 152955 Darmstadt"``)
    becomes the id offline; a name is looked up with autocomplete (0 credits) and up to 10 matches are listed
    in a table (name, register, court, city, legal form, status) — **click a row** to fill in its id, then
    **Load**. A lookup costs 10 credits, 0 from the cache, and the **Load** button always says which
    (``"Load (10 credits)"``, ``"Load (0 credits, cached)"``). The owners are a lookup of their own (10
    credits, 0 from the cache; for an AG, SE or KGaA those known from filed documents): the **owners** tab's
    button says what it costs. The credits line shows what the client has spent.

    Nothing stale stays on screen: typing an id other than the company shown greys its tabs (and the status
    line says so) until **Load** replaces them; an error (a 404 for an unknown id) clears them; a new **Find**
    clears the old matches. Tables are formatted for a reader (labels, ``€``, ``%``, no UUIDs); a list longer
    than :data:`~regkit.widgets.company_panes.LONG` rows (representatives of a big AG, documents, owners) is
    sortable and searchable, a shorter one a plain table.

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()``.
    company_id : str, optional
        Put this id in the input (not loaded until ``load()`` or a click on **Load**).

    Attributes
    ----------
    company_id : ipywidgets.Text
    load_button : ipywidgets.Button
        Disabled while the id is not well formed; its label says the cost (0 when cached).
    search : ipywidgets.Text
        A name or register text; submitted with Enter (``continuous_update`` is off: typing sends nothing).
    find_button : ipywidgets.Button
    matches : itables.widget.ITable or None
        The table of what **Find** found by name (``None`` before, and for register text); selecting row
        ``i`` — a click, or ``explorer.matches.selected_rows = [i]`` — fills in the id of match ``i``.
    match_frame : pandas.DataFrame or None
        Those matches, raw (:func:`~regkit.widgets.search_logic.match_frame`), in the table's order.
    status, credits : ipywidgets.HTML
        Messages (search, validation, loaded, errors) and the credits line.
    tabs : ipywidgets.Tab
        One tab per name of :data:`~regkit.widgets.company_logic.TABS`; greyed (class ``regkit-stale``)
        while the id typed is not the company shown.
    panes : dict of str to ipywidgets.HTML
        The HTML of each tab but ``indicators`` (the ``metrics`` picker above the ``indicator_chart``) and
        ``owners`` (the ``owners_button`` above ``owners_pane``); for a table tab, the part above the table.
    tables : dict of str to TablePane
        ``representatives``, ``documents`` and ``owners``: ``tables[name].table`` is the sortable table of a
        long list (``None`` for a short one, which is a static table in ``panes[name]``).
    document_downloads : DocumentDownloads
        Below the documents list: a document to pick (listed ones, free; or a category the register makes now,
        20 credits), the directory, a **Download** button whose label says the cost (0 when the directory
        already has the file) and the result, path and size (:mod:`regkit.widgets.company_documents`).
    record : CompanyRecord or None
        The company shown.
    owners : OwnersRecord or None
        Its owners, once fetched.
    financials : FinancialsPane
        The **financials** tab: its button says what fetching the statements costs (or that the company filed
        none), then the balance sheet or P&L as a collapsible tree with a column per fiscal year
        (:mod:`regkit.widgets.company_financials`).

    Examples
    --------
    >>> explorer = CompanyExplorer(regkit.Client())     # doctest: +SKIP
    >>> explorer.search.value = "Waldstein"             # doctest: +SKIP
    >>> explorer.matches.selected_rows = [0]            # doctest: +SKIP
    >>> explorer.load_button.click()                    # doctest: +SKIP
    >>> explorer                                        # doctest: +SKIP
    """

    TITLE = "Company"

    def __init__(self, client: RegisterClient | None = None, company_id: str = "") -> None:
        super().__init__(client)
        self.record: CompanyRecord | None = None
        self.owners: OwnersRecord | None = None
        self.match_frame: pd.DataFrame | None = None
        self.company_id = widgets.Text(
            description="Company id", placeholder=logic.EXAMPLE_ID, layout=widgets.Layout(width="360px")
        )
        self.load_button = widgets.Button(
            description="Load",
            button_style="primary",
            disabled=True,
            tooltip="GET /v1/company/{id}: 10 credits, free from the cache",
            layout=widgets.Layout(width="auto"),
        )
        self.search = widgets.Text(
            description="Find",
            continuous_update=False,
            layout=widgets.Layout(width="360px"),
            placeholder=f"a name, or {search_logic.REGISTER_EXAMPLE}",
        )
        self.find_button = widgets.Button(
            description="Find (free)",
            tooltip="register text is read offline; a name is looked up with autocomplete: 0 credits",
            layout=widgets.Layout(width="auto"),
        )
        self.match_pane = TablePane()
        self.metrics = widgets.SelectMultiple(description="Metrics", options=[], rows=6)
        self.indicator_chart = widgets.HTML()
        self.owners_button = widgets.Button(
            description="Fetch owners", disabled=True, tooltip=_OWNERS_HELP, layout=widgets.Layout(width="auto")
        )
        self.tables = {name: TablePane() for name in (*_TABLE_TABS, "owners")}
        self.owners_pane = self.tables["owners"].head
        self.panes = {
            name: self.tables[name].head if name in self.tables else widgets.HTML()
            for name in logic.TABS
            if name not in ("indicators", "owners", "financials", "changes")
        }
        self.financials = FinancialsPane()
        self.changes = ChangesPane()
        special = {
            "indicators": widgets.VBox([self.metrics, self.indicator_chart]),
            "owners": widgets.VBox([self.owners_button, self.tables["owners"]]),
            "financials": self.financials,
            "changes": self.changes,
            **{name: self.tables[name] for name in _TABLE_TABS},
        }
        # documents tab: the list, and below it the download controls (issue 23, slice D)
        self.document_downloads = DocumentDownloads(self.client, meter=self.metered)
        special["documents"] = widgets.VBox([self.tables["documents"], self.document_downloads])
        self.tabs = widgets.Tab(
            children=[special.get(name) or self.panes[name] for name in logic.TABS], titles=logic.TABS
        )
        self.children = [
            self.css,
            widgets.HBox([self.search, self.find_button]),
            self.match_pane,
            widgets.HBox([self.company_id, self.load_button]),
            self.status,
            self.credits,
            self.tabs,
        ]
        self.company_id.observe(self._on_id, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.search.observe(lambda _: self.find(), names="value")
        self.find_button.on_click(lambda _: self.find())
        self.owners_button.on_click(lambda _: self.load_owners())
        self.financials.button.on_click(lambda _: self.load_financials())
        self.changes.button.on_click(lambda _: self.compare())
        self.metrics.observe(lambda _: self._draw_indicators(), names="value")
        self.company_id.value = company_id
        self._on_id()
        self._clear()

    @property
    def matches(self) -> Any:
        """The table of matches (``itables.widget.ITable``), or ``None`` when there is none."""
        return self.match_pane.table

    def _on_id(self, change: Any = None) -> None:
        cid, message = logic.check_company_id(self.company_id.value)
        self.load_button.disabled = cid is None
        self.load_button.description = logic.load_button_text(self.client, cid)
        shown = None if self.record is None else str(self.record.raw["id"])
        self.mark_stale(self.tabs, shown is not None and cid != shown)
        if shown is not None and cid != shown:
            message += message_html(
                f"The tabs below still show {shown}, not the id typed: click Load to replace them.", "warning"
            )
        self.status.value = message

    def find(self) -> list[tuple[str, str]]:
        """Find the text of ``search``: register text → its id (filled in); a name → up to 10 matches to click
        (autocomplete, 0 credits; a single match is selected). Returns the matches ``(label, company id)``."""
        self.match_pane.clear()  # the old matches go first: they answer another question
        self.match_frame = None
        frame, found, message = self.metered(lambda: search_logic.find_company_matches(self.client, self.search.value))
        if found is not None:
            self.company_id.value = found
            self.status.value = message + self.status.value
            return [(self.search.value.strip(), found)]
        if frame is not None and len(frame):
            self.match_frame = frame
            self.match_pane.show(
                "",
                frame,
                [c for c in search_logic.MATCH_COLUMNS if c != "company_id"] + ["company_id"],
                on_select=self._on_pick,
            )
            if len(frame) == 1:
                self.matches.selected_rows = [0]  # one match: nothing to pick
        self.status.value = message + (self.status.value if frame is not None and len(frame) == 1 else "")
        return [(str(r["name"]), str(r["company_id"])) for r in frame.to_dict("records")] if frame is not None else []

    def _on_pick(self, position: int | None) -> None:
        if position is None or self.match_frame is None:
            return
        row = self.match_frame.iloc[position]
        self.company_id.value = str(row["company_id"])
        self.status.value = message_html(
            f"{row['name']} ({row['company_id']}): click {self.load_button.description} to fetch it.", "ok"
        )

    def load(self) -> CompanyRecord | None:
        """Fetch the company in the input and fill the tabs; returns the record (``None`` on an error, when
        the tabs are cleared: they never show another company than the status line names)."""
        cid, message = logic.check_company_id(self.company_id.value)
        if cid is None:
            self.status.value = message
            return None
        self.status.value = message_html(f"Loading {cid} …")
        record, message = self.metered(lambda: logic.load_company(self.client, cid))
        if record is None:
            self._clear()
        else:
            self.show(record)
        self.load_button.description = logic.load_button_text(self.client, cid)
        self.status.value = message
        return record

    def _clear(self) -> None:
        self.record = self.owners = None
        self.mark_stale(self.tabs, False)
        for name, pane in self.panes.items():
            if name in self.tables:
                self.tables[name].clear()
            else:
                pane.value = ""
        self.metrics.options = ()
        self.indicator_chart.value = ""
        self.tables["owners"].clear("Load a company first.")
        self.owners_button.description = "Fetch owners"
        self.owners_button.disabled = True
        self.document_downloads.clear()
        self.financials.clear("Load a company first.")
        self.financials.button.description, self.financials.button.disabled = "Fetch financials", True
        self.changes.clear("Load a company first.")

    def _fill(self, pane: TablePane, make: Callable[[], Any], empty: str, name: str) -> None:
        try:
            head, frame, columns = make()
        except (RegkitError, ValueError) as exc:
            pane.message(message_html(f"{name}: cannot show this record. {error_text(exc)}", "error"))
            return
        pane.show(head, frame, columns, empty=empty)

    def show(self, record: CompanyRecord) -> None:
        """Fill the tabs from a record (no lookup; the owners wait for a click on **Fetch owners**)."""
        self.record, self.owners = record, None
        self.mark_stale(self.tabs, False)
        for name, pane in self.panes.items():
            make = _TABLE_TABS.get(name)
            if make is not None:
                self._fill(self.tables[name], partial(make, record), _EMPTY[name], name)
            else:
                pane.value = logic.tab_html(record, name)
        options = logic.indicator_metrics(record)
        default = tuple(m for m in ("revenue", "equity", "balance_sheet_total") if m in options)[:2]
        self.metrics.options = [(column_label(m), m) for m in options]  # resets the value (one redraw)
        self.metrics.value = default
        self._draw_indicators()
        self.document_downloads.show(record)
        company, best = logic.owners_request(record)
        how = " (an AG, SE or KGaA: the owners known from filed documents)" if best else ""
        self.tables["owners"].clear(f"The owners of {company}{how} are fetched on a click. {_OWNERS_HELP}")
        self.owners_button.description = logic.owners_button_text(self.client, record)
        self.owners_button.disabled = False
        self.financials.prepare(self.client, record)
        self.changes.show(self.client, str(record.raw["id"]), str(record.raw["name"]["name"]))

    def compare(self) -> CompanyRecord | None:
        """Fetch the company shown again (paid) and show what changed since the answer before (the **changes**
        tab); returns the fresh record (``None`` on an error)."""
        if self.record is None:
            return None
        company_id = str(self.record.raw["id"])
        try:
            self.client.mark_stale(company_id)
        except (RegkitError, ValueError) as exc:
            self.status.value = message_html(f"cannot fetch {company_id} again: {error_text(exc)}", "error")
            return None
        self.company_id.value = company_id
        record = self.load()
        if record is not None:
            self.tabs.selected_index = logic.TABS.index("changes")
        return record

    def load_owners(self) -> OwnersRecord | None:
        """Fetch and show the owners of the company shown; returns the owners record (``None`` on an error)."""
        if self.record is None:
            return None
        found, message = self.metered(lambda: logic.load_owners(self.client, self.record))
        self.owners = found
        if found is None:
            self.tables["owners"].message(message)
        else:
            self._fill(
                self.tables["owners"],
                partial(_with_head, message, partial(company_tables.owners_table, found)),
                "no owners known",
                "owners",
            )
        self.owners_button.description = logic.owners_button_text(self.client, self.record)
        return found

    def load_financials(self) -> Any:
        """Fetch and show the financial statements of the company shown (the **financials** tab); returns the
        answer (``None`` on an error, or when the company record lists no annual report: nothing is sent)."""
        from .company_financials import financials_button_text, has_reports, load_financials

        if self.record is None or not has_reports(self.record):
            return None
        company_id = str(self.record.raw["id"])
        found, message = self.metered(lambda: load_financials(self.client, company_id))
        if found is None:
            self.financials.clear()
            self.financials.head.value = message
        else:
            self.financials.show(found, message)
        self.financials.button.description = financials_button_text(self.client, self.record)
        return found

    def _draw_indicators(self) -> None:
        if self.record is not None:
            self.indicator_chart.value = logic.indicator_chart_html(self.record, self.metrics.value)


def _with_head(message: str, make: Callable[[], tuple[str, Any, list[str]]]) -> tuple[str, Any, list[str]]:
    head, frame, columns = make()
    return message + head, frame, columns
