"""``from_companies``: interface records → a group graph (see :mod:`regkit.graph.schema` for its shape)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import networkx as nx

from . import persons
from ._input import iter_companies
from ._memo import Dates, Folded, gc_paused
from .schema import (COMPANY, LEGAL_PERSON, MERGER, NATURAL_PERSON, PROFIT_TRANSFER, RELATIONS, REPRESENTATION,
                     SPIN_OFF, check_relations)  # fmt: skip

__all__ = ["from_companies", "empty_graph"]


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


class _Builder:
    """Collects nodes and edges in networkx's own dict-of-dicts layout — node → attrs; source →
    target → key → attrs, the target's predecessor map sharing each key dict — so the graph is made
    from them with three ``dict.update`` calls. Every node gets its adjacency dicts when it is made."""

    def __init__(self, relations: tuple[str, ...]) -> None:
        self.relations = frozenset(relations)
        self.nodes: dict[str, dict[str, Any]] = {}
        self.succ: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self.pred: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self.people: list[tuple[str, dict[str, Any]]] = []  # natural persons with an id
        self.unnamed: list[tuple[tuple[str, str, str], str, Mapping[str, Any]]] = []
        self.dates = Dates()
        self.fold = Folded()

    # -- nodes ---------------------------------------------------------------------------------
    def node(self, node: str, attrs: dict[str, Any]) -> None:
        self.nodes[node] = attrs
        if node not in self.succ:
            self.succ[node] = {}
            self.pred[node] = {}

    def company(self, company: Mapping[str, Any]) -> None:
        address = company.get("address") or {}
        self.node(company["id"], {
            "kind": COMPANY,
            "name": (company.get("name") or {}).get("name"),
            "legal_form": company.get("legal_form"),
            "status": company.get("status"),
            "city": address.get("city"),
            "incorporated_at": self.dates[company.get("incorporated_at")],
            "terminated_at": self.dates[company.get("terminated_at")],
            "fetched": True,
        })  # fmt: skip

    def stub(self, cid: str, name: str | None, city: str | None = None) -> None:
        """A company known only as a link target or representative (``fetched=False``)."""
        if cid not in self.nodes:
            self.node(cid, {"kind": COMPANY, "name": name, "legal_form": None, "status": None, "city": city,
                            "incorporated_at": None, "terminated_at": None, "fetched": False})  # fmt: skip

    def natural_person(self, node: str, entry: Mapping[str, Any], person_id: str | None) -> None:
        person = entry.get("natural_person") or {}
        attrs = {"kind": NATURAL_PERSON, "name": entry.get("name"), "first_name": person.get("first_name"),
                 "last_name": person.get("last_name"), "date_of_birth": self.dates[person.get("date_of_birth")],
                 "city": person.get("city"), "person_id": person_id}  # fmt: skip
        self.node(node, attrs)
        if person_id is not None:
            self.people.append((node, attrs))

    def legal_person(self, node: str, entry: Mapping[str, Any]) -> None:
        if node not in self.nodes:
            person = entry.get("legal_person") or {}
            self.node(node, {"kind": LEGAL_PERSON, "name": person.get("name") or entry.get("name"),
                             "city": person.get("city"), "country": person.get("country"),
                             "person_id": entry.get("id")})  # fmt: skip

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
        attrs = {"relation": relation, "role": None, "valid_from": registered, "valid_to": None,
                 "registration_date": registered, "agreement_date": self.dates[link.get("agreement_date")],
                 "authority": None}  # fmt: skip
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
        cid = company["id"]
        nodes, succ, pred, dates, people = self.nodes, self.succ, self.pred, self.dates, self.people
        for entry in company.get("representation") or ():
            rid = entry.get("id")
            if entry.get("type") == LEGAL_PERSON:
                if persons.is_company_id(rid):
                    node = rid
                    self.stub(rid, entry.get("name"), (entry.get("legal_person") or {}).get("city"))
                else:
                    node = persons.legal_person_node(entry)
                    self.legal_person(node, entry)
            elif rid:
                node = rid
                if rid not in nodes:  # natural_person(), inlined: a third of all entries make one
                    person = entry.get("natural_person") or {}
                    nodes[rid] = attrs = {
                        "kind": NATURAL_PERSON, "name": entry.get("name"), "first_name": person.get("first_name"),
                        "last_name": person.get("last_name"), "date_of_birth": dates[person.get("date_of_birth")],
                        "city": person.get("city"), "person_id": rid}  # fmt: skip
                    succ[rid], pred[rid] = {}, {}
                    people.append((rid, attrs))
            else:
                self.unnamed.append((persons.identity_key(entry, self.fold.__getitem__), cid, entry))
                continue
            start, role = entry.get("start_date"), entry.get("role")
            attrs = {"relation": REPRESENTATION, "role": role, "valid_from": dates[start],
                     "valid_to": dates[entry.get("end_date")], "registration_date": None, "agreement_date": None,
                     "authority": entry.get("authority")}  # fmt: skip
            key = f"{REPRESENTATION}/{role}/{start or ''}"
            keydict = succ[node].get(cid)
            if keydict is None:  # the usual case, inlined: a first mandate of this person here
                succ[node][cid] = pred[cid][node] = {key: attrs}
            elif key not in keydict:
                keydict[key] = attrs
            else:
                self.edge(node, cid, key, attrs)

    def mandate(self, node: str, cid: str, entry: Mapping[str, Any]) -> None:
        start = entry.get("start_date")
        self.edge(node, cid, f"{REPRESENTATION}/{entry.get('role')}/{start or ''}",
                  {"relation": REPRESENTATION, "role": entry.get("role"), "valid_from": self.dates[start],
                   "valid_to": self.dates[entry.get("end_date")], "registration_date": None, "agreement_date": None,
                   "authority": entry.get("authority")})  # fmt: skip

    def resolve_unnamed(self) -> None:
        """Rule 5 of :mod:`regkit.graph.persons`: id-less natural persons."""
        if not self.unnamed:
            return
        wanted = {(self.dates[key[1]], key[2]) for key, _, _ in self.unnamed if key[1]}
        births = {birth for birth, _ in wanted}
        known: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        fold = self.fold.__getitem__
        for node, attrs in self.people:  # cheap filters first: birth date, then folded city
            birth = attrs["date_of_birth"]
            if birth in births and (birth, fold(attrs["city"])) in wanted:
                entry = {"name": attrs["name"], "natural_person": {"first_name": attrs["first_name"],
                         "last_name": attrs["last_name"], "date_of_birth": birth.isoformat(), "city": attrs["city"]}}
                known[persons.identity_key(entry, fold)].add(node)
        for key, cid, entry in self.unnamed:
            matches = known.get(key, ()) if key[1] else ()
            if len(matches) == 1:
                node = next(iter(matches))
            else:
                node = persons.null_id_node(key, cid)
                if node not in self.nodes:
                    self.natural_person(node, entry, None)
            self.mandate(node, cid, entry)

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
            graph.add_edges_from((u, v, k, d) for u, targets in self.succ.items() for v, keydict in targets.items()
                                 for k, d in keydict.items())  # fmt: skip
        return graph


def from_companies(companies: Any, relations: Any = RELATIONS, *, create_using: Any = None) -> nx.MultiDiGraph:
    """Build the group graph of some companies.

    Parameters
    ----------
    companies : company or iterable of companies or mapping
        CompanyV1 dicts or client records (anything with ``.raw``): one, a list, a ``CompanyBatch``
        (failed slots are skipped), or a mapping id → company such as ``read_world().companies``.
    relations : sequence of str
        Which links to include, from ``("merger", "spin_off", "profit_transfer", "representation")``
        (all by default). Without ``"representation"`` the graph has no person nodes.
    create_using : networkx graph class or instance, optional
        A directed multigraph to fill (default a new :class:`networkx.MultiDiGraph`).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes and edges as :mod:`regkit.graph.schema` describes: companies (those given have
        ``fetched=True``; link targets and company representatives not given are nodes with
        ``fetched=False``), natural persons and legal persons; one edge per link, keyed by
        relation, directed absorbed → acquirer, transferor → recipient, Organgesellschaft →
        parent, representative → company. A link both ends report (a merger) is one edge.
        Persons are merged by id, id-less ones by the rule of :mod:`regkit.graph.persons`.

    Raises
    ------
    TypeError
        When ``companies`` holds something that is not a company.
    ValueError
        For an unknown relation name.

    Examples
    --------
    >>> from regkit.graph import from_companies
    >>> parent = {"id": "DE-HRB-B1204-1", "name": {"name": "Alpha Holding AG"}, "status": "active"}
    >>> child = {"id": "DE-HRB-B1204-2", "name": {"name": "Alpha Service GmbH"}, "status": "active",
    ...          "profit_transfer_agreement": {"company_id": "DE-HRB-B1204-1", "name": "Alpha Holding AG",
    ...                                        "registration_date": "2019-03-01", "agreement_date": None}}
    >>> G = from_companies([parent, child])
    >>> list(G.edges(keys=True))
    [('DE-HRB-B1204-2', 'DE-HRB-B1204-1', 'profit_transfer')]
    >>> G.edges["DE-HRB-B1204-2", "DE-HRB-B1204-1", "profit_transfer"]["valid_from"]
    datetime.date(2019, 3, 1)
    """
    builder = _Builder(check_relations(relations))
    records = list(iter_companies(companies))
    with gc_paused():
        for company in records:
            builder.company(company)
        for company in records:
            builder.links(company)
            if REPRESENTATION in builder.relations:
                builder.representation(company)
        builder.resolve_unnamed()
        return builder.graph(create_using)
