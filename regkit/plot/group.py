"""``regkit.plot.group``: a readable drawing of a corporate group.

The group is an outline (:mod:`regkit.plot.group_outline`): one row per company, each under the parent that
controls it, one step in; the share held on every connector; mergers and spin-offs as arrows in a lane beside the
names with a note that says what happened and when; people as columns of role markers. One row per company and one
note per row: no text can be printed over another. matplotlib is imported when drawing, not with this module.

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

from .group_labels import short_labels, text_width, wrap_words
from .group_outline import Outline, percent, plan_outline, share_width
from .group_styles import EDGE_STYLES, NODE_STYLES, ROLE_COLOUR, ROLE_MARKERS, SEED_COLOUR, node_style
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
    """Draw a corporate group as an outline: one row per company, each under its parent, the share on each line.

    The ultimate parent is the first row; each company it controls (by a profit-transfer agreement, a shareholding
    or as general partner, :data:`regkit.plot.group_outline.CONTROL_STYLES`) is a row below it, one step in,
    joined by a connector in the relation's style, as heavy as the share held and with the share printed on it
    (100 % too). Mergers and spin-offs are arrows in a lane right of the names — into the acquirer, to the
    recipient — and the affected row says what happened and when ("merged into Luxlog Holding AG (2020)").
    A holding the tree does not show (a second parent, a minority stake) is a note on the held row. The company
    asked about (``company_id``) has a yellow halo and a bold name. People (``persons``) are columns — a person's
    name on top, a marker per role in each of their companies' rows; with ``all_persons`` the people of only one
    drawn company are listed under its name. The legend, the title and the source line are inside the figure,
    so a plain ``savefig`` keeps them.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:func:`regkit.graph.from_companies` or :func:`regkit.graph.crawl`).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the group. The drawing is laid out in inches: an Axes of
        another size scales its lines but not its text. A string in its place is the company id:
        ``group(G, "DE-HRB-…")`` is ``group(G, company_id="DE-HRB-…")``.
    company_id : str, optional
        Draw only this company's group (:func:`select_group`), this company highlighted; default all of ``G``.
    date : date-like, optional
        Draw the group as it stood on this day (:func:`regkit.graph.as_of`; a company terminated
        since is drawn as active). Without a date the whole history in ``G`` is drawn, ended
        relations faded. A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a ``ValidationError``.
    persons : bool
        Also draw the natural persons linked to two or more of the drawn companies (directors, Prokura,
        shareholders): a column each, a marker per role.
    all_persons : bool
        Draw every person linked to a drawn company: those of two or more companies as columns, the others
        listed under their company's name with their roles. Implies ``persons``.
    labels, legend : bool
        Draw the names and a legend of the kinds and relations present.
    layout : {"layered", "outline"}
        The outline (both names draw it). ``"spring"``, a seeded force layout whose labels overprinted one another,
        was removed in issue 46: it draws the outline with a ``FutureWarning``.
    seed : int
        Kept so that calls which passed it still work; the outline has no randomness (no effect).
    title : str, optional
        Default: the group's top company (with ``company_id``) and the date.
    node_size : float
        Scales each company's square by area: ``node_size / 150`` times the default square (7 pt a side, 49
        pt²), so 600 draws squares twice as wide. The row height stays: a square much larger than the default
        fills its row.
    font_size : float
        Font size (points) of every text but the title; 9 or more.
    max_width : float
        Width (inches) the notes beside the rows are wrapped to fit. The default, 9.3, fits a JupyterLab cell
        (about 968 pixels) as a PNG at 100 dpi and as an SVG (96 pixels an inch), so nothing is scaled down.
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
    regkit.errors.ValidationError
        ``layout`` is none of "layered", "outline" and "spring".
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
    if layout not in ("outline", "layered", "spring"):
        raise ValidationError(
            f"layout must be 'layered' (the outline), not {layout!r}",
            suggestion="leave layout out: the group is drawn as an outline (for a free layout, use "
            "regkit.plot.group_interactive or networkx.draw)",
        )
    if layout == "spring":
        import warnings

        warnings.warn(
            "regkit.plot.group: layout='spring' was removed (its labels overprinted one another); the group is "
            "drawn as an outline. Leave layout out, or use regkit.plot.group_interactive for a free layout.",
            FutureWarning,
            stacklevel=2,
        )
    persons = persons or all_persons
    H = drawn_group(G, company_id, date, persons, all_persons)
    top = None
    if company_id is not None:
        day = to_date(date)  # None exactly when date is None: as_of above rejected a date that is no day
        top = ultimate_parent(G, company_id, day)
        if title is None:
            title = f"{G.nodes[top].get('name') or top} ({top}) and its group"
            title += f" on {day.isoformat()}" if day is not None else ""
    names = short_labels(H, sorted(H), limit=80)
    plan = plan_outline(H, names, top, all_persons)
    sheet = _Sheet(H, plan, names, company_id, font_size, max_width, labels, (node_size / 150) ** 0.5 * MARKER)
    handles = _legend_handles(H, plan, company_id) if legend else []
    widest = max((text_width(h.get_label(), font_size) / 72 + 0.9 for h in handles), default=0.0)
    sheet.width = max(sheet.width, widest, text_width(title or "", font_size + 2) / 72 + 0.4)
    source_lines = _source_line_count(source, G, sheet.width) if source else 0
    bottom = 0.12 + 0.17 * source_lines + _legend_height(handles, sheet.width, font_size)
    head = 0.5 if title else 0.15
    own = ax is None
    if ax is None:
        import matplotlib.pyplot as plt

        height = head + sheet.height + bottom
        fig = plt.figure(figsize=(sheet.width, height))
        ax = fig.add_axes((0.0, bottom / height, 1.0, sheet.height / height))
    ax.set_xlim(0, sheet.width)
    ax.set_ylim(-sheet.height, 0)
    ax.set_axis_off()
    sheet.draw(ax, date is None)
    if title:
        ax.set_title(title, fontsize=font_size + 2, pad=8)
    if handles:
        fig = ax.figure
        anchor = (0.15 / sheet.width, (bottom - 0.06) / fig.get_figheight()) if own else (0.0, 0.0)
        (fig if own else ax).legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=anchor,
            ncol=_legend_columns(handles, sheet.width, font_size),
            fontsize=font_size,
            frameon=False,
            handlelength=2.6,
            columnspacing=1.2,
            borderaxespad=0.0,
        )
    from .source_line import add_source_line

    add_source_line(ax, source, G, inside=own)
    return ax


#: The outline's measures (inches): a row of one line, one step of indent (room for "100 %" on the connector),
#: the margin left of the first column, the gap between a marker and its name, the width of a lane of events
#: and of a person's column.
ROW = 0.3
INDENT = 0.66
LEFT = 0.2
NAME_GAP = 0.12
LANE = 0.14
PERSON_COLUMN = 0.27
MARKER = 7.0  # points: the side of a company's square at the default node_size


class _Sheet:
    """The outline measured in inches and drawn (see :func:`group`)."""

    def __init__(
        self,
        H: nx.MultiDiGraph,
        plan: Outline,
        names: dict[Any, str],
        seed: str | None,
        font_size: float,
        max_width: float,
        labels: bool,
        marker: float = 7.0,
    ) -> None:
        self.H, self.plan, self.names, self.seed, self.font = H, plan, names, seed, font_size
        self.marker = marker
        self.labels = labels
        line = font_size * 1.3 / 72
        self.line = line
        rows = plan.rows
        self.mark_x = {n: LEFT + plan.depth[n] * INDENT for n in rows}
        self.name_end = {
            n: self.mark_x[n] + NAME_GAP + text_width(names[n], font_size, "bold" if n == seed else "normal") / 72
            for n in rows
        }
        listed_room = max([*self.name_end.values(), LEFT + 3.6])
        self.listed = {
            n: _pack(
                [f"{names[p]} ({_roles(r)})" for p, r in plan.listed.get(n, [])],
                "people: ",
                lambda t, n=n: text_width(t, font_size) / 72 <= listed_room - self.mark_x[n] - NAME_GAP,
            )
            for n in rows
        }
        for n in rows:
            if self.listed[n]:
                widest = max(text_width(t, font_size) for t in self.listed[n]) / 72
                self.name_end[n] = max(self.name_end[n], self.mark_x[n] + NAME_GAP + widest)
        names_end = max(self.name_end.values(), default=LEFT + 1.0) + 0.2
        self.lanes = _lanes(plan, rows)
        self.lanes_x = names_end
        lanes_width = (max(self.lanes.values(), default=-1) + 1) * LANE + (0.1 if self.lanes else 0.0)
        self.notes_x = names_end + lanes_width
        people_width = len(plan.people) * PERSON_COLUMN + (0.25 if plan.people else 0.0)
        longest_note = max((text_width(t, font_size) / 72 for notes in plan.notes.values() for t in notes), default=0.0)
        room = max(2.2, max_width - self.notes_x - people_width - 0.15)
        self.notes_width = min(longest_note, room)
        self.note_lines = {
            n: [
                part
                for note in plan.notes.get(n, [])
                for part in wrap_words(note, lambda t: text_width(t, font_size) / 72 <= room, max_lines=20)
            ]
            for n in rows
        }
        self.people_x = self.notes_x + self.notes_width + (0.25 if plan.people else 0.0)
        self.width = max(
            self.people_x + len(plan.people) * PERSON_COLUMN + 0.15,
            (text_width("x" * 44, font_size + 2) / 72 if rows else 0.0) + 0.3,
        )
        self.header = max(text_width(names[p], font_size) for p in plan.people) / 72 + 0.15 if plan.people else 0.0
        self.y: dict[Any, float] = {}
        self.span: dict[Any, tuple[float, float]] = {}
        y = -self.header - 0.05
        for n in rows:
            lines = max(1 + len(self.listed[n]), len(self.note_lines[n]), 1)
            height = ROW + (lines - 1) * line
            self.span[n] = (y - height, y)
            self.y[n] = y - ROW / 2
            y -= height
        self.height = -y + 0.1

    def draw(self, ax: Any, fade_ended: bool) -> None:
        plan = self.plan
        for number, n in enumerate(plan.rows):  # bands every other row: a row reads across to its notes
            if number % 2 == 0:
                low, high = self.span[n]
                ax.axhspan(low, high, color="#F3F5F8", zorder=0, linewidth=0)
        self._connectors(ax, fade_ended)
        self._events(ax, fade_ended)
        self._nodes(ax)
        self._people(ax)
        for n in plan.rows:
            for number, text in enumerate(self.note_lines[n]):
                ax.text(
                    self.notes_x,
                    self.y[n] - number * self.line,
                    text,
                    fontsize=self.font,
                    va="center",
                    ha="left",
                    color="#444444",
                    gid=f"note:{n}",
                    zorder=3,
                )

    def _connectors(self, ax: Any, fade_ended: bool) -> None:
        half = self.marker / 2 / 72
        links = sorted(
            self.plan.connectors.values(), key=lambda c: (-(self.y[c.parent] - self.y[c.child]), str(c.child))
        )
        for link in links:  # the farthest first: a nearer child's style is drawn over the shared stem
            label, colour, style, width = EDGE_STYLES[link.style]
            if link.style == "shareholder":
                width = share_width(link.share, width)
            alpha = 0.4 if link.ended and fade_ended else 1.0
            xp, yp = self.mark_x[link.parent], self.y[link.parent]
            xc, yc = self.mark_x[link.child], self.y[link.child]
            ax.plot(
                [xp, xp, xc - half],
                [yp - half, yc, yc],
                color=colour,
                linestyle=style,
                linewidth=width,
                alpha=alpha,
                zorder=1,
                solid_joinstyle="miter",
                gid=f"link:{link.parent}>{link.child}",
            )
            if link.share is not None or link.style == "shareholder":
                said = percent(link.share) if link.share is not None else "?"
                ax.text(
                    (xp + xc - half) / 2 + 0.02,
                    yc + 1.5 / 72,
                    said,
                    fontsize=self.font,
                    ha="center",
                    va="bottom",
                    color=colour if link.style != "shareholder" else "#222222",
                    alpha=max(alpha, 0.7),
                    zorder=3,
                    gid=f"share:{link.parent}>{link.child}",
                )

    def _events(self, ax: Any, fade_ended: bool) -> None:
        from matplotlib.patches import FancyArrowPatch

        for event in self.plan.events:
            _, colour, style, width = EDGE_STYLES[event.relation]
            lane = self.lanes_x + 0.05 + self.lanes[event] * LANE
            ys, yt = self.y[event.source], self.y[event.target]
            xs, xt = self.name_end[event.source] + 0.05, self.name_end[event.target] + 0.05
            alpha = 0.5 if event.ended and fade_ended else 1.0
            gid = f"event:{event.relation}:{event.source}>{event.target}"
            ax.plot(
                [xs, lane, lane],
                [ys, ys, yt],
                color=colour,
                linestyle=style,
                linewidth=width,
                alpha=alpha,
                zorder=1.5,
                gid=gid,
            )
            ax.add_patch(
                FancyArrowPatch(
                    (lane, yt),
                    (xt, yt),
                    arrowstyle="-|>",
                    mutation_scale=10,
                    color=colour,
                    linewidth=width,
                    alpha=alpha,
                    zorder=1.5,
                    gid=gid + ":head",
                    shrinkA=0,
                    shrinkB=0,
                )
            )

    def _nodes(self, ax: Any) -> None:
        H, plan = self.H, self.plan
        if self.seed in self.y:
            ax.scatter(
                [self.mark_x[self.seed]],
                [self.y[self.seed]],
                s=(self.marker * 2.4) ** 2,
                marker="o",
                color=SEED_COLOUR,
                alpha=0.55,
                zorder=1.8,
                linewidths=0,
                gid="seed",
            )
        for key, (_, colour, marker) in NODE_STYLES.items():
            members = [n for n in plan.rows if node_style(H.nodes[n]) == key]
            if members:
                ax.scatter(
                    [self.mark_x[n] for n in members],
                    [self.y[n] for n in members],
                    s=self.marker**2,
                    marker=marker,
                    color=colour,
                    edgecolors="#2F3E5C",
                    linewidths=0.8,
                    zorder=2,
                    gid=f"nodes:{key[0]}:{key[1]}",
                )
        if not self.labels:
            return
        for n in plan.rows:
            x = self.mark_x[n] + NAME_GAP
            ax.text(
                x,
                self.y[n],
                self.names[n],
                fontsize=self.font,
                va="center",
                ha="left",
                zorder=3,
                fontweight="bold" if n == self.seed else "normal",
                gid=f"label:{n}",
            )
            for number, text in enumerate(self.listed[n]):
                ax.text(
                    x,
                    self.y[n] - (number + 1) * self.line,
                    text,
                    fontsize=self.font,
                    va="center",
                    ha="left",
                    color=ROLE_COLOUR,
                    zorder=3,
                    gid=f"people:{n}",
                )

    def _people(self, ax: Any) -> None:
        plan = self.plan
        if not plan.people:
            return
        low = min(low for low, _ in self.span.values())
        for number, person in enumerate(plan.people):
            x = self.people_x + (number + 0.5) * PERSON_COLUMN
            ax.plot(
                [x, x],
                [low, -self.header],
                color="#55A868",
                linewidth=0.5,
                alpha=0.5,
                zorder=0.5,
                gid=f"column:{person}",
            )
            ax.text(
                x,
                -self.header + 0.05,
                self.names[person],
                rotation=90,
                fontsize=self.font,
                ha="center",
                va="bottom",
                color=ROLE_COLOUR,
                zorder=3,
                gid=f"person:{person}",
            )
            for company in plan.rows:
                roles = plan.roles.get((person, company))
                if not roles:
                    continue
                offsets = [(i - (len(roles) - 1) / 2) * 0.085 for i in range(len(roles))]
                for role, offset in zip(roles, offsets):
                    marker = ROLE_MARKERS.get(role, ROLE_MARKERS["OTHER"])[1]
                    ax.scatter(
                        [x + offset],
                        [self.y[company]],
                        s=30,
                        marker=marker,
                        color=ROLE_COLOUR,
                        edgecolors="white",
                        linewidths=0.4,
                        zorder=2.5,
                        gid=f"role:{person}>{company}:{role}",
                    )


def _pack(entries: list[str], lead: str, fits: Any) -> list[str]:
    """``entries`` joined by commas into lines that ``fits``, the first led by ``lead``; an entry is never split
    (one too long for a line is a line of its own)."""
    lines: list[str] = []
    current = lead
    for number, entry in enumerate(entries):
        piece = entry + ("," if number < len(entries) - 1 else "")
        trial = f"{current} {piece}" if current.strip() else current + piece
        if current.strip() and current != lead and not fits(trial):
            lines.append(current)
            current = piece
        else:
            current = trial if current != lead else lead + piece
    if entries:
        lines.append(current)
    return lines


def _roles(codes: list[str]) -> str:
    from .group_outline import role_note

    return role_note(codes)


def _lanes(plan: Outline, rows: list[Any]) -> dict[Any, int]:
    """Event → its lane: events whose row spans overlap get different lanes (the first free one)."""
    index = {n: i for i, n in enumerate(rows)}
    taken: list[list[tuple[int, int]]] = []
    lanes = {}
    for event in sorted(plan.events, key=lambda e: (abs(index[e.source] - index[e.target]), index[e.source])):
        low, high = sorted((index[event.source], index[event.target]))
        for lane, spans in enumerate(taken):
            if all(high < a or low > b for a, b in spans):
                spans.append((low, high))
                lanes[event] = lane
                break
        else:
            taken.append([(low, high)])
            lanes[event] = len(taken) - 1
    return lanes


def _source_line_count(source: Any, G: Any, width: float) -> int:
    import textwrap

    from .source_line import SOURCE_FONT_SIZE, source_text

    text = source_text(source, G)
    if not text:
        return 0
    chars = max(20, int(width * 72 * 0.97 / (0.56 * SOURCE_FONT_SIZE)))
    return len(textwrap.wrap(text, chars, break_long_words=False, break_on_hyphens=False))


def _legend_columns(handles: list[Any], width: float, font_size: float) -> int:
    widest = max((text_width(h.get_label(), font_size) / 72 for h in handles), default=1.0) + 0.55
    return max(1, min(len(handles), int((width - 0.3) // widest)))


def _legend_height(handles: list[Any], width: float, font_size: float) -> float:
    if not handles:
        return 0.0
    rows = -(-len(handles) // _legend_columns(handles, width, font_size))
    return rows * font_size * 1.75 / 72 + 0.15


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


def _legend_handles(H: nx.MultiDiGraph, plan: Outline, seed: str | None) -> list[Any]:
    from matplotlib.lines import Line2D

    kinds = {node_style(H.nodes[n]) for n in plan.rows}
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
    if seed in plan.depth:
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
    styles = {c.style for c in plan.connectors.values()}
    for key in ("profit_transfer", "shareholder", "general_partner"):
        if key in styles:
            label, colour, line, width = EDGE_STYLES[key]
            handles.append(Line2D([], [], color=colour, linestyle=line, linewidth=width, label=label))
    if any(c.share is not None for c in plan.connectors.values()):
        handles.append(
            Line2D(
                [],
                [],
                color="#333333",
                linewidth=share_width(1.0, 1.0),
                label="the share held, on each line (heavier: larger)",
            )
        )
    if any(c.share is None and c.style == "shareholder" for c in plan.connectors.values()):
        handles.append(
            Line2D(
                [],
                [],
                color="none",
                marker="$?$",
                markersize=7,
                markeredgecolor="#222222",
                label="share not stated in the register's record",
            )
        )
    for key in ("merger", "spin_off"):
        if any(e.relation == key for e in plan.events):
            label, colour, line, width = EDGE_STYLES[key]
            handles.append(
                Line2D([], [], color=colour, linestyle=line, linewidth=width, marker=">", markersize=6, label=label)
            )
    shown = {role for (person, _), roles in plan.roles.items() if person in plan.people for role in roles}
    for role in [r for r in ROLE_MARKERS if r in shown]:
        label, marker = ROLE_MARKERS.get(role, ROLE_MARKERS["OTHER"])
        handles.append(
            Line2D(
                [],
                [],
                marker=marker,
                linestyle="none",
                markerfacecolor=ROLE_COLOUR,
                markeredgecolor="white",
                markersize=6,
                label=f"person: {label}",
            )
        )
    return handles


class _CallableModule(types.ModuleType):
    """Lets ``regkit.plot.group(G)`` work even when the name is bound to this module (see docstring)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return group(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
