"""Fault injection, in-process and over loopback: latency, 500s, timeouts, truncated bodies, 429 bursts."""

from __future__ import annotations

import time

import pytest
import requests
from local_support import charged, error_of, session_for

from regkit.local.faults import Faults
from regkit.local.server import LocalServer


def statuses(session, url, n):
    return [session.get(url).status_code for _ in range(n)]


def used(register):
    return session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits").json()["used_credits"]


def test_fault_rate_gives_500s_that_charge_nothing(make_register, ids):
    register = make_register(faults=Faults(fault_rate=0.5, seed=7))
    session = session_for(register, "demo-paid")
    url = f"{register.base_url}/v1/company/{ids.unique_match}"
    responses = [session.get(url) for _ in range(40)]
    failed = [r for r in responses if r.status_code == 500]
    assert 5 < len(failed) < 35
    assert all(error_of(r) == (500, "injected_fault") and charged(r) == 0 for r in failed)
    register_clean = make_register()  # same state file, no faults
    assert used(register_clean) == 10 * (40 - len(failed))


def test_faults_are_deterministic_for_a_seed(make_register, tmp_path, ids):
    runs = []
    for run in range(2):
        register = make_register(
            state_path=tmp_path / f"run{run}" / "s.sqlite", faults=Faults(fault_rate=0.3, burst_rate=0.1, seed=42)
        )
        runs.append(statuses(session_for(register, "demo-paid"), f"{register.base_url}/v1/credits", 30))
    assert runs[0] == runs[1] and set(runs[0]) == {200, 429, 500}


def test_latency_is_added(make_register):
    register = make_register(faults=Faults(latency=0.05))
    session = session_for(register, "demo-paid")
    started = time.perf_counter()
    session.get(f"{register.base_url}/v1/credits")
    assert time.perf_counter() - started >= 0.05


def test_burst_of_429_with_retry_after(make_register):
    register = make_register(faults=Faults(burst_rate=1.0, burst_length=3))
    response = session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits")
    assert error_of(response) == (429, "rate_limited")
    assert response.headers["Retry-After"] == "1"


@pytest.mark.parametrize("seconds", [0, 4])
def test_a_burst_says_the_retry_after_it_is_given(make_register, seconds):
    register = make_register(faults=Faults(burst_rate=1.0, burst_retry_after=seconds))
    response = session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits")
    assert error_of(response) == (429, "rate_limited") and response.headers["Retry-After"] == str(seconds)


@pytest.mark.parametrize("bad", [-1, 0.5, None, True, "1"])
def test_a_burst_s_retry_after_is_whole_seconds(bad):
    with pytest.raises(ValueError, match="burst_retry_after must be a whole number of seconds"):
        Faults(burst_retry_after=bad)


def test_burst_is_consecutive(make_register):
    register = make_register(faults=Faults(burst_rate=0.05, burst_length=4, seed=3))
    seen = statuses(session_for(register, "demo-paid"), f"{register.base_url}/v1/credits", 200)
    runs = "".join("x" if s == 429 else "." for s in seen).split(".")
    assert {len(r) for r in runs if r} <= {4, 8, 12}


def test_timeout_in_process_honours_the_read_timeout(make_register, ids):
    register = make_register(faults=Faults(timeout_rate=1.0, timeout=30))
    session = session_for(register, "demo-paid")
    started = time.perf_counter()
    with pytest.raises(requests.exceptions.ReadTimeout):
        session.get(f"{register.base_url}/v1/company/{ids.unique_match}", timeout=(1, 0.2))
    assert time.perf_counter() - started < 5
    assert used(make_register()) == 0


def test_timeout_without_read_timeout_drops_the_connection(make_register):
    register = make_register(faults=Faults(timeout_rate=1.0, timeout=0.05))
    with pytest.raises(requests.exceptions.ConnectionError):
        session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits")


def test_truncated_body_raises_and_charges_nothing(make_register, ids):
    register = make_register(faults=Faults(truncate_rate=1.0))
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        session_for(register, "demo-paid").get(f"{register.base_url}/v1/company/{ids.unique_match}")
    assert used(make_register()) == 0


def test_faults_over_loopback(make_register, ids):
    register = make_register(faults=Faults(truncate_rate=0.5, timeout_rate=0.25, timeout=0.5, fault_rate=0.25, seed=1))
    url = f"/v1/company/{ids.unique_match}"
    seen = set()
    with LocalServer(register.app) as server:
        session = session_for(register, base_url=server.url)
        for _ in range(16):
            try:
                response = session.get(url, timeout=0.2)
                seen.add(response.status_code)
            except requests.exceptions.ReadTimeout:
                seen.add("timeout")
            except requests.exceptions.ChunkedEncodingError:
                seen.add("truncated")
            except requests.exceptions.ConnectionError:
                seen.add("dropped")
    assert {500, "truncated"} <= seen and seen & {"timeout", "dropped"}
    assert used(make_register()) == 0


def test_invalid_fault_settings_are_refused():
    with pytest.raises(ValueError):
        Faults(fault_rate=0.8, timeout_rate=0.5)
    with pytest.raises(ValueError):
        Faults(latency=-1)
