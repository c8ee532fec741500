"""The faults that lost a team money (issue 21), each with real processes: a real ``redis-server`` killed with
``kill -9`` or stopped and restarted on its port, a real ``regkit serve`` charging a real API key, and members in
child processes killed with ``kill -9`` in the middle of a call.

Every scenario ends the same way: the credits the register charged (its own ``used_credits``) equal what the
clients' ledgers say they spent (summed over processes) and what the team budget says the team spent — or the
difference is named in a :class:`~regkit.errors.BudgetWarning` — and the register never charged more than
the team's cap. Waits are bounded polls, never timing assertions; an :class:`~team_support.AnswerGate` holds a
call's answer back so that the fault lands while the call is in flight, whatever the machine's speed.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import requests
from team_support import HANG, LOOKUP, answer_gate, child, start_child, stored_secrets, used_credits

from regkit.client import BudgetExceededError, BudgetUnavailableError, BudgetWarning, Client
from regkit.client.team import TeamBudget


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll ``condition`` until it holds (bounded; a wait, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)


def _client(base_url: str, redis: Any, team: str, member: str, budget: int | None = 300) -> Client:
    return Client(
        api_key="demo-paid",
        base_url=base_url,
        cache="memory",
        budget=budget,
        budget_scope=f"{redis.url}#{team}",
        budget_member=member,
        retries=0,
    )


def _holds_running(redis: Any, team: str) -> int:
    """Reservations of ``team`` whose hold has not passed (read by the test itself, straight from Redis)."""
    connection = redis.connect()
    try:
        return int(connection.zcard(f"regkit-team:{{{team}}}:expiry"))
    finally:
        connection.close()


def _no_secrets(redis: Any) -> None:
    assert stored_secrets(redis, ["demo-paid", redis.password]) == []


@pytest.mark.slow
@pytest.mark.parametrize("how", ["kill -9", "SHUTDOWN NOSAVE"])
def test_the_cap_survives_redis_losing_its_data(served: Any, killable_redis: Any, world: Any, how: str) -> None:
    """Fault 1: Redis restarted without its data must not turn the team's cap into "no limit"."""
    redis, ids = killable_redis, list(world.companies)[4000:4040]
    before = used_credits(served.url)
    bob = child(
        LOOKUP,
        api_key="demo-paid",
        base_url=served.url,
        budget=300,
        scope=f"{redis.url}#lab",
        member="bob",
        ids=ids[:10],
    )  # another process, which creates and anchors the team
    alice = _client(served.url, redis, "lab", "alice")
    alice.get_companies(ids[10:15], progress=False)
    assert bob["spent"] == 100 and alice.budget.spent == 150

    if how == "kill -9":
        redis.kill()
    else:
        redis.shutdown(save=False)
    with pytest.raises(BudgetUnavailableError, match="team lab in Redis .* could not be read or written") as info:
        alice.get_company(ids[15])  # fails closed: nothing sent
    assert redis.password not in str(info.value) and used_credits(served.url) - before == 150
    assert alice.budget.limit == 300  # what the handle knows, never "no limit"

    redis.restart()  # on its port, empty: the team's keys are gone
    with pytest.warns(BudgetWarning, match=r"team lab: re-established .* 150 credits spent"):
        alice.get_company(ids[15])  # re-established from the register's account before anything is sent
    assert alice.budget.spent == 160 and alice.budget.limit == 300
    alice.get_companies(ids[16:30], progress=False)
    with pytest.raises(BudgetExceededError, match=r"only 0 of the budget of team lab \(300\) are left"):
        alice.get_company(ids[30])
    late = child(
        LOOKUP,
        api_key="demo-paid",
        base_url=served.url,
        budget=300,
        scope=f"{redis.url}#lab",
        member="carol",
        ids=ids[31:33],
        errors="collect",
    )  # joins after the restore: refused
    assert late["spent"] == 0 and (late["refused"] or late["raised"] == "BudgetExceededError")

    charged = used_credits(served.url) - before
    team = TeamBudget(redis.url, "lab")
    assert charged == 300 == bob["spent"] + alice.credits_spent + late["spent"] == alice.budget.spent == team.spent
    ledger = team.ledger()
    assert ledger[["call", "credits"]].values.tolist()[0] == ["restore", 150]  # the total before the loss
    assert int(ledger["credits"].sum()) == 300 and set(ledger["who"]) == {"alice"}
    _no_secrets(redis)
    alice.close()


@pytest.mark.parametrize("how", ["kill -9", "SHUTDOWN SAVE"])
def test_a_paid_answer_is_kept_when_redis_fails_at_its_settlement(
    served: Any, killable_redis: Any, world: Any, how: str
) -> None:
    """Fault 2: the answer of a charged call comes back while Redis is down; it is returned, not lost."""
    redis, ids = killable_redis, list(world.companies)[4100:4110]
    before = used_credits(served.url)
    with answer_gate(served.url) as gate:  # holds each lookup's answer (charged by the register) until opened
        client = _client(gate.url, redis, "desk", "erin")

        def fault_while_in_flight() -> None:
            gate.arrived.wait(timeout=120)  # the register has charged the call; its answer waits at the gate
            if how == "kill -9":
                redis.kill()
            else:
                redis.shutdown(save=True)
            gate.open()

        fault = threading.Thread(target=fault_while_in_flight)
        fault.start()
        with pytest.warns(BudgetWarning, match=r"10 credits charged for get_company are pending \(10 in all\)") as seen:
            record = client.get_company(ids[0])
        fault.join(timeout=120)
        assert all(redis.password not in str(w.message) and "demo-paid" not in str(w.message) for w in seen)
        assert record.raw["id"] == ids[0] and record.meta.credits == 10  # the paid answer, returned
        assert client.credits_spent == 10 and used_credits(served.url) - before == 10  # in the client's ledger
        assert client.budget.pending == 10 and "10 credits pending" in repr(client.budget)
        with pytest.raises(BudgetUnavailableError, match="10 credits this client was charged are not yet recorded"):
            client.get_company(ids[1])  # Redis still down and a charge pending: nothing is sent
        assert used_credits(served.url) - before == 10

        if how == "kill -9":
            redis.restart()  # empty: re-established from the account, which has the pending charge already
            with pytest.warns(BudgetWarning, match=r"re-established .* 10 credits spent"):
                client.get_company(ids[1])
        else:
            redis.restart(keep_data=True)  # it saved: the pending charge is recorded as it was
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                client.get_company(ids[1])
            assert [str(w.message) for w in caught if issubclass(w.category, BudgetWarning)] == []

        assert client.budget.pending == 0
        charged = used_credits(served.url) - before
        assert charged == 20 == client.credits_spent == client.budget.spent
        ledger = client.budget.ledger()
        expected = [["restore", 10], ["get_company", 10]] if how == "kill -9" else [["get_company", 10]] * 2
        assert ledger[["call", "credits"]].values.tolist() == expected
        _no_secrets(redis)
        client.close()


def test_a_bulk_call_in_flight_when_redis_dies_counts_each_charge_once(
    served: Any, killable_redis: Any, world: Any
) -> None:
    """Eight lookups of a bulk call are charged while Redis dies: all eight answers are kept, the rest of the
    call is refused, and the eight pending charges are counted once when the team is re-established."""
    redis, ids = killable_redis, list(world.companies)[4600:4620]
    before = used_credits(served.url)
    with answer_gate(served.url) as gate:
        client = _client(gate.url, redis, "bulk", "ivy")  # 8 workers

        def fault_while_in_flight() -> None:
            try:
                _wait_for(lambda: gate.held == 8, "eight lookups charged and in flight")
                redis.kill()
            finally:
                gate.open()

        fault = threading.Thread(target=fault_while_in_flight)
        fault.start()
        with pytest.warns(BudgetWarning, match="are pending"):
            batch = client.get_companies(ids[:12], errors="collect", progress=False)
        fault.join(timeout=120)
        assert [r.raw["id"] for r in batch.ok] == ids[:8]  # every charged answer kept
        assert set(batch.errors) == set(ids[8:12])  # the rest refused before anything was sent
        assert all(isinstance(e, BudgetUnavailableError) for e in batch.errors.values())
        assert client.budget.pending == 80 and client.credits_spent == 80 == used_credits(served.url) - before
        redis.restart()
        with pytest.warns(BudgetWarning, match=r"re-established .* 80 credits spent"):
            again = client.get_companies(ids[8:12], progress=False)
        assert len(again.ok) == 4 and client.budget.pending == 0
        charged = used_credits(served.url) - before
        assert charged == 120 == client.credits_spent == client.budget.spent
        client.close()


@pytest.mark.slow
def test_a_member_killed_mid_call_cannot_make_the_team_cross_its_cap(served: Any, redis: Any, world: Any) -> None:
    """Fault 3: a member is killed after the register charged its call; its hold passes; another member spends."""
    ids = list(world.companies)[4200:4240]
    before = used_credits(served.url)
    with answer_gate(served.url) as gate:  # the register charges the lookup; its answer never leaves the gate
        hang = start_child(
            HANG,
            api_key="demo-paid",
            base_url=gate.url,
            budget=300,
            scope=f"{redis.url}#ops",
            member="carl",
            hold=2.0,
            timeout=600,
            retries=0,
            ids=ids[:1],
        )
        try:
            team = TeamBudget(redis.url, "ops")
            _wait_for(lambda: gate.arrived.is_set() and team.held == 10, "carl's call, charged and in flight")
            assert used_credits(served.url) - before == 10 and team.spent == 0
            os.kill(hang.pid, signal.SIGKILL)
            hang.wait(timeout=30)
            _wait_for(lambda: team.held >= 0 and not _holds_running(redis, "ops"), "carl's hold to pass")
            assert team.held == 10 and team.remaining == 290  # not freed: still counted against the cap
            assert team.orphaned == 10
        finally:
            if hang.poll() is None:
                hang.kill()
                hang.wait(timeout=30)

    dora = _client(served.url, redis, "ops", "dora", budget=None)  # the team's cap
    with pytest.warns(BudgetWarning, match="10 credits held by calls of members that stopped mid-call"):
        dora.get_company(ids[1])  # finds the orphan, reconciles with the account: carl's 10 were charged
    assert team.orphaned == 0 and team.spent == 20
    dora.get_companies(ids[2:29], progress=False)
    dora.get_company(ids[29])
    with pytest.raises(BudgetExceededError, match=r"only 0 of the budget of team ops \(300\) are left"):
        dora.get_company(ids[30])

    charged = used_credits(served.url) - before
    assert charged == 300 == team.spent  # the cap, not a credit more
    assert charged == dora.credits_spent + 10  # carl's 10 died with his process; the warning named them
    ledger = team.ledger()
    assert ledger[["who", "call", "credits"]].values.tolist()[0] == ["dora", "reconcile", 10]
    assert int(ledger["credits"].sum()) == 300
    _no_secrets(redis)
    dora.close()


def test_redis_rolled_back_to_an_older_save_is_re_established(served: Any, killable_redis: Any, world: Any) -> None:
    """Redis restarted from an older dump holds the team with less spending than it had: not trusted."""
    redis, ids = killable_redis, list(world.companies)[4300:4320]
    before = used_credits(served.url)
    client = _client(served.url, redis, "archive", "fay", budget=100)
    client.get_companies(ids[:3], progress=False)
    redis.save()  # the dump says 30
    client.get_companies(ids[3:7], progress=False)
    redis.kill()
    redis.restart(keep_data=True)  # back to the dump: 30 spent, 70 "left"
    with pytest.warns(BudgetWarning, match=r"re-established .* 70 credits spent"):
        client.get_company(ids[7])
    client.get_companies(ids[8:10], progress=False)
    with pytest.raises(BudgetExceededError):
        client.get_company(ids[10])
    charged = used_credits(served.url) - before
    assert charged == 100 == client.credits_spent == client.budget.spent
    _no_secrets(redis)
    client.close()


def test_a_team_without_a_cap_stays_one_and_is_counted_through_a_loss(
    served: Any, killable_redis: Any, world: Any
) -> None:
    redis, ids = killable_redis, list(world.companies)[4400:4410]
    before = used_credits(served.url)
    client = _client(served.url, redis, "open", "gus", budget=None)
    client.get_companies(ids[:3], progress=False)
    assert client.budget.limit is None and client.budget.spent == 30
    redis.kill()
    with pytest.warns(BudgetWarning, match="10 credits charged for get_company are pending"):
        client.get_company(ids[3])  # no cap: never refused; the charge waits in the handle
    redis.restart()
    with pytest.warns(BudgetWarning, match=r"re-established .* 50 credits spent.*cap none"):
        client.get_company(ids[4])  # its settlement finds the team gone and re-establishes it from the account
    assert client.budget.limit is None and client.budget.remaining is None and client.budget.pending == 0
    charged = used_credits(served.url) - before
    assert charged == 50 == client.credits_spent == client.budget.spent
    _no_secrets(redis)
    client.close()


def test_a_team_budget_without_an_account_reader_fails_closed(redis: Any) -> None:
    desk = TeamBudget(redis.url, "desk", 100, member="hal")  # made directly: no reader of the account
    assert desk.settle(desk.reserve(30, what="get_company"), 30) is None
    redis.flush()  # the team's data is gone
    assert desk.limit == 100  # the cap this handle knows, not "no limit"
    with pytest.raises(BudgetUnavailableError, match="no reader of the register's account") as info:
        desk.reserve(10, what="get_company")
    assert "restore(spent=N)" in str(info.value) and redis.password not in str(info.value)
    assert desk.reserve(0).credits == 0  # a free attempt is never refused
    with pytest.warns(BudgetWarning, match="re-established .* 30 credits spent, from the spending given; cap 100"):
        desk.restore(spent=30)  # by hand
    assert desk.snapshot() == (30, 0, 100)
    assert desk.try_reserve(71) is None and desk.try_reserve(70) is not None
    assert desk.restore() == "team desk: its data is in Redis; nothing to restore" and desk.remaining == 0
    assert desk.ledger()[["who", "call", "credits"]].values.tolist() == [["hal", "restore", 30]]


def test_a_member_that_began_the_team_anew_after_a_flush_is_brought_back(served: Any, redis: Any, world: Any) -> None:
    """Redis flushed; a newcomer (who remembers nothing) begins the team anew; the member who remembers it
    re-establishes it as it was, and the newcomer takes that team as its own (its anchor counts less)."""
    ids = list(world.companies)[4500:4520]
    before = used_credits(served.url)
    alice = _client(served.url, redis, "merge", "alice", budget=100)
    alice.get_companies(ids[:3], progress=False)
    redis.flush()
    nick = _client(served.url, redis, "merge", "nick", budget=100)  # begins the team anew: anchored at 30 more
    nick.get_company(ids[3])
    with pytest.warns(BudgetWarning, match=r"re-established .* 40 credits spent"):
        alice.get_company(ids[4])  # the team nick began counts less than the one alice remembers: hers wins
    nick.get_company(ids[5])  # nick adopts it
    assert nick.budget.spent == alice.budget.spent == 60
    charged = used_credits(served.url) - before
    assert charged == 60 == alice.credits_spent + nick.credits_spent
    _no_secrets(redis)
    alice.close()
    nick.close()


def test_a_reconciliation_decides_only_on_a_quiet_team(served: Any, redis: Any) -> None:
    """Script 1 reads the counter and the calls in flight, then the account is read, then script 2 decides only if
    nothing was reserved or settled in between and nothing is in flight."""

    def read() -> Any:
        answer = requests.get(f"{served.url}/v1/credits", headers={"Authorization": "Bearer demo-paid"}, timeout=30)
        return answer.json()

    ann = TeamBudget(redis.url, "quiet", 100, member="ann")
    ann.bind_account(read)
    ben = TeamBudget(redis.url, "quiet", member="ben")
    first = ann.reserve(10, what="get_company")  # the team is anchored before its first hold
    assert ann.snapshot() == (0, 10, 100)
    unbound = ben.reconcile()
    assert not unbound.done and unbound.note == (
        "team quiet: no reader of the register's account is bound (client.budget.bind_account)"
    )
    ben.bind_account(read)
    busy = ben.reconcile()
    assert not busy.done and "1 call(s) in flight" in busy.note
    ann.settle(first, 0)

    def settling_read() -> Any:  # a call starts and settles while the account is read
        ann.settle(ann.reserve(5, what="get_company"), 0)
        return read()

    ben.bind_account(settling_read)
    raced = ben.reconcile()
    assert not raced.done and "meanwhile" in raced.note
    ben.bind_account(read)
    quiet = ben.reconcile()
    assert quiet.done and (quiet.spent_before, quiet.spent, quiet.released) == (0, 0, 0)
    assert ann.snapshot() == (0, 0, 100) and len(ann.ledger()) == 0
