"""The plan of a world: who exists when, where, in which form, in which group, and how each company ends.

Planning comes before any record is written, because records point at each other (mergers, agreements,
shareholders, general partners) and an id depends on the register a company ends up in. It runs in stages,
each drawing from its own generator (:func:`regkit.local.world.seeding.stage_rng`) and each *returning* what it
decides; :func:`plan_companies` hands every stage the decisions of the earlier ones::

    groups → companies → group-links → conversions → mergers → fates → insolvency → registers → numbers

and :func:`regkit.local.world.specs.settle` combines them into one frozen :class:`~.specs.Spec` per company
(the table of which stage decides which field is in :mod:`regkit.local.world.specs`). This module holds the
``companies`` stage: every company as founded.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from .fates import plan_conversions, plan_fates, plan_standalone_mergers
from .groups import GroupPlan, plan_group_links, plan_groups
from .insolvency import Timeline, schedule_company
from .people import random_date
from .reference import Reference
from .registers import number_registrations, plan_seats
from .specs import Fate, Founding, Spec, ending, settle

__all__ = ["FORM_WEIGHTS", "Plan", "found_companies", "plan_companies"]

#: Relative frequency of each legal form among companies outside groups (GmbH most common).
FORM_WEIGHTS = {
    "gmbh": 440,
    "ug": 70,
    "ggmbh": 12,
    "ag": 25,
    "se": 4,
    "kgaa": 2,
    "foreign": 10,
    "kg": 140,
    "ohg": 14,
    "ek": 90,
    "ewiv": 2,
    "municipal": 4,
    "eg": 25,
    "ev": 110,
    "unknown": 22,
    "llp": 3,
}
#: Earliest date a legal form can be registered.
_EARLIEST = {"ug": date(2008, 11, 1), "se": date(2004, 10, 8), "ewiv": date(1989, 7, 1), "llp": date(2001, 1, 1)}
#: Organträger are older than this; a group company is founded at least 30 days after its parent.
_TOP_FOUNDED_BY = date(2005, 1, 1)


@dataclass(frozen=True)
class Plan:
    """The planned world: one spec per company (by index), the groups, and the company proceedings' timelines."""

    specs: list[Spec]
    groups: list[GroupPlan]
    timelines: dict[int, Timeline]


def plan_companies(rngs: Mapping[str, random.Random], reference: Reference, size: int, as_of: date) -> Plan:
    """Plan ``size`` companies, each planning stage drawing from ``rngs[stage]``."""
    groups = plan_groups(rngs["groups"], size)
    founded = found_companies(rngs["companies"], reference, size, as_of, groups)
    links = plan_group_links(rngs["group-links"], founded, groups, as_of)
    conversions = plan_conversions(rngs["conversions"], founded, as_of)
    links.update(plan_standalone_mergers(rngs["mergers"], founded, conversions, as_of))
    fates = plan_fates(rngs["fates"], founded, links, as_of)
    timelines = _schedule(rngs["insolvency"], founded, fates, as_of)
    endings = {
        c.index: ending(links.merged_into.get(c.index), fates.get(c.index), timelines.get(c.index)) for c in founded
    }
    seats = plan_seats(rngs["registers"], reference, founded, endings, as_of)
    registrations = number_registrations(rngs["numbers"], founded, seats)
    specs = [
        settle(
            c,
            conversion=conversions.get(c.index),
            links=links,
            end=endings[c.index],
            registrations=registrations[c.index],
            court_moved=seats[c.index][1],
        )
        for c in founded
    ]
    return Plan(specs, groups, timelines)


def _schedule(
    rng: random.Random, founded: Sequence[Founding], fates: Mapping[int, Fate], as_of: date
) -> dict[int, Timeline]:
    """The ``insolvency`` stage: the timeline of every planned proceeding that fits before ``as_of``."""
    timelines = {}
    for company in founded:
        fate = fates.get(company.index)
        if fate is not None and fate.insolvency is not None:
            timeline = schedule_company(rng, company.incorporated, fate.insolvency, as_of)
            if timeline is not None:
                timelines[company.index] = timeline
    return timelines


def _incorporation(rng: random.Random, legal_form: str, as_of: date) -> date:
    """15 % before 1990, 25 % in 1990–2001, the rest since; a quarter of OHGs registered in 2024 (as GbRs)."""
    if legal_form == "ohg" and rng.random() < 0.25:
        return random_date(rng, date(2024, 1, 2), date(2024, 12, 31))
    roll = rng.random()
    if roll < 0.15:
        start, stop = date(1950, 1, 1), date(1989, 12, 31)
    elif roll < 0.4:
        start, stop = date(1990, 1, 1), date(2001, 12, 31)
    else:
        start, stop = date(2002, 1, 1), as_of - timedelta(days=60)
    start = max(start, _EARLIEST.get(legal_form, start))
    return random_date(rng, start, max(start, stop))


def _found(rng: random.Random, reference: Reference, index: int, legal_form: str, as_of: date) -> Founding:
    """A company as founded: incorporation date, the court of its district, its WZ class and size."""
    incorporated = _incorporation(rng, legal_form, as_of)
    court = reference.current_courts.draw(rng)
    wz = reference.wz_subclasses[rng.randrange(len(reference.wz_subclasses))]
    size_roll = rng.random()
    size = "small" if size_roll < 0.7 else "medium" if size_roll < 0.92 else "large"
    if legal_form in {"ag", "se", "kgaa"}:
        size = "large" if size_roll < 0.5 else "medium"
    return Founding(index=index, legal_form=legal_form, incorporated=incorporated, court=court, wz=wz, size=size)


def found_companies(
    rng: random.Random, reference: Reference, size: int, as_of: date, groups: Sequence[GroupPlan]
) -> list[Founding]:
    """The ``companies`` stage: the group companies (as ``groups`` planned them), then the others."""
    founded: list[Founding] = []
    for group in groups:
        for member in group.members:
            company = _found(rng, reference, member.index, member.legal_form, as_of)
            if member.parent is None:
                company = replace(company, incorporated=min(company.incorporated, _TOP_FOUNDED_BY), size="large")
            else:
                parent, top = founded[member.parent], founded[group.members[0].index]
                company = replace(
                    company,
                    incorporated=max(company.incorporated, parent.incorporated + timedelta(days=30)),
                    court=top.court if member.with_top_court else company.court,
                )
            founded.append(
                replace(
                    company,
                    stem=group.name,
                    group=group.id,
                    parent=member.parent,
                    parent_share=member.parent_share,
                    general_partner=member.general_partner,
                )
            )
    forms, weights = list(FORM_WEIGHTS), list(FORM_WEIGHTS.values())
    while len(founded) < size:
        founded.append(_found(rng, reference, len(founded), rng.choices(forms, weights)[0], as_of))
    return founded
