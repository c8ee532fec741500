"""Backoff, Retry-After held for every worker, and 429 as "wait, then go on" (its own budget).

The policy's arithmetic (``RetryPolicy``, ``parse_retry_after``, ``is_transient``) and the pacer's hold are unit
tests without a transport; the caller's budgets are tested on the real local register, whose fault plan
(``Faults(plan=[...])``) answers the lookups with exact steps in turn.
"""

from __future__ import annotations

import random
import threading
import warnings
from datetime import datetime, timezone
from typing import Any

import pytest

from regkit.client import Client
from regkit.client.transport.pacing import Pacer
from regkit.client.transport.retry import MIN_RATE_LIMIT_WAIT, RetryPolicy, is_transient, parse_retry_after
from regkit.errors import NotFoundError, RateLimitedError, ServerError, TransportError, ValidationError
from regkit.local import Faults

CID = "DE-HRB-B1234-1"
DEMO_KEY = "demo-paid"  # the key the client fixtures use (conftest's ``LocalTarget``): never in an error


@pytest.mark.parametrize(
    ("value", "seconds"), [("3", 3.0), (" 0.5 ", 0.5), ("-4", 0.0), (None, None), ("soon", None), ("nan", None)]
)
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
    with pytest.raises(ValueError):
        RetryPolicy(rate_limit_wait=-1)
    with pytest.raises(ValueError):
        RetryPolicy(bulk_passes=0)


def test_rate_limit_delay_honours_retry_after_within_its_own_budget() -> None:
    policy = RetryPolicy(retries=1, backoff=0.5, backoff_max=4.0, rate_limit_wait=10.0, rng=random.Random(2))
    assert policy.rate_limit_delay(7.0, 5, retry_after=3.0) == 3.0  # 10 s in all: still fits, whatever `retries`
    assert policy.rate_limit_delay(7.5, 5, retry_after=3.0) is None  # would cross rate_limit_wait
    assert policy.rate_limit_delay(0.0, 0, retry_after=121.0) is None  # beyond max_retry_after: raised
    assert policy.rate_limit_delay(0.0, 0, retry_after=0.0) == MIN_RATE_LIMIT_WAIT  # never a zero-wait loop
    for n in range(4):  # no Retry-After: a growing backoff
        cap = min(4.0, 0.5 * 2**n)
        assert cap / 2 <= policy.rate_limit_delay(0.0, n) <= cap  # type: ignore[operator]
    assert RetryPolicy(statuses=frozenset({500})).rate_limit_delay(0.0, 0, retry_after=1.0) is None
    assert RetryPolicy(retries=0).rate_limit_delay(0.0, 0, retry_after=1.0) is None  # retrying off altogether


def test_bulk_passes_need_retrying_on() -> None:
    assert RetryPolicy().passes == 2 and RetryPolicy(bulk_passes=3).passes == 3
    assert RetryPolicy(retries=0).passes == 1


def test_transient_failures_are_told_from_rejections() -> None:
    where = {"method": "GET", "path": f"/v1/company/{CID}"}
    assert is_transient(ServerError("down", status=503, **where)) and is_transient(TransportError("cut", **where))
    assert is_transient(RateLimitedError("slow", status=429, retry_after=1.0, **where))
    assert not is_transient(NotFoundError("no such company", status=404, **where))
    assert not is_transient(ValidationError("malformed"))
    assert not is_transient(ServerError("maybe ordered", status=500, outcome_unknown=True, **where))
    refused = TransportError("bad url", **where)
    refused.retryable = False  # type: ignore[attr-defined]
    assert not is_transient(refused)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_429_holds_every_thread_for_its_retry_after() -> None:
    pacer = Pacer(learn=False)  # real threads, real time: what the caller does on a 429 with pacing off
    pacer.close_for(0.2)
    waited: list[float] = []
    threads = [threading.Thread(target=lambda: waited.append(pacer.wait()), daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(waited) == 4 and all(w >= 0.15 for w in waited)


def test_without_learning_a_429_sets_no_pace() -> None:
    clock = FakeClock()
    pacer = Pacer(clock=clock, sleep=clock.sleep, learn=False)
    for _ in range(5):
        pacer.wait()
        pacer.observe(200)
    pacer.observe(429)
    pacer.close_for(1.0)
    assert pacer.wait() == 1.0 and pacer.rate is None and pacer.limited == 1
    assert [pacer.wait() for _ in range(3)] == [0.0, 0.0, 0.0]  # after the pause: as fast as they come


# -- the caller: 429 is "wait, then go on" -------------------------------------------------------
#
# These run on the real local register: its fault plan answers the lookups with exact steps in turn (``429`` with
# ``Retry-After: 1``, ``429@2``, ``error`` a 500 ``injected_fault`` charged 0, ``pass`` the register's own answer).
# The register counts the requests that reached it (``target.counter``) and keeps its own account of the credits
# (``target.used()``), checked against the client's ledger. Only time is faked: each 429 holds the client's
# pacer, which waits on a fake clock, so a test waits for no Retry-After.

#: Three retries without pauses: three failures (5xx, timeouts) are allowed per call; 429s come on top.
RETRIES = RetryPolicy(retries=3, backoff=0.0, backoff_max=0.0)
LOOKUPS = "GET /v1/company/*"


@pytest.fixture
def cid(world: Any) -> str:
    """A company of the bundled world."""
    return next(iter(world.companies))


def _planned(make_local: Any, *plan: str, kind: str = "inprocess") -> Any:
    """A register reached ``kind``-wise whose lookups meet the fault ``plan`` in turn."""
    return make_local(kind, faults=Faults(plan=plan))


def _with_fake_clock(client: Any) -> FakeClock:
    """Hold the client's workers on a fake clock: each 429's wait is recorded in ``clock.slept``, not waited."""
    clock = FakeClock()  # the budgets are under test, not the pace: each 429 holds for its Retry-After only
    client._caller.gate = Pacer(clock=clock, sleep=clock.sleep, learn=False)
    return clock


@pytest.mark.parametrize("kind", ["inprocess", "loopback"])
def test_429s_wait_and_do_not_spend_the_failure_budget(make_local: Any, cid: str, kind: str) -> None:
    target = _planned(make_local, f"{LOOKUPS}=429,error,429,429,error,error,429,pass", kind=kind)
    client = target.client(retries=RETRIES)  # three failures are allowed, the four 429s come on top
    clock = _with_fake_clock(client)
    assert client.get_company(cid).id == cid
    assert target.counter.count("GET", "/v1/company/*") == 8 and clock.slept == [1.0] * 4  # each 429 waited once
    ledger = client.ledger
    assert len(ledger) == 1 and ledger.iloc[0]["attempts"] == 8
    assert ledger.iloc[0]["credits"] == target.used() == 10  # only the answer was charged, by both accounts
    assert ledger.iloc[0]["status"] == 200 and not isinstance(ledger.iloc[0]["error"], str)


def test_failures_keep_their_budget_and_say_how_long_the_call_tried(make_local: Any, cid: str) -> None:
    target = _planned(make_local, f"{LOOKUPS}=429,error,gateway,truncate,error*")
    client = target.client(retries=RETRIES)
    clock = _with_fake_clock(client)
    with pytest.raises(ServerError) as info:
        client.get_company(cid)
    # One 429 (waited out), then 1 + 3 retries: a 500, a 502 page, a body cut short, a 500.
    assert target.counter.count("GET", "/v1/company/*") == 5 and clock.slept == [1.0]
    assert "gave up after 5 attempts, 1 of them answered 429" in str(info.value)
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["error"]) == (5, 0, "ServerError") and target.used() == 0


def test_429_patience_is_a_total_wait_and_the_error_says_how_to_get_more(make_local: Any, cid: str) -> None:
    target = _planned(make_local, f"{LOOKUPS}=429@2*")
    client = target.client(retries=RetryPolicy(retries=3, backoff=0.0, rate_limit_wait=5.0))
    clock = _with_fake_clock(client)
    with pytest.raises(RateLimitedError) as info:
        client.get_company(cid)
    assert target.counter.count("GET", "/v1/company/*") == 3 and clock.slept == [2.0, 2.0]  # a third: 6 s > 5 s
    assert "still rate-limited after 3 answers 429 and 4.0 s of waiting" in str(info.value)
    assert "rate_limit_wait" in info.value.suggestion and DEMO_KEY not in str(info.value)
    row = client.ledger.iloc[-1]
    assert (row["attempts"], row["credits"], row["error"]) == (3, 0, "RateLimitedError") and target.used() == 0


def test_pacing_is_on_by_default_and_the_positional_fields_keep_their_places() -> None:
    policy = RetryPolicy(2, 0.5, 5.0, 60.0, 100.0, 3)
    assert (policy.retries, policy.rate_limit_wait, policy.bulk_passes, policy.pacing) == (2, 100.0, 3, True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RetryPolicy(), RetryPolicy(retries=0)  # the defaults warn nothing


def test_turning_pacing_off_is_deprecated_and_warns_at_the_callers_line() -> None:
    with pytest.warns(DeprecationWarning, match=r"pacing=False\) is deprecated") as caught:
        policy = RetryPolicy(pacing=False)
    assert caught[0].filename == __file__ and policy.pacing is False
    client = Client(api_key="k", base_url="http://example.test", cache=False, retries=policy)
    assert client._caller.gate.learn is False  # still honoured: every worker waits out each Retry-After
    assert Client(api_key="k", base_url="http://example.test", cache=False)._caller.gate.learn is True
