"""The client against a scripted interface: caching, retries, merging, budget, offline, errors.

No sockets: :class:`conftest.FakeInterface` answers in-process and counts what it was sent.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest
import requests
from conftest import FakeInterface  # type: ignore[import-not-found]  # the fixtures' own module

from regkit.client import (
    AuthenticationError,
    BudgetExceededError,
    CachePolicy,
    NotFoundError,
    OfflineCacheMiss,
    RateLimitedError,
    ServerError,
    TransportError,
)

FAKE_KEY = FakeInterface.KEY
charged = FakeInterface.charged
company_body = FakeInterface.company_body

CID = "DE-HRB-B1234-1"
COMPANY = f"/v1/company/{CID}"


def ok_company(request: requests.PreparedRequest) -> tuple:
    cid = request.path_url.split("/")[-1].split("?")[0]
    body = company_body(cid)
    if "export=true" in request.url:
        del body["sources"]
    return 200, body, charged(20 if "realtime=true" in request.url else 10)


def script(*answers: object):
    """A handler answering with ``answers`` in turn (the last one repeats)."""
    queue = list(answers)

    def handler(request: requests.PreparedRequest) -> tuple:
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, BaseException):
            raise answer
        return answer(request) if callable(answer) else answer

    return handler


def test_lookup_is_paid_once_then_cached(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", ok_company)
    client = make_fake_client()
    first, second = client.get_company(CID), client.get_company(CID)
    assert first.raw == second.raw and not first.meta.from_cache and second.meta.from_cache
    assert fake.count() == 1
    ledger = client.ledger
    assert ledger["credits"].tolist() == [10, 0] and ledger["saved"].tolist() == [0, 10]
    assert ledger["source"].tolist() == ["network", "cache"]
    assert (client.credits_spent, client.credits_saved) == (10, 10)


def test_realtime_is_never_answered_from_cache(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", ok_company)
    client = make_fake_client()
    client.get_company(CID)
    client.get_company(CID, realtime=True)
    client.get_company(CID, realtime=True)
    assert fake.count() == 3 and client.credits_spent == 50


def test_server_errors_are_retried_and_charged_once(fake: FakeInterface, make_fake_client) -> None:
    boom = (500, {"error": {"code": "internal_error", "message": "oops"}}, charged(0))
    fake.route("GET", "/v1/company/*", script(boom, boom, ok_company))
    client = make_fake_client()
    assert client.get_company(CID).id == CID
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["status"]) == (3, 10, 200)
    assert fake.count() == 3


def test_retries_are_bounded(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script((503, {"error": {"code": "internal_error", "message": "down"}}, {})))
    client = make_fake_client()
    with pytest.raises(ServerError) as info:
        client.get_company(CID)
    assert fake.count() == 4 and info.value.status == 503 and info.value.code == "internal_error"
    assert client.ledger.iloc[-1]["error"] == "ServerError"


def test_429_closes_the_gate_for_retry_after(fake: FakeInterface, make_fake_client) -> None:
    limited = (429, {"error": {"code": "rate_limited", "message": "slow"}}, {"Retry-After": "7"})
    fake.route("GET", "/v1/company/*", script(limited, ok_company))
    client = make_fake_client()
    closed: list[float] = []
    original = client._caller.gate.close_for
    client._caller.gate.close_for = lambda s: (closed.append(s), original(0))  # type: ignore[func-returns-value]
    client.get_company(CID)
    assert closed == [7.0]


def test_too_long_retry_after_is_raised_not_waited(fake: FakeInterface, make_fake_client) -> None:
    fake.route(
        "GET",
        "/v1/company/*",
        script((429, {"error": {"code": "extract_quota_exceeded", "message": "q"}}, {"Retry-After": "86400"})),
    )
    with pytest.raises(RateLimitedError) as info:
        make_fake_client().get_company(CID)
    assert info.value.retry_after == 86400 and fake.count() == 1


def test_truncated_bodies_are_retried_and_never_cached(fake: FakeInterface, make_fake_client) -> None:
    cut = (200, company_body(CID), {**charged(0), "X-Fake-Truncate": "1"})
    garbled = (200, json.dumps(company_body(CID)).encode()[:40], charged(0))
    fake.route("GET", "/v1/company/*", script(cut, garbled, ok_company))
    client = make_fake_client()
    assert client.get_company(CID).raw == company_body(CID)
    assert fake.count() == 3
    responses = list(client.cache.backend.responses.values())
    assert len(responses) == 1 and json.loads(responses[0].content) == company_body(CID)


def test_a_call_that_fails_on_cut_bodies_is_a_failed_row_with_the_status_line_it_saw(
    fake: FakeInterface, make_fake_client
) -> None:
    cut = (200, company_body(CID), {**charged(0), "X-Fake-Truncate": "1"})
    fake.route("GET", "/v1/company/*", script(cut, cut, cut, cut))
    client = make_fake_client()  # retries=3: four attempts, every one cut off
    with pytest.raises(TransportError):
        client.get_company(CID)
    row = client.ledger.iloc[-1]
    # The status line said 200, but no answer came: the row is a failure, and it cost nothing.
    assert (row["status"], row["error"], row["credits"], row["attempts"]) == (200, "TransportError", 0, 4)
    assert client.ledger[client.ledger["error"].isna()].empty and client.credits_spent == 0


def test_garbled_answers_end_as_transport_error_with_nothing_cached(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script((200, b'{"id": "DE-HRB-B12', charged(10))))
    client = make_fake_client()
    with pytest.raises(TransportError, match="not complete JSON"):
        client.get_company(CID)
    assert len(client.cache.backend.responses) == 0
    assert client.ledger.iloc[-1]["credits"] == 40  # the fake charged every attempt: the ledger says so


def test_timeouts_are_retried_and_their_cost_marked_uncertain(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script(requests.exceptions.ReadTimeout("slow"), ok_company))
    client = make_fake_client()
    client.get_company(CID)
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["uncertain"]) == (2, 10, 10)


def test_errors_map_to_branches_and_never_show_the_key(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script((404, {"error": {"code": "company_not_found", "message": "none"}}, {})))
    fake.route(
        "GET", "/v1/credits", script((401, {"error": {"code": "unauthorized", "message": f"bad key {FAKE_KEY}"}}, {}))
    )
    client = make_fake_client()
    with pytest.raises(NotFoundError) as info:
        client.get_company(CID)
    assert isinstance(info.value, LookupError) and info.value.code == "company_not_found"
    assert "no credits were spent" in info.value.suggestion and fake.count() == 1  # 404 is not retried
    with pytest.raises(NotFoundError):
        client.get_company(CID)
    assert fake.count() == 2 and len(client.cache.backend.responses) == 0  # errors are never cached
    with pytest.raises(AuthenticationError) as auth:
        client.get_credits()
    assert FAKE_KEY not in str(auth.value) and "***" in str(auth.value)
    assert FAKE_KEY not in repr(client)


def test_concurrent_identical_lookups_are_merged(fake: FakeInterface, make_fake_client) -> None:
    def slow(request: requests.PreparedRequest) -> tuple:
        time.sleep(0.2)
        return ok_company(request)

    fake.route("GET", "/v1/company/*", slow)
    client = make_fake_client(cache=False)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(client.get_company(CID))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fake.count() == 1 and len(results) == 8
    assert sorted(client.ledger["source"]) == ["merged"] * 7 + ["network"]
    assert client.credits_spent == 10 and client.credits_saved == 70


def test_budget_refuses_before_sending_but_serves_cache_hits(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", ok_company)
    client = make_fake_client(budget=15)
    client.get_company(CID)
    with pytest.raises(BudgetExceededError) as info:
        client.get_company("DE-HRB-B1234-2")
    assert fake.count() == 1 and info.value.needed == 10 and info.value.remaining == 5
    assert client.get_company(CID).meta.from_cache  # free, so within any budget
    with pytest.raises(BudgetExceededError):
        client.get_company(CID, realtime=True)
    assert fake.count() == 1


def test_offline_answers_only_from_cache(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", ok_company)
    fake.route("GET", "/v1/credits", script((200, {"used_credits": 0}, {})))
    client = make_fake_client()
    client.get_company(CID)
    client.cache.offline = True
    assert client.get_company(CID).meta.from_cache
    for call in (
        lambda: client.get_company("DE-HRB-B1234-2"),
        lambda: client.get_company(CID, realtime=True),
        client.get_credits,
    ):
        with pytest.raises(OfflineCacheMiss, match="offline"):
            call()
    with pytest.raises(OfflineCacheMiss, match="never cached"):
        client.get_credits()
    with pytest.raises(OfflineCacheMiss, match="not in the cache"):
        client.get_company("DE-HRB-B1234-3")
    assert fake.count() == 1 and "OFFLINE" in repr(client)


def test_expired_source_urls_are_never_handed_out(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", ok_company)
    client = make_fake_client(policy=CachePolicy(url_lifetime=timedelta(0)))
    assert "sources" in client.get_company(CID)  # fresh from the network
    stale = client.get_company(CID)
    assert stale.meta.from_cache and stale.meta.urls_expired and "sources" not in stale
    assert fake.count() == 1
    refreshed = client.get_company(CID, refresh_sources=True)
    assert "sources" in refreshed and not refreshed.meta.from_cache and fake.count() == 2
    assert client.get_company(CID, export=True)  # export answers have no sources: nothing to strip
    assert client.get_company(CID, export=True).meta.urls_expired is False
    client.cache.offline = True
    assert client.get_company(CID).meta.urls_expired  # offline: still never a dead URL
    with pytest.raises(OfflineCacheMiss, match="needs the network"):
        client.get_company(CID, refresh_sources=True)
    assert fake.count() == 3


def test_search_bodies_are_part_of_the_key(fake: FakeInterface, make_fake_client) -> None:
    page = {"results": [], "pagination": {"page": 1, "per_page": 10, "total_pages": 0, "total_results": 0}}
    fake.route("POST", "/v1/search/insolvency", script((200, page, charged(10))))
    client = make_fake_client()
    client.search_insolvencies(filters={"court": "Köln"})
    client.search_insolvencies(filters=[{"field": "court", "value": "Köln"}])  # same search, other form
    client.search_insolvencies(filters={"court": "Bonn"})
    client.search_insolvencies(filters={"court": "Bonn"}, page=2)
    assert fake.count() == 3
    sent = json.loads(fake.sent[0].body)
    assert sent == {"filters": [{"field": "court", "value": "Köln"}], "pagination": {"page": 1, "per_page": 10}}


def test_a_retry_that_would_cross_the_budget_is_not_sent(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script((200, b'{"id": "DE-HR', charged(10))))
    client = make_fake_client(budget=15)
    with pytest.raises(BudgetExceededError, match="attempt 2, after 1 failed") as info:
        client.get_company(CID)
    assert fake.count() == 1 and info.value.remaining == 5
    row = client.ledger.iloc[-1]
    assert (row["credits"], row["error"]) == (10, "BudgetExceededError") and client.budget.spent == 10


def test_creation_is_sent_once_even_on_5xx(fake: FakeInterface, make_fake_client) -> None:
    fake.route("POST", "/v1/monitor", script((502, b"<html>bad gateway</html>", {})))
    client = make_fake_client()
    with pytest.raises(ServerError) as info:
        client.create_monitor("company", CID, ["basic"], update_frequency="daily")
    assert fake.count() == 1 and info.value.outcome_unknown and info.value.code is None
    assert "bad gateway" in info.value.message and "list_monitors()" in info.value.suggestion


def test_a_cache_hit_waits_for_no_rate_limit_pause(fake: FakeInterface, make_fake_client) -> None:
    fake.route("GET", "/v1/company/*", script(ok_company))
    client = make_fake_client()
    client.get_company(CID)
    client._caller.gate.close_for(3600.0)  # a 429 elsewhere holds every request for an hour
    slept: list[float] = []
    client._caller.gate._sleep = slept.append
    assert client.get_company(CID).meta.from_cache and slept == [] and fake.count() == 1
    other = "DE-HRB-B1234-99999"
    fake.route(
        "GET", "/v1/company/*", lambda request: (200, FakeInterface.company_body(other), FakeInterface.charged(10))
    )
    client.get_company(other)  # a miss is sent, after the pause
    assert slept and slept[0] > 3500 and fake.count() == 2
