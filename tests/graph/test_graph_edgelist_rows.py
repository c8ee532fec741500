"""``from_edgelist`` keeps every row of an edge list: a key is only a label (issue 24: a register that lists the same
officer twice lost an edge when the edge list had no key column)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from regkit.graph import from_companies, from_edgelist, to_edgelist

pytestmark = pytest.mark.slow


def test_an_officer_listed_twice_keeps_both_edges_through_an_edge_list_without_keys(make_company: Any) -> None:
    # The same director twice, the name split differently into first and last name (as real registers have it):
    # two entries, two edges in the graph; in the edge list (edge attributes only) the two rows are identical.
    twice = make_company.person(None, "Anna Maria Berg", born=None, city=None)
    split = dict(twice, natural_person=dict(twice["natural_person"], first_name="Anna Maria", last_name="Berg"))
    G = from_companies([make_company(1, representation=[twice, split])])
    frame = to_edgelist(G).drop(columns=["key"])
    assert len(frame) == 2 and frame.duplicated().sum() == 1
    assert from_edgelist(frame).number_of_edges() == len(frame)


def test_edges_equal_rows_with_duplicates_present(world_graph: Any) -> None:
    frame = to_edgelist(world_graph)
    rows = pd.concat([frame, frame.iloc[::7], frame.iloc[::50]], ignore_index=True)  # some rows twice, some thrice
    assert rows.duplicated().sum() == len(frame.iloc[::7]) + len(frame.iloc[::50])
    without_keys = rows.drop(columns=["key"])
    for H in (from_edgelist(without_keys), from_edgelist(without_keys, edge_key=None), from_edgelist(rows)):
        assert H.number_of_edges() == len(rows)
    # the rows once: exactly the graph's edges and keys again
    H = from_edgelist(frame.drop(columns=["key"]))
    assert sorted(H.edges(keys=True)) == sorted(world_graph.edges(keys=True))
    # a repeated row is labelled <key>/2, <key>/3 beside the first one's key
    u, v, key = frame.loc[0, ["source", "target", "key"]]
    tripled = from_edgelist(pd.concat([frame.iloc[[0]]] * 3, ignore_index=True))
    assert sorted(tripled[u][v]) == sorted([key, f"{key}/2", f"{key}/3"])
