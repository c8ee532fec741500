"""What a regkit group graph holds: node kinds, relations, attributes, edge keys and directions.

A group graph is a :class:`networkx.MultiDiGraph`. This module is its single definition; every other
module of :mod:`regkit.graph` (building, queries, files) reads it from here.

Nodes
-----
Node ids are strings. Every node has ``kind`` and ``name``; the other attributes depend on the kind
(an attribute that does not apply to a kind is absent, one that applies but is unknown is ``None``):

==================  =====================================  ===============================================
kind                node id                                attributes
==================  =====================================  ===============================================
``company``         the company id (``DE-HRB-...``)        ``name``, ``legal_form``, ``status``, ``city``,
                                                           ``incorporated_at``, ``terminated_at``,
                                                           ``removed_after`` (dates; see below),
                                                           ``fetched`` (bool: ``False`` for a company known
                                                           only as a link target or representative)
``natural_person``  the person's id (a UUID); without an   ``name``, ``first_name``, ``last_name``,
                    id, ``person:<name key>|<birth>``      ``date_of_birth`` (date), ``city``,
                    (see :mod:`regkit.graph.persons`)      ``person_id`` (the register's id or ``None``);
                                                           a person known only as a holder (its
                                                           holdings, not its record) has ``None``
                                                           but for ``kind`` and ``person_id``
``legal_person``    its id if the register gives one that  ``name``, ``city``, ``country``, ``person_id``
                    is not a company id, else
                    ``legal:<name>|<city>|<country>``
==================  =====================================  ===============================================

``removed_after`` is set for a company whose record says it is removed (status ``inactive``) but gives no
termination date, as records imported from OffeneRegister do: the newest date the record carries
(:func:`regkit.frames.status.removed_after`). The company existed on that day; after it, whether it still existed
is unknown, and :func:`regkit.graph.as_of` keeps it with ``existed=None`` (:mod:`regkit.graph.timeline`). It is
``None`` for every other company.

Edges
-----
Every edge has the same seven attributes (:data:`EDGE_ATTRIBUTES`, ``None`` where they do not apply);
``ownership`` edges have three more (:data:`OWNERSHIP_ATTRIBUTES`), which other edges do not have:

=====================  ======================================================================
attribute              meaning
=====================  ======================================================================
``relation``           one of :data:`RELATIONS` (below)
``role``               representation only: ``DIRECTOR``, ``SHAREHOLDER``, ``PROKURA``, ...
``valid_from``         date the link is in force from (see *Validity*), ``None`` if unknown
``valid_to``           date it ended (exclusive), ``None`` while it is in force
``registration_date``  merger, spin-off, profit transfer: date of the register entry
``agreement_date``     merger, profit transfer: date of the contract (``None`` if not cited)
``authority``          representation only: the power of representation as registered (str)
``share``              ownership only: the holder's share of the company as a **fraction**
                       (``0.5`` is 50 %; ``None`` if the register gives none). The holdings
                       endpoint reports fractions, the owners endpoint percent: a graph always
                       holds fractions
``nominal_share``      ownership only: nominal amount held, EUR (float; ``None`` if unknown)
``relation_type``      ownership only: ``shareholder``, ``stockholder``, ``limited_partner``
                       or ``general_partner``
=====================  ======================================================================

Directions, one per relation:

===================  =========================================  ==================================
relation             direction (source → target)                from the interface
===================  =========================================  ==================================
``merger``           absorbed company → acquirer                ``merged_into``, ``acquisitions``
``spin_off``         transferring company → recipient           ``asset_spin_offs``
``profit_transfer``  Organgesellschaft → parent (Organträger    ``profit_transfer_agreement``
                     or an intermediate holding)
``representation``   representative → company (``role`` says    ``representation``
                     which: ``DIRECTOR``, ``SHAREHOLDER``, ...)
``ownership``        holder (company or person) → the company   ``holdings`` of a company or a
                     it holds shares in                         person (``GET …/holdings``)
===================  =========================================  ==================================

Validity is half-open: an edge is in force on day ``d`` when ``valid_from <= d < valid_to``
(``None`` bounds are open; an edge whose ``valid_from`` is on or after its ``valid_to`` is in force on no day —
the rule of :mod:`regkit.frames.mandates`). ``valid_from`` is the registration date for mergers, spin-offs and
profit-transfer agreements (the register entry is what makes them effective; the contract date is
kept in ``agreement_date``), ``start_date`` for representation and ``start`` for ownership;
``valid_to`` is ``end_date`` for representation, ``end`` for ownership (past holdings are kept, with
their end) and ``None`` for the others (the interface lists only current agreements). Ownership
keeps its dates as ``valid_from`` / ``valid_to``, not as ``start`` / ``end``, which GEXF reserves.

Edge keys are strings that start with the relation: ``"merger"``, ``"profit_transfer"``,
``"spin_off/<registration_date>"``, ``"representation/<ROLE>/<start_date>"`` and
``"ownership/<relation_type>/<start>"`` (see :func:`edge_key`). A link reported by both ends (a merger: ``merged_into`` and ``acquisitions``) is
one edge; a representation entry repeated exactly (equal in every member) is one edge; an entry that
differs from another with the same key in *any* member — the register lists the same person twice with
the same role and start date, e.g. with two authorities or with the name split differently into first
and last name — gets ``<key>/2``, ``<key>/3``, ...: no entry the interface gives is lost.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from regkit.schema.dates import validate_date

__all__ = [
    "RELATIONS",
    "RECORD_RELATIONS",
    "MERGER",
    "SPIN_OFF",
    "PROFIT_TRANSFER",
    "REPRESENTATION",
    "OWNERSHIP",
    "COMPANY",
    "NATURAL_PERSON",
    "LEGAL_PERSON",
    "NODE_KINDS",
    "NODE_ATTRIBUTES",
    "EDGE_ATTRIBUTES",
    "OWNERSHIP_ATTRIBUTES",
    "DATE_ATTRIBUTES",
    "CONTROL_ROLES",
    "CONTROL_RELATION_TYPES",
    "CONTROL_SHARE",
    "edge_key",
    "edge_attributes",
    "edge_attribute_names",
    "check_relations",
    "to_date",
]

MERGER = "merger"
SPIN_OFF = "spin_off"
PROFIT_TRANSFER = "profit_transfer"
REPRESENTATION = "representation"
#: The relation of ownership edges, holder → held company (from holdings; see :mod:`regkit.graph.schema`).
OWNERSHIP = "ownership"
#: The relations a graph can hold, in the order they are documented. All but ``ownership`` come from
#: company records; ``ownership`` from holdings (:func:`regkit.graph.crawl` with ``direction="down"``).
RELATIONS = (MERGER, SPIN_OFF, PROFIT_TRANSFER, REPRESENTATION, OWNERSHIP)
#: The relations a company record lists (and :func:`regkit.graph.linked_companies` follows).
RECORD_RELATIONS = (MERGER, SPIN_OFF, PROFIT_TRANSFER, REPRESENTATION)

COMPANY = "company"
NATURAL_PERSON = "natural_person"
LEGAL_PERSON = "legal_person"
NODE_KINDS = (COMPANY, NATURAL_PERSON, LEGAL_PERSON)

#: Node attributes per kind, in a fixed order (``kind`` first).
NODE_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    COMPANY: (
        "kind",
        "name",
        "legal_form",
        "status",
        "city",
        "incorporated_at",
        "terminated_at",
        "removed_after",
        "fetched",
    ),
    NATURAL_PERSON: ("kind", "name", "first_name", "last_name", "date_of_birth", "city", "person_id"),
    LEGAL_PERSON: ("kind", "name", "city", "country", "person_id"),
}

#: Edge attributes, the same on every edge.
EDGE_ATTRIBUTES = ("relation", "role", "valid_from", "valid_to", "registration_date", "agreement_date", "authority")

#: The further attributes of ``ownership`` edges (absent on other edges).
OWNERSHIP_ATTRIBUTES = ("share", "nominal_share", "relation_type")

#: Attributes (of nodes or edges) that hold :class:`datetime.date` values or ``None``.
DATE_ATTRIBUTES = frozenset(
    {
        "incorporated_at",
        "terminated_at",
        "removed_after",
        "date_of_birth",
        "valid_from",
        "valid_to",
        "registration_date",
        "agreement_date",
    }
)

#: Representation roles by which a legal person controls the company it represents (see
#: :mod:`regkit.graph.control`).
CONTROL_ROLES = frozenset({"SHAREHOLDER"})

#: Ownership ``relation_type`` values that count as control when the share is not known (the
#: ownership counterpart of :data:`CONTROL_ROLES`; see :mod:`regkit.graph.control`).
CONTROL_RELATION_TYPES = frozenset({"shareholder", "stockholder"})

#: A holder whose known share is above this fraction controls the company (more than half).
CONTROL_SHARE = 0.5


def edge_key(relation: str, role: str | None = None, date: _dt.date | None = None) -> str:
    """The key of an edge: unique for one link between two nodes.

    Parameters
    ----------
    relation : str
        One of :data:`RELATIONS`.
    role : str, optional
        The representation role (representation), the ``relation_type`` (ownership).
    date : datetime.date, optional
        ``start_date`` of a representation, ``start`` of an ownership, ``registration_date`` of a
        spin-off.

    Returns
    -------
    str

    Examples
    --------
    >>> import datetime
    >>> edge_key("representation", "DIRECTOR", datetime.date(2018, 8, 27))
    'representation/DIRECTOR/2018-08-27'
    >>> edge_key("ownership", "shareholder", datetime.date(2005, 1, 31))
    'ownership/shareholder/2005-01-31'
    >>> edge_key("merger")
    'merger'
    """
    if relation in (REPRESENTATION, OWNERSHIP):
        return f"{relation}/{role}/{date.isoformat() if date else ''}"
    if relation == SPIN_OFF:
        return f"{relation}/{date.isoformat() if date else ''}"
    return relation


def edge_attribute_names(relation: Any) -> tuple[str, ...]:
    """The attributes an edge of ``relation`` has: :data:`EDGE_ATTRIBUTES`, and for ``ownership``
    :data:`OWNERSHIP_ATTRIBUTES` too."""
    return EDGE_ATTRIBUTES + OWNERSHIP_ATTRIBUTES if relation == OWNERSHIP else EDGE_ATTRIBUTES


def edge_attributes(relation: str, **values: Any) -> dict[str, Any]:
    """A complete edge attribute dict: every name of :func:`edge_attribute_names`, ``None`` unless given."""
    attrs = dict.fromkeys(edge_attribute_names(relation))
    attrs.update(values, relation=relation)
    return attrs


def check_relations(relations: Any) -> tuple[str, ...]:
    """Validate a ``relations=`` argument; returns it as a tuple.

    Raises
    ------
    ValueError
        For a relation name that is not one of :data:`RELATIONS`.
    """
    if isinstance(relations, str):
        relations = (relations,)
    relations = tuple(relations)
    unknown = [r for r in relations if r not in RELATIONS]
    if unknown:
        raise ValueError(f"unknown relations {unknown}; choose from {list(RELATIONS)}")
    return relations


def to_date(value: Any, name: str = "date") -> _dt.date | None:
    """A date argument as :class:`datetime.date` (``None`` and ``NaT`` stay ``None``).

    Read by :func:`regkit.schema.validate_date`, the rule of every date regkit takes: a ``datetime.date``,
    ``datetime.datetime`` (its date), pandas ``Timestamp`` or ``numpy.datetime64``, ISO ``"YYYY-MM-DD"`` (a
    time after it is ignored) or German ``"DD.MM.YYYY"``, read day first.

    Raises
    ------
    ValidationError
        Any other text (``"last year"``, ``"02/01/2024"``) or a day the calendar does not have, naming
        ``name``; an :class:`~regkit.errors.ArgumentError` (also a ``TypeError``) for a value of another type.

    Examples
    --------
    >>> to_date("2020-01-31"), to_date("31.01.2020")
    (datetime.date(2020, 1, 31), datetime.date(2020, 1, 31))
    """
    return validate_date(value, name, optional=True)
