"""Beneficial owners and ownership history through ``regkit.Client`` against the local register (in-process and
over loopback HTTP): cached, priced, estimated, within the budget and in the ledger.

Credits are checked against the register's own ``GET /v1/credits`` (``local.used()``); expected owners come from
the bundled world (its shareholdings rows and documents), never from the client.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from regkit.client import (
    BudgetExceededError,
    NotFoundError,
    OwnershipHistoryRecord,
    UbosRecord,
    ValidationError,
)


def _rows(world: Any) -> dict[str, list[dict[str, Any]]]:
    grouped = defaultdict(list)
    for row in world.shareholdings:
        grouped[row["company_id"]].append(row)
    return grouped


def _handed_on(world: Any) -> str:
    """An active GmbH whose founder handed their whole stake (more than 25 %) on to a director."""
    return next(
        cid
        for cid, rows in sorted(_rows(world).items())
        if world.companies[cid]["status"] == "active"
        and any(r["end"] is not None and r["holder_type"] == "natural_person" and r["share"] > 0.25 for r in rows)
        and all(r["holder_type"] == "natural_person" for r in rows)
    )


def test_ubos_are_the_persons_above_25_percent_and_cached(local: Any, world: Any) -> None:
    company_id = _handed_on(world)
    current = [r for r in _rows(world)[company_id] if r["end"] is None]
    expected = {r["holder_id"]: 100 * r["share"] for r in current if r["share"] > 0.25}
    client = local.client()
    ubos = client.get_ubos(company_id)
    assert isinstance(ubos, UbosRecord) and ubos.company_id == company_id and not ubos.fictitious
    assert {u["id"]: u["percentage_share"] for u in ubos} == pytest.approx(expected)
    again = client.get_ubos(company_id)
    assert again.meta.from_cache and again == ubos
    assert local.used() == client.credits_spent == 10


def test_ownership_history_shows_the_handed_on_stake(local: Any, world: Any) -> None:
    company_id = _handed_on(world)
    rows = _rows(world)[company_id]
    lists = sorted(d["date"] for d in world.companies[company_id]["documents"] if d["type"] == "shareholder_list")
    client = local.client()
    history = client.get_ownership_history(company_id)
    assert isinstance(history, OwnershipHistoryRecord) and history.company_id == company_id
    assert {o["id"] for o in history.active} == {r["holder_id"] for r in rows if r["end"] is None}
    assert {o["id"] for o in history if o["status"] == "removed"} == {r["holder_id"] for r in rows if r["end"]}
    assert len(history.document_ids) == len(lists)
    for owner in history:
        assert all(isinstance(h["nominal_shares"], int) for h in owner["ownership_history"])
    assert client.get_ownership_history(company_id).meta.from_cache
    assert local.used() == 10


def test_no_shareholder_list_is_a_free_404_with_a_way_on(inprocess: Any, world: Any) -> None:
    ag = next(c for c, rec in sorted(world.companies.items()) if rec["legal_form"] == "ag")
    client = inprocess.client()
    with pytest.raises(NotFoundError, match="owners_not_available") as caught:
        client.get_ownership_history(ag)
    assert "get_owners" in (caught.value.suggestion or "")
    assert inprocess.used() == 0 and not client.is_cached(ag, endpoint="owners_historical")


def test_estimates_budget_and_ledger_know_both_calls(inprocess: Any, world: Any) -> None:
    company_id = _handed_on(world)
    client = inprocess.client(budget=25)
    for endpoint in ("ubos", "owners_historical"):
        estimate = client.estimate_cost([company_id, company_id, "bad id"], endpoint=endpoint)
        assert (estimate.distinct, estimate.cached, estimate.price, estimate.credits) == (1, 0, 10, 10)
    client.get_ubos(company_id)
    client.get_ownership_history(company_id)
    assert client.is_cached(company_id, endpoint="ubos") and client.is_cached(company_id, endpoint="owners_historical")
    assert client.estimate_cost([company_id], endpoint="ubos").credits == 0
    other = next(c for c in sorted(_rows(world)) if c != company_id and world.companies[c]["legal_form"] == "gmbh")
    assert not client.estimate_cost([other], endpoint="ubos").within_budget
    with pytest.raises(BudgetExceededError, match="get_ubos"):
        client.get_ubos(other)
    client.get_ubos(company_id)  # a cache hit costs nothing and passes the budget
    assert inprocess.used() == client.credits_spent == 20
    calls = client.ledger[["call", "credits", "source"]].values.tolist()
    assert calls == [
        ["get_ubos", 10, "network"],
        ["get_ownership_history", 10, "network"],
        ["get_ubos", 0, "cache"],
    ]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda c: c.get_ubos("DE-HRB-nope"), "not a company identifier"),
        (lambda c: c.get_ownership_history(42), "company"),
        (lambda c: c.is_cached("DE-HRB-B1234-1", True, endpoint="ubos"), "no realtime variant"),
    ],
)
def test_bad_input_is_refused_before_anything_is_sent(inprocess: Any, call: Any, message: str) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match=message):
        call(client)
    assert inprocess.counter.counted == [] and inprocess.used() == 0
