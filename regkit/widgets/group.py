"""``GroupExplorer``: crawl a group after an estimate, draw it on a date, list its interlocks — thin
wiring over :mod:`regkit.widgets.group_logic`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import RegkitError, explain_arguments

from . import group_drawing, search_logic
from . import group_logic as logic
from .base import Explorer
from .messages import error_html
from .render import message_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = ["GroupExplorer"]

_DIRECTION_STYLE = {"button_width": "70px"}


@explain_arguments
class GroupExplorer(Explorer):
    """Map a corporate group from a seed, down through holdings or up along the records' links: estimate,
    crawl, then browse it through time.

    The seed is a company id, register text (``"HRB 62135 Kiel"``, read offline), a company name (looked up
    with autocomplete, 0 credits, when **Estimate** is clicked) or a person's UUID. **Estimate** is a dry
    run that spends nothing (see :mod:`regkit.widgets.group_logic`); it counts every call a level makes —
    company lookups and, going down, each company's holdings. Only then is **Crawl** enabled, its button
    saying what the crawl will cost ("Crawl (0 credits, cached)" when the cache holds all of it), and it
    spends at most ``budget`` credits. Changing an input asks for a new estimate and greys out the group
    shown (a new seed or a new estimate clears it). After the crawl, the ``date`` slider steps through the
    days the group changed; the drawing, the line saying what it shows and the interlocks table follow it.

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()``.
    seed : str, optional
        Put this seed (company id, register text, name or person UUID) in the input.
    direction : {"down", "up", "both"}
        ``"down"`` (default): from a parent through the holdings to its whole group; ``"up"``: from a member
        to the top along profit transfers, shareholders and mergers; ``"both"``.

    Attributes
    ----------
    seed : ipywidgets.Text
    direction : ipywidgets.ToggleButtons
    depth : ipywidgets.IntSlider
    relation_boxes : dict of str to ipywidgets.Checkbox
        One per relation of :data:`regkit.graph.RELATIONS`.
    persons : ipywidgets.Checkbox
        Draw the people, too.
    budget : ipywidgets.BoundedIntText
        Credits the crawl may spend.
    estimate_button, crawl_button : ipywidgets.Button
    date : ipywidgets.SelectionSlider
        ISO dates the group changed on (from the seed company's founding on), then ``"current"``.
    estimate, status, credits, drawn, drawing, interlocks, report : ipywidgets.HTML
        ``drawn`` says what the drawing shows (which companies, on which day, people or not).
    view : ipywidgets.ToggleButtons
        ``"drawing"`` (the static :func:`regkit.plot.group`) or ``"interactive"``: the same group in
        :func:`regkit.plot.group_interactive` (pan, zoom, hover details; for groups too large to read on paper).
    interactive : ipywidgets.Box
        Holds the interactive view (an ``ipysigma.Sigma``) while ``view`` is ``"interactive"``; else empty.
    result_area : ipywidgets.VBox
        What the crawl shows: the report, the slider, the drawing, the interlocks (greyed out while the inputs
        have changed since the crawl).
    graph : networkx.MultiDiGraph or None
        The crawled graph (``crawled_seed``: the company id or person UUID it was crawled from).
    """

    TITLE = "Corporate group"

    def __init__(self, client: RegisterClient | None = None, seed: str = "", direction: str = "down") -> None:
        super().__init__(client)
        self.graph: Any = None
        self.crawled_seed: str | None = None
        self._quiet = False
        hint = f"company id, {search_logic.REGISTER_EXAMPLE}, name or person id"
        self.seed = widgets.Text(description="Seed", placeholder=hint, layout=widgets.Layout(width="420px"))
        tips = [logic.DIRECTION_HELP[d] for d in logic.DIRECTION_OPTIONS]
        self.direction = widgets.ToggleButtons(
            description="Direction",
            options=logic.DIRECTION_OPTIONS,
            value=direction,
            tooltips=tips,
            style=_DIRECTION_STYLE,
        )
        self.depth = widgets.IntSlider(description="Depth", value=2, min=0, max=5)
        self.relation_boxes = {
            r: widgets.Checkbox(
                description=r.replace("_", " "), value=True, indent=False, layout=widgets.Layout(width="150px")
            )
            for r in logic.RELATION_OPTIONS
        }
        self.persons = widgets.Checkbox(description="draw people", value=False, indent=False)
        self.budget = widgets.BoundedIntText(description="Max credits", value=500, min=0, max=1_000_000)
        self.estimate_button = widgets.Button(
            description="Estimate cost (0 credits)",
            button_style="info",
            disabled=True,
            layout=widgets.Layout(width="auto"),
        )
        self.crawl_button = widgets.Button(
            description="Crawl", button_style="primary", disabled=True, layout=widgets.Layout(width="auto")
        )
        self.date = widgets.SelectionSlider(
            description="As of",
            options=[logic.CURRENT],
            value=logic.CURRENT,
            continuous_update=False,
            layout=widgets.Layout(width="95%"),
        )
        self.estimate, self.drawn, self.drawing, self.interlocks, self.report = (widgets.HTML() for _ in range(5))
        self.view = widgets.ToggleButtons(
            description="View",
            options=[("drawing", "drawing"), ("interactive (pan, zoom)", "interactive")],
            value="drawing",
            style={"button_width": "160px"},
        )
        self.interactive = widgets.Box()
        self._slider_row = widgets.VBox(
            [widgets.HBox([self.date, self.persons]), self.view], layout=widgets.Layout(display="none")
        )
        self.result_area = widgets.VBox(
            [self.report, self._slider_row, self.drawn, self.drawing, self.interactive, self.interlocks]
        )
        self.children = [
            self.css,
            widgets.HBox([self.seed, self.depth]),
            self.direction,
            widgets.HBox(list(self.relation_boxes.values())),
            widgets.HBox([self.budget, self.estimate_button, self.crawl_button]),
            self.estimate,
            self.status,
            self.credits,
            self.result_area,
        ]
        self.seed.observe(lambda _: self.clear(), names="value")
        for control in (self.seed, self.direction, self.depth, self.budget, *self.relation_boxes.values()):
            control.observe(self._on_inputs, names="value")
        self.estimate_button.on_click(lambda _: self.run_estimate())
        self.crawl_button.on_click(lambda _: self.run_crawl())
        self.date.observe(lambda _: self.redraw(), names="value")
        self.persons.observe(lambda _: self.redraw(), names="value")
        self.view.observe(lambda _: self.redraw(), names="value")
        self.seed.value = seed
        self._on_inputs()

    def relations(self) -> list[str]:
        """The relations ticked."""
        return [r for r, box in self.relation_boxes.items() if box.value]

    def _parsed(self) -> search_logic.Parsed:
        return search_logic.parse_text(self.seed.value, persons=True)

    def _on_inputs(self, change: Any = None) -> None:
        parsed = self._parsed()
        problem = logic.check_crawl(parsed.kind, self.direction.value, self.relations())
        if parsed.kind == "":
            message = message_html("Enter a seed: a company id, register text, a company name or a person id.")
        elif parsed.kind == search_logic.INVALID:
            message = parsed.message
        elif problem is not None:
            message = message_html(problem, "error")
        elif parsed.kind == search_logic.NAME:
            message = message_html(
                f"{self.seed.value.strip()!r} is a name: Estimate looks it up first (autocomplete, 0 credits)."
            )
        else:
            message = parsed.message
        ok = parsed.kind in (search_logic.COMPANY, search_logic.PERSON, search_logic.NAME) and problem is None
        self.estimate_button.disabled = not ok
        self.crawl_button.disabled = True
        self.crawl_button.description = "Crawl"
        self.status.value = message
        self.estimate.value = message_html("Estimate the cost before crawling.") if ok else ""
        if self.graph is not None:
            self.mark_stale(self.result_area, True)
            self.status.value += message_html(
                "The group below was crawled with other inputs: estimate and crawl again to update it.", "warning"
            )

    def clear(self) -> None:
        """Take the crawled group off the screen (a new seed, a new estimate: it no longer applies)."""
        self.graph, self.crawled_seed = None, None
        self.mark_stale(self.result_area, False)
        self._slider_row.layout.display = "none"
        self._quiet = True
        try:
            self.date.options = [logic.CURRENT]
        finally:
            self._quiet = False
        for pane in (self.report, self.drawn, self.drawing, self.interlocks):
            pane.value = ""
        self.interactive.children = ()

    def _seed_id(self) -> str | None:
        """The seed's company id or person UUID; a name is looked up (autocomplete) and replaced by its id."""
        parsed = self._parsed()
        if parsed.kind != search_logic.NAME:
            return parsed.id
        found, message = self.metered(lambda: search_logic.name_to_id(self.client, self.seed.value))
        if found is not None:
            self.seed.value = found  # the input shows what is crawled (and asks for a new estimate)
        self.status.value = message
        return found

    def run_estimate(self) -> Any:
        """Dry-run the crawl (0 credits) and show its estimate; enables **Crawl**. Returns the level estimates."""
        if self.estimate_button.disabled:
            return None
        seed = self._seed_id()
        if seed is None:
            return None
        self.clear()
        looked_up = self.status.value
        plans = self._run(
            lambda: logic.estimate_crawl(self.client, seed, self.depth.value, self.relations(), self.direction.value),
            "Estimating …",
        )
        if plans is not None:
            self.status.value = looked_up
            self.estimate.value = logic.estimate_html(plans, self.depth.value)
            self.crawl_button.disabled = False
            self.crawl_button.description = logic.crawl_label(plans, self.depth.value, self.budget.value)
        return plans

    def run_crawl(self) -> Any:
        """Crawl the group within the budget and show it; returns the graph (``None`` on an error)."""
        seed = self._parsed().id
        if seed is None or self.crawl_button.disabled:
            return None
        graph = self._run(
            lambda: logic.run_crawl(
                self.client, seed, self.depth.value, self.relations(), self.budget.value, self.direction.value
            ),
            "Crawling …",
        )
        if graph is None:
            return None
        failed = graph.graph["crawl"].failed.get(seed)
        if failed is not None or seed not in graph:  # the seed itself could not be fetched: nothing to draw
            if failed is not None:
                self.status.value = error_html(failed)
            else:
                self.status.value = message_html(f"{seed} could not be fetched.", "error")
            self._estimate_again(seed)
            return None
        self.graph, self.crawled_seed = graph, seed
        self.mark_stale(self.result_area, False)
        self._slider_row.layout.display = None
        self.report.value = logic.report_html(graph)
        self._quiet = True  # one drawing, not one per trait change
        try:
            founded = graph.nodes[seed].get("incorporated_at")  # before it the seed's group has nothing to draw
            self.date.options = [*logic.change_dates(graph, since=founded), logic.CURRENT]
            self.date.value = logic.CURRENT
        finally:
            self._quiet = False
        self.redraw()
        stopped = graph.graph["crawl"].stopped
        text = logic.crawl_summary(graph) + (f" Stopped: {stopped}." if stopped else "")
        self.status.value = message_html(text, "warning" if stopped else "ok")
        self._estimate_again(seed)
        return graph

    def _estimate_again(self, seed: str) -> None:
        """After a crawl, what the same crawl would cost now (the cache holds what it fetched): free to ask."""
        try:
            plans = logic.estimate_crawl(self.client, seed, self.depth.value, self.relations(), self.direction.value)
        except RegkitError as exc:
            self.estimate.value = error_html(exc)
            return
        self.estimate.value = logic.estimate_html(plans, self.depth.value)
        self.crawl_button.description = logic.crawl_label(plans, self.depth.value, self.budget.value)

    def redraw(self) -> int:
        """Draw the group and its interlocks on the slider's date; returns the number of companies drawn."""
        if self.graph is None or self.crawled_seed is None or self._quiet:
            return 0
        day = logic.to_day(self.date.value)
        if self.view.value == "interactive":
            self.interactive.children = (
                group_drawing.interactive_view(self.graph, self.crawled_seed, day, self.persons.value),
            )
            self.drawing.value = ""
            drawn = group_drawing.drawn_companies(self.graph, self.crawled_seed, day, self.persons.value)
        else:
            self.interactive.children = ()
            self.drawing.value, drawn = group_drawing.drawing_html(
                self.graph, self.crawled_seed, day, self.persons.value
            )
        self.drawn.value = message_html(
            group_drawing.drawn_text(self.graph, self.crawled_seed, day, self.persons.value)
        )
        self.interlocks.value = logic.interlocks_html(self.graph, day)
        return drawn
