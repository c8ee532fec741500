"""The local register's today: the world's as_of at first, moved only forward, kept in the state file and seen by
every register on it (``docs/interface.md``, "The local register's clock")."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from regkit.local.cli import main as local_cli
from regkit.local.exceptions import OperatorError
from regkit.local.models.clock import NOTICE_SECONDS, RegisterClock
from regkit.local.models.state import StateDB

AS_OF = dt.date(2026, 6, 30)  # the bundled world's date (data/world.json), stated here, not read from the code


def test_a_new_register_is_on_the_worlds_date_and_moves_forward_only(make_register: Any) -> None:
    register = make_register()
    assert register.today == AS_OF
    assert register.advance(3) == AS_OF + dt.timedelta(days=3) == register.today
    for wrong in (0, -1, 1.5, True, "2"):
        with pytest.raises(OperatorError, match="whole number of days of at least 1"):
            register.advance(wrong)
    assert register.today == AS_OF + dt.timedelta(days=3)  # nothing moved


def test_seven_days_at_once_are_three_and_four(make_register: Any, tmp_path: Any) -> None:
    at_once = make_register(state_path=tmp_path / "once.sqlite").advance(7)
    split = make_register(state_path=tmp_path / "split.sqlite")
    split.advance(3)
    assert split.advance(4) == at_once == AS_OF + dt.timedelta(days=7)


def test_today_is_kept_in_the_state_file(make_register: Any, tmp_path: Any) -> None:
    state = tmp_path / "kept.sqlite"
    first = make_register(state_path=state)
    first.advance(10)
    first.close()
    assert make_register(state_path=state).today == AS_OF + dt.timedelta(days=10)  # a restart keeps it


def test_advances_at_once_all_count(make_register: Any, tmp_path: Any) -> None:
    register = make_register(state_path=tmp_path / "busy.sqlite")
    others = [make_register(state_path=tmp_path / "busy.sqlite") for _ in range(3)]
    workers = [threading.Thread(target=lambda r=r: [r.advance(1) for _ in range(10)]) for r in [register, *others]]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    time.sleep(NOTICE_SECONDS)  # each register's copy of today is read again
    assert {r.today for r in [register, *others]} == {AS_OF + dt.timedelta(days=40)}


def test_another_process_advancing_is_seen_within_the_notice_time(make_register: Any, tmp_path: Any) -> None:
    state = tmp_path / "served.sqlite"
    register = make_register(state_path=state)
    assert register.today == AS_OF
    done = subprocess.run(
        [sys.executable, "-m", "regkit", "local", "advance", "--days", "5", "--state", str(state)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "2026-07-05", done.stderr
    deadline = time.monotonic() + NOTICE_SECONDS + 1
    while register.today != AS_OF + dt.timedelta(days=5) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert register.today == AS_OF + dt.timedelta(days=5)


def test_the_commands_show_and_move_today(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    state = str(tmp_path / "cli.sqlite")
    assert local_cli(["local", "today", "--state", state]) == 0
    assert capsys.readouterr().out.strip() == "2026-06-30"
    assert local_cli(["local", "advance", "--days", "31", "--state", state]) == 0
    assert capsys.readouterr().out.strip() == "2026-07-31"
    assert local_cli(["local", "today", "--state", state]) == 0
    assert capsys.readouterr().out.strip() == "2026-07-31"


@pytest.mark.parametrize("days", ["0", "-3", "two", "1.5"])
def test_a_wrong_number_of_days_is_a_usage_error(tmp_path: Any, days: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        local_cli(["local", "advance", "--days", days, "--state", str(tmp_path / "s.sqlite")])
    assert stopped.value.code == 2
    assert "a whole number of days of at least 1" in capsys.readouterr().err


def test_an_imported_world_does_not_live_on(tmp_path: Any) -> None:
    state = StateDB(tmp_path / "imported.sqlite")
    meta = {"as_of": "2019-05-14", "retrieved": {"first": "2017-01-02", "last": "2019-05-14"}}  # no seed
    clock = RegisterClock(state, meta)
    assert clock.today() == dt.date(2019, 5, 14)
    with pytest.raises(OperatorError, match="imported, not generated: its clock is its retrieval date"):
        clock.advance(1)
    assert RegisterClock(state, meta).today() == dt.date(2019, 5, 14)
    state.close()


def test_a_state_file_of_an_earlier_world_starts_from_the_later_date(tmp_path: Any) -> None:
    state = StateDB(tmp_path / "moved.sqlite")
    RegisterClock(state, {"synthetic": True, "seed": 1, "as_of": "2020-01-01"}).advance(10)
    later = RegisterClock(state, {"synthetic": True, "seed": 2, "as_of": "2026-06-30"})
    assert later.today() == AS_OF
    assert later.advance(1) == AS_OF + dt.timedelta(days=1)
    state.close()


def test_the_webhook_commands_set_an_endpoint_and_list_what_was_sent(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    state = str(tmp_path / "hooks.sqlite")
    assert local_cli(["local", "webhook", "deliveries", "demo-paid", "--state", state]) == 0
    assert capsys.readouterr().out.strip() == "no webhook messages yet"
    assert (
        local_cli(["local", "webhook", "set", "demo-paid", "--url", "http://127.0.0.1:9/hooks", "--state", state]) == 0
    )
    url, secret = capsys.readouterr().out.split()
    assert url == "http://127.0.0.1:9/hooks" and secret.startswith("whsec_") and len(secret) > 30
    assert local_cli(["local", "webhook", "set", "demo-paid", "--url", "http://example.org/h", "--state", state]) == 1
    assert "http:// is only for loopback and private hosts; use https:// for example.org" in capsys.readouterr().err
    assert (
        local_cli(["local", "webhook", "set", "demo-nobody", "--url", "https://example.org/h", "--state", state]) == 1
    )
    assert "no such API key" in capsys.readouterr().err


def test_a_wrong_retry_schedule_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        local_cli(["serve", "--webhook-retry-delays", "5,soon", "--port", "0"])
    assert stopped.value.code == 2
    assert "seconds separated by commas, e.g. 5,300,1800" in capsys.readouterr().err
