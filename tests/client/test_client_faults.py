"""1,000 companies through 20 % injected faults: every record right or its failure named, and
nothing wrong left in the cache."""

from __future__ import annotations

import json
from typing import Any

import pytest

from regkit.client import Client, RegkitError, RetryPolicy

from conftest import RequestCounter, _open_register  # type: ignore[import-not-found]

FAULTS = {"fault_rate": 0.08, "timeout_rate": 0.04, "truncate_rate": 0.07, "burst_rate": 0.01,
          "burst_length": 3, "timeout": 1.0, "seed": 20261121}  # fmt: skip


def _strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "sources"}


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["inprocess", "loopback"])
def test_bulk_lookup_through_faults(tmp_path: Any, world: Any, transport: str) -> None:
    from regkit.local import Faults, LocalServer

    register = _open_register(tmp_path, faults=Faults(**FAULTS))
    counter = RequestCounter(register.app.wsgi_app)
    register.app.wsgi_app = counter
    server = LocalServer(register.app).start() if transport == "loopback" else None
    try:
        client = Client(
            api_key="demo-paid", base_url=server.url if server else register.base_url,
            adapter=None if server else register.adapter, cache=tmp_path / "cache.sqlite", max_workers=16,
            timeout=(2.0, 0.25), retries=RetryPolicy(retries=8, backoff=0.01, backoff_max=0.1),
        )  # fmt: skip
        ids = list(world.companies)[:1000]
        batch = client.get_companies(ids, errors="collect", progress=False)

        failed = []
        for cid, record in zip(ids, batch):
            if record is None:
                error = batch.errors[cid]
                assert isinstance(error, RegkitError) and cid in (error.path or ""), error
                failed.append(cid)
            else:
                assert record.id == cid and _strip(record.raw) == world.companies[cid]
        assert len(failed) <= 2  # P(9 faulted attempts in a row) is ~1e-6 per id
        faulted = len(counter.counted) - 1000
        assert faulted > 150, "the faults did not fire"

        cached = list(client.cache.backend.responses.values())
        assert len(cached) == 1000 - len(failed)
        for response in cached:
            data = json.loads(response.content)
            assert response.status_code == 200 and _strip(data) == world.companies[data["id"]]

        auditor = _open_register(tmp_path)  # the same state file without faults: the register's own account
        try:
            used = int(auditor.session("demo-paid").get(f"{auditor.base_url}/v1/credits").json()["used_credits"])
        finally:
            auditor.close()
        ledger = client.ledger
        assert client.credits_spent == 10 * (1000 - len(failed))  # faulted answers cost nothing
        # A read timeout leaves open whether the register went on and charged (a slow, unfaulted
        # answer on a busy machine): the ledger books those attempts as `uncertain`, never as spent.
        assert client.credits_spent <= used <= client.credits_spent + ledger["uncertain"].sum()
        if transport == "inprocess":  # in-process only faulted requests time out, and those cost nothing
            assert used == client.credits_spent
        assert ledger["attempts"].sum() == len(counter.counted) and ledger["uncertain"].sum() > 0

        counter.counted.clear()
        again = client.get_companies(ids, errors="collect", progress=False)
        assert all(r is not None for r in again) and len(counter.counted) >= len(failed)
        assert all(r.meta.from_cache for cid, r in zip(ids, again) if cid not in failed)
    finally:
        if server is not None:
            server.stop()
        register.close()
