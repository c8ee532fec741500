"""Monitors: create, list, delete, plan-driven disabling and the operator's re-enabling."""

from __future__ import annotations

import pytest
from local_support import EMPTY, FREE, charged, error_of, session_for

from regkit.local.cli import main as local_cli
from regkit.local.models.admin import OperatorError, enable_monitors, set_plan

MONITOR = "/v1/monitor"


def create(session, entity_id, entity_type="company", **extra):
    return session.post(
        MONITOR, json={"entity_type": entity_type, "entity_id": entity_id, "preferences": ["basic"], **extra}
    )


def test_company_monitor_weekly_costs_25_daily_50(api, catalog):
    session = api()
    first, second = list(catalog.world.companies)[:2]
    weekly = create(session, first)
    assert weekly.status_code == 200
    assert weekly.json() == {
        "entity_type": "company",
        "entity_id": first,
        "preferences": ["basic"],
        "update_frequency": "weekly",
        "disabled": False,
    }
    assert charged(weekly) == 25
    daily = create(session, second, update_frequency="daily", preferences=["basic", "financials"])
    assert charged(daily) == 50 and daily.json()["update_frequency"] == "daily"
    listed = session.get(MONITOR)
    assert charged(listed) == 0
    assert [m["entity_id"] for m in listed.json()["items"]] == [first, second]
    assert session.get("/v1/credits").json()["used_credits"] == 75


def test_person_monitor_is_weekly(api, ids):
    response = create(api(), ids.person.upper(), entity_type="person")
    assert response.status_code == 200
    assert response.json()["update_frequency"] == "weekly" and response.json()["entity_id"] == ids.person


def test_insolvency_debtor_can_be_monitored(api, catalog):
    person_id = next(p["person_id"] for p in catalog.world.insolvencies.values() if p.get("person_id"))
    assert create(api(), person_id, entity_type="person").status_code == 200


@pytest.mark.parametrize("frequency", ["weekly", "daily"])
def test_person_monitor_with_update_frequency_is_400(api, ids, frequency):
    response = create(api(), ids.person, entity_type="person", update_frequency=frequency)
    assert error_of(response) == (400, "invalid_body")
    assert charged(response) == 0


@pytest.mark.parametrize(
    "body, code",
    [
        ({"entity_type": "company", "entity_id": "nope", "preferences": ["basic"]}, "invalid_entity_id"),
        ({"entity_type": "person", "entity_id": "DE-HRB-B1204-1", "preferences": ["basic"]}, "invalid_entity_id"),
        ({"entity_type": "group", "entity_id": "G001", "preferences": ["basic"]}, "invalid_body"),
        ({"entity_type": "company", "entity_id": "DE-HRB-B1204-1", "preferences": []}, "invalid_body"),
        ({"entity_type": "company", "entity_id": "DE-HRB-B1204-1", "preferences": ["gossip"]}, "invalid_body"),
        ({"entity_type": "company", "entity_id": "DE-HRB-B1204-1", "preferences": ["basic", "basic"]}, "invalid_body"),
        ({"entity_type": "company", "entity_id": "DE-HRB-B1204-1"}, "invalid_body"),
        (
            {
                "entity_type": "company",
                "entity_id": "DE-HRB-B1204-1",
                "preferences": ["basic"],
                "update_frequency": "hourly",
            },
            "invalid_body",
        ),
        (
            {"entity_type": "company", "entity_id": "DE-HRB-B1204-1", "preferences": ["basic"], "webhook": "x"},
            "invalid_body",
        ),
    ],
)
def test_invalid_monitor_bodies_are_400(api, body, code):
    assert error_of(api().post(MONITOR, json=body)) == (400, code)


@pytest.mark.parametrize(
    "entity_type, entity_id", [("company", "DE-HRB-Z9999-1"), ("person", "00000000-0000-4000-8000-000000000000")]
)
def test_unknown_entity_is_404(api, entity_type, entity_id):
    response = create(api(), entity_id, entity_type=entity_type)
    assert error_of(response) == (404, "entity_not_found")
    assert charged(response) == 0


def test_a_company_can_be_monitored_by_a_former_id(api, catalog):
    """An id from before a move to another court leads to the company, as a lookup does (the monitor keeps the id
    it was made with: its checks follow it to the company)."""
    former, current = next(iter(catalog.world.meta["former_ids"].items()))
    response = create(api(), former)
    assert response.status_code == 200 and response.json()["entity_id"] == former
    assert charged(response) == 25 and current in catalog.world.companies


def test_second_monitor_on_an_entity_is_409_and_free(api, ids):
    session = api()
    assert create(session, ids.unique_match).status_code == 200
    response = create(session, ids.unique_match, update_frequency="daily")
    assert error_of(response) == (409, "monitor_exists")
    assert charged(response) == 0


def test_delete_is_204_then_404(api, ids):
    session = api()
    create(session, ids.unique_match)
    deleted = session.delete(f"{MONITOR}/{ids.unique_match}")
    assert deleted.status_code == 204 and deleted.content == b"" and charged(deleted) == 0
    assert session.get(MONITOR).json() == {"items": []}
    assert error_of(session.delete(f"{MONITOR}/{ids.unique_match}")) == (404, "monitor_not_found")


def test_monitors_are_per_user(api, ids):
    create(api(), ids.unique_match)
    other = api(EMPTY)
    assert other.get(MONITOR).json() == {"items": []}
    assert error_of(other.delete(f"{MONITOR}/{ids.unique_match}")) == (404, "monitor_not_found")


def test_plan_without_monitoring_is_402_on_every_monitor_call(api, ids):
    session = api(FREE)
    assert error_of(session.get(MONITOR)) == (402, "plan_required")
    assert error_of(create(session, ids.unique_match)) == (402, "plan_required")
    assert error_of(session.delete(f"{MONITOR}/{ids.unique_match}")) == (402, "plan_required")


def test_no_credits_is_402_and_nothing_created(api, ids):
    session = api(EMPTY)
    assert error_of(create(session, ids.unique_match)) == (402, "insufficient_credits")
    assert session.get(MONITOR).json() == {"items": []}


def test_downgrade_disables_upgrade_keeps_disabled_operator_reenables(api, register, ids, catalog, clock):
    state = register.context.state
    session = api()
    create(session, ids.unique_match, update_frequency="daily", preferences=["basic", "ownership"])
    create(session, ids.person, entity_type="person")
    assert set_plan(state, catalog, "demo-paid", "basic", clock.now) == 2  # paid, no monitoring
    assert error_of(session.get(MONITOR)) == (402, "plan_required")
    assert set_plan(state, catalog, "demo-paid", "pro", clock.now) == 0
    items = session.get(MONITOR).json()["items"]
    assert [m["disabled"] for m in items] == [True, True]
    company = next(m for m in items if m["entity_id"] == ids.unique_match)  # listed by entity id: not always first
    assert company["preferences"] == ["basic", "ownership"] and company["update_frequency"] == "daily"
    assert enable_monitors(state, catalog, "demo-paid") == 2
    assert [m["disabled"] for m in session.get(MONITOR).json()["items"]] == [False, False]


def test_operator_commands_act_on_the_state_file(api, register, ids, capsys):
    create(api(), ids.unique_match)
    state = str(register.context.state.path)
    assert local_cli(["local", "plan", "demo-paid", "free", "--state", state]) == 0
    assert "1 monitor(s) disabled" in capsys.readouterr().out
    assert local_cli(["local", "enable-monitors", "demo-paid", "--state", state]) == 1
    assert "does not include monitoring" in capsys.readouterr().err
    assert local_cli(["local", "plan", "demo-paid", "pro", "--state", state]) == 0
    assert api().get(MONITOR).json()["items"][0]["disabled"] is True
    assert local_cli(["local", "enable-monitors", "demo-paid", "--state", state]) == 0
    assert api().get(MONITOR).json()["items"][0]["disabled"] is False
    assert local_cli(["local", "credits", "demo-paid", "--state", state]) == 0
    assert '"used_credits": 25' in capsys.readouterr().out


@pytest.mark.parametrize("args", [("nobody", "pro"), ("demo-paid", "platinum")])
def test_operator_rejects_unknown_keys_and_plans(register, catalog, args):
    with pytest.raises(OperatorError):
        set_plan(register.context.state, catalog, *args, now=0)


def test_monitors_survive_a_restart(api, make_register, ids):
    create(api(), ids.unique_match)
    restarted = make_register()
    items = session_for(restarted, "demo-paid").get(f"{restarted.base_url}{MONITOR}").json()["items"]
    assert [m["entity_id"] for m in items] == [ids.unique_match]
