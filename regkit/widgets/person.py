"""``PersonExplorer``: find a person, follow them across companies — thin wiring over
:mod:`regkit.widgets.person_logic`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from regkit.client import RegkitError

from . import person_logic as logic
from .base import Explorer
from .render import message_html
from .search_logic import is_person_id

__all__ = ["PersonExplorer"]

_WIDE, _AUTO = {"width": "420px"}, {"width": "auto"}
_EXAMPLE_UUID = "cfd35d80-f1f6-4762-911e-a0c0413fdb53"


class PersonExplorer(Explorer):
    """Search persons by name, pick one, and follow them across companies: their card, their management
    positions over time, their holdings, and who served with them.

    Every step says its price before it is paid: the ``cost`` line and the **Search** button (10 credits a
    page, 0 when cached), the **Load** button (the person and their holdings, 10 credits each, 0 when
    cached) and, on the ``interlocks`` tab, the **Find co-officers** button (one company lookup per company
    they served, cached ones free). A person's UUID can be typed into ``person_id`` directly.

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
    results_select : ipywidgets.Select
        One option per search result (value: the person id); picking one fills ``person_id``.
    person_id : ipywidgets.Text
    cost, status, credits, results : ipywidgets.HTML
    tabs : ipywidgets.Tab
        One ``HTML`` pane per tab of :data:`~regkit.widgets.person_logic.TABS` (``panes[name]``); the
        ``interlocks`` tab has the ``co_officers_button`` above its pane.
    person, holdings : PersonRecord, HoldingsRecord or None
        What is shown.
    co_officers : pandas.DataFrame or None
        Who served with them (:func:`~regkit.widgets.person_logic.co_officers`), once found.

    Examples
    --------
    >>> explorer = PersonExplorer(regkit.Client())   # doctest: +SKIP
    >>> explorer.query.value = "Raimund Schaber"     # doctest: +SKIP
    >>> explorer.search_button.click()               # doctest: +SKIP
    """

    def __init__(self, client: Any = None, person_id: str = "") -> None:
        super().__init__(client)
        self.person: Any = None
        self.holdings: Any = None
        self.co_officers: Any = None
        self.query = widgets.Text(description="Name", placeholder="e.g. Schaber, or Raimund Schaber", layout=_WIDE)
        self.search_button = widgets.Button(description="Search (10 credits)", button_style="info", layout=_AUTO)
        self.cost, self.results = widgets.HTML(), widgets.HTML()
        self.results_select = widgets.Select(
            description="Person", options=[], rows=6, layout=widgets.Layout(width="95%")
        )
        self.person_id = widgets.Text(description="Person id", placeholder="a UUID", layout=_WIDE)
        self.load_button = widgets.Button(description="Load (20 credits)", button_style="primary", disabled=True,
                                          layout=_AUTO)  # fmt: skip
        self.co_officers_button = widgets.Button(description="Find co-officers", disabled=True, layout=_AUTO)
        self.panes = {name: widgets.HTML() for name in logic.TABS}
        children = [widgets.VBox([self.co_officers_button, pane]) if name == "interlocks" else pane
                    for name, pane in self.panes.items()]  # fmt: skip
        self.tabs = widgets.Tab(children=children, titles=logic.TABS)
        self.children = [
            widgets.HBox([self.query, self.search_button]), self.cost, self.results, self.results_select,
            widgets.HBox([self.person_id, self.load_button]), self.status, self.credits, self.tabs,
        ]  # fmt: skip
        self.query.observe(lambda _: self.update_cost(), names="value")
        self.search_button.on_click(lambda _: self.search())
        self.results_select.observe(self._on_pick, names="value")
        self.person_id.observe(self._on_id, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.co_officers_button.on_click(lambda _: self.find_co_officers())
        self.update_cost()
        self.person_id.value = person_id
        self._on_id()
        self._clear()

    def update_cost(self) -> int | None:
        """Show what **Search** would cost now; ``None`` (and the reason) when the query is not valid."""
        if not self.query.value.strip():
            self.cost.value = message_html("Type a name, then Search: 10 credits a page, 0 when cached.")
            self.search_button.disabled = True
            return None
        try:
            credits = logic.search_cost(self.client, self.query.value)
        except (RegkitError, ValueError) as exc:
            self.cost.value = message_html(str(exc), "error")
            self.search_button.disabled = True
            return None
        where = "cached: free" if credits == 0 else "not cached"
        self.cost.value = message_html(f"Search {self.query.value.strip()!r}: {credits} credits ({where}).")
        self.search_button.description = f"Search ({credits} credits)"
        self.search_button.disabled = False
        return credits

    def search(self) -> Any:
        """Fetch the first page of the search and list it; returns its frame (``None`` on an error)."""
        if self.update_cost() is None:
            return None
        found = self._run(lambda: logic.run_search(self.client, self.query.value), "Searching …")
        if found is None:
            return None
        page, frame = found
        self.status.value = ""
        self.results.value = logic.results_html(page, frame)
        self.results_select.options = logic.result_options(frame)  # clears the pick
        self.update_cost()
        return frame

    def _on_pick(self, change: Any) -> None:
        if change["new"] is not None:
            self.person_id.value = change["new"]

    def _on_id(self, change: Any = None) -> None:
        text = self.person_id.value.strip()
        ok = is_person_id(text)
        self.load_button.disabled = not ok
        if not text:
            self.status.value = message_html("Search a name and pick a person, or paste a person id (a UUID).")
        elif not ok:
            self.status.value = message_html(f"{text!r} is not a person id (a UUID such as {_EXAMPLE_UUID}); "
                                             "nothing was sent.", "error")  # fmt: skip
        else:
            credits = logic.load_cost(self.client, text.lower())
            self.load_button.description = f"Load ({'cached: 0' if credits == 0 else credits} credits)"
            self.status.value = message_html(f"Load costs {credits} credits: the person and their holdings.")

    def load(self) -> Any:
        """Fetch the person in ``person_id`` and their holdings, and fill the tabs; returns the person record
        (``None`` on an error, when the tabs are cleared)."""
        if self.load_button.disabled:
            return None
        person_id = self.person_id.value.strip().lower()
        self.status.value = message_html(f"Loading {person_id} …")
        person, held, message = logic.load_person(self.client, person_id)
        self.refresh_credits()
        if person is None:
            self._clear()
        else:
            self.show(person, held)
        self._on_id()
        self.status.value = message
        return person

    def _clear(self) -> None:
        self.person = self.holdings = self.co_officers = None
        for pane in self.panes.values():
            pane.value = ""
        self.panes["interlocks"].value = message_html("Load a person first.")
        self.co_officers_button.description = "Find co-officers"
        self.co_officers_button.disabled = True

    def show(self, person: Any, held: Any = None) -> None:
        """Fill the tabs from a person and their holdings (no lookup; co-officers wait for a click)."""
        self.person, self.holdings, self.co_officers = person, held, None
        self.panes["summary"].value = logic.summary_html(person)
        self.panes["positions"].value = logic.positions_html(person, held)
        self.panes["holdings"].value = logic.holdings_html(held)
        self._show_co_officer_cost()

    def _show_co_officer_cost(self) -> None:
        estimate = logic.co_officers_cost(self.client, self.person)
        self.co_officers_button.disabled = estimate.distinct == 0
        self.co_officers_button.description = f"Find co-officers ({estimate.credits} credits)"
        if self.co_officers is None:
            self.panes["interlocks"].value = message_html(
                f"Who served with them is in the records of their {estimate.distinct} companies: "
                f"{estimate.to_fetch} to fetch, {estimate.cached} cached → {estimate.credits} credits.")  # fmt: skip

    def find_co_officers(self) -> Any:
        """Look up their companies and show who served with them; returns the co-officers frame."""
        if self.person is None:
            return None
        self.panes["interlocks"].value = message_html("Looking up their companies …")
        self.co_officers, self.panes["interlocks"].value = logic.co_officers_html(self.client, self.person)
        self.refresh_credits()
        self._show_co_officer_cost()
        return self.co_officers
