"""``regkit world import offeneregister`` on the committed sample: every record imported, mapped as the source
says, served by the local register and parsed by the official client, the same bytes every time.

Expected values come from the source records, read here with ``json``; ids from the client's
``parse_company_id`` (the court lists' other reader), person keys from ``regkit.frames.identity``.
"""

from __future__ import annotations

import gzip
import json
import re
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from offeneregister_support import run_import, sample_lines, sample_path, sample_records
from serve_support import served_register

from regkit.client import parse_company_id
from regkit.frames.identity import name_key, normalise
from regkit.local import open_local_register
from regkit.local.world import read_world
from regkit.local.world.offeneregister import import_offeneregister
from regkit.local.world.store import WORLD_FILES

POSITIONS = {
    "Geschäftsführer": "DIRECTOR",
    "Prokurist": "PROKURA",
    "Persönlich haftender Gesellschafter": "PERSONAL_LIABLE_DIRECTOR",
    "Liquidator": "LIQUIDATOR",
    "Inhaber": "OWNER",
}


def expected_id(record: dict[str, Any]) -> str:
    attributes = record["all_attributes"]
    suffix = attributes.get("_registerNummerSuffix", "")
    court = attributes["registrar"]
    if attributes.get("former_registrar"):  # a register another court took over: the number is the former court's
        court += f" früher {attributes['former_registrar']}"
    text = f"{court} {attributes['_registerArt']} {attributes['_registerNummer']} {suffix}"
    return parse_company_id(text.strip())


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("offeneregister") / "world"
    import_offeneregister(sample_path(), out)
    return out


@pytest.fixture(scope="module")
def world(imported: Path):
    return read_world(imported)


@pytest.fixture(scope="module")
def by_id() -> dict[str, dict[str, Any]]:
    return {expected_id(record): record for record in sample_records()}


@pytest.mark.slow
def test_every_line_of_the_sample_is_a_company(imported: Path, world, by_id) -> None:
    report = json.loads((imported / "import-report.json").read_text())
    lines = len(sample_lines())
    assert report["lines"] == lines == 3000
    assert report["imported"] + sum(report["skipped"].values()) == lines
    assert report["imported"] == len(world.companies) == len(by_id) == lines
    assert set(world.companies) == set(by_id)
    assert list(world.companies) == sorted(world.companies)


def test_the_world_says_where_it_comes_from(world) -> None:
    meta = world.meta
    assert meta["source"] == "offeneregister" and meta["synthetic"] is False and meta["dates_of_birth"] is False
    assert "CC BY 4.0" in meta["attribution"] and "OffeneRegister" in meta["attribution"]
    assert "Handelsregister" in meta["attribution"]
    retrieved = sorted(r["retrieved_at"][:10] for r in sample_records())
    assert meta["retrieved"] == {"first": retrieved[0], "last": retrieved[-1]}
    assert meta["as_of"] == retrieved[-1]
    assert {u["api_key"] for u in meta["users"]} >= {"demo-paid", "demo-free", "demo-empty"}
    assert set(meta["derived"]["rules"]) >= {"incorporated_at", "names.start_date", "representation.id"}


def test_companies_carry_what_the_source_says(world, by_id) -> None:
    for company_id, source in by_id.items():
        company = world.companies[company_id]
        attributes = source["all_attributes"]
        assert company["register"]["register_type"] == attributes["_registerArt"]
        assert company["register"]["register_number"].replace(" ", "") == (
            attributes["_registerNummer"] + attributes.get("_registerNummerSuffix", "")
        )
        assert company["name"]["name"] == source["name"]
        former = [p["company_name"] for p in source.get("previous_names", [])]
        assert [n["name"] for n in company["names"]] == [*former, source["name"]]
        removed = source["current_status"] == "removed"
        assert (company["status"] == "inactive") == removed
        liquidating = re.search(r"\bi\.\s?L\.|in Liquidation", source["name"]) or any(
            o["position"] == "Liquidator" and not o.get("end_date") for o in source.get("officers", [])
        )
        assert company["status"] == ("inactive" if removed else "liquidation" if liquidating else "active")
        postal = re.search(r"\b(\d{5})\b", source.get("registered_address") or "")
        if postal:
            assert company["address"]["postal_code"] == postal.group(1)
            assert company["address"]["city"] in source["registered_address"]
        else:
            assert company["address"]["city"] == attributes["registered_office"]
        officers = source.get("officers", [])
        assert len(company["representation"]) == len(officers)
        for officer, entry in zip(officers, company["representation"]):
            assert entry["role"] == POSITIONS[officer["position"]]
            assert entry["end_date"] == officer.get("end_date")
            assert entry["start_date"] == officer.get("start_date", company["incorporated_at"])
            flag = (officer.get("other_attributes") or {}).get("flag")
            assert entry["authority"] == flag or (officer["type"] == "company" and flag is None)
        for member in ("indicators", "documents", "capitals", "purposes", "acquisitions"):
            assert company[member] == []


def test_a_person_is_one_id_by_name_and_town(world) -> None:
    ids_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    companies_of: dict[str, set[str]] = defaultdict(set)
    for company_id, company in world.companies.items():
        for entry in company["representation"]:
            if entry["type"] == "natural_person":
                person = entry["natural_person"]
                key = (name_key(person["first_name"], person["last_name"], entry["name"]), normalise(person["city"]))
                ids_of[key].add(entry["id"])
                companies_of[entry["id"]].add(company_id)
                assert person["date_of_birth"] is None
    assert all(len(ids) == 1 for ids in ids_of.values())
    assert len({i for ids in ids_of.values() for i in ids}) == len(ids_of)
    busiest = max(len(c) for c in companies_of.values())
    assert busiest >= 30  # the shelf-company founder of the sample
    assert sum(len(c) > 1 for c in companies_of.values()) >= 40


def test_a_gmbh_general_partner_is_linked_to_its_company(world, by_id) -> None:
    seat_of = defaultdict(list)
    for company_id, source in by_id.items():
        seat_of[(normalise(source["name"]), normalise(source["all_attributes"]["registered_office"]))].append(
            company_id
        )
    linked = 0
    for company_id, company in world.companies.items():
        for entry in company["representation"]:
            if entry["type"] != "legal_person":
                continue
            legal = entry["legal_person"]
            matches = seat_of.get((normalise(legal["name"]), normalise(legal["city"])), [])
            if len(matches) == 1 and matches[0] != company_id:
                assert entry["id"] == matches[0]
                linked += 1
            else:
                assert entry["id"] is None
    kgs = [
        c
        for c in world.companies.values()
        if c["legal_form"] == "kg"
        and any(e["role"] == "PERSONAL_LIABLE_DIRECTOR" and e["id"] in world.companies for e in c["representation"])
    ]
    assert linked >= 25 and kgs


def test_derived_members_are_listed_per_company(imported: Path, world, by_id) -> None:
    with gzip.open(imported / "derived.jsonl.gz", "rt", encoding="utf-8") as handle:
        derived = {row["id"]: row["derived"] for row in map(json.loads, handle)}
    assert list(derived) == list(world.companies)
    for company_id, members in derived.items():
        source = by_id[company_id]
        assert "incorporated_at" in members
        has_postal = re.search(r"\b\d{5}\b", source.get("registered_address") or "")
        assert ("address.city" in members) == (not has_postal)
        for index, officer in enumerate(source.get("officers", [])):
            assert (f"representation[{index}].start_date" in members) == ("start_date" not in officer)
    counts = world.meta["derived"]["counts"]
    assert counts["incorporated_at"] == len(world.companies)


def test_the_imported_world_is_served(imported: Path, by_id) -> None:
    register = open_local_register(data_dir=imported, rate_limit=0)
    session = register.session(register.default_api_key)
    for company_id in sorted(by_id)[::300]:
        answer = session.get(f"{register.base_url}/v1/company/{company_id}")
        assert answer.status_code == 200, answer.text
        assert answer.json()["name"]["name"] == by_id[company_id]["name"]


def test_the_official_client_parses_imported_companies(imported: Path, tmp_path: Path, world) -> None:
    chosen = [
        next(i for i, c in world.companies.items() if c["status"] == "liquidation"),
        next(i for i, c in world.companies.items() if any(e["type"] == "legal_person" for e in c["representation"])),
        next(i for i, c in world.companies.items() if len(c["names"]) > 1),
        next(i for i, c in world.companies.items() if " " in c["register"]["register_number"]),
    ]
    with served_register(tmp_path / "served", "--data", str(imported), "--rate-limit", "0") as served:
        sdk = served.client()
        for company_id in chosen:
            company = sdk.company.get_details_v1(company_id)
            assert company.id == company_id
            assert company.name.name == world.companies[company_id]["name"]["name"]


@pytest.mark.slow
def test_the_same_file_gives_the_same_bytes(imported: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    done = run_import(str(sample_path()), "--out", str(again))
    assert done.returncode == 0, done.stderr
    assert "CC BY 4.0" in done.stdout
    for name in (*WORLD_FILES, "derived.jsonl.gz", "import-report.json"):
        assert (again / name).read_bytes() == (imported / name).read_bytes(), name


@pytest.mark.parametrize(
    "module",
    ["regkit.schema.person_names", "regkit.local.world.offeneregister.mapping"],
)
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@given(
    first=st.one_of(st.none(), st.text(max_size=12)),
    last=st.one_of(st.none(), st.text(max_size=12)),
    city=st.one_of(st.none(), st.text(max_size=12)),
)
def test_a_person_id_is_the_uuid5_of_name_key_and_folded_town(first, last, city) -> None:
    from regkit.local.world.offeneregister.mapping import PERSON_NAMESPACE, person_id
    from regkit.schema.person_names import name_key as person_name_key
    from regkit.schema.person_names import normalise as fold_town

    key = person_name_key(first, last, None)
    expected = str(uuid.uuid5(PERSON_NAMESPACE, f"{key}|{fold_town(city)}")) if key else None
    assert person_id(first, last, None, city) == expected
