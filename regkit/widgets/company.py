"""``CompanyExplorer``: one company in tabs — thin wiring over :mod:`regkit.widgets.company_logic`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from . import company_logic as logic
from .base import Explorer
from .render import message_html

__all__ = ["CompanyExplorer"]


class CompanyExplorer(Explorer):
    """Look up a company and browse it: summary, histories, representatives, indicators, documents,
    insolvencies and links.

    The id is checked as it is typed, with the client's own validation: nothing is sent (and nothing
    paid) until it is well formed and **Load** is clicked. A lookup costs 10 credits, 0 from the cache;
    the credits line shows what the client has spent.

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
        Disabled while the id is not well formed.
    status, credits : ipywidgets.HTML
        Messages (validation, loaded, errors) and the credits line.
    tabs : ipywidgets.Tab
        One ``HTML`` pane per tab of :data:`~regkit.widgets.company_logic.TABS` (``panes[name]``), except
        ``indicators``: the ``metrics`` picker above the ``indicator_chart``.
    record : CompanyRecord or None
        The company shown.

    Examples
    --------
    >>> explorer = CompanyExplorer(regkit.Client(), "DE-HRB-R2103-65834")  # doctest: +SKIP
    >>> explorer.load_button.click()                                       # doctest: +SKIP
    >>> explorer                                                           # doctest: +SKIP
    """

    def __init__(self, client: Any = None, company_id: str = "") -> None:
        super().__init__(client)
        self.record: Any = None
        self.company_id = widgets.Text(description="Company id", placeholder=logic.EXAMPLE_ID,
                                       layout=widgets.Layout(width="360px"))  # fmt: skip
        self.load_button = widgets.Button(description="Load (10 credits)", button_style="primary", disabled=True,
                                          tooltip="GET /v1/company/{id}: 10 credits, free from the cache")  # fmt: skip
        self.metrics = widgets.SelectMultiple(description="Metrics", options=[], rows=6)
        self.indicator_chart = widgets.HTML()
        self.panes = {name: widgets.HTML() for name in logic.TABS if name != "indicators"}
        children = [self.panes.get(name) or widgets.VBox([self.metrics, self.indicator_chart]) for name in logic.TABS]
        self.tabs = widgets.Tab(children=children, titles=logic.TABS)
        self.children = [widgets.HBox([self.company_id, self.load_button]), self.status, self.credits, self.tabs]
        self.company_id.observe(self._on_id, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.metrics.observe(lambda _: self._draw_indicators(), names="value")
        self.company_id.value = company_id
        self._on_id()

    def _on_id(self, change: Any = None) -> None:
        cid, message = logic.check_company_id(self.company_id.value)
        self.load_button.disabled = cid is None
        self.status.value = message

    def load(self) -> Any:
        """Fetch the company in the input and fill the tabs; returns the record (``None`` on an error)."""
        cid, message = logic.check_company_id(self.company_id.value)
        if cid is None:
            self.status.value = message
            return None
        self.status.value = message_html(f"Loading {cid} …")
        record, message = logic.load_company(self.client, cid)
        self.refresh_credits()
        self.status.value = message
        if record is not None:
            self.show(record)
        return record

    def show(self, record: Any) -> None:
        """Fill the tabs from a record (no lookup)."""
        self.record = record
        for name, pane in self.panes.items():
            pane.value = logic.tab_html(record, name)
        options = logic.indicator_metrics(record)
        default = tuple(m for m in ("revenue", "equity", "balance_sheet_total") if m in options)[:2]
        self.metrics.options = options  # resets the value (one redraw)
        self.metrics.value = default
        self._draw_indicators()

    def _draw_indicators(self) -> None:
        if self.record is not None:
            self.indicator_chart.value = logic.indicator_chart_html(self.record, self.metrics.value)
