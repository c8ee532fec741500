"""Crawl economics against the in-process local register, through ``regkit.Client`` with a temporary cache.

The register's own ``GET /v1/credits`` is the referee: what it counts must equal the client ledger and
the crawl report.
"""

from __future__ import annotations

import logging
from typing import Any

import pandas as pd
import pytest

from regkit.errors import BudgetStopWarning
from regkit.graph import LevelEstimate, crawl, from_companies, linked_companies

G065_TOP = "DE-HRB-R2103-65834"  # Luxlog Holding AG


def used(client: Any) -> int:
    return int(client.get_credits().raw["used_credits"])


def group_members(world: Any, top: str) -> list[str]:
    return next(g["members"] for g in world.meta["groups"] if g["organtraeger"] == top)


def network_lookups(client: Any) -> pd.DataFrame:
    ledger = client.ledger
    return ledger[(ledger["call"] == "get_company") & (ledger["source"] == "network")]


def test_each_company_is_paid_once_and_each_estimate_holds(
    make_client: Any, world: Any, assert_same_graph: Any
) -> None:
    seeds = group_members(world, G065_TOP)[5:12] + ["DE-HRB-X1517-153187KI"]
    client = make_client()
    before = used(client)
    G = crawl(client, seeds, depth=3, progress=False)
    report = G.graph["crawl"]
    levels = report.levels
    assert list(levels["level"]) == list(range(len(levels))) and len(levels) >= 3
    assert {c: str(t) for c, t in levels.dtypes.items()} == {
        "level": "int64",
        "ids": "object",
        "companies": "int64",
        "cached": "int64",
        "estimated_credits": "int64",
        "spent_credits": "int64",
        "fetched": "int64",
        "failed": "int64",
        "skipped": "int64",
    }
    assert (levels["estimated_credits"] == levels["spent_credits"]).all()
    assert levels["estimated_credits"].iloc[0] == 10 * len(seeds)

    lookups = network_lookups(client)
    fetched = {n for n, d in G.nodes(data=True) if d.get("fetched")}
    assert lookups["path"].is_unique and len(lookups) == len(fetched)
    assert {p.rsplit("/", 1)[1] for p in lookups["path"]} == fetched
    assert used(client) - before == client.credits_spent == report.spent_credits == 10 * len(fetched)
    assert report.stopped is None and not report.failed

    # the graph is what the fetched records say, and every level followed the links of the one before
    assert_same_graph(from_companies([world.companies[c] for c in levels["ids"].explode()]), G)
    for upper, lower in zip(levels["ids"], levels["ids"].iloc[1:]):
        links = {cid for c in upper for cid in linked_companies(world.companies[c])}
        assert set(lower) <= links

    again = make_client()  # a new client on the same cache (and the same register state)
    before_again = used(again)
    H = crawl(again, seeds, depth=3, progress=False)
    assert H.graph["crawl"].spent_credits == 0 and again.credits_spent == 0
    assert (H.graph["crawl"].levels["estimated_credits"] == 0).all()
    assert used(again) == before_again
    assert network_lookups(again).empty
    assert_same_graph(G, H)


def test_the_budget_cuts_a_level_and_the_crawl_says_so(
    make_client: Any, world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    seeds = group_members(world, G065_TOP)[:10]
    client = make_client()
    client.get_companies(seeds[:3], progress=False)  # cached now: free
    before = used(client)
    told: list[LevelEstimate] = []
    with caplog.at_level(logging.INFO, logger="regkit.graph"), pytest.warns(BudgetStopWarning) as warned:
        G = crawl(client, seeds, budget=55, progress=False, callback=told.append)
    message = str(warned[0].message)
    assert "crawl stopped at the budget: level 0 needs 70 credits, 55 left" in message  # the level it could not pay
    assert "In all it fetched 8 companies for 50 credits; not fetched: 2 (" in message and "raise budget=" in message
    report = G.graph["crawl"]
    assert len(report.rows) == 1 and "budget" in report.stopped
    assert told[0].estimated_credits == 50 and told[0].cached == 3 and len(told[0].skipped) == 2
    assert set(told[0].ids) >= set(seeds[:3]) and set(report.skipped) == set(seeds) - set(told[0].ids)
    assert used(client) - before == report.spent_credits == 50
    assert any(r.levelname == "WARNING" and "budget" in r.getMessage() for r in caplog.records)
    told_log = "level 0: 8 companies (3 cached, 2 left out) → 50 credits"
    assert any(r.levelname == "INFO" and told_log in r.getMessage() for r in caplog.records)
    assert "stopped: budget" in repr(report) and "estimated_credits" in report._repr_html_()


def test_the_clients_budget_counts_too_and_nothing_raises(make_client: Any, world: Any) -> None:
    client = make_client(budget=30)
    with pytest.warns(BudgetStopWarning, match="fetched 3 companies for 30 credits; not fetched: 2"):
        G = crawl(client, group_members(world, G065_TOP)[:5], progress=False)
    assert client.credits_spent == 30 and G.graph["crawl"].stopped.startswith("budget")


def test_max_companies_callback_and_failures(make_client: Any, world: Any) -> None:
    client = make_client()
    seeds = group_members(world, G065_TOP)[:4]
    G = crawl(client, seeds, max_companies=3, progress=False)
    assert len(G.graph["crawl"].rows[0]["ids"]) == 3 and "max_companies" in G.graph["crawl"].stopped

    G = crawl(client, [seeds[1]], depth=5, progress=False, callback=lambda plan: plan.level < 1)
    assert [r["level"] for r in G.graph["crawl"].rows] == [0] and "callback" in G.graph["crawl"].stopped
    assert G.graph["crawl"].skipped == linked_companies(world.companies[seeds[1]])  # level 1: never fetched

    missing = "DE-HRB-B1204-1"
    before = used(client)
    G = crawl(client, [missing, seeds[0]], depth=0, progress=False)
    report = G.graph["crawl"]
    assert set(report.failed) == {missing} and missing not in G
    row = report.rows[0]
    assert (row["fetched"], row["failed"], row["estimated_credits"]) == (1, 1, 10)  # seeds[0] is cached
    assert row["spent_credits"] == used(client) - before == 0  # a 404 costs nothing


def test_arguments_are_checked_before_anything_is_spent() -> None:
    class NoClient:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError("nothing may be called")

    for kwargs in (
        {"seeds": ["not-an-id"]},
        {"seeds": ["DE-HRB-B1204-1"], "depth": -1},
        {"seeds": ["DE-HRB-B1204-1"], "budget": -5},
        {"seeds": ["DE-HRB-B1204-1"], "max_companies": 0},
        {"seeds": ["DE-HRB-B1204-1"], "relations": ["ownership"]},
    ):
        with pytest.raises(ValueError):
            crawl(NoClient(), **kwargs)


def test_linked_companies_follow_the_relations(world: Any) -> None:
    kg = world.companies["DE-HRA-R2103-18945"]  # a GmbH & Co. KG of group G065
    assert linked_companies(kg) == ["DE-HRB-B1204-124641", G065_TOP]
    assert linked_companies(kg, relations=("profit_transfer",)) == []
    assert linked_companies(world.companies[G065_TOP], relations=("merger",)) == [
        "DE-HRB-T3104-127867",
        "DE-HRB-R2103-101451",
    ]
