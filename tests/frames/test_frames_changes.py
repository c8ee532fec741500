"""What changed between two answers (``regkit.schema.changes.diff_answers``, ``regkit.frames.changes``).

Each case makes the newer answer from a real answer of the bundled world the way the register would after an
event (a rename, a move, a director leaving, a list filed...) and states the change the spec's taxonomy
(``changes-and-webhooks``, "A change") names for that event. What is not a change — presigned URLs, the order of
lists, a member one answer lacks — must give none, for every company of the world.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import regkit.frames as rf
from regkit.errors import ValidationError
from regkit.schema.changes import CATEGORIES, CHANGE_MEMBERS, DIFFERS, KINDS, diff_answers

#: Lists whose order means nothing, per operation.
UNORDERED = {
    "get_company": ("representation", "documents", "insolvencies", "acquisitions", "asset_spin_offs"),
}


def _company(world: Any, test: Any) -> dict[str, Any]:
    """A deep copy of the first company of the world that passes ``test``."""
    return copy.deepcopy(next(c for c in world.companies.values() if test(c)))


def _kinds(found: list[dict[str, Any]]) -> list[str]:
    return [change["kind"] for change in found]


def test_the_taxonomy_is_the_spec_s() -> None:
    assert (
        set(CATEGORIES)
        == set(KINDS)
        == {
            "basic",
            "representation",
            "financials",
            "documents",
            "ownership",
            "holdings",
            "insolvencies",
            "management_positions",
        }
    )
    assert KINDS["representation"] == (
        "representative_appointed",
        "representative_left",
        "role_changed",
        "authority_changed",
        "representation_rule_changed",
    )
    assert sum(len(kinds) for kinds in KINDS.values()) == 16 + 5 + 2 + 2 + 5 + 3 + 3 + 2


@pytest.mark.slow
def test_no_company_of_the_world_changed_against_itself_however_its_lists_are_ordered(world: Any) -> None:
    rng = random.Random(43)
    for company in world.companies.values():
        again = copy.deepcopy(company)
        for member in UNORDERED["get_company"]:
            if isinstance(again.get(member), list):
                rng.shuffle(again[member])
        again["sources"] = [{"document_url": f"https://example.test/{rng.random()}", "expires_at": "2030-01-01"}]
        assert diff_answers("get_company", company, again) == [], company["id"]


def test_a_rename_is_a_name_change_on_the_day_the_register_gives(world: Any) -> None:
    before = _company(world, lambda c: c["name"] and c["legal_form"] == "gmbh")
    after = copy.deepcopy(before)
    after["name"] = {"name": "Neuname Beteiligungs GmbH", "legal_form": "gmbh", "start_date": "2027-01-15"}
    after["names"].append(after["name"])
    assert diff_answers("get_company", before, after) == [
        {
            "category": "basic",
            "kind": "name_changed",
            "date": "2027-01-15",
            "field": "name",
            "before": before["name"]["name"],
            "after": "Neuname Beteiligungs GmbH",
            "detail": {},
        }
    ]


def test_a_move_to_another_city_is_a_seat_move_and_a_new_street_an_address_change(world: Any) -> None:
    before = _company(world, lambda c: c["address"] and c["address"]["city"] != "Leipzig")
    moved, street = copy.deepcopy(before), copy.deepcopy(before)
    moved["address"] = {
        **before["address"],
        "city": "Leipzig",
        "postal_code": "04109",
        "start_date": "2027-02-01",
        "formatted_value": "Markt 1, 04109 Leipzig",
        "street": "Markt 1",
    }
    street["address"] = {
        **before["address"],
        "street": "Andere Straße 9",
        "start_date": "2027-02-01",
        "formatted_value": "Andere Straße 9",
    }
    [seat] = diff_answers("get_company", before, moved)
    assert (seat["kind"], seat["date"], seat["after"]) == ("seat_moved", "2027-02-01", "Markt 1, 04109 Leipzig")
    assert seat["detail"] == {"city_before": before["address"]["city"], "city_after": "Leipzig"}
    assert _kinds(diff_answers("get_company", before, street)) == ["address_changed"]


def test_a_court_move_capital_increase_and_termination(world: Any) -> None:
    before = _company(world, lambda c: c["status"] == "active" and c["capital"] and c["capital"]["currency"] == "EUR")
    after = copy.deepcopy(before)
    after["register"] = {
        **before["register"],
        "company_id": "DE-HRB-F1103-99999",
        "register_court": "Amtsgericht Darmstadt",
        "register_number": "99999",
        "start_date": "2027-03-01",
    }
    after["capital"] = {"amount": before["capital"]["amount"] * 2, "currency": "EUR", "start_date": "2027-03-02"}
    after["status"], after["terminated_at"] = "inactive", "2027-03-03"
    found = diff_answers("get_company", before, after)
    assert _kinds(found) == ["register_changed", "capital_changed", "status_changed", "terminated"]
    register, capital, status, ended = found
    assert (register["before"], register["after"]) == (before["register"]["company_id"], "DE-HRB-F1103-99999")
    assert register["detail"]["court_after"] == "Amtsgericht Darmstadt"
    assert (capital["before"], capital["after"], capital["date"]) == (
        before["capital"]["amount"],
        before["capital"]["amount"] * 2,
        "2027-03-02",
    )
    assert (status["before"], status["after"], ended["date"]) == ("active", "inactive", "2027-03-03")


def test_a_director_leaving_and_one_appointed(world: Any) -> None:
    before = _company(
        world,
        lambda c: any(r["id"] and not r.get("end_date") and r["type"] == "natural_person" for r in c["representation"]),
    )
    after = copy.deepcopy(before)
    leaving = next(
        r for r in after["representation"] if r["id"] and not r.get("end_date") and r["type"] == "natural_person"
    )
    leaving["end_date"] = "2027-04-30"
    after["representation"].append(
        {
            "id": None,
            "name": "Jana Beispiel",
            "type": "natural_person",
            "role": "DIRECTOR",
            "start_date": "2027-05-01",
            "end_date": None,
            "authority": "sole representation",
            "natural_person": {
                "first_name": "Jana",
                "last_name": "Beispiel",
                "city": "Kassel",
                "date_of_birth": "1980-09-16",
            },
        }
    )
    found = diff_answers("get_company", before, after)
    assert {(c["kind"], c["date"], c["detail"].get("person_id"), c["detail"]["name"]) for c in found} == {
        ("representative_left", "2027-04-30", leaving["id"], leaving["name"]),
        ("representative_appointed", "2027-05-01", None, "Jana Beispiel"),
    }
    assert all(c["category"] == "representation" and c["field"] == "representation" for c in found)


def test_a_person_without_id_written_another_way_is_the_same_person(world: Any) -> None:
    before = _company(world, lambda c: True)
    entry = {
        "id": None,
        "name": "Dr. Jürgen Müller",
        "type": "natural_person",
        "role": "PROKURIST",
        "start_date": "2020-01-01",
        "end_date": None,
        "authority": None,
        "natural_person": {
            "first_name": "Jürgen",
            "last_name": "Müller",
            "date_of_birth": "1970-01-02",
            "city": "Köln",
        },
    }
    before["representation"] = [*before["representation"], entry]
    after = copy.deepcopy(before)
    after["representation"][-1] = {
        **entry,
        "name": "Juergen Mueller",
        "natural_person": {**entry["natural_person"], "first_name": "Juergen", "last_name": "Mueller"},
    }
    assert diff_answers("get_company", before, after) == []


def test_a_new_shareholder_list_is_filed_and_the_old_one_superseded(world: Any) -> None:
    before = _company(world, lambda c: any(d["type"] == "shareholder_list" and d["latest"] for d in c["documents"]))
    after = copy.deepcopy(before)
    for document in after["documents"]:
        if document["type"] == "shareholder_list" and document["latest"]:
            document["latest"], old = False, document["id"]
    after["documents"].append(
        {"id": "b7c1a0de-0000-4000-8000-000000000001", "type": "shareholder_list", "date": "2027-06-01", "latest": True}
    )
    found = diff_answers("get_company", before, after)
    assert {(c["kind"], c["detail"]["document_id"], c["detail"]["type"]) for c in found} == {
        ("document_superseded", old, "shareholder_list"),
        ("document_filed", "b7c1a0de-0000-4000-8000-000000000001", "shareholder_list"),
    }
    assert {c["category"] for c in found} == {"documents"}


def test_an_insolvency_opened_and_then_its_status_changed(world: Any) -> None:
    before = _company(world, lambda c: not c.get("insolvencies"))
    before["insolvencies"] = []  # as the register serves a company without proceedings
    opened = copy.deepcopy(before)
    proceeding = {
        "id": "0f2d3c4b-0000-4000-8000-000000000002",
        "current_status": "opened",
        "court": "Amtsgericht Kassel",
        "case_number": "660 IN 1/27",
        "proceeding_kind": "regular_insolvency",
        "administration_kind": "external_administration",
        "opened_at": "2027-07-01",
        "closed_at": None,
    }
    opened["insolvencies"] = [proceeding]
    closed = copy.deepcopy(opened)
    closed["insolvencies"][0].update(current_status="closed", closed_at="2027-09-30")
    [first] = diff_answers("get_company", before, opened)
    assert (first["kind"], first["date"], first["detail"]["case_number"]) == (
        "insolvency_opened",
        "2027-07-01",
        "660 IN 1/27",
    )
    [second] = diff_answers("get_company", opened, closed)
    assert (second["kind"], second["before"], second["after"], second["date"]) == (
        "insolvency_status_changed",
        "opened",
        "closed",
        "2027-09-30",
    )
    # the bundled world's records leave `insolvencies` out when there are none: the first proceeding is still one
    without = _company(world, lambda c: "insolvencies" not in c)
    [first_ever] = diff_answers("get_company", without, {**without, "insolvencies": [proceeding]})
    assert (first_ever["kind"], first_ever["detail"]["case_number"]) == ("insolvency_opened", "660 IN 1/27")


def test_a_merger_into_another_company(world: Any) -> None:
    before = _company(world, lambda c: c["merged_into"] is None and c["status"] == "active")
    after = copy.deepcopy(before)
    after["merged_into"] = {
        "company_id": "DE-HRB-D4501-103012",
        "name": "Klöpfer Einzelhandel GmbH",
        "registration_date": "2027-08-01",
        "agreement_date": "2027-05-01",
    }
    [merged] = diff_answers("get_company", before, after)
    assert (merged["kind"], merged["after"], merged["date"]) == ("merged_into", "DE-HRB-D4501-103012", "2027-08-01")
    assert merged["detail"] == {"name": "Klöpfer Einzelhandel GmbH", "agreement_date": "2027-05-01"}


def test_a_member_one_answer_lacks_is_not_compared(world: Any) -> None:
    before = _company(world, lambda c: c["contact"])
    after = copy.deepcopy(before)
    del before["contact"], before["industry_codes"]  # fetched without those members
    after["contact"] = {**after["contact"], "email": "new@example.test"}
    assert diff_answers("get_company", before, after) == []
    before["contact"] = copy.deepcopy(after["contact"])
    before["contact"]["email"] = "old@example.test"
    assert [(c["kind"], c["field"], c["before"], c["after"]) for c in diff_answers("get_company", before, after)] == [
        ("contact_changed", "contact.email", "old@example.test", "new@example.test")
    ]


def test_owners_added_removed_and_shares_changed() -> None:
    def owner(key: str, percent: float) -> dict[str, Any]:
        return {
            "id": key,
            "name": key,
            "type": "legal_person",
            "relation_type": "shareholder",
            "nominal_share": percent * 250,
            "percentage_share": percent,
            "start": "2020-01-01",
            "legal_person": {"name": key, "city": "Kassel", "country": "DE"},
            "natural_person": None,
        }

    before = {"company_id": "DE-HRB-B1234-1", "owners": [owner("DE-HRB-B1234-2", 60.0), owner("DE-HRB-B1234-3", 40.0)]}
    after = {"company_id": "DE-HRB-B1234-1", "owners": [owner("DE-HRB-B1234-4", 40.0), owner("DE-HRB-B1234-2", 60.0)]}
    reordered = {**after, "owners": list(reversed(after["owners"]))}
    assert diff_answers("get_owners", before, reordered) == diff_answers("get_owners", before, after)
    found = diff_answers("get_owners", before, after)
    assert {(c["kind"], c["detail"]["owner_id"], c["before"], c["after"]) for c in found} == {
        ("owner_removed", "DE-HRB-B1234-3", 40.0, None),
        ("owner_added", "DE-HRB-B1234-4", None, 40.0),
    }
    after["owners"][1] = owner("DE-HRB-B1234-2", 55.0)
    assert ("share_changed", 60.0, 55.0) in {
        (c["kind"], c["before"], c["after"]) for c in diff_answers("get_owners", before, after)
    }


def test_a_report_filed_and_a_report_corrected() -> None:
    report = {
        "report_id": "r-2025",
        "report_start_date": "2025-01-01",
        "report_end_date": "2025-12-31",
        "consolidated": False,
        "aktiva": {"rows": []},
    }
    before = {"indicators": [], "reports": [], "merged": None}
    after = {"indicators": [], "reports": [report], "merged": None}
    [filed] = diff_answers("get_financials", before, after)
    assert (filed["category"], filed["kind"], filed["date"]) == ("financials", "report_filed", "2025-12-31")
    corrected = {**after, "reports": [{**report, "aktiva": {"rows": [{"name": "Kasse"}]}}]}
    assert _kinds(diff_answers("get_financials", after, corrected)) == ["report_corrected"]
    # a report's presigned html_url, signed anew on every answer, is no correction
    signed = {**after, "reports": [{**report, "sources": [{"html_url": "https://r.example/a?signature=1"}]}]}
    resigned = {**after, "reports": [{**report, "sources": [{"html_url": "https://r.example/a?signature=2"}]}]}
    assert diff_answers("get_financials", signed, resigned) == []


def test_a_person_s_position_started_and_ended() -> None:
    position = {
        "company_name": "Alpha GmbH",
        "register_id": "DE-HRB-B1234-1",
        "role": "DIRECTOR",
        "start_date": "2020-01-01",
        "end_date": None,
    }
    before = {"id": "p", "management_positions": [position]}
    after = {
        "id": "p",
        "management_positions": [
            {**position, "end_date": "2027-01-31"},
            {**position, "register_id": "DE-HRB-B1234-2", "start_date": "2027-02-01"},
        ],
    }
    found = diff_answers("get_person", before, after)
    assert {(c["kind"], c["date"], c["detail"]["company_id"]) for c in found} == {
        ("position_ended", "2027-01-31", "DE-HRB-B1234-1"),
        ("position_started", "2027-02-01", "DE-HRB-B1234-2"),
    }
    assert {c["category"] for c in found} == {"management_positions"}


def test_an_insolvency_event_published(world: Any) -> None:
    proceeding = copy.deepcopy(next(p for p in world.insolvencies.values() if len(p["events"]) >= 2))
    before = {**proceeding, "events": proceeding["events"][:-1]}
    [event] = diff_answers("get_insolvency", before, proceeding)
    newest = proceeding["events"][-1]
    assert (event["kind"], event["date"], event["detail"]["event_id"]) == (
        "insolvency_event",
        newest["published_at"],
        newest["id"],
    )


def test_categories_filter_and_bad_input() -> None:
    before = {"id": "DE-HRB-B1234-1", "name": {"name": "A"}, "representation_rule": "x"}
    after = {"id": "DE-HRB-B1234-1", "name": {"name": "B"}, "representation_rule": "y"}
    assert _kinds(diff_answers("get_company", before, after)) == ["name_changed", "representation_rule_changed"]
    assert _kinds(diff_answers("get_company", before, after, ["representation"])) == ["representation_rule_changed"]
    with pytest.raises(ValueError, match="unknown categories"):
        diff_answers("get_company", before, after, ["names"])
    with pytest.raises(ValueError, match="no changes are defined for 'get_credits'"):
        diff_answers("get_credits", before, after)
    with pytest.raises(ValidationError, match="no changes are defined"):
        rf.changes(before, after, operation="search_company")


def test_the_frame_has_the_documented_dtypes_and_reads_an_event_s_changes_back() -> None:
    before = {"id": "DE-HRB-B1234-1", "capital": {"amount": 25000.0, "currency": "EUR", "start_date": "2001-02-03"}}
    after = {"id": "DE-HRB-B1234-1", "capital": {"amount": 50000.0, "currency": "EUR", "start_date": "2026-11-30"}}
    frame = rf.changes(before, after)
    assert list(frame.columns) == list(CHANGE_MEMBERS)
    assert {c: str(t) for c, t in frame.dtypes.items()} == {
        "category": "category",
        "kind": "category",
        "date": "datetime64[us]",
        "field": "str",
        "before": "object",
        "after": "object",
        "detail": "object",
    }
    assert list(frame["category"].cat.categories) == list(CATEGORIES)
    assert frame.loc[0, "detail"] == {"currency_before": "EUR", "currency_after": "EUR"}
    event_changes = diff_answers("get_company", before, after)  # as a webhook event carries them
    assert rf.changes_table(event_changes).equals(frame)
    assert rf.changes({}, {}).empty and list(rf.changes({}, {}).columns) == list(CHANGE_MEMBERS)
    with pytest.raises(ValidationError, match="lacks"):
        rf.changes_table([{"kind": "name_changed"}])


def test_every_operation_with_a_differ_is_a_row_of_the_endpoint_table() -> None:
    from regkit.schema.endpoints import ENDPOINTS_BY_ID

    assert set(DIFFERS) <= set(ENDPOINTS_BY_ID)
