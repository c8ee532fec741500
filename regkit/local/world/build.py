"""Building a whole world deterministically from a seed and a size, in memory or straight to disk.

A build runs the stages of :data:`regkit.local.world.seeding.STAGES` in order, each with its own random
generator derived from ``(seed, stage)`` (:func:`~regkit.local.world.seeding.stage_rng`):

* planning (:mod:`.plan`): ``groups`` … ``numbers`` decide every company's :class:`~.specs.Spec`;
* records (:mod:`.pipeline`): ``names`` for every company first (links show the other company's name), then
  company by company ``addresses``, ``capitals``, ``board``, ``purposes``, ``accounts``, ``documents``,
  ``details``, ``contact``, ``holdings`` (share transfers, dates and nominal shares of its shareholdings) and
  ``filings`` (a shareholder list at each change of them),
  its proceeding (``proceedings``) and its Transparenzregister matches (``transparency``); then the
  proceedings against natural persons;
* ``realtime``: register changes after the stored copy's date for a few of the records;
* ``discrepancies``: the companies whose Transparenzregister extract is planted to differ from the ownership
  chains (``world.json`` → ``transparenzregister.discrepancies``, :mod:`.filings`).

A stage sees only what earlier stages decided, never their generators: changing what one stage draws
changes that stage and what is built from its decisions, and leaves everything else as it was.
:func:`build_world` keeps the world in memory; :func:`build_world_to` writes each record as soon as it is
final and keeps only what later stages need of it (the same files, byte for byte, with far less memory).
"""

from __future__ import annotations

import gc
import os
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from .meta import world_meta
from .pipeline import Sink, Survey, build_records
from .plan import Plan, plan_companies
from .realtime import chosen, pending_changes
from .reference import load_reference
from .seeding import STAGES, stage_rng
from .spool import WorldWriter, WrittenWorld
from .store import World, default_reference_dir

__all__ = ["AS_OF", "DEFAULT_SEED", "DEFAULT_SIZE", "GENERATOR", "build_world", "build_world_to", "stage_rngs"]

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
    """Build a world of ``size`` companies from ``seed``, in memory.

    The same ``size`` and ``seed`` always give the same world (and, written with
    :func:`~regkit.local.world.store.write_world`, the same bytes). ``stage_seeds`` seeds single stages
    differently (``{"capitals": 7}``): the other stages draw what they draw with ``seed``. A large world
    needs much memory this way (about 2 GB for 100,000 companies): :func:`build_world_to` writes one
    to disk as it is built.
    """
    rngs = _checked(size, seed, stage_seeds)
    collected = _Collected()
    with _without_cyclic_gc():
        meta, realtime = _build(size, seed, rngs, reference_dir, collected, stage_seeds)
    return World(
        meta=meta,
        companies=collected.companies,
        realtime=realtime,
        insolvencies=collected.insolvencies,
        shareholdings=collected.shareholdings,
    )


def build_world_to(
    out: str | os.PathLike[str],
    size: int = DEFAULT_SIZE,
    seed: int = DEFAULT_SEED,
    reference_dir: Path | None = None,
    *,
    stage_seeds: Mapping[str, int] | None = None,
) -> WrittenWorld:
    """Build a world of ``size`` companies from ``seed`` and write it to the directory ``out``.

    The files are those ``write_world(build_world(size, seed, ...), out)`` writes, byte for byte, but
    each record is written as soon as it is final (:class:`~regkit.local.world.spool.WorldWriter`), so
    memory holds the plan and a few facts per company rather than the world: a 100,000-company world
    builds in well under 1 GB. ``out`` is created if missing; the files take their names only once all of
    them are written. Returns the directory, ``world.json``'s content and the number of records.
    """
    rngs = _checked(size, seed, stage_seeds)
    with WorldWriter(out) as writer, _without_cyclic_gc():
        meta, realtime = _build(size, seed, rngs, reference_dir, writer, stage_seeds)
        return writer.finish(meta, realtime)


def _checked(size: int, seed: int, stage_seeds: Mapping[str, int] | None) -> dict[str, random.Random]:
    if size < 50:
        raise ValueError(
            f"a world needs at least 50 companies to hold every shape the interface can express; got {size}"
        )
    return stage_rngs(seed, stage_seeds)


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    # Millions of long-lived objects and no reference cycles: the cyclic collector would only rescan them
    # again and again (a 100,000-company build spent half its time there).
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@dataclass
class _Collected:
    """A :class:`~.pipeline.Sink` that keeps everything in memory (for :func:`build_world`)."""

    companies: dict[str, dict[str, Any]] = field(default_factory=dict)
    insolvencies: dict[str, dict[str, Any]] = field(default_factory=dict)
    shareholdings: list[dict[str, Any]] = field(default_factory=list)
    in_order: list[dict[str, Any]] = field(default_factory=list)

    def add_company(self, record: dict[str, Any]) -> None:
        self.companies[record["id"]] = record
        self.in_order.append(record)

    def add_shareholdings(self, rows: list[dict[str, Any]]) -> None:
        self.shareholdings += rows

    def add_proceeding(self, record: dict[str, Any]) -> None:
        self.insolvencies[record["id"]] = record

    def record_of(self, position: int) -> dict[str, Any]:
        return self.in_order[position]


def _build(
    size: int,
    seed: int,
    rngs: Mapping[str, random.Random],
    reference_dir: Path | None,
    sink: Sink,
    stage_seeds: Mapping[str, int] | None,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Build the world into ``sink``; return ``world.json``'s content and the realtime records."""
    reference = load_reference(reference_dir or default_reference_dir())
    plan = plan_companies(rngs, reference, size, AS_OF)
    survey = build_records(rngs, reference, plan, AS_OF, sink)
    candidates = [sink.record_of(survey.candidates[p]) for p in chosen(len(survey.candidates))]
    realtime = pending_changes(rngs["realtime"], reference, candidates, AS_OF)
    meta = _meta(seed, size, plan, survey, realtime)
    meta["transparenzregister"]["discrepancies"] = survey.discrepancies.choose(rngs["discrepancies"])
    if stage_seeds:
        meta["stage_seeds"] = dict(sorted(stage_seeds.items()))
    return meta, realtime


def _meta(seed: int, size: int, plan: Plan, survey: Survey, realtime: dict) -> dict:
    """``world.json``: the build's parameters, groups (by company id), former ids and scenarios."""
    specs = plan.specs
    groups: list[dict[str, Any]] = [
        {
            "id": g.id,
            "name": g.name,
            "organtraeger": specs[g.indices[0]].id,
            "members": [specs[i].id for i in g.indices],
        }
        for g in plan.groups
    ]
    meta = world_meta(seed, size, AS_OF, GENERATOR, groups=groups, entities=survey.entities)
    meta["former_ids"] = survey.former_ids
    meta["scenarios"] = survey.scenarios.rows(groups, realtime)
    return meta
