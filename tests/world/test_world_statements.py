"""The ``statements`` stage: annual reports derived on demand, deterministic, seeded apart from every other stage.

The whole-world rules (every row sums, the record's indicators are the rows, …) are tested over the bundled world
through the register in ``tests/local/test_local_financials.py``; here: what the stage's seeding promises.
"""

from __future__ import annotations

import json

import pytest

from regkit.local.world import build_world
from regkit.local.world.statements import company_financials, consolidating_groups

SIZE, SEED = 150, 11


@pytest.fixture(scope="module")
def world():
    return build_world(SIZE, SEED)


def filers(world) -> list[dict]:
    return [record for record in world.companies.values() if record.get("indicators")]


def test_the_same_record_and_seed_give_the_same_reports_byte_for_byte(world):
    for record in filers(world)[:40]:
        first = json.dumps(company_financials(record, SEED), sort_keys=True)
        assert json.dumps(company_financials(json.loads(json.dumps(record)), SEED), sort_keys=True) == first


def test_reseeding_the_stage_draws_other_lines_around_the_same_indicators(world):
    members = ("balance_sheet_total", "equity", "cash", "revenue", "net_income", "liabilities")
    changed = 0
    for record in filers(world)[:40]:
        mine, other = company_financials(record, SEED), company_financials(record, SEED + 1)
        assert [r["report_id"] for r in mine["reports"]] == [r["report_id"] for r in other["reports"]]
        for a, b in zip(mine["indicators"], other["indicators"]):
            assert {m: a[m] for m in members} == {m: b[m] for m in members}
        changed += mine["reports"] != other["reports"]
    assert changed


def test_reseeding_the_stage_changes_nothing_the_world_stores(world):
    other = build_world(SIZE, SEED, stage_seeds={"statements": SEED + 1})
    assert other.companies == world.companies and other.shareholdings == world.shareholdings
    assert other.meta["stage_seeds"] == {"statements": SEED + 1}


def test_a_company_without_indicators_has_no_reports(world):
    record = next(r for r in world.companies.values() if not r.get("indicators"))
    assert company_financials(record, SEED) == {"indicators": [], "reports": [], "merged": None}


def test_consolidating_groups_are_some_of_the_groups_and_stable(world):
    groups = world.meta["groups"]
    chosen = consolidating_groups(groups, SEED)
    assert chosen == consolidating_groups(groups, SEED)
    assert set(chosen) <= {g["organtraeger"] for g in groups}
    assert all(1.2 <= factor <= 3.0 for _, factor in chosen.values())
