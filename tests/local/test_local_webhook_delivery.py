"""Monitors that deliver: a year of the register's clock, every check's event posted, signed, to regkit's own
receiver over real HTTP, and each event's changes equal to the diff of the answers the register served before
and after (``docs/interface.md``, "Monitors that deliver")."""

from __future__ import annotations

import datetime as dt
import json
import time
from typing import Any

import pytest

from regkit.client.webhook import EventStore, Receiver
from regkit.local.exceptions import OperatorError
from regkit.local.server import LocalServer
from regkit.local.world import read_world
from regkit.local.world.continuation import Continuation
from regkit.schema.changes import diff_answers

AS_OF = dt.date(2026, 6, 30)
ORIGIN = "http://local.regkit"
COMPANY_CATEGORIES = ["basic", "representation", "documents", "financials", "insolvencies"]


def _wait_for(condition: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _watched(days: int) -> tuple[list[str], list[str]]:
    """Companies and persons of the world's date something happens to in the first ``days`` days (and a few it
    does not); a company incorporated since, or a person first named since, cannot be watched from the start."""
    world = read_world()
    events = Continuation.of_world(world).events(AS_OF, AS_OF + dt.timedelta(days=days))
    stored_persons = {
        str(entry["id"]).lower() for company in world.companies.values() for entry in company["representation"]
    }
    kinds: dict[str, str] = {}
    for event in events:
        if event.company_id in world.companies:
            kinds.setdefault(event.kind, event.company_id)
    wanted = (
        "director_appointed",
        "director_left",
        "name_changed",
        "liquidation",
        "report_filed",
        "seat_moved",
        "court_moved",  # watched by the id it has until it moves: the monitor follows it to the new id
        "insolvency_filed",
    )
    # a few, so that a year of daily lookups of each stays within the demo key's credits
    companies = sorted({kinds[kind] for kind in wanted if kind in kinds} | set(list(world.companies)[:1]))
    persons = sorted(
        {
            e.detail["person_id"]
            for e in events
            if e.kind == "director_left" and e.detail["person_id"] and e.detail["person_id"].lower() in stored_persons
        }
    )[:2]
    return companies, persons


@pytest.mark.slow
def test_a_year_of_checks_delivers_exactly_the_served_changes(make_register: Any, tmp_path: Any) -> None:
    days = 365
    register = make_register(state_path=tmp_path / "state.sqlite", clock=time.time)
    key = register.default_api_key
    session = register.session(key)
    companies, persons = _watched(days)
    store = tmp_path / "events.sqlite"
    # the receiver, mounted as a WSGI application on a real HTTP server (its secret is the endpoint's)
    receiver_holder: dict[str, Any] = {}

    def receiver_app(environ: Any, start_response: Any) -> Any:
        return receiver_holder["app"](environ, start_response)

    with LocalServer(receiver_app) as server:
        secret = register.set_webhook(key, f"{server.url}/hooks")
        receiver_holder["app"] = Receiver(secret, store)
        for number, company_id in enumerate(companies):
            frequency = "daily" if number % 2 == 0 else "weekly"
            body = {
                "entity_type": "company",
                "entity_id": company_id,
                "preferences": COMPANY_CATEGORIES,
                "update_frequency": frequency,
            }
            assert session.post(f"{ORIGIN}/v1/monitor", json=body).status_code in (200, 201)
        for person_id in persons:
            body = {
                "entity_type": "person",
                "entity_id": person_id,
                "preferences": ["management_positions"],
            }  # a person monitor is always weekly (sending a frequency is a 400)
            assert session.post(f"{ORIGIN}/v1/monitor", json=body).status_code in (200, 201), person_id
        # the answers the register serves, each day, about what is watched
        served: dict[tuple[str, str], dict[str, Any]] = {}
        proceedings: dict[str, set[str]] = {}

        def fetch(day: dt.date) -> None:
            for company_id in companies:
                company = served[company_id, day.isoformat()] = session.get(f"{ORIGIN}/v1/company/{company_id}").json()
                served[company_id + "/financials", day.isoformat()] = session.get(
                    f"{ORIGIN}/v1/company/{company_id}/financials"
                ).json()
                for summary in company.get("insolvencies") or ():
                    proceedings.setdefault(company_id, set()).add(summary["id"])
                    served[summary["id"], day.isoformat()] = session.get(
                        f"{ORIGIN}/v1/insolvency/{summary['id']}"
                    ).json()
            for person_id in persons:
                served[person_id, day.isoformat()] = session.get(f"{ORIGIN}/v1/person/{person_id}").json()

        fetch(AS_OF)
        assert all("error" not in answer for answer in served.values())
        credits_before = session.get(f"{ORIGIN}/v1/credits").json()["used_credits"]
        for _ in range(days):
            fetch(register.advance(1))
        charged = session.get(f"{ORIGIN}/v1/credits").json()["used_credits"] - credits_before
        assert all("error" not in answer for answer in served.values())  # every lookup was answered
        fetches = sum(10 for key in served if key[1] != AS_OF.isoformat())  # every lookup after the first day
        _wait_for(lambda: all(m["status"] == "delivered" for m in register.deliveries(key)), timeout=120)
    messages = register.deliveries(key)
    assert messages, "a year of events was delivered"
    rows = EventStore(store).rows()
    assert sorted(r["webhook_id"] for r in rows) == sorted(m["webhook_id"] for m in messages)  # each once
    for row in rows:
        event = json.loads(row["body"])
        entity, start, end = event["entity_id"], event["period"]["from"], event["period"]["to"]
        before_day = (dt.date.fromisoformat(start) - dt.timedelta(days=1)).isoformat()
        assert event["created_at"] == f"{end}T00:00:00Z"
        if event["entity_type"] == "company":
            categories = event["monitor"]["preferences"]
            expected = diff_answers(
                "get_company",
                served[entity, before_day],
                served[entity, end],
                [c for c in categories if c != "financials"],
            )
            expected += diff_answers(
                "get_financials",
                served[entity + "/financials", before_day],
                served[entity + "/financials", end],
                ["financials"],
            )
            for proceeding_id in sorted(proceedings.get(entity, ())):  # its proceedings' published events
                if (proceeding_id, before_day) in served:
                    expected += diff_answers(
                        "get_insolvency",
                        served[proceeding_id, before_day],
                        served[proceeding_id, end],
                        ["insolvencies"],
                    )
        else:
            expected = diff_answers(
                "get_person", served[entity, before_day], served[entity, end], ["management_positions"]
            )
        assert event["changes"] == expected and expected, (entity, start, end)
        if event["monitor"]["update_frequency"] == "weekly":
            assert (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days == 6
    delivered = {c["kind"] for r in rows for c in json.loads(r["body"])["changes"]}
    assert {
        "insolvency_opened",
        "insolvency_event",
        "representative_left",
        "report_filed",
        "name_changed",
        "register_changed",
    } <= delivered, delivered
    # every change the register served to a watched company shows up in some event (nothing is missed)
    delivered_days = {(json.loads(r["body"])["entity_id"], json.loads(r["body"])["period"]["to"]) for r in rows}
    for company_id in companies:
        for offset in range(1, days + 1):
            day, before = AS_OF + dt.timedelta(days=offset), AS_OF + dt.timedelta(days=offset - 1)
            if diff_answers("get_company", served[company_id, before.isoformat()], served[company_id, day.isoformat()]):
                covering = [d for e, d in delivered_days if e == company_id and d >= day.isoformat()]
                assert covering, (company_id, day)
    # monthly charges: every 30 days each monitor's price again (12 times in a year)
    monthly = sum(50 if n % 2 == 0 else 25 for n in range(len(companies))) + 25 * len(persons)
    assert charged - fetches == 12 * monthly


def test_an_endpoint_that_fails_is_tried_again_then_marked_failed(make_register: Any, tmp_path: Any) -> None:
    register = make_register(
        state_path=tmp_path / "state.sqlite", webhook_retry_delays=(0.2, 0.2), clock=time.time
    )  # retries wait in wall-clock time
    key = register.default_api_key
    tries: list[str] = []

    def refusing(environ: Any, start_response: Any) -> Any:
        tries.append(environ["HTTP_WEBHOOK_ID"])
        start_response("500 Internal Server Error", [("Content-Type", "text/plain")])
        return [b"no"]

    companies, _ = _watched(60)
    with LocalServer(refusing) as server:
        register.set_webhook(key, f"{server.url}/hooks")
        session = register.session(key)
        for company_id in companies:
            body = {
                "entity_type": "company",
                "entity_id": company_id,
                "preferences": COMPANY_CATEGORIES,
                "update_frequency": "daily",
            }
            assert session.post(f"{ORIGIN}/v1/monitor", json=body).status_code in (200, 201)
        register.advance(60)
        _wait_for(lambda: register.deliveries(key) and all(m["status"] == "failed" for m in register.deliveries(key)))
    messages = register.deliveries(key)
    assert {m["tries"] for m in messages} == {3} and {m["last_error"] for m in messages} == {"HTTP 500"}
    for message in messages:  # the same webhook-id on every try
        assert tries.count(message["webhook_id"]) == 3


@pytest.mark.parametrize(
    "url",
    ["http://example.org/hooks", "ftp://127.0.0.1/x", "not a url"],
)
def test_an_endpoint_url_that_may_not_receive_webhooks_is_refused(make_register: Any, url: str) -> None:
    register = make_register()
    with pytest.raises(OperatorError, match="https://|http:// or https://"):
        register.set_webhook(register.default_api_key, url)
