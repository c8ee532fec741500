"""The bundled world's shareholder lists agree with its shareholdings, and its planted Transparenzregister
discrepancies are what ``data/README.md`` says (rules written out here, from the data files)."""

from __future__ import annotations

import gzip
import json
import subprocess
from collections import defaultdict

import pytest

from regkit.local.world import default_data_dir

LIST_FORMS = {"gmbh", "ug", "ggmbh"}


@pytest.fixture(scope="module")
def rows_by_company(world):
    grouped = defaultdict(list)
    for row in world.shareholdings:
        grouped[row["company_id"]].append(row)
    return grouped


def _in_force(rows, day):
    return [r for r in rows if (r["start"] or "") <= day and (r["end"] is None or r["end"] > day)]


def _lists(company):
    return sorted((d for d in company["documents"] if d["type"] == "shareholder_list"), key=lambda d: d["date"])


def test_a_shareholder_list_at_incorporation_and_at_every_change_of_owners(world, rows_by_company):
    checked = 0
    for company in world.companies.values():
        if company["legal_form"] not in LIST_FORMS:
            assert not _lists(company), company["id"]
            continue
        dates = {d["date"] for d in _lists(company)}
        ended = company["terminated_at"]
        changes = {company["incorporated_at"]}
        for row in rows_by_company[company["id"]]:
            changes |= {day for day in (row["start"], row["end"]) if day and (ended is None or day < ended)}
        assert changes <= dates, (company["id"], sorted(changes - dates))
        checked += 1
    assert checked > 2000


def test_each_list_shows_shares_adding_up_to_100_and_the_latest_shows_the_current_owners(world, rows_by_company):
    for company in world.companies.values():
        lists = _lists(company)
        if not lists:
            continue
        rows = rows_by_company[company["id"]]
        for entry in lists:
            assert sum(r["share"] for r in _in_force(rows, entry["date"])) == pytest.approx(1.0), entry
        latest = [d for d in lists if d["latest"]]
        assert latest == [lists[-1]]
        current = {r["holder_id"] for r in rows if r["end"] is None}
        if company["status"] != "inactive":
            assert {r["holder_id"] for r in _in_force(rows, latest[0]["date"])} == current, company["id"]
        else:
            assert not current


def test_no_document_of_the_previous_world_was_lost_or_renamed(world):
    """Against the bundled world as committed before the ``filings`` stage (git history, when available)."""
    data = default_data_dir()
    try:
        old = subprocess.run(
            ["git", "-C", str(data), "show", "c2c8631:data/companies.jsonl.gz"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no git history of data/ here")
    before = [json.loads(line) for line in gzip.decompress(old).splitlines()]
    added = 0
    for company in before:
        now = {d["id"]: d for d in world.companies[company["id"]]["documents"]}
        for document in company["documents"]:
            kept = now.pop(document["id"])
            assert {k: v for k, v in kept.items() if k != "latest"} == {
                k: v for k, v in document.items() if k != "latest"
            }
        assert all(d["type"] == "shareholder_list" for d in now.values())
        added += len(now)
    assert added > 100


def test_the_planted_discrepancies(world, rows_by_company):
    register = world.meta["transparenzregister"]
    plants = register["discrepancies"]
    assert {p["kind"] for p in plants} == {"stale_owner", "missing_owner"}
    assert len({p["company_id"] for p in plants}) == len(plants)
    for plant in plants:
        company = world.companies[plant["company_id"]]
        assert company["status"] != "inactive" and len(register["entities"][company["id"]]) == 1
        mine = [r for r in rows_by_company[company["id"]] if r["holder_id"] == plant["person_id"]]
        assert mine and all(r["holder_type"] == "natural_person" for r in mine)
        if plant["kind"] == "stale_owner":
            assert all(r["end"] is not None for r in mine) and mine[0]["end"] == plant["until"]
            assert mine[0]["share"] * 100 == pytest.approx(plant["percentage"], abs=0.01) and plant["percentage"] > 25
        else:
            big = [r for r in rows_by_company[company["id"]] if r["end"] is None and r["share"] > 0.25]
            assert any(r["holder_id"] == plant["person_id"] for r in big) and len(big) >= 2
