"""An interactive view of a large group: pan, zoom, hover details, select to expand (ipysigma, sigma.js in Jupyter).

:func:`group_interactive` returns an :class:`ipysigma.Sigma` widget of the same group :func:`regkit.plot.group`
draws, from the same parts: the same unique short labels (:func:`regkit.plot.group_labels.short_labels`), node
colours by kind and status and edge colours by relation (:mod:`regkit.plot.group_styles`), one edge per pair,
pointed down from parent to company, and positions from the layered layout (deterministic; the widget does not
run its force layout unless asked). ipysigma bundles its JavaScript with the Python package, so the view works
in JupyterLab 4 offline. ipysigma is one of regkit's dependencies.

Growing the graph
-----------------
Selecting a node sets the widget's ``selected_node``; ``on_select(node_id)`` is called with it. To grow the
graph from the selected company, crawl it and draw again — each company looked up costs what
:meth:`regkit.Client.estimate_cost` says (10 credits a lookup, 10 for its holdings; cached ones are free)::

    def expand(node):
        more = regkit.graph.crawl(client, [node], depth=1, direction="down", budget=40)
        view = regkit.plot.group_interactive(nx.compose(G, more), company_id=node)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import networkx as nx

from regkit.graph.layout import layered_layout
from regkit.graph.schema import COMPANY, NATURAL_PERSON
from regkit.schema import display_label

from .group import drawn_group
from .group_edges import PERSON_LINK, tree_edges
from .group_labels import register_number, short_labels
from .group_styles import EDGE_STYLES, NODE_STYLES, SEED_COLOUR, node_style

__all__ = ["group_interactive", "view_graph"]


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
        Nodes carry ``label`` (unique, short), ``color``, ``size``, ``halo`` (its size: 14 for the seed, else 0), ``x``/``y`` (layered
        positions, top at 0) and the hover details ``name``, ``kind``, ``register_number``, ``legal_form``,
        ``status`` and ``city`` (display labels: "GmbH", "in Liquidation"); edges, pointing down, carry
        ``relation`` (the legend text), ``color`` and ``size``.

    Examples
    --------
    >>> from regkit.local.world import read_world
    >>> from regkit.graph import from_companies
    >>> V = view_graph(from_companies(read_world().companies), company_id="DE-HRB-R2103-65834")
    >>> V.nodes["DE-HRB-R2103-65834"]["label"], V.nodes["DE-HRB-R2103-65834"]["legal_form"]
    ('Luxlog Holding AG', 'AG')
    """
    H = drawn_group(G, company_id, date, persons, all_persons)
    labels = short_labels(H, sorted(H))
    pos = layered_layout(H, max_row=12, row_gap=1.0, layer_gap=0.8, stagger=True)
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
        }
        x, y = pos[node]
        V.add_node(
            node,
            label=labels[node],
            color=colour,
            size=2 if kind == NATURAL_PERSON else 4 + min(H.degree(node), 12),
            halo=14 if node == company_id else 0,
            x=x * 10,
            y=y * 10,
            **{k: v for k, v in details.items() if v is not None},
        )
    tree, others, people = tree_edges(H)
    for link in [*tree, *others]:
        label, colour, _, width = EDGE_STYLES[link.style]
        V.add_edge(link.upper, link.lower, relation=label, color=colour, size=width if link in tree else width / 2)
    for link in people:
        V.add_edge(link.upper, link.lower, relation=PERSON_LINK[0], color=PERSON_LINK[1], size=0.5)
    return V


def group_interactive(
    G: nx.MultiDiGraph,
    company_id: str | None = None,
    date: Any = None,
    persons: bool = False,
    all_persons: bool = False,
    *,
    on_select: Callable[[str], Any] | None = None,
    height: int = 600,
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
    height : int
        Height of the widget in pixels.
    **sigma_kwargs
        Passed to :class:`ipysigma.Sigma` (they override regkit's choices).

    Returns
    -------
    ipysigma.Sigma
        The widget; its ``data`` trait holds the nodes and edges of :func:`view_graph`.
    """
    from ipysigma import Sigma  # type: ignore[import-untyped]  # imported on use: it loads ipywidgets

    V = view_graph(G, company_id, date, persons, all_persons)
    options: dict[str, Any] = {
        "layout": {n: {"x": a["x"], "y": a["y"]} for n, a in V.nodes(data=True)},
        "raw_node_color": "color",
        "raw_node_label": "label",
        "node_size": "size",
        "raw_node_halo_size": "halo",
        "default_node_halo_color": SEED_COLOUR,
        "raw_edge_color": "color",
        "edge_size": "size",
        "default_edge_type": "arrow",
        "node_size_range": (3, 14),
        "edge_size_range": (0.8, 3),  # a profit transfer stands out by colour and weight, not as a band
        "height": height,
        "label_density": 1,  # sigma hides labels that would overlap; zooming in shows them
        "hide_info_panel": True,  # the drawing, not sigma's settings; hover and search still work
    }
    options.update(sigma_kwargs)
    widget = Sigma(V, **options)
    if on_select is not None:
        widget.observe(lambda change: on_select(change["new"]) if change["new"] else None, names="selected_node")
    return widget
