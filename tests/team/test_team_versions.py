"""Versions and watchlists on a team's Redis cache: a refreshed answer's older one is kept in the Redis beside the
answers, every member's client compares the same versions (``client.changes``), for nothing, and a watchlist one
member made is every member's."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from versions_support import store_older

from regkit import Client

WHEN = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)


def test_a_team_shares_the_versions_of_its_redis_cache(redis: Any) -> None:
    first = Client(cache=redis.url, ledger_file=None, quiet=True)  # the bundled register, in-process
    company_id = first.search_companies("GmbH", per_page=1).results[0]["company_id"]
    first.get_company(company_id)
    store_older(
        first, lambda a: a.update(capital={"amount": 12500.0, "currency": "EUR", "start_date": "1998-05-05"}), WHEN
    )
    now = first.get_company(company_id)  # expired: fetched again; the capital of 1998 becomes a version
    first.close()

    member = Client(cache=redis.url, ledger_file=None, quiet=True, offline=True)  # a colleague, nothing sent
    frame = member.changes(company_id)
    assert frame[["operation", "kind", "before", "after"]].values.tolist() == [
        ["get_company", "capital_changed", 12500.0, now.raw["capital"]["amount"]]
    ]
    assert frame.loc[0, "fetched_before"] == WHEN
    member.close()


def test_a_team_shares_its_watchlists_through_its_redis_cache(redis: Any) -> None:
    first = Client(cache=redis.url, ledger_file=None, quiet=True)
    companies = [r["company_id"] for r in first.search_companies("GmbH", per_page=3).results]
    first.watchlist("team-suppliers", companies=companies, categories=["basic"], stale_after="3D")
    first.watchlist("team-suppliers").refresh(progress=False)
    first.close()
    member = Client(cache=redis.url, ledger_file=None, quiet=True, offline=True)  # a colleague, nothing sent
    shared = member.watchlist("team-suppliers")
    assert shared.companies == tuple(companies) and shared.categories == ("basic",)
    assert shared.estimate().stale == ()  # the answers the first member fetched are the team's
    assert member.watchlists() == ["team-suppliers"]
    member.close()
