"""Every client method against the local register, in-process and over loopback HTTP.

Credits are checked against the register's own ``GET /v1/credits`` (asked in-process, past any
client): the ledger must agree with it exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from regkit.client import (
    CompanyBatch,
    CompanyRecord,
    ExtractRecord,
    InsolvencyRecord,
    InsolvencySearchPage,
    MonitorRecord,
)

ACCOUNT = {"username": "tr-demo@regkit.example", "password": "Transparenz-2026!"}


def some_ids(world: Any, n: int, start: int = 0) -> list[str]:
    return list(world.companies)[start : start + n]


def test_get_company_matches_the_world_and_is_paid_once(local: Any, world: Any) -> None:
    client = local.client()
    cid = some_ids(world, 1)[0]
    record = client.get_company(cid)
    assert isinstance(record, CompanyRecord)
    assert {k: v for k, v in record.raw.items() if k != "sources"} == world.companies[cid]
    assert record.sources and all(s["document_url"].startswith(local.base_url) for s in record.sources)
    again = client.get_company(cid)
    assert again.meta.from_cache and again.raw == record.raw
    # export=true keeps every member of CompanyV1, with sources present and empty (the live clients require it)
    assert client.get_company(cid, export=True).raw == {**world.companies[cid], "sources": []}
    assert local.used() == client.credits_spent == 20 and client.credits_saved == 10


def test_realtime_costs_20_and_is_never_cached(local: Any, world: Any) -> None:
    client = local.client()
    cid = next(iter(world.realtime))
    first = client.get_company(cid, realtime=True)
    second = client.get_company(cid, realtime=True)
    assert not first.meta.from_cache and not second.meta.from_cache
    assert {k: v for k, v in first.raw.items() if k != "sources"} == world.realtime[cid]
    assert local.used() == client.credits_spent == 40


def test_bulk_lookup_in_input_order_with_duplicates_paid_once(local: Any, world: Any) -> None:
    client = local.client(max_workers=8)
    ids = some_ids(world, 30)
    asked = ids + ids[:10] + ids[::-1]
    estimate = client.estimate_cost(asked)
    assert (estimate.requested, estimate.distinct, estimate.cached, estimate.credits) == (len(asked), 30, 0, 300)
    batch = client.get_companies(asked, progress=False)
    assert isinstance(batch, CompanyBatch) and [r.id for r in batch] == asked
    assert local.used() == client.credits_spent == 300
    assert client.estimate_cost(asked).credits == 0
    assert client.get_companies(ids, progress=False, dry_run=True).cached == 30


def test_bulk_collects_failures_per_id(local: Any, world: Any) -> None:
    client = local.client()
    good = some_ids(world, 3)
    missing = "DE-HRB-B1234-999999999"
    batch = client.get_companies([good[0], "nonsense", missing, good[1], good[2]], errors="collect", progress=False)
    assert [r is None for r in batch] == [False, True, True, False, False]
    assert set(batch.errors) == {"nonsense", missing}
    assert batch.errors[missing].code == "company_not_found" and batch.errors["nonsense"].status is None
    assert local.used() == client.credits_spent == 30


def test_search_pages_and_iteration(local: Any, world: Any) -> None:
    client = local.client()
    filters = {"current_status": ["opened", "preliminary"], "opened_at": ("2020-01-01", None)}
    page = client.search_insolvencies(filters=filters, per_page=5)
    assert isinstance(page, InsolvencySearchPage) and len(page) == 5
    expected = [
        p
        for p in world.insolvencies.values()
        if p["current_status"] in ("opened", "preliminary") and (p["opened_at"] or "") >= "2020-01-01"
    ]
    assert page.total_results == len(expected)
    every = list(client.iter_insolvencies(filters=filters, per_page=100))
    assert sorted(r["id"] for r in every) == sorted(p["id"] for p in expected)
    limited = list(client.iter_insolvencies(filters=filters, per_page=2, limit=3))
    assert [r["id"] for r in limited] == [r["id"] for r in every[:3]]
    pages = 1 + -(-len(expected) // 100) + 2  # the 5-page, every 100-page, and two 2-result pages
    assert local.used() == client.credits_spent == 10 * pages
    list(client.iter_insolvencies(filters=filters, per_page=100))
    assert local.used() == 10 * pages  # the same pages again: all from the cache


def test_insolvency_detail(local: Any, world: Any) -> None:
    client = local.client()
    pid = next(iter(world.insolvencies))
    record = client.get_insolvency(pid)
    assert isinstance(record, InsolvencyRecord) and record.id == pid and record.events
    assert client.get_insolvency(pid).meta.from_cache
    assert local.used() == client.credits_spent == 10


def test_sandbox_extract_order_wait_and_download(local: Any, tmp_path: Any) -> None:
    client = local.client()
    order = client.order_extract(credential_name="sandbox")
    assert isinstance(order, ExtractRecord) and order.status == "processing" and order.company_id is None
    done = client.wait_for_extract(order.id, timeout=10, download_to=tmp_path / "docs", poll=0.05)
    assert done.status == "completed" and done.ekrn == "DE727032388716"
    assert done.files and all(p.stat().st_size > 0 for p in done.files)
    assert {p.name for p in done.files} == {d["filename"] for d in done.documents}
    assert client.get_extract(order.id).meta.from_cache  # terminal: cached now
    assert local.used() == client.credits_spent == 0


def test_production_extract_with_stored_credentials(local: Any, world_meta: dict) -> None:
    client = local.client()
    stored = client.store_credentials(ACCOUNT["username"], ACCOUNT["password"], name="team")
    assert stored.name == "team" and "password" not in stored
    company = next(k for k, v in world_meta["transparenzregister"]["entities"].items() if len(v) == 1)
    order = client.order_extract(company, credential_name="team")
    assert order.company_id == company
    done = client.wait_for_extract(order.id, timeout=10, poll=0.05)
    assert done.status in ("completed", "failed")
    assert local.used() == client.credits_spent == 50


def test_monitors_create_list_delete(local: Any, world: Any) -> None:
    client = local.client()
    cid = some_ids(world, 1)[0]
    created = client.create_monitor("company", cid, ["basic", "financials"], update_frequency="daily")
    assert isinstance(created, MonitorRecord) and created.entity_id == cid
    assert [m.entity_id for m in client.list_monitors()] == [cid]
    client.delete_monitor(cid)
    assert client.list_monitors() == []
    assert local.used() == client.credits_spent == 50


def test_credits_and_ledger_agree_with_the_register(local: Any, world: Any) -> None:
    client = local.client()
    before = client.get_credits()
    client.get_companies(some_ids(world, 5), progress=False)
    client.search_insolvencies(query="GmbH")
    after = client.get_credits()
    assert after.used_credits - before.used_credits == client.credits_spent == 60
    assert client.ledger["credits"].sum() == 60
    assert client._caller.credits_remaining == after.remaining_credits
    text = repr(client)
    assert "spent=60" in text and "demo-paid" not in text


def test_validation_sends_nothing(local: Any) -> None:
    from regkit.client import ValidationError

    client = local.client()
    calls = [
        lambda: client.get_company("DE-HRB-1234"),
        lambda: client.get_companies(["DE-HRB-B1234-1", "bad id"], progress=False),
        lambda: client.search_insolvencies(filters={"court": ("a", "b")}),
        lambda: client.search_insolvencies(per_page=101),
        lambda: client.search_insolvencies(page=0),
        lambda: client.iter_insolvencies(filters={"opened_at": "2024-13-01"}),
        lambda: client.get_insolvency(""),
        lambda: client.store_credentials("u", "p", name="sandbox"),
        lambda: client.order_extract("DE-HRB-B1234-1", credential_name="sandbox"),
        lambda: client.order_extract(),
        lambda: client.get_extract("123"),
        lambda: client.create_monitor("person", "x", ["basic"]),
        lambda: client.create_monitor("company", "DE-HRB-B1234-1", ["everything"]),
        lambda: client.delete_monitor("nobody"),
    ]
    for call in calls:
        with pytest.raises(ValidationError):
            call()
    assert local.counter.counted == [] and local.used() == 0 and len(client.ledger) == 0
