"""The searches of a register whose world has moved on: they find what the days since the world's date brought.

A register advanced 200 days is searched over real requests (in-process, through ``requests``) and every answer is
compared with a brute-force oracle over the records the same register serves on that day: the company search with
``CompanyOracle`` (``company_search_support``) over the stored records with the served records of every company an
event touched in their place, the insolvency search with the filters' oracle over the served proceedings, the
person search with the served persons. Nothing here reads the register's indexes.
"""

from __future__ import annotations

import datetime as dt
import types
from collections.abc import Iterator
from typing import Any

import pytest
from company_search_support import CompanyOracle
from local_support import filter_matches, open_test_register, search_all, session_for

from regkit.local.register import LocalRegister
from regkit.local.world.continuation import Continuation, RegisterEvent

pytestmark = pytest.mark.slow

AS_OF = dt.date(2026, 6, 30)  # the bundled world's date (data/world.json)
DAYS = 200
DAY = AS_OF + dt.timedelta(days=DAYS)


@pytest.fixture(scope="module")
def world_files() -> Any:
    from regkit.local.world import read_world

    return read_world()


@pytest.fixture(scope="module")
def events(world_files: Any) -> list[RegisterEvent]:
    """The events of the days passed, from a continuation of this module's own."""
    continuation = Continuation.of_world(world_files)
    return continuation.events(AS_OF, DAY)


@pytest.fixture(scope="module")
def register(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRegister]:
    register = open_test_register(tmp_path_factory.mktemp("moved-on"))
    assert register.advance(DAYS) == DAY
    yield register
    register.close()


@pytest.fixture(scope="module")
def session(register: LocalRegister) -> Any:
    return session_for(register, register.default_api_key)


def _get(session: Any, path: str) -> dict[str, Any]:
    response = session.get(path)
    assert response.status_code == 200, (path, response.text)
    return response.json()


def _proceeding_ids(events: list[RegisterEvent]) -> set[str]:
    return {e.detail["insolvency_id"] for e in events if "insolvency_id" in e.detail}


@pytest.fixture(scope="module")
def served_world(session: Any, world_files: Any, events: list[RegisterEvent]) -> Any:
    """The world as the register serves it on the day: the stored records, and in place of every record an event
    touched the served one (companies and proceedings)."""
    companies = dict(world_files.companies)
    for company_id in sorted({e.company_id for e in events if e.company_id}):
        companies[company_id] = _get(session, f"/v1/company/{company_id}")
    insolvencies = dict(world_files.insolvencies)
    # the detail leaves out the search's has_open_insolvency: the stored proceedings say which statuses are open
    open_statuses = {p["current_status"] for p in insolvencies.values() if p["has_open_insolvency"]}
    assert open_statuses.isdisjoint(p["current_status"] for p in insolvencies.values() if not p["has_open_insolvency"])
    for proceeding_id in sorted(_proceeding_ids(events)):
        proceeding = _get(session, f"/v1/insolvency/{proceeding_id}")
        insolvencies[proceeding_id] = {
            **proceeding,
            "has_open_insolvency": proceeding["current_status"] in open_statuses,
        }
    return types.SimpleNamespace(companies=companies, insolvencies=insolvencies)


def test_the_company_search_finds_the_days_records(
    session: Any, served_world: Any, events: list[RegisterEvent]
) -> None:
    oracle = CompanyOracle(served_world)
    renamed = [e for e in events if e.kind == "name_changed"][:12]
    moved = [e for e in events if e.kind == "seat_moved"][:6]
    assert renamed and moved
    queries: list[tuple[str | None, list[dict[str, Any]]]] = []
    for event in renamed:
        queries.append((event.detail["after"], []))  # the new name finds the company, as its current name
        queries.append((event.detail["before"], []))  # the old one still finds it, as a former name
    for event in moved:
        queries.append((None, [{"field": "city", "value": event.detail["city"]}]))
    queries += [
        (None, [{"field": "status", "value": "liquidation"}]),
        (None, [{"field": "has_open_insolvency", "value": "true"}]),
        (None, [{"field": "had_insolvency", "value": "true"}]),
        ("GmbH", [{"field": "status", "value": "liquidation"}]),
    ]
    for query, filters in queries:
        body: dict[str, Any] = {"filters": filters}
        if query is not None:
            body["query"] = {"value": query}
        served = [r["company_id"] for r in search_all(session, "/v1/search/company", body)]
        assert served == oracle.search(query, filters), (query, filters)
    for event in renamed:  # and ranks first under its new name
        found = search_all(session, "/v1/search/company", {"query": {"value": event.detail["after"]}})
        assert event.company_id in [r["company_id"] for r in found[:3]], event
    liquidated = {e.company_id for e in events if e.kind == "liquidation"}
    assert liquidated <= set(oracle.search(None, [{"field": "status", "value": "liquidation"}]))


def test_the_insolvency_search_finds_the_proceedings_filed_since_and_their_status(
    session: Any, served_world: Any, events: list[RegisterEvent]
) -> None:
    filed = [e for e in events if e.kind == "insolvency_filed"]
    assert filed
    for event in filed:
        proceeding = served_world.insolvencies[event.detail["insolvency_id"]]
        found = search_all(session, "/v1/search/insolvency", {"query": {"value": proceeding["case_number"]}})
        [match] = [r for r in found if r["id"] == proceeding["id"]]
        assert (match["current_status"], match["last_event_at"]) == (
            proceeding["current_status"],
            proceeding["last_event_at"],
        )
    for item in (
        {"field": "current_status", "value": "preliminary"},
        {"field": "current_status", "value": "opened"},
        {"field": "has_open_insolvency", "value": "true"},
        {"field": "last_event_at", "min": (AS_OF + dt.timedelta(days=1)).isoformat()},
    ):
        served = [r["id"] for r in search_all(session, "/v1/search/insolvency", {"filters": [item]})]
        expected = [p for p in served_world.insolvencies.values() if filter_matches(p, item)]
        ranked = sorted(expected, key=lambda p: p["id"])
        ranked.sort(key=lambda p: p.get("last_event_at") or "", reverse=True)
        assert served == [p["id"] for p in ranked], item


def test_the_person_search_finds_the_persons_appointed_since_and_who_is_active(
    session: Any, events: list[RegisterEvent]
) -> None:
    named = {}  # the persons with an id the events name (some stored representatives have none)
    for event in events:
        if event.kind in {"director_appointed", "prokura_granted", "director_left", "prokura_ended"}:
            if event.detail["person_id"]:
                named[event.detail["person_id"].lower()] = event.detail["name"]
        elif event.kind == "liquidation" and event.detail["liquidator_id"]:
            named[event.detail["liquidator_id"].lower()] = event.detail["liquidator"]
    appointed = {e.detail["person_id"].lower() for e in events if e.kind in {"director_appointed", "prokura_granted"}}
    assert appointed and len(named) > len(appointed)
    listed = 0
    for key, name in sorted(named.items())[:60]:
        person = _get(session, f"/v1/person/{key}")
        holds = any(p["end_date"] is None for p in person["management_positions"])
        found = search_all(session, "/v1/search/person", {"query": {"value": name}})
        matches = [r for r in found if r["id"].lower() == key]
        if person["date_of_birth"] is None:  # the search lists persons with a published date of birth only
            assert matches == [], (key, name)
            continue
        [match] = matches
        assert match["active"] is holds, (key, name)
        listed += 1
    assert listed > 40
