"""Group graphs in files: GraphML, GEXF and node-link JSON, each with a reader that restores the graph.

The encoding
------------
GraphML and GEXF store strings, numbers and booleans, not dates and not null; JSON has null but no
dates. regkit writes

* **dates** (``valid_from``, ``date_of_birth``, ...) as ISO 8601 strings ``YYYY-MM-DD``;
* **None** by leaving the attribute out of that node or edge (GraphML and GEXF: an absent ``<data>``
  / ``<attvalue>`` — so an empty string stays an empty string), as ``null`` in JSON;
* everything else as it is (``fetched`` is a boolean);
* graph attributes the same way, except ``G.graph["crawl"]`` (the report of a crawl, not part of the
  graph), which is not written. GEXF has no graph attributes: only ``name`` survives there.

The readers (:func:`read_graphml`, :func:`read_gexf`, :func:`read_node_link`,
:func:`node_link_graph`) undo it with the schema of :mod:`regkit.graph.schema`: every attribute of a
node's kind and every edge attribute that is absent comes back as ``None``, and date attributes
come back as :class:`datetime.date`. Edge keys are kept. So ``read_graphml(path)`` after
``write_graphml(G, path)`` equals ``G``. Attributes you added yourself come back as the format
stores them (dates as strings; if ``None``, absent).

GEXF reserves some names: a node attribute ``label``, ``pid``, ``start``, ``end`` or ``viz`` or an
edge attribute ``id``, ``label``, ``start``, ``end`` or ``viz`` raises ``ValidationError`` (a
``ValueError``) in :func:`write_gexf`. The writer gives each node its ``name`` as GEXF label (what Gephi
shows).

Every character
---------------
Strings come back character for character — ``\r\n``, ``\r``, tabs, leading and trailing spaces,
characters beyond the Basic Multilingual Plane. In GraphML and GEXF a carriage return is written as
``&#13;`` (an XML parser would turn a raw one into ``\n``). Characters XML 1.0 cannot hold (control
characters but tab, newline and carriage return; lone surrogates; ``\ufffe``, ``\uffff``) make
:func:`write_graphml` and :func:`write_gexf` raise ``ValidationError`` naming the node or edge and the
attribute, before anything is written; node-link JSON holds them (written ASCII-escaped where UTF-8
cannot encode them: lone surrogates).
"""

from __future__ import annotations

import datetime as _dt
import difflib
import inspect
import json
import os
from typing import IO, Any

import networkx as nx

from regkit.errors import ArgumentError, ValidationError

from ._xml import read_gexf_multigraph, write_xml
from .build import empty_graph
from .schema import DATE_ATTRIBUTES, NODE_ATTRIBUTES, edge_attribute_names

__all__ = [
    "write_graphml",
    "read_graphml",
    "write_gexf",
    "read_gexf",
    "node_link_data",
    "node_link_graph",
    "write_node_link",
    "read_node_link",
]

_SCALARS = (str, bool, int, float)
_NOT_WRITTEN = frozenset({"crawl"})
_GEXF_RESERVED_NODE = frozenset({"label", "pid", "start", "end", "viz"})
_GEXF_RESERVED_EDGE = frozenset({"id", "label", "start", "end", "viz"})
_READER_ARTEFACTS = ("node_default", "edge_default", "mode")


def _encode_value(value: Any, where: str) -> Any:
    if isinstance(value, _dt.date):
        return value.isoformat()
    if value is None or isinstance(value, _SCALARS):
        return value
    raise TypeError(f"{where}: {type(value).__name__} values cannot be written (str, int, float, bool, date, None)")


def _encode_attrs(attrs: dict[str, Any], where: str, keep_none: bool) -> dict[str, Any]:
    out = {}
    for name, value in attrs.items():
        if value is None and not keep_none:
            continue
        out[name] = _encode_value(value, f"{where} attribute {name!r}")
    return out


def _encode(G: nx.MultiDiGraph, keep_none: bool) -> nx.MultiDiGraph:
    H = empty_graph(None)
    H.graph.update(_encode_attrs({k: v for k, v in G.graph.items() if k not in _NOT_WRITTEN}, "graph", keep_none))
    H.add_nodes_from((n, _encode_attrs(attrs, f"node {n!r}", keep_none)) for n, attrs in G.nodes(data=True))
    H.add_edges_from(
        (u, v, k, _encode_attrs(attrs, f"edge {(u, v, k)!r}", keep_none))
        for u, v, k, attrs in G.edges(keys=True, data=True)
    )
    return H


def _decode_value(name: str, value: Any) -> Any:
    if name in DATE_ATTRIBUTES and isinstance(value, str):
        return _dt.date.fromisoformat(value) if value else None
    return value


def _decode(H: nx.Graph, drop_node: tuple[str, ...] = (), drop_edge: tuple[str, ...] = ()) -> nx.MultiDiGraph:
    G = empty_graph(None)
    G.graph.update({k: v for k, v in H.graph.items() if k not in _READER_ARTEFACTS})
    for node, attrs in H.nodes(data=True):
        attrs = {k: v for k, v in attrs.items() if k not in drop_node}
        restored = dict.fromkeys(NODE_ATTRIBUTES.get(attrs["kind"], ()) if "kind" in attrs else ())
        restored.update((k, _decode_value(k, v)) for k, v in attrs.items())
        G.add_node(node, **restored)
    for u, v, key, attrs in H.edges(keys=True, data=True):
        restored = dict.fromkeys(edge_attribute_names(attrs.get("relation")))
        restored.update((k, _decode_value(k, val)) for k, val in attrs.items() if k not in drop_edge)
        G.add_edge(u, v, key=key, **restored)
    return G


def _writer_keywords(name: str, writer: Any, kwargs: dict[str, Any]) -> None:
    """Refuse a keyword the networkx writer does not take before anything is encoded or written: an
    :class:`~regkit.errors.ArgumentError` naming the close one, as a mistyped keyword of any regkit function is."""
    taken = [p for p in inspect.signature(writer).parameters if p not in ("G", "path")]
    for keyword in kwargs:
        if keyword not in taken:
            close = difflib.get_close_matches(keyword, ["G", "path", *taken], n=2, cutoff=0.6)
            hint = f"did you mean {' or '.join(f'{c}=' for c in close)}? " if close else ""
            raise ArgumentError(
                f"{name}() got an unexpected keyword argument {keyword!r}",
                suggestion=f"{hint}{name}(G, path, ...) passes {', '.join(f'{t}=' for t in taken)} to networkx",
            )


def write_graphml(G: nx.MultiDiGraph, path: Any, **kwargs: Any) -> None:
    """Write a group graph as GraphML (dates as ISO strings, ``None`` as absent data).

    Parameters
    ----------
    G : networkx.MultiDiGraph
    path : str, path or binary file
    **kwargs
        Passed to :func:`networkx.write_graphml` (e.g. ``prettyprint=False``).

    Raises
    ------
    TypeError
        For an attribute value that is not a str, int, float, bool, date or None.
    regkit.ValidationError
        For a character XML 1.0 cannot store (see the module docstring); nothing is written.

    Examples
    --------
    >>> import io
    >>> from regkit.graph import from_companies, write_graphml, read_graphml
    >>> G = from_companies([{"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}, "merged_into": {
    ...     "company_id": "DE-HRB-B1204-1", "name": "Alpha AG", "registration_date": "2022-10-12",
    ...     "agreement_date": None}}])
    >>> buffer = io.BytesIO()
    >>> write_graphml(G, buffer)
    >>> _ = buffer.seek(0)
    >>> H = read_graphml(buffer)
    >>> H.edges["DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger"] == G.edges["DE-HRB-B1204-2", "DE-HRB-B1204-1", "merger"]
    True
    """
    _writer_keywords("write_graphml", nx.write_graphml, kwargs)
    write_xml(nx.write_graphml, _encode(G, keep_none=False), path, **kwargs)


def read_graphml(path: Any) -> nx.MultiDiGraph:
    """Read a group graph written by :func:`write_graphml` (``None`` and dates restored).

    Parameters
    ----------
    path : str, path or binary file

    Returns
    -------
    networkx.MultiDiGraph
    """
    return _decode(nx.read_graphml(path, node_type=str, edge_key_type=str, force_multigraph=True))


def write_gexf(G: nx.MultiDiGraph, path: Any, **kwargs: Any) -> None:
    """Write a group graph as GEXF 1.2 (for Gephi), with the encoding of the module docstring.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    path : str, path or binary file
    **kwargs
        Passed to :func:`networkx.write_gexf`.

    Raises
    ------
    TypeError
        For an attribute value that is not a str, int, float, bool, date or None.
    regkit.ValidationError
        For an attribute name GEXF reserves, or a character XML 1.0 cannot store (see the module
        docstring); nothing is written.
    """
    _writer_keywords("write_gexf", nx.write_gexf, kwargs)
    H = _encode(G, keep_none=False)
    for node, attrs in H.nodes(data=True):
        reserved = _GEXF_RESERVED_NODE.intersection(attrs)
        if reserved:
            raise ValidationError(
                f"node {node!r}: GEXF reserves the attribute names {sorted(reserved)}", suggestion="rename them"
            )
        if attrs.get("name") is not None:
            attrs["label"] = str(attrs["name"])
    for u, v, k, attrs in H.edges(keys=True, data=True):
        reserved = _GEXF_RESERVED_EDGE.intersection(attrs)
        if reserved:
            raise ValidationError(
                f"edge {(u, v, k)!r}: GEXF reserves the attribute names {sorted(reserved)}", suggestion="rename them"
            )
    write_xml(nx.write_gexf, H, path, **kwargs)


def read_gexf(path: Any) -> nx.MultiDiGraph:
    """Read a group graph written by :func:`write_gexf` (``None``, dates and keys restored).

    Parameters
    ----------
    path : str, path or binary file

    Returns
    -------
    networkx.MultiDiGraph
    """
    graph = _decode(read_gexf_multigraph(path), drop_node=("label",), drop_edge=("id",))
    if graph.graph.get("name") == "":
        del graph.graph["name"]
    return graph


def node_link_data(G: nx.MultiDiGraph) -> dict[str, Any]:
    """A JSON-ready dict of a group graph (networkx node-link format, ``edges="edges"``).

    Dates become ISO strings; ``None`` stays ``null``; ``G.graph["crawl"]`` is left out.

    Returns
    -------
    dict
        ``{"directed": True, "multigraph": True, "graph": {...}, "nodes": [...], "edges": [...]}``.

    Examples
    --------
    >>> from regkit.graph import from_companies, node_link_data, node_link_graph
    >>> G = from_companies([{"id": "DE-HRB-B1204-2", "name": {"name": "Beta GmbH"}}])
    >>> node_link_data(G)["nodes"][0]["name"]
    'Beta GmbH'
    >>> dict(node_link_graph(node_link_data(G)).nodes(data=True)) == dict(G.nodes(data=True))
    True
    """
    return nx.node_link_data(_encode(G, keep_none=True), edges="edges")


def node_link_graph(data: dict[str, Any]) -> nx.MultiDiGraph:
    """The group graph of a :func:`node_link_data` dict (dates restored)."""
    return _decode(nx.node_link_graph(data, directed=True, multigraph=True, edges="edges"))


def write_node_link(G: nx.MultiDiGraph, path: str | os.PathLike[str] | IO[str], indent: int | None = None) -> None:
    """Write :func:`node_link_data` of ``G`` as JSON (UTF-8) to a path or text file.

    Every string is kept; a graph holding a lone surrogate (which UTF-8 cannot encode) is written with
    non-ASCII characters escaped (``\\uXXXX``), which JSON readers restore. The text is made before the
    file is opened, so a graph that cannot be written leaves no file behind.
    """
    data = node_link_data(G)
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, ensure_ascii=True, indent=indent)
    if hasattr(path, "write"):
        path.write(text)
        return
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def read_node_link(path: str | os.PathLike[str] | IO[str]) -> nx.MultiDiGraph:
    """Read a group graph written by :func:`write_node_link`."""
    if hasattr(path, "read"):
        return node_link_graph(json.loads(path.read()))  # = json.load(path); mypy cannot narrow path by hasattr
    with open(path, encoding="utf-8") as handle:
        return node_link_graph(json.load(handle))
