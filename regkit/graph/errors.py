"""The error a graph question raises for a company (or person) the graph does not hold."""

from __future__ import annotations

from typing import Any

import networkx as nx

from regkit.errors import RegkitError

from .schema import COMPANY

__all__ = ["NotInGraphError", "check_node"]


class NotInGraphError(RegkitError, nx.NodeNotFound, ValueError):
    """A company id (or person) asked about is not a node of the graph.

    A :class:`regkit.RegkitError` and a :class:`networkx.NodeNotFound`, so ``except nx.NodeNotFound``
    written against networkx keeps working; also a ``ValueError``, as the plots raised before they raised this. Its ``suggestion`` names the graph's companies and the crawl that
    brings the missing one in.

    Attributes
    ----------
    node : str
        The id that was asked about.
    """

    def __init__(self, message: str, *, node: Any = None, **kwargs: Any) -> None:
        self.node = node
        super().__init__(message, **kwargs)

    def _fields(self) -> dict[str, Any]:
        return {**super()._fields(), "node": self.node}


def check_node(G: nx.MultiDiGraph, node: Any, what: str = "company_id") -> None:
    """Raise :class:`NotInGraphError` unless ``node`` is a node of ``G``.

    Parameters
    ----------
    G : networkx.MultiDiGraph
    node : str
        The id asked about.
    what : str
        The parameter's name, for the message.

    Raises
    ------
    NotInGraphError
        ``node`` is not in ``G``; the message says how many companies ``G`` has, names one, and gives the crawl
        that adds ``node``.
    """
    try:
        if node in G:
            return
    except TypeError:  # unhashable: no node can be it
        pass
    companies = sorted(str(n) for n, kind in G.nodes(data="kind") if kind == COMPANY)
    example = f", e.g. {companies[0]!r}" if companies else ""
    report = G.graph.get("crawl")
    stopped = getattr(report, "stopped", None)
    if isinstance(stopped, str) and stopped.startswith("budget"):
        skipped = node in (getattr(report, "skipped", None) or ())
        raise NotInGraphError(
            f"{what} {node!r} is not in the graph: the crawl that made it stopped at its budget "
            f"{'before fetching it' if skipped else 'before reaching it'} ({stopped}; the graph holds "
            f"{len(companies)} {'company' if len(companies) == 1 else 'companies'})",
            node=node,
            suggestion="crawl again with a larger budget= (or a client with more budget left): what the first crawl "
            "fetched is cached, so only the rest is paid",
        )
    raise NotInGraphError(
        f"{what} {node!r} is not in the graph",
        node=node,
        suggestion=f"pass one of its {len(companies)} companies{example}, or crawl it first "
        f"(regkit.crawl(client, {node!r}), or direction='down' from its parent)",
    )
