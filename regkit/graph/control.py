"""Control: who is above a company — the Organkreis and the ultimate parent.

What counts as control
----------------------
Two kinds of link, both as they stand on the day asked (:mod:`regkit.graph.timeline`):

* a **profit-transfer agreement**, from the Organgesellschaft to its parent (an Organschaft needs the
  parent to hold the majority of the voting rights, so the parent controls);
* a **legal-person shareholder**: a company or another legal person holding the company, known from a
  ``representation`` edge with role ``SHAREHOLDER`` and/or from ``ownership`` edges (holdings). Each
  holder is judged once, whichever edges name it: when ownership edges in force give its share, it
  controls with more than half (:data:`~regkit.graph.schema.CONTROL_SHARE`; the shares of its
  ownership edges in force are added up); when no share is known — a ``SHAREHOLDER`` entry only, or an
  ownership of unknown share as ``shareholder`` / ``stockholder`` — it counts, as the register gives no
  shares to weigh.

Natural-person holders, directors, Prokura and the general partner of a KG
(``PERSONAL_LIABLE_DIRECTOR`` / ownership ``general_partner`` without a majority share, which manages
but does not own) do not count.

The walk upwards
----------------
From a company, the *controlling parent* is the target of its profit-transfer agreement if it has
one (an agreement outranks shareholdings), else its controlling legal-person shareholder. When there is
no parent, or several different ones (shared control, which shares of unknown size cannot resolve),
the walk stops. It also stops before it would visit a company a second time: in a cycle
of mutual control the last company reached before the cycle closes is the ultimate parent.
"""

from __future__ import annotations

import datetime as _dt
from collections import deque
from typing import Any, NamedTuple

import networkx as nx

from .errors import check_node
from .holders import holder_shares, holding_parents, is_control_edge
from .schema import OWNERSHIP, PROFIT_TRANSFER, REPRESENTATION, to_date
from .timeline import in_force

__all__ = [
    "Organkreis",
    "organkreis",
    "ultimate_parent",
    "control_chain",
    "controlling_parents",
    "controlled_companies",
    "is_control_edge",
    "holder_shares",
]


def _pta_parents(G: nx.MultiDiGraph, node: str, day: _dt.date | None) -> set[str]:
    return {
        v
        for _, v, attrs in G.out_edges(node, data=True)
        if attrs.get("relation") == PROFIT_TRANSFER and in_force(attrs, day)
    }


def controlling_parents(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> set[str]:
    """The controlling parents of a company on a date (one, none, or — shared control — several).

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Default: the current state (see :mod:`regkit.graph.timeline`). A ``datetime.date``, ``datetime``,
        ``Timestamp`` or ``datetime64``, ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text
        is a ``ValidationError``.

    Returns
    -------
    set of str
        The target of the company's profit-transfer agreement if it has one, else its controlling
        legal-person shareholders (more than half where ownership edges give the share; see the
        module docstring).

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.
    """
    check_node(G, company_id)
    day = to_date(date)
    parents = _pta_parents(G, company_id, day)
    if parents:
        return parents
    return holding_parents(G, company_id, day)


def control_chain(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> list[str]:
    """The chain of controlling parents from a company up to its ultimate parent.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Default: the current state. A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.

    Returns
    -------
    list of str
        ``[company_id, parent, grandparent, ..., ultimate parent]``; ``[company_id]`` when nothing
        controls it.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.

    Examples
    --------
    >>> from regkit.graph import from_companies, control_chain
    >>> def pta(child, parent):
    ...     return {"id": child, "name": {"name": child}, "profit_transfer_agreement": {"company_id": parent,
    ...             "name": parent, "registration_date": "2019-03-01", "agreement_date": None}}
    >>> G = from_companies([pta("DE-HRB-B1204-3", "DE-HRB-B1204-2"), pta("DE-HRB-B1204-2", "DE-HRB-B1204-1")])
    >>> control_chain(G, "DE-HRB-B1204-3")
    ['DE-HRB-B1204-3', 'DE-HRB-B1204-2', 'DE-HRB-B1204-1']
    """
    chain = [company_id]
    seen = {company_id}
    node = company_id
    while True:
        parents = controlling_parents(G, node, date)
        if len(parents) != 1:
            return chain
        (node,) = parents
        if node in seen:
            return chain
        seen.add(node)
        chain.append(node)


def ultimate_parent(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> str:
    """The company (or legal person) at the top of a company's chain of control.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Default: the current state. A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.

    Returns
    -------
    str
        The last node of :func:`control_chain`: ``company_id`` itself when nothing controls it.
        See the module docstring for the edges that count and how cycles end.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.

    Examples
    --------
    >>> from regkit.graph import from_companies, ultimate_parent
    >>> held = {"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}, "representation": [
    ...     {"id": "DE-HRB-B1204-1", "name": "Alpha AG", "type": "legal_person", "role": "SHAREHOLDER",
    ...      "start_date": "2001-01-01", "end_date": None, "authority": None, "legal_person": None}]}
    >>> ultimate_parent(from_companies([held]), "DE-HRB-B1204-2")
    'DE-HRB-B1204-1'
    """
    return control_chain(G, company_id, date)[-1]


class Organkreis(NamedTuple):
    """A profit-transfer group: the Organträger and its Organgesellschaften.

    Attributes
    ----------
    organtraeger : str
        The company at the top of the chain of profit-transfer agreements.
    organgesellschaften : frozenset of str
        Every company whose chain of agreements (through intermediate holdings) ends at the
        Organträger; empty when none does.
    """

    organtraeger: str
    organgesellschaften: frozenset[str]

    @property
    def companies(self) -> frozenset[str]:
        """The Organträger and all Organgesellschaften."""
        return self.organgesellschaften | {self.organtraeger}


def organkreis(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> Organkreis:
    """The profit-transfer group a company belongs to.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
        Any company of the group: the Organträger, an intermediate holding or an Organgesellschaft.
    date : date-like, optional
        Default: the current state (agreements not ended). A ``datetime.date``, ``datetime``, ``Timestamp`` or
        ``datetime64``, ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a
        ``ValidationError``.

    Returns
    -------
    Organkreis
        ``(organtraeger, organgesellschaften)``. The Organträger is found by following
        profit-transfer agreements upwards (stopping before a company is visited twice); the
        Organgesellschaften are all companies with a chain of agreements to it.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.

    Examples
    --------
    >>> from regkit.graph import from_companies, organkreis
    >>> def pta(child, parent):
    ...     return {"id": child, "name": {"name": child}, "profit_transfer_agreement": {"company_id": parent,
    ...             "name": parent, "registration_date": "2019-03-01", "agreement_date": None}}
    >>> G = from_companies([pta("DE-HRB-B1204-3", "DE-HRB-B1204-2"), pta("DE-HRB-B1204-2", "DE-HRB-B1204-1")])
    >>> top, members = organkreis(G, "DE-HRB-B1204-2")
    >>> top, sorted(members)
    ('DE-HRB-B1204-1', ['DE-HRB-B1204-2', 'DE-HRB-B1204-3'])
    """
    check_node(G, company_id)
    day = to_date(date)
    top, seen = company_id, {company_id}
    while True:
        parents = _pta_parents(G, top, day) - seen
        if len(parents) != 1:
            break
        (top,) = parents
        seen.add(top)
    members: set[str] = set()
    queue = deque([top])
    while queue:
        node = queue.popleft()
        for child, _, attrs in G.in_edges(node, data=True):
            if attrs.get("relation") == PROFIT_TRANSFER and in_force(attrs, day) and child not in members:
                members.add(child)
                queue.append(child)
    members.discard(top)
    return Organkreis(top, frozenset(members))


def controlled_companies(G: nx.MultiDiGraph, company_id: str, date: Any = None) -> set[str]:
    """Everything a company (or legal person) controls, directly or through others.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    company_id : str
    date : date-like, optional
        Default: the current state. A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); any other text is a ``ValidationError``.

    Returns
    -------
    set of str
        The companies reached downwards along control edges (profit-transfer agreements to it,
        legal-person shareholdings by which it controls — the rule of :func:`controlling_parents`),
        ``company_id`` excluded. With ``ultimate_parent``
        this is a whole group: ``{top} | controlled_companies(G, top)``.

    Raises
    ------
    regkit.graph.NotInGraphError
        When ``company_id`` is not in ``G`` (also a ``networkx.NodeNotFound``); the message gives the crawl.

    Examples
    --------
    >>> from regkit.graph import from_companies, controlled_companies
    >>> def pta(child, parent):
    ...     return {"id": child, "name": {"name": child}, "profit_transfer_agreement": {"company_id": parent,
    ...             "name": parent, "registration_date": "2019-03-01", "agreement_date": None}}
    >>> G = from_companies([pta("DE-HRB-B1204-3", "DE-HRB-B1204-2"), pta("DE-HRB-B1204-2", "DE-HRB-B1204-1")])
    >>> sorted(controlled_companies(G, "DE-HRB-B1204-1"))
    ['DE-HRB-B1204-2', 'DE-HRB-B1204-3']
    """
    check_node(G, company_id)
    day = to_date(date)
    found: set[str] = set()
    queue = deque([company_id])
    while queue:
        node = queue.popleft()
        below = {
            u for u, _, a in G.in_edges(node, data=True) if a.get("relation") == PROFIT_TRANSFER and in_force(a, day)
        }
        held = {
            v
            for _, v, a in G.out_edges(node, data=True)
            if a.get("relation") in (REPRESENTATION, OWNERSHIP) and in_force(a, day)
        }
        below |= {v for v in held if node in holding_parents(G, v, day)}
        for child in below - found - {company_id}:
            found.add(child)
            queue.append(child)
    return found
