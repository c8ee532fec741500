"""Bulk specifics: estimates, budget before the first request, dry runs, error modes."""

from __future__ import annotations

from typing import Any

import pytest

from regkit.client import BudgetExceededError, CostEstimate, NotFoundError, ValidationError


def _ids(world: Any, n: int) -> list[str]:
    return list(world.companies)[:n]


def test_budget_checks_the_estimate_before_anything_is_sent(inprocess: Any, world: Any) -> None:
    client = inprocess.client(budget=95)
    ids = _ids(world, 10)
    with pytest.raises(BudgetExceededError) as info:
        client.get_companies(ids, progress=False)
    assert info.value.needed == 100 and info.value.remaining == 95
    assert inprocess.counter.counted == [] and inprocess.used() == 0
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


def test_argument_errors(inprocess: Any) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match="not one string"):
        client.get_companies("DE-HRB-B1234-1")
    with pytest.raises(ValidationError, match="'raise' or 'collect'"):
        client.get_companies([], errors="ignore")
    assert len(client.get_companies([], progress=False)) == 0


def test_progress_bar_counts_distinct_companies(inprocess: Any, world: Any, capsys: pytest.CaptureFixture) -> None:
    client = inprocess.client()
    client.get_companies(_ids(world, 3) * 2, progress=True)
    err = capsys.readouterr().err
    assert "0/3 [" in err  # the total is the number of distinct companies
