"""``CompanyExplorer``: find a company, then browse it in tabs — thin wiring over
:mod:`regkit.widgets.company_logic` and :mod:`regkit.widgets.search_logic`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from . import company_logic as logic
from . import search_logic
from .base import Explorer
from .render import message_html

__all__ = ["CompanyExplorer"]

_OWNERS_HELP = "Owners are a lookup of their own: GET /v1/company/{id}/owners, 10 credits, free from the cache."


class CompanyExplorer(Explorer):
    """Find a company and browse it: summary, histories, representatives, owners, indicators, documents,
    insolvencies and links.

    If you know the id, type it: it is checked as it is typed, with the client's own validation, and nothing
    is sent (and nothing paid) until it is well formed and **Load** is clicked. Otherwise type a name or
    register text into **Find** and press Enter or click **Find**: register text (``"HRB 152955 Darmstadt"``)
    becomes the id offline, a name is looked up with autocomplete (0 credits) and up to 10 matches are
    listed; picking one fills in the id. A lookup costs 10 credits, 0 from the cache, and the **Load** button
    says which. The owners are a lookup of their own (10 credits, 0 from the cache; for an AG, SE or KGaA
    those known from filed documents): the **owners** tab's button says what it costs. The credits line
    shows what the client has spent.

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
    matches : ipywidgets.Select
        What **Find** found (label, company id); picking one fills ``company_id``.
    status, credits : ipywidgets.HTML
        Messages (search, validation, loaded, errors) and the credits line.
    tabs : ipywidgets.Tab
        One ``HTML`` pane per tab of :data:`~regkit.widgets.company_logic.TABS` (``panes[name]``), except
        ``indicators`` (the ``metrics`` picker above the ``indicator_chart``) and ``owners`` (the
        ``owners_button`` above ``owners_pane``).
    record : CompanyRecord or None
        The company shown.
    owners : OwnersRecord or None
        Its owners, once fetched.

    Examples
    --------
    >>> explorer = CompanyExplorer(regkit.Client())     # doctest: +SKIP
    >>> explorer.search.value = "HRB 65834 Darmstadt"   # doctest: +SKIP
    >>> explorer.load_button.click()                    # doctest: +SKIP
    >>> explorer                                        # doctest: +SKIP
    """

    def __init__(self, client: Any = None, company_id: str = "") -> None:
        super().__init__(client)
        self.record: Any = None
        self.owners: Any = None
        self.company_id = widgets.Text(description="Company id", placeholder=logic.EXAMPLE_ID,
                                       layout=widgets.Layout(width="360px"))  # fmt: skip
        self.load_button = widgets.Button(description="Load (10 credits)", button_style="primary", disabled=True,
                                          tooltip="GET /v1/company/{id}: 10 credits, free from the cache",
                                          layout=widgets.Layout(width="auto"))  # fmt: skip
        self.search = widgets.Text(description="Find", continuous_update=False, layout=widgets.Layout(width="360px"),
                                   placeholder=f"a name, or {search_logic.REGISTER_EXAMPLE}")  # fmt: skip
        self.find_button = widgets.Button(description="Find (free)", tooltip="register text is read offline; "
                                          "a name is looked up with autocomplete: 0 credits",
                                          layout=widgets.Layout(width="auto"))  # fmt: skip
        self.matches = widgets.Select(description="Matches", options=[], rows=1, layout=widgets.Layout(width="95%",
                                      display="none"))  # fmt: skip
        self.metrics = widgets.SelectMultiple(description="Metrics", options=[], rows=6)
        self.indicator_chart = widgets.HTML()
        self.owners_button = widgets.Button(description="Fetch owners", disabled=True, tooltip=_OWNERS_HELP,
                                            layout=widgets.Layout(width="auto"))  # fmt: skip
        self.owners_pane = widgets.HTML()
        self.panes = {name: widgets.HTML() for name in logic.TABS if name not in ("indicators", "owners")}
        special = {"indicators": widgets.VBox([self.metrics, self.indicator_chart]),
                   "owners": widgets.VBox([self.owners_button, self.owners_pane])}  # fmt: skip
        self.tabs = widgets.Tab(children=[self.panes.get(name) or special[name] for name in logic.TABS],
                                titles=logic.TABS)  # fmt: skip
        self.children = [widgets.HBox([self.search, self.find_button]), self.matches,
                         widgets.HBox([self.company_id, self.load_button]), self.status, self.credits,
                         self.tabs]  # fmt: skip
        self.company_id.observe(self._on_id, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.search.observe(lambda _: self.find(), names="value")
        self.find_button.on_click(lambda _: self.find())
        self.matches.observe(self._on_pick, names="value")
        self.owners_button.on_click(lambda _: self.load_owners())
        self.metrics.observe(lambda _: self._draw_indicators(), names="value")
        self.company_id.value = company_id
        self._on_id()
        self._clear()

    def _on_id(self, change: Any = None) -> None:
        cid, message = logic.check_company_id(self.company_id.value)
        self.load_button.disabled = cid is None
        self.status.value = message
        self._show_load_cost(cid)

    def _show_load_cost(self, cid: str | None) -> None:
        if cid is not None:
            cached = self.client.is_cached(cid)
            self.load_button.description = "Load (cached: 0 credits)" if cached else "Load (10 credits)"

    def find(self) -> list[tuple[str, str]]:
        """Find the text of ``search``: register text → its id (filled in); a name → up to 10 matches to pick
        from (autocomplete, 0 credits). Returns the matches ``(label, company id)``."""
        options, message = search_logic.find_companies(self.client, self.search.value)
        self.refresh_credits()
        self.matches.options = options  # clears the pick: nothing is filled in until one is picked
        self.matches.rows = max(1, min(len(options), 10))
        self.matches.layout.display = None if len(options) > 1 else "none"
        if len(options) == 1:
            self.company_id.value = options[0][1]  # one match: nothing to pick
        self.status.value = message
        return options

    def _on_pick(self, change: Any) -> None:
        if change["new"] is not None:
            self.company_id.value = change["new"]
            self.status.value = message_html(f"{change['new']}: click Load to fetch it.", "ok")

    def load(self) -> Any:
        """Fetch the company in the input and fill the tabs; returns the record (``None`` on an error, when
        the tabs are cleared: they never show another company than the status line names)."""
        cid, message = logic.check_company_id(self.company_id.value)
        if cid is None:
            self.status.value = message
            return None
        self.status.value = message_html(f"Loading {cid} …")
        record, message = logic.load_company(self.client, cid)
        self.refresh_credits()
        if record is None:
            self._clear()
        else:
            self.show(record)
        self.status.value = message
        self._show_load_cost(cid)
        return record

    def _clear(self) -> None:
        self.record = self.owners = None
        for pane in self.panes.values():
            pane.value = ""
        self.metrics.options = ()
        self.indicator_chart.value = ""
        self.owners_pane.value = message_html("Load a company first.")
        self.owners_button.description = "Fetch owners"
        self.owners_button.disabled = True

    def show(self, record: Any) -> None:
        """Fill the tabs from a record (no lookup; the owners wait for a click on **Fetch owners**)."""
        self.record, self.owners = record, None
        for name, pane in self.panes.items():
            pane.value = logic.tab_html(record, name)
        options = logic.indicator_metrics(record)
        default = tuple(m for m in ("revenue", "equity", "balance_sheet_total") if m in options)[:2]
        self.metrics.options = options  # resets the value (one redraw)
        self.metrics.value = default
        self._draw_indicators()
        company, best = logic.owners_request(record)
        how = " (an AG, SE or KGaA: the owners known from filed documents)" if best else ""
        self.owners_pane.value = message_html(f"The owners of {company}{how} are fetched on a click. {_OWNERS_HELP}")
        self.owners_button.description = logic.owners_button_text(self.client, record)
        self.owners_button.disabled = False

    def load_owners(self) -> Any:
        """Fetch and show the owners of the company shown; returns the owners record (``None`` on an error)."""
        if self.record is None:
            return None
        found, message = logic.load_owners(self.client, self.record)
        self.refresh_credits()
        self.owners = found
        self.owners_pane.value = message + (logic.owners_html(found) if found is not None else "")
        self.owners_button.description = logic.owners_button_text(self.client, self.record)
        return found

    def _draw_indicators(self) -> None:
        if self.record is not None:
            self.indicator_chart.value = logic.indicator_chart_html(self.record, self.metrics.value)
