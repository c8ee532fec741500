"""Invariants of the bundled world, checked from its data files with rules written out here — on the world as
stored, and on the world a year later, as the local register's continuation leaves it (the invariants keep holding
after any advance: ``docs/interface.md``, "The local register's clock")."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict

import pytest

from regkit.local.world.continuation import Continuation
from regkit.local.world.store import World
from regkit.schema.interface import DEM_PER_EUR

pytestmark = pytest.mark.slow

A_YEAR = dt.timedelta(days=365)


@pytest.fixture(scope="module", params=["as stored", "a year on"])
def world(request, world):
    """The bundled world as stored, and as it is a year after its ``as_of`` (its meta's ``as_of`` that day; the
    realtime records whose changes are registered by then are none of its realtime records any more; the companies
    incorporated since are among its companies, with their shareholdings; a company that moved to another court's
    district is there under its new id, its old one among the ``former_ids``; its group, its Transparenzregister
    entity and the scenarios that name it name the new id, as the served answers do)."""
    if request.param == "as stored":
        return world
    continuation = Continuation.of_world(world)
    day = continuation.as_of + A_YEAR
    companies = continuation.companies_on(day)
    moves = continuation.moves(day)
    moved = {old: new for old, new in moves.items() if old in world.companies}
    assert set(companies) - set(world.companies) == set(continuation.incorporated(day)) | set(moved.values())
    assert set(world.companies) - set(companies) == set(moved) != set()
    pending = {cid: r for cid, r in world.realtime.items() if companies.get(cid) == world.companies[cid]}
    former = {old: moves.get(new, new) for old, new in world.meta["former_ids"].items()} | moves
    groups = [
        {**group, "members": [moves.get(m, m) for m in group["members"]], "organtraeger": moves.get(top, top)}
        for group in world.meta["groups"]
        for top in [group["organtraeger"]]
    ]
    register = world.meta["transparenzregister"]
    register = {**register, "entities": {moves.get(cid, cid): ekrns for cid, ekrns in register["entities"].items()}}
    scenarios = [
        {**row, "company_id": moves.get(row["company_id"], row["company_id"])} for row in world.meta["scenarios"]
    ]
    meta = {
        **world.meta,
        "as_of": day.isoformat(),
        "former_ids": former,
        "groups": groups,
        "transparenzregister": register,
        "scenarios": scenarios,
    }
    # the companies held, in file order (under their ids of the day), then those incorporated since
    held = list(
        dict.fromkeys(
            [
                *(moves.get(row["company_id"], row["company_id"]) for row in world.shareholdings),
                *continuation.incorporated(day),
            ]
        )
    )
    rows = [
        {**row, "nominal_share": continuation.nominal_share(row, day)}
        for company_id in held
        for row in continuation.shareholdings(company_id, day)
    ]
    return World(meta, companies, pending, continuation.proceedings_on(day), rows)


COMPANY_ID = re.compile(r"^DE-(HRB|HRA|PR|GnR|VR)-[A-Z][0-9]{4}-[0-9]+[A-Z]{0,2}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
REGISTER_OF = {
    "gmbh": "HRB",
    "ug": "HRB",
    "ggmbh": "HRB",
    "ag": "HRB",
    "se": "HRB",
    "kgaa": "HRB",
    "foreign": "HRB",
    "kg": "HRA",
    "ohg": "HRA",
    "ek": "HRA",
    "ewiv": "HRA",
    "municipal": "HRA",
    "gbr": "HRA",
    "eg": "GnR",
    "ev": "VR",
    "unknown": "PR",
    "llp": "PR",
}
LEGAL_FORMS = set(REGISTER_OF)
ROLES = {"DIRECTOR", "PROKURA", "SHAREHOLDER", "OWNER", "PARTNER", "PERSONAL_LIABLE_DIRECTOR", "LIQUIDATOR"}
# filled-gaps.md: a proceeding's current_status follows from its events.
STATUS_OF_EVENT = {
    "preliminary_measures": "preliminary",
    "proceedings_opened": "opened",
    "rejected_insufficient_assets": "rejected_no_assets",
    "mass_insufficiency_notified": "mass_insufficient",
    "plan_supervision_ordered": "plan_supervised",
    "proceedings_lifted": "lifted",
    "proceedings_discontinued": "discontinued",
    "discharge_pending": "discharge_pending",
    "discharge_granted": "discharge_granted",
    "discharge_denied": "discharge_denied",
    "discharge_revoked": "discharge_revoked",
    "other": "unknown",
}
OPEN = {"preliminary", "opened", "mass_insufficient", "plan_supervised", "discharge_pending"}
# data/README.md: these outcomes dissolve a company; it is in liquidation until it is deleted.
DISSOLVING = {"opened", "mass_insufficient", "rejected_no_assets", "lifted", "discontinued"}
HISTORIES = {
    "name": "names",
    "address": "addresses",
    "purpose": "purposes",
    "capital": "capitals",
    "register": "registers",
}


def _life(company, as_of):
    end = company["terminated_at"] or as_of
    return company["incorporated_at"], end


def test_size_and_calibration(world):
    companies, proceedings = world.companies, world.insolvencies
    assert 4500 <= len(companies) <= 5500
    assert 1200 <= len(proceedings) <= 1800
    persons = sum(p["debtor_kind"] == "natural_person" for p in proceedings.values())
    assert 0.25 <= persons / len(proceedings) <= 0.42
    sizes = [len(g["members"]) for g in world.meta["groups"]]
    assert 80 <= len(sizes) <= 130 and min(sizes) >= 3 and max(sizes) <= 30
    forms = Counter(c["legal_form"] for c in companies.values())
    assert forms.most_common(1)[0][0] == "gmbh"


def test_every_shape_of_the_interface_appears(world):
    companies = list(world.companies.values())
    assert {n["legal_form"] for c in companies for n in c["names"]} == LEGAL_FORMS
    assert {c["register"]["register_type"] for c in companies} == {"HRB", "HRA", "PR", "GnR", "VR"}
    assert {c["status"] for c in companies} == {"active", "inactive", "liquidation"}
    assert {r["role"] for c in companies for r in c["representation"]} >= ROLES
    assert {r["type"] for c in companies for r in c["representation"]} == {"natural_person", "legal_person"}
    assert {k["currency"] for c in companies for k in c["capitals"]} == {"EUR", "DEM", "USD"}
    assert {d["type"] for c in companies for d in c["documents"]} == {
        "articles_of_association",
        "sample_protocol",
        "shareholder_list",
    }
    statuses = {p["current_status"] for p in world.insolvencies.values()}
    assert statuses == set(STATUS_OF_EVENT.values())
    assert any(r["id"] is None for c in companies for r in c["representation"])  # the interface allows a null id
    assert any(c.get("lei") for c in companies) and any(c["contact"] for c in companies)
    assert any(len(c["acquisitions"]) > 1 for c in companies) and any(c["asset_spin_offs"] for c in companies)


def test_ids_well_formed_unique_and_match_the_register(world):
    for company_id, company in world.companies.items():
        assert COMPANY_ID.match(company_id), company_id
        register = company["register"]
        expected = f"DE-{register['register_type']}-{register['company_id'].split('-')[2]}-{register['register_number'].replace(' ', '')}"
        assert company_id == register["company_id"] == expected
        assert REGISTER_OF[company["legal_form"]] == register["register_type"]
    assert len(set(world.companies)) == len(world.companies)
    assert len(world.insolvencies) == len({p["case_number"] + p["court"] for p in world.insolvencies.values()})
    for proceeding in world.insolvencies.values():
        assert UUID.match(proceeding["id"])


def test_a_former_id_leads_to_the_company_it_was_an_earlier_register_of(world):
    former = world.meta["former_ids"]
    assert len(former) >= 100
    for old, new in former.items():
        assert old not in world.companies
        assert old in [register["company_id"] for register in world.companies[new]["registers"][:-1]], (old, new)


def test_histories_sorted_and_current_is_newest(world):
    for company in world.companies.values():
        for current, history in HISTORIES.items():
            entries = company[history]
            starts = [e["start_date"] for e in entries]
            assert starts == sorted(starts), (company["id"], history)
            if entries:
                assert company[current] == entries[-1], (company["id"], current)
            else:
                assert company[current] is None
        assert company["legal_form"] == company["name"]["legal_form"]
        assert [i["date"] for i in company["indicators"]] == sorted(i["date"] for i in company["indicators"])


def test_every_date_inside_the_companys_life(world):
    as_of = world.meta["as_of"]
    for company in world.companies.values():
        start, end = _life(company, as_of)
        for history in HISTORIES.values():
            for entry in company[history]:
                assert start <= entry["start_date"] <= end, (company["id"], history, entry)
        assert company["names"][0]["start_date"] == start
        for rep in company["representation"]:
            assert start <= rep["start_date"] <= end, (company["id"], rep)
            assert rep["end_date"] is None or rep["start_date"] <= rep["end_date"] <= end, (company["id"], rep)
        for doc in company["documents"]:
            assert start <= doc["date"] <= end
        for indicator in company["indicators"]:
            assert indicator["date"] <= end
        assert company["notarized_at"] is None or company["notarized_at"] <= start


def test_links_resolve_and_are_mirrored(world):
    companies = world.companies
    for company in companies.values():
        links = [
            company["merged_into"],
            company["profit_transfer_agreement"],
            *company["acquisitions"],
            *company["asset_spin_offs"],
        ]
        for link in filter(None, links):
            target = companies[link["company_id"]]
            assert link["name"] == target["name"]["name"]
            assert link["agreement_date"] is None or link["agreement_date"] <= link["registration_date"]
        merged = company["merged_into"]
        if merged:
            acquirer = companies[merged["company_id"]]
            mirror = [a for a in acquirer["acquisitions"] if a["company_id"] == company["id"]]
            assert len(mirror) == 1
            assert (mirror[0]["registration_date"], mirror[0]["agreement_date"]) == (
                merged["registration_date"],
                merged["agreement_date"],
            )
            assert company["status"] == "inactive" and company["terminated_at"] == merged["registration_date"]
        for acquisition in company["acquisitions"]:
            assert companies[acquisition["company_id"]]["merged_into"]["company_id"] == company["id"]
        for rep in company["representation"]:
            if rep["type"] == "legal_person" and rep["id"] is not None:
                holder = companies[rep["id"]]
                assert holder["incorporated_at"] <= rep["start_date"], (company["id"], rep["id"])


def test_statuses_consistent(world):
    proceedings_of = defaultdict(list)
    for proceeding in world.insolvencies.values():
        if proceeding["company_id"]:
            proceedings_of[proceeding["company_id"]].append(proceeding)
    for company in world.companies.values():
        assert (company["status"] == "inactive") == (company["terminated_at"] is not None), company["id"]
        active_roles = {r["role"] for r in company["representation"] if r["end_date"] is None}
        if company["status"] == "liquidation":
            dissolved = any(p["current_status"] in DISSOLVING for p in proceedings_of[company["id"]])
            assert "LIQUIDATOR" in active_roles or dissolved, company["id"]
        if company["status"] == "inactive":
            assert not active_roles, company["id"]
        summaries = company.get("insolvencies")
        mine = proceedings_of.get(company["id"], [])
        assert ("insolvencies" in company) == bool(mine)
        if summaries:
            assert sorted(s["id"] for s in summaries) == sorted(p["id"] for p in mine)
            for summary in summaries:
                proceeding = world.insolvencies[summary["id"]]
                assert all(summary[key] == proceeding[key] for key in summary)


def test_proceedings_explained_by_their_events(world):
    as_of = world.meta["as_of"]
    for proceeding in world.insolvencies.values():
        status = "unknown"
        for event in proceeding["events"]:
            status = STATUS_OF_EVENT.get(event["event_type"], status)
        assert status == proceeding["current_status"], proceeding["id"]
        published = [e["published_at"] for e in proceeding["events"]]
        assert published == sorted(published) and max(published) <= as_of
        assert (proceeding["first_event_at"], proceeding["last_event_at"]) == (published[0], published[-1])
        assert proceeding["has_open_insolvency"] == (status in OPEN)
        assert re.match(r"^\d{1,3}[a-z]? (IN|IK) \d{1,4}/\d{2}$", proceeding["case_number"])
        consumer = " IK " in proceeding["case_number"]
        assert consumer == (proceeding["proceeding_kind"] == "consumer_insolvency")
        if proceeding["debtor_kind"] == "natural_person":
            assert (
                proceeding["person_id"] and proceeding["company_id"] is None and proceeding["debtor_legal_form"] is None
            )
        else:
            assert not consumer and proceeding["company_id"] in world.companies and proceeding["person_id"] is None
        opened = next((e for e in proceeding["events"] if e["event_type"] == "proceedings_opened"), None)
        assert (proceeding["opened_at"] is None) == (opened is None)


def test_reference_values_exist(world, reference_table):
    courts = {row["code"][:5] for row in reference_table("register_courts_observed")}
    places = {(row["plz"].zfill(5), row["ort"]) for row in reference_table("postcodes")}
    wz = {row["code"] for row in reference_table("wz2025")}
    for company in world.companies.values():
        for register in company["registers"]:
            assert register["company_id"].split("-")[2] in courts
        for address in company["addresses"]:
            assert (address["postal_code"], address["city"]) in places
        for code in company["industry_codes"]["WZ2025"]:
            assert code["code"] in wz


def test_one_latest_document_per_type(world):
    for company in world.companies.values():
        by_type = defaultdict(list)
        for doc in company["documents"]:
            by_type[doc["type"]].append(doc)
        for docs in by_type.values():
            latest = [d for d in docs if d["latest"]]
            assert len(latest) == 1 and latest[0]["date"] == max(d["date"] for d in docs)


MINIMUM_EUR = {"gmbh": 25_000, "ggmbh": 25_000, "ag": 50_000, "kgaa": 50_000, "se": 120_000}


def test_capital_rules_per_legal_form(world):
    for company in world.companies.values():
        form, capital = company["legal_form"], company["capital"]
        for entry in company["capitals"]:
            if entry["currency"] == "DEM":
                assert entry["start_date"] < "2002-01-01", company["id"]
        if form in {"kg", "ohg", "ek", "ewiv", "municipal", "eg", "ev", "unknown", "llp"}:
            assert capital is None, company["id"]
        elif form == "ug":
            assert capital["currency"] == "EUR" and 1 <= capital["amount"] < 25_000
        elif form in MINIMUM_EUR:
            euros = capital["amount"] / float(DEM_PER_EUR) if capital["currency"] == "DEM" else capital["amount"]
            assert euros >= MINIMUM_EUR[form] - 0.01, company["id"]
        names = company["names"]
        if names[0]["legal_form"] == "ug" and form == "gmbh":
            conversion = next(n["start_date"] for n in names if n["legal_form"] == "gmbh")
            at_conversion = [c for c in company["capitals"] if c["start_date"] <= conversion][-1]
            assert at_conversion["amount"] >= 25_000


def test_indicators_have_realistic_gaps_and_distress(world):
    entries = [i for c in world.companies.values() for i in c["indicators"]]
    no_revenue = [i for i in entries if i["revenue"] is None and i["balance_sheet_total"] is not None]
    assert 0.4 < len(no_revenue) / len(entries) < 0.9
    dates = Counter((c["id"], i["date"]) for c in world.companies.values() for i in c["indicators"])
    assert any(n > 1 for n in dates.values())  # corrected reports: two entries for one date
    distressed = 0
    for proceeding in world.insolvencies.values():
        company = world.companies.get(proceeding["company_id"] or "")
        if company and proceeding["opened_at"] and len(company["indicators"]) >= 4:
            last = company["indicators"][-1]
            if last["net_income"] is not None:
                assert last["net_income"] < 0, company["id"]
                distressed += 1
    assert distressed >= 10


def test_people_serve_on_several_boards(world):
    boards = defaultdict(set)
    for company in world.companies.values():
        for rep in company["representation"]:
            if rep["type"] == "natural_person" and rep["role"] == "DIRECTOR" and rep["end_date"] is None and rep["id"]:
                boards[rep["id"]].add(company["id"])
    assert sum(len(b) >= 2 for b in boards.values()) >= 50


def test_groups_have_their_organtraeger_and_agreements(world):
    for group in world.meta["groups"]:
        top = group["organtraeger"]
        assert top == group["members"][0] and all(m in world.companies for m in group["members"])
        assert world.companies[top]["profit_transfer_agreement"] is None
    agreements = [c for c in world.companies.values() if c["profit_transfer_agreement"]]
    assert len(agreements) >= 150


def test_meta_users_accounts_matches_and_scenarios(world):
    users = {u["api_key"]: u for u in world.meta["users"]}
    assert (
        users["demo-paid"]["included_credits"] == 100_000
        and world.meta["plans"][users["demo-paid"]["plan"]]["monitoring"]
    )
    assert users["demo-free"]["included_credits"] == 500 and not world.meta["plans"][users["demo-free"]["plan"]]["paid"]
    assert users["demo-empty"]["included_credits"] == 0 and world.meta["plans"][users["demo-empty"]["plan"]]["paid"]
    states = Counter(a["state"] for a in world.meta["transparenzregister"]["accounts"])
    assert states["valid"] == 1 and states["locked"] == 1 and states["identification_incomplete"] == 1
    entities = world.meta["transparenzregister"]["entities"]
    assert all(company_id in world.companies for company_id in entities)
    assert Counter(min(len(v), 2) for v in entities.values()).keys() == {1, 2}
    assert any(c not in entities for c in world.companies)
    for row in world.meta["scenarios"]:
        assert row["company_id"] in world.companies or row["company_id"] in world.insolvencies, row


def test_realtime_shows_only_newer_changes(world):
    as_of = world.meta["as_of"]
    assert len(world.realtime) <= 20
    assert len(world.realtime) >= 5 or as_of > "2026-06-30"  # a year on, every pending change is registered
    for company_id, fresh in world.realtime.items():
        stored = world.companies[company_id]
        assert fresh != stored
        newer = [e for h in HISTORIES.values() for e in fresh[h] if e["start_date"] > as_of]
        newer += [r for r in fresh["representation"] if r["start_date"] > as_of]
        assert newer, company_id


#: How holders relate to a company, by legal form (research-endpoints.md; the KG's general partners are its
#: PERSONAL_LIABLE_DIRECTOR entries, see data/README.md).
RELATION = {
    "gmbh": "shareholder",
    "ug": "shareholder",
    "ggmbh": "shareholder",
    "ag": "stockholder",
    "se": "stockholder",
    "kgaa": "stockholder",
    "kg": "limited_partner",
    "ohg": "general_partner",
}
IN_REGISTER = {"gmbh", "ug", "ggmbh", "kg", "ohg"}


def test_shareholdings_resolve_and_add_up(world):
    people = {r["id"] for c in world.companies.values() for r in c["representation"] if r["type"] == "natural_person"}
    current = defaultdict(float)
    for row in world.shareholdings:
        company = world.companies[row["company_id"]]
        known = world.companies if row["holder_type"] == "legal_person" else people
        if row["holder_id"] is None:  # a general partner the register names without an id
            assert row["relation_type"] == "general_partner" and company["legal_form"] == "kg", row
        elif row["holder_type"] == "legal_person" or company["legal_form"] in IN_REGISTER:
            assert row["holder_id"] in known, row
        if row["relation_type"] == "general_partner" and company["legal_form"] == "kg":
            assert row["share"] == 0 and row["nominal_share"] == 0, row
        else:
            assert row["relation_type"] == RELATION[company["legal_form"]], row
            assert 0 < row["share"] <= 1, row
        if row["end"] is None:
            current[row["company_id"]] += row["share"]
        else:
            assert row["start"] is None or row["start"] <= row["end"], row
    assert max(current.values()) <= 1.0001
    for company_id, total in current.items():
        if world.companies[company_id]["legal_form"] in IN_REGISTER:
            assert total == pytest.approx(1, abs=1e-3), company_id  # the register knows every shareholder


def test_shareholdings_are_the_shareholder_entries(world):
    rows = defaultdict(list)
    for row in world.shareholdings:
        rows[row["company_id"], row["relation_type"] == "general_partner" and row["share"] == 0].append(
            (row["holder_id"] or "", row["start"], row["end"])
        )
    for company in world.companies.values():
        if company["legal_form"] not in IN_REGISTER:
            continue
        entries = sorted(
            (e["id"], e["start_date"], e["end_date"]) for e in company["representation"] if e["role"] == "SHAREHOLDER"
        )
        assert sorted(rows[company["id"], False]) == entries, company["id"]
        partners = sorted(
            (e["id"] or "", e["start_date"], e["end_date"])
            for e in company["representation"]
            if e["role"] == "PERSONAL_LIABLE_DIRECTOR"
        )
        assert sorted(rows[company["id"], True]) == (partners if company["legal_form"] == "kg" else []), company["id"]


def test_nominal_shares_are_shares_of_the_capital(world):
    checked = 0
    for row in world.shareholdings:
        capital = world.companies[row["company_id"]]["capital"]
        if capital and row["share"] > 0:
            amount = capital["amount"] / 1.95583 if capital["currency"] == "DEM" else capital["amount"]
            assert row["nominal_share"] == pytest.approx(row["share"] * amount, abs=0.01), row
            checked += 1
        assert row["nominal_share"] >= 0
    assert checked > 1000


def test_some_stakes_were_handed_on_and_keep_their_size(world):
    by_company = defaultdict(list)
    for row in world.shareholdings:
        by_company[row["company_id"]].append(row)
    handed_on = 0
    for company_id, held in by_company.items():
        if world.companies[company_id]["status"] != "active":
            continue
        for ended in (r for r in held if r["end"] is not None and r["share"] > 0):
            # the stake passes on its day to a holder who still has it, or handed it on in turn (a year on)
            successors = [r for r in held if r["start"] == ended["end"] and (r["end"] is None or r["end"] > r["start"])]
            assert successors and ended["share"] in {r["share"] for r in successors}, ended
            handed_on += 1
    assert handed_on >= 50


def test_no_one_holds_a_role_twice_at_once_in_a_company(world):
    for company in world.companies.values():
        current = [(e["id"], e["role"]) for e in company["representation"] if e["end_date"] is None and e["id"]]
        assert len(current) == len(set(current)), company["id"]


def test_a_person_is_the_same_everywhere_and_a_few_have_no_published_birth(world):
    seen = {}
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person" and entry["id"]:
                details = (entry["name"], *sorted(entry["natural_person"].items()))
                assert seen.setdefault(entry["id"], details) == details, entry["id"]
    without = sum(dict(d[1:])["date_of_birth"] is None for d in seen.values())
    assert 0.01 * len(seen) < without < 0.05 * len(seen)


@pytest.mark.parametrize("field", ["names", "addresses", "registers"])
def test_histories_change_over_time(world, field):
    assert sum(len(c[field]) > 1 for c in world.companies.values()) >= 50
