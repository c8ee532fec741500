"""Versions on a team's Redis cache: a refreshed answer's older one is kept in the Redis beside the answers, and
every member's client compares the same versions (``client.changes``), for nothing."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from requests_cache import CachedResponse

from regkit import Client

WHEN = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)


def test_a_team_shares_the_versions_of_its_redis_cache(redis: Any) -> None:
    first = Client(cache=redis.url, ledger_file=None, quiet=True)  # the bundled register, in-process
    company_id = first.search_companies("GmbH", per_page=1).results[0]["company_id"]
    first.get_company(company_id)
    [stored] = [answer for answer in first.cache.scan() if "/v1/company/" in answer.url]
    held = first.cache.backend.get_response(stored.key)
    older = json.loads(stored.body)
    older["capital"] = {"amount": 12500.0, "currency": "EUR", "start_date": "1998-05-05"}
    crafted = CachedResponse(
        content=json.dumps(older).encode(),
        status_code=200,
        url=held.url,
        headers=dict(held.headers),
        request=held.request,
        created_at=WHEN,
    )
    first.cache.backend.save_response(crafted, cache_key=stored.key, expires=datetime.now(timezone.utc) - timedelta(1))
    now = first.get_company(company_id)  # expired: fetched again; the capital of 1998 becomes a version
    first.close()

    member = Client(cache=redis.url, ledger_file=None, quiet=True, offline=True)  # a colleague, nothing sent
    frame = member.changes(company_id)
    assert frame[["operation", "kind", "before", "after"]].values.tolist() == [
        ["get_company", "capital_changed", 12500.0, now.raw["capital"]["amount"]]
    ]
    assert frame.loc[0, "fetched_before"] == WHEN
    member.close()
