"""Graph ⇄ DataFrames: ``to_edgelist`` / ``from_edgelist`` (a round trip) and ``to_nodelist``.

The edge list is a *relation frame* (``source``, ``target``, ``relation``, ``valid_from``,
``valid_to``, ...), so relation frames built elsewhere (``regkit.frames``) feed
:func:`from_edgelist` directly; without a key column the keys follow :func:`regkit.graph.schema.edge_key`. Every
row is an edge: a key only labels it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.errors import ValidationError

from .build import empty_graph
from .schema import (
    DATE_ATTRIBUTES,
    NODE_ATTRIBUTES,
    OWNERSHIP,
    OWNERSHIP_ATTRIBUTES,
    REPRESENTATION,
    edge_attribute_names,
    to_date,
)
from .schema import edge_key as make_edge_key

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["to_edgelist", "from_edgelist", "to_nodelist", "NODE_COLUMNS"]

#: Node attribute columns of :func:`to_nodelist`, in order (after ``node``).
NODE_COLUMNS = (
    "kind",
    "name",
    "legal_form",
    "status",
    "city",
    "country",
    "fetched",
    "incorporated_at",
    "terminated_at",
    "removed_after",
    "first_name",
    "last_name",
    "date_of_birth",
    "person_id",
)


_FLOAT_ATTRIBUTES = frozenset({"share", "nominal_share"})


def _column(name: str, values: list[Any]) -> Any:
    import pandas as pd

    from ._frames import date_column, str_column

    if name in DATE_ATTRIBUTES:
        return date_column(values)
    if name == "fetched":
        return pd.array(values, dtype="boolean")
    if name in _FLOAT_ATTRIBUTES:
        return pd.array(values, dtype="Float64")
    if all(v is None or isinstance(v, str) for v in values):
        return str_column(values)
    return pd.Series(values, dtype=object)


def to_edgelist(
    G: nx.MultiDiGraph, source: str = "source", target: str = "target", edge_key: str = "key"
) -> pd.DataFrame:
    """The edges of a group graph as a DataFrame, one row per edge.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    source, target, edge_key : str
        Names of the endpoint and key columns.

    Returns
    -------
    pandas.DataFrame
        ==================  ===============  ==========================================
        source              str              source node
        target              str              target node
        key                 str              edge key
        relation            str              ``merger``, ``spin_off``, ``profit_transfer``, ``representation``,
                                             ``ownership``
        role                str              representation role (NaN otherwise)
        valid_from          datetime64[us]   NaT when unknown
        valid_to            datetime64[us]   NaT when open
        registration_date   datetime64[us]
        agreement_date      datetime64[us]
        authority           str
        ==================  ===============  ==========================================

        A graph with ``ownership`` edges has three more columns (<NA> / NaN on other edges):

        ==================  ===============  ==========================================
        nominal_share       Float64          EUR
        relation_type       str              ``shareholder``, ``stockholder``, ...
        share               Float64          fraction, 0.5 = 50 %
        ==================  ===============  ==========================================

        Further edge attributes follow as extra columns (``str`` if all values are strings,
        dates as ``datetime64[us]`` if named in :data:`~regkit.graph.schema.DATE_ATTRIBUTES`, else
        ``object``).

    Examples
    --------
    >>> from regkit.graph import from_companies, to_edgelist, from_edgelist
    >>> company = {"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}, "merged_into": {
    ...     "company_id": "DE-HRB-B1204-1", "name": "Alpha AG", "registration_date": "2022-10-12",
    ...     "agreement_date": None}}
    >>> G = from_companies([company])
    >>> to_edgelist(G)[["source", "target", "relation", "valid_from"]]
               source          target relation valid_from
    0  DE-HRB-B1204-2  DE-HRB-B1204-1   merger 2022-10-12
    >>> sorted(from_edgelist(to_edgelist(G)).edges(keys=True)) == sorted(G.edges(keys=True))
    True
    """
    edges = list(G.edges(keys=True, data=True))
    names = list(edge_attribute_names(None))
    names += sorted({name for *_, attrs in edges for name in attrs} - set(names) - {source, target, edge_key})
    columns: dict[str, Any] = {
        source: _column(source, [u for u, *_ in edges]),
        target: _column(target, [v for _, v, *_ in edges]),
        edge_key: _column(edge_key, [k for _, _, k, _ in edges]),
    }
    for name in names:
        columns[name] = _column(name, [attrs.get(name) for *_, attrs in edges])
    from ._frames import frame

    return frame(columns)


def to_nodelist(G: nx.MultiDiGraph, node: str = "node") -> pd.DataFrame:
    """The nodes of a group graph as a DataFrame, one row per node.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    node : str
        Name of the node id column.

    Returns
    -------
    pandas.DataFrame
        ``node`` (str) and the columns of :data:`NODE_COLUMNS`: ``kind``, ``name``, ``legal_form``,
        ``status``, ``city``, ``country``, ``first_name``, ``last_name``, ``person_id`` (str, NaN where
        the attribute is unknown or does not apply to the kind), ``fetched`` (boolean, <NA> for
        persons), ``incorporated_at``, ``terminated_at``, ``removed_after``, ``date_of_birth`` (datetime64[us]); then
        further node attributes as extra columns.
    """
    nodes = list(G.nodes(data=True))
    names = list(NODE_COLUMNS) + sorted({n for _, attrs in nodes for n in attrs} - set(NODE_COLUMNS) - {node})
    columns = {node: _column(node, [n for n, _ in nodes])}
    for name in names:
        columns[name] = _column(name, [attrs.get(name) for _, attrs in nodes])
    from ._frames import frame

    return frame(columns)


def _node_attrs(row: dict[str, Any], extra: Iterable[str]) -> dict[str, Any]:
    from ._frames import to_python

    kind = to_python(row.get("kind"))
    schema = NODE_ATTRIBUTES.get(kind, ("kind",))
    attrs = {name: to_python(row.get(name), name in DATE_ATTRIBUTES) for name in schema}
    for name in extra:
        value = to_python(row.get(name), name in DATE_ATTRIBUTES)
        if value is not None:
            attrs[name] = value
    return attrs


def from_edgelist(
    edges: pd.DataFrame,
    source: str = "source",
    target: str = "target",
    edge_key: str | None = "key",
    edge_attr: Iterable[str] | None = None,
    *,
    nodes: pd.DataFrame | None = None,
    node: str = "node",
    create_using: Any = None,
) -> nx.MultiDiGraph:
    """Build a group graph from an edge list (and optionally a node list).

    Parameters
    ----------
    edges : pandas.DataFrame
        As :func:`to_edgelist` returns, or any relation frame with ``source``, ``target`` and
        ``relation`` columns.
    source, target : str
        Endpoint columns.
    edge_key : str or None
        Key column; when ``None`` or absent (or null in a row), keys are made as :func:`from_companies`
        makes them (:func:`regkit.graph.schema.edge_key`). **Every row is an edge**: a key only labels
        it, so a row whose key another edge between the same two nodes already holds (an identical
        repeated row too: a register that lists the same officer twice) gets ``<key>/2``, ``<key>/3``, ...
        (a merger both ends list is two rows of :func:`regkit.frames.links`; ``drop_duplicates`` as
        :mod:`regkit.frames.relations` says makes it one).
    edge_attr : iterable of str, optional
        Columns to keep as edge attributes (default: all other columns). The seven attributes of
        :data:`~regkit.graph.schema.EDGE_ATTRIBUTES` are always present (``None`` when no column),
        on ``ownership`` edges the three of :data:`~regkit.graph.schema.OWNERSHIP_ATTRIBUTES` too;
        other edges leave those out where they are null.
    nodes : pandas.DataFrame, optional
        A :func:`to_nodelist` frame: its nodes (isolated ones too) and their attributes; each node
        gets the attributes of its kind (:data:`~regkit.graph.schema.NODE_ATTRIBUTES`) plus extra
        columns that are not null.
    node : str
        The node id column of ``nodes``.
    create_using : networkx graph class or instance, optional
        A directed multigraph to fill.

    Returns
    -------
    networkx.MultiDiGraph
        Missing values (NaN, NaT, <NA>) become ``None``, date columns :class:`datetime.date`:
        ``from_edgelist(to_edgelist(G), nodes=to_nodelist(G))`` equals ``G``.

    Raises
    ------
    regkit.errors.ValidationError
        A named column is missing (``relation`` too, when there is no key column): the message names the missing
        columns and the frame's.
    """
    from ._frames import to_python

    graph = empty_graph(create_using)
    if nodes is not None:
        extra = [c for c in nodes.columns if c not in NODE_COLUMNS and c != node]
        for record in nodes.to_dict("records"):
            graph.add_node(to_python(record[node]), **_node_attrs(record, extra))
    has_key = edge_key is not None and edge_key in edges.columns
    needed = (source, target) + (("relation",) if not has_key else ())
    missing = [name for name in needed if name not in edges.columns]
    if missing:
        raise ValidationError(
            f"from_edgelist needs the column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}; "
            f"the edge list has {[str(c) for c in edges.columns]}",
            suggestion="pass the frame regkit.graph.to_edgelist(G) returned or a relation frame "
            "(regkit.frames.links(companies)): source, target and relation columns; name other endpoint columns "
            "with source= and target=",
        )
    skip = {source, target, edge_key}
    names = [c for c in (edges.columns if edge_attr is None else edge_attr) if c not in skip]
    for record in edges.to_dict("records"):
        values = {name: to_python(record.get(name), name in DATE_ATTRIBUTES) for name in names}
        attrs = dict.fromkeys(edge_attribute_names(values.get("relation")))
        attrs.update(values)
        if attrs["relation"] != OWNERSHIP:
            for name in OWNERSHIP_ATTRIBUTES:
                if name in attrs and attrs[name] is None:
                    del attrs[name]
        u, v = to_python(record[source]), to_python(record[target])
        key = to_python(record[edge_key]) if has_key else None
        graph.add_edge(u, v, key=_free_key(graph, u, v, _schema_key(attrs) if key is None else key), **attrs)
    return graph


def _schema_key(attrs: dict[str, Any]) -> str:
    """The key :func:`from_companies` gives an edge with these attributes (:func:`regkit.graph.schema.edge_key`)."""
    relation = attrs["relation"]
    day = attrs["valid_from"] if relation in (REPRESENTATION, OWNERSHIP) else attrs["registration_date"]
    return make_edge_key(relation, attrs.get("relation_type") if relation == OWNERSHIP else attrs["role"], to_date(day))


def _free_key(graph: nx.MultiDiGraph, u: Any, v: Any, key: Any) -> Any:
    """``key``, or ``key/2``, ``key/3``, ... when another edge between ``u`` and ``v`` already holds it: every row
    is an edge, and a key only labels it."""
    free, n = key, 1
    while graph.has_edge(u, v, free):
        n += 1
        free = f"{key}/{n}"
    return free
