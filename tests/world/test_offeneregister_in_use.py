"""The imported OffeneRegister sample in use, as a researcher uses it: the client searches and looks up real
companies and persons, the frames and the group graph are built from them, the explorers load them — the same code
paths as on the bundled world.  Expected values come from the source records (read here with ``json``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from offeneregister_support import sample_path, sample_records

from regkit import graph
from regkit.client import Client, parse_company_id
from regkit.frames.identity import name_key
from regkit.local import open_local_register
from regkit.local.world.offeneregister import import_offeneregister, sample_file


def _id(record: dict[str, Any]) -> str:
    attributes = record["all_attributes"]
    suffix = attributes.get("_registerNummerSuffix", "")
    court = attributes["registrar"]
    if attributes.get("former_registrar"):  # a register another court took over: the number is the former court's
        court += f" früher {attributes['former_registrar']}"
    return parse_company_id(f"{court} {attributes['_registerArt']} {attributes['_registerNummer']} {suffix}".strip())


def _key(officer: dict[str, Any]) -> str:
    attributes = officer.get("other_attributes", {})
    return name_key(attributes.get("firstname"), attributes.get("lastname"), officer["name"])


@pytest.fixture(scope="module")
def source() -> dict[str, dict[str, Any]]:
    return {_id(record): record for record in sample_records()}


@pytest.fixture(scope="module")
def world_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return import_offeneregister(sample_path(), tmp_path_factory.mktemp("real") / "world").directory


@pytest.fixture(scope="module")
def client(world_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    scratch = tmp_path_factory.mktemp("real-client")
    register = open_local_register(data_dir=world_dir, state_path=scratch / "state.sqlite")
    made = Client(cache=scratch / "cache.sqlite", adapter=register.adapter)
    yield made
    made.close()
    register.close()


def test_the_shipped_sample_is_the_one_the_tests_read() -> None:
    assert sample_file() == sample_path()


@pytest.mark.slow
def test_a_company_found_by_name_is_the_source_record(client: Any, source: dict[str, dict[str, Any]]) -> None:
    wanted = next(r for r in source.values() if r["name"].startswith("Tegometall Ladenbau"))
    found = client.search_companies("Tegometall Ladenbau").to_dataframe()
    assert found["company_id"].iloc[0] == _id(wanted) and found["name"].iloc[0] == wanted["name"]
    record = client.get_company(_id(wanted))
    assert record["register"]["register_number"] == wanted["all_attributes"]["_registerNummer"]
    assert record["status"] == ("active" if wanted["current_status"] == "currently registered" else "inactive")
    officers = wanted.get("officers", [])
    reps = record.representatives()
    assert len(reps) == len(officers)  # every officer row, repeated ones included
    assert sorted(reps["name"]) == sorted(o["name"] for o in officers)
    published = Counter(o["start_date"] for o in officers if o.get("start_date"))
    served = Counter(reps["start_date"].dropna().dt.strftime("%Y-%m-%d"))
    assert published - served == Counter()  # every published start date (a missing one is derived, see world.json)


def test_former_names_are_searchable_and_in_the_history(client: Any, source: dict[str, dict[str, Any]]) -> None:
    wanted = next(
        r
        for company_id, r in sorted(source.items())
        if r.get("previous_names") and r["current_status"] == "currently registered"
    )
    former = wanted["previous_names"][0]["company_name"]
    found = client.search_all_companies(former, progress=False).to_dataframe()
    assert _id(wanted) in set(found["company_id"])
    names = client.get_company(_id(wanted)).history("names")
    assert former in set(names["name"]) and wanted["name"] in set(names["name"])


def test_a_person_has_every_position_the_source_gives_them(client: Any, source: dict[str, dict[str, Any]]) -> None:
    """The person with the most companies in the sample: every (company, role, start) of theirs in the source is
    a position of the one person the register serves, found by a person search on their name."""
    held: dict[tuple[str, str], set[str]] = defaultdict(set)
    for company_id, record in source.items():
        for officer in record.get("officers", ()):
            attributes = officer.get("other_attributes", {})
            if officer.get("type") == "person" and attributes.get("lastname"):
                held[(_key(officer), attributes.get("city", ""))].add(company_id)
    (key, city), companies = max(held.items(), key=lambda item: (len(item[1]), item[0]))
    assert len(companies) >= 10  # a name at many companies (the sample was cut to hold one)
    some_company = sorted(companies)[0]
    officer = next(
        o
        for o in source[some_company]["officers"]
        if o.get("type") == "person" and _key(o) == key and o["other_attributes"].get("city", "") == city
    )
    found = client.search_persons(officer["name"]).to_dataframe()
    match = found[(found["city"] == city) & (found["name"] == officer["name"])]
    assert len(match) == 1 and match["date_of_birth"].isna().all()  # the source has no dates of birth
    person = client.get_person(match["id"].iloc[0]).to_dataframe()
    assert set(person["company_id"]) == companies


def test_the_graph_shows_shared_directors_across_real_companies(client: Any, source: dict[str, dict[str, Any]]) -> None:
    town = client.search_all_companies(filters={"city": "Konstanz"}, progress=False).to_dataframe()
    records = client.get_companies(list(town["company_id"]), progress=False)
    G = graph.from_companies(records)
    # people at two or more of these companies, from the source: (name key, city) → companies
    by_person: dict[tuple[str, str], set[str]] = defaultdict(set)
    for company_id in town["company_id"]:
        for officer in source[company_id].get("officers", ()):
            if officer.get("type") == "person":
                by_person[(_key(officer), officer["other_attributes"].get("city", ""))].add(company_id)
    shared = {key for key, companies in by_person.items() if len(companies) >= 2}
    people = [n for n, kind in G.nodes(data="kind") if kind == "natural_person" and len(set(G.successors(n))) >= 2]
    assert len(people) == len(shared) > 0
    interlocked = graph.interlocks(G)
    assert set(interlocked["person"]) <= set(people)


def test_the_company_explorer_loads_a_real_company(client: Any, source: dict[str, dict[str, Any]]) -> None:
    from regkit.widgets import CompanyExplorer

    wanted = next(r for r in source.values() if r["name"].startswith("Tegometall Ladenbau"))
    explorer = CompanyExplorer(client, _id(wanted))
    explorer.load_button.click()
    assert explorer.record is not None and explorer.record["id"] == _id(wanted)
    assert wanted["name"] in explorer.panes["summary"].value
    footer = explorer.credits.value  # the data's licence and attribution under every explorer on real data
    assert "Data: Contains data from OffeneRegister.de" in footer and "CC BY 4.0" in footer


def test_before_a_derived_incorporation_date_existence_is_unknown(client: Any) -> None:
    """The import's incorporation date is the earliest date a record holds (an officer who left that day was in
    office before): before it, ``as_of`` cannot tell, and says so; the officers keep their derived marks."""
    from regkit.frames import as_of

    record = client.get_company("DE-GnR-B8534-250078")
    assert "incorporated_at" in record.derived
    born = record["incorporated_at"]
    assert as_of(record, born).existed is True
    assert as_of(record, "2000-01-01").existed is None
    assert as_of(record.raw, "2000-01-01").existed is False  # a plain dict carries no marks: the date is taken as given
    then = as_of(record, born).representatives
    assert then["start_date_derived"].any()  # the officers in office that day whose start the import derived
    everyone = record.representatives()
    for row in then.itertuples():
        same = everyone[(everyone["name"] == row.name) & (everyone["role"] == row.role)]
        assert row.start_date_derived in set(same["start_date_derived"])


def test_the_timeline_of_a_removed_company_ends_where_its_record_ends(client: Any) -> None:
    """A removed record that dates no end: its status bar ends the day after its newest date, not open."""
    from regkit.frames.status import removed_after
    from regkit.plot.history_bars import timeline_bars

    record = client.get_company("DE-GnR-B8534-100001")
    newest = removed_after(record.raw)
    assert newest is not None
    status = timeline_bars(record, until="2024-01-01").query("lane == 'status'")
    assert len(status) >= 1 and not status["open"].any()
    assert status["end"].max() == pd.Timestamp(newest) + pd.Timedelta(days=1)
