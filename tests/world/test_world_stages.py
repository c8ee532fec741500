"""Each stage of the generator draws from its own random generator, seeded from ``(seed, stage)``.

So a change to one stage leaves what the other stages decide as it was: building with another seed for one
stage only (``build_world(stage_seeds=...)``) changes that stage's part of the world and nothing else, and the
same seed twice gives the same bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from regkit.local.world import build_world, write_world
from regkit.local.world.seeding import STAGES, stage_rng
from regkit.local.world.store import WORLD_FILES

SIZE, SEED = 400, 11

#: For a stage seeded differently: the members of company records it decides, and what else may change
#: (``shareholdings``, ``insolvencies``, ``realtime`` — the realtime copies repeat the records —, the
#: Transparenzregister ``entities``, the planted ``discrepancies`` and the ``scenarios`` picked from all of them). Everything else must not.
#: Every stage from "names" on is here; the planning stages before it ("groups" … "numbers") decide the
#: companies themselves (ids, legal forms, dates, links), so everything drawn for a company follows them.
#: A name appears wherever the company is mentioned (links, legal-person representatives, website, holders,
#: debtors); an address also in legal-person representatives, debtors and persons' home towns (which shareholdings
#: repeat).
DECIDES = {
    "names": (
        {
            "name",
            "names",
            "acquisitions",
            "asset_spin_offs",
            "merged_into",
            "profit_transfer_agreement",
            "representation",
            "contact",
            "documents",
        },
        {"shareholdings", "insolvencies", "realtime"},
    ),
    "addresses": ({"address", "addresses", "representation"}, {"shareholdings", "insolvencies", "realtime"}),
    "purposes": ({"purpose", "purposes"}, {"realtime"}),
    "documents": ({"documents"}, {"realtime"}),
    "details": ({"industry_codes", "lei", "notarized_at", "representation_rule"}, {"realtime"}),
    "capitals": ({"capital", "capitals", "documents"}, {"shareholdings", "realtime", "scenarios"}),
    "board": ({"representation", "documents"}, {"shareholdings", "realtime", "discrepancies"}),
    "holdings": ({"representation", "documents"}, {"shareholdings", "realtime", "discrepancies"}),
    "filings": ({"documents"}, {"realtime"}),
    "contact": ({"contact"}, {"realtime"}),
    "accounts": ({"indicators"}, {"realtime", "scenarios"}),
    "proceedings": ({"insolvencies"}, {"insolvencies", "scenarios"}),
    "transparency": (set(), {"entities", "scenarios", "discrepancies"}),
    "realtime": (set(), {"realtime"}),
    "discrepancies": (set(), {"discrepancies"}),
}


@pytest.fixture(scope="module")
def world():
    return build_world(SIZE, SEED)


def _without(record: dict, members: set[str]) -> dict:
    return {key: value for key, value in record.items() if key not in members}


def _parts(world) -> dict[str, object]:
    """The parts of a world a stage may or may not change, by the names used in :data:`DECIDES`."""
    meta = world.meta
    return {
        "shareholdings": world.shareholdings,
        "insolvencies": world.insolvencies,
        "realtime": world.realtime,
        "entities": meta["transparenzregister"]["entities"],
        "discrepancies": meta["transparenzregister"]["discrepancies"],
        "scenarios": meta["scenarios"],
        "groups": meta["groups"],
        "former_ids": meta["former_ids"],
    }


@pytest.mark.slow
@pytest.mark.parametrize("stage", sorted(DECIDES))
def test_reseeding_one_stage_changes_only_what_it_decides(world, stage):
    members, also = DECIDES[stage]
    other = build_world(SIZE, SEED, stage_seeds={stage: SEED + 1})
    assert list(other.companies) == list(world.companies)  # the same companies under the same ids
    for company_id, company in world.companies.items():
        assert _without(other.companies[company_id], members) == _without(company, members), (stage, company_id)
    before, after = _parts(world), _parts(other)
    for name, part in before.items():
        if name not in also:
            assert after[name] == part, f"reseeding {stage!r} changed {name}"
    changed = [
        c for c in world.companies if any(other.companies[c].get(m) != world.companies[c].get(m) for m in members)
    ]
    assert changed or any(after[name] != before[name] for name in also), f"reseeding {stage!r} changed nothing"
    assert other.meta["stage_seeds"] == {stage: SEED + 1} and "stage_seeds" not in world.meta


def test_the_same_seed_twice_gives_the_same_bytes(tmp_path, world):
    first = write_world(world, tmp_path / "first")
    second = write_world(build_world(SIZE, SEED), tmp_path / "second")
    for name in WORLD_FILES:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_a_stage_seed_equal_to_the_seed_changes_nothing(world):
    same = build_world(SIZE, SEED, stage_seeds={"names": SEED})
    assert same.companies == world.companies and same.insolvencies == world.insolvencies


def test_stage_generators_do_not_depend_on_the_process_or_python_version():
    # Seeded from a string (SHA-512), not from hash(): PYTHONHASHSEED changes nothing, and the first draw
    # is pinned (random.Random has seeded strings this way, and Mersenne Twister drawn bits, since Python 3.2).
    code = "from regkit.local.world.seeding import stage_rng; print(stage_rng(20261121, 'names').getrandbits(64))"
    draws = set()
    for hash_seed in ("0", "1", "4242"):
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        draws.add(int(result.stdout))
    assert draws == {stage_rng(20261121, "names").getrandbits(64)} == {8968704062428233264}


def test_every_stage_has_its_own_generator():
    first_draws = {stage_rng(SEED, stage).getrandbits(64) for stage in STAGES}
    assert len(first_draws) == len(STAGES)
    assert stage_rng(SEED, "names").random() != stage_rng(SEED + 1, "names").random()


def test_unknown_stages_are_refused():
    with pytest.raises(ValueError, match="unknown stage"):
        stage_rng(SEED, "nmes")
    with pytest.raises(ValueError, match="unknown stages"):
        build_world(60, SEED, stage_seeds={"nmes": 1})
