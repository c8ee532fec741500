"""What the cache already knows, said for free: which search results' holdings are cached, and the names the owners
and holdings answers leave out (the company owned, the holder), filled from cached records.

Expected ids and names come from the bundled world (``shareholdings`` rows, company and person records); credits
from the register's own ``GET /v1/credits``; requests from the register's counter.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

TOP = "DE-HRB-X1517-62135KI"  # Waldstein Holding GmbH, group G017's Organträger (data/README.md)


def _held_by(world: Any, holder: str) -> list[dict[str, Any]]:
    return [r for r in world.shareholdings if r["holder_id"] == holder]


def test_search_results_say_whose_holdings_are_cached(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    before = client.search_companies("Waldstein", per_page=100).to_dataframe()
    assert TOP in set(before["company_id"]) and not before["holdings_cached"].any()
    assert str(before["holdings_cached"].dtype) == "bool"
    client.get_holdings(TOP)
    spent, sent = inprocess.used(), inprocess.counter.counted[:]
    after = client.search_companies("Waldstein", per_page=100)  # the page is cached: the marker is read anew
    frame = after.to_dataframe()
    assert frame.loc[frame["holdings_cached"], "company_id"].tolist() == [TOP]
    assert after.holdings_cached == frozenset({TOP})
    assert inprocess.used() == spent and inprocess.counter.counted == sent  # the marker cost nothing, sent nothing
    every = client.search_all_companies("Waldstein", progress=False).to_dataframe()
    assert every.loc[every["holdings_cached"], "company_id"].tolist() == [TOP]
    suggested = client.autocomplete_companies("Waldstein Hol").to_dataframe()
    assert suggested.loc[suggested["holdings_cached"], "company_id"].tolist() == [TOP]


def test_a_record_built_by_hand_has_no_marker(inprocess: Any) -> None:
    from regkit.client import CompanySearchPage

    page = inprocess.client().search_companies("Waldstein")
    assert "holdings_cached" not in CompanySearchPage(page.raw).to_dataframe().columns


def test_owners_and_holdings_are_named_from_cached_records(inprocess: Any, world: Any) -> None:
    held = _held_by(world, TOP)
    member = next(r["company_id"] for r in held if r["end"] is None)
    owners_of_member = [r for r in world.shareholdings if r["company_id"] == member and r["end"] is None]
    client = inprocess.client()

    holdings = client.get_holdings(TOP).to_dataframe()
    assert holdings["holder_name"].isna().all()  # the answer does not name its holder, the cache knows nothing yet
    assert client.get_owners(member).to_dataframe()["company_name"].isna().all()

    client.get_company(TOP)
    client.get_company(member)
    spent = inprocess.used()
    holdings = client.get_holdings(TOP).to_dataframe()
    assert (holdings["holder_name"] == world.companies[TOP]["name"]["name"]).all() and len(holdings) == len(held)
    owners = client.get_owners(member).to_dataframe()
    assert (owners["company_name"] == world.companies[member]["name"]["name"]).all()
    assert len(owners) == len(owners_of_member)
    assert inprocess.used() == spent  # names come from the cache: nothing paid


def test_a_persons_holdings_are_named_from_the_cached_person(inprocess: Any, world: Any) -> None:
    person = next(r["holder_id"] for r in sorted(world.shareholdings, key=str) if r["holder_type"] == "natural_person")
    expected = {r["holder_name"] for r in world.shareholdings if r["holder_id"] == person}
    client = inprocess.client()
    assert client.get_person_holdings(person).to_dataframe()["holder_name"].isna().all()
    client.get_person(person)
    frame = client.get_person_holdings(person).to_dataframe()
    assert set(frame["holder_name"]) == expected and len(expected) == 1


def test_owners_of_several_companies_name_each_other(world: Any) -> None:
    """Given together, owners answers name a company where another answer lists it as an owner (and holdings
    answers a holder where another lists it as held)."""
    from regkit.frames import holdings, owners

    owned = {r["company_id"] for r in world.shareholdings if r["end"] is None}
    parent_row = next(  # a company holding another, and owned itself (so its owners answer has rows)
        r
        for r in world.shareholdings
        if r["holder_type"] == "legal_person" and r["end"] is None and r["holder_id"] in owned
    )
    child, parent = parent_row["company_id"], parent_row["holder_id"]

    def owners_answer(company: str) -> dict[str, Any]:
        return {
            "company_id": company,
            "best_available": False,
            "sources": [],
            "owners": [
                {
                    "id": r["holder_id"],
                    "name": r["holder_name"],
                    "type": r["holder_type"],
                    "relation_type": r["relation_type"],
                    "nominal_share": r["nominal_share"],
                    "percentage_share": r["share"] * 100,
                    "start": r["start"],
                }
                for r in world.shareholdings
                if r["company_id"] == company and r["end"] is None
            ],
        }

    frame = owners([owners_answer(child), owners_answer(parent)])
    named = frame.drop_duplicates("company_id").set_index("company_id")["company_name"]
    assert pd.isna(named[child]) and named[parent] == parent_row["holder_name"]
    assert owners(owners_answer(child), names={child: "X GmbH"})["company_name"].eq("X GmbH").all()

    def holdings_answer(holder: str) -> dict[str, Any]:
        rows = [r for r in world.shareholdings if r["holder_id"] == holder]
        return {
            "company_id": holder,
            "holdings": [
                {
                    "company_id": r["company_id"],
                    "name": world.companies[r["company_id"]]["name"]["name"],
                    "relation_type": r["relation_type"],
                    "nominal_share": r["nominal_share"],
                    "percentage_share": r["share"],
                    "start": r["start"],
                    "end": r["end"],
                }
                for r in rows
            ],
        }

    if _held_by(world, child):
        frame = holdings([holdings_answer(parent), holdings_answer(child)])
        names = frame.drop_duplicates("holder_id").set_index("holder_id")["holder_name"]
        assert names[child] == world.companies[child]["name"]["name"] and pd.isna(names[parent])
