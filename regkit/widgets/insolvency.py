"""``InsolvencyExplorer``: search proceedings, cost first — thin wiring over
:mod:`regkit.widgets.insolvency_logic`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import RegkitError, explain_arguments

from . import insolvency_logic as logic
from .base import Explorer
from .messages import error_html
from .render import message_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = ["InsolvencyExplorer"]

_WIDE, _NARROW, _AUTO = ({"width": w} for w in ("360px", "160px", "auto"))


@explain_arguments
class InsolvencyExplorer(Explorer):
    """Search insolvency proceedings with filters and pages; click a result to see its events.

    Nothing is sent while the inputs change: the ``cost`` line and the **Search** button say what a search
    of the current inputs and page will cost (10 credits; "0 credits, cached" when the cache holds the
    page). **Search** fetches the page in ``page``; **◀ Previous** and **Next ▶** fetch the page before or
    after the one shown, each button with its own cost. Clicking a row of the results fetches that
    proceeding's events (``GET /v1/insolvency/{id}``: 10 credits, 0 from the cache). Changing an input greys
    the results out — they no longer answer the inputs — until the next search.

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
        The page **Search** fetches.
    prev_button, next_button, search_button : ipywidgets.Button
    cost, status, credits, page_info, events : ipywidgets.HTML
    table : itables.widget.ITable or None
        The results shown (sortable; ``table.selected_rows = [i]`` clicks row ``i``).
    results_area : ipywidgets.VBox
        The page line, the table and the events (greyed out while the inputs have changed since the search).
    frame : pandas.DataFrame or None
        The results shown, raw (:func:`regkit.frames.insolvency_results`; ``frame["id"]`` per row).
    stale : bool
        Whether the inputs changed since the results were fetched.
    """

    TITLE = "Insolvency proceedings"

    def __init__(self, client: RegisterClient | None = None) -> None:
        super().__init__(client)
        self.frame: Any = None
        self.table: Any = None
        self.stale = False
        self._pages, self._current = 0, 1  # pages of the search shown (0: none yet) and the page shown
        self.query = widgets.Text(description="Query", placeholder="debtor, case number, administrator", layout=_WIDE)
        self.statuses = widgets.SelectMultiple(description="Status", options=logic.STATUS_OPTIONS, rows=5)
        self.court = widgets.Text(description="Court", placeholder="e.g. Darmstadt", layout=_WIDE)
        self.legal_form = widgets.Dropdown(description="Legal form", options=logic.LEGAL_FORM_OPTIONS, value=None)
        self.date_field = widgets.Dropdown(description="Date", options=logic.DATE_FIELDS, value="opened_at")
        self.date_from = widgets.DatePicker(description="from")
        self.date_to = widgets.DatePicker(description="to")
        self.per_page = widgets.Dropdown(description="Per page", options=logic.PER_PAGE_OPTIONS, value=10)
        self.page = widgets.BoundedIntText(description="Page", value=1, min=1, max=1, layout=_NARROW)
        self.prev_button = widgets.Button(description="◀ Previous", layout=_AUTO, disabled=True)
        self.next_button = widgets.Button(description="Next ▶", layout=_AUTO, disabled=True)
        self.search_button = widgets.Button(description="Search", button_style="primary", layout=_AUTO)
        self.cost, self.page_info, self.events = (widgets.HTML() for _ in range(3))
        self._table_box = widgets.Box()
        self.results_area = widgets.VBox(
            [widgets.HBox([self.prev_button, self.page_info, self.next_button]), self._table_box, self.events]
        )
        self.children = [
            self.css,
            widgets.HBox([widgets.VBox([self.query, self.court, self.legal_form, self.per_page]), self.statuses]),
            widgets.HBox([self.date_field, self.date_from, self.date_to]),
            widgets.HBox([self.page, self.search_button]),
            self.cost,
            self.status,
            self.credits,
            self.results_area,
        ]
        for control in (
            self.query,
            self.statuses,
            self.court,
            self.legal_form,
            self.date_field,
            self.date_from,
            self.date_to,
            self.per_page,
        ):
            control.observe(self._on_filters, names="value")
        self.page.observe(lambda _: self.update_cost(), names="value")
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(+1))
        self.search_button.on_click(lambda _: self.search())
        self.update_cost()

    def filters(self) -> dict[str, Any]:
        """The filter mapping of the current inputs (see :func:`~regkit.widgets.insolvency_logic.build_filters`)."""
        return logic.build_filters(
            self.statuses.value,
            self.court.value,
            self.legal_form.value,
            self.date_from.value,
            self.date_to.value,
            self.date_field.value,
        )

    def _arguments(self, page: int | None = None) -> tuple[Any, ...]:
        return self.query.value, self.filters(), self.page.value if page is None else page, self.per_page.value

    def _on_filters(self, change: Any = None) -> None:
        self.page.value = 1  # new inputs: back to page 1; their number of pages is known after a search
        self.page.max = 1
        if self.frame is not None and not self.stale:
            self.stale = True
            self.mark_stale(self.results_area, True)
            self.status.value = message_html(
                "The results below are for the previous inputs: Search to update them.", "warning"
            )
        self.update_cost()

    def update_cost(self) -> int | None:
        """Say what **Search** (and ◀/▶) would cost now; ``None`` (and the reason) when the inputs are invalid."""
        try:
            credits = logic.search_cost(self.client, *self._arguments())
        except (RegkitError, ValueError) as exc:
            self.cost.value = error_html(exc)
            self.search_button.disabled = self.prev_button.disabled = self.next_button.disabled = True
            return None
        label = logic.cost_label(credits)
        self.cost.value = message_html(f"Search page {self.page.value}: {label}. Nothing is sent until you click.")
        self.search_button.description = f"Search ({label})"
        self.search_button.disabled = False
        self._update_arrows()
        return credits

    def _update_arrows(self) -> None:
        """◀/▶ fetch the page before/after the one shown: enabled when it exists, each with its cost."""
        shown = self._pages and not self.stale
        for button, delta, text in ((self.prev_button, -1, "◀ Previous"), (self.next_button, +1, "Next ▶")):
            target = self._current + delta
            if not shown or not 1 <= target <= self._pages:
                button.disabled, button.description, button.tooltip = True, text, ""
                continue
            label = logic.cost_label(logic.search_cost(self.client, *self._arguments(target)))
            button.disabled, button.description = False, f"{text} ({label})"
            button.tooltip = f"fetch page {target} of {self._pages}"

    def step(self, delta: int) -> Any:
        """Fetch and show the page ``delta`` pages from the one shown (◀: -1, ▶: +1); returns its frame."""
        target = self._current + delta
        if self.stale or not 1 <= target <= self._pages:
            return None
        self.page.value = target
        return self.search()

    def search(self) -> Any:
        """Fetch the page in ``page`` and show it; returns the results frame (``None`` on an error)."""
        arguments = self._arguments()
        found = self._run(lambda: logic.run_search(self.client, *arguments), "Searching …")
        if found is None:
            self._clear()
            return None
        result, self.frame = found
        self._pages, self._current = logic.total_pages(result), int(arguments[2])
        self.page.max = max(self._pages, self._current)
        self.stale = False
        self.mark_stale(self.results_area, False)
        self.status.value = ""
        self.page_info.value = message_html(logic.page_text(result), "ok")
        self.table = logic.results_table(self.frame, self._on_row, page_length=int(arguments[3]))
        self._table_box.children = (self.table,) if len(self.frame) else ()
        if not len(self.frame):
            self.page_info.value = message_html("No proceedings match these inputs.", "warning")
        self.events.value = message_html("Click a row to see the proceeding's events (10 credits, 0 when cached).")
        self.update_cost()
        return self.frame

    def _clear(self) -> None:
        """After a failed search nothing shown answers the inputs: empty the results."""
        self.frame, self.table, self._pages = None, None, 0
        self.stale = False
        self.mark_stale(self.results_area, False)
        self._table_box.children = ()
        self.page_info.value = self.events.value = ""
        self._update_arrows()

    def _on_row(self, position: int | None) -> None:
        if position is None or self.stale or self.frame is None:
            return
        self.show_events(str(self.frame["id"].iloc[position]))

    def show_events(self, insolvency_id: str) -> None:
        """Fetch and show one proceeding's events (chart and table)."""
        self.events.value = message_html("Loading events …")
        self.events.value = self.metered(lambda: logic.events_html(self.client, insolvency_id))
