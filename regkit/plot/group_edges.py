"""Connectors of a group drawing: one line down to each company from its parent, the other links thinned.

Each company gets one connector, from the parent directly above it (:func:`tree_edges`): orthogonal, like an
organisation chart — down from the parent to a track of its own in the gap above the children's layer,
along it, and down to each child, the last stretch drawn in the relation's style (profit transfer, shareholding,
merger, spin-off). The several edges a pair may have (a shareholder entry, a holding, a profit-transfer
agreement) are one connector, showing the strongest relation (:data:`~regkit.plot.group_styles.TREE_ORDER`).
Every other link between the drawn companies (a second parent, a minority holding, a general partner beside the
parent) is a thin straight line in its relation's style; a person's roles are thin lines to the band of people at the bottom.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, NamedTuple

import networkx as nx

from regkit.graph.layout import control_layers, layout_parents
from regkit.graph.schema import MERGER, NATURAL_PERSON, OWNERSHIP, SPIN_OFF
from regkit.schema.labels import GROUP_LINK_LABELS, GROUP_ROLE_LABELS

from .group_canvas import CHANNEL, Canvas, text_width
from .group_styles import EDGE_STYLES, TREE_ORDER, downward, edge_style

__all__ = ["Link", "tree_edges", "draw_links", "PERSON_LINK", "percent", "role_note", "share_width"]

PERSON_LINK = ("role of a person", "#55A868", 0.5)
"""Legend label, colour and width of the lines from people to companies."""


class Link(NamedTuple):
    """One pair of drawn nodes, pointed down: its strongest relation and whether it has ended.

    ``share`` is the fraction the upper node holds of the lower one (its ownership edges; ``None`` when no
    holding with a share is known); ``note`` the text drawn on the line: a person's roles, or the kind and
    year of a merger or spin-off drawn beside the connector of the same pair.
    """

    upper: Any
    lower: Any
    style: str
    ended: bool
    share: float | None = None
    note: str | None = None
    event: str | None = None  # a merger or spin-off of a connector's pair that the connector's style does not show


class _Pair(NamedTuple):
    styles: dict[str, bool]  # style → every edge of that style ended
    share: float | None
    roles: list[str]
    events: dict[str, Any]  # merger / spin_off → earliest start


def _pairs(H: nx.MultiDiGraph) -> dict[tuple[Any, Any], _Pair]:
    """(upper, lower) → its styles, the share held, a person's roles and the mergers and spin-offs."""
    styles: dict[tuple[Any, Any], dict[str, bool]] = defaultdict(dict)
    shares: dict[tuple[Any, Any], list[tuple[bool, Any, float]]] = defaultdict(list)
    roles: dict[tuple[Any, Any], set[str]] = defaultdict(set)
    events: dict[tuple[Any, Any], dict[str, Any]] = defaultdict(dict)
    for u, v, attrs in H.edges(data=True):
        pair = downward(u, v, attrs)
        style = edge_style(H, u, attrs)
        ended = attrs.get("valid_to") is not None
        styles[pair][style] = styles[pair].get(style, True) and ended
        relation = attrs.get("relation")
        if relation == OWNERSHIP and attrs.get("share") is not None:
            shares[pair].append((not ended, str(attrs.get("valid_from") or ""), float(attrs["share"])))
        if H.nodes[u].get("kind") == NATURAL_PERSON:
            if relation == OWNERSHIP:
                roles[pair].add("SHAREHOLDER")
            elif attrs.get("role"):
                roles[pair].add(str(attrs["role"]))
        if relation in (MERGER, SPIN_OFF):
            start = attrs.get("valid_from")
            known = events[pair].get(relation)
            events[pair][relation] = start if known is None or (start is not None and start < known) else known
    return {
        pair: _Pair(
            found,
            max(shares[pair])[2] if shares[pair] else None,  # in force first, then the latest
            sorted(roles[pair], key=lambda r: (list(GROUP_ROLE_LABELS).index(r) if r in GROUP_ROLE_LABELS else 99, r)),
            events[pair],
        )
        for pair, found in styles.items()
    }


def _strongest(styles: dict[str, bool]) -> str:
    return min(styles, key=TREE_ORDER.index)


def role_note(roles: list[str], share: float | None) -> str:
    """The text on a person's line: English role labels (:data:`regkit.schema.labels.GROUP_ROLE_LABELS`),
    a shareholder's share.

    Examples
    --------
    >>> role_note(["DIRECTOR", "SHAREHOLDER"], 0.3333)
    'director, shareholder 33 %'
    """
    parts = [GROUP_ROLE_LABELS.get(role, role.replace("_", " ").lower()) for role in roles]
    return ", ".join(
        f"{part} {percent(share)}" if role == "SHAREHOLDER" and share else part for role, part in zip(roles, parts)
    )


def percent(share: float) -> str:
    """A share as the drawing prints it: whole percent, a space before the sign; below 1 % with a decimal.

    Examples
    --------
    >>> percent(0.94), percent(0.3333), percent(0.004)
    ('94 %', '33 %', '0.4 %')
    """
    value = share * 100
    return f"{value:.1f} %" if 0 < value < 1 else f"{value:.0f} %"


def _event_note(relation: str, start: Any, short: bool = False) -> str:
    label = relation.replace("_", "-") if short else GROUP_LINK_LABELS[relation]
    return f"{label} {start.year}" if start is not None else label


def tree_edges(H: nx.MultiDiGraph) -> tuple[list[Link], list[Link], list[Link]]:
    """The drawing's connectors, other company links and person links (see the module docstring).

    Returns
    -------
    tuple of three lists of Link
        One connector per node below the top with a parent in the layer right above it (that parent chosen
        by the strongest relation, then id); every other pair of companies or legal persons, and a merger or
        spin-off whose pair has a connector of another relation (so that it is drawn too, with its note);
        every pair with a natural person (its roles as the note).

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.MultiDiGraph()
    >>> H.add_edge("child", "parent", relation="profit_transfer")
    0
    >>> H.add_edge("parent", "child", relation="ownership", share=0.94, relation_type="shareholder")
    0
    >>> tree_edges(H)
    ([Link(upper='parent', lower='child', style='profit_transfer', ended=False, share=0.94, note=None, event=None)], [], [])
    """
    pairs = _pairs(H)
    layer = control_layers(H)
    people = {n for n, kind in H.nodes(data="kind") if kind == NATURAL_PERSON}
    tree: dict[Any, Link] = {}
    others: list[Link] = []
    for child, parents in layout_parents(H).items():
        candidates = [p for p in parents - people if layer[p] == layer[child] - 1 and (p, child) in pairs]
        if child in people or not candidates:
            continue
        best = min(candidates, key=lambda p: (TREE_ORDER.index(_strongest(pairs[p, child].styles)), str(p)))
        found = pairs[best, child]
        style = _strongest(found.styles)
        hidden = sorted(relation for relation in found.events if relation != style)
        event = hidden[0] if hidden else None  # a merger or spin-off the connector does not show: drawn beside it
        note = _event_note(event, found.events[event], short=True) if event else None
        tree[child] = Link(best, child, style, found.styles[style], found.share, note, event)
    chosen = {(link.upper, link.lower) for link in tree.values()}
    persons: list[Link] = []
    for (upper, lower), found in sorted(pairs.items(), key=lambda item: (str(item[0][0]), str(item[0][1]))):
        if (upper, lower) in chosen or upper == lower:
            continue
        style = _strongest(found.styles)
        if {upper, lower} & people:
            note = role_note(found.roles, found.share)
            persons.append(Link(upper, lower, style, all(found.styles.values()), found.share, note or None))
        else:
            event = found.events.get(style)
            note = _event_note(style, event) if style in found.events else None
            others.append(Link(upper, lower, style, all(found.styles.values()), found.share, note))
    tree_links = sorted(tree.values(), key=lambda link: str(link.lower))
    return tree_links, sorted(others, key=lambda link: (str(link.upper), str(link.lower), link.style)), persons


def _band_of(y: float, canvas: Canvas) -> float:
    return min((b for b in canvas.bands if b >= y - 1e-6), default=y)


def share_width(share: float | None, default: float) -> float:
    """Line width (points) of a connector by the share held: 2.4 at 100 %, 1.7 at 80 %, 0.9 at 50 %.

    Examples
    --------
    >>> share_width(1.0, 1.1), share_width(0.5, 1.1), share_width(None, 1.1)
    (2.4, 0.9, 1.1)
    """
    return default if share is None else round(0.4 + 2.0 * share**2, 3)


def draw_links(
    ax: Any,
    canvas: Canvas,
    links: tuple[list[Link], list[Link], list[Link]],
    fade_ended: bool,
    font_size: float = 9.0,
) -> dict[Any, Counter[str]]:
    """Draw the connectors (orthogonal, weighted by share, the share below 100 % printed on them), the other
    links (straight, their note — a merger's or spin-off's kind and year — on them) and the person links
    (straight, thin, the roles on them) on ``ax``.

    Returns
    -------
    dict
        Person → the roles (notes) of their lines that found no free spot on the line, counted: the caller
        says them under the person's name instead (no text is drawn over another).
    """
    tree, others, persons = links
    pos = canvas.pos
    taken = _label_boxes(canvas)
    if persons:  # the caption above the row of people (regkit.plot.group draws it there)
        top = max(pos[link.upper][1] for link in persons) + canvas.marker + CHANNEL * canvas.row * 0.5
        taken.append(
            (canvas.xlim[0], top, canvas.xlim[0] + 0.2 + 48 * font_size * 0.55 / 72, top + 0.06 + font_size * 1.4 / 72)
        )
    unplaced: dict[Any, Counter[str]] = defaultdict(Counter)
    for link in sorted(persons, key=lambda link: (str(link.upper), pos[link.lower][0])):
        _, colour, width = PERSON_LINK
        (xa, ya), (xb, yb) = pos[link.upper], pos[link.lower]
        ax.plot([xa, xb], [ya, yb], color=colour, linewidth=width * 1.6, alpha=0.8, zorder=0.5, gid="person-line")
        if link.note:
            at, free = _free_spot((xa, ya), (xb, yb), link.note, font_size, taken, canvas)
            if free:
                _note(ax, (xa, ya), (xb, yb), link.note, colour, font_size, f"role:{link.upper}>{link.lower}", at)
            else:
                unplaced[link.upper][link.note] += 1
    for link in others:  # thin and straight, in the style of the relation
        _, colour, line, width = EDGE_STYLES[link.style]
        event = link.style in ("merger", "spin_off")
        xs, ys = _curve(pos[link.upper], pos[link.lower], canvas.row)
        ax.plot(
            xs,
            ys,
            color=colour,
            linestyle=line,
            linewidth=width if event else share_width(link.share, min(width, 1.2) * 0.6) * 0.6,
            alpha=0.3 if fade_ended and link.ended else (0.95 if event else 0.6),
            zorder=1.1 if event else 0.6,
            gid=f"{link.style}:{link.upper}>{link.lower}",
        )
        note = link.note or (percent(link.share) if link.share is not None and percent(link.share) != "100 %" else None)
        if note:
            a, b = (xs[0], ys[0]), (xs[-1], ys[-1])
            turn = link.note is not None  # a share reads upright; a longer note runs along its line
            if len(xs) == 2:
                at, _ = _free_spot(a, b, note, font_size, taken, canvas, turn)  # a rare link: drawn even if crowded
                _note(ax, a, b, note, colour, font_size, f"note:{link.upper}>{link.lower}", at, turn=turn)
            else:  # an arc: at its top
                middle = (xs[len(xs) // 2], ys[len(ys) // 2])
                _note(ax, a, b, note, colour, font_size, f"note:{link.upper}>{link.lower}", 0.5, middle, turn=False)
    by_band: dict[float, dict[Any, list[Link]]] = defaultdict(lambda: defaultdict(list))
    for link in tree:
        by_band[_band_of(pos[link.lower][1], canvas)][link.upper].append(link)
    for band, parents in by_band.items():
        order = sorted(parents, key=lambda p: (pos[p][0], str(p)))
        wrapped = any(pos[n][1] < band - 1e-6 for n in pos if _band_of(pos[n][1], canvas) == band)
        spines = _spines(canvas, order, parents) if wrapped else {}
        for index, parent in enumerate(order):
            track = band + canvas.marker + (index + 1) / (len(order) + 1) * CHANNEL * canvas.row
            _draw_family(ax, canvas, parent, parents[parent], track, fade_ended, spines, font_size)
    return dict(unplaced)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches


def _label_boxes(canvas: Canvas) -> list[Box]:
    """Where the node labels and markers are (inches; as :func:`regkit.plot.group` sets them, a little larger)."""

    boxes = []
    for node, lines in canvas.lines.items():
        x, y = canvas.pos[node]
        size = canvas.fonts[node]
        half = max(text_width(line, size) for line in lines) / 144 + 0.03
        height = len(lines) * size * 1.1 * 1.2 / 72 + 0.05
        top = y - canvas.marker - 2 / 72
        boxes.append((x - half, top - height, x + half, top))
    for x, y in canvas.pos.values():
        boxes.append((x - canvas.marker, y - canvas.marker, x + canvas.marker, y + canvas.marker))
    return boxes


def _note_box(
    a: tuple[float, float], b: tuple[float, float], at: float, text: str, size: float, turn: bool = True
) -> Box:
    """The upright box around a note turned along the line from ``a`` to ``b`` at the fraction ``at``."""
    import math

    x, y = a[0] + (b[0] - a[0]) * at, a[1] + (b[1] - a[1]) * at
    length, thick = text_width(text, size) / 72 + 0.06, size * 1.3 / 72
    angle = math.atan2(b[1] - a[1], b[0] - a[0]) if turn else 0.0
    w = abs(math.cos(angle)) * length + abs(math.sin(angle)) * thick
    h = abs(math.sin(angle)) * length + abs(math.cos(angle)) * thick
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _free_spot(
    a: tuple[float, float],
    b: tuple[float, float],
    text: str,
    size: float,
    taken: list[Box],
    canvas: Canvas,
    turn: bool = True,
) -> tuple[float, bool]:
    """The fraction of the line from ``a`` to ``b`` where its note hits no label, marker or other note (the
    least crowded one if every spot is taken), and whether it is free; a free box is added to ``taken``."""

    def hits(box: Box) -> float:
        inside = canvas.xlim[0] <= box[0] and box[2] <= canvas.xlim[1]
        return sum(
            max(0.0, min(box[2], o[2]) - max(box[0], o[0])) * max(0.0, min(box[3], o[3]) - max(box[1], o[1]))
            for o in taken
        ) + (0.0 if inside else 1.0)

    spots = [round(0.95 - step * 0.025, 3) for step in range(37)]  # from the company end: there lines part
    best = min(
        spots,
        key=lambda t: (
            hits(_note_box(a, b, t, text, size, turn)) > 0,
            hits(_note_box(a, b, t, text, size, turn)),
            spots.index(t),
        ),
    )
    free = hits(_note_box(a, b, best, text, size, turn)) == 0
    if free:
        taken.append(_note_box(a, b, best, text, size, turn))
    return best, free


def _note(
    ax: Any,
    a: tuple[float, float],
    b: tuple[float, float],
    text: str,
    colour: str,
    size: float,
    gid: str,
    at: float,
    point: tuple[float, float] | None = None,
    turn: bool = True,
) -> None:
    """``text`` on the line from ``a`` to ``b`` (at the fraction ``at`` of it), turned along it, on white."""
    import math

    x = point[0] if point else a[0] + (b[0] - a[0]) * at
    y = point[1] if point else a[1] + (b[1] - a[1]) * at
    angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    angle = angle - 180 if angle > 90 else angle + 180 if angle < -90 else angle
    ax.text(
        x,
        y,
        text,
        fontsize=size,
        color=_darker(colour),
        rotation=angle if turn else 0.0,
        rotation_mode="anchor",
        ha="center",
        va="center",
        zorder=3.2,
        gid=gid,
        bbox={"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.9},
    )


def _darker(colour: str) -> str:
    """A darker shade of a hex colour, for text on white (a pale line colour is not readable as text)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(c * 0.62) for c in (r, g, b)))


def _curve(a: tuple[float, float], b: tuple[float, float], row: float) -> tuple[list[float], list[float]]:
    """A straight line, or between two nodes of one row an arc above it (not through the nodes between)."""
    if abs(a[1] - b[1]) > 1e-6:
        return [a[0], b[0]], [a[1], b[1]]
    steps = [i / 16 for i in range(17)]
    lift = min(0.5 * row, 0.12 * abs(b[0] - a[0]) + 0.15)
    return [a[0] + (b[0] - a[0]) * t for t in steps], [a[1] + 4 * lift * t * (1 - t) for t in steps]


def _spines(canvas: Canvas, order: list[Any], parents: dict[Any, list[Link]]) -> dict[tuple[Any, Any], float]:
    """(parent, child) → x of the spine that runs down the left of the child's column in a wrapped band."""
    columns: dict[float, list[Any]] = defaultdict(list)
    for parent in order:
        for x in sorted({canvas.pos[link.lower][0] for link in parents[parent]}):
            columns[x].append(parent)
    spines = {}
    for parent in order:
        for link in parents[parent]:
            x = canvas.pos[link.lower][0]
            share = columns[x]
            offset = (share.index(parent) - (len(share) - 1) / 2) * 0.045
            spines[parent, link.lower] = x - canvas.column / 2 + offset
    return spines


def _draw_family(
    ax: Any,
    canvas: Canvas,
    parent: Any,
    children: list[Link],
    track: float,
    fade: bool,
    spines: dict[tuple[Any, Any], float],
    font_size: float = 9.0,
) -> None:
    """Trunk down from ``parent``, bus along ``track``, then to each child a styled line with an arrow head:
    straight down, or — in a band wrapped into rows — down a spine left of the child's column and across."""
    xp, yp = canvas.pos[parent]
    drops = {link.lower: spines.get((parent, link.lower), canvas.pos[link.lower][0]) for link in children}
    styles = {link.style for link in children}
    colour = EDGE_STYLES[next(iter(styles))][1] if len(styles) == 1 else "#555555"
    alpha = 0.35 if fade and all(link.ended for link in children) else 0.9
    xs = [*drops.values(), xp]
    segments = [[(xp, yp), (xp, track)], [(min(xs), track), (max(xs), track)]]
    for x in set(drops.values()) - {canvas.pos[n][0] for n in drops}:  # spines, down to their lowest child
        segments.append([(x, track), (x, min(canvas.pos[n][1] for n, sx in drops.items() if sx == x))])
    for segment in segments:
        ax.plot(*zip(*segment), color=colour, linewidth=1.1, alpha=alpha, zorder=1, solid_capstyle="projecting")
    for link in children:
        xc, yc = canvas.pos[link.lower]
        x = drops[link.lower]
        start, end = ((x, track), (xc, yc + canvas.marker)) if x == xc else ((x, yc), (xc - canvas.marker, yc))
        _arrow(ax, start, end, link, 0.35 if fade and link.ended else 0.95)
        if link.event is not None:
            _, colour, line, width = EDGE_STYLES[link.event]
            dx, dy = (0.045, 0.0) if x == xc else (0.0, -0.045)
            ax.plot(
                [start[0] + dx, end[0] + dx],
                [start[1] + dy, end[1] + dy],
                color=colour,
                linestyle=line,
                linewidth=width,
                zorder=1.25,
                gid=f"{link.event}:{link.upper}>{link.lower}",
            )
        texts = [percent(link.share)] if link.share is not None and percent(link.share) != "100 %" else []
        if texts or link.note:
            _share_label(ax, start, end, link, ", ".join([*texts, *([link.note] if link.note else [])]), font_size)


def _share_label(
    ax: Any, start: tuple[float, float], end: tuple[float, float], link: Link, text: str, size: float
) -> None:
    """The share (and a merger or spin-off) on the last stretch of a connector: right of a line going down,
    above one going across, from its start."""
    down = start[0] == end[0]
    x = start[0] + 0.08 if down else start[0] + 0.06
    y = (start[1] + end[1]) / 2 if down else start[1] + 0.03
    ax.text(
        x,
        y,
        text,
        fontsize=size,
        ha="left",
        va="center" if down else "bottom",
        color="#1A1A1A" if link.event is None else _darker(EDGE_STYLES[link.event][1]),
        fontweight="bold",
        zorder=1.9,  # under the markers, over the lines
        gid=f"share:{link.upper}>{link.lower}",
        bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
    )


def _arrow(ax: Any, start: tuple[float, float], end: tuple[float, float], link: Link, alpha: float) -> None:
    from matplotlib.patches import FancyArrowPatch

    _, colour, line, width = EDGE_STYLES[link.style]
    ax.add_patch(
        FancyArrowPatch(
            start,
            end,
            arrowstyle="-|>",
            mutation_scale=7,
            color=colour,
            linewidth=share_width(link.share, width),
            linestyle=line,
            shrinkA=0,
            shrinkB=0,
            alpha=alpha,
            zorder=1.2,
        )
    )
