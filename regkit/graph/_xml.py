"""What XML keeps of a string, for the GraphML and GEXF writers of :mod:`regkit.graph.readwrite`.

* A carriage return survives: an XML parser turns a raw ``\\r`` (and ``\\r\\n``) in text into ``\\n``,
  so the writers store it as the character reference ``&#13;`` (networkx's ElementTree writer leaves it
  raw in element text; its lxml writer already escapes it). Tabs, newlines, leading and trailing spaces
  and characters beyond the Basic Multilingual Plane survive as they are.
* Characters XML 1.0 cannot hold at all — control characters other than tab, newline and carriage
  return (``\\x00``, ``\\x0b``, ``\\x1b``, ...), lone surrogates, ``\\ufffe`` and ``\\uffff`` — are refused
  with a :class:`~regkit.errors.ValidationError` naming the node or edge, the attribute and the
  character, before anything is written: no file is ever written that cannot be read back. Node-link
  JSON (:func:`~regkit.graph.write_node_link`) holds every character.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import networkx as nx

from regkit.errors import ValidationError

__all__ = ["check_xml", "read_gexf_multigraph", "write_xml"]

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _check(value: Any, where: str) -> None:
    if isinstance(value, str) and (bad := _NOT_XML.search(value)) is not None:
        char = bad.group()
        raise ValidationError(
            f"{where} holds the character U+{ord(char):04X} ({char!r}) at position {bad.start()}, which XML 1.0 "
            "(GraphML, GEXF) cannot store",
            suggestion="remove or replace it (e.g. value.replace(" + repr(char) + ", ' ')), or write node-link "
            "JSON with write_node_link, which keeps every character",
        )


def check_xml(G: nx.MultiDiGraph) -> None:
    """Refuse a graph holding a string XML 1.0 cannot store (see the module docstring).

    Raises
    ------
    regkit.ValidationError
        Naming the node, edge or graph attribute and the character.
    """
    for name, value in G.graph.items():
        _check(name, "a graph attribute name")
        _check(value, f"graph attribute {name!r}")
    for node, attrs in G.nodes(data=True):
        _check(node, f"node id {node!r}")
        for name, value in attrs.items():
            _check(name, f"an attribute name of node {node!r}")
            _check(value, f"node {node!r} attribute {name!r}")
    for u, v, key, attrs in G.edges(keys=True, data=True):
        _check(key, f"the key of edge {(u, v)!r}")
        for name, value in attrs.items():
            _check(name, f"an attribute name of edge {(u, v, key)!r}")
            _check(value, f"edge {(u, v, key)!r} attribute {name!r}")


@nx.utils.open_file(1, mode="wb")
def _write_bytes(data: bytes, path: Any) -> None:
    path.write(data)


def write_xml(write: Callable[..., None], G: nx.MultiDiGraph, path: Any, **kwargs: Any) -> None:
    """``write(G, buffer, **kwargs)`` (a networkx XML writer) into memory, carriage returns escaped, then
    to ``path`` (a path — ``.gz`` / ``.bz2`` compressed as networkx does — or a binary file)."""
    check_xml(G)
    buffer = io.BytesIO()
    write(G, buffer, **kwargs)
    encoding = kwargs.get("encoding", "utf-8")
    text = buffer.getvalue().decode(encoding).replace("\r", "&#13;")
    _write_bytes(text.encode(encoding), path)


class _MultiGEXFReader(nx.readwrite.gexf.GEXFReader):
    """networkx's GEXF reader, but always a multigraph: it turns a graph without parallel edges into a
    ``DiGraph``, which drops the edge keys (written as ``networkx_key``)."""

    def add_edge(self, G: Any, edge_element: Any, edge_attr: Any) -> None:
        super().add_edge(G, edge_element, edge_attr)
        self.simple_graph = False


@nx.utils.open_file(0, mode="rb")
def read_gexf_multigraph(path: Any) -> nx.MultiDiGraph:
    """A GEXF file (path — ``.gz`` / ``.bz2`` too — or binary file) as a multigraph with its edge keys."""
    return _MultiGEXFReader(node_type=str)(path)
