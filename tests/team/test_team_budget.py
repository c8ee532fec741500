"""A team budget on Redis: one cap across processes, atomic reservations, a ledger of who spent what, and the
credits of a process that crashed mid-call held until the register's account settles them (the faults that lose
money otherwise are in ``test_team_budget_faults.py``)."""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from serve_support import ServedRegister, served_register
from team_support import HANG, LOOKUP, answer_gate, result_of, start_child, start_together, stored_secrets, used_credits

from regkit.client import BudgetExceededError, BudgetWarning, Client, ValidationError
from regkit.client.team import TeamBudget, TeamReservation

pytestmark = pytest.mark.slow


def _wait_for(condition: Any, what: str, timeout: float = 60.0) -> None:
    """Poll ``condition`` until it holds (bounded; this is a wait, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def slow_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedRegister]:
    """``regkit serve`` answering after 50 ms, so that two processes' lookups overlap."""
    with served_register(tmp_path_factory.mktemp("slow"), "--rate-limit", "0", "--latency", "50ms") as server:
        yield server


@pytest.mark.parametrize("errors", ["collect", "raise"])
def test_two_processes_under_one_budget_spend_it_once(slow_served: Any, redis: Any, world: Any, errors: str) -> None:
    ids = list(world.companies)[1000:1060]  # 30 uncached lookups each, 300 credits each: 600 wanted, 300 allowed
    scope = f"{redis.url}#team-a"
    before = used_credits(slow_served.url)
    common = {
        "api_key": "demo-paid",
        "base_url": slow_served.url,
        "cache": redis.url,
        "budget": 300,
        "scope": scope,
        "errors": errors,
        "wait": True,
    }
    alice = start_child(LOOKUP, member="alice", ids=ids[:30], **common)
    bob = start_child(LOOKUP, member="bob", ids=ids[30:], **common)
    start_together([alice, bob])
    results = [result_of(alice), result_of(bob)]
    charged = used_credits(slow_served.url) - before
    assert charged == 300  # every refusal came when the cap was spent or held by calls that were then charged
    assert sum(r["spent"] for r in results) == charged
    if errors == "collect":  # each collects its refusals (its bulk call may also be refused as a whole up front)
        assert any(r["refused"] for r in results) or any(r["raised"] == "BudgetExceededError" for r in results)
    else:
        assert any(r["raised"] == "BudgetExceededError" for r in results)
    team = TeamBudget(redis.url, "team-a")
    assert team.limit == 300 and team.spent == 300 and team.remaining == 0 and team.held == 0
    ledger = team.ledger()
    assert len(ledger) == 30 and int(ledger["credits"].sum()) == 300 and set(ledger["who"]) <= {"alice", "bob"}
    assert set(ledger["call"]) == {"get_company"} and ledger["path"].str.startswith("/v1/company/DE-").all()
    spent_by = ledger.groupby("who")["credits"].sum().to_dict()
    assert spent_by == {name: r["spent"] for name, r in zip(("alice", "bob"), results) if r["spent"]}
    assert [str(t) for t in ledger.dtypes] == ["str", "str", "str", "int64", "datetime64[us, UTC]"]
    assert ledger.attrs == {"team": "team-a", "credits_spent": 300}
    assert stored_secrets(redis, ["demo-paid", redis.password]) == []


def _account_of(base_url: str, api_key: str = "demo-paid") -> Any:
    """A reader of the register's account (``GET /v1/credits``), as :class:`regkit.Client` binds one."""
    return lambda: requests.get(
        f"{base_url}/v1/credits", headers={"Authorization": f"Bearer {api_key}"}, timeout=30
    ).json()


def test_a_crash_mid_call_keeps_its_reservation_held_until_the_account_settles_it(
    served: Any, redis: Any, world: Any
) -> None:
    scope = f"{redis.url}#crash-team"
    with answer_gate(served.url, forward=False) as gate:  # the lookup never reaches the register: never charged
        hang = start_child(
            HANG,
            api_key="demo-paid",
            base_url=gate.url,
            budget=300,
            scope=scope,
            hold=2.0,
            timeout=600,
            retries=0,
            ids=list(world.companies)[:1],
        )
        try:
            team = TeamBudget(redis.url, "crash-team")
            _wait_for(lambda: gate.arrived.is_set() and team.held == 10, "the child's call in flight")
            assert team.remaining == 290 and team.spent == 0 and team.orphaned == 0
            started = time.monotonic()
            _wait_for(lambda: time.monotonic() - started > 3.0, "longer than the hold")
            assert team.held == 10 and team.orphaned == 0  # alive: its heartbeat keeps extending the hold
            os.kill(hang.pid, signal.SIGKILL)  # a crash in the middle of the call
            hang.wait(timeout=30)
            _wait_for(lambda: team.orphaned == 10, "the hold of the dead process to pass")
            # Not freed: the register may have charged the call. Still counted against the cap.
            assert team.held == 10 and team.remaining == 290 and team.spent == 0
            unread = team.reconcile()  # this handle has no reader of the account: nothing is decided
            assert not unread.done and "no reader" in unread.note and team.orphaned == 10
            team.bind_account(_account_of(served.url))
            with pytest.warns(BudgetWarning, match="10 credits held by calls of members that stopped mid-call"):
                settled = team.reconcile()  # the account says the call was never charged
            assert settled.done and settled.released == 10 and (settled.spent_before, settled.spent) == (0, 0)
            assert team.held == 0 and team.orphaned == 0 and team.remaining == 300 and team.spent == 0
            assert len(team.ledger()) == 0
        finally:
            if hang.poll() is None:
                hang.kill()
                hang.wait(timeout=30)


def test_reserve_and_settle_are_shared_by_every_handle(redis: Any) -> None:
    first = TeamBudget(redis.url, "desk", 100, member="carol")
    second = TeamBudget(redis.url, "desk")  # another process would see the same
    held = first.reserve(60, what="get_company", method="GET", path="/v1/company/DE-HRB-B1-1")
    assert isinstance(held, TeamReservation) and held.id and second.remaining == 40 and second.held == 60
    assert second.try_reserve(50) is None
    with pytest.raises(BudgetExceededError, match=r"only 40 of the budget of team desk \(100\) are left") as info:
        second.reserve(50, what="get_companies (5 ids)", method="GET", path="/v1/company/{id}")
    assert info.value.needed == 50 and info.value.remaining == 40 and info.value.path == "/v1/company/{id}"
    first.settle(held, 10)  # charged less than held: the rest is free again
    assert second.spent == 10 and second.remaining == 90 and second.held == 0
    second.check(90)
    with pytest.raises(BudgetExceededError):
        second.check(91)
    ledger = second.ledger()
    assert ledger[["who", "call", "path", "credits"]].values.tolist() == [
        ["carol", "get_company", "/v1/company/DE-HRB-B1-1", 10]
    ]


def test_the_cap_lives_in_redis(redis: Any) -> None:
    scope = f"{redis.url}#analysts"
    lead = Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget=500, budget_scope=scope)
    member = Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget_scope=scope)
    assert member.budget.limit == 500  # no budget given: the team's
    with pytest.raises(
        ValidationError, match=r"budget=300, but the budget of team analysts in Redis .* is 500"
    ) as info:
        Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget=300, budget_scope=scope)
    assert "set_limit(300)" in str(info.value) and redis.password not in str(info.value)
    lead.budget.set_limit(300)
    assert TeamBudget(redis.url, "analysts", 300).limit == 300
    lead.budget.set_limit(None)
    assert TeamBudget(redis.url, "analysts").remaining is None


def test_a_team_without_a_cap_counts_and_records(served: Any, redis: Any, world: Any) -> None:
    client = Client(
        api_key="demo-paid",
        base_url=served.url,
        cache=redis.url,
        budget_scope=f"{redis.url}#open",
        budget_member="dora",
    )
    ids = list(world.companies)[2000:2003]
    client.get_companies(ids, progress=False)
    client.get_companies(ids, progress=False)  # cached: free, and not in the team ledger
    assert client.budget.limit is None and client.budget.remaining is None and client.budget.spent == 30
    assert list(client.budget.ledger()["who"]) == ["dora"] * 3
    assert "budget=open: 30 spent, no limit" in repr(client)
    client.close()


def test_repr_shows_the_team_and_no_password(served: Any, redis: Any, world: Any) -> None:
    client = Client(
        api_key="demo-paid", base_url=served.url, cache=redis.url, budget=300, budget_scope=f"{redis.url}#team-a"
    )
    client.get_companies(list(world.companies)[3000:3018], progress=False)
    assert "budget=team-a: 120 of 300 left" in repr(client)
    assert repr(client.budget) == f"<TeamBudget team-a at redis://***@127.0.0.1:{redis.port}/0: 120 of 300 left>"
    for text in (repr(client), repr(client.budget), repr(client.cache)):
        assert redis.password not in text and "demo-paid" not in text
    client.close()


@pytest.mark.parametrize(
    ("scope", "fragment"),
    [
        ("https://cache.example/0#team-a", "must be a Redis URL"),
        ("redis://:pw-Hidden@cache.example:6379/0", "names no team"),
        ("redis://:pw-Hidden@cache.example:6379/0#", "team name '' is not valid"),
        ("redis://:pw-Hidden@cache.example:6379/0#team a", "team name 'team a' is not valid"),
        ("redis://cache.example/0#-team", "team name '-team' is not valid"),
        (42, "must be a Redis URL with '#' and a team name, or None, not 42 (int)"),
    ],
)
def test_a_scope_is_checked_before_anything_is_opened(scope: Any, fragment: str) -> None:
    with pytest.raises(ValidationError, match="budget_scope") as info:
        Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget=300, budget_scope=scope)
    assert fragment in str(info.value) and "pw-Hidden" not in str(info.value)


def test_a_member_needs_a_scope_and_a_name() -> None:
    with pytest.raises(ValidationError, match="budget_member names who spends from a team budget"):
        Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget_member="alice")
    with pytest.raises(ValidationError, match="budget_member must be a name"):
        Client(
            api_key="demo-paid",
            base_url="http://127.0.0.1:9",
            cache="memory",
            budget_member="",
            budget_scope="redis://127.0.0.1:9/0#team-a",
        )


def test_a_scope_whose_redis_does_not_answer_says_so(redis: Any) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ValidationError, match="did not answer PING") as info:
        Client(
            api_key="demo-paid",
            base_url="http://127.0.0.1:9",
            cache="memory",
            budget=10,
            budget_scope=f"redis://:pw-Hidden@127.0.0.1:{port}/0#team-a",
        )
    assert "pw-Hidden" not in str(info.value) and "team team-a" in str(info.value)
    wrong = redis.url.replace(redis.password, "not-the-password")
    with pytest.raises(ValidationError, match="did not answer PING") as info:
        Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory", budget_scope=f"{wrong}#team-a")
    assert "not-the-password" not in str(info.value) and redis.password not in str(info.value)
