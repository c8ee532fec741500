"""The ``registers`` and ``numbers`` stages: which courts keep a company's register, and its numbers there."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import date, timedelta

from .people import random_date
from .reference import Reference
from .specs import REGISTER_TYPE, Court, Ending, Founding, Registration

__all__ = ["CONCENTRATION", "SUFFIX_COURTS", "Seats", "plan_seats", "number_registrations"]

#: Courts whose register numbers carry a suffix (``HRB 270764 B``).
SUFFIX_COURTS = {"F1103": "B", "X1517": "KI", "X1721": "HL", "X1112": "FL", "X1321": "PI"}
#: Registers at small courts were concentrated at one court per district from this date on.
CONCENTRATION = date(2007, 1, 1)

#: A company's register courts with the date each took over, oldest first, and whether the last change
#: was a move to another court's district (not a transfer to the concentrated court).
Seats = tuple[tuple[tuple[Court, date], ...], bool]


def plan_seats(
    rng: random.Random, reference: Reference, founded: Sequence[Founding], endings: Mapping[int, Ending], as_of: date
) -> dict[int, Seats]:
    """The ``registers`` stage: register transfers (before 2009) and moves to another court's district.

    A company founded before 2007 in a state that had small register courts may (25 %) have been registered
    at one of them and transferred to the concentrated court in 2007–2008; 6 % of companies living long
    enough move to another court's district later.
    """
    seats: dict[int, Seats] = {}
    for company in founded:
        end = endings[company.index].terminated
        courts = [(company.court, company.incorporated)]
        former = reference.former_courts_by_state.get(company.court.state)
        alive_in_2009 = end is None or end > date(2009, 1, 1)
        if former and company.incorporated < CONCENTRATION and alive_in_2009 and rng.random() < 0.25:
            old = former[rng.randrange(len(former))]
            courts = [(old, company.incorporated), (company.court, random_date(rng, CONCENTRATION, date(2008, 12, 31)))]
        moved = False
        last_court, since = courts[-1]
        stop = end or as_of
        if rng.random() < 0.06 and (stop - since).days > 800:
            target = reference.current_courts.draw(rng)
            if target.code != last_court.code:
                courts.append((target, random_date(rng, since + timedelta(days=400), stop - timedelta(days=200))))
                moved = True
        seats[company.index] = (tuple(courts), moved)
    return seats


def number_registrations(
    rng: random.Random, founded: Sequence[Founding], seats: Mapping[int, Seats]
) -> dict[int, tuple[Registration, ...]]:
    """The ``numbers`` stage: register numbers, unique per court and register, larger for later entries."""
    taken: set[tuple[str, str, str]] = set()
    registrations: dict[int, tuple[Registration, ...]] = {}
    for company in founded:
        register_type = REGISTER_TYPE[company.legal_form]
        entries = []
        for court, start in seats[company.index][0]:
            ceiling = 2_000 + max(0, start.year - 1950) * (3_000 if register_type == "HRB" else 800)
            suffix = SUFFIX_COURTS.get(court.code, "")
            while True:
                number = str(rng.randint(max(1, ceiling // 3), ceiling))
                if suffix:
                    number = f"{number} {suffix}"
                key = (court.code, register_type, number)
                if key not in taken:
                    taken.add(key)
                    break
            entries.append(Registration(court, register_type, start, number))
        registrations[company.index] = tuple(entries)
    return registrations
