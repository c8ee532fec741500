"""Beneficial owners from a graph, ownership dated by shareholder lists, and the cross-check — on small graphs whose
answers are worked out by hand (the example of docs/interface.md: Paula 59.5 %, Quirin 23 %, Rita 17.5 %)."""

from __future__ import annotations

import pandas as pd
import pytest

from regkit.graph import add_ownership_history, as_of, effective_shares, from_companies, ubo_cross_check, ubos

A, B, C = "DE-HRB-B1204-1", "DE-HRB-B1204-2", "DE-HRB-B1204-3"


def _holdings(holder, rows, person=False):
    key = "person_id" if person else "company_id"
    return {
        key: holder,
        "holdings": [
            {
                "company_id": cid,
                "name": None,
                "percentage_share": share,
                "nominal_share": None,
                "start": "2010-01-01",
                "end": None,
                "relation_type": kind,
            }
            for cid, share, kind in rows
        ],
    }


@pytest.fixture
def example():
    """A: 40 % B, 35 % C, 25 % Paula; B: 60 % Paula, 40 % Quirin; C: 50 % B, 50 % Rita."""
    return from_companies(
        [],
        holdings=[
            _holdings(B, [(A, 0.40, "shareholder"), (C, 0.50, "shareholder")]),
            _holdings(C, [(A, 0.35, "shareholder")]),
            _holdings("paula", [(A, 0.25, "shareholder"), (B, 0.60, "shareholder")], person=True),
            _holdings("quirin", [(B, 0.40, "shareholder")], person=True),
            _holdings("rita", [(C, 0.50, "shareholder")], person=True),
        ],
    )


def test_shares_multiply_along_chains_and_add_up_over_them(example):
    shares = effective_shares(example, A)
    assert {p: round(s, 6) for p, (s, _) in shares.items()} == {"paula": 0.595, "quirin": 0.23, "rita": 0.175}
    frame = ubos(example, A)
    assert frame["person"].tolist() == ["paula"] and frame["percentage"].tolist() == [59.5]
    assert frame["share"].tolist() == [0.595]  # the same as a fraction, as every frame gives shares
    assert {str(t) for t in frame.dtypes} == {"str", "datetime64[us]", "Float64", "bool"}


def test_exactly_a_quarter_is_no_beneficial_owner_and_a_partner_s_stake_is_a_maximum():
    G = from_companies(
        [],
        holdings=[
            _holdings("ida", [(A, 0.25, "shareholder")], person=True),
            _holdings("eva", [(A, 0.75, "limited_partner")], person=True),
        ],
    )
    frame = ubos(G, A)
    assert frame["person"].tolist() == ["eva"] and frame["fixed"].tolist() == [False]


def _history(*owners):
    return {
        "owners": [
            {
                "id": oid,
                "name": name,
                "entity_type": "natural_person",
                "country": "DE",
                "status": "active",
                "first_appearance": entries[0][0],
                "last_appearance": None,
                "ownership_history": [
                    {
                        "document_id": f"d-{day}",
                        "document_date": day,
                        "nominal_shares": round(p * 250),
                        "percentage_shares": p,
                    }
                    for day, p in entries
                ],
            }
            for oid, name, entries in owners
        ]
    }


def test_lists_date_the_edges_and_replace_the_holdings(example):
    answer = _history(
        ("paula", "Paula Roth", [("2012-01-01", 100.0), ("2018-01-01", 60.0), ("2020-01-01", 60.0)]),
        ("quirin", "Quirin Lenz", [("2018-01-01", 40.0)]),
        ("rita", "Rita Kaya", [("2020-01-01", 40.0)]),
    )
    add_ownership_history(example, A, answer)

    def held(day):
        return sorted((u, d["share"]) for u, _, d in as_of(example, day).in_edges(A, data=True))

    assert held("2011-12-31") == []
    assert held("2015-06-30") == [("paula", 1.0)]
    assert held("2019-01-01") == [("paula", 0.6), ("quirin", 0.4)]
    assert held("2021-01-01") == [("paula", 0.6), ("rita", 0.4)]
    # one edge for Paula's unchanged 60 % across two lists; the holdings' edges into A are gone
    into_a = [(u, d["valid_from"].isoformat(), d["valid_to"]) for u, _, d in example.in_edges(A, data=True)]
    assert sorted(into_a, key=str) == sorted(
        [
            ("paula", "2012-01-01", pd.Timestamp("2018-01-01").date()),
            ("paula", "2018-01-01", None),
            ("quirin", "2018-01-01", pd.Timestamp("2020-01-01").date()),
            ("rita", "2020-01-01", None),
        ],
        key=str,
    )
    assert ubos(example, A, date="2019-01-01")["person"].tolist() == ["paula", "quirin"]
    with pytest.raises(TypeError, match="ownership-history answer"):
        add_ownership_history(example, A, {"ubos": []})


def test_the_cross_check_flags_each_difference(example):
    example.nodes["paula"].update(name="Paula Roth", date_of_birth=pd.Timestamp("1970-05-01").date())
    service = {
        "company_id": A,
        "ubos": [
            {
                "id": "paula",
                "name": "Paula Roth",
                "natural_person": {"date_of_birth": "1970-05-01"},
                "legal_person": None,
                "percentage_share": 59.5,
                "max_percentage_share": None,
            },
            {
                "id": "x",
                "name": "Dora Director",
                "natural_person": {},
                "legal_person": None,
                "percentage_share": None,
                "max_percentage_share": None,
            },  # fictitious: not compared
        ],
    }
    extract = {
        "id": "tre_1",
        "status": "completed",
        "report": {
            "ubos": [
                {
                    "position": 1,
                    "natural_person": {"full_name": "PAULA ROTH", "date_of_birth": "1970-05-01"},
                    "interest": {"type": "ownership", "scope": "direct_and_indirect", "percentage": 59.5},
                },
                {
                    "position": 2,
                    "natural_person": {"full_name": "Quirin Lenz", "date_of_birth": None},
                    "interest": {"type": "ownership", "scope": "indirect", "percentage": 26.0},
                },
            ]
        },
    }
    frame = ubo_cross_check(example, A, service, extract)
    assert frame["name"].tolist() == ["Paula Roth", "Quirin Lenz"]
    assert frame["differs"].tolist() == [False, True]
    assert frame["extract_differs"].tolist() == [False, True] and not frame["service_differs"].any()
    assert frame["person_id"].isna().tolist() == [False, True]  # the extract gives no id
    # a share off by more than the extract's rounding is a difference too
    extract["report"]["ubos"][0]["interest"]["percentage"] = 59.0
    assert ubo_cross_check(example, A, service, extract)["extract_differs"].tolist() == [True, True]
    with pytest.raises(ValueError, match="no report yet"):
        ubo_cross_check(example, A, service, {"id": "tre_2", "status": "processing", "report": None})
