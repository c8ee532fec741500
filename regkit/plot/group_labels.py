"""Short, unique labels for the nodes of a group drawing, and their line breaks at word boundaries.

A label is the node's name, shortened at a word boundary (never inside a word) when it is long. Where two
drawn nodes would read the same, each gets what tells them apart: a company its register number
("Blauwerk Projekte GmbH (HRB 12345 B)"), then its city; a person the year of birth; anything still equal
its id. Both :func:`regkit.plot.group` and :func:`regkit.plot.group_interactive` label nodes this way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import networkx as nx

from regkit.graph.errors import check_node
from regkit.graph.schema import COMPANY, NATURAL_PERSON

from .inputs import GRAPH, check_input

__all__ = ["register_number", "shorten", "short_labels", "text_width", "wrap_words"]

_TOKEN = re.compile(r"\([^)]*\)\S*|\S+")
_ID = re.compile(r"^DE-(?P<type>[A-Za-z]+)-(?P<court>[A-Z][0-9]{4})-(?P<number>[0-9]+)(?P<suffix>[A-Z]{0,2})$")


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of ``text`` in points at ``size`` (the default font, as matplotlib renders it)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    width, _, _ = TextToPath().get_text_width_height_descent(text, FontProperties(size=size, weight=weight), False)
    return float(width)


def register_number(company_id: str) -> str | None:
    """The register entry a company id stands for, as the register writes it: type, number, suffix.

    Examples
    --------
    >>> register_number("DE-HRB-X1517-62135KI")
    'HRB 62135 KI'
    >>> register_number("DE-HRA-F1103-4711"), register_number("legal:Acme|Berlin|DE")
    ('HRA 4711', None)
    """
    match = _ID.match(company_id)
    if match is None:
        return None
    return " ".join(p for p in (match["type"], match["number"], match["suffix"]) if p)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut at the last word boundary that keeps it within ``limit`` characters, with "…".

    Examples
    --------
    >>> shorten("Gesundheitszentrum am Stadtpark Verwaltungs- und Beteiligungsgesellschaft mbH", 40)
    'Gesundheitszentrum am Stadtpark…'
    >>> shorten("Waldstein Holding GmbH")
    'Waldstein Holding GmbH'
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    words, kept = text.split(" "), ""
    for word in words:
        if len(kept) + len(word) + (1 if kept else 0) > limit - 1:
            break
        kept = f"{kept} {word}" if kept else word
    return (kept or words[0][: limit - 1]).rstrip(",;:-") + "…"


def short_labels(G: nx.MultiDiGraph, nodes: Iterable[str] | None = None, limit: int = 40) -> dict[str, str]:
    """Node → a short label, unique among ``nodes`` (default: all of ``G``); see the module docstring.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A group graph (:mod:`regkit.graph.schema`).
    nodes : iterable of str, optional
        The nodes drawn: labels are unique among them.
    limit : int
        Names longer than this are cut at a word boundary (the suffix that tells names apart is added after).

    Returns
    -------
    dict
        Node → label, in the order of ``nodes``.

    Raises
    ------
    regkit.errors.ArgumentError
        ``G`` is not a graph.
    regkit.graph.NotInGraphError
        A node of ``nodes`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("DE-HRB-B1204-1", kind="company", name="Blauwerk Projekte GmbH", city="Berlin")
    >>> G.add_node("DE-HRB-B1204-2", kind="company", name="Blauwerk Projekte GmbH", city="Berlin")
    >>> G.add_node("DE-HRB-B1204-3", kind="company", name="Blauwerk AG", city="Berlin")
    >>> short_labels(G)
    {'DE-HRB-B1204-1': 'Blauwerk Projekte GmbH (HRB 1)', 'DE-HRB-B1204-2': 'Blauwerk Projekte GmbH (HRB 2)', \
'DE-HRB-B1204-3': 'Blauwerk AG'}
    """
    _, G = check_input(G, "short_labels", GRAPH)
    chosen = list(G) if nodes is None else [nodes] if isinstance(nodes, str) else list(nodes)
    for node in chosen:
        check_node(G, node, "node")
    labels = {n: shorten(str(G.nodes[n].get("name") or n), limit) for n in chosen}
    for extra in (_first_detail, _second_detail, lambda n, a: n):
        repeated = {text for text, count in Counter(labels.values()).items() if count > 1}
        for node in [n for n in chosen if labels[n] in repeated]:
            detail = extra(node, G.nodes[node])
            if detail:
                labels[node] = f"{labels[node]} ({detail})"
    return labels


def _first_detail(node: str, attrs: dict[str, Any]) -> str | None:
    if attrs.get("kind") == COMPANY:
        return register_number(node)
    if attrs.get("kind") == NATURAL_PERSON and attrs.get("date_of_birth") is not None:
        return f"b. {attrs['date_of_birth'].year}"
    return attrs.get("city")


def _second_detail(node: str, attrs: dict[str, Any]) -> str | None:
    return attrs.get("city") if attrs.get("kind") in (COMPANY, NATURAL_PERSON) else None


def wrap_words(text: str, fits: Callable[[str], bool], max_lines: int = 4) -> list[str]:
    """Break ``text`` into lines at spaces only, each line as long as ``fits`` allows.

    A part in parentheses ("(HRB 12345 B)") is kept on one line. A word that does not fit on a line of its own stays whole on its own line (the caller shrinks the
    font); lines beyond ``max_lines`` are dropped and the last one kept ends in "…".

    Examples
    --------
    >>> wrap_words("Waldstein Facility Management GmbH (HRB 1 KI)", lambda line: len(line) <= 18)
    ['Waldstein Facility', 'Management GmbH', '(HRB 1 KI)']
    >>> wrap_words("Gesundheitszentrum GmbH", lambda line: len(line) <= 10)
    ['Gesundheitszentrum', 'GmbH']
    """
    lines: list[str] = []
    for word in _TOKEN.findall(text):
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1].rstrip(",;:-") + "…"
    return lines
