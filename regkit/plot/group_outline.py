"""What a group drawing shows, planned without matplotlib: the control tree as an outline, the events beside it.

A group is drawn as an outline — one row per company, each under the parent that controls it and indented one
step deeper (:func:`plan_outline`), as a file tree or North Data's group page lists it. One row per company means no
name can be printed over another however wide or deep the group is: Waldstein's 21 direct subsidiaries are 21
rows one step in, not a comb that reads four levels deep.

* **Connectors** (:class:`Connector`): from each parent down its own column and across to the child, in the
  style of the pair's strongest control relation (profit-transfer agreement, shareholding, general partner),
  the share held always printed on it — "100 %" included. A pair of a holding and a profit-transfer agreement
  is one connector: the agreement's style, the holding's share.
* **Events** (:class:`Event`): mergers and spin-offs are not control. Each is an arrow between the two rows in a
  lane right of the names, pointing as the legend says (a merger into the acquirer, a spin-off to the recipient),
  and a note on the affected row says what happened and when: "merged into Luxlog Holding AG (2020)",
  "spin-off from Luxlog Holding AG (2003)".
* **Other holdings** between drawn companies that the tree does not show (a second parent, a minority stake) are
  notes on the held row: "also 25 % held by …".
* **People** (``persons=True``): a column per person linked to two or more drawn companies, a marker per role in
  the row of each company; with ``all_persons`` the people of a single company are listed under its name.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

import networkx as nx

from regkit.graph.schema import MERGER, NATURAL_PERSON, OWNERSHIP, SPIN_OFF
from regkit.schema.labels import GROUP_ROLE_LABELS

from .group_styles import downward, edge_style

__all__ = [
    "CONTROL_STYLES",
    "Connector",
    "Event",
    "Outline",
    "plan_outline",
    "percent",
    "role_note",
    "share_width",
]

#: The relations that place a company under another, strongest first (which one a connector shows).
CONTROL_STYLES = ("profit_transfer", "shareholder", "general_partner")


class Connector(NamedTuple):
    """The line from a parent down to a company: its style, the share held (``None``: none known), ended."""

    parent: Any
    child: Any
    style: str
    share: float | None
    ended: bool


class Event(NamedTuple):
    """A merger (``source`` absorbed into ``target``) or spin-off (``source`` transfers to ``target``)."""

    source: Any
    target: Any
    relation: str
    year: int | None
    ended: bool


class Outline(NamedTuple):
    """The plan of a group drawing (see the module docstring).

    ``rows`` are the drawn companies (and legal persons) top to bottom, ``depth`` their indent, ``connectors``
    each row's line from its parent (rows without one start a tree of their own), ``events`` the mergers and
    spin-offs between rows, ``notes`` the text right of each row (its events and other holdings), ``people``
    the persons with a column each, ``roles`` (person, row) → role codes, ``listed`` row → the people of only
    that row and their role codes (with ``all_persons``).
    """

    rows: list[Any]
    depth: dict[Any, int]
    connectors: dict[Any, Connector]
    events: list[Event]
    notes: dict[Any, list[str]]
    people: list[Any]
    roles: dict[tuple[Any, Any], list[str]]
    listed: dict[Any, list[tuple[Any, list[str]]]]


def percent(share: float) -> str:
    """A share as the drawing prints it: whole percent, a space before the sign; below 1 % with a decimal; a
    share that rounds to 100 % without being whole is "> 99 %".

    Examples
    --------
    >>> percent(1.0), percent(0.94), percent(0.3333), percent(0.004), percent(0.997)
    ('100 %', '94 %', '33 %', '0.4 %', '> 99 %')
    """
    value = share * 100
    if 99.5 <= value < 100 - 1e-9:
        return "> 99 %"
    return f"{value:.1f} %" if 0 < value < 1 else f"{value:.0f} %"


def role_note(roles: list[str], share: float | None = None) -> str:
    """Role codes as English labels (:data:`regkit.schema.labels.GROUP_ROLE_LABELS`), a shareholder's share.

    Examples
    --------
    >>> role_note(["DIRECTOR", "SHAREHOLDER"], 0.3333)
    'director, shareholder 33 %'
    """
    parts = [GROUP_ROLE_LABELS.get(role, role.replace("_", " ").lower()) for role in roles]
    return ", ".join(
        f"{part} {percent(share)}" if role == "SHAREHOLDER" and share else part for role, part in zip(roles, parts)
    )


def share_width(share: float | None, default: float) -> float:
    """Line width (points) of a connector by the share held: 2.4 at 100 %, 1.7 at 80 %, 0.9 at 50 %.

    Examples
    --------
    >>> share_width(1.0, 1.1), share_width(0.5, 1.1), share_width(None, 1.1)
    (2.4, 0.9, 1.1)
    """
    return default if share is None else round(0.4 + 2.0 * share**2, 3)


class _Pair:
    """What the edges between one upper and one lower node say."""

    def __init__(self) -> None:
        self.styles: dict[str, bool] = {}  # style → every edge of that style ended
        self.shares: list[tuple[bool, str, float]] = []  # (in force, since, share)
        self.roles: set[str] = set()
        self.events: dict[str, tuple[Any, bool]] = {}  # merger / spin_off → (earliest start, ended)

    @property
    def share(self) -> float | None:
        return max(self.shares)[2] if self.shares else None  # in force first, then the latest


def _pairs(H: nx.MultiDiGraph) -> dict[tuple[Any, Any], _Pair]:
    found: dict[tuple[Any, Any], _Pair] = defaultdict(_Pair)
    for u, v, attrs in H.edges(data=True):
        pair = found[downward(u, v, attrs)]
        style = edge_style(H, u, attrs)
        ended = attrs.get("valid_to") is not None
        pair.styles[style] = pair.styles.get(style, True) and ended
        relation = attrs.get("relation")
        if relation == OWNERSHIP and attrs.get("share") is not None:
            pair.shares.append((not ended, str(attrs.get("valid_from") or ""), float(attrs["share"])))
        if H.nodes[u].get("kind") == NATURAL_PERSON:
            pair.roles.add("SHAREHOLDER" if relation == OWNERSHIP else str(attrs.get("role") or "OTHER"))
        if relation in (MERGER, SPIN_OFF):
            start = attrs.get("valid_from")
            known = pair.events.get(relation)
            if known is None or (start is not None and (known[0] is None or start < known[0])):
                pair.events[relation] = (start, ended)
    return found


def _other_control(style: str, holder: str, pair: _Pair, ended: bool) -> str:
    """The note on a row for a control link the tree does not draw: "also 25 % held by Alpha AG"."""
    if style == "profit_transfer":
        said = f"also bound by a profit-transfer agreement to {holder}"
    elif style == "general_partner":
        said = f"general partner: {holder}"
    else:
        share = f"{percent(pair.share)} " if pair.share is not None else ""
        said = f"also {share}held by {holder}"
    return said + (" (ended)" if ended else "")


def _role_order(roles: set[str]) -> list[str]:
    order = list(GROUP_ROLE_LABELS)
    return sorted(roles, key=lambda r: (order.index(r) if r in order else len(order), r))


def plan_outline(H: nx.MultiDiGraph, labels: dict[Any, str], top: Any = None, all_persons: bool = False) -> Outline:
    """The outline of the drawn group ``H`` (see the module docstring).

    Parameters
    ----------
    H : networkx.MultiDiGraph
        The drawn group (:func:`regkit.plot.group.drawn_group`).
    labels : dict
        Node → its label (the notes name companies by it; siblings are ordered by it).
    top : node, optional
        The group's ultimate parent: its tree comes first.
    all_persons : bool
        People of a single company are listed under its name instead of a column each.

    Examples
    --------
    >>> H = nx.MultiDiGraph()
    >>> H.add_node("P", kind="company", name="Parent AG")
    >>> H.add_node("C", kind="company", name="Child GmbH")
    >>> H.add_node("B", kind="company", name="Bought GmbH")
    >>> _ = H.add_edge("P", "C", relation="ownership", share=1.0, relation_type="shareholder")
    >>> _ = H.add_edge("B", "P", relation="merger")
    >>> plan = plan_outline(H, {"P": "Parent AG", "C": "Child GmbH", "B": "Bought GmbH"}, top="P")
    >>> plan.rows, plan.depth["C"], plan.connectors["C"].share, plan.notes["B"]
    (['P', 'C', 'B'], 1, 1.0, ['merged into Parent AG'])
    """
    people = {n for n, kind in H.nodes(data="kind") if kind == NATURAL_PERSON}
    companies = [n for n in H if n not in people]
    pairs = _pairs(H)
    name = {n: labels.get(n, str(n)) for n in H}

    above: dict[Any, list[tuple[Any, _Pair]]] = defaultdict(list)  # lower → its pairs: one pass, not one per row
    for (upper, lower), pair in pairs.items():
        if upper not in people and upper != lower:
            above[lower].append((upper, pair))
    parent_of: dict[Any, Connector] = {}
    for child in companies:
        candidates = []
        for upper, pair in above[child]:
            control = [s for s in CONTROL_STYLES if s in pair.styles]
            if control:
                style = control[0]
                ended = all(pair.styles[s] for s in control)
                candidates.append((ended, CONTROL_STYLES.index(style), -(pair.share or 0.0), name[upper], upper, style))
        if candidates:
            ended, _, _, _, upper, style = min(candidates)
            parent_of[child] = Connector(upper, child, style, pairs[upper, child].share, ended)

    children: dict[Any, list[Any]] = defaultdict(list)
    for child, link in parent_of.items():
        children[link.parent].append(child)
    rows: list[Any] = []
    depth: dict[Any, int] = {}

    def visit(root: Any, level: int) -> None:  # depth first, siblings by name; a stack, so any depth goes
        stack = [(root, level)]
        while stack:
            node, at = stack.pop()
            if node in depth:
                continue
            depth[node] = at
            rows.append(node)
            below = sorted(children[node], key=lambda c: (name[c], str(c)), reverse=True)
            stack.extend((child, at + 1) for child in below if child not in depth)

    roots = sorted((n for n in companies if n not in parent_of), key=lambda n: (n != top, name[n], str(n)))
    for root in roots:
        visit(root, 0)
    for node in sorted(companies, key=lambda n: (n != top, name[n], str(n))):  # a control cycle: its first member
        if node not in depth:
            parent_of.pop(node, None)
            visit(node, 0)
    connectors = {  # in row order: the same drawing whatever order the graph holds its nodes in
        child: parent_of[child]
        for child in rows
        if child in parent_of and depth[child] == depth[parent_of[child].parent] + 1
    }

    notes: dict[Any, list[str]] = defaultdict(list)
    events: list[Event] = []
    for (upper, lower), pair in sorted(pairs.items(), key=lambda item: (str(item[0][0]), str(item[0][1]))):
        if upper in people or lower in people or upper == lower:
            continue
        for relation, (start, ended) in sorted(pair.events.items()):
            year = start.year if start is not None else None
            when = f" ({year})" if year is not None else ""
            if relation == MERGER:  # drawn (acquirer, absorbed)
                events.append(Event(lower, upper, MERGER, year, ended))
                notes[lower].append(f"merged into {name[upper]}{when}")
            else:
                events.append(Event(upper, lower, SPIN_OFF, year, ended))
                notes[lower].append(f"spin-off from {name[upper]}{when}")
        control = [s for s in CONTROL_STYLES if s in pair.styles]
        drawn = connectors.get(lower)
        if control and (drawn is None or drawn.parent != upper):
            notes[lower].append(_other_control(control[0], name[upper], pair, all(pair.styles[s] for s in control)))

    roles: dict[tuple[Any, Any], list[str]] = {}
    linked: dict[Any, set[Any]] = defaultdict(set)
    for (upper, lower), pair in pairs.items():
        person, company = (upper, lower) if upper in people else (lower, upper)
        if person in people and company not in people and pair.roles:
            roles[person, company] = _role_order(pair.roles)
            linked[person].add(company)
    columns = [p for p in people if len(linked[p]) >= 2 or not all_persons]
    columns.sort(key=lambda p: (-len(linked[p]), name[p], str(p)))
    listed: dict[Any, list[tuple[Any, list[str]]]] = defaultdict(list)
    for person in sorted(set(people) - set(columns), key=lambda p: (name[p], str(p))):
        for company in sorted(linked[person], key=str):
            listed[company].append((person, roles[person, company]))
    return Outline(
        rows,
        depth,
        connectors,
        sorted(events, key=lambda e: (str(e.source), str(e.target))),
        dict(notes),
        [p for p in columns if linked[p]],
        roles,
        dict(listed),
    )
