"""The adaptive pace: learned from 429s, shared by all workers, raised slowly, never ground down by hiccups.

The rules are checked on a fake clock (no test waits for real time, none measures it); a token bucket on the
same fake clock (the local register's own :class:`~regkit.local.ratelimit.RateLimiter`) shows the pace found
and the 429s it costs, and a rate-limited register in-process shows the client's workers keep to it.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import pytest

from regkit.client import Client
from regkit.client.transport.pacing import Pacer, remaining_and_reset
from regkit.local import open_local_register
from regkit.local.ratelimit import RateLimiter

pytestmark = pytest.mark.slow


class FakeClock:
    """Monotonic seconds that move only when somebody sleeps (or a test moves them)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += max(0.0, seconds)


def _pacer(**options: Any) -> tuple[Pacer, FakeClock]:
    clock = FakeClock()
    return Pacer(clock=clock, sleep=clock.sleep, **options), clock


def _answers(pacer: Pacer, clock: FakeClock, count: int, every: float, status: int = 200) -> None:
    """``count`` requests, each sent when the pacer lets it and answered ``every`` seconds later."""
    for _ in range(count):
        pacer.wait()
        clock.now += every
        pacer.observe(status)


def _limited(pacer: Pacer, clock: FakeClock, retry_after: float = 1.0) -> None:
    """One request answered 429, as the caller handles it: observed, then everybody held for Retry-After."""
    pacer.wait()
    pacer.observe(429)
    pacer.close_for(retry_after)


# -- the rules ---------------------------------------------------------------------------------------------


def test_nothing_is_paced_before_the_first_429() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 200, every=0.001)
    assert pacer.rate is None and clock.slept == [] and pacer.remaining() == 0.0


def test_the_first_429_paces_at_what_the_last_second_let_through_after_retry_after() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 50, every=0.004)  # a burst of 50 in 0.2 s
    _limited(pacer, clock, retry_after=1.0)
    assert pacer.rate == 50.0 and pacer.decreases == 1 and pacer.remaining() == 1.0
    start = clock.now
    for _ in range(5):
        pacer.wait()
    # Everybody waits out Retry-After, then one request every 1/50 s (the pace rising a little with each).
    assert clock.slept[0] == 1.0 and clock.now - start == pytest.approx(1.0 + 4 / 50, rel=1e-3)
    assert all(0.0195 < step < 0.0201 for step in clock.slept[1:])


def test_429s_of_requests_already_under_way_do_not_lower_the_pace_again() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 40, every=0.005)
    pacer.wait()  # this thread's request leaves...
    clock.now += 0.05
    pacer.observe(429)  # ...and is refused: the pace is set
    assert pacer.rate == 40.0
    for _ in range(5):
        pacer.observe(429)  # more of the same burst, all sent before the pace was set
    assert pacer.rate == 40.0 and pacer.decreases == 1 and pacer.limited == 6


def test_a_429_right_after_a_pause_is_waited_out_without_lowering_the_pace() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 40, every=0.005)
    _limited(pacer, clock)
    _limited(pacer, clock)  # the first request after the pause is refused too: the server still refuses
    assert pacer.rate == pytest.approx(40.0, rel=1e-3) and pacer.decreases == 1 and pacer.closures == 2


def test_a_later_429_paces_at_the_answers_since_the_last_one_and_never_raises_the_pace() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 50, every=0.004)
    _limited(pacer, clock)  # pace 50 at t=100.2
    set_at = clock.now
    _answers(pacer, clock, 300, every=0.0)  # at the pace (rising slowly) for about 6 s after the pause
    pacer.wait()
    clock.now += 0.05
    pacer.observe(429)
    expected = 300 / (clock.now - set_at)  # between the two 429s the bucket went from empty to empty
    assert pacer.rate == pytest.approx(expected) and 40 < pacer.rate < 50


def test_a_429_lowers_the_pace_by_half_at_most() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 50, every=0.004)
    _limited(pacer, clock)
    clock.now += 30.0  # idle: no answers in the window
    _answers(pacer, clock, 1, every=0.0)
    _limited(pacer, clock)
    assert pacer.rate == pytest.approx(25.0, rel=0.01)


def test_the_pace_goes_back_up_when_stepping_down_did_not_make_429s_rarer() -> None:
    pacer, clock = _pacer()
    _answers(pacer, clock, 40, every=0.025)  # 40 per second, then a 429: pace 40
    _limited(pacer, clock)
    _answers(pacer, clock, 60, every=0.0)  # 60 answers, then a 429: the pace steps down
    _limited(pacer, clock)
    lowered = pacer.rate
    assert lowered is not None and lowered < 40
    _answers(pacer, clock, 60, every=0.0)  # as many answers before the next 429 at the lower pace
    _limited(pacer, clock)
    assert pacer.rate == pytest.approx(40.0, rel=0.02)  # not the pace's doing: back where it was


def test_the_pace_rises_only_while_it_holds_requests_back() -> None:
    pacer, clock = _pacer(increase=0.01, probe=5e-5)
    _answers(pacer, clock, 10, every=0.1)  # 10 per second, then a 429: pace 10
    _limited(pacer, clock)
    assert pacer.rate == 10.0
    clock.now += 1.0
    _answers(pacer, clock, 50, every=0.5)  # slower than the pace: it holds nobody back
    assert pacer.rate == 10.0
    _answers(pacer, clock, 101, every=0.0)  # as fast as allowed: the first goes at once, 100 are held back
    held = 100 / 10  # seconds of sending at the pace
    assert pacer.rate == pytest.approx(10.0 * (1 + 0.01 * held + 5e-5 * held**3), rel=1e-9)


def test_retry_after_never_shortens_and_holds_every_worker() -> None:
    pacer, clock = _pacer()
    pacer.close_for(2.0)
    pacer.close_for(1.0)
    assert pacer.remaining() == 2.0
    assert pacer.wait() == 2.0 and clock.now == 102.0 and pacer.wait() == 0.0


def test_a_worker_held_again_while_it_slept_waits_again() -> None:
    clock = FakeClock()
    pacer: Pacer

    def sleep(seconds: float) -> None:
        clock.sleep(seconds)
        if len(clock.slept) == 1:
            pacer.close_for(3.0)  # another worker met a 429 meanwhile

    pacer = Pacer(clock=clock, sleep=sleep)
    pacer.close_for(1.0)
    assert pacer.wait() == 4.0 and clock.slept == [1.0, 3.0]


def test_ratelimit_headers_hold_the_workers_before_any_429() -> None:
    pacer, clock = _pacer()
    pacer.wait()
    pacer.observe(200, {"RateLimit-Limit": "10", "RateLimit-Remaining": "0", "RateLimit-Reset": "3"})
    assert pacer.remaining() == 3.0 and pacer.rate is None
    pacer.observe(200, {"X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "9"})
    assert pacer.remaining() == 3.0
    assert remaining_and_reset({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2"}) == (0, 2.0)
    assert remaining_and_reset({"RateLimit-Remaining": "many", "RateLimit-Reset": "2"}) is None


def test_workers_share_the_pace() -> None:
    clock = FakeClock()
    lock = threading.Lock()
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # the clock stands still: each wait says which slot the worker got
        with lock:
            waits.append(round(seconds, 6))

    pacer = Pacer(clock=clock, sleep=sleep, increase=0.0, probe=0.0)
    _answers(pacer, clock, 10, every=0.1)
    _limited(pacer, clock, retry_after=1.0)  # pace 10 per second, after a second's pause
    assert pacer.rate == 10.0 and waits == []

    def worker() -> None:
        for _ in range(5):
            pacer.wait()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    # 20 requests of four workers: one slot each, a tenth of a second apart, after the pause.
    assert sorted(waits) == [round(1.0 + n / 10, 6) for n in range(20)]


# -- against a token bucket on the same fake clock ------------------------------------------------------


def _against_bucket(
    rate: float, burst: int, count: int, latency: float = 0.01, learn: bool = True
) -> tuple[int, float]:
    """One worker fetching ``count`` answers from a token bucket, sending when the pacer lets it; the server
    answers 429 with ``Retry-After`` as the local register does.  Returns the 429s and the seconds taken."""
    pacer, clock = _pacer(learn=learn)
    bucket = RateLimiter(rate, burst=burst, clock=clock)
    limited, answered, start = 0, 0, clock.now
    while answered < count:
        pacer.wait()
        wait = bucket.acquire("key")
        clock.now += latency
        if wait:
            limited += 1
            pacer.observe(429)
            pacer.close_for(max(1, math.ceil(wait)))
        else:
            answered += 1
            pacer.observe(200)
    return limited, clock.now - start


@pytest.mark.parametrize(("rate", "burst"), [(50, 50), (10, 100), (5, 5)])
def test_a_token_bucket_is_learned_with_few_429s(rate: float, burst: int) -> None:
    limited, seconds = _against_bucket(rate, burst, count=2000 if rate > 5 else 500)
    answered = 2000 if rate > 5 else 500
    assert limited <= 0.02 * (answered + limited)
    assert answered / (burst + rate * seconds) >= 0.95  # of what the server allowed in that time


def test_without_pacing_the_same_bucket_answers_many_more_429s() -> None:
    unpaced, _ = _against_bucket(50, 50, 2000, learn=False)  # only each Retry-After held: bursts of 429s after it
    paced, _ = _against_bucket(50, 50, 2000)
    assert unpaced > 3 * paced


# -- the client against a rate-limited register -----------------------------------------------------------


def test_bulk_workers_keep_to_a_rate_limit(tmp_path: Any) -> None:
    from regkit.local.world.store import read_world

    register = open_local_register(
        state_path=tmp_path / "state.sqlite", rate_limit=40, rate_burst=40, extract_delay=0.0
    )
    try:
        client = Client(
            api_key="demo-paid",
            base_url=register.base_url,
            adapter=register.adapter,
            cache=tmp_path / "cache.sqlite",
            max_workers=4,
        )
        ids = list(read_world().companies)[:200]
        batch = client.get_companies(ids, progress=False)
        assert len(batch.ok) == 200 and client.credits_spent == 2000
        refused = client.requests_sent - 200
        assert refused < client.requests_sent / 10  # unpaced, each pause is followed by a burst of 429s
        assert isinstance(client._caller.gate, Pacer) and client._caller.gate.limited == refused
        client.close()
    finally:
        register.close()
