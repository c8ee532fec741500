"""``from_companies``: interface records → a group graph (see :mod:`regkit.graph.schema` for its shape)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from . import ownership
from ._input import iter_companies
from ._memo import gc_paused
from .builder import GraphBuilder, empty_graph
from .schema import (
    OWNERSHIP,
    RELATIONS,
    REPRESENTATION,
    check_relations,
)

__all__ = ["from_companies", "empty_graph"]


def _answers(answers: Any, what: str) -> list[Any]:
    if answers is None:
        return []
    if isinstance(answers, (str, bytes, Mapping)) or hasattr(answers, "raw"):
        answers = [answers]
    try:
        return [a for a in answers if a is not None]
    except TypeError:
        raise TypeError(
            f"{what}= takes answers (records or dicts) or a list of them, not {type(answers).__name__}"
        ) from None


def from_companies(
    companies: Any,
    relations: Any = RELATIONS,
    *,
    create_using: Any = None,
    person_city: bool = False,
    holdings: Any = None,
    persons: Any = None,
) -> nx.MultiDiGraph:
    """Build the group graph of some companies.

    Parameters
    ----------
    companies : company or iterable of companies or mapping
        CompanyV1 dicts or client records (anything with ``.raw``): one, a list, a ``CompanyBatch``
        (failed slots are skipped), or a mapping id → company such as ``read_world().companies``.
    relations : sequence of str
        Which links to include, from ``("merger", "spin_off", "profit_transfer", "representation",
        "ownership")`` (all by default). Without ``"representation"`` the graph has no person nodes
        from company records; ``"ownership"`` edges come from ``holdings`` only.
    create_using : networkx graph class or instance, optional
        A directed multigraph to fill (default a new :class:`networkx.MultiDiGraph`).
    person_city : bool, default False
        Add the city to the node id of a natural person without id (a tie-breaker between namesakes
        born the same day; see :mod:`regkit.graph.persons`). Pass the same to
        :func:`regkit.frames.representatives` to join its ``id`` to the nodes.
    holdings : holdings answer or list of them, optional
        What ``client.get_holdings(id)`` / ``client.get_person_holdings(id)`` return (records or
        their ``.raw`` dicts ``{"company_id" or "person_id", "holdings": [...]}``): one ``ownership``
        edge per holding, holder → held company, current and past ones (see
        :mod:`regkit.graph.ownership`; shares as fractions). Ignored without ``"ownership"`` in
        ``relations``.
    persons : person answer or list of them, optional
        What ``client.get_person(id)`` returns: the person's node and, with ``"representation"``
        in ``relations``, an edge per management position (one edge with the company's own entry
        for the same role and start).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes and edges as :mod:`regkit.graph.schema` describes: companies (those given have
        ``fetched=True``; link targets and company representatives not given are nodes with
        ``fetched=False``), natural persons and legal persons; one edge per link, keyed by
        relation, directed absorbed → acquirer, transferor → recipient, Organgesellschaft →
        parent, representative → company. A link both ends report (a merger) is one edge.
        Persons are one node per person key (:mod:`regkit.graph.persons`), the ids of
        :func:`regkit.frames.representatives`. **Every representation entry is an edge**: entries
        that differ in any member (a second spelling of the name, another authority, ...) are
        separate edges even when they share role and start date (keys ``.../2``, ``.../3``); only
        an entry repeated exactly, member for member, is one edge.

    Raises
    ------
    TypeError
        When ``companies`` holds something that is not a company (``holdings`` / ``persons``: not
        such an answer).
    ValueError
        For an unknown relation name, or a holding whose share is not a fraction.

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
    builder = GraphBuilder(check_relations(relations), person_city=bool(person_city))
    records = list(iter_companies(companies))
    people, held = _answers(persons, "persons"), _answers(holdings, "holdings")
    with gc_paused():
        for company in records:
            builder.company(company)
        for company in records:
            builder.links(company)
            if REPRESENTATION in builder.relations:
                builder.representation(company)
        for person in people:
            ownership.add_person(builder, person, REPRESENTATION in builder.relations)
        if OWNERSHIP in builder.relations:
            for answer in held:
                ownership.add_holdings(builder, answer)
        return builder.graph(create_using)
