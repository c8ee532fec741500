"""The client against the real local register: caching, retries, merging, budget, offline, errors.

Faults come from the register itself: its fault plan (``Faults(plan=[...])``, ``regkit serve --fault-plan``)
answers the requests to a path with exact steps in turn ("500 twice, then the real answer"), so each test
knows what the client met. Every request that reached the register is counted on ``target.counter``, and the
register's own account (``target.used()``) is checked against the client's ledger.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest

from regkit.client import (
    AuthenticationError,
    BudgetExceededError,
    CachePolicy,
    NotFoundError,
    OfflineCacheMiss,
    RateLimitedError,
    RetryPolicy,
    ServerError,
    TransportError,
)
from regkit.local import Faults

#: Three retries without pauses (four attempts per call).
RETRIES = RetryPolicy(retries=3, backoff=0.0, backoff_max=0.0)
LOOKUPS = "GET /v1/company/*"
MISSING = "DE-HRB-B9999-99999"


@pytest.fixture
def cid(world: Any) -> str:
    """A company of the bundled world."""
    return next(iter(world.companies))


def _faulty(make_local: Any, *plan: str, **faults: Any) -> Any:
    """A register (in-process) that meets the requests with the fault ``plan`` (and any other ``faults``)."""
    return make_local(faults=Faults(plan=plan, **faults))


def _strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "sources"}  # presigned URLs differ per answer


def test_lookup_is_paid_once_then_cached(inprocess: Any, cid: str) -> None:
    client = inprocess.client(retries=RETRIES)
    first, second = client.get_company(cid), client.get_company(cid)
    assert first.raw == second.raw and not first.meta.from_cache and second.meta.from_cache
    assert inprocess.counter.count() == 1
    ledger = client.ledger
    assert ledger["credits"].tolist() == [10, 0] and ledger["saved"].tolist() == [0, 10]
    assert ledger["source"].tolist() == ["network", "cache"]
    assert (client.credits_spent, client.credits_saved) == (10, 10) and inprocess.used() == 10


def test_realtime_is_never_answered_from_cache(inprocess: Any, cid: str) -> None:
    client = inprocess.client(retries=RETRIES)
    client.get_company(cid)
    client.get_company(cid, realtime=True)
    client.get_company(cid, realtime=True)
    assert inprocess.counter.count() == 3
    assert client.ledger["credits"].tolist() == [10, 20, 20] and client.credits_spent == inprocess.used() == 50


def test_server_errors_are_retried_and_charged_once(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=error,error")
    client = target.client(retries=RETRIES)
    assert client.get_company(cid).id == cid
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["status"]) == (3, 10, 200)
    assert target.counter.count() == 3 and target.used() == 10


def test_retries_are_bounded(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=503*")
    client = target.client(retries=RETRIES)
    with pytest.raises(ServerError) as info:
        client.get_company(cid)
    assert target.counter.count() == 4 and info.value.status == 503 and info.value.code == "injected_fault"
    assert client.ledger.iloc[-1]["error"] == "ServerError" and target.used() == 0


def test_429_closes_the_gate_for_retry_after(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=429@7")
    client = target.client(retries=RETRIES)
    closed: list[float] = []
    original = client._caller.gate.close_for
    client._caller.gate.close_for = lambda s: (closed.append(s), original(0))  # type: ignore[func-returns-value]
    client.get_company(cid)
    assert closed == [7.0] and target.counter.count() == 2


def test_too_long_retry_after_is_raised_not_waited(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=429@86400*")
    with pytest.raises(RateLimitedError) as info:
        target.client(retries=RETRIES).get_company(cid)
    assert info.value.retry_after == 86400 and target.counter.count() == 1


def test_truncated_bodies_are_retried_and_never_cached(make_local: Any, cid: str, world: Any) -> None:
    # A body cut short of its Content-Length (charged nothing), then a complete half of a charged answer.
    target = _faulty(make_local, f"{LOOKUPS}=truncate,garble")
    client = target.client(retries=RETRIES)
    assert _strip(client.get_company(cid).raw) == world.companies[cid]
    assert target.counter.count() == 3
    responses = list(client.cache.backend.responses.values())
    assert len(responses) == 1 and _strip(json.loads(responses[0].content)) == world.companies[cid]
    assert client.credits_spent == target.used() == 20  # the garbled answer was charged: the ledger says so


def test_a_call_that_fails_on_cut_bodies_is_a_failed_row_with_the_status_line_it_saw(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=truncate*")
    client = target.client(retries=RETRIES)  # four attempts, every one cut off
    with pytest.raises(TransportError):
        client.get_company(cid)
    row = client.ledger.iloc[-1]
    # The status line said 200, but no answer came: the row is a failure, and it cost nothing.
    assert (row["status"], row["error"], row["credits"], row["attempts"]) == (200, "TransportError", 0, 4)
    assert client.ledger[client.ledger["error"].isna()].empty and client.credits_spent == target.used() == 0


def test_garbled_answers_end_as_transport_error_with_nothing_cached(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=garble*")
    client = target.client(retries=RETRIES)
    with pytest.raises(TransportError, match="not complete JSON"):
        client.get_company(cid)
    assert len(client.cache.backend.responses) == 0
    assert client.ledger.iloc[-1]["credits"] == target.used() == 40  # the register charged every attempt


def test_timeouts_are_retried_and_their_cost_marked_uncertain(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=timeout", timeout=5.0)
    client = target.client(retries=RETRIES, timeout=0.2)  # the read timeout ends the wait, not the register
    client.get_company(cid)
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["uncertain"]) == (2, 10, 10) and target.used() == 10


def test_errors_map_to_branches_and_never_show_the_key(inprocess: Any) -> None:
    client = inprocess.client(retries=RETRIES)
    with pytest.raises(NotFoundError) as info:
        client.get_company(MISSING)
    assert isinstance(info.value, LookupError) and info.value.code == "company_not_found"
    assert "no credits were spent" in info.value.suggestion and inprocess.counter.count() == 1  # 404: no retry
    with pytest.raises(NotFoundError):
        client.get_company(MISSING)
    assert inprocess.counter.count() == 2 and len(client.cache.backend.responses) == 0  # errors are never cached
    bad_key = "sk-test-wrong-0123456789"
    stranger = inprocess.client(api_key=bad_key, retries=RETRIES)
    with pytest.raises(AuthenticationError) as auth:
        stranger.get_credits()
    assert bad_key not in str(auth.value) and bad_key not in repr(auth.value) and bad_key not in repr(stranger)


def test_concurrent_identical_lookups_are_merged(make_local: Any, cid: str) -> None:
    target = make_local(faults=Faults(latency=0.2))  # every answer takes 0.2 s: the lookups overlap
    client = target.client(cache=False, retries=RETRIES)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(client.get_company(cid))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.counter.count() == 1 and len(results) == 8
    assert sorted(client.ledger["source"]) == ["merged"] * 7 + ["network"]
    assert client.credits_spent == target.used() == 10 and client.credits_saved == 70


def test_concurrent_identical_failures_are_merged_and_the_next_call_is_sent_again(make_local: Any) -> None:
    target = make_local(faults=Faults(latency=0.2))
    client = target.client(cache=False, retries=RETRIES)
    errors: list = []

    def lookup() -> None:
        try:
            client.get_company(MISSING)
        except NotFoundError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=lookup) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.counter.count() == 1 and len(errors) == 8  # one 404 sent, every caller told of it
    assert sorted(client.ledger["source"]) == ["merged"] * 7 + ["network"] and client.ledger["error"].notna().all()
    with pytest.raises(NotFoundError):  # the failed lead is over: the next call is sent, not merged into it
        client.get_company(MISSING)
    assert target.counter.count() == 2 and client.credits_spent == 0


def test_budget_refuses_before_sending_but_serves_cache_hits(inprocess: Any, world: Any) -> None:
    cid, other = list(world.companies)[:2]
    client = inprocess.client(budget=15, retries=RETRIES)
    client.get_company(cid)
    with pytest.raises(BudgetExceededError) as info:
        client.get_company(other)
    assert inprocess.counter.count() == 1 and info.value.needed == 10 and info.value.remaining == 5
    assert client.get_company(cid).meta.from_cache  # free, so within any budget
    with pytest.raises(BudgetExceededError):
        client.get_company(cid, realtime=True)
    assert inprocess.counter.count() == 1 and inprocess.used() == 10


def test_offline_answers_only_from_cache(inprocess: Any, world: Any) -> None:
    cid, other, third = list(world.companies)[:3]
    client = inprocess.client(retries=RETRIES)
    client.get_company(cid)
    client.cache.offline = True
    assert client.get_company(cid).meta.from_cache
    for call in (
        lambda: client.get_company(other),
        lambda: client.get_company(cid, realtime=True),
        client.get_credits,
    ):
        with pytest.raises(OfflineCacheMiss, match="offline"):
            call()
    with pytest.raises(OfflineCacheMiss, match="never cached"):
        client.get_credits()
    with pytest.raises(OfflineCacheMiss, match="not in the cache"):
        client.get_company(third)
    assert inprocess.counter.count() == 1 and "OFFLINE" in repr(client)


def test_expired_source_urls_are_never_handed_out(inprocess: Any, cid: str) -> None:
    client = inprocess.client(retries=RETRIES, policy=CachePolicy(url_lifetime=timedelta(0)))
    assert "sources" in client.get_company(cid)  # fresh from the network
    stale = client.get_company(cid)
    assert stale.meta.from_cache and stale.meta.urls_expired and "sources" not in stale
    assert inprocess.counter.count() == 1
    refreshed = client.get_company(cid, refresh_sources=True)
    assert "sources" in refreshed and not refreshed.meta.from_cache and inprocess.counter.count() == 2
    client.cache.offline = True
    assert client.get_company(cid).meta.urls_expired  # offline: still never a dead URL
    with pytest.raises(OfflineCacheMiss, match="needs the network"):
        client.get_company(cid, refresh_sources=True)
    assert inprocess.counter.count() == 2


def test_an_export_answer_has_no_urls_to_expire(inprocess: Any, cid: str) -> None:
    client = inprocess.client(retries=RETRIES, policy=CachePolicy(url_lifetime=timedelta(0)))
    assert client.get_company(cid, export=True).raw["sources"] == []  # the register sends none
    cached = client.get_company(cid, export=True)
    assert cached.meta.from_cache and cached.meta.urls_expired is False


def test_search_bodies_are_part_of_the_key(inprocess: Any) -> None:
    client = inprocess.client(retries=RETRIES)
    client.search_insolvencies(filters={"court": "Köln"})
    client.search_insolvencies(filters=[{"field": "court", "value": "Köln"}])  # same search, other form
    client.search_insolvencies(filters={"court": "Bonn"})
    client.search_insolvencies(filters={"court": "Bonn"}, page=2)
    assert inprocess.counter.count("POST", "/v1/search/insolvency") == 3
    sent = json.loads(inprocess.counter.bodies[0])
    assert sent == {"filters": [{"field": "court", "value": "Köln"}], "pagination": {"page": 1, "per_page": 10}}


def test_a_retry_that_would_cross_the_budget_is_not_sent(make_local: Any, cid: str) -> None:
    target = _faulty(make_local, f"{LOOKUPS}=garble*")  # charged, but no usable answer
    client = target.client(budget=15, retries=RETRIES)
    with pytest.raises(BudgetExceededError, match="attempt 2, after 1 failed") as info:
        client.get_company(cid)
    assert target.counter.count() == 1 and info.value.remaining == 5
    row = client.ledger.iloc[-1]
    assert (row["credits"], row["error"]) == (10, "BudgetExceededError") and client.budget.spent == 10
    assert target.used() == 10


@pytest.mark.parametrize("kind", ["inprocess", "loopback"])
def test_creation_is_sent_once_even_on_5xx(make_local: Any, cid: str, kind: str) -> None:
    target = make_local(kind, faults=Faults(plan=["POST /v1/monitor=gateway*"]))
    client = target.client(retries=RETRIES)
    with pytest.raises(ServerError) as info:
        client.create_monitor("company", cid, ["basic"], update_frequency="daily")
    assert target.counter.count() == 1 and info.value.outcome_unknown and info.value.code is None
    assert "bad gateway" in info.value.message and "list_monitors()" in info.value.suggestion


def test_a_cache_hit_waits_for_no_rate_limit_pause(inprocess: Any, world: Any) -> None:
    cid, other = list(world.companies)[:2]
    client = inprocess.client(retries=RETRIES)
    client.get_company(cid)
    client._caller.gate.close_for(3600.0)  # a 429 elsewhere holds every request for an hour
    slept: list[float] = []
    client._caller.gate._sleep = slept.append
    assert client.get_company(cid).meta.from_cache and slept == [] and inprocess.counter.count() == 1
    client.get_company(other)  # a miss is sent, after the pause
    assert slept and slept[0] > 3500 and inprocess.counter.count() == 2
