"""Backoff, Retry-After and the shared gate."""

from __future__ import annotations

import random
import threading
from datetime import datetime, timezone

import pytest

from regkit.client.retry import Gate, RetryPolicy, parse_retry_after


@pytest.mark.parametrize(("value", "seconds"), [("3", 3.0), (" 0.5 ", 0.5), ("-4", 0.0), (None, None),
                                                ("soon", None), ("nan", None)])  # fmt: skip
def test_parse_retry_after_seconds(value: str | None, seconds: float | None) -> None:
    assert parse_retry_after(value) == seconds


def test_parse_retry_after_http_date() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("Thu, 01 Jan 2026 12:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("Thu, 01 Jan 2026 11:00:00 GMT", now=now) == 0.0


def test_backoff_grows_with_jitter_inside_bounds() -> None:
    policy = RetryPolicy(retries=6, backoff=1.0, backoff_max=8.0, rng=random.Random(1))
    for attempt in range(6):
        cap = min(8.0, 2.0**attempt)
        for _ in range(50):
            assert cap / 2 <= policy.delay(attempt) <= cap


def test_retry_after_is_a_floor() -> None:
    policy = RetryPolicy(backoff=0.1, rng=random.Random(0))
    assert policy.delay(0, retry_after=5.0) == 5.0


def test_should_retry_is_bounded_and_selective() -> None:
    policy = RetryPolicy(retries=2)
    assert policy.attempts == 3
    assert policy.should_retry(0, 500) and policy.should_retry(1, 429) and policy.should_retry(1, None)
    assert not policy.should_retry(2, 500)
    assert not policy.should_retry(0, 404) and not policy.should_retry(0, 402)
    assert not RetryPolicy(retries=0).should_retry(0, 503)
    with pytest.raises(ValueError):
        RetryPolicy(retries=-1)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_gate_holds_everyone_until_the_latest_time() -> None:
    clock = FakeClock()
    gate = Gate(clock=clock, sleep=clock.sleep)
    assert gate.wait() == 0.0
    gate.close_for(2.0)
    gate.close_for(1.0)  # never shortens
    assert gate.remaining() == 2.0
    assert gate.wait() == 2.0 and clock.now == 102.0
    assert gate.wait() == 0.0


def test_gate_pauses_all_threads() -> None:
    gate = Gate()
    gate.close_for(0.2)
    waited: list[float] = []
    threads = [threading.Thread(target=lambda: waited.append(gate.wait())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(waited) == 4 and all(w >= 0.15 for w in waited)
