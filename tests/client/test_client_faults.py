"""Companies through the fault mix of the issue, with the client's DEFAULT settings: 10 % 500s, 5 %
timeouts, 5 % truncated bodies and 2 % bursts of three 429s.  Every record comes back equal to the
world's, every company is paid exactly once, the ledger adds up and nothing wrong is left in the cache.

1,000 companies in-process (the assertion of the issue), 200 over real loopback HTTP.  Over loopback each 429
says ``Retry-After: 1``, which every worker waits out (a burst of three holds the client about 3 s); in-process
the bursts say ``Retry-After: 0`` — the same 429s, retries and pacing, without the 2–3 minutes of waiting out
1,000 companies' bursts that the server asked for.  The faults
are seeded; which request meets which fault still depends on how the workers interleave, so the
assertions hold for any draw the retries and the bulk call's second pass can absorb (losing a record
needs ten failed attempts in a row: about 1e-7 per company).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from regkit.client import Client

MIX = {
    "fault_rate": 0.10,
    "timeout_rate": 0.05,
    "truncate_rate": 0.05,
    "burst_rate": 0.02,
    "burst_length": 3,
    "timeout": 0.2,
}


class Outcomes:
    """WSGI middleware in front of the register (and its fault injector): what each request that
    reached it ended in — a status, or ``"dropped"`` for a connection closed without an answer."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.seen: Counter = Counter()
        self.lock = threading.Lock()

    def _note(self, outcome: Any) -> None:
        with self.lock:
            self.seen[outcome] += 1

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") == "/v1/credits":
            return self.app(environ, start_response)

        def noting(status: str, headers: Any, *rest: Any) -> Any:
            self._note(int(status.split()[0]))
            return start_response(status, headers, *rest)

        try:
            return self.app(environ, noting)
        except OSError:
            self._note("dropped")
            raise

    @property
    def requests(self) -> int:
        return sum(self.seen.values())


def _strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "sources"}  # presigned URLs differ per answer


def _used(make_register: Callable[..., Any]) -> int:
    """Credits the register itself booked (the same state file, opened without faults)."""
    auditor = make_register()
    return int(auditor.session("demo-paid").get(f"{auditor.base_url}/v1/credits").json()["used_credits"])


def _check_run(client: Client, batch: Any, ids: list[str], world: Any, outcomes: Outcomes, make_register: Any) -> None:
    assert [record.id for record in batch] == ids and not batch.errors and not batch.failed_ids
    assert all(_strip(record.raw) == world.companies[cid] for cid, record in zip(ids, batch))
    assert outcomes.seen[429] > 0 and outcomes.seen[500] > 0 and outcomes.seen["dropped"] > 0

    # Paid exactly once per company: by the register's own account and by the client's.
    assert _used(make_register) == client.credits_spent == 10 * len(ids)
    # The ledger: one row per call — one per company, plus one per company of the second pass; each
    # company has exactly one successful row, which carries its 10 credits; every request that
    # reached the register is an attempt of exactly one row; lost answers are `uncertain`, not spent.
    ledger = client.ledger
    failed = ledger[ledger["error"].notna()]
    ok = ledger[(ledger["status"] == 200) & ledger["error"].isna()]  # a cut-off 200 is a failed row
    assert sorted(ok["path"]) == sorted(f"/v1/company/{cid}" for cid in ids) and (ok["credits"] == 10).all()
    assert len(ledger) == len(ids) + len(failed) and set(failed["path"]) <= set(ok["path"])
    assert (failed["credits"] == 0).all() and ledger["attempts"].sum() == outcomes.requests
    assert ledger["uncertain"].sum() > 0

    cached = list(client.cache.backend.responses.values())  # nothing cut off or faulted was cached
    assert len(cached) == len(ids)
    assert all(
        r.status_code == 200 and _strip(json.loads(r.content)) == world.companies[json.loads(r.content)["id"]]
        for r in cached
    )

    before = outcomes.requests
    again = client.get_companies(ids, progress=False)  # a re-run is free: everything is cached
    assert outcomes.requests == before and all(record.meta.from_cache for record in again)


@pytest.mark.slow
def test_1000_companies_through_faults_with_default_settings(tmp_path: Any, make_register: Any, world: Any) -> None:
    from regkit.local import Faults

    register = make_register(faults=Faults(**MIX, seed=20261121, burst_retry_after=0))
    register.app.wsgi_app = outcomes = Outcomes(register.app.wsgi_app)
    with Client(
        api_key="demo-paid", base_url=register.base_url, adapter=register.adapter, cache=tmp_path / "cache.sqlite"
    ) as client:
        ids = list(world.companies)[:1000]
        batch = client.get_companies(ids, progress=False)  # errors="raise", the default
        _check_run(client, batch, ids, world, outcomes, make_register)


@pytest.mark.slow
def test_companies_through_faults_over_loopback(tmp_path: Any, make_register: Any, world: Any) -> None:
    from regkit.local import Faults, LocalServer

    register = make_register(faults=Faults(**MIX, seed=7))
    register.app.wsgi_app = outcomes = Outcomes(register.app.wsgi_app)
    with (
        LocalServer(register.app) as server,
        Client(api_key="demo-paid", base_url=server.url, cache=tmp_path / "cache.sqlite") as client,
    ):
        ids = list(world.companies)[1000:1200]
        batch = client.get_companies(ids, progress=False)
        _check_run(client, batch, ids, world, outcomes, make_register)
