"""Credits, rate limiting, restarts, concurrency and the generic error answers."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor

import pytest
from local_support import EMPTY, FREE, charged, error_of, session_for

from regkit.local.models.credits import period_start
from regkit.local.ratelimit import RateLimiter


def test_credits_document(api, clock):
    session = api(FREE)
    body = session.get("/v1/credits").json()
    today = dt.datetime.fromtimestamp(clock.now, dt.timezone.utc).date()
    # nothing counted yet: the rolling window would start with the next request (never null, the live
    # service's client requires a date-time)
    assert body == {
        "used_credits": 0,
        "remaining_credits": 500,
        "included_credits": 500,
        "overage_credits": 0,
        "paid": False,
        "period": {"type": "rolling_30_days", "reset_at": f"{today + dt.timedelta(days=30)}T00:00:00Z"},
    }
    paid = api().get("/v1/credits").json()
    assert paid["paid"] is True and paid["period"]["type"] == "billing_cycle"
    assert paid["period"]["reset_at"] > today.isoformat() and paid["period"]["reset_at"].endswith("-01T00:00:00Z")


def test_headers_and_balance_agree_with_charges(api, ids, catalog):
    session = api()
    proceeding = next(iter(catalog.world.insolvencies))
    calls = [
        (session.get, (f"/v1/company/{ids.unique_match}",), {}, 10),
        (session.get, (f"/v1/company/{ids.unique_match}",), {"params": {"realtime": "true"}}, 20),
        (session.post, ("/v1/search/insolvency",), {"json": {}}, 10),
        (session.get, (f"/v1/insolvency/{proceeding}",), {}, 10),
        (session.get, ("/v1/company/DE-HRB-Z9999-1",), {}, 0),
        (session.get, ("/v1/monitor",), {}, 0),
        (session.get, ("/v1/credits",), {}, 0),
    ]
    spent = 0
    for method, args, kwargs, price in calls:
        response = method(*args, **kwargs)
        spent += price
        assert charged(response) == price, args
        assert int(response.headers["X-Credits-Remaining"]) == 100000 - spent
    assert session.get("/v1/credits").json()["used_credits"] == spent


def test_balance_runs_out_exactly(api, ids):
    session = api(FREE)
    for _ in range(50):
        assert session.get(f"/v1/company/{ids.unique_match}").status_code == 200
    response = session.get(f"/v1/company/{ids.unique_match}")
    assert error_of(response) == (402, "insufficient_credits")
    assert response.headers["X-Credits-Remaining"] == "0"
    assert session.get("/v1/credits").json()["used_credits"] == 500


def test_rolling_window_frees_credits_after_30_days(api, ids, clock):
    session = api(FREE)
    for _ in range(50):
        session.get(f"/v1/company/{ids.unique_match}")
    first_day = dt.datetime.fromtimestamp(clock.now, dt.timezone.utc).date()
    assert session.get("/v1/credits").json()["period"]["reset_at"] == f"{first_day + dt.timedelta(days=30)}T00:00:00Z"
    clock.advance(29 * 86400)
    assert session.get("/v1/credits").json()["remaining_credits"] == 0
    clock.advance(86400)
    assert session.get("/v1/credits").json()["remaining_credits"] == 500


def test_period_start():
    july = dt.datetime(2026, 7, 15, 12, tzinfo=dt.timezone.utc).timestamp()
    assert period_start("billing_cycle", july) == dt.date(2026, 7, 1)
    assert period_start("rolling_30_days", july) == dt.date(2026, 6, 16)


@pytest.mark.slow
def test_concurrent_charges_are_exact(make_register, ids):
    register = make_register(key_concurrency=None)  # 16 at once per key: past the default bound on requests in flight
    company = f"{register.base_url}/v1/company/{ids.unique_match}"

    def lookups(key: str) -> list[int]:
        session = session_for(register, key)
        return [session.get(company).status_code for _ in range(15)]

    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = [s for batch in pool.map(lookups, ["demo-paid"] * 16 + [FREE] * 16) for s in batch]
    assert statuses.count(200) == 16 * 15 + 50 and statuses.count(402) == 16 * 15 - 50
    paid = session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits").json()
    free = session_for(register, FREE).get(f"{register.base_url}/v1/credits").json()
    assert paid["used_credits"] == 16 * 15 * 10
    assert free["used_credits"] == 500 and free["remaining_credits"] == 0


def test_state_survives_a_restart(make_register, ids):
    first = make_register()
    session_for(first, "demo-paid").get(f"{first.base_url}/v1/company/{ids.unique_match}")
    first.close()
    second = make_register()
    assert session_for(second, "demo-paid").get(f"{second.base_url}/v1/credits").json()["used_credits"] == 10


def test_rate_limit_is_429_with_retry_after_and_free(make_register, ids):
    register = make_register(rate_limit=2, rate_burst=2)
    session = session_for(register, "demo-paid")
    url = f"{register.base_url}/v1/company/{ids.unique_match}"
    assert [session.get(url).status_code for _ in range(2)] == [200, 200]
    limited = session.get(url)
    assert error_of(limited) == (429, "rate_limited")
    assert int(limited.headers["Retry-After"]) >= 1 and charged(limited) == 0
    other = session_for(register, EMPTY)  # the bucket is per key
    assert other.get(f"{register.base_url}/v1/credits").status_code == 200


def test_rate_limiter_refills():
    now = [0.0]
    limiter = RateLimiter(10, burst=1, clock=lambda: now[0])
    assert limiter.acquire("k") == 0
    assert limiter.acquire("k") == pytest.approx(0.1)
    now[0] += 0.1
    assert limiter.acquire("k") == 0


def test_unknown_route_is_404_json(api):
    response = api(conform=False).get("/v1/nothing/here")
    assert error_of(response) == (404, "not_found")
    assert response.headers["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    "method, path",
    [
        ("DELETE", "/v1/credits"),
        ("PUT", "/v1/monitor"),
        ("GET", "/v1/search/insolvency"),
        ("POST", "/v1/company/DE-HRB-B1204-1"),
    ],
)
def test_wrong_method_is_405_json_with_allow(api, method, path):
    response = api(conform=False).request(method, path)
    assert error_of(response) == (405, "method_not_allowed")
    assert response.headers["Allow"]


def test_oversized_body_is_413_json(api):
    response = api(conform=False).post("/v1/search/insolvency", data=b"x" * (2 << 20))
    assert error_of(response) == (413, "payload_too_large")


def test_openapi_document_is_served_without_a_key(api, register):
    response = api(None).get("/v1/openapi.json")
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"] == "3.1.0" and "/v1/company/{company_id}" in document["paths"]
    assert document["servers"][0]["variables"]["base_url"]["default"] == register.base_url


def test_unexpected_failure_is_500_json(api, register, monkeypatch):
    monkeypatch.setattr(register.context.catalog.world, "companies", None)
    response = api().get("/v1/company/DE-HRB-B1204-1")
    assert error_of(response) == (500, "internal_error")
    assert charged(response) == 0
