"""``GroupExplorer``: crawl a group after an estimate, draw it on a date, list its interlocks — thin
wiring over :mod:`regkit.widgets.group_logic`."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from . import group_logic as logic
from .base import Explorer
from .company_logic import EXAMPLE_ID, check_company_id
from .render import message_html

__all__ = ["GroupExplorer"]


class GroupExplorer(Explorer):
    """Map a corporate group from a seed company: estimate, crawl, then browse it through time.

    **Estimate** is a dry run that spends nothing (see :mod:`regkit.widgets.group_logic`); only then is
    **Crawl** enabled, and it spends at most ``budget`` credits. Changing an input asks for a new
    estimate. After the crawl, the ``date`` slider steps through the days the group changed; the drawing
    and the interlocks table follow it.

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()``.
    seed : str, optional
        Put this company id in the input.

    Attributes
    ----------
    seed : ipywidgets.Text
    depth : ipywidgets.IntSlider
    relation_boxes : dict of str to ipywidgets.Checkbox
        One per relation of :data:`regkit.graph.RELATIONS`.
    persons : ipywidgets.Checkbox
        Draw the people, too.
    budget : ipywidgets.BoundedIntText
        Credits the crawl may spend.
    estimate_button, crawl_button : ipywidgets.Button
    date : ipywidgets.SelectionSlider
        ISO dates the group changed on, then ``"current"``.
    estimate, status, credits, drawing, interlocks, report : ipywidgets.HTML
    graph : networkx.MultiDiGraph or None
        The crawled graph (``crawled_seed``: the seed it was crawled from).
    """

    def __init__(self, client: Any = None, seed: str = "") -> None:
        super().__init__(client)
        self.graph: Any = None
        self.crawled_seed: str | None = None
        self._quiet = False
        self.seed = widgets.Text(description="Seed id", placeholder=EXAMPLE_ID, layout=widgets.Layout(width="360px"))
        self.depth = widgets.IntSlider(description="Depth", value=2, min=0, max=5)
        self.relation_boxes = {r: widgets.Checkbox(description=r.replace("_", " "), value=True, indent=False,
                                                   layout=widgets.Layout(width="150px"))
                               for r in logic.RELATION_OPTIONS}  # fmt: skip
        self.persons = widgets.Checkbox(description="draw people", value=False, indent=False)
        self.budget = widgets.BoundedIntText(description="Max credits", value=500, min=0, max=1_000_000)
        self.estimate_button = widgets.Button(description="Estimate cost", button_style="info", disabled=True)
        self.crawl_button = widgets.Button(description="Crawl", button_style="primary", disabled=True)
        self.date = widgets.SelectionSlider(description="As of", options=[logic.CURRENT], value=logic.CURRENT,
                                            continuous_update=False, layout=widgets.Layout(width="95%"))  # fmt: skip
        self.estimate, self.drawing, self.interlocks, self.report = (widgets.HTML() for _ in range(4))
        self.children = [
            widgets.HBox([self.seed, self.depth]), widgets.HBox(list(self.relation_boxes.values())),
            widgets.HBox([self.budget, self.estimate_button, self.crawl_button]), self.estimate, self.status,
            self.credits, self.report, widgets.HBox([self.date, self.persons]), self.drawing, self.interlocks,
        ]  # fmt: skip
        for control in (self.seed, self.depth, self.budget, *self.relation_boxes.values()):
            control.observe(self._on_inputs, names="value")
        self.estimate_button.on_click(lambda _: self.run_estimate())
        self.crawl_button.on_click(lambda _: self.run_crawl())
        self.date.observe(lambda _: self.redraw(), names="value")
        self.persons.observe(lambda _: self.redraw(), names="value")
        self.seed.value = seed
        self._on_inputs()

    def relations(self) -> list[str]:
        """The relations ticked."""
        return [r for r, box in self.relation_boxes.items() if box.value]

    def _on_inputs(self, change: Any = None) -> None:
        cid, message = check_company_id(self.seed.value)
        ok = cid is not None and bool(self.relations())
        self.estimate_button.disabled = not ok
        self.crawl_button.disabled = True
        self.status.value = message or ("" if ok else message_html("Tick at least one relation.", "error"))
        self.estimate.value = message_html("Estimate the cost before crawling.") if ok else ""

    def run_estimate(self) -> Any:
        """Dry-run the crawl (0 credits) and show its estimate; enables **Crawl**. Returns the level estimates."""
        cid, _ = check_company_id(self.seed.value)
        if cid is None:
            return None
        plans = self._run(lambda: logic.estimate_crawl(self.client, cid, self.depth.value, self.relations()),
                          "Estimating …")  # fmt: skip
        if plans is not None:
            self.status.value = ""
            self.estimate.value = logic.estimate_html(plans, self.depth.value)
            self.crawl_button.disabled = False
            self.crawl_button.description = f"Crawl (≤ {self.budget.value} credits)"
        return plans

    def run_crawl(self) -> Any:
        """Crawl the group within the budget and show it; returns the graph (``None`` on an error)."""
        cid, _ = check_company_id(self.seed.value)
        if cid is None or self.crawl_button.disabled:
            return None
        graph = self._run(lambda: logic.run_crawl(self.client, cid, self.depth.value, self.relations(),
                                                  self.budget.value), "Crawling …")  # fmt: skip
        if graph is None:
            return None
        self.graph, self.crawled_seed = graph, cid
        report = graph.graph["crawl"]
        stopped = f" Stopped: {report.stopped}." if report.stopped else ""
        self.status.value = message_html(f"Crawled {graph.number_of_nodes()} nodes for {report.spent_credits} "
                                         f"credits.{stopped}", "warning" if stopped else "ok")  # fmt: skip
        self.report.value = logic.report_html(graph)
        self._quiet = True  # one drawing, not one per trait change
        try:
            self.date.options = [*logic.change_dates(graph), logic.CURRENT]
            self.date.value = logic.CURRENT
        finally:
            self._quiet = False
        self.redraw()
        return graph

    def redraw(self) -> None:
        """Draw the group and its interlocks on the slider's date."""
        if self.graph is None or self.crawled_seed is None or self._quiet:
            return
        day = logic.to_day(self.date.value)
        self.drawing.value = logic.drawing_html(self.graph, self.crawled_seed, day, self.persons.value)
        self.interlocks.value = logic.interlocks_html(self.graph, day)
