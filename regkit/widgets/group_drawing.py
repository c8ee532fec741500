"""What the :class:`~regkit.widgets.GroupExplorer` draws: the nodes of the seed's group on a date, the line
that says what is drawn, and the drawing (:func:`regkit.plot.group`) as HTML."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from regkit.graph import as_of, ultimate_parent
from regkit.graph.schema import COMPANY, NATURAL_PERSON
from regkit.schema.formatting import count_text, plural

from .render import figure_html, message_html

__all__ = ["drawing_html", "drawn_companies", "drawn_nodes", "drawn_text", "interactive_view"]


def drawn_nodes(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> set[str]:
    """The nodes the drawing shows: a company seed's group (:func:`regkit.plot.group.drawn_group`: with
    ``persons`` the people linked to two or more of its companies); for a person seed the person and every
    company crawled (with ``persons`` every person crawled). Natural persons only with ``persons``."""
    from regkit.plot.group import drawn_group

    if G.nodes[seed].get("kind") == NATURAL_PERSON:
        nodes = {n for n, kind in G.nodes(data="kind") if kind != NATURAL_PERSON} | {seed}
        if persons:
            nodes |= {n for n, kind in G.nodes(data="kind") if kind == NATURAL_PERSON}
        return nodes
    return set(drawn_group(G, seed, day, persons))


def _shown(G: Any, seed: str, day: _dt.date | None, persons: bool) -> Any:
    H = G.subgraph(drawn_nodes(G, seed, day, persons))
    return H if day is None else as_of(H, day)


def drawn_text(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> str:
    """What the drawing shows, counted: which companies (and people) on which day.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_nodes_from([("a", {"kind": "company", "name": "A AG"}), ("b", {"kind": "company"})])
    >>> G.add_edge("a", "b", relation="ownership", share=1.0, valid_from=None, valid_to=None)
    0
    >>> drawn_text(G, "b", _dt.date(2024, 1, 1))
    'Drawn: the 2 companies of the group of A AG (a) on 2024-01-01; people hidden (tick "draw people").'
    """
    shown = _shown(G, seed, day, persons)
    companies = sum(1 for _, kind in shown.nodes(data="kind") if kind == COMPANY)
    people = sum(1 for _, kind in shown.nodes(data="kind") if kind == NATURAL_PERSON)
    when = "over time (links that ended are faded)" if day is None else f"on {day.isoformat()}"
    if G.nodes[seed].get("kind") == NATURAL_PERSON:
        others = plural(companies, "company", "companies")
        return f"Drawn: {G.nodes[seed].get('name') or seed} and the {others} crawled from them, {when}."
    top = ultimate_parent(G, seed, day)
    counted = "the only company" if companies == 1 else f"the {count_text(companies)} companies"
    text = f"Drawn: {counted} of the group of {G.nodes[top].get('name') or top} ({top}) {when}"
    if persons:
        return f"{text}, and {plural(people, 'person', 'persons')} linked to two or more of them."
    return f'{text}; people hidden (tick "draw people").'


def drawing_html(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> tuple[str, int]:
    """The drawing of the seed's group on ``day`` (``None``: its whole history, ended links faded), sized by
    :func:`regkit.plot.group`, and the number of companies drawn."""
    import matplotlib.pyplot as plt

    from regkit.plot.group import group

    if seed not in G or not G.nodes[seed].get("fetched", True):
        return message_html(f"{seed} is not in the crawled graph (its lookup failed).", "error"), 0
    companies = drawn_companies(G, seed, day, persons)
    if G.nodes[seed].get("kind") == NATURAL_PERSON:
        title = f"{G.nodes[seed].get('name') or seed} and the companies crawled from them"
        title += f" on {day.isoformat()}" if day is not None else ""
        around = G.subgraph(drawn_nodes(G, seed, day, True))
        ax = group(around, None, date=day, persons=True, all_persons=True, title=title)  # the seed person too
    else:
        ax = group(G, None, company_id=seed, date=day, persons=persons)
    try:
        return figure_html(ax.figure), companies
    finally:
        plt.close(ax.figure)  # drawn by pyplot to get the drawing's own size; never shown


def interactive_view(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> Any:
    """The seed's group on ``day`` as :func:`regkit.plot.group_interactive` shows it (its legend and ``ipysigma.Sigma``): the
    same companies as :func:`drawing_html` draws (a person seed: the companies crawled from them, with people)."""
    from regkit.plot.interactive import group_interactive

    if G.nodes[seed].get("kind") == NATURAL_PERSON:
        around = G.subgraph(drawn_nodes(G, seed, day, True))
        return group_interactive(around, date=day, persons=True, all_persons=True, height=520)
    return group_interactive(G, company_id=seed, date=day, persons=persons, height=520)


def drawn_companies(G: Any, seed: str, day: _dt.date | None, persons: bool = False) -> int:
    """How many companies the drawing (or the interactive view) of the seed's group on ``day`` shows."""
    return sum(1 for _, kind in _shown(G, seed, day, persons).nodes(data="kind") if kind == COMPANY)
