"""The world lives on: what each day past the world's ``as_of`` brings, served by the local register
(``docs/interface.md``, "The local register's clock"; the world's invariants a year on are checked in
``tests/world/test_world_invariants.py``)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest

from regkit.local.world.continuation import Continuation
from regkit.schema.interface import DEM_PER_EUR

AS_OF = dt.date(2026, 6, 30)  # the bundled world's date (data/world.json)
ORIGIN = "http://local.regkit"
KINDS = {
    "director_appointed",
    "director_left",
    "prokura_granted",
    "prokura_ended",
    "address_changed",
    "seat_moved",
    "name_changed",
    "liquidation",
    "report_filed",
    "pending_registered",
    "insolvency_filed",
    "insolvency_opened",
    "insolvency_rejected",
    "insolvency_event",
    "capital_changed",
    "profit_transfer_agreement_started",
    "profit_transfer_agreement_ended",
    "person_insolvency_opened",
    "merged_into",
    "acquisition",
    "shares_transferred",
    "incorporated",
    "spin_off",
    "court_moved",
}


@pytest.fixture(scope="module")
def world_files():
    from regkit.local.world import read_world

    return read_world()


def _continuation(world: Any) -> Continuation:
    return Continuation.of_world(world)


def _get(session: Any, path: str) -> dict[str, Any]:
    response = session.get(ORIGIN + path)
    assert response.status_code == 200, (path, response.text)
    return response.json()


def test_the_same_days_give_the_same_world_however_the_clock_got_there(world_files: Any) -> None:
    at_once, split = _continuation(world_files), _continuation(world_files)
    at_once.fold_to(AS_OF + dt.timedelta(days=7))
    split.fold_to(AS_OF + dt.timedelta(days=3))
    split.fold_to(AS_OF + dt.timedelta(days=7))
    day = AS_OF + dt.timedelta(days=7)
    assert at_once.events(AS_OF, day) == split.events(AS_OF, day) and at_once.events(AS_OF, day)
    assert at_once.companies_on(day) == split.companies_on(day)
    # and a day's world does not depend on how far the clock went since
    later = _continuation(world_files)
    later.fold_to(AS_OF + dt.timedelta(days=40))
    assert later.companies_on(AS_OF + dt.timedelta(days=3)) == split.companies_on(AS_OF + dt.timedelta(days=3))


def test_a_year_brings_every_kind_at_register_rates(world_files: Any) -> None:
    continuation = _continuation(world_files)
    year = continuation.events(AS_OF, AS_OF + dt.timedelta(days=365))
    kinds = Counter(event.kind for event in year)
    assert set(kinds) - {"link_renamed", "link_moved"} == KINDS, kinds
    active = sum(c["status"] == "active" for c in world_files.companies.values())
    # about 5 % of companies touched in 30 days (changes-and-webhooks.md), annual reports counted; the publications
    # of open insolvency proceedings are the insolvency courts', counted apart below
    for start in (0, 150, 335):
        first = AS_OF + dt.timedelta(days=start)
        month = continuation.events(first, first + dt.timedelta(days=30))
        touched = {e.company_id for e in month if e.kind != "insolvency_event" and e.company_id}
        assert 0.02 <= len(touched) / active <= 0.10, (start, len(touched), active)
    # a filer files at most a report a year, and about 2,000 Bundesanzeiger publications a day for 2.3 million
    # companies is a report for about a third of the active companies a year
    reports = Counter(e.company_id for e in year if e.kind == "report_filed")
    assert max(reports.values()) <= 2
    assert 0.2 <= sum(reports.values()) / active <= 0.5
    # about 1 % of companies a year file for insolvency (some 22,000 of 2.3 million), each decided within 90 days;
    # an open proceeding publishes something most months
    filed = [e for e in year if e.kind == "insolvency_filed"]
    assert 0.004 <= len(filed) / active <= 0.02
    decided = {e.detail["insolvency_id"] for e in year if e.kind in {"insolvency_opened", "insolvency_rejected"}}
    assert {e.detail["insolvency_id"] for e in filed if e.day <= AS_OF + dt.timedelta(days=270)} <= decided
    open_proceedings = sum(p["has_open_insolvency"] for p in world_files.insolvencies.values())
    assert 0.4 <= kinds["insolvency_event"] / (12 * open_proceedings) <= 1.0
    # capital increases: about 1.5 % of companies with a registered capital a year
    assert 0.005 <= kinds["capital_changed"] / active <= 0.03
    # new companies: some 130,000 new entries a year for 2.3 million companies, mostly GmbHs and UGs; stakes handed
    # on with a new shareholder list: about 1.5 % a year
    assert 0.03 <= kinds["incorporated"] / active <= 0.07
    forms = Counter(e.detail["legal_form"] for e in year if e.kind == "incorporated")
    assert forms["gmbh"] > forms["ug"] > forms["ek"] > 0
    assert 0.005 <= kinds["shares_transferred"] / active <= 0.03
    # moves of the seat to another court's district: a few in a thousand a year (some of the moves of the seat)
    assert 0.0005 <= kinds["court_moved"] / active <= 0.01
    # a new company files no petition and spins nothing off before it has published accounts
    reported: set[str] = set()
    new = _forms_of_new(year)
    for event in year:
        if event.kind == "report_filed":
            reported.add(event.company_id)
        elif event.kind in {"insolvency_filed", "spin_off"} and event.company_id in new:
            assert event.company_id in reported, event
    # proceedings against natural persons at the stored world's own rate (those first published in its last year)
    last_year = (AS_OF - dt.timedelta(days=365)).isoformat()
    stored_rate = sum(
        p["debtor_kind"] == "natural_person" and p["first_event_at"] > last_year
        for p in world_files.insolvencies.values()
    )
    assert stored_rate >= 5 and 0.3 * stored_rate <= kinds["person_insolvency_opened"] <= 2.5 * stored_rate


def test_the_answers_show_each_kind_of_event_on_its_day(make_register: Any, tmp_path: Any, world_files: Any) -> None:
    """Every kind of event, as the served answers show it: checked against the answers before and after, with
    the event's day in the history."""
    days = 120
    events = _continuation(world_files).events(AS_OF, AS_OF + dt.timedelta(days=days))
    last_of = {e.company_id: e for e in events if e.kind != "insolvency_event"}  # the last event of each company
    first = {}
    for event in events:  # of each kind, the first that is its company's last (what it did shows unaltered)
        if event.kind in {"insolvency_event", "person_insolvency_opened"} or last_of.get(event.company_id) is event:
            first.setdefault(event.kind, event)
    rare = {
        "pending_registered",
        "seat_moved",
        "insolvency_rejected",
        "merged_into",  # the first comes later than the days here: its own test
        "spin_off",  # its own test
        "acquisition",  # checked with its merger
        *(k for k in KINDS if "profit_transfer" in k),
    }
    assert set(first) >= KINDS - rare, set(first)
    before_register = make_register(state_path=tmp_path / "before.sqlite")
    after_register = make_register(state_path=tmp_path / "after.sqlite")
    assert after_register.advance(days) == AS_OF + dt.timedelta(days=days)
    before = before_register.session(before_register.default_api_key)
    after = after_register.session(after_register.default_api_key)
    touched_later = {e.company_id: e.day for e in events}
    founded: dict[str, Any] = {}  # of each legal form, the first new company with no event after its founding
    for event in events:
        if event.kind == "incorporated" and last_of[event.company_id] is event and "spun_off_from" not in event.detail:
            founded.setdefault(event.detail["legal_form"], event)
    assert set(founded) == {"gmbh", "ug", "ek"}, founded
    for event in founded.values():
        _check_incorporated(event, before, after)
    amended: list[bool] = []
    for kind, event in first.items():
        if kind == "incorporated":
            continue
        company_id, day = event.company_id, event.day.isoformat()
        if kind == "insolvency_event":  # a decision published in an open proceeding: the proceeding shows it
            proceeding = _get(after, f"/v1/insolvency/{event.detail['insolvency_id']}")
            stored = _get(before, f"/v1/insolvency/{event.detail['insolvency_id']}")
            assert [e["published_at"] for e in proceeding["events"]][: len(stored["events"])] == [
                e["published_at"] for e in stored["events"]
            ]
            assert day in [e["published_at"] for e in proceeding["events"]]
            assert proceeding["current_status"] == stored["current_status"]
            continue
        if kind == "person_insolvency_opened":  # a new proceeding against a new person of the world
            proceeding_id, person_id = event.detail["insolvency_id"], event.detail["person_id"]
            proceeding = _get(after, f"/v1/insolvency/{proceeding_id}")
            assert (proceeding["debtor_kind"], proceeding["company_id"]) == ("natural_person", None)
            found = after.post(
                f"{ORIGIN}/v1/search/insolvency", json={"filters": [{"field": "person_id", "value": person_id}]}
            )
            assert [r["id"] for r in found.json()["results"]] == [proceeding_id]  # the search names the debtor
            assert (proceeding["current_status"], proceeding["first_event_at"]) == ("opened", day)
            assert proceeding["case_number"] == event.detail["case_number"]
            assert [e["event_type"] for e in proceeding["events"]][0] == "proceedings_opened"
            person = _get(after, f"/v1/person/{person_id}")
            assert f"{person['first_name']} {person['last_name']}".endswith(proceeding["debtor_name"].split()[-1])
            assert person["management_positions"] == []
            assert before.get(f"{ORIGIN}/v1/insolvency/{proceeding_id}").status_code == 404
            assert before.get(f"{ORIGIN}/v1/person/{person_id}").status_code == 404
            continue
        old, new = _get(before, f"/v1/company/{company_id}"), _get(after, f"/v1/company/{company_id}")
        assert old != new, kind
        if kind.startswith("insolvency_"):
            proceeding_id = event.detail["insolvency_id"]
            [summary] = [s for s in new["insolvencies"] if s["id"] == proceeding_id]
            proceeding = _get(after, f"/v1/insolvency/{proceeding_id}")
            assert {k: proceeding[k] for k in summary} == summary
            expected, published = {
                "insolvency_filed": ("preliminary", "preliminary_measures"),
                "insolvency_opened": ("opened", "proceedings_opened"),
                "insolvency_rejected": ("rejected_no_assets", "rejected_insufficient_assets"),
            }[kind]
            assert proceeding["current_status"] == expected and proceeding["last_event_at"] >= day
            assert [e["published_at"] for e in proceeding["events"] if e["event_type"] == published] == [day]
            assert (new["status"] == "liquidation") == (kind != "insolvency_filed")  # a decision dissolves it
            if kind == "insolvency_filed":
                assert "insolvencies" not in old and proceeding["first_event_at"] == day
                assert before.get(f"{ORIGIN}/v1/insolvency/{proceeding_id}").status_code == 404
            continue
        if kind in {"director_appointed", "prokura_granted"}:
            role = "DIRECTOR" if kind == "director_appointed" else "PROKURA"
            entry = next(r for r in new["representation"] if r["id"] == event.detail["person_id"])
            assert (entry["role"], entry["start_date"], entry["end_date"]) == (role, day, None)
            assert event.detail["person_id"] not in {r["id"] for r in old["representation"]}
            person = _get(after, f"/v1/person/{event.detail['person_id']}")
            assert {"register_id": company_id, "role": role, "start_date": day, "end_date": None}.items() <= {
                **next(p for p in person["management_positions"] if p["register_id"] == company_id)
            }.items()
            assert before.get(f"{ORIGIN}/v1/person/{event.detail['person_id']}").status_code == 404
        elif kind in {"director_left", "prokura_ended"}:
            person_id = event.detail["person_id"]
            was = next(r for r in old["representation"] if r["id"] == person_id and r["end_date"] is None)
            now = next(r for r in new["representation"] if r["id"] == person_id and r["role"] == was["role"])
            assert now["end_date"] == day and now["start_date"] == was["start_date"]
            position = [
                p
                for p in _get(after, f"/v1/person/{person_id}")["management_positions"]
                if p["register_id"] == company_id and p["role"] == was["role"]
            ]
            assert [p["end_date"] for p in position] == [day]
        elif kind in {"address_changed", "seat_moved"}:
            assert new["address"]["start_date"] == day and new["addresses"][:-1] == old["addresses"]
            assert new["address"]["formatted_value"] != old["address"]["formatted_value"]
            assert (new["address"]["city"] == old["address"]["city"]) == (kind == "address_changed")
        elif kind == "name_changed":
            assert new["name"] == {"name": event.detail["after"], "legal_form": old["legal_form"], "start_date": day}
            assert new["names"][:-1] == old["names"] and new["name"]["name"] != old["name"]["name"]
        elif kind == "liquidation":
            assert (old["status"], new["status"]) == ("active", "liquidation")
            assert new["name"]["name"] == old["name"]["name"] + " i.L." and new["name"]["start_date"] == day
            current = {r["role"] for r in new["representation"] if r["end_date"] is None}
            assert "LIQUIDATOR" in current and "DIRECTOR" not in current
        elif kind == "report_filed":
            old_reports = _get(before, f"/v1/company/{company_id}/financials")
            new_reports = _get(after, f"/v1/company/{company_id}/financials")
            assert new_reports["indicators"][0]["date"] == event.detail["date"] > old_reports["indicators"][0]["date"]
            assert new_reports["indicators"][1:] == old_reports["indicators"]
            report = next(r for r in new_reports["reports"] if r["report_id"] == event.detail["report_id"])
            assert report["report_end_date"] == event.detail["date"]
        elif kind == "capital_changed":
            assert new["capital"] == {"amount": event.detail["after"]["amount"], "currency": "EUR", "start_date": day}
            was = old["capital"]["amount"] / (DEM_PER_EUR if old["capital"].get("currency") == "DEM" else 1)  # in EUR
            assert new["capitals"][:-1] == old["capitals"] and new["capital"]["amount"] > was
            owners = after.get(f"{ORIGIN}/v1/company/{company_id}/owners")
            if owners.status_code == 200 and owners.json()["owners"]:  # every holder takes part in proportion
                held = sum(o["nominal_share"] for o in owners.json()["owners"])
                assert held == pytest.approx(new["capital"]["amount"], rel=1e-3)
        elif kind == "shares_transferred":
            _check_shares_transferred(event, before, after, old, new)
        elif kind == "pending_registered":
            pending = _get(before, f"/v1/company/{company_id}?realtime=true&export=true")
            assert _get(after, f"/v1/company/{company_id}?export=true") == pending
            assert touched_later[company_id] == event.day  # nothing else happened to it meanwhile
        if kind in {"name_changed", "capital_changed", "liquidation"}:
            amended.append(_check_amendment_filed(event, after, old, new))
    assert any(amended)  # the amended articles of one at least were checked


def test_a_spin_off_founds_a_gmbh_the_transferor_holds_whole(make_register: Any, world_files: Any) -> None:
    """A year's spin-offs (Ausgliederung zur Neugründung) as the served answers show them: the transferor's
    ``asset_spin_offs`` names the new GmbH, registered that day; the new company at the transferor's court, named
    after it, its one owner the transferor (whose holdings show it), a company of the world like any new one."""
    year = _continuation(world_files).events(AS_OF, AS_OF + dt.timedelta(days=365))
    spin_offs = [e for e in year if e.kind == "spin_off"]
    assert 2 <= len(spin_offs) <= 25, len(spin_offs)
    register = make_register()
    register.advance(365)
    session = register.session(register.default_api_key)
    last = {e.company_id: e for e in year}
    for event in spin_offs:
        new_id, day = event.detail["company_id"], event.day.isoformat()
        founded = next(e for e in year if e.kind == "incorporated" and e.company_id == new_id)
        assert founded.day == event.day and founded.detail["spun_off_from"] == event.company_id
        transferor = _get(session, f"/v1/company/{event.company_id}")
        [link] = [s for s in transferor["asset_spin_offs"] if s["company_id"] == new_id]
        assert link["registration_date"] == day and link["agreement_date"] < day
        new = _get(session, f"/v1/company/{new_id}")
        assert (new["legal_form"], new["incorporated_at"], link["name"]) == ("gmbh", day, new["name"]["name"])
        assert new_id.split("-")[2] == event.company_id.split("-")[2]  # at the transferor's court
        assert new["name"]["name"] != transferor["name"]["name"]
        assert new["name"]["name"].split()[0] == transferor["name"]["name"].split()[0]
        if last[new_id] is founded:  # nothing happened to it since
            owners = _get(session, f"/v1/company/{new_id}/owners")["owners"]
            assert [(o["id"], o["percentage_share"]) for o in owners] == [(event.company_id, 100.0)]
            held = _get(session, f"/v1/company/{event.company_id}/holdings")["holdings"]
            assert [(h["start"], h["end"]) for h in held if h["company_id"] == new_id] == [(day, None)]
            holders = [e for e in new["representation"] if e["role"] == "SHAREHOLDER"]
            assert [(h["id"], h["type"], h["name"]) for h in holders] == [
                (event.company_id, "legal_person", transferor["name"]["name"])
            ]


def _forms_of_new(events: list[Any]) -> dict[str, str]:
    """The legal form of each company incorporated in ``events``, by id."""
    return {e.company_id: e.detail["legal_form"] for e in events if e.kind == "incorporated"}


def _check_amendment_filed(event: Any, after: Any, old: dict, new: dict) -> bool:
    """A change of the articles (name, capital, liquidation) files the amended articles and, from a company that
    files shareholder lists, a new list: each dated that day, the newest of its type, listed and served."""
    types = {d["type"] for d in old["documents"]}
    if "articles_of_association" not in types:
        assert new["documents"] == old["documents"]
        return False
    expected = {"articles_of_association"} | ({"shareholder_list"} & types)
    added = [d for d in new["documents"] if d["id"] not in {o["id"] for o in old["documents"]}]
    assert sorted(d["type"] for d in added) == sorted(expected), event.kind
    for document in added:
        assert (document["date"], document["latest"]) == (event.day.isoformat(), True)
        assert not any(d["latest"] for d in new["documents"] if d["type"] == document["type"] and d is not document)
        listed = _get(after, f"/v1/document/{document['id']}")
        assert after.get(listed["url"]).content.startswith(b"%PDF")
    return True


def test_a_new_company_files_its_first_report_after_its_first_fiscal_year(make_register: Any, world_files: Any) -> None:
    """A GmbH or UG incorporated since files the report of its first (short) fiscal year, ending 31 December, 3 to
    12 months later: served in its financials with statements that add up, and in its record's indicators."""
    continuation = _continuation(world_files)
    end = AS_OF + dt.timedelta(days=365)
    year = continuation.events(AS_OF, end)
    new = {e.company_id: e for e in year if e.kind == "incorporated"}
    first = [e for e in year if e.kind == "report_filed" and e.company_id in new]
    assert first and all(new[e.company_id].detail["legal_form"] in {"gmbh", "ug"} for e in first)
    register = make_register()
    register.advance(365)
    session = register.session(register.default_api_key)
    for event in first:
        founded = new[event.company_id].day
        fiscal_year_end = dt.date(founded.year, 12, 31)
        assert event.detail["date"] == fiscal_year_end.isoformat()
        assert fiscal_year_end + dt.timedelta(days=90) <= event.day <= fiscal_year_end + dt.timedelta(days=360)
        financials = _get(session, f"/v1/company/{event.company_id}/financials")
        [indicators] = [i for i in financials["indicators"] if i["report_id"] == event.detail["report_id"]]
        assert indicators["date"] == fiscal_year_end.isoformat()
        assert indicators["equity"] + indicators["liabilities"] == pytest.approx(indicators["balance_sheet_total"])
        [report] = financials["reports"]
        assert report["report_end_date"] == fiscal_year_end.isoformat()
        aktiva, passiva = (
            sum(row["current_value"] or 0 for row in report[side]["rows"]) for side in ("aktiva", "passiva")
        )
        assert aktiva == passiva == pytest.approx(indicators["balance_sheet_total"])  # the statements add up
    unfiled = [cid for cid, e in new.items() if e.day.year == end.year]  # their first year has not ended
    assert unfiled and all(not (continuation.company(cid, end) or {})["indicators"] for cid in unfiled)


def _check_incorporated(event: Any, before: Any, after: Any) -> None:
    """A company incorporated since, as every answer has it: unknown before; from its day a record, found by the
    search, its persons known, a GmbH's or UG's owners (its SHAREHOLDER entries) and its documents served."""
    from regkit.frames import shareholder_list

    company_id, day = event.company_id, event.day.isoformat()
    assert before.get(f"{ORIGIN}/v1/company/{company_id}").status_code == 404
    new = _get(after, f"/v1/company/{company_id}")
    assert (new["status"], new["incorporated_at"], new["terminated_at"]) == ("active", day, None)
    assert (new["name"]["name"], new["legal_form"]) == (event.detail["name"], event.detail["legal_form"])
    assert [r["start_date"] for r in new["registers"]] == [day] and new["register"]["company_id"] == company_id
    assert {e["start_date"] for e in new["representation"]} == {day}
    assert new["indicators"] == [] and not new.get("insolvencies")  # no accounts published yet, no proceeding
    found = after.post(f"{ORIGIN}/v1/search/company", json={"query": new["register"]["register_number"]})
    assert company_id in {r["company_id"] for r in found.json()["results"]}
    for entry in new["representation"]:  # every person of the new company is a person of the world
        person = _get(after, f"/v1/person/{entry['id']}")
        assert f"{person['first_name']} {person['last_name']}" == entry["name"]
        roles = {(p["register_id"], p["role"]) for p in person["management_positions"]}
        assert ((company_id, entry["role"]) in roles) == (entry["role"] != "SHAREHOLDER")
    holders = {e["id"] for e in new["representation"] if e["role"] == "SHAREHOLDER"}
    if new["legal_form"] == "ek":
        assert holders == set() and new["documents"] == []
        assert [e["role"] for e in new["representation"]] == ["OWNER"]
        return
    owners = _get(after, f"/v1/company/{company_id}/owners")["owners"]
    assert {o["id"] for o in owners} == holders and sum(o["percentage_share"] for o in owners) == pytest.approx(100)
    for holder in holders:
        held = _get(after, f"/v1/person/{holder}/holdings")["holdings"]
        assert [(h["start"], h["end"]) for h in held if h["company_id"] == company_id] == [(day, None)]
    assert {d["type"] for d in new["documents"]} >= {"articles_of_association", "shareholder_list"}
    for document in new["documents"]:  # each listed, served and, a shareholder list, read back with the owners
        assert document["date"] == day and before.get(f"{ORIGIN}/v1/document/{document['id']}").status_code == 404
        listed = _get(after, f"/v1/document/{document['id']}")
        served = after.get(listed["url"])
        assert served.status_code == 200 and served.content.startswith(b"%PDF"), document
        if document["type"] == "shareholder_list":
            read = shareholder_list(served.content)
            assert set(read["holder_name"]) == {o["name"] for o in owners}


def _check_shares_transferred(event: Any, before: Any, after: Any, old: dict, new: dict) -> None:
    """A stake handed on, as every answer that shows owners has it: the register's entries, the owners, the newest
    shareholder list (its metadata, its PDF read back, the ownership history) and both persons' holdings."""
    from regkit.frames import shareholder_list

    company_id, day, detail = event.company_id, event.day.isoformat(), event.detail
    giver, taker = detail["from_id"], detail["to_id"]

    def holders(record: dict) -> set[str]:
        return {r["id"] for r in record["representation"] if r["role"] == "SHAREHOLDER" and r["end_date"] is None}

    assert giver in holders(old) and taker not in holders(old)
    assert holders(new) == holders(old) - {giver} | {taker}
    directors = {r["id"] for r in old["representation"] if r["role"] == "DIRECTOR" and r["end_date"] is None}
    assert taker in directors  # a managing director who held nothing takes the stake
    [ended] = [r for r in new["representation"] if r["id"] == giver and r["role"] == "SHAREHOLDER"]
    [began] = [r for r in new["representation"] if r["id"] == taker and r["role"] == "SHAREHOLDER"]
    assert (ended["end_date"], began["start_date"], began["end_date"]) == (day, day, None)
    owners_before = {o["id"]: o for o in _get(before, f"/v1/company/{company_id}/owners")["owners"]}
    owners_after = {o["id"]: o for o in _get(after, f"/v1/company/{company_id}/owners")["owners"]}
    assert set(owners_after) == set(owners_before) - {giver} | {taker}
    assert owners_after[taker]["percentage_share"] == pytest.approx(owners_before[giver]["percentage_share"])
    # the new list: the company's newest document, listed, served and read back with the new owner in it
    lists = [d for d in new["documents"] if d["type"] == "shareholder_list"]
    newest = max(lists, key=lambda d: d["date"])
    assert newest["id"] == detail["document_id"] and newest["date"] == day
    assert detail["document_id"] not in {d["id"] for d in old["documents"]}
    assert before.get(f"{ORIGIN}/v1/document/{detail['document_id']}").status_code == 404
    listed = _get(after, f"/v1/document/{detail['document_id']}")
    assert (listed["type"], listed["date"]) == ("shareholder_list", day)
    pdf = after.get(listed["url"])
    assert pdf.status_code == 200 and pdf.headers["Content-Type"].startswith("application/pdf")
    read = shareholder_list(pdf.content)
    assert set(read["document_id"]) == {detail["document_id"]} and _lists_name(read, detail["to"])
    assert not _lists_name(read, detail["from"]) or detail["from"] == detail["to"]
    assert read["percentage"].sum() == pytest.approx(100, abs=0.01)
    history = _get(after, f"/v1/company/{company_id}/owners/historical")["owners"]
    [gone] = [o for o in history if o["id"] == giver]
    [came] = [o for o in history if o["id"] == taker]
    assert (gone["status"], came["status"], came["first_appearance"]) == ("removed", "active", day)
    # the holdings of both: the giver's stake ended on the day, the taker's begun
    given = [h for h in _get(after, f"/v1/person/{giver}/holdings")["holdings"] if h["company_id"] == company_id]
    taken = [h for h in _get(after, f"/v1/person/{taker}/holdings")["holdings"] if h["company_id"] == company_id]
    assert [h["end"] for h in given] == [day] and [(h["start"], h["end"]) for h in taken] == [(day, None)]


def _lists_name(frame: Any, name: str) -> bool:
    """Whether a shareholder list read back (a frame) names a holder ``name``."""
    return name in set(frame["holder_name"])


def test_a_new_name_shows_where_the_company_is_linked(make_register: Any, world_files: Any) -> None:
    continuation = _continuation(world_files)
    year = continuation.events(AS_OF, AS_OF + dt.timedelta(days=365))
    renamed = {e.company_id: e for e in year if e.kind in {"name_changed", "liquidation"}}
    linking = [
        (source, target)
        for source in world_files.companies.values()
        for link in [source["merged_into"], source["profit_transfer_agreement"], *source["acquisitions"]]
        if link and (target := link["company_id"]) in renamed
    ]
    assert linking, "a year renames some company another record links to"
    register = make_register()
    register.advance(365)
    session = register.session(register.default_api_key)
    for source, target in linking:
        name = _get(session, f"/v1/company/{target}")["name"]["name"]
        served = _get(session, f"/v1/company/{source['id']}")
        links = [served["merged_into"], served["profit_transfer_agreement"], *served["acquisitions"]]
        assert [link["name"] for link in links if link and link["company_id"] == target] == [name] * len(
            [link for link in links if link and link["company_id"] == target]
        )
        assert name != world_files.companies[target]["name"]["name"]
    # a renamed company that holds stakes: the owners of what it holds name it as it is named now
    holders = {row["holder_id"] for row in world_files.shareholdings if row["holder_type"] == "legal_person"}
    renamed_holders = sorted(set(renamed) & holders)
    assert renamed_holders, "a year renames some company that holds a stake"
    for holder in renamed_holders:
        name = _get(session, f"/v1/company/{holder}")["name"]["name"]
        for held in _get(session, f"/v1/company/{holder}/holdings")["holdings"]:
            if held["end"] is not None:
                continue
            owners = _get(session, f"/v1/company/{held['company_id']}/owners")["owners"]
            assert [o["name"] for o in owners if o["id"] == holder] == [name], (holder, held["company_id"])
            entries = _get(session, f"/v1/company/{held['company_id']}")["representation"]
            assert {e["name"] for e in entries if e["id"] == holder and e["end_date"] is None} <= {name}


def test_on_the_worlds_date_the_answers_are_the_stored_records(make_register: Any, world_files: Any) -> None:
    register = make_register()
    session = register.session(register.default_api_key)
    for company_id in list(world_files.companies)[::500]:
        assert _get(session, f"/v1/company/{company_id}?export=true") == {
            **world_files.companies[company_id],
            "sources": [],
        }


def test_profit_transfer_agreements_start_with_the_sole_shareholder_and_end(
    make_register: Any, world_files: Any
) -> None:
    """A year brings some profit-transfer agreements, each with the company's sole shareholder of the world, and
    ends some; the served records show the agreement from its registration day, and its end."""
    continuation = _continuation(world_files)
    year = continuation.events(AS_OF, AS_OF + dt.timedelta(days=365))
    started = [e for e in year if e.kind == "profit_transfer_agreement_started"]
    ended = [e for e in year if e.kind == "profit_transfer_agreement_ended"]
    assert started and ended
    tops = {group["organtraeger"] for group in world_files.meta["groups"]}
    register = make_register()
    register.advance(365)
    session = register.session(register.default_api_key)
    later = {e.company_id: e for e in year}  # each company's last event of the year
    for event in started:
        assert event.company_id not in tops
        if later[event.company_id] is not event:
            continue
        served = _get(session, f"/v1/company/{event.company_id}")
        agreement = served["profit_transfer_agreement"]
        holders = [r for r in served["representation"] if r["role"] == "SHAREHOLDER" and r["end_date"] is None]
        assert [h["id"] for h in holders] == [agreement["company_id"]] == [event.detail["company_id"]]
        assert agreement["registration_date"] == event.day.isoformat()
        assert agreement["name"] == _get(session, f"/v1/company/{agreement['company_id']}")["name"]["name"]
        assert world_files.companies[event.company_id]["profit_transfer_agreement"] is None
    for event in ended:
        if later[event.company_id] is event:
            assert _get(session, f"/v1/company/{event.company_id}")["profit_transfer_agreement"] is None


def test_a_merged_company_is_dissolved_its_stakes_end_and_the_acquirer_lists_it(
    make_register: Any, tmp_path: Any, world_files: Any
) -> None:
    """A year's mergers as the served answers show them, before and after: the company inactive from the day,
    every entry ended, no owners left and each former holder's stake ended that day; the acquirer's mirror."""
    year = _continuation(world_files).events(AS_OF, AS_OF + dt.timedelta(days=365))
    mergers = [e for e in year if e.kind == "merged_into"]
    assert mergers and len([e for e in year if e.kind == "acquisition"]) == len(mergers)
    before_register = make_register(state_path=tmp_path / "before.sqlite")
    after_register = make_register(state_path=tmp_path / "after.sqlite")
    after_register.advance(365)
    before = before_register.session(before_register.default_api_key)
    after = after_register.session(after_register.default_api_key)
    for event in mergers:
        company_id, day = event.company_id, event.day.isoformat()
        old, new = _get(before, f"/v1/company/{company_id}"), _get(after, f"/v1/company/{company_id}")
        top = event.detail["company_id"]
        assert (old["status"], new["status"], new["terminated_at"]) == ("active", "inactive", day)
        assert (new["merged_into"]["company_id"], new["merged_into"]["registration_date"]) == (top, day)
        assert all(r["end_date"] is not None for r in new["representation"])
        acquirer = _get(after, f"/v1/company/{top}")
        [mirror] = [a for a in acquirer["acquisitions"] if a["company_id"] == company_id]
        assert (mirror["registration_date"], mirror["agreement_date"]) == (day, new["merged_into"]["agreement_date"])
        assert new["merged_into"]["name"] == acquirer["name"]["name"] and mirror["name"] == new["name"]["name"]
        owners_before = _get(before, f"/v1/company/{company_id}/owners")["owners"]
        assert owners_before and _get(after, f"/v1/company/{company_id}/owners")["owners"] == []
        for owner in owners_before:  # each former holder's holdings show the stake ended on the day
            if not owner["id"]:
                continue
            kind_of = "person" if owner["type"] == "natural_person" else "company"
            holdings = _get(after, f"/v1/{kind_of}/{owner['id']}/holdings")["holdings"]
            assert [h["end"] for h in holdings if h["company_id"] == company_id] == [day], owner["id"]


def test_a_move_to_another_court_gives_the_company_a_new_id_everywhere(
    make_register: Any, tmp_path: Any, world_files: Any
) -> None:
    """A year's moves of the seat to another court's district, as the served answers show them: the new court's
    register entry and id, the old id leading to it, the same reports (drawn under the id of the world's date), the
    shareholdings on both sides, the links and shareholder entries of other records, the persons' positions, the
    documents, the search, a printout, the website lookup; and a monitor's changes
    (:func:`regkit.schema.changes.diff_answers`) say what happened. A year's moves include a company that holds
    stakes, one held by a company and one another record links to."""
    from regkit.schema.changes import diff_answers

    end = AS_OF + dt.timedelta(days=365)
    continuation = _continuation(world_files)
    year = continuation.events(AS_OF, end)
    moves = [e for e in year if e.kind == "court_moved"]
    assert len(moves) >= 3, moves
    before_register = make_register(state_path=tmp_path / "before.sqlite")
    after_register = make_register(state_path=tmp_path / "after.sqlite")
    after_register.advance(365)
    before = before_register.session(before_register.default_api_key)
    after = after_register.session(after_register.default_api_key)
    checked = {"holder": 0, "held": 0, "linked": 0, "website": 0}
    for event in moves:
        old_id, new_id, day = event.company_id, event.detail["company_id"], event.day.isoformat()
        assert continuation.current_id(new_id, end) == new_id  # (none of these moved twice)
        assert new_id.split("-")[2] != old_id.split("-")[2] and new_id not in world_files.companies
        old = _get(before, f"/v1/company/{old_id}?export=true")
        assert before.get(f"{ORIGIN}/v1/company/{new_id}").status_code == 404
        new = _get(after, f"/v1/company/{new_id}?export=true")
        assert _get(after, f"/v1/company/{old_id}?export=true") == new  # the former id leads to the company
        assert new["id"] == new_id and new["registers"][:-1] == old["registers"]
        assert new["register"] == {
            "company_id": new_id,
            "register_number": event.detail["register_number"],
            "register_type": old["register"]["register_type"],
            "register_court": event.detail["register_court"],
            "start_date": day,
        }
        [address] = [a for a in new["addresses"] if a["start_date"] == day]
        assert address["city"] == event.detail["city"] and address not in old["addresses"]
        kinds = {c["kind"] for c in diff_answers("get_company", old, new, ["basic"])}
        assert {"register_changed", "seat_moved"} <= kinds, kinds
        assert after.get(f"{ORIGIN}/v1/company/{old_id}").json()["id"] == new_id
        # the reports the company had filed are the same reports, under its new id
        reports_before = _get(before, f"/v1/company/{old_id}/financials")["reports"]
        reports_after = {r["report_id"]: r for r in _get(after, f"/v1/company/{new_id}/financials")["reports"]}
        for report in reports_before:
            assert {**reports_after[report["report_id"]], "sources": None} == {**report, "sources": None}
        # both sides of every shareholding name the new id
        owners = _get(after, f"/v1/company/{new_id}/owners") if new["legal_form"] in {"gmbh", "ug"} else None
        for owner in (owners or {}).get("owners", ()):
            if owner["type"] == "legal_person":
                holdings = _get(after, f"/v1/company/{owner['id']}/holdings")["holdings"]
                assert new_id in {h["company_id"] for h in holdings}
                assert old_id not in {h["company_id"] for h in holdings}
                checked["held"] += 1
        held_before = _get(before, f"/v1/company/{old_id}/holdings")["holdings"]
        held_after = _get(after, f"/v1/company/{new_id}/holdings")["holdings"]
        assert {continuation.current_id(h["company_id"], end) for h in held_before} <= {
            h["company_id"] for h in held_after
        }
        for holding in held_after:
            if holding["end"] is None and holding["percentage_share"] > 0:
                shown = after.get(f"{ORIGIN}/v1/company/{holding['company_id']}/owners")
                if shown.status_code == 200:
                    assert new_id in {o["id"] for o in shown.json()["owners"]}
                    assert old_id not in {o["id"] for o in shown.json()["owners"]}
                checked["holder"] += 1
        for linked in [e for e in year if e.kind == "link_moved" and e.detail["company_id"] == new_id]:
            record = _get(after, f"/v1/company/{linked.company_id}?export=true")
            named = [e["id"] for e in record["representation"] if e["type"] == "legal_person"]
            named += [link["company_id"] for link in (*record["acquisitions"], *record["asset_spin_offs"])]
            named += [
                link["company_id"] for link in (record["merged_into"], record["profit_transfer_agreement"]) if link
            ]
            assert new_id in named and old_id not in named
            checked["linked"] += 1
        # a person's positions name the new id, and no longer the old
        for entry in new["representation"]:
            if entry["type"] == "natural_person" and entry["id"] and entry["role"] != "SHAREHOLDER":
                positions = _get(after, f"/v1/person/{entry['id']}")["management_positions"]
                assert new_id in {p["register_id"] for p in positions}
                assert old_id not in {p["register_id"] for p in positions}
        # its documents are still served; the amended articles (the seat is in them) are filed that day
        for document in new["documents"]:
            listed = _get(after, f"/v1/document/{document['id']}")
            assert after.get(listed["url"]).content.startswith(b"%PDF"), document
        if any(d["type"] == "articles_of_association" for d in old["documents"]):
            assert [d["date"] for d in new["documents"] if d["type"] == "articles_of_association" and d["latest"]] == [
                day
            ]
        found = after.post(f"{ORIGIN}/v1/search/company", json={"query": new["register"]["register_number"]})
        assert new_id in {r["company_id"] for r in found.json()["results"]}
        assert old_id not in {r["company_id"] for r in found.json()["results"]}
        # a printout asked for by the old id is the new register's; the website leads to the new id
        printout = _get(after, f"/v1/document?company_id={old_id}&document_category=current_printout")
        assert printout["file_name"].startswith(f"{new_id}_AD_") and after.get(printout["url"]).status_code == 200
        if (old.get("contact") or {}).get("website_url"):
            looked_up = _get(after, f"/v0/search/lookup?url={old['contact']['website_url']}")
            assert looked_up["company_id"] == new_id
            checked["website"] += 1
    assert all(checked.values()), checked


def test_a_group_head_that_moves_twice_is_named_by_its_newest_id_from_then_on(world_files: Any) -> None:
    """The moves a year brings are of companies few others name; here a group's Organträger, which its members list
    as shareholder, is made to move on the first day and again on the second (the continuation's own event,
    applied as a day's draw would apply it). Two years on, no record, link, shareholding row or event after the moves
    names a former id; the old ids lead to the newest, which keeps the published accounts."""
    from regkit.local.world.continuation import day_rng

    continuation = _continuation(world_files)
    linked = {
        entry["id"]
        for record in world_files.companies.values()
        for entry in record["representation"]
        if entry["type"] == "legal_person" and entry["id"]
    }
    top = next(
        group["organtraeger"]
        for group in world_files.meta["groups"]
        if group["organtraeger"] in linked
        and world_files.companies[group["organtraeger"]]["status"] == "active"
        and "insolvencies" not in world_files.companies[group["organtraeger"]]
        and group["organtraeger"] not in world_files.realtime  # (a pending change keeps a company where it is)
    )
    first, second = AS_OF + dt.timedelta(days=1), AS_OF + dt.timedelta(days=2)
    continuation.fold_to(first)
    [moved, *links] = continuation._apply(first, day_rng("test", first), "court_moved", top)
    assert links and all(e.kind == "link_moved" for e in links)
    middle = moved.detail["company_id"]
    continuation.fold_to(second)
    [again, *_] = continuation._apply(second, day_rng("test", second), "court_moved", middle)
    newest = again.detail["company_id"]
    end = AS_OF + dt.timedelta(days=730)
    assert continuation.current_id(top, end) == continuation.current_id(middle, end) == newest
    assert continuation.current_id(top, AS_OF) == top and continuation.current_id(top, first) == middle
    assert continuation.origin(newest) == continuation.origin(middle) == top
    assert {top: newest, middle: newest}.items() <= continuation.moves(second).items()
    companies = continuation.companies_on(end)
    assert newest in companies and top not in companies and middle not in companies
    assert continuation.company(top, AS_OF) == world_files.companies[top]
    assert continuation.company(middle, first)["id"] == middle and continuation.company(middle, second) is None
    gone = set(continuation.moves(end))
    for record in companies.values():
        named = [e["id"] for e in record["representation"] if e["type"] == "legal_person"]
        for link in (record["merged_into"], record["profit_transfer_agreement"]):
            named += [link["company_id"]] if link else []
        named += [link["company_id"] for link in (*record["acquisitions"], *record["asset_spin_offs"])]
        assert not gone & set(named), record["id"]
        rows = continuation.shareholdings(record["id"], end)
        assert not gone & ({r["company_id"] for r in rows} | {r.get("holder_id") for r in rows}), record["id"]
    for event in continuation.events(second, end):  # (another company's move names the id it had until then)
        assert not {top, middle} & {event.company_id, event.detail.get("company_id")}, event
    holders_of_newest = [e for r in companies.values() for e in r["representation"] if e["id"] == newest]
    assert holders_of_newest  # its members still list it (under the newest id)
    assert (
        continuation.company(newest, end)["indicators"][: len(world_files.companies[top]["indicators"])]
        == world_files.companies[top]["indicators"]
    )
