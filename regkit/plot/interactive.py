"""An interactive view of a large group: pan, zoom, hover details, select to expand (ipysigma, sigma.js in Jupyter).

:func:`group_interactive` returns a :class:`GroupView`: a legend (what colours, lines and sizes mean) above an
:class:`ipysigma.Sigma` widget of the same group :func:`regkit.plot.group` draws, from the same parts: the same
unique labels (:func:`regkit.plot.group_labels.short_labels`), node colours by kind and status and edge
colours by relation (:mod:`regkit.plot.group_styles`), and the same outline (:mod:`regkit.plot.group_outline`):
one row per company, one step right of and below its parent, the share the parent holds before the company's
name ("100 % · Waldstein Service GmbH", as a list of subsidiaries writes it: sigma would write a label along each
edge of the fan from a parent, one over the next); a company's mergers, spin-offs and other holdings follow its
name, as the drawing's notes do ("merged into Luxlog Holding AG (2020)"), so no edge crosses the tree. People (``persons``) stand in a column left of the tree,
their roles on their edges. Positions are fixed (the widget does not run its force layout unless asked); every
label is drawn (``show_all_labels``): one row each, none over another. Every node has the same size (a person's
is smaller). ipysigma bundles its JavaScript with the Python package, so
the view works in JupyterLab 4 offline. ipysigma is one of regkit's dependencies.

Where the widget cannot run — a notebook opened untrusted or without a kernel, the documentation built from
stored outputs — the view's ``text/html`` is shown instead: the legend and the static drawing of
:func:`regkit.plot.group`, with a line saying how to get the interactive view.

ipysigma and ipywidgets 8
-------------------------
ipysigma's ``layout`` trait (node positions) has the name of every ipywidget's ``layout`` (its CSS box), and
ipywidgets 8 hands whatever it holds to its layout view: with positions there, the browser logged "Cannot read
properties of undefined (reading 'then')". The view keeps ipywidgets' ``layout`` a real
:class:`ipywidgets.Layout` and gives sigma the positions as the nodes' ``x``/``y`` attributes instead.

Growing the graph
-----------------
Selecting a node sets the view's ``selected_node``; ``on_select(node_id)`` is called with it. To grow the
graph from the selected company, crawl it and draw again — each company looked up costs what
:meth:`regkit.Client.estimate_cost` says (10 credits a lookup, 10 for its holdings; cached ones are free)::

    def expand(node):
        more = regkit.graph.crawl(client, [node], depth=1, direction="down", budget=40)
        view = regkit.plot.group_interactive(nx.compose(G, more), company_id=node)
"""

from __future__ import annotations

import base64
import functools
import inspect
from collections.abc import Callable
from typing import Any

import networkx as nx

from regkit.graph.schema import COMPANY, NATURAL_PERSON
from regkit.schema import display_label

from .group import drawn_group
from .group_labels import register_number, short_labels
from .group_outline import Connector, Outline, percent, plan_outline, role_note
from .group_styles import EDGE_STYLES, NODE_STYLES, PERSON_LINK, SEED_COLOUR, node_style
from .inputs import GRAPH, check_input, check_keywords

__all__ = ["group_interactive", "view_graph", "legend_html"]  # and GroupView, built on first use


def view_graph(
    G: nx.MultiDiGraph,
    company_id: str | None = None,
    date: Any = None,
    persons: bool = False,
    all_persons: bool = False,
) -> nx.DiGraph:
    """The graph the interactive view shows: one node per drawn node, one edge per pair, attributes to display.

    Parameters
    ----------
    G, company_id, date, persons, all_persons
        As for :func:`regkit.plot.group`.

    Returns
    -------
    networkx.DiGraph
        Nodes carry ``label`` (unique; the share its parent holds before the name, as in a list of
        subsidiaries, and a company's notes after it: "100 % · Wohnpflege GmbH — spin-off from Luxlog Holding AG
        (2003)"), ``color``, ``size`` (:data:`NODE_SIZE` for every company, :data:`PERSON_SIZE` for a person),
        ``halo`` (its size: 14 for the seed, else 0), ``x``/``y`` (the outline's positions in pixels at the
        view's scale: the top row at 0, each row below it lower, as sigma's y grows upwards) and the hover
        details ``name``, ``kind``, ``register_number``, ``legal_form``, ``status``, ``city`` (display labels:
        "GmbH", "in Liquidation"), ``events`` (the notes) and ``held`` ("100 % by Luxlog Holding AG"); edges,
        from parent to company and from person to company, carry ``relation`` (the legend text), ``share`` (a
        parent's: "100 %", "?" where the record states none) or ``label`` (a person's roles, which sigma writes
        on the edge), ``color`` and ``size``.

    Examples
    --------
    >>> from regkit.local.world import read_world
    >>> from regkit.graph import from_companies
    >>> V = view_graph(from_companies(read_world().companies), company_id="DE-HRB-R2103-65834")
    >>> V.nodes["DE-HRB-R2103-65834"]["label"], V.nodes["DE-HRB-R2103-65834"]["legal_form"]
    ('Luxlog Holding AG', 'AG')
    """
    _, G = check_input(G, "interactive.view_graph", GRAPH)
    H = drawn_group(G, company_id, date, persons, all_persons)
    names = short_labels(H, sorted(H), limit=80)
    plan = _plan(G, H, company_id, date, names)
    held = {child: _share_text(link) for child, link in plan.connectors.items()}
    labels = {n: " — ".join([names[n], "; ".join(plan.notes[n])]) if plan.notes.get(n) else names[n] for n in H}
    labels = {n: f"{held[n]} · {label}" if held.get(n) else label for n, label in labels.items()}
    pos, _ = _positions(H, labels, plan)
    V = nx.DiGraph()
    for node in sorted(H):
        attrs = H.nodes[node]
        kind = attrs.get("kind")
        legend, colour, _ = NODE_STYLES[node_style(attrs)]
        details = {
            "name": attrs.get("name") or node,
            "kind": legend,
            "register_number": register_number(node) if kind == COMPANY else None,
            "legal_form": display_label("legal_form", attrs["legal_form"]) if attrs.get("legal_form") else None,
            "status": display_label("status", attrs["status"]) if attrs.get("status") else None,
            "city": attrs.get("city"),
            "events": "; ".join(plan.notes[node]) if plan.notes.get(node) else None,
            "held": f"{held[node]} by {names[plan.connectors[node].parent]}" if held.get(node) else None,
        }
        x, y = pos[node]
        V.add_node(
            node,
            label=labels[node],
            color=colour,
            size=PERSON_SIZE if kind == NATURAL_PERSON else NODE_SIZE,
            halo=14 if node == company_id else 0,
            x=x,
            y=y,
            **{k: v for k, v in details.items() if v is not None},
        )
    for link in plan.connectors.values():
        label, colour, _, width = EDGE_STYLES[link.style]
        V.add_edge(link.parent, link.child, relation=label, color=colour, size=width, share=_share_text(link))
    for (person, company), roles in sorted(plan.roles.items(), key=lambda item: (str(item[0][0]), str(item[0][1]))):
        if person in V and company in V:
            V.add_edge(person, company, relation=PERSON_LINK[0], color=PERSON_LINK[1], size=0.5, label=role_note(roles))
    return V


def _share_text(link: Connector) -> str:
    """The share a connector's parent holds: "100 %", "> 99 %", "?" for a shareholding the record states no share
    of, "" for a link that is no shareholding and states none."""
    if link.share is not None:
        return percent(link.share)
    return "?" if link.style == "shareholder" else ""


def _plan(G: nx.MultiDiGraph, H: nx.MultiDiGraph, company_id: str | None, date: Any, names: dict[Any, str]) -> Outline:
    from regkit.graph import ultimate_parent
    from regkit.graph.schema import to_date

    top = ultimate_parent(G, company_id, to_date(date)) if company_id is not None else None
    return plan_outline(H, names, top, all_persons=False)


def group_interactive(
    G: nx.MultiDiGraph,
    company_id: str | None = None,
    date: Any = None,
    persons: bool = False,
    all_persons: bool = False,
    *,
    on_select: Callable[[str], Any] | None = None,
    height: int | None = None,
    **sigma_kwargs: Any,
) -> Any:
    """An interactive, zoomable view of a group (see the module docstring).

    Parameters
    ----------
    G, company_id, date, persons, all_persons
        As for :func:`regkit.plot.group`: the group of ``company_id`` (default all of ``G``) on ``date``,
        people only with ``persons`` (those linked to two or more companies, everyone with ``all_persons``).
        The seed has a yellow halo.
    on_select : callable, optional
        Called with the node id whenever a node is selected in the view (e.g. to crawl it; see the module docstring).
    height : int, optional
        Height of the drawing in pixels; default: as tall as the group needs at the width of a notebook cell
        (300 to 900).
    **sigma_kwargs
        Passed to :class:`ipysigma.Sigma` (they override regkit's choices); a keyword ``Sigma`` does not take is
        refused before anything is drawn.

    Returns
    -------
    GroupView
        The view (an ``ipywidgets.VBox``: the legend, then the sigma widget as ``view.sigma``); ``view.data``
        holds the nodes and edges of :func:`view_graph`, ``view.selected_node`` the node selected.

    Raises
    ------
    regkit.errors.ArgumentError
        ``G`` is not a graph (a company record, a frame, None…), or a keyword is neither this function's nor
        ``Sigma``'s (the suggestion names the close one).
    regkit.graph.NotInGraphError
        ``company_id`` is not in ``G``, as for :func:`regkit.plot.group` and :func:`regkit.graph.subsidiaries`.
    """
    if sigma_kwargs:
        check_keywords(
            "group_interactive",
            sigma_kwargs,
            _sigma_keywords(),
            "group_interactive(G, company_id=None, date=None, persons=False, all_persons=False, *, on_select=None, "
            "height=None, **sigma_kwargs) (sigma_kwargs: ipysigma.Sigma's keywords)",
        )
    _, G = check_input(G, "group_interactive", GRAPH)
    V = view_graph(G, company_id, date, persons, all_persons)
    H = drawn_group(G, company_id, date, persons, all_persons)
    names = short_labels(H, sorted(H), limit=80)
    _, extent = _positions(H, {n: a["label"] for n, a in V.nodes(data=True)}, _plan(G, H, company_id, date, names))
    width, tall, column = extent
    if height is None:  # the group at the scale that fits its columns (and their labels) into the cell
        height = int(min(900, max(300, tall * (VIEW_WIDTH - 40) / (width + column) + 100)))
    options: dict[str, Any] = {
        "raw_node_color": "color",
        "raw_node_label": "label",
        "raw_node_size": "size",
        "raw_node_halo_size": "halo",
        "default_node_halo_color": SEED_COLOUR,
        "raw_edge_color": "color",
        "edge_size": "size",
        "default_edge_type": "arrow",
        "edge_size_range": (0.8, 3),  # a profit transfer stands out by colour and weight, not as a band
        "height": height,
        "default_node_label_size": LABEL_PX,
        "show_all_labels": True,  # the layout leaves room for every label
        "hide_info_panel": True,  # the legend is regkit's, above the drawing; hover and search still work
        "camera_state": _camera(width, tall, column, height),
    }
    options.update(sigma_kwargs)
    sigma = _sigma_class()(V, **options)
    view = _group_view_class()(sigma, legend_html(V, company_id), drawn=(G, company_id, date, persons, all_persons))
    if on_select is not None:
        sigma.observe(lambda change: on_select(change["new"]) if change["new"] else None, names="selected_node")
    return view


#: Width (pixels) of a JupyterLab notebook cell's output, the view's scale; label size (pixels) of sigma.
VIEW_WIDTH = 940
LABEL_PX = 12
#: Width (pixels) of sigma's buttons at the left of the view: no node is drawn under them.
LEFT_PANEL = 125
#: The size (sigma's pixels) of every company's node, and of a person's.
NODE_SIZE = 6
PERSON_SIZE = 4


def _camera(width: float, tall: float, column: float, height: int) -> dict[str, float]:
    """Sigma's camera: the nodes, the labels right of the last column, clear of sigma's buttons on the left.

    Sigma scales the graph's larger extent to the smaller side of the view (less 30 pixels of padding each
    side); zoomed out by ``ratio`` and moved so that the drawing spans from :data:`LEFT_PANEL` pixels to the end
    of the last column's labels, everything fits.
    """
    norm = max(width, tall, 1.0)
    side = min(VIEW_WIDTH, height) - 60
    across = ((width + column) / norm * side + LEFT_PANEL) / (VIEW_WIDTH - 40)
    ratio = max(1.0, across, tall / norm * side / (height - 60))
    scale = side / norm / ratio  # pixels per unit of the layout
    shift = (column - LEFT_PANEL / scale) / 2 / norm
    return {"x": round(0.5 + shift, 6), "y": 0.5, "ratio": round(ratio, 6), "angle": 0}


#: The outline's measures in the view (pixels): one step of indent, one row.
STEP = 48
ROW_PX = 2.6 * LABEL_PX


def _positions(
    H: nx.MultiDiGraph, labels: dict[Any, str], plan: Outline
) -> tuple[dict[Any, tuple[float, float]], tuple[float, float, float]]:
    """Node → (x, y) in pixels: the outline's rows and steps (:mod:`regkit.plot.group_outline`), people in a column
    left of the tree, each at the middle of their companies' rows (pushed apart a row at least); and (width,
    height, column) of the layout: ``column`` the widest label, which sigma draws right of its node."""
    from .group_labels import text_width

    pos: dict[Any, tuple[float, float]] = {
        n: (float(plan.depth[n] * STEP), round(i * ROW_PX, 3)) for i, n in enumerate(plan.rows)
    }
    people = [n for n in H if n not in pos]
    if people:
        widest = max(text_width(labels[p], LABEL_PX * 0.75) * 96 / 72 for p in people) * 1.12
        x = -(widest + 2 * STEP)
        wanted = sorted(
            people,
            key=lambda p: (
                sum(pos[c][1] for c in H.successors(p) if c in pos)
                / max(1, sum(1 for c in H.successors(p) if c in pos)),
                str(p),
            ),
        )
        last = -ROW_PX
        for p in wanted:
            rows = [pos[c][1] for c in H.successors(p) if c in pos] or [0.0]
            last = max(sum(rows) / len(rows), last + ROW_PX)
            pos[p] = (round(x, 3), round(last, 3))
    longest = max((text_width(text, LABEL_PX * 0.75) * 96 / 72 for text in labels.values()), default=80.0) * 1.12
    pos = {n: (x, -y if y else 0.0) for n, (x, y) in pos.items()}  # sigma's y grows upwards: the top row on top
    xs = [x for x, _ in pos.values()] or [0.0]
    ys = [y for _, y in pos.values()] or [0.0]
    return pos, (max(xs) - min(xs), max(ys) - min(ys), longest + 2 * NODE_SIZE + 30)


def legend_html(V: nx.DiGraph, seed: str | None) -> str:
    """The legend of a view: node colours of the kinds present, the seed's halo, node sizes, edge colours."""
    from html import escape

    kinds = {a["kind"] for _, a in V.nodes(data=True)}
    items = [
        f'<span style="display:inline-block;width:10px;height:10px;border-radius:50%;background:{colour};'
        f'margin:0 4px 0 10px"></span>{escape(label)}'
        for label, colour, _ in NODE_STYLES.values()
        if label in kinds
    ]
    if seed in V:
        items.append(
            f'<span style="display:inline-block;width:12px;height:12px;border-radius:50%;background:{SEED_COLOUR};'
            'margin:0 4px 0 10px"></span>the company asked about'
        )
    relations = {a["relation"]: a["color"] for *_, a in V.edges(data=True)}
    items += [
        f'<span style="display:inline-block;width:18px;height:3px;background:{colour};vertical-align:middle;'
        f'margin:0 4px 0 10px"></span>{escape(label)}'
        for label, colour in sorted(relations.items())
    ]
    shares = [a.get("share") for *_, a in V.edges(data=True) if a.get("share")]
    if shares:
        unknown = " (?: the record states none)" if "?" in shares else ""
        items.append(f'<span style="margin-left:10px">before a name: the share its parent holds{unknown}</span>')
    if any(a.get("events") for _, a in V.nodes(data=True)):
        from regkit.schema.labels import GROUP_LINK_LABELS

        items.append(
            f'<span style="margin-left:10px">after a name: its {escape(GROUP_LINK_LABELS["merger"])} or '
            f"{escape(GROUP_LINK_LABELS['spin_off'])} with the year, or another holding</span>"
        )
    sizes = "every company drawn the same size" + (", a person smaller" if PERSON_SIZE != NODE_SIZE else "")
    return (
        '<div class="regkit-group-legend" style="font-size:12px;line-height:1.9;color:#333">'
        + " ".join(items)
        + f' <span style="margin-left:10px;color:#555">· {sizes}; scroll to zoom, drag to pan, hover for details'
        "</span></div>"
    )


@functools.lru_cache(maxsize=1)
def _sigma_class() -> Any:
    """:class:`ipysigma.Sigma` whose ``layout`` is ipywidgets' CSS box again (see the module docstring): the
    positions travel as node attributes."""
    import ipywidgets as widgets
    from ipysigma import Sigma  # type: ignore[import-untyped]  # imported on use: it loads ipywidgets
    from ipywidgets.widgets.trait_types import InstanceDict

    class GroupSigma(Sigma):
        layout = InstanceDict(widgets.Layout, allow_none=True).tag(sync=True, **widgets.widget_serialization)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.layout = widgets.Layout()

    return GroupSigma


@functools.cache
def _sigma_keywords() -> tuple[str, ...]:
    """The keywords :func:`group_interactive` takes: its own and :class:`ipysigma.Sigma`'s, read from signatures."""
    from ipysigma import Sigma

    names = [
        p.name
        for function in (group_interactive, Sigma.__init__)
        for p in inspect.signature(function).parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "graph")
    ]
    return tuple(dict.fromkeys(names))


@functools.lru_cache(maxsize=1)
def _group_view_class() -> Any:
    import ipywidgets as widgets

    class GroupView(widgets.VBox):
        """The interactive group view: its legend and the :class:`ipysigma.Sigma` widget (``sigma``).

        Shown where widgets cannot run (an untrusted notebook, the documentation), it is its ``text/html``:
        the legend and the static drawing of :func:`regkit.plot.group`.
        """

        def __init__(self, sigma: Any, legend: str, drawn: tuple[Any, ...]) -> None:
            self.sigma = sigma
            self.legend = widgets.HTML(legend)
            self._drawn = drawn
            super().__init__([self.legend, sigma])

        @property
        def data(self) -> Any:
            """The nodes and edges shown (ipysigma's serialised graph)."""
            return self.sigma.data

        @property
        def selected_node(self) -> Any:
            """The node selected in the view (``None``: none)."""
            return self.sigma.selected_node

        @selected_node.setter
        def selected_node(self, node: Any) -> None:
            self.sigma.selected_node = node

        def static_html(self) -> str:
            """The legend and the static drawing (:func:`regkit.plot.group`, SVG) as HTML."""
            import matplotlib.pyplot as plt

            from .group import group
            from .style import figure_svg

            G, company_id, date, persons, all_persons = self._drawn
            ax = group(G, company_id=company_id, date=date, persons=persons, all_persons=all_persons)
            try:
                svg = figure_svg(ax.figure)
            finally:
                plt.close(ax.figure)
            data = base64.b64encode(svg.encode("utf-8")).decode("ascii")  # an image: it survives sanitising
            image = f'<img alt="the group" style="max-width:100%;height:auto" src="data:image/svg+xml;base64,{data}">'
            return (
                '<div class="regkit-group-static"><p style="color:#57606a">Static drawing of the group: run the '
                "notebook (trusted, with a kernel) for the interactive view (zoom, pan, details on hover).</p>"
                f"{image}</div>"
            )

        def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
            data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)
            data["text/html"] = self.static_html()
            return data

    return GroupView


def __getattr__(name: str) -> Any:
    if name == "GroupView":  # built on first use: ipywidgets is imported only then
        return _group_view_class()
    raise AttributeError(name)
