"""Bulk specifics: estimates, budget before the first request, dry runs, error modes, the second
pass over ids that failed, and resuming at no cost."""

from __future__ import annotations

import io
import sys
from collections import Counter
from typing import Any

import pytest

from regkit.client import (
    BudgetExceededError,
    Client,
    CostEstimate,
    NotFoundError,
    RetryPolicy,
    ServerError,
    ValidationError,
)
from regkit.client.lookups import lookup_op

DEMO_KEY = "demo-paid"


def _ids(world: Any, n: int) -> list[str]:
    return list(world.companies)[:n]


def test_budget_checks_the_estimate_before_anything_is_sent(inprocess: Any, world: Any) -> None:
    client = inprocess.client(budget=95)
    ids = _ids(world, 10)
    with pytest.raises(BudgetExceededError) as info:
        client.get_companies(ids, progress=False)
    assert info.value.needed == 100 and info.value.remaining == 95
    assert inprocess.counter.counted == [] and inprocess.used() == 0
    text = str(info.value)  # each number once: the counts, then what is needed against what is left
    assert "(10 ids, 10 distinct, 0 cached → 10 × 10) needs up to 100 credits but only 95 of the budget" in text
    assert text.count("100") == 1 and "budget left" not in text
    client.get_companies(ids[:5], progress=False)  # 50 credits
    batch = client.get_companies(ids[:9], progress=False)  # 5 cached + 4 new = 40 more: fits 45 left
    assert len(batch.ok) == 9 and client.budget.remaining == 5 and inprocess.used() == 90


def test_dry_run_and_estimate(inprocess: Any, world: Any) -> None:
    client = inprocess.client(budget=1000)
    ids = _ids(world, 4)
    client.get_company(ids[0])
    estimate = client.get_companies(ids + ids, progress=False, dry_run=True)
    assert isinstance(estimate, CostEstimate)
    assert (estimate.requested, estimate.distinct, estimate.cached, estimate.to_fetch) == (8, 4, 1, 3)
    assert estimate.credits == 30 and estimate.within_budget and "30 credits" in str(estimate)
    realtime = client.estimate_cost(ids, realtime=True)
    assert realtime.cached == 0 and realtime.credits == 80
    assert inprocess.used() == 10


def test_raise_mode_stops_and_names_the_id(inprocess: Any, world: Any) -> None:
    client = inprocess.client(max_workers=2)
    with pytest.raises(ValidationError, match="1 of 3 ids are malformed"):
        client.get_companies(_ids(world, 2) + ["DE-???"], progress=False)
    assert inprocess.counter.counted == []
    with pytest.raises(NotFoundError) as info:
        client.get_companies(["DE-HRB-B1234-999999999"] + _ids(world, 3), progress=False)
    assert "DE-HRB-B1234-999999999" in info.value.path
    # A rejection stops the call at once; the lookups already running finish, and the error says so.
    assert "of 4 companies fetched" in str(info.value) and "cost nothing when asked again" in str(info.value)
    assert "errors='collect'" in info.value.suggestion and "check the id" in info.value.suggestion


def test_argument_errors(inprocess: Any) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match="not one string"):
        client.get_companies("DE-HRB-B1234-1")
    with pytest.raises(ValidationError, match="'raise' or 'collect'"):
        client.get_companies([], errors="ignore")
    assert len(client.get_companies([], progress=False)) == 0


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, as a console's is."""

    def isatty(self) -> bool:
        return True


def test_progress_bar_counts_distinct_companies(inprocess: Any, world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    client = inprocess.client()
    client.get_companies(_ids(world, 3) * 2, progress=True)
    assert "0/3 [" in terminal.getvalue()  # the total is the number of distinct companies


def test_no_progress_bar_floods_a_log_that_is_not_a_terminal(
    inprocess: Any, world: Any, capsys: pytest.CaptureFixture
) -> None:
    client = inprocess.client()
    client.get_companies(_ids(world, 3), progress=True)  # stderr captured: a file, as under nohup or in CI
    err = capsys.readouterr().err
    assert "%|" not in err and "0/3" not in err, err
    assert "regkit: get_companies: 3 companies to fetch (0 cached) → 30 credits at most" in err  # the cost line stays


# -- failures after all retries: a second pass, then a clear way to resume ----------------------


def _flaky(make_local: Any, world: Any, failures: int) -> tuple[Any, list[str]]:
    """A register whose lookups of the third of six companies answer 500 ``failures`` times (a fault plan),
    everything else as usual."""
    from regkit.local import Faults

    ids = _ids(world, 6)
    plan = [f"GET /v1/company/{ids[2]}=" + ",".join(["error"] * failures)]
    return make_local(faults=Faults(plan=plan)), ids


def test_a_second_pass_fetches_ids_that_failed_after_their_retries(make_local: Any, world: Any) -> None:
    target, ids = _flaky(make_local, world, failures=4)  # retries=3: the first call of that id fails 4 times
    client = target.client(max_workers=3, retries=RetryPolicy(retries=3, backoff=0.0, backoff_max=0.0))
    batch = client.get_companies(ids, progress=False)  # errors="raise", the default
    assert [r.id for r in batch] == ids and not batch.errors
    assert target.counter.count("GET", f"/v1/company/{ids[2]}") == 5
    assert target.counter.count("GET", "/v1/company/*") == 5 + 5
    ledger = client.ledger
    rows = ledger[ledger["path"] == f"/v1/company/{ids[2]}"]
    assert rows["error"].tolist()[0] == "ServerError" and rows["attempts"].tolist() == [4, 1]
    assert len(ledger) == len(ids) + 1 and client.credits_spent == 10 * len(ids) == target.used()


def test_raise_mode_says_how_many_were_fetched_and_how_to_resume(make_local: Any, world: Any) -> None:
    target, ids = _flaky(make_local, world, failures=4)
    client = target.client(max_workers=3, retries=RetryPolicy(retries=3, backoff=0.0, bulk_passes=1))
    with pytest.raises(ServerError) as info:
        client.get_companies(ids, progress=False)
    text = str(info.value)
    assert ids[2] in text and "5 of 6 companies fetched" in text and "gave up after 4 attempts" in text
    assert "call get_companies again to resume" in info.value.suggestion and DEMO_KEY not in text
    sent = target.counter.count()
    again = client.get_companies(ids, progress=False)  # resume: only the missing one is sent
    assert [r.id for r in again] == ids and target.counter.count() == sent + 1
    assert [r.meta.from_cache for r in again] == [cid != ids[2] for cid in ids]
    assert client.credits_spent == 10 * len(ids) == target.used()
    assert target.counter.count("GET", f"/v1/company/{ids[2]}") == 5


def test_collect_names_each_failure_and_resumes_at_no_cost(tmp_path: Any, make_register: Any, world: Any) -> None:
    from regkit.local import Faults

    ids = _ids(world, 30)
    faulty = make_register(faults=Faults(fault_rate=0.3, seed=11))
    cache = tmp_path / "cache.sqlite"
    try:
        with Client(
            api_key="demo-paid", base_url=faulty.base_url, adapter=faulty.adapter, cache=cache, retries=0
        ) as client:  # no retries, no second pass: some lookups fail
            batch = client.get_companies(ids + ["DE-???"], errors="collect", progress=False)
    finally:
        faulty.close()
    failed = [cid for cid, record in zip(ids, batch) if record is None]
    assert 0 < len(failed) < len(ids) and batch.failed_ids == failed  # the malformed id is not one to ask again
    assert set(batch.errors) == {*failed, "DE-???"} and all(isinstance(batch.errors[c], ServerError) for c in failed)
    summary = batch.summary()
    assert f"{len(ids) - len(failed)} of {len(ids) + 1} companies fetched, {len(failed) + 1} failed" in summary
    assert all(f"{cid}: ServerError: GET /v1/company/{cid}: 500 injected_fault" in summary for cid in failed)
    assert "client.get_companies(batch.failed_ids" in summary and "cost nothing" in summary
    assert "client.get_companies(batch.failed_ids) resumes" in repr(batch)

    clean = make_register()  # the same register state, no faults
    counter = clean.counter
    with Client(api_key="demo-paid", base_url=clean.base_url, adapter=clean.adapter, cache=cache) as client:
        resumed = client.get_companies(batch.failed_ids, progress=False)
        assert [r.id for r in resumed] == failed and len(counter.counted) == len(failed)
        everything = client.get_companies(ids, progress=False)
        assert [r.id for r in everything] == ids and len(counter.counted) == len(failed)  # all cached now
        assert client.credits_spent == 10 * len(failed)
    used = int(clean.session("demo-paid").get(f"{clean.base_url}/v1/credits").json()["used_credits"])
    assert used == 10 * len(ids)  # every company paid exactly once over both runs


# -- cached ids: one read of the cache, no workers ---------------------------------------------------------


def test_cached_ids_are_answered_from_one_read_of_the_cache_without_the_workers(inprocess: Any, world: Any) -> None:
    ids = _ids(world, 12)
    inprocess.client().get_companies(ids[:8], progress=False)
    client = inprocess.client()  # a new client on the same cache, as after a restart
    batch = client.get_companies(ids[:8] + ids[:2])  # progress bar on, duplicates
    assert not client._pool.started and client.requests_sent == 0  # no thread was started, nothing sent
    assert [r.id for r in batch] == ids[:8] + ids[:2] and all(r.meta.from_cache for r in batch)
    ledger = client.ledger
    assert len(ledger) == 8 and set(ledger["source"]) == {"cache"} and ledger["saved"].sum() == 80
    mixed = client.get_companies(ids, progress=False)  # 8 from the cache, 4 sent
    assert [r.id for r in mixed] == ids and client.requests_sent == 4 and inprocess.used() == 120
    assert Counter(client.ledger["source"][8:]) == {"cache": 8, "network": 4}


def test_a_former_id_and_an_expired_answer_in_a_bulk_lookup(inprocess: Any, world: Any) -> None:
    moved = next(
        (cid, former)
        for cid, company in world.companies.items()
        for former in {r["company_id"] for r in company["registers"]} - {cid}
    )
    other = next(cid for cid in world.companies if cid != moved[0])
    client = inprocess.client()
    client.get_companies([moved[0], other], progress=False)
    backend = client.cache.backend
    key = client._caller.cache_key(lookup_op("company", other, False, export=False))
    response = backend.get_response(key)
    from datetime import datetime, timedelta, timezone

    response.expires = datetime.now(timezone.utc) - timedelta(seconds=1)
    backend.responses[key] = response
    estimate = client.estimate_cost([moved[1], other])
    assert (estimate.cached, estimate.to_fetch) == (1, 1)  # the former id is cached, the expired answer is not
    batch = client.get_companies([moved[1], other], progress=False)
    assert batch[0].id == moved[0] and batch[0].meta.from_cache
    assert not batch[1].meta.from_cache and client.requests_sent == 3
