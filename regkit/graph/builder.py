"""``GraphBuilder``: collects a group graph's nodes and edges in networkx's own layout while records are read.

:mod:`regkit.graph.build` drives it over company records, :mod:`regkit.graph.ownership` adds holdings and persons
to it; both import it from here, so neither imports the other's module for its type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from regkit.frames.status import removed_after

from . import persons
from ._memo import Dates
from .schema import (
    COMPANY,
    LEGAL_PERSON,
    MERGER,
    NATURAL_PERSON,
    PROFIT_TRANSFER,
    REPRESENTATION,
    SPIN_OFF,
)

__all__ = ["GraphBuilder", "empty_graph"]


def empty_graph(create_using: Any = None) -> nx.MultiDiGraph:
    """An empty directed multigraph from a networkx ``create_using=`` argument.

    Raises
    ------
    TypeError
        When ``create_using`` is not a directed multigraph (class or instance).
    """
    graph = nx.empty_graph(0, create_using if create_using is not None else nx.MultiDiGraph)
    if not (graph.is_directed() and graph.is_multigraph()):
        raise TypeError("create_using must be a directed multigraph (networkx.MultiDiGraph or a subclass)")
    return graph


class GraphBuilder:
    """Collects nodes and edges in networkx's own dict-of-dicts layout — node → attrs; source →
    target → key → attrs, the target's predecessor map sharing each key dict — so the graph is made
    from them with three ``dict.update`` calls. Every node gets its adjacency dicts when it is made."""

    def __init__(self, relations: tuple[str, ...], person_city: bool = False) -> None:
        self.relations = frozenset(relations)
        self.person_city = person_city
        self.nodes: dict[str, dict[str, Any]] = {}
        self.succ: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self.pred: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self.represented: dict[str, list[Any]] = {}  # company id → representation lists already added
        self.dates = Dates()

    # -- nodes ---------------------------------------------------------------------------------
    def node(self, node: str, attrs: dict[str, Any]) -> None:
        self.nodes[node] = attrs
        if node not in self.succ:
            self.succ[node] = {}
            self.pred[node] = {}

    def company(self, company: Mapping[str, Any]) -> None:
        address = company.get("address") or {}
        self.node(
            company["id"],
            {
                "kind": COMPANY,
                "name": (company.get("name") or {}).get("name"),
                "legal_form": company.get("legal_form"),
                "status": company.get("status"),
                "city": address.get("city"),
                "incorporated_at": self.dates[company.get("incorporated_at")],
                "terminated_at": self.dates[company.get("terminated_at")],
                "removed_after": self.dates[removed_after(company)],
                "fetched": True,
            },
        )

    def stub(self, cid: str, name: str | None, city: str | None = None) -> None:
        """A company known only as a link target or representative (``fetched=False``)."""
        if cid not in self.nodes:
            self.node(
                cid,
                {
                    "kind": COMPANY,
                    "name": name,
                    "legal_form": None,
                    "status": None,
                    "city": city,
                    "incorporated_at": None,
                    "terminated_at": None,
                    "removed_after": None,
                    "fetched": False,
                },
            )

    def natural_person(self, node: str, entry: Mapping[str, Any], person_id: str | None) -> None:
        person = entry.get("natural_person") or {}
        self.node(
            node,
            {
                "kind": NATURAL_PERSON,
                "name": entry.get("name"),
                "first_name": person.get("first_name"),
                "last_name": person.get("last_name"),
                "date_of_birth": self.dates[person.get("date_of_birth")],
                "city": person.get("city"),
                "person_id": person_id,
            },
        )

    def legal_person(self, node: str, entry: Mapping[str, Any]) -> None:
        if node not in self.nodes:
            person = entry.get("legal_person") or {}
            self.node(
                node,
                {
                    "kind": LEGAL_PERSON,
                    "name": person.get("name") or entry.get("name"),
                    "city": person.get("city"),
                    "country": person.get("country"),
                    "person_id": entry.get("id"),
                },
            )

    # -- edges (both ends exist as nodes) -------------------------------------------------------
    def keys(self, u: str, v: str) -> dict[str, dict[str, Any]]:
        """The key → attrs dict of the pair ``u → v`` (created, and shared with ``pred``, if new)."""
        targets = self.succ[u]
        keydict = targets.get(v)
        if keydict is None:
            keydict = targets[v] = self.pred[v][u] = {}
        return keydict

    def edge(self, u: str, v: str, key: str, attrs: dict[str, Any], mirrored: bool = False) -> None:
        """Add an edge; a link both ends report (``mirrored``) fills gaps of the first report, an
        identical entry is dropped, a different entry with the same key gets ``key/2``, ``key/3``, ..."""
        keydict = self.keys(u, v)
        old = keydict.get(key)
        if old is None:
            keydict[key] = attrs
        elif mirrored:
            for name, value in attrs.items():
                if old[name] is None:
                    old[name] = value
        elif old != attrs:
            n = 2
            while (old := keydict.get(f"{key}/{n}")) is not None and old != attrs:
                n += 1
            if old is None:
                keydict[f"{key}/{n}"] = attrs

    def link(self, relation: str, u: str, v: str, link: Mapping[str, Any], key: str) -> None:
        registered = self.dates[link.get("registration_date")]
        attrs = {
            "relation": relation,
            "role": None,
            "valid_from": registered,
            "valid_to": None,
            "registration_date": registered,
            "agreement_date": self.dates[link.get("agreement_date")],
            "authority": None,
        }
        self.edge(u, v, key, attrs, mirrored=relation != SPIN_OFF)

    def links(self, company: Mapping[str, Any]) -> None:
        cid = company["id"]
        if MERGER in self.relations:
            into = company.get("merged_into")
            if into:
                self.stub(into["company_id"], into.get("name"))
                self.link(MERGER, cid, into["company_id"], into, MERGER)
            for acquired in company.get("acquisitions") or ():
                self.stub(acquired["company_id"], acquired.get("name"))
                self.link(MERGER, acquired["company_id"], cid, acquired, MERGER)
        if SPIN_OFF in self.relations:
            for spin in company.get("asset_spin_offs") or ():
                self.stub(spin["company_id"], spin.get("name"))
                self.link(SPIN_OFF, cid, spin["company_id"], spin, f"{SPIN_OFF}/{spin.get('registration_date') or ''}")
        if PROFIT_TRANSFER in self.relations:
            pta = company.get("profit_transfer_agreement")
            if pta:
                self.stub(pta["company_id"], pta.get("name"))
                self.link(PROFIT_TRANSFER, cid, pta["company_id"], pta, PROFIT_TRANSFER)

    def representation(self, company: Mapping[str, Any]) -> None:
        """One edge per distinct entry (see :func:`from_companies`); nodes by :mod:`regkit.graph.persons`."""
        cid = company["id"]
        entries = company.get("representation") or ()
        nodes, succ, pred, dates = self.nodes, self.succ, self.pred, self.dates
        for index, entry in enumerate(entries):
            rid = entry.get("id")
            given = rid if isinstance(rid, str) and rid else None
            if entry.get("type") == LEGAL_PERSON:
                if persons.is_company_id(given):
                    node = given
                    self.stub(given, entry.get("name"), (entry.get("legal_person") or {}).get("city"))
                else:
                    node = given or persons.legal_key(entry)
                    self.legal_person(node, entry)
            else:
                node = given or persons.person_key(entry, cid, use_city=self.person_city)
                if node not in nodes:
                    self.natural_person(node, entry, given)
            start, role = entry.get("start_date"), entry.get("role")
            attrs = {
                "relation": REPRESENTATION,
                "role": role,
                "valid_from": dates[start],
                "valid_to": dates[entry.get("end_date")],
                "registration_date": None,
                "agreement_date": None,
                "authority": entry.get("authority"),
            }
            key = f"{REPRESENTATION}/{role}/{start or ''}"
            keydict = succ[node].get(cid)
            if keydict is None:  # the usual case: a first mandate of this person here
                succ[node][cid] = pred[cid][node] = {key: attrs}
            elif key not in keydict:
                keydict[key] = attrs
            elif not self.repeated(cid, entries, index):
                n = 2
                while f"{key}/{n}" in keydict:
                    n += 1
                keydict[f"{key}/{n}"] = attrs
        self.represented.setdefault(cid, []).append(entries)

    def repeated(self, cid: str, entries: Any, index: int) -> bool:
        """Whether ``entries[index]`` equals, in every member, an entry already added for company ``cid``."""
        entry = entries[index]
        earlier = [*self.represented.get(cid, ()), entries[:index]]
        return any(other == entry for previous in earlier for other in previous)

    def graph(self, create_using: Any) -> nx.MultiDiGraph:
        graph = empty_graph(create_using)
        if type(graph) is nx.MultiDiGraph and len(graph) == 0:
            graph._node.update(self.nodes)  # the layout add_nodes_from / add_edges_from would make
            graph._succ.update(self.succ)
            graph._pred.update(self.pred)
            clear = getattr(nx, "_clear_cache", None)
            if clear is not None:
                clear(graph)
        else:
            graph.add_nodes_from(self.nodes.items())
            graph.add_edges_from(
                (u, v, k, d)
                for u, targets in self.succ.items()
                for v, keydict in targets.items()
                for k, d in keydict.items()
            )
        return graph
