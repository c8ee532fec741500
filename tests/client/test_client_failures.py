"""Every error branch against the local register: status, code, suggestion, nothing paid twice.

Creating calls (extract orders, monitors) must never be retried blindly: on an ambiguous failure
the error says the order may exist and how to check, and the register saw exactly one request.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest

from regkit.client import (
    APIError,
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitedError,
    RetryPolicy,
    ServerError,
    TransportError,
)

ACCOUNTS = {
    "valid": ("tr-demo@regkit.example", "Transparenz-2026!"),
    "locked": ("tr-locked@regkit.example", "Gesperrt-2026!"),
}


def entity(world_meta: dict, matches: int) -> str:
    """A company with ``matches`` Transparenzregister entities."""
    entities = world_meta["transparenzregister"]["entities"]
    return next(cid for cid, ekrns in entities.items() if len(ekrns) == matches)


def _unmatched(world_meta: dict) -> str:
    entities = world_meta["transparenzregister"]["entities"]
    return next(cid for cid, c in _companies().items() if cid not in entities)


def test_401_bad_key(local: Any) -> None:
    client = local.client(api_key="not-a-world-key")
    with pytest.raises(AuthenticationError) as info:
        client.get_company("DE-HRB-B1234-1")
    assert info.value.status == 401 and info.value.code == "unauthorized"
    assert "not-a-world-key" not in str(info.value) and "API key" in info.value.suggestion
    assert len(local.counter.counted) == 1  # not retried


def test_401_rejected_register_login_says_the_key_is_fine(local: Any) -> None:
    with pytest.raises(AuthenticationError) as info:
        local.client().store_credentials(ACCOUNTS["valid"][0], "wrong-password")
    assert info.value.code == "register_credentials_rejected" and "API key is fine" in info.value.suggestion
    assert "wrong-password" not in str(info.value)


def test_402_no_credits_and_no_plan(local: Any) -> None:
    with pytest.raises(PaymentRequiredError) as info:
        local.client(api_key="demo-empty").get_company(next(iter(_companies())))
    assert info.value.code == "insufficient_credits" and "get_credits" in info.value.suggestion
    with pytest.raises(PaymentRequiredError) as plan:
        local.client(api_key="demo-free").order_extract(credential_name="sandbox")
    assert plan.value.code == "plan_required" and "paid plan" in plan.value.suggestion


def test_403_locked_register_account(local: Any, world_meta: dict) -> None:
    client = local.client()
    client.store_credentials(*ACCOUNTS["locked"], name="locked")
    with pytest.raises(PermissionDeniedError) as info:
        client.order_extract(entity(world_meta, 1), credential_name="locked")
    assert info.value.code == "register_authentication_rejected" and not info.value.outcome_unknown
    assert local.used() == 0


def test_404_branches(local: Any, world_meta: dict) -> None:
    client = local.client()
    with pytest.raises(NotFoundError) as company:
        client.get_company("DE-HRB-B1234-999999999")
    assert company.value.code == "company_not_found" and isinstance(company.value, LookupError)
    with pytest.raises(NotFoundError, match="extract_not_found"):
        client.get_extract("tre_1")
    with pytest.raises(NotFoundError, match="monitor_not_found"):
        client.delete_monitor("DE-HRB-B1234-1")
    with pytest.raises(NotFoundError, match="credentials_not_found"):
        client.order_extract(entity(world_meta, 1), credential_name="nobody")
    client.store_credentials(*ACCOUNTS["valid"])
    with pytest.raises(NotFoundError, match="register_entity_not_found"):
        client.order_extract(_unmatched(world_meta))
    assert local.used() == client.credits_spent == 0


def test_409_branches(local: Any, world_meta: dict) -> None:
    client = local.client()
    client.store_credentials(*ACCOUNTS["valid"])
    with pytest.raises(ConflictError, match="ambiguous_register_entity"):
        client.order_extract(entity(world_meta, 2))
    cid = entity(world_meta, 1)
    client.create_monitor("company", cid, ["basic"])
    with pytest.raises(ConflictError, match="monitor_exists"):
        client.create_monitor("company", cid, ["basic"])
    for n in range(9):
        client.store_credentials(*ACCOUNTS["valid"], name=f"set{n}")
    with pytest.raises(ConflictError, match="credential_limit_reached") as info:
        client.store_credentials(*ACCOUNTS["valid"], name="eleventh")
    assert "overwrite" in info.value.suggestion
    assert local.used() == client.credits_spent == 25


@pytest.mark.slow
def test_429_rate_limit_is_honoured(make_register: Any) -> None:
    register = make_register(rate_limit=1.0, rate_burst=1)
    ids = list(_companies())[:3]
    client = Client(
        base_url=register.base_url,
        adapter=register.adapter,
        cache="memory",
        retries=RetryPolicy(retries=4, backoff=0.01),
    )
    started = time.monotonic()
    batch = client.get_companies(ids, progress=False)
    assert [r.id for r in batch] == ids
    assert time.monotonic() - started >= 1.5  # two Retry-After: 1 waits at least
    assert client.ledger["attempts"].sum() > 3 and client.credits_spent == 30


def test_429_extract_quota_is_raised_with_retry_after(make_register: Any, world_meta: dict) -> None:
    register = make_register()
    client = Client(base_url=register.base_url, api_key="demo-paid", adapter=register.adapter, cache="memory")
    client.store_credentials(*ACCOUNTS["valid"])
    cid = entity(world_meta, 1)
    with pytest.raises(RateLimitedError) as info:
        for _ in range(21):
            client.order_extract(cid)
    assert info.value.code == "extract_quota_exceeded" and "quota" in info.value.suggestion
    assert client.credits_spent == 20 * 50


def _one_request_a_second(make_register: Any, retries: RetryPolicy) -> tuple[Any, Client]:
    """A register that lets one request a second through, and a client of it that has just used that one
    (storing the register login an extract order needs)."""
    register = make_register(rate_limit=1.0, rate_burst=1)
    client = Client(
        base_url=register.base_url, api_key="demo-paid", adapter=register.adapter, cache="memory", retries=retries
    )
    client.store_credentials(*ACCOUNTS["valid"])  # the bucket's one request
    return register, client


def test_an_order_the_rate_limiter_refused_is_sent_again_and_placed_once(make_register: Any, world_meta: dict) -> None:
    # an order is never sent twice when it may have been carried out; a 429 rate_limited comes from the limiter,
    # before the request is looked at: the order waits its Retry-After and goes again, and is placed once
    register, client = _one_request_a_second(make_register, RetryPolicy(retries=4, backoff=0.01))
    extract = client.order_extract(entity(world_meta, 1))  # refused by the limiter, then placed
    row = client.ledger[client.ledger["call"] == "order_extract"].iloc[-1]
    assert row["attempts"] == 2 and row["credits"] == 50, row.to_dict()
    time.sleep(1.1)  # the limiter's bucket refills: asking what was used is not refused
    session = register.session("demo-paid")
    assert session.get(f"{register.base_url}/v1/credits").json()["used_credits"] == 50  # one order, paid once
    assert client.get_extract(extract.id).id == extract.id


def test_an_order_the_rate_limiter_refused_says_so_not_that_the_quota_is_used_up(
    make_register: Any, world_meta: dict
) -> None:
    _, client = _one_request_a_second(make_register, RetryPolicy(retries=0, backoff=0.01, rate_limit_wait=0))
    with pytest.raises(RateLimitedError) as info:  # no waiting allowed: the limiter's refusal is final here
        client.order_extract(entity(world_meta, 1))
    assert info.value.code == "rate_limited" and "quota" not in str(info.value), str(info.value)


def _faulty(make_register: Any, **faults: Any) -> tuple[Any, Any]:
    from regkit.local import Faults

    register = make_register(faults=Faults(**faults))
    return register, register.counter


def test_5xx_retried_for_lookups_never_for_creation(make_register: Any) -> None:
    register, counter = _faulty(make_register, fault_rate=1.0)
    client = Client(
        base_url=register.base_url,
        adapter=register.adapter,
        cache="memory",
        retries=RetryPolicy(retries=2, backoff=0.0),
    )
    with pytest.raises(ServerError) as lookup:
        client.get_company("DE-HRB-B1234-1")
    assert len(counter.counted) == 3 and lookup.value.code == "injected_fault" and not lookup.value.outcome_unknown
    counter.counted.clear()
    with pytest.raises(ServerError) as monitor:
        client.create_monitor("company", "DE-HRB-B1234-1", ["basic"])
    assert len(counter.counted) == 1 and monitor.value.outcome_unknown
    assert "list_monitors()" in monitor.value.suggestion and "NOT retried" in str(monitor.value)
    counter.counted.clear()
    with pytest.raises(ServerError) as order:
        client.order_extract("DE-HRB-B1234-1")
    assert len(counter.counted) == 1 and order.value.outcome_unknown
    assert "get_credits()" in order.value.suggestion and "support" in order.value.suggestion


@pytest.mark.parametrize("fault", ["timeout_rate", "truncate_rate"])
def test_ambiguous_creation_over_loopback_is_not_retried(make_register: Any, fault: str) -> None:
    from regkit.local import LocalServer

    register, counter = _faulty(make_register, **{fault: 1.0}, timeout=1.0)
    with LocalServer(register.app) as server:
        client = Client(base_url=server.url, api_key="demo-paid", cache="memory", timeout=(2.0, 0.3))
        with pytest.raises(TransportError) as info:
            client.create_monitor("company", "DE-HRB-B1234-1", ["basic"])
        assert info.value.outcome_unknown and "list_monitors()" in info.value.suggestion
        assert len(counter.counted) == 1


def test_connection_refused_is_a_transport_error_that_says_nothing_was_sent() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = Client(
        base_url=f"http://127.0.0.1:{port}",
        api_key="demo-paid",
        cache="memory",
        retries=RetryPolicy(retries=1, backoff=0.0),
    )
    with pytest.raises(TransportError) as lookup:
        client.get_company("DE-HRB-B1234-1")
    assert lookup.value.status is None and client.ledger.iloc[-1]["attempts"] == 2
    assert client.ledger.iloc[-1]["uncertain"] == 0  # refused connections cannot have cost anything
    with pytest.raises(TransportError) as order:
        client.order_extract("DE-HRB-B1234-1")
    assert not order.value.outcome_unknown and "safe to try again" in order.value.suggestion


def test_every_api_error_names_method_path_and_status(local: Any) -> None:
    with pytest.raises(APIError) as info:
        local.client().get_company("DE-HRB-B1234-999999999")
    text = str(info.value)
    assert text.startswith("GET /v1/company/DE-HRB-B1234-999999999: 404 company_not_found:")


def _companies() -> Any:
    from regkit.local.models.catalog import load_catalog

    return load_catalog(None, None).world.companies  # the register's own copy, read once per process


def test_wait_for_extract_gives_up_with_a_clear_error(make_register: Any) -> None:
    from regkit.client import WaitTimeout

    register = make_register(extract_delay=30.0)
    client = Client(base_url=register.base_url, adapter=register.adapter, cache="memory")
    order = client.order_extract(credential_name="sandbox")
    started = time.monotonic()
    with pytest.raises(WaitTimeout) as info:
        client.wait_for_extract(order.id, timeout=0.3, poll=0.05)
    assert time.monotonic() - started < 2 and isinstance(info.value, TimeoutError)
    assert "still processing" in str(info.value) and "polling costs nothing" in info.value.suggestion
    assert not client.get_extract(order.id).meta.from_cache  # processing answers are never cached


@pytest.mark.slow
def test_expired_document_urls_are_refreshed_before_download(tmp_path: Any, make_register: Any) -> None:
    from datetime import timedelta

    from regkit.client import CachePolicy

    # Windows of LIFETIME seconds between steps: wide enough that a pause of the process (a full garbage
    # collection in a long suite) does not age an answer past the client's lifetime between two lines.
    LIFETIME = 2.5
    register = make_register(url_ttl=1)
    client = Client(
        base_url=register.base_url,
        adapter=register.adapter,
        cache="memory",
        policy=CachePolicy(url_lifetime=timedelta(seconds=LIFETIME)),
    )
    done = client.wait_for_extract(client.order_extract(credential_name="sandbox").id, timeout=10, poll=0.05)
    time.sleep(1.2)  # the register's URLs are dead now (not yet the client's lifetime: it learns from a 403)
    files = client.download_extract(done, tmp_path / "docs")  # 403 url_expired, then fresh URLs
    assert files and all(p.read_bytes() for p in files)
    assert client.get_extract(done.id).meta.from_cache  # the refresh was stored
    time.sleep(LIFETIME + 0.1)
    again = client.get_extract(done.id)  # cached, but older than url_lifetime: fetched again (free)
    assert not again.meta.from_cache and again.documents[0]["url"] != done.documents[0]["url"]
    client.cache.offline = True
    offline = client.get_extract(done.id)
    assert offline.meta.from_cache and offline.meta.urls_expired is False  # fresh enough still
    time.sleep(LIFETIME + 0.1)
    stale = client.get_extract(done.id)
    assert stale.meta.urls_expired and all("url" not in d for d in stale.documents)
    assert client.credits_spent == 0
