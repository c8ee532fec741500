"""Building a whole world deterministically from a seed and a size.

A build runs the stages of :data:`regkit.local.world.seeding.STAGES` in order, each with its own random
generator derived from ``(seed, stage)`` (:func:`~regkit.local.world.seeding.stage_rng`):

* planning (:mod:`.plan`): ``groups`` … ``numbers`` decide every company's :class:`~.specs.Spec`;
* records: ``names`` for every company first (links show the other company's name), then per company
  ``addresses``, ``capitals``, ``board``, ``purposes``, ``accounts``, ``documents``, ``details``, ``contact``;
* ``holdings`` over all records (share transfers, dates and nominal shares of the shareholdings);
* the world around them: ``proceedings``, ``transparency``, ``realtime``.

A stage sees only what earlier stages decided, never their generators: changing what one stage draws
changes that stage and what is built from its decisions, and leaves everything else as it was.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from .company import Context, name_history
from .holdings import complete_shareholdings
from .meta import scenarios, transparency_entities, world_meta
from .people import PersonPool
from .plan import Plan, plan_companies
from .proceedings import plan_proceedings, summary_of
from .realtime import pending_changes
from .record import company_record
from .reference import load_reference
from .seeding import STAGES, stage_rng
from .store import World, default_reference_dir

__all__ = ["AS_OF", "DEFAULT_SEED", "DEFAULT_SIZE", "GENERATOR", "build_world", "stage_rngs"]

#: The date the world's stored copy was taken; realtime lookups show changes after it.
AS_OF = date(2026, 6, 30)
DEFAULT_SEED = 20261121
DEFAULT_SIZE = 5000
GENERATOR = "regkit-world/2"


def stage_rngs(seed: int, stage_seeds: Mapping[str, int] | None = None) -> dict[str, random.Random]:
    """One generator per stage, from ``seed`` — or, for a stage in ``stage_seeds``, from the seed given there."""
    overrides = dict(stage_seeds or {})
    unknown = set(overrides) - set(STAGES)
    if unknown:
        raise ValueError(f"unknown stages {sorted(unknown)}; the stages are {', '.join(STAGES)}")
    return {stage: stage_rng(overrides.get(stage, seed), stage) for stage in STAGES}


def build_world(
    size: int = DEFAULT_SIZE,
    seed: int = DEFAULT_SEED,
    reference_dir: Path | None = None,
    *,
    stage_seeds: Mapping[str, int] | None = None,
) -> World:
    """Build a world of ``size`` companies from ``seed``.

    The same ``size`` and ``seed`` always give the same world (and, written with
    :func:`~regkit.local.world.store.write_world`, the same bytes). ``stage_seeds`` seeds single stages
    differently (``{"capitals": 7}``): the other stages draw what they draw with ``seed``.
    """
    if size < 50:
        raise ValueError(
            f"a world needs at least 50 companies to hold every shape the interface can express; got {size}"
        )
    rngs = stage_rngs(seed, stage_seeds)
    # Millions of long-lived dicts and no reference cycles: the cyclic collector would only rescan them
    # again and again (a 100,000-company build spent half its time there).
    collecting = gc.isenabled()
    gc.disable()
    try:
        world = _build(size, seed, rngs, reference_dir)
    finally:
        if collecting:
            gc.enable()
    if stage_seeds:
        world.meta["stage_seeds"] = dict(sorted(stage_seeds.items()))
    return world


def _build(size: int, seed: int, rngs: Mapping[str, random.Random], reference_dir: Path | None) -> World:
    reference = load_reference(reference_dir or default_reference_dir())
    plan = plan_companies(rngs, reference, size, AS_OF)
    ctx = Context(
        rngs=rngs, reference=reference, pool=PersonPool(rngs["board"], reference), as_of=AS_OF, specs=plan.specs
    )
    for spec in plan.specs:
        ctx.names[spec.index] = name_history(ctx, spec)
    companies = {}
    for spec in plan.specs:
        record = company_record(ctx, spec)
        companies[record["id"]] = record
    shareholdings = complete_shareholdings(rngs["holdings"], companies, ctx.shareholdings, AS_OF)
    insolvencies = plan_proceedings(rngs["proceedings"], reference, plan.specs, plan.timelines, companies, AS_OF)
    for proceeding in insolvencies.values():
        if proceeding["company_id"]:
            companies[proceeding["company_id"]].setdefault("insolvencies", []).append(summary_of(proceeding))
    entities = transparency_entities(rngs["transparency"], companies)
    realtime = pending_changes(rngs["realtime"], reference, companies, AS_OF)
    meta = _meta(seed, size, plan, companies, insolvencies, entities, realtime)
    return World(
        meta=meta, companies=companies, realtime=realtime, insolvencies=insolvencies, shareholdings=shareholdings
    )


def _meta(
    seed: int, size: int, plan: Plan, companies: dict, insolvencies: dict, entities: dict, realtime: dict
) -> dict:
    """``world.json``: the build's parameters, groups (by company id), former ids and scenarios."""
    specs = plan.specs
    groups: list[dict[str, Any]] = [
        {"id": g.id, "name": g.name, "organtraeger": g.indices[0], "members": g.indices} for g in plan.groups
    ]
    meta = world_meta(
        seed,
        size,
        AS_OF,
        GENERATOR,
        groups=[
            {
                "id": g["id"],
                "name": g["name"],
                "organtraeger": specs[g["organtraeger"]].id,
                "members": [specs[i].id for i in g["members"]],
            }
            for g in groups
        ],
        entities=entities,
    )
    meta["former_ids"] = {
        r["company_id"]: c["id"] for c in companies.values() for r in c["registers"][:-1] if r["company_id"] != c["id"]
    }
    meta["scenarios"] = scenarios(specs, companies, insolvencies, entities, realtime, groups)
    return meta
