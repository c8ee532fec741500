"""Corporate group structures as time-aware networkx graphs.

Build a graph from company records (:func:`from_companies`, with holdings for ownership) or by
crawling the interface (:func:`crawl`: up along the links records list, or down a group through its
holdings) — or climb one company's chain of control to its parent, cost estimated first (:func:`climb`,
:func:`estimate_climb_cost`); ask it the questions analysts ask of a group in one call each (:func:`as_of`,
:func:`organkreis`, :func:`ultimate_parent`, :func:`subsidiaries`, :func:`merger_history`,
:func:`interlocks`); move it to DataFrames (:func:`to_edgelist` / :func:`from_edgelist`) and files
(GraphML, GEXF, node-link JSON). The graph's shape — node kinds, relations, directions, dates — is
defined in :mod:`regkit.graph.schema`; who counts as the same person in :mod:`regkit.graph.persons`; what
counts as control in :mod:`regkit.graph.control`; validity in time in :mod:`regkit.graph.timeline`;
the file encoding in :mod:`regkit.graph.readwrite`. Drawing lives above, in ``regkit.plot.group``
(:func:`layered_layout` here gives its positions without matplotlib).

Examples
--------
>>> from regkit.local.world import read_world
>>> from regkit.graph import from_companies, organkreis, ultimate_parent
>>> G = from_companies(read_world().companies)
>>> top, members = organkreis(G, "DE-HRB-R2103-158659")
>>> top, len(members)
('DE-HRB-R2103-65834', 3)
>>> ultimate_parent(G, "DE-HRB-R2103-158659")
'DE-HRB-R2103-65834'
"""

from regkit._lazy import wrap_exports as _wrap_exports

from ._input import explained as _explained
from .beneficial import add_ownership_history, effective_shares, ubo_cross_check, ubos
from .boards import SERVING_ROLES, interlocks
from .build import from_companies
from .climbing import Climb, ClimbEstimate, climb, estimate_climb_cost
from .control import (
    Organkreis,
    control_chain,
    controlled_companies,
    controlling_parents,
    organkreis,
    ultimate_parent,
)
from .crawler import DIRECTIONS, crawl, downward_links, linked_companies
from .edgelist import from_edgelist, to_edgelist, to_nodelist
from .errors import NotInGraphError
from .layout import control_layers, layered_layout
from .mergers import merger_history
from .readwrite import (
    node_link_data,
    node_link_graph,
    read_gexf,
    read_graphml,
    read_node_link,
    write_gexf,
    write_graphml,
    write_node_link,
)
from .report import CrawlReport, LevelEstimate
from .schema import OWNERSHIP, RELATIONS
from .subsidiaries import subsidiaries
from .timeline import as_of

__all__ = [
    "DIRECTIONS",
    "OWNERSHIP",
    "RELATIONS",
    "SERVING_ROLES",
    "Climb",
    "ClimbEstimate",
    "CrawlReport",
    "LevelEstimate",
    "NotInGraphError",
    "Organkreis",
    "as_of",
    "climb",
    "estimate_climb_cost",
    "control_chain",
    "control_layers",
    "controlled_companies",
    "controlling_parents",
    "crawl",
    "from_companies",
    "from_edgelist",
    "interlocks",
    "layered_layout",
    "linked_companies",
    "downward_links",
    "merger_history",
    "node_link_data",
    "node_link_graph",
    "organkreis",
    "read_gexf",
    "read_graphml",
    "read_node_link",
    "subsidiaries",
    "to_edgelist",
    "to_nodelist",
    "ultimate_parent",
    "write_gexf",
    "write_graphml",
    "write_node_link",
    # issue 23: ownership dated by shareholder lists, beneficial owners from the graph and their cross-check
    "add_ownership_history",
    "effective_shares",
    "ubo_cross_check",
    "ubos",
]

_wrap_exports(__name__, _explained)  # a wrong argument, a mistyped keyword: an ArgumentError saying what to pass
