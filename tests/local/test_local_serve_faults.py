"""Injected timeouts over real HTTP (waitress): the server drops the connection after ``timeout`` seconds — the
client sees a connection error, not an answer and not a connection held open until its own read timeout — and
the next request, on a new connection, is served."""

from __future__ import annotations

import logging

import pytest
import requests
from local_support import session_for

from regkit.local import Faults, LocalServer

#: Far longer than the injected timeouts: a client that only gives up at its read timeout fails the test.
READ_TIMEOUT = 20


def outcomes(session: requests.Session, url: str, n: int) -> list[object]:
    """Status codes, or ``"dropped"`` for a connection the server closed without an answer."""
    seen: list[object] = []
    for _ in range(n):
        try:
            seen.append(session.get(url, timeout=(5, READ_TIMEOUT)).status_code)
        except requests.exceptions.Timeout as error:  # the client gave up: the server held the connection
            pytest.fail(f"the server did not drop the connection; the client timed out: {error}")
        except requests.exceptions.ConnectionError:
            seen.append("dropped")
    return seen


def dropped_then_served(seen: list[object]) -> bool:
    return any(first == "dropped" and then == 200 for first, then in zip(seen, seen[1:]))


def test_an_injected_timeout_drops_the_connection_over_http(make_register, caplog):
    caplog.set_level(logging.INFO, logger="regkit")
    # seed 3 drops requests 1, 3, 6 and 7 of 8: a drop is followed by an answer
    register = make_register(faults=Faults(timeout_rate=0.5, timeout=0.3, seed=3))
    with LocalServer(register.app) as server:
        seen = outcomes(session_for(register, "demo-paid", base_url=server.url), "/v1/credits", 8)
    assert set(seen) == {200, "dropped"} and dropped_then_served(seen), seen
    injected = [r for r in caplog.records if r.name == "regkit.local.access" and "fault=timeout" in r.getMessage()]
    assert len(injected) == seen.count("dropped")  # every injected timeout, and only those, failed
    assert all(r.getMessage().split('" ')[1].startswith("- -") for r in injected)  # none was answered


def test_every_request_timing_out_never_answers(make_register):
    register = make_register(faults=Faults(timeout_rate=1.0, timeout=0.2))
    with LocalServer(register.app) as server:
        assert outcomes(session_for(register, "demo-paid", base_url=server.url), "/v1/credits", 3) == ["dropped"] * 3


@pytest.mark.slow
@pytest.mark.serve
def test_regkit_serve_drops_a_timed_out_request(regkit_serve):
    served = regkit_serve("--timeout", "1", "--timeout-rate", "0.5", "--fault-seed", "3")
    session = requests.Session()
    session.headers["Authorization"] = "Bearer demo-paid"
    seen = outcomes(session, f"{served.url}/v1/credits", 8)
    assert set(seen) == {200, "dropped"} and dropped_then_served(seen), seen
    dropped = [line for line in served.log_file.read_text().splitlines() if '"GET /v1/credits" - -' in line]
    assert len(dropped) == seen.count("dropped") and all("fault=timeout" in line for line in dropped)


@pytest.mark.slow
@pytest.mark.serve
def test_regkit_serve_says_the_retry_after_of_its_bursts(regkit_serve):
    served = regkit_serve("--burst-rate", "0.5", "--burst-retry-after", "7")  # its readiness check must get through
    session = requests.Session()
    session.headers["Authorization"] = "Bearer demo-paid"
    answers = [session.get(f"{served.url}/v1/credits", timeout=10) for _ in range(20)]
    limited = [answer for answer in answers if answer.status_code == 429]
    assert limited and all(answer.headers["Retry-After"] == "7" for answer in limited)
