"""The plan of a world: who exists when, where, in which form, in which group, and how each company ends.

Planning comes before any record is written, because records point at each other (mergers, agreements,
shareholders, general partners) and an id depends on the register a company ends up in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from .people import Person, random_date
from .reference import Court, Reference

__all__ = ["Link", "Registration", "Spec", "REGISTER_TYPE", "plan_companies"]

#: The register each legal form is kept in.
REGISTER_TYPE = {
    "gmbh": "HRB", "ug": "HRB", "ggmbh": "HRB", "ag": "HRB", "se": "HRB", "kgaa": "HRB", "foreign": "HRB",
    "kg": "HRA", "ohg": "HRA", "ek": "HRA", "ewiv": "HRA", "municipal": "HRA", "gbr": "HRA",
    "eg": "GnR", "ev": "VR", "unknown": "PR", "llp": "PR",
}
#: Relative frequency of each legal form among newly planned companies (GmbH most common).
_FORM_WEIGHTS = {
    "gmbh": 440, "ug": 70, "ggmbh": 12, "ag": 25, "se": 4, "kgaa": 2, "foreign": 10, "kg": 140, "ohg": 14,
    "ek": 90, "ewiv": 2, "municipal": 4, "eg": 25, "ev": 110, "unknown": 22, "llp": 3,
}
#: Earliest date a legal form can be registered.
_EARLIEST = {"ug": date(2008, 11, 1), "se": date(2004, 10, 8), "ewiv": date(1989, 7, 1), "llp": date(2001, 1, 1)}
_SUFFIX_COURTS = {"F1103": "B", "X1517": "KI", "X1721": "HL", "X1112": "FL", "X1321": "PI"}


@dataclass
class Registration:
    """One register entry: court, register type, number, from when."""

    court: Court
    register_type: str
    start: date
    number: str = ""

    @property
    def company_id(self) -> str:
        return f"DE-{self.register_type}-{self.court.code}-{self.number.replace(' ', '')}"


@dataclass
class Link:
    """A merger, spin-off or profit-transfer link to another planned company."""

    other: int
    registration_date: date
    agreement_date: date | None


@dataclass
class Spec:
    """Everything decided about one company before its record is written."""

    index: int
    legal_form: str
    incorporated: date
    registrations: list[Registration]
    wz: tuple[str, str]
    stem: str
    size: str
    origin_form: str | None = None
    conversion_date: date | None = None
    terminated: date | None = None
    status: str = "active"
    liquidation_start: date | None = None
    group: str | None = None
    parent: int | None = None
    parent_share: float = 1.0
    profit_transfer: Link | None = None
    merged_into: Link | None = None
    acquisitions: list[Link] = field(default_factory=list)
    spin_offs: list[Link] = field(default_factory=list)
    general_partner: int | None = None
    insolvency: str | None = None  # planned final status of a proceeding against the company
    insolvency_filed: date | None = None
    shared_directors: list[Person] = field(default_factory=list)
    court_moved: bool = False

    @property
    def id(self) -> str:
        return self.registrations[-1].company_id

    @property
    def end(self) -> date | None:
        return self.terminated


def _incorporation(rng: random.Random, legal_form: str, as_of: date) -> date:
    roll = rng.random()
    if roll < 0.15:
        start, stop = date(1950, 1, 1), date(1989, 12, 31)
    elif roll < 0.4:
        start, stop = date(1990, 1, 1), date(2001, 12, 31)
    else:
        start, stop = date(2002, 1, 1), as_of - timedelta(days=60)
    start = max(start, _EARLIEST.get(legal_form, start))
    return random_date(rng, start, max(start, stop))


def _new_spec(rng: random.Random, reference: Reference, index: int, legal_form: str, as_of: date,
              stem: str | None = None) -> Spec:
    incorporated = _incorporation(rng, legal_form, as_of)
    court = reference.current_courts.draw(rng)
    code, title = reference.wz_subclasses[rng.randrange(len(reference.wz_subclasses))]
    size_roll = rng.random()
    size = "small" if size_roll < 0.7 else "medium" if size_roll < 0.92 else "large"
    if legal_form in {"ag", "se", "kgaa"}:
        size = "large" if size_roll < 0.5 else "medium"
    spec = Spec(
        index=index,
        legal_form=legal_form,
        incorporated=incorporated,
        registrations=[Registration(court, REGISTER_TYPE[legal_form], incorporated)],
        wz=(code, title),
        stem=stem or "",
        size=size,
    )
    return spec


def plan_companies(rng: random.Random, reference: Reference, size: int, as_of: date):
    """Plan ``size`` companies.

    Returns the specs, the group descriptions for ``world.json`` and, by company index, the timeline
    of each company's insolvency proceeding (which fixes the company's status and end first).
    """
    from . import planning_links  # the group, merger and fate rules live in their own module
    from .insolvency import schedule_company

    forms = list(_FORM_WEIGHTS)
    weights = [_FORM_WEIGHTS[f] for f in forms]
    specs: list[Spec] = []
    groups = planning_links.plan_groups(rng, reference, size, as_of, specs, _new_spec)
    while len(specs) < size:
        legal_form = rng.choices(forms, weights)[0]
        specs.append(_new_spec(rng, reference, len(specs), legal_form, as_of))
    planning_links.plan_conversions(rng, specs, as_of)
    planning_links.plan_standalone_mergers(rng, specs, as_of)
    planning_links.plan_fates(rng, specs, as_of)
    timelines = {spec.index: schedule_company(rng, spec, as_of) for spec in specs if spec.insolvency}
    _plan_register_changes(rng, reference, specs, as_of)
    _number_registrations(rng, specs)
    return specs, groups, {index: timeline for index, timeline in timelines.items() if timeline}


def _plan_register_changes(rng: random.Random, reference: Reference, specs: list[Spec], as_of: date) -> None:
    """Moves to another court's district, and old registers transferred to the concentrated courts."""
    concentration = date(2007, 1, 1)
    for spec in specs:
        first = spec.registrations[0]
        former = reference.former_courts_by_state.get(first.court.state)
        alive_in_2009 = spec.end is None or spec.end > date(2009, 1, 1)
        if former and spec.incorporated < concentration and alive_in_2009 and rng.random() < 0.25:
            old = former[rng.randrange(len(former))]
            transfer = random_date(rng, concentration, date(2008, 12, 31))
            spec.registrations = [
                Registration(old, first.register_type, spec.incorporated),
                Registration(first.court, first.register_type, transfer),
            ]
        end = spec.end or as_of
        if rng.random() < 0.06 and (end - spec.registrations[-1].start).days > 800:
            target = reference.current_courts.draw(rng)
            if target.code != spec.registrations[-1].court.code:
                moved = random_date(rng, spec.registrations[-1].start + timedelta(days=400), end - timedelta(days=200))
                spec.registrations.append(Registration(target, spec.registrations[-1].register_type, moved))
                spec.court_moved = True


def _number_registrations(rng: random.Random, specs: list[Spec]) -> None:
    """Register numbers: unique per court and register, larger for later registrations."""
    taken: set[tuple[str, str, str]] = set()
    for spec in specs:
        for registration in spec.registrations:
            year = registration.start.year
            ceiling = 2_000 + max(0, year - 1950) * (3_000 if registration.register_type == "HRB" else 800)
            suffix = _SUFFIX_COURTS.get(registration.court.code, "")
            while True:
                number = str(rng.randint(max(1, ceiling // 3), ceiling))
                if suffix:
                    number = f"{number} {suffix}"
                key = (registration.court.code, registration.register_type, number)
                if key not in taken:
                    taken.add(key)
                    registration.number = number
                    break
