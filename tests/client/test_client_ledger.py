"""The ledger frame and the budget's reservations."""

from __future__ import annotations

import threading

import pytest

from regkit.client import BudgetExceededError
from regkit.client.budget.ledger import Ledger
from regkit.client.budget.limit import Budget


def test_empty_ledger_has_documented_columns_and_dtypes() -> None:
    frame = Ledger().to_dataframe()
    assert list(frame.columns) == [
        "time",
        "call",
        "method",
        "path",
        "status",
        "credits",
        "saved",
        "source",
        "from_cache",
        "attempts",
        "uncertain",
        "error",
        "note",
    ]
    assert str(frame["time"].dtype) == "datetime64[us, UTC]"
    assert str(frame["status"].dtype) == "Int64"
    assert frame.attrs == {"credits_spent": 0, "credits_saved": 0}
    for column in frame.columns:  # each column the frame has is documented
        assert column in Ledger.to_dataframe.__doc__


def test_rows_sum_up() -> None:
    ledger = Ledger()
    ledger.record(call="get_company", method="GET", path="/v1/company/X", status=200, credits=10)
    ledger.record(
        call="get_company", method="GET", path="/v1/company/X", status=200, source="cache", saved=10, attempts=0
    )
    ledger.record(
        call="get_company",
        method="GET",
        path="/v1/company/Y",
        status=None,
        uncertain=10,
        attempts=2,
        error="TransportError",
    )
    frame = ledger.to_dataframe()
    assert (ledger.spent, ledger.saved, ledger.uncertain) == (10, 10, 10)
    assert frame["from_cache"].tolist() == [False, True, False]
    assert frame["status"].isna().tolist() == [False, False, True]
    assert frame.attrs == {"credits_spent": 10, "credits_saved": 10}
    with pytest.raises(ValueError):
        ledger.record(call="x", method="GET", path="/", status=200, source="elsewhere")


def test_budget_refuses_before_crossing() -> None:
    budget = Budget(25)
    first = budget.try_reserve(10)
    assert first is not None and budget.remaining == 15
    budget.settle(first, 10)
    assert budget.try_reserve(20) is None
    with pytest.raises(BudgetExceededError) as info:
        budget.check(20, what="get_company")
    assert (info.value.needed, info.value.remaining) == (20, 15)
    assert "nothing was sent" in str(info.value)
    held = budget.try_reserve(10)
    assert held is not None
    budget.settle(held, 0)  # a cache hit releases the hold
    assert (budget.spent, budget.remaining) == (10, 15)


def test_unlimited_budget_counts_but_never_refuses() -> None:
    budget = Budget(None)
    budget.settle(budget.try_reserve(10**9), 30)  # type: ignore[arg-type]
    assert budget.remaining is None and budget.spent == 30
    with pytest.raises(ValueError):
        Budget(-1)


def test_concurrent_reservations_never_overshoot() -> None:
    budget = Budget(1000)
    granted: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(50):
            held = budget.try_reserve(10)
            if held is not None:
                with lock:
                    granted.append(10)
                budget.settle(held, 10)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(granted) == budget.spent == 1000 and budget.remaining == 0
