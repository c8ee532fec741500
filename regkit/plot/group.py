"""``regkit.plot.group``: a readable drawing of a corporate group.

Companies are laid out in layers by control (:func:`regkit.graph.layout.layered_layout`): the
ultimate parent on top, each company below its parents, absorbed companies below their acquirer,
spin-off recipients below the transferor, people (if drawn) at the bottom. Colour and marker tell the
kind and status of a node, line style the relation. The layout is deterministic (``layout="spring"``
is seeded). matplotlib is imported when drawing, not with this module.

Note: this module and the function share the name ``group``. ``regkit.plot.group`` is the function,
but after ``import regkit.plot.group`` Python binds the module to that name; the module is therefore
callable and calling it calls :func:`group`.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import networkx as nx

from regkit.errors import ArgumentError, ValidationError
from regkit.graph import as_of, controlled_companies, ultimate_parent
from regkit.graph.errors import check_node
from regkit.graph.schema import (
    MERGER,
    NATURAL_PERSON,
    REPRESENTATION,
    SPIN_OFF,
    to_date,
)
from regkit.graph.timeline import in_force

from .group_canvas import CHANNEL, MIN_COLUMN, Canvas, company_units, plan_canvas, text_width
from .group_edges import PERSON_LINK, Link, draw_links, share_width, tree_edges
from .group_labels import short_labels
from .group_styles import EDGE_STYLES, NODE_STYLES, SEED_COLOUR, node_style
from .inputs import GRAPH, check_axes, check_input

__all__ = ["group", "select_group", "drawn_group", "NODE_STYLES", "EDGE_STYLES"]


def select_group(G: nx.MultiDiGraph, company_id: str, date: Any = None, persons: bool = False) -> set[str]:
    """The nodes of a company's group: its ultimate parent, all it controls, their mergers and spin-offs.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Control as of this day (default: the current state): a ``datetime.date``, ``datetime``, ``Timestamp``
        or ``datetime64``, ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a
        ``ValidationError``.
    persons : bool
        Add the natural persons who represent the group's companies.

    Returns
    -------
    set of str

    Raises
    ------
    regkit.graph.NotInGraphError
        ``company_id`` is not a node of ``G`` (the suggestion says how to get it into the graph), as for
        :func:`regkit.graph.subsidiaries`.
    """
    check_node(G, company_id)
    day = to_date(date)
    top = ultimate_parent(G, company_id, day)
    members = {top, company_id} | controlled_companies(G, top, day)
    for node in list(members):
        for u, v, a in [*G.in_edges(node, data=True), *G.out_edges(node, data=True)]:
            if a.get("relation") in (MERGER, SPIN_OFF) and (day is None or in_force(a, day) or a["valid_from"] is None):
                members |= {u, v}
    if persons:
        members |= {
            u
            for node in list(members)
            for u, _, a in G.in_edges(node, data=True)
            if a.get("relation") == REPRESENTATION and G.nodes[u].get("kind") == NATURAL_PERSON
        }
    return members


def group(
    G: nx.MultiDiGraph,
    ax: Any = None,
    *,
    company_id: str | None = None,
    date: Any = None,
    persons: bool = False,
    all_persons: bool = False,
    labels: bool = True,
    legend: bool = True,
    layout: str = "layered",
    seed: int = 0,
    title: str | None = None,
    node_size: float = 150,
    font_size: float = 9,
    max_width: float = 9.3,
    source: Any = True,
) -> Any:
    """Draw a corporate group: layered by control, parent on top, one connector down to each company.

    The top company (the ultimate parent) is drawn on top, each company one layer below the parent that
    controls it (:func:`regkit.graph.layout.layered_layout`): absorbed companies below their acquirer,
    spin-off recipients below the transferor, people — if drawn — in a band of their own at the bottom.
    Every connector points down: an orthogonal line from the parent to each company, in the style of its
    strongest relation (:mod:`regkit.plot.group_edges`), as heavy as the share held, the share printed on
    it when below 100 %; a merger or spin-off of the same pair is a second line beside it, labelled with
    its year; other links are thin lines. When ``date`` is given, the companies keep the columns of the
    undated drawing. Labels are the
    names, shortened at word boundaries and made unique with the register number where names repeat
    (:func:`regkit.plot.short_labels`); the company asked about (``company_id``) has a yellow halo and a
    bold label. A layer too long for ``max_width`` wraps into rows within its band; the legend is a strip
    inside the figure, at the bottom.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:func:`regkit.graph.from_companies` or :func:`regkit.graph.crawl`).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the group (at most ``max_width`` inches wide). A string in
        its place is the company id: ``group(G, "DE-HRB-…")`` is ``group(G, company_id="DE-HRB-…")``.
    company_id : str, optional
        Draw only this company's group (:func:`select_group`), this company highlighted; default all of ``G``.
    date : date-like, optional
        Draw the group as it stood on this day (:func:`regkit.graph.as_of`; a company terminated
        since is drawn as active). Without a date the whole history in ``G`` is drawn, ended
        relations faded. A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a ``ValidationError``.
    persons : bool
        Also draw the natural persons linked to two or more of the drawn companies (directors, Prokura,
        shareholders), in a row below the companies, each under the middle of its companies, the role on each
        line; default companies only. People never move a company: the columns are those of the drawing without
        them.
    all_persons : bool
        With ``persons``: draw every person linked to a drawn company, not only those linked to two or more.
    labels, legend : bool
        Draw node labels and a legend of the kinds and relations present.
    layout : {"layered", "spring"}
        Control layers (default) or a seeded spring layout (straight lines, labels may overlap).
    seed : int
        Seed of the spring layout.
    title : str, optional
        Default: the group's top company (with ``company_id``) and the date.
    node_size, font_size : float
        Marker area (points²) and font size (points) of every text in the drawing; a single word too long for
        its column is set smaller, but not below 9 points.
    max_width : float
        Greatest width of a new figure, inches. The default, 9.3, fits a JupyterLab cell (about 968 pixels)
        both as a PNG at 100 dpi and as an SVG (96 pixels an inch), so nothing is scaled down: labels stay
        at ``font_size`` on screen. A wider group wraps its layers into more rows.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        graph says (``G.graph["source"]``) or the session's default, a string that line, ``None``/``False`` none.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    regkit.errors.ArgumentError
        ``G`` is not a graph (a company record, a frame, None…), ``ax`` is no Axes, or two different companies
        are given (second argument and ``company_id=``).
    regkit.graph.NotInGraphError
        ``company_id`` is not in ``G``, as for :func:`regkit.graph.subsidiaries` (its suggestion says how to
        crawl it in).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from regkit.local.world import read_world
    >>> from regkit.graph import from_companies
    >>> import regkit.plot
    >>> G = from_companies(read_world().companies)
    >>> ax = regkit.plot.group(G, company_id="DE-HRB-R2103-65834")
    >>> ax.get_title()
    'Luxlog Holding AG (DE-HRB-R2103-65834) and its group'
    >>> float(ax.figure.get_figwidth()) <= 9.3
    True
    """
    _, G = check_input(G, "group", GRAPH)
    if isinstance(ax, str):  # group(G, "DE-…"): the company id where the Axes goes; an Axes is never a string
        if company_id is not None and company_id != ax:
            raise ArgumentError(
                f"group got two companies: {ax!r} (second, where ax= goes) and company_id={company_id!r}",
                suggestion="pass one company: regkit.plot.group(G, company_id='DE-…')",
            )
        company_id, ax = ax, None
    check_axes(ax)
    if layout not in ("layered", "spring"):
        raise ValidationError(
            f"layout must be 'layered' or 'spring', not {layout!r}",
            suggestion="pass layout='layered' (control layers) or layout='spring'",
        )
    H = drawn_group(G, company_id, date, persons, all_persons)
    if title is None and company_id is not None:
        day = to_date(date)  # None exactly when date is None: as_of above rejected a date that is no day
        top = ultimate_parent(G, company_id, day)
        title = f"{G.nodes[top].get('name') or top} ({top}) and its group"
        title += f" on {day.isoformat()}" if day is not None else ""
    links = tree_edges(H)
    entries = _legend_handles(H, links, company_id) if legend else []
    names = short_labels(H, sorted(H)) if labels else {}
    units = _spring(H, seed) if layout == "spring" else None
    order = None
    if units is None and (date is not None or persons):  # keep the columns of the undated drawing without people
        room = max_width - 2 * 0.3
        whole = drawn_group(G, company_id, None, False)
        order = {n: (x, -y) for n, (x, y) in company_units(whole, max(1, int(room // MIN_COLUMN))).items()}
    canvas = plan_canvas(
        H,
        names,
        font_size=font_size,
        node_size=node_size,
        max_width=max_width,
        legend_entries=len(entries),
        legend_width=max((text_width(h.get_label(), font_size) for h in entries), default=0.0) + 2.6 * font_size,
        title=bool(title),
        bold=company_id,
        pos=units,
        order=order,
    )
    own = ax is None
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=canvas.figsize)
        top_room = 1 - (0.45 if title else 0.1) / canvas.figsize[1]
        ax = fig.add_axes((0.0, 0.0, 1.0, top_room))
    if layout == "spring":
        links = ([], [*links[0], *links[1]], links[2])
    unplaced = draw_links(ax, canvas, links, date is None, font_size)
    _draw_nodes(ax, H, canvas, node_size, company_id)
    for node in names:
        x, y = canvas.pos[node]
        ax.text(
            x,
            y - canvas.marker - 2 / 72,
            "\n".join([*canvas.lines[node], *_more_roles(unplaced.get(node))]),
            ha="center",
            va="top",
            fontsize=canvas.fonts[node],
            linespacing=1.1,
            zorder=3,
            gid=f"label:{node}",
            fontweight="bold" if node == company_id else "normal",
            bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
        )
    _people_caption(ax, H, canvas, all_persons, font_size)
    if entries:
        ax.legend(
            handles=entries,
            loc="lower center",
            ncol=canvas.legend_columns,
            fontsize=font_size,
            frameon=False,
            borderaxespad=0.2,
            handlelength=2.6,
            columnspacing=1.2,
        )
    if title:
        ax.set_title(title, fontsize=font_size + 2)
    ax.set_xlim(*canvas.xlim)
    y_bottom, y_top = canvas.ylim
    extra = max((len(_more_roles(roles)) for roles in unplaced.values()), default=0) * font_size * 1.25 / 72
    if extra:  # room for the roles said under a person's name, above the legend
        y_bottom -= extra
        if own:
            fig_width, fig_height = canvas.figsize
            ax.figure.set_size_inches(fig_width, fig_height + extra)
            ax.set_position((0.0, 0.0, 1.0, 1 - (0.45 if title else 0.1) / (fig_height + extra)))
    ax.set_ylim(y_bottom, y_top)
    ax.set_axis_off()
    from .source_line import add_source_line

    add_source_line(ax, source, G)
    return ax


def drawn_group(
    G: nx.MultiDiGraph, company_id: str | None, date: Any, persons: bool, all_persons: bool = False
) -> nx.MultiDiGraph:
    """The subgraph :func:`group` draws and :func:`regkit.plot.interactive.view_graph` shows.

    The group of ``company_id`` (all of ``G`` without one) as of ``date``; people only with ``persons``, and
    then only those linked to two or more of the drawn companies unless ``all_persons``.
    """
    nodes = select_group(G, company_id, date, persons) if company_id is not None else set(G)
    if not persons:
        nodes = {n for n in nodes if G.nodes[n].get("kind") != NATURAL_PERSON}
    H = G.subgraph(nodes)
    if date is not None:
        H = as_of(H, date)
        for _, attrs in H.nodes(data=True):  # existed on the date, terminated since: it was not inactive then
            if attrs.get("status") == "inactive" and attrs.get("terminated_at") is not None:
                attrs["status"] = "active"
    if persons and not all_persons:
        lone = [n for n in H if H.nodes[n].get("kind") == NATURAL_PERSON and len(_companies_of(H, n)) < 2]
        H = H.subgraph(set(H) - set(lone))
    return H


def _companies_of(H: nx.MultiDiGraph, person: Any) -> set[Any]:
    """The companies (and legal persons) a person is linked to in ``H``, either way."""
    return {
        m for m in (set(H.predecessors(person)) | set(H.successors(person))) if H.nodes[m].get("kind") != NATURAL_PERSON
    }


def _spring(H: nx.MultiDiGraph, seed: int) -> dict[Any, tuple[float, float]]:
    raw = nx.spring_layout(nx.DiGraph(H), seed=seed)
    side = max(2.0, len(H) ** 0.5 * 1.6)  # in columns and rows: room for the labels
    return {n: (float(x) * side, float(y) * side / 2) for n, (x, y) in raw.items()}


def _draw_nodes(ax: Any, H: nx.MultiDiGraph, canvas: Canvas, node_size: float, seed: str | None) -> None:
    if seed in canvas.pos:
        x, y = canvas.pos[seed]
        ax.scatter(
            [x], [y], s=node_size * 3.2, marker="o", color=SEED_COLOUR, alpha=0.55, zorder=1.9, linewidths=0, gid="seed"
        )
    for key, (_, colour, marker) in NODE_STYLES.items():
        members = sorted(n for n, a in H.nodes(data=True) if node_style(a) == key)
        if members:
            xy = [canvas.pos[n] for n in members]
            ax.scatter(
                [x for x, _ in xy],
                [y for _, y in xy],
                s=node_size,
                marker=marker,
                color=colour,
                edgecolors="#2F3E5C",
                linewidths=0.8,
                zorder=2,
            )


def _more_roles(roles: Any) -> list[str]:
    """The lines under a person's name for the roles no spot on their line was free for: "director ×9"."""
    if not roles:
        return []
    return ["lines not labelled:", *(f"{role} ×{count}" for role, count in sorted(roles.items()))]


def _people_caption(ax: Any, H: nx.MultiDiGraph, canvas: Canvas, all_persons: bool, font_size: float) -> None:
    """A rule and a caption above the row of people, so they read apart from the companies."""
    people = [canvas.pos[n][1] for n, kind in H.nodes(data="kind") if kind == NATURAL_PERSON]
    if not people or len(people) == len(H):
        return
    y = max(people) + canvas.marker + CHANNEL * canvas.row * 0.5
    ax.axhline(y, color="#55A868", linewidth=0.6, alpha=0.6, zorder=0.4)
    caption = "People (role on each line)" if all_persons else "People linked to two or more of these companies"
    ax.text(
        canvas.xlim[0] + 0.1,
        y + 0.03,
        caption,
        fontsize=font_size,
        color="#2E6B3A",
        style="italic",
        ha="left",
        va="bottom",
        zorder=3.4,  # over the notes on the people's lines
        gid="people-caption",
        bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.9},
    )


def _legend_handles(H: nx.MultiDiGraph, links: tuple[list[Link], list[Link], list[Link]], seed: str | None) -> list:
    from matplotlib.lines import Line2D

    kinds = {node_style(a) for _, a in H.nodes(data=True)}
    tree, others, persons = links
    shown = {link.style for link in tree + others} | {link.event for link in tree if link.event}
    handles = [
        Line2D(
            [],
            [],
            marker=marker,
            linestyle="none",
            markerfacecolor=colour,
            markeredgecolor="#2F3E5C",
            markersize=7,
            label=label,
        )
        for key, (label, colour, marker) in NODE_STYLES.items()
        if key in kinds
    ]
    if seed in H:
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                linestyle="none",
                markerfacecolor=SEED_COLOUR,
                alpha=0.6,
                markeredgecolor="none",
                markersize=12,
                label="the company asked about",
            )
        )
    handles += [
        Line2D([], [], color=colour, linestyle=line, linewidth=width, label=label)
        for key, (label, colour, line, width) in EDGE_STYLES.items()
        if key in shown
    ]
    if any(link.share is not None for link in tree):
        handles += [
            Line2D([], [], color="#333333", linewidth=share_width(share, 1.0), label=label)
            for share, label in (
                (1.0, "line weight = share held: 100 %"),
                (0.8, "80 % (shares below 100 % printed on the line)"),
                (0.5, "50 %"),
            )
        ]
    if persons:
        label, colour, width = PERSON_LINK
        handles.append(Line2D([], [], color=colour, linewidth=width * 1.6, label=label))
    return handles


class _CallableModule(types.ModuleType):
    """Lets ``regkit.plot.group(G)`` work even when the name is bound to this module (see docstring)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return group(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
