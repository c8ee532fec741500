"""Who handles a proceeding, and under which number: case numbers in the courts' formats and insolvency
administrators (drawn by the ``proceedings`` stage)."""

from __future__ import annotations

import random
from datetime import date

from .people import PersonPool
from .reference import Reference
from .specs import Court

__all__ = ["Administrators", "CaseNumbers"]

_STREETS = (
    "Hauptstraße",
    "Bahnhofstraße",
    "Schillerstraße",
    "Goethestraße",
    "Lindenstraße",
    "Kirchstraße",
    "Gartenstraße",
    "Parkstraße",
    "Ringstraße",
    "Am Markt",
    "Königstraße",
    "Friedrichstraße",
)


class CaseNumbers:
    """Case numbers as the insolvency courts write them: ``36a IN 1234/24`` (companies), ``IK`` (consumers)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.taken: set[tuple[str, str]] = set()

    def department(self, court: Court) -> str:
        number = sum(ord(ch) * (i + 1) for i, ch in enumerate(court.code)) % 90 + 1
        letter = "" if number % 3 else "abcdn"[number % 5]
        return f"{number}{letter}"

    def allocate(self, court: Court, consumer: bool, filed: date) -> str:
        register = "IK" if consumer else "IN"
        while True:
            case = f"{self.department(court)} {register} {self.rng.randint(1, 2400)}/{filed.year % 100:02d}"
            if (court.code, case) not in self.taken:
                self.taken.add((court.code, case))
                return case


class Administrators:
    """Insolvency administrators: a few dozen lawyers who handle many proceedings each.

    An administrator is named as the announcements name them, with a doctorate in front (``Dr. Renate Scheffler``)
    and without the professional designation (the register's name fields carry none). About three in ten hold a
    doctorate: those the name lists gave one, and others decided by their id (as
    :attr:`~.people.Person.birth_published` is), so that it draws nothing.
    """

    def __init__(self, rng: random.Random, pool: PersonPool, size: int, reference: Reference):
        self.rng = rng
        self.offices = {}
        self.names: dict[str, str] = {}
        self.people = []
        for _ in range(size):
            court = reference.current_courts.draw(rng)
            places = reference.court_places[court.code]
            place = places[0]  # law firms sit in the court towns
            person = pool.create(city=place.city)
            self.people.append(person)
            self.offices[person.id] = f"{rng.choice(_STREETS)} {rng.randint(1, 120)}, {place.postal_code} {place.city}"
            doctorate = not person.title and int(person.id[9:13], 16) % 10 < 3
            self.names[person.id] = f"Dr. {person.full_name}" if doctorate else person.full_name

    def draw(self) -> tuple[str, str]:
        """The administrator of the next proceeding: (name, office address)."""
        person = self.people[int(self.rng.random() ** 2 * len(self.people))]
        self.rng.random()  # a title was drawn here per proceeding; still drawn, so later proceedings stay as they were
        return self.names[person.id], self.offices[person.id]
