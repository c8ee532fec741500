"""Watchlists: refresh only the stale members, under the budget, and find every change the register's events
announced (``docs/guide``'s watching companies; :mod:`regkit.client.watchlist`)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest

from regkit.errors import BudgetExceededError, ValidationError
from regkit.local.world.continuation import Continuation

AS_OF = dt.date(2026, 6, 30)
#: The change each kind of register event shows as (docs/interface.md, "Changes").
SHOWN_AS = {
    "director_appointed": ("get_company", "representative_appointed"),
    "director_left": ("get_company", "representative_left"),
    "prokura_granted": ("get_company", "representative_appointed"),
    "prokura_ended": ("get_company", "representative_left"),
    "address_changed": ("get_company", "address_changed"),
    "seat_moved": ("get_company", "seat_moved"),
    "name_changed": ("get_company", "name_changed"),
    "liquidation": ("get_company", "status_changed"),
    "report_filed": ("get_financials", "report_filed"),
}


@pytest.fixture(scope="module")
def events() -> list[Any]:
    from regkit.local.world import read_world

    world = read_world()
    continuation = Continuation.of_world(world)
    return continuation.events(AS_OF, AS_OF + dt.timedelta(days=90))


def _members(world: Any, events: list[Any], count: int) -> list[str]:
    touched = sorted({e.company_id for e in events if e.kind in SHOWN_AS})
    quiet = [c for c in sorted(world.companies) if c not in {e.company_id for e in events}]
    return touched[: count // 4] + quiet[: count - count // 4]


def test_a_refresh_pays_for_the_stale_members_only_and_finds_every_announced_change(
    make_local: Any, world: Any, events: list[Any]
) -> None:
    local = make_local()
    client = local.client()
    members = _members(world, events, 60)
    watched = client.watchlist("suppliers", companies=members, categories=["basic", "representation", "financials"])
    first = watched.estimate()
    assert (len(first.stale), first.lookups, first.credits) == (60, 120, 1200)
    used = local.used()
    result = watched.refresh(progress=False)
    empty = sorted(c for c in members if not world.companies[c]["indicators"])  # no report: no financials fetched
    assert sorted(result.without_reports) == empty
    assert local.used() - used == result.credits == 1200 - 10 * len(empty) and set(result.refreshed) == set(members)
    assert result.changes.empty  # nothing to compare with yet
    assert watched.estimate().stale == () and watched.refresh(progress=False).credits == 0  # all fresh: free

    local.register.advance(90)
    announced = [e for e in events if e.company_id in members and e.kind in SHOWN_AS]
    for company_id in {e.company_id for e in announced}:
        client.mark_stale(company_id)  # what a webhook event does (regkit webhook listen --cache)
    touched = sorted({e.company_id for e in announced})
    assert sorted(watched.estimate().stale) == touched
    sent, used = local.counter.count(), local.used()
    result = watched.refresh(progress=False)
    asked = set(local.counter.counted[sent:])  # a lookup the register's work bound refused (429) is sent again
    reporting = [c for c in touched if world.companies[c]["indicators"]]  # no report filed: no financials fetched
    assert asked == {("GET", f"/v1/company/{c}") for c in touched} | {
        ("GET", f"/v1/company/{c}/financials") for c in reporting
    }
    assert result.credits == local.used() - used == 10 * (len(touched) + len(reporting))
    assert sorted(result.refreshed) == touched
    found = set(zip(result.changes["entity_id"], result.changes["operation"], result.changes["kind"]))
    for event in announced:
        assert (event.company_id, *SHOWN_AS[event.kind]) in found, event
    dates = result.changes.loc[result.changes["operation"] == "get_company", "date"]
    assert dates.dropna().between(pd_ts(AS_OF), pd_ts(AS_OF + dt.timedelta(days=90))).all()


def pd_ts(day: dt.date) -> Any:
    import pandas as pd

    return pd.Timestamp(day)


def test_members_fetched_longer_ago_than_stale_after_are_stale(make_local: Any, world: Any) -> None:
    client = make_local().client()
    members = sorted(world.companies)[:3]
    watched = client.watchlist("aging", companies=members, categories=["basic"], stale_after="1s")
    watched.refresh(progress=False)
    frame = watched.members_frame()
    assert list(frame.columns) == ["entity_id", "entity_type", "fetched_at", "stale"]
    assert not frame["stale"].any() and frame["fetched_at"].notna().all()
    time.sleep(1.2)
    assert watched.members_frame()["stale"].all() and watched.estimate().credits == 30


def test_max_credits_refreshes_the_stalest_it_covers_and_a_budget_refuses_before_sending(
    make_local: Any, world: Any
) -> None:
    local = make_local()
    members = sorted(world.companies)[:10]
    client = local.client()
    watched = client.watchlist("capped", companies=members, categories=["basic", "financials"])
    result = watched.refresh(max_credits=70, progress=False)
    assert len(result.refreshed) == 3 and len(result.skipped) == 7 and result.credits == 60
    assert sorted(watched.estimate().stale) == sorted(result.skipped)
    poor = local.client(budget=50)
    sent = local.counter.count()
    with pytest.raises(BudgetExceededError, match="costs 140 credits and the budget has 50 left; nothing was sent"):
        poor.watchlist("capped").refresh(progress=False)
    assert local.counter.count() == sent
    assert len(poor.watchlist("capped").refresh(max_credits=50, progress=False).refreshed) == 2


def test_a_first_report_filed_since_the_estimate_is_fetched_only_within_the_cap(make_local: Any, world: Any) -> None:
    """A company whose cached record listed no report has its financials left out of the estimate; when its fresh
    record lists its first report, the refresh fetches them only as far as the cap reaches (it never spends more
    than ``max_credits``), and the company stays stale (``skipped``) until a refresh that covers them."""
    continuation = Continuation.of_world(world)
    year = continuation.events(AS_OF, AS_OF + dt.timedelta(days=365))
    new = {e.company_id: e.day for e in year if e.kind == "incorporated"}
    first = next(e for e in year if e.kind == "report_filed" and e.company_id in new)
    local = make_local()
    client = local.client()
    local.register.advance((new[first.company_id] - AS_OF).days)  # the day it is incorporated: no report yet
    watched = client.watchlist(
        "founders", companies=[first.company_id], categories=["basic", "financials"], stale_after="1s"
    )
    assert watched.refresh(progress=False).without_reports == (first.company_id,)
    local.register.advance((first.day - local.register.today).days)  # its first report is filed
    time.sleep(1.2)  # stale by age, its cached record kept
    assert watched.estimate().credits == 10  # the cached record lists no report: its financials are not counted
    used = local.used()
    capped = watched.refresh(max_credits=10, progress=False)
    assert capped.credits == local.used() - used == 10 and capped.skipped == (first.company_id,)
    assert watched.estimate().stale == (first.company_id,)
    time.sleep(1.2)
    covered = watched.refresh(progress=False)
    assert covered.credits == 20 and covered.skipped == ()  # its record again (stale by age) and its first report
    assert client.is_cached(first.company_id, endpoint="financials")


def test_a_watchlist_is_kept_in_the_cache_for_the_next_client(make_local: Any, world: Any) -> None:
    local = make_local()
    members = sorted(world.companies)[:2]
    person = next(
        r["id"]
        for r in world.companies[members[0]]["representation"]
        if r["id"] and "-" in r["id"] and len(r["id"]) == 36
    )
    local.client().watchlist("kept", companies=members, persons=[person.upper()], stale_after="2D")
    again = local.client().watchlist("kept")
    assert again.companies == tuple(members) and again.persons == (person.lower(),)
    assert again.stale_after == dt.timedelta(days=2) and "kept" in local.client().watchlists()
    again.add(["DE-HRB-B1234-5678"]).remove([members[0]])
    assert local.client().watchlist("kept").companies == (members[1], "DE-HRB-B1234-5678")
    again.delete()
    assert "kept" not in local.client().watchlists()


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"name": ""}, "name must be a non-empty text"),
        ({"name": "x", "categories": ["basics"]}, "unknown categories"),
        ({"name": "x", "companies": ["4e13edbd-6136-45f0-86f3-92f4bbd825da"]}, "which is one of the persons"),
        ({"name": "x", "persons": ["DE-HRB-B1234-5678"]}, "which is one of the companies"),
        ({"name": "x", "companies": ["Siemens"]}, "neither a company id"),
        ({"name": "x", "companies": ["DE-HRB-B1234-5678"], "stale_after": "soon"}, "stale_after must be a positive"),
        ({"name": "never-made"}, "there is no watchlist 'never-made'"),
    ],
)
def test_a_wrong_watchlist_says_what_to_do(make_local: Any, arguments: dict[str, Any], message: str) -> None:
    local = make_local()
    client = local.client()
    with pytest.raises(ValidationError, match=message) as raised:
        client.watchlist(**arguments)
    assert raised.value.suggestion
    assert local.counter.count() == 0 and client.watchlists() == []
