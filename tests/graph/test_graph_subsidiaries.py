"""``subsidiaries``: effective shares over chains of holdings, on graphs built from hand-made holdings answers.

Expected shares are worked out by hand from the holdings below (products along chains, sums over chains).
"""

from __future__ import annotations

import datetime
from typing import Any

import networkx as nx
import pandas as pd
import pytest

from regkit.errors import ValidationError
from regkit.graph import from_companies, subsidiaries

A, B, C, D, E = (f"DE-HRB-B1204-{n}" for n in range(1, 6))
PERSON = "0f8fad5b-d9cb-469f-a165-70867728950e"

DTYPES = {
    "company_id": "str",
    "name": "str",
    "effective_share": "Float64",
    "direct_share": "Float64",
    "depth": "int64",
    "parents": "object",
    "paths": "int64",
}


def holding(
    cid: str, share: float | None, start: str | None = None, end: str | None = None, kind: str = "shareholder"
) -> dict[str, Any]:
    return {
        "company_id": cid,
        "name": f"Firma {cid[-1]} GmbH",
        "relation_type": kind,
        "nominal_share": 25000,
        "percentage_share": share,
        "start": start,
        "end": end,
    }


def answer(holder: str, *holdings: dict[str, Any]) -> dict[str, Any]:
    key = "company_id" if holder.startswith("DE-") else "person_id"
    return {key: holder, "holdings": list(holdings)}


def rows(frame: pd.DataFrame) -> dict[str, tuple[Any, ...]]:
    """company_id → (effective_share, direct_share, depth, parents, paths), NA as None."""

    def value(x: Any) -> Any:
        return None if x is pd.NA else (round(float(x), 12) if isinstance(x, float) else x)

    return {
        r.company_id: (value(r.effective_share), value(r.direct_share), r.depth, r.parents, r.paths)
        for r in frame.itertuples(index=False)
    }


def two_paths() -> nx.MultiDiGraph:
    """A holds B 60 % and C 20 %; B holds C 50 %; C holds D 50 %."""
    return from_companies(
        [],
        holdings=[
            answer(A, holding(B, 0.6), holding(C, 0.2)),
            answer(B, holding(C, 0.5)),
            answer(C, holding(D, 0.5)),
        ],
    )


def test_shares_multiply_along_chains_and_add_up_over_chains() -> None:
    frame = subsidiaries(two_paths(), A)
    assert {c: str(t) for c, t in frame.dtypes.items()} == DTYPES
    assert list(frame["company_id"]) == [B, C, D]  # fewest steps, then largest share
    assert rows(frame) == {
        B: (0.6, 0.6, 1, (A,), 1),
        C: (0.5, 0.2, 1, (A, B), 2),  # 0.2 directly + 0.6 × 0.5 through B
        D: (0.25, None, 2, (C,), 2),  # 0.5 × (0.2 + 0.3)
    }
    assert list(frame["name"]) == ["Firma 2 GmbH", "Firma 3 GmbH", "Firma 4 GmbH"]
    assert rows(subsidiaries(two_paths(), B)) == {C: (0.5, 0.5, 1, (B,), 1), D: (0.25, None, 2, (C,), 1)}
    assert subsidiaries(two_paths(), D).empty


def test_min_share_cuts_by_the_effective_share() -> None:
    G = two_paths()
    assert list(subsidiaries(G, A, min_share=0.5)["company_id"]) == [B, C]  # at least: 0.5 stays
    assert list(subsidiaries(G, A, min_share=0.6)["company_id"]) == [B]
    assert subsidiaries(G, A, min_share=1.0).empty
    assert list(subsidiaries(G, A, min_share=0)["company_id"]) == [B, C, D]


def test_past_holdings_count_only_on_their_dates() -> None:
    G = from_companies(
        [],
        holdings=[
            answer(A, holding(B, 1.0, "2010-01-01", "2020-01-01"), holding(C, 0.7, "2015-01-01")),
            answer(B, holding(D, 0.5, "2012-01-01")),
        ],
    )
    assert list(subsidiaries(G, A)["company_id"]) == [C]  # today: B was sold, so D is not reached
    assert rows(subsidiaries(G, A, date="2016-06-01")) == {
        B: (1.0, 1.0, 1, (A,), 1),
        C: (0.7, 0.7, 1, (A,), 1),
        D: (0.5, None, 2, (B,), 1),
    }
    assert list(subsidiaries(G, A, date=datetime.date(2011, 1, 1))["company_id"]) == [B]  # C and D not yet
    assert list(subsidiaries(G, A, date="2020-01-01")["company_id"]) == [C]  # the end day is excluded
    assert subsidiaries(G, A, date="2009-12-31").empty


def test_cross_holdings_and_cycles_end() -> None:
    G = from_companies(
        [],
        holdings=[
            answer(A, holding(B, 0.5)),
            answer(B, holding(C, 1.0)),
            answer(C, holding(B, 0.3), holding(A, 0.4)),
        ],
    )
    assert rows(subsidiaries(G, A)) == {B: (0.5, 0.5, 1, (A,), 1), C: (0.5, None, 2, (B,), 1)}
    assert rows(subsidiaries(G, B)) == {C: (1.0, 1.0, 1, (B,), 1), A: (0.4, None, 2, (C,), 1)}
    assert rows(subsidiaries(G, C)) == {
        B: (0.5, 0.3, 1, (A, C), 2),  # 0.3 directly + 0.4 × 0.5 through A
        A: (0.4, 0.4, 1, (C,), 1),
    }


def test_a_holding_the_graph_knows_twice_counts_once_and_unknown_shares_stay_unknown(make_company: Any) -> None:
    # C's record lists A as shareholder and A's holdings give the share: one holding, 30 %.
    # D's record lists A as shareholder, and nothing gives a share: unknown, and so is what D holds.
    records = [
        make_company(3, representation=[make_company.legal(1)]),
        make_company(4, representation=[make_company.legal(1)]),
    ]
    G = from_companies(records, holdings=[answer(A, holding(C, 0.3)), answer(D, holding(E, 1.0))])
    assert rows(subsidiaries(G, A)) == {
        C: (0.3, 0.3, 1, (A,), 1),
        D: (None, None, 1, (A,), 1),
        E: (None, None, 2, (D,), 1),
    }
    assert list(subsidiaries(G, A, min_share=0.01)["company_id"]) == [C]  # unknown shares only with min_share=0
    unknown = from_companies([], holdings=[answer(A, holding(B, None), holding(B, 0.2, "2001-01-01"))])
    assert rows(subsidiaries(unknown, A)) == {B: (None, None, 1, (A,), 1)}  # one of two holdings without share


def test_a_person_holds_too() -> None:
    G = from_companies([], holdings=[answer(PERSON, holding(A, 0.8)), answer(A, holding(B, 0.5))])
    assert G.nodes[PERSON]["kind"] == "natural_person" and G.nodes[PERSON]["person_id"] == PERSON
    assert rows(subsidiaries(G, PERSON)) == {A: (0.8, 0.8, 1, (PERSON,), 1), B: (0.4, None, 2, (A,), 1)}


def test_arguments_are_checked() -> None:
    G = two_paths()
    for bad in (-0.1, 1.5, True, "0.5", None):
        with pytest.raises(ValidationError, match="min_share"):
            subsidiaries(G, A, min_share=bad)  # type: ignore[arg-type]
    with pytest.raises(nx.NodeNotFound):
        subsidiaries(G, "DE-HRB-B1204-99")
    empty = subsidiaries(from_companies([], holdings=[answer(A)]), A)
    assert empty.empty and {c: str(t) for c, t in empty.dtypes.items()} == DTYPES
