"""The record stages of a build, company by company: each record is final before the next one is begun.

After the ``names`` stage has given every company its current name (links and representatives show it), each
company in plan order passes through every stage that touches its record: its name history again (from a copy
of the ``names`` generator, so the same histories), ``addresses`` … ``contact`` (:func:`~.record.company_record`),
``holdings`` (its shareholdings, :func:`~.holdings.company_shareholdings`), ``filings`` (a shareholder list
at each change of them, :func:`~.filings.file_shareholder_lists`), ``proceedings`` (its proceeding and
the summary in its record) and ``transparency`` (its matches). Then it goes to a :class:`Sink`, which keeps it
in memory (:func:`~.build.build_world`) or writes it to disk (:func:`~.build.build_world_to`), and only a
:class:`Survey` of what ``world.json`` and the ``realtime`` stage need of all records stays behind.

Each stage still draws from its own generator, in the same order as when the stages ran one after the other
over all records, so a world is the same either way, byte for byte.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from .company import Context, name_history
from .filings import Discrepancies, file_shareholder_lists
from .holdings import company_shareholdings
from .meta import TransparencyMatches
from .people import PersonPool
from .plan import Plan
from .proceedings import Proceedings, summary_of
from .realtime import is_candidate
from .record import company_record
from .reference import Reference
from .scenarios import ScenarioFinder
from .specs import Spec

__all__ = ["Sink", "Survey", "build_records"]


class Sink(Protocol):
    """Where a build puts the records it makes."""

    def add_company(self, record: dict[str, Any]) -> None:
        """Take a final company record (records come in plan order)."""

    def add_shareholdings(self, rows: list[dict[str, Any]]) -> None:
        """Take one company's shareholdings rows, complete."""

    def add_proceeding(self, record: dict[str, Any]) -> None:
        """Take an insolvency proceeding."""

    def record_of(self, position: int) -> dict[str, Any]:
        """The company record taken ``position``-th (a record equal to it)."""


@dataclass
class Survey:
    """What ``world.json`` and the ``realtime`` stage need of all company records, gathered as they pass.

    ``entities``: Transparenzregister matches by company id; ``former_ids``: the company id of each
    superseded register id; ``scenarios``: the examples of each case; ``candidates``: the positions (in plan
    order) of the companies that may get a pending register change; ``discrepancies``: the candidates for a
    planted Transparenzregister discrepancy.
    """

    entities: dict[str, list[str]] = field(default_factory=dict)
    former_ids: dict[str, str] = field(default_factory=dict)
    scenarios: ScenarioFinder = field(default_factory=ScenarioFinder)
    candidates: array = field(default_factory=lambda: array("q"))
    discrepancies: Discrepancies = field(default_factory=Discrepancies)

    def see(self, position: int, spec: Spec, record: dict[str, Any], ekrns: list[str] | None) -> None:
        """Take note of the final record of ``spec`` (the ``position``-th) and its matches ``ekrns``."""
        company_id = record["id"]
        if ekrns:
            self.entities[company_id] = ekrns
        for register in record["registers"][:-1]:
            if register["company_id"] != company_id:
                self.former_ids[register["company_id"]] = company_id
        if is_candidate(record):
            self.candidates.append(position)
        self.scenarios.see_company(record, spec.court_moved, ekrns)


def build_records(
    rngs: Mapping[str, random.Random], reference: Reference, plan: Plan, as_of: date, sink: Sink
) -> Survey:
    """Build every company record of ``plan`` and every proceeding into ``sink``; return the :class:`Survey`."""
    stages = _RecordStages(rngs, reference, plan, as_of, sink)
    for position, spec in enumerate(plan.specs):
        stages.company(position, spec)
    stages.people()
    return stages.survey


class _RecordStages:
    """The record stages' state: the context, the replayed ``names`` generator, proceedings, matches."""

    def __init__(self, rngs: Mapping[str, random.Random], reference: Reference, plan: Plan, as_of: date, sink: Sink):
        pool = PersonPool(rngs["board"], reference)
        self.ctx = Context(rngs=rngs, reference=reference, pool=pool, as_of=as_of, specs=plan.specs)
        self.names = _current_names(self.ctx)
        self.timelines = plan.timelines
        self.holdings = rngs["holdings"]
        self.filings = rngs["filings"]
        self.proceedings = Proceedings(rngs["proceedings"], reference, len(plan.specs))
        self.transparency = TransparencyMatches(rngs["transparency"])
        self.sink = sink
        self.survey = Survey()

    def company(self, position: int, spec: Spec) -> None:
        """Build the record of ``spec`` through every record stage and hand it to the sink."""
        ctx = self.ctx
        record = company_record(ctx, spec, name_history(ctx, spec, self.names))
        rows, ctx.shareholdings = ctx.shareholdings, []
        if rows:
            rows = company_shareholdings(self.holdings, record, rows, ctx.as_of)
            file_shareholder_lists(self.filings, record, rows)
            self.sink.add_shareholdings(rows)
        timeline = self.timelines.get(spec.index)
        proceeding = self.proceedings.of_company(spec, timeline, record) if timeline is not None else None
        if proceeding is not None:
            record["insolvencies"] = [summary_of(proceeding)]
        ekrns = self.transparency.match(record["status"])
        self.survey.see(position, spec, record, ekrns)
        self.survey.discrepancies.see(record, rows, ekrns)
        self.sink.add_company(record)
        if proceeding is not None:
            self.survey.scenarios.see_proceeding(proceeding, record)
            self.sink.add_proceeding(proceeding)

    def people(self) -> None:
        """The proceedings against natural persons (after every company's)."""
        for proceeding in self.proceedings.of_people(self.ctx.as_of):
            self.survey.scenarios.see_proceeding(proceeding, None)
            self.sink.add_proceeding(proceeding)


def _current_names(ctx: Context) -> random.Random:
    """The ``names`` stage's first pass: every company's current name into ``ctx.current_names``.

    Returns a copy of the ``names`` generator as it was before, which draws the same histories again.
    """
    replay = random.Random()
    replay.setstate(ctx.rngs["names"].getstate())
    names = [""] * len(ctx.specs)
    for spec in ctx.specs:
        names[spec.index] = name_history(ctx, spec)[-1]["name"]
    ctx.current_names = names
    return replay
