"""The deterministic fault plan (``Faults(plan=...)``, ``regkit serve --fault-plan``): the requests to a path meet
the plan's steps in turn, in-process and over real HTTP, before (and without drawing from) the random faults."""

from __future__ import annotations

import json

import pytest
import requests
from local_support import charged, error_of, session_for
from serve_support import served_register

from regkit.local.faults import PLAN_STEPS, Faults, PlanRule, parse_plan_rule


def test_the_text_form_of_a_rule() -> None:
    assert parse_plan_rule("GET /v1/company/*=503,error,pass") == PlanRule(
        "GET", "/v1/company/*", ("503", "error", "pass")
    )
    assert parse_plan_rule("/v1/credits=429@7*") == PlanRule("*", "/v1/credits", ("429@7",), repeat=True)
    assert parse_plan_rule("post /v1/monitor = gateway") == PlanRule("POST", "/v1/monitor", ("gateway",))
    assert Faults(plan=("GET /v1/credits=error",)).plan == (PlanRule("GET", "/v1/credits", ("error",)),)
    assert Faults(plan=("GET /v1/credits=error",)).active and set(PLAN_STEPS) >= {"pass", "garble", "gateway"}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("GET /v1/credits", "is not of the form"),
        ("GET /v1/credits=", "is not of the form"),
        ("GET v1/credits=error", "must start with '/'"),
        ("GET /v1/credits=boom", "unknown fault plan step 'boom'"),
        ("GET /v1/credits=200", "unknown fault plan step '200'"),
        ("GET /v1/credits=503@soon", "unknown fault plan step"),
        ("A B C=error", "is not of the form"),
    ],
)
def test_a_wrong_rule_says_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Faults(plan=(text,))


def test_the_steps_are_met_in_turn_and_then_the_application_answers(make_register, ids) -> None:
    register = make_register(faults=Faults(plan=("GET /v1/company/*=503,error,429@7,pass,truncate",)))
    session = session_for(register, "demo-paid", conform=False)
    url = f"{register.base_url}/v1/company/{ids.unique_match}"
    answers = [session.get(url) for _ in range(4)]
    assert [error_of(r) for r in answers[:3]] == [
        (503, "injected_fault"),
        (500, "injected_fault"),
        (429, "rate_limited"),
    ]
    assert answers[2].headers["Retry-After"] == "7" and [charged(r) for r in answers[:3]] == [0, 0, 0]
    assert answers[3].status_code == 200 and charged(answers[3]) == 10  # "pass": the application answered
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        _ = session.get(url).content  # "truncate": cut short of its Content-Length
    assert [session.get(url).status_code for _ in range(3)] == [200] * 3  # the plan is used up
    assert session.get(f"{register.base_url}/v1/credits").json()["used_credits"] == 40


def test_a_rule_matches_its_method_and_path_only_and_a_star_repeats(make_register, ids) -> None:
    register = make_register(faults=Faults(plan=("POST /v1/monitor=gateway*", "/v1/credits=503")))
    session = session_for(register, "demo-paid", conform=False)
    assert session.get(f"{register.base_url}/v1/company/{ids.unique_match}").status_code == 200
    assert session.get(f"{register.base_url}/v1/monitor").status_code == 200  # GET: not the rule's method
    for _ in range(3):
        page = session.post(f"{register.base_url}/v1/monitor", json={"entity_type": "company"})
        assert page.status_code == 502 and page.headers["Content-Type"] == "text/html"
        assert b"bad gateway" in page.content and charged(page) == 0
    assert error_of(session.get(f"{register.base_url}/v1/credits")) == (503, "injected_fault")
    assert session.get(f"{register.base_url}/v1/credits").status_code == 200


def test_a_garbled_answer_is_the_charged_answer_cut_in_half_with_a_matching_length(make_register, ids) -> None:
    register = make_register(faults=Faults(plan=("GET /v1/company/*=garble",)))
    session = session_for(register, "demo-paid", conform=False)
    url = f"{register.base_url}/v1/company/{ids.unique_match}"
    garbled = session.get(url)
    whole = session.get(url)
    assert garbled.status_code == 200 and charged(garbled) == 10  # the application answered, and charged
    assert int(garbled.headers["Content-Length"]) == len(garbled.content) == len(whole.content) // 2
    with pytest.raises(json.JSONDecodeError):
        json.loads(garbled.content)


def test_planned_requests_draw_nothing_from_the_random_faults(make_register, tmp_path) -> None:
    def statuses(plan: tuple[str, ...], run: int) -> list[int]:
        faults = Faults(fault_rate=0.5, seed=5, plan=plan)
        register = make_register(state_path=tmp_path / f"run{run}" / "s.sqlite", faults=faults)
        session = session_for(register, "demo-paid", conform=False)
        seen = []
        for _ in range(12):
            seen.append(session.get(f"{register.base_url}/v1/credits").status_code)
            if plan:  # planned: the random faults must not see these requests
                session.get(f"{register.base_url}/v1/monitor")
        return seen

    assert statuses((), 0) == statuses(("GET /v1/monitor=pass*",), 1)


def test_regkit_serve_takes_a_fault_plan(tmp_path) -> None:
    plan = ["--fault-plan", "GET /v1/credits=503,429@3", "--fault-plan", "GET /v1/openapi.json=pass"]
    with served_register(tmp_path / "serve", "--rate-limit", "0", *plan) as served:
        session = requests.Session()
        session.headers["Authorization"] = "Bearer demo-paid"
        seen = [session.get(f"{served.url}/v1/credits", timeout=10) for _ in range(3)]
        assert [r.status_code for r in seen] == [503, 429, 200] and seen[1].headers["Retry-After"] == "3"
        assert "fault injection on" in served.output()[0] and "plan=" in served.output()[0]


def test_regkit_serve_refuses_a_wrong_fault_plan(capsys: pytest.CaptureFixture) -> None:
    from regkit.local.cli import main

    assert main(["serve", "--port", "0", "--fault-plan", "GET /v1/credits=sometimes"]) == 2
    assert "unknown fault plan step 'sometimes'" in capsys.readouterr().err
