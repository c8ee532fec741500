"""``InsolvencyExplorer``: search proceedings, cost first — thin wiring over
:mod:`regkit.widgets.insolvency_logic`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from regkit.client import RegkitError

from . import insolvency_logic as logic
from .base import Explorer
from .render import message_html

__all__ = ["InsolvencyExplorer"]

_WIDE, _NARROW, _ARROW, _FULL = ({"width": w} for w in ("360px", "160px", "40px", "95%"))


class InsolvencyExplorer(Explorer):
    """Search insolvency proceedings with filters and pages; pick a result to see its events.

    Nothing is sent while the inputs change: the ``cost`` line says what **Search** will cost for the
    current inputs and page (10 credits, 0 when the page is cached) and the button says it too. The
    page controls choose the page; **Search** fetches it. Picking a result fetches its events
    (``GET /v1/insolvency/{id}``: 10 credits, 0 from the cache).

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()``.

    Attributes
    ----------
    query, court : ipywidgets.Text
    statuses : ipywidgets.SelectMultiple
        Insolvency statuses (none selected: any).
    legal_form, date_field, per_page : ipywidgets.Dropdown
    date_from, date_to : ipywidgets.DatePicker
        An inclusive range on ``date_field``.
    page : ipywidgets.BoundedIntText
    prev_button, next_button, search_button : ipywidgets.Button
    cost, status, credits, page_info, results, events : ipywidgets.HTML
    result_select : ipywidgets.Select
        One option per result (value: the proceeding id).
    frame : pandas.DataFrame or None
        The results shown.
    """

    def __init__(self, client: Any = None) -> None:
        super().__init__(client)
        self.frame: Any = None
        self.query = widgets.Text(description="Query", placeholder="debtor, case number, administrator", layout=_WIDE)
        self.statuses = widgets.SelectMultiple(description="Status", options=logic.STATUS_OPTIONS, rows=5)
        self.court = widgets.Text(description="Court", placeholder="e.g. Darmstadt", layout=_WIDE)
        self.legal_form = widgets.Dropdown(description="Legal form", options=logic.LEGAL_FORM_OPTIONS, value=None)
        self.date_field = widgets.Dropdown(description="Date", options=logic.DATE_FIELDS, value="opened_at")
        self.date_from = widgets.DatePicker(description="from")
        self.date_to = widgets.DatePicker(description="to")
        self.per_page = widgets.Dropdown(description="Per page", options=logic.PER_PAGE_OPTIONS, value=10)
        self.page = widgets.BoundedIntText(description="Page", value=1, min=1, max=1, layout=_NARROW)
        self.prev_button = widgets.Button(description="◀", layout=_ARROW, tooltip="previous page")
        self.next_button = widgets.Button(description="▶", layout=_ARROW, tooltip="next page")
        self.search_button = widgets.Button(description="Search", button_style="primary")
        self.cost, self.page_info, self.results, self.events = (widgets.HTML() for _ in range(4))
        self.result_select = widgets.Select(description="Result", options=[], rows=8, layout=_FULL)
        self.children = [
            widgets.HBox([widgets.VBox([self.query, self.court, self.legal_form, self.per_page]), self.statuses]),
            widgets.HBox([self.date_field, self.date_from, self.date_to]),
            widgets.HBox([self.prev_button, self.page, self.next_button, self.search_button]),
            self.cost, self.status, self.credits, self.page_info, self.results, self.result_select, self.events,
        ]  # fmt: skip
        for control in (self.query, self.statuses, self.court, self.legal_form, self.date_field, self.date_from,
                        self.date_to, self.per_page):  # fmt: skip
            control.observe(self._on_filters, names="value")
        self.page.observe(lambda _: self.update_cost(), names="value")
        self.prev_button.on_click(lambda _: self._step(-1))
        self.next_button.on_click(lambda _: self._step(+1))
        self.search_button.on_click(lambda _: self.search())
        self.result_select.observe(self._on_select, names="value")
        self.update_cost()

    def filters(self) -> dict[str, Any]:
        """The filter mapping of the current inputs (see :func:`~regkit.widgets.insolvency_logic.build_filters`)."""
        return logic.build_filters(self.statuses.value, self.court.value, self.legal_form.value, self.date_from.value,
                                   self.date_to.value, self.date_field.value)  # fmt: skip

    def _arguments(self) -> tuple[Any, ...]:
        return self.query.value, self.filters(), self.page.value, self.per_page.value

    def _on_filters(self, change: Any = None) -> None:
        self.page.value = 1  # new inputs: back to page 1; their number of pages is known after a search
        self.page.max = 1
        self.update_cost()

    def _step(self, delta: int) -> None:
        self.page.value = min(max(1, self.page.value + delta), self.page.max)

    def update_cost(self) -> int | None:
        """Show what **Search** would cost now; ``None`` (and the reason) when the inputs are invalid."""
        try:
            credits = logic.search_cost(self.client, *self._arguments())
        except (RegkitError, ValueError) as exc:
            self.cost.value = message_html(str(exc), "error")
            self.search_button.disabled = True
            return None
        where = "cached: free" if credits == 0 else "not cached"
        self.cost.value = message_html(f"Search page {self.page.value}: {credits} credits ({where}).")
        self.search_button.description = f"Search ({credits} credits)"
        self.search_button.disabled = False
        return credits

    def search(self) -> Any:
        """Fetch the current page and show it; returns the results frame (``None`` on an error)."""
        arguments = self._arguments()
        found = self._run(lambda: logic.run_search(self.client, *arguments), "Searching …")
        if found is None:
            return None
        result, self.frame = found
        self.page.max = logic.total_pages(result)
        self.status.value = ""
        self.page_info.value = message_html(logic.page_text(result), "ok")
        self.results.value = logic.results_html(self.frame)
        self.events.value = ""
        self.result_select.options = logic.result_options(self.frame)
        self.result_select.value = None
        self.update_cost()
        return self.frame

    def _on_select(self, change: Any) -> None:
        if change["new"] is not None:
            self.show_events(change["new"])

    def show_events(self, insolvency_id: str) -> None:
        """Fetch and show one proceeding's events."""
        self.events.value = message_html("Loading events …")
        self.events.value = logic.events_html(self.client, insolvency_id)
        self.refresh_credits()
