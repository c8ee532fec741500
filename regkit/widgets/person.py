"""``PersonExplorer``: find a person, follow them across companies — thin wiring over
:mod:`regkit.widgets.person_logic` and :mod:`regkit.widgets.person_tables`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import RegkitError, explain_arguments
from regkit.schema.formatting import credits_text

from . import person_logic as logic
from . import person_tables as tables
from .base import Explorer
from .company_panes import TablePane
from .messages import error_html
from .render import message_html
from .search_logic import is_person_id

if TYPE_CHECKING:
    import pandas as pd

    from regkit.client import HoldingsRecord, PersonRecord
    from regkit.client.protocol import RegisterClient

__all__ = ["PersonExplorer"]

_WIDE, _AUTO = {"width": "420px"}, {"width": "auto"}
_EXAMPLE_UUID = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"


@explain_arguments
class PersonExplorer(Explorer):
    """Search persons by name, click one, and follow them across companies: their card, their management
    positions over time, their holdings, and who served with them.

    Every step says its price before it is paid: the ``cost`` line and the **Search** button (10 credits a
    page, ``"0 credits, cached"`` when cached), the **Load** button (the person and their holdings, 10 credits
    each, 0 when cached) and, on the ``interlocks`` tab, the **Find co-officers** button (one company lookup
    per company they served, cached ones free). The search results are a table (name, born, city, current
    position): **click a row** to fill in ``person_id`` (from code: ``explorer.matches.selected_rows = [i]`` or
    ``explorer.pick(person_id)``). A person's UUID can also be typed into ``person_id`` directly.

    Nothing stale stays on screen: a new search clears the old results; typing another id greys the tabs
    (class ``regkit-stale``) until **Load** replaces them; an error (a 404) clears them. Tables are formatted
    for a reader; a list longer than :data:`~regkit.widgets.company_panes.LONG` rows (a person's positions,
    everyone who served with them) is sortable and searchable.

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()``.
    person_id : str, optional
        Put this UUID in the input (not loaded until ``load()`` or a click on **Load**).

    Attributes
    ----------
    query : ipywidgets.Text
        Words of the name; typing sends nothing.
    search_button, load_button, co_officers_button : ipywidgets.Button
    matches : itables.widget.ITable or None
        The search results (``None`` before a search and when nobody matches); selecting row ``i`` fills in
        the id of result ``i``.
    result_frame : pandas.DataFrame or None
        The results, raw (:func:`regkit.frames.person_search_results`), in the table's order.
    person_id : ipywidgets.Text
    cost, status, credits, results : ipywidgets.HTML
        ``results`` says how many were found, at what cost.
    tabs : ipywidgets.Tab
        One tab per name of :data:`~regkit.widgets.person_logic.TABS`.
    panes : dict of str to ipywidgets.HTML
        The HTML of each tab (for ``positions``, the chart); for a table tab the part above its table.
    tables : dict of str to TablePane
        ``positions``, ``holdings``, ``interlocks`` and ``co_officers`` (everyone, per company):
        ``tables[name].table`` is the sortable table of a long list, ``None`` for a short one.
    person, holdings : PersonRecord, HoldingsRecord or None
        What is shown.
    co_officers : pandas.DataFrame or None
        Who served with them (:func:`~regkit.widgets.person_logic.co_officers`), once found.

    Examples
    --------
    >>> explorer = PersonExplorer(regkit.Client())   # doctest: +SKIP
    >>> explorer.query.value = "Raimund Schaber"     # doctest: +SKIP
    >>> explorer.search_button.click()               # doctest: +SKIP
    >>> explorer.matches.selected_rows = [0]         # doctest: +SKIP
    """

    TITLE = "Person"

    def __init__(self, client: RegisterClient | None = None, person_id: str = "") -> None:
        super().__init__(client)
        self.person: PersonRecord | None = None
        self.holdings: HoldingsRecord | None = None
        self.co_officers: pd.DataFrame | None = None
        self.result_frame: pd.DataFrame | None = None
        self.query = widgets.Text(description="Name", placeholder="e.g. Schaber, or Raimund Schaber", layout=_WIDE)
        self.search_button = widgets.Button(description="Search", button_style="info", layout=_AUTO)
        self.cost, self.results = widgets.HTML(), widgets.HTML()
        self.result_pane = TablePane()
        self.person_id = widgets.Text(description="Person id", placeholder="a UUID", layout=_WIDE)
        self.load_button = widgets.Button(description="Load", button_style="primary", disabled=True, layout=_AUTO)
        self.co_officers_button = widgets.Button(description="Find co-officers", disabled=True, layout=_AUTO)
        self.tables = {name: TablePane() for name in ("positions", "holdings", "interlocks", "co_officers")}
        self.panes = {
            "summary": widgets.HTML(),
            "positions": widgets.HTML(),
            "holdings": self.tables["holdings"].head,
            "interlocks": self.tables["interlocks"].head,
        }
        children = {
            "summary": self.panes["summary"],
            "positions": widgets.VBox([self.panes["positions"], self.tables["positions"]]),
            "holdings": self.tables["holdings"],
            "interlocks": widgets.VBox(
                [self.co_officers_button, self.tables["interlocks"], self.tables["co_officers"]]
            ),
        }
        self.tabs = widgets.Tab(children=[children[name] for name in logic.TABS], titles=logic.TABS)
        self.children = [
            self.css,
            widgets.HBox([self.query, self.search_button]),
            self.cost,
            self.results,
            self.result_pane,
            widgets.HBox([self.person_id, self.load_button]),
            self.status,
            self.credits,
            self.tabs,
        ]
        self.query.observe(lambda _: self.update_cost(), names="value")
        self.search_button.on_click(lambda _: self.search())
        self.person_id.observe(self._on_id, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.co_officers_button.on_click(lambda _: self.find_co_officers())
        self.update_cost()
        self.person_id.value = person_id
        self._on_id()
        self._clear()

    @property
    def matches(self) -> Any:
        """The table of search results (``itables.widget.ITable``), or ``None`` when there is none."""
        return self.result_pane.table

    def update_cost(self) -> int | None:
        """Show what **Search** would cost now; ``None`` (and the reason) when the query is not valid."""
        credits: int | None = None
        if not self.query.value.strip():
            self.cost.value = message_html("Type a name, then Search: 10 credits a page, 0 when cached.")
        else:
            try:
                credits = logic.search_cost(self.client, self.query.value)
                cost = credits_text(credits, cached=credits == 0)
                self.cost.value = message_html(f"Search {self.query.value.strip()!r}: {cost}.")
            except (RegkitError, ValueError) as exc:
                self.cost.value = error_html(exc)
        self.search_button.description = logic.search_button_text(credits)
        self.search_button.disabled = credits is None
        return credits

    def search(self) -> pd.DataFrame | None:
        """Fetch the first page of the search and list it; returns its frame (``None`` on an error)."""
        if self.update_cost() is None:
            return None
        self.result_pane.clear()  # the old results answer another question
        self.results.value, self.result_frame = "", None
        found = self._run(lambda: logic.run_search(self.client, self.query.value), "Searching …")
        if found is None:
            return None
        page, frame = found
        self.status.value = ""
        self.results.value = tables.results_message(page, frame)
        self.result_frame = frame.reset_index(drop=True)
        if len(frame):
            self.result_pane.show(
                "", tables.results_frame(self.result_frame), tables.RESULT_COLUMNS, on_select=self._on_pick
            )
        self.update_cost()
        return frame

    def pick(self, person_id: str) -> None:
        """Select the search result of ``person_id`` (as a click on its row does)."""
        ids = [] if self.result_frame is None else [str(i) for i in self.result_frame["id"]]
        if person_id not in ids:
            raise ValueError(f"{person_id} is not among the search results; type it into person_id instead.")
        self.matches.selected_rows = [ids.index(person_id)]

    def _on_pick(self, position: int | None) -> None:
        if position is not None and self.result_frame is not None:
            self.person_id.value = str(self.result_frame["id"].iloc[position])

    def _on_id(self, change: Any = None) -> None:
        text = self.person_id.value.strip()
        ok = is_person_id(text)
        self.load_button.disabled = not ok
        self.load_button.description = logic.load_button_text(self.client, text.lower() if ok else None)
        shown = None if self.person is None else str(self.person.raw["id"]).lower()
        stale = shown is not None and text.lower() != shown
        self.mark_stale(self.tabs, stale)
        if not text:
            self.status.value = message_html("Search a name and click a person, or paste a person id (a UUID).")
        elif not ok:
            self.status.value = message_html(
                f"{text!r} is not a person id (a UUID such as {_EXAMPLE_UUID}); nothing was sent.", "error"
            )
        else:
            credits = logic.load_cost(self.client, text.lower())
            cost = credits_text(credits, cached=credits == 0)
            self.status.value = message_html(f"Load costs {cost}: the person and their holdings.")
        if stale and self.person is not None:
            self.status.value += message_html(
                f"The tabs below still show {self.person.full_name}, not the id typed: click Load to replace them.",
                "warning",
            )

    def load(self) -> PersonRecord | None:
        """Fetch the person in ``person_id`` and their holdings, and fill the tabs; returns the person record
        (``None`` on an error, when the tabs are cleared)."""
        if self.load_button.disabled:
            return None
        person_id = self.person_id.value.strip().lower()
        self.status.value = message_html(f"Loading {person_id} …")
        person, held, message = self.metered(lambda: logic.load_person(self.client, person_id))
        if person is None:
            self._clear()
        else:
            self.show(person, held)
        self._on_id()
        self.status.value = message
        return person

    def _clear(self) -> None:
        self.person = self.holdings = self.co_officers = None
        self.mark_stale(self.tabs, False)
        self.panes["summary"].value = self.panes["positions"].value = ""
        for pane in self.tables.values():
            pane.clear()
        self.tables["interlocks"].clear("Load a person first.")
        self.co_officers_button.description = "Find co-officers"
        self.co_officers_button.disabled = True

    def show(self, person: PersonRecord, held: HoldingsRecord | None = None) -> None:
        """Fill the tabs from a person and their holdings (no lookup; co-officers wait for a click)."""
        self.person, self.holdings, self.co_officers = person, held, None
        self.mark_stale(self.tabs, False)
        self.panes["summary"].value = logic.summary_html(person)
        self.panes["positions"].value = tables.positions_chart_html(person, held)
        head, frame, columns = tables.positions_table(person)
        self.tables["positions"].show(head, frame, columns, empty="")
        if held is None:
            self.tables["holdings"].message(tables.holdings_html(None))
        else:
            head, frame, columns = tables.holdings_table(held)
            self.tables["holdings"].show(head, frame, columns, empty="no shareholdings registered")
        self.tables["co_officers"].clear()
        self._show_co_officer_cost()

    def _show_co_officer_cost(self) -> None:
        estimate = logic.co_officers_cost(self.client, self.person)
        self.co_officers_button.disabled = estimate.distinct == 0
        self.co_officers_button.description = logic.co_officers_button_text(estimate)
        if self.co_officers is None:
            self.tables["interlocks"].clear(
                f"Who served with them is in the records of their {estimate.distinct} companies: "
                f"{estimate.to_fetch} to fetch, {estimate.cached} cached → {estimate.credits} credits."
            )

    def find_co_officers(self) -> pd.DataFrame | None:
        """Look up their companies and show who served with them; returns the co-officers frame."""
        if self.person is None:
            return None
        self.tables["interlocks"].clear("Looking up their companies …")
        self.co_officers, head, both, everyone = self.metered(
            lambda: tables.co_officer_tables(self.client, self.person)
        )
        if both is None or everyone is None:
            self.tables["interlocks"].message(head)
        else:
            self.tables["interlocks"].show(
                head + both[0], both[1], both[2], empty="nobody served with them at two or more of these companies"
            )
            self.tables["co_officers"].show(*everyone, empty="nobody")
        self._show_co_officer_cost()
        return self.co_officers
