"""Every graph question taking a company id answers an id the graph lacks with a regkit error and the crawl hint."""

from __future__ import annotations

import pickle
from typing import Any

import networkx as nx
import pytest

import regkit.graph as graph
from regkit import RegkitError
from regkit.graph import NotInGraphError, from_companies

MISSING = "DE-HRB-B1204-999"

#: every public function of regkit.graph whose second parameter is a company id, with what else it needs
CALLS: dict[str, tuple[Any, ...]] = {
    "controlling_parents": (),
    "control_chain": (),
    "ultimate_parent": (),
    "organkreis": (),
    "controlled_companies": (),
    "subsidiaries": (),
    "merger_history": (),
    "effective_shares": (),
    "ubos": (),
    "ubo_cross_check": ({"company_id": MISSING, "ubos": []}, {"ubos": []}),
}


def test_every_function_taking_a_company_id_is_listed() -> None:
    import inspect

    taking = {
        name
        for name in graph.__all__
        if inspect.isfunction(getattr(graph, name))
        and list(inspect.signature(getattr(graph, name)).parameters)[:2] == ["G", "company_id"]
        and name != "add_ownership_history"  # adds the company: an unknown id is its normal input
    }
    assert taking == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_unknown_id_raises_a_regkit_error_with_the_crawl(name: str, make_company: Any) -> None:
    G = from_companies([make_company(1), make_company(2)])
    with pytest.raises(NotInGraphError) as caught:
        getattr(graph, name)(G, MISSING, *CALLS[name])
    error = caught.value
    assert isinstance(error, RegkitError) and isinstance(error, nx.NodeNotFound)
    text = str(error)
    assert MISSING in text and f"regkit.crawl(client, {MISSING!r})" in text
    assert "one of its 2 companies, e.g. 'DE-HRB-B1204-1'" in text  # the two made above, the first by id
    assert error.node == MISSING


def test_except_node_not_found_still_catches_it(make_company: Any) -> None:
    G = from_companies([make_company(1)])
    try:
        graph.subsidiaries(G, MISSING)
    except nx.NodeNotFound as error:
        assert "crawl" in str(error)
    else:  # pragma: no cover - the call must raise
        pytest.fail("subsidiaries of a missing company returned")


def test_an_empty_graph_says_it_has_no_companies() -> None:
    with pytest.raises(NotInGraphError, match="pass one of its 0 companies, or crawl it first"):
        graph.ultimate_parent(nx.MultiDiGraph(), MISSING)


def test_the_error_survives_pickling(make_company: Any) -> None:
    with pytest.raises(NotInGraphError) as caught:
        graph.merger_history(from_companies([make_company(1)]), MISSING)
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is NotInGraphError and str(again) == str(caught.value) and again.node == MISSING
