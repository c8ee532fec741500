"""Graphs for the group-drawing tests: the bundled world's groups, a hand-built group, a synthetic wide one."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from typing import Any

import networkx as nx

from regkit.graph.schema import edge_attributes

#: The largest groups of the bundled world (data/README.md, groups table): Waldstein (24 companies), Südlicht (23).
WALDSTEIN = "DE-HRB-X1517-62135KI"
SUEDLICHT = "DE-HRB-D4301-56744"
START = dt.date(2001, 1, 1)


@functools.lru_cache(maxsize=1)
def world_graph() -> nx.MultiDiGraph:
    """``from_companies`` of the whole bundled world (read-only)."""
    from regkit.graph import from_companies
    from regkit.local.world import read_world

    return from_companies(read_world().companies)


def company(G: nx.MultiDiGraph, cid: str, name: str, status: str = "active") -> None:
    G.add_node(
        cid,
        kind="company",
        name=name,
        legal_form="gmbh",
        status=status,
        city="Berlin",
        fetched=True,
        incorporated_at=START,
        terminated_at=None,
    )


def holds(G: nx.MultiDiGraph, parent: str, child: str, share: float = 1.0) -> None:
    attrs = edge_attributes("ownership", valid_from=START, share=share, relation_type="shareholder")
    G.add_edge(parent, child, key=f"ownership/shareholder/{START}", **attrs)


def link(G: nx.MultiDiGraph, source: str, target: str, relation: str) -> None:
    G.add_edge(source, target, key=relation, **edge_attributes(relation, valid_from=START, registration_date=START))


def person(G: nx.MultiDiGraph, pid: str, name: str, serves: list[str]) -> None:
    G.add_node(
        pid,
        kind="natural_person",
        name=name,
        first_name=name.split()[0],
        last_name=name.split()[-1],
        date_of_birth=dt.date(1970, 1, 1),
        city="Berlin",
        person_id=pid,
    )
    for cid in serves:
        attrs = edge_attributes("representation", role="DIRECTOR", valid_from=START)
        G.add_edge(pid, cid, key=f"representation/DIRECTOR/{START}", **attrs)


def cid(n: int) -> str:
    return f"DE-HRB-B1204-{n}"


def hand_built() -> nx.MultiDiGraph:
    """A group whose depths of control are known by construction.

    Top (1) holds Alpha (2) and Beta (3); Alpha has a profit-transfer agreement with Top; Alpha holds Gamma (4),
    Gamma holds Delta (5); Epsilon (6) merged into Alpha; Beta spun assets off to Zeta (7); Top holds 10 % of
    Delta (no control). Depth: Top 0; Alpha, Beta 1; Gamma, Epsilon, Zeta 2; Delta 3. Two directors.
    """
    G = nx.MultiDiGraph()
    for n, name in [
        (1, "Top Holding AG"),
        (2, "Alpha GmbH"),
        (3, "Beta GmbH"),
        (4, "Gamma GmbH"),
        (5, "Delta GmbH"),
        (6, "Epsilon GmbH"),
        (7, "Zeta GmbH"),
    ]:
        company(G, cid(n), name, "inactive" if n == 6 else "active")
    holds(G, cid(1), cid(2))
    holds(G, cid(1), cid(3))
    link(G, cid(2), cid(1), "profit_transfer")
    holds(G, cid(2), cid(4))
    holds(G, cid(4), cid(5))
    holds(G, cid(1), cid(5), share=0.1)
    link(G, cid(6), cid(2), "merger")
    link(G, cid(3), cid(7), "spin_off")
    person(G, "p-1", "Eva Roth", [cid(1), cid(2)])
    person(G, "p-2", "Jan Roth", [cid(4)])
    return G


EXPECTED_DEPTH = {cid(1): 0, cid(2): 1, cid(3): 1, cid(4): 2, cid(6): 2, cid(7): 2, cid(5): 3}


def wide(children: int = 40) -> nx.MultiDiGraph:
    """A holding with ``children`` subsidiaries (names repeat, some long, one word very long), two of them with
    three subsidiaries of their own."""
    G = nx.MultiDiGraph()
    company(G, cid(1), "Blauwerk Holding AG")
    kinds = itertools.cycle(
        [
            "Projekte GmbH",
            "Gesundheitszentrum GmbH",
            "Verwaltungs- und Beteiligungsgesellschaft am Stadtpark mbH",
            "Service GmbH & Co. KG",
        ]
    )
    for n in range(2, children + 2):
        company(G, cid(n), f"Blauwerk {next(kinds)}")
        holds(G, cid(1), cid(n))
        if n % 3 == 0:
            link(G, cid(n), cid(1), "profit_transfer")
    for parent, first in ((5, 500), (9, 900)):
        for n in range(first, first + 3):
            company(G, cid(n), "Blauwerk Projekte GmbH")
            holds(G, cid(parent), cid(n))
    return G


def label_texts(ax: Any) -> dict[str, Any]:
    """Node → its label artist (labels carry the gid ``label:<node>``)."""
    return {t.get_gid()[len("label:") :]: t for t in ax.texts if (t.get_gid() or "").startswith("label:")}


def overlapping(boxes: list[Any]) -> list[tuple[int, int]]:
    """Index pairs of window extents that overlap (touching edges do not count)."""
    return [
        (i, j)
        for i, j in itertools.combinations(range(len(boxes)), 2)
        if boxes[i].x0 < boxes[j].x1
        and boxes[j].x0 < boxes[i].x1
        and boxes[i].y0 < boxes[j].y1
        and boxes[j].y0 < boxes[i].y1
    ]
