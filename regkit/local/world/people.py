"""Natural persons of the world: names at their real frequencies, birth dates, home towns, UUIDs."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

from .names import titled
from .reference import Reference

__all__ = ["Person", "PersonPool", "iso", "iso_or_none", "new_uuid", "random_date"]


def new_uuid(rng: random.Random) -> str:
    """A version-4 UUID drawn from ``rng`` (deterministic for a seed)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


@cache
def iso(day: date) -> str:
    """``day.isoformat()``, one shared string per date (a 100,000-company world holds millions of them)."""
    return day.isoformat()


def iso_or_none(day: date | None) -> str | None:
    """``day.isoformat()``, or ``None``."""
    return iso(day) if day else None


def random_date(rng: random.Random, start: date, end: date) -> date:
    """A date in ``[start, end]`` (``start`` when the interval is empty)."""
    span = (end - start).days
    return start if span <= 0 else start + timedelta(days=rng.randint(0, span))


#: One person in this many has no published date of birth (:attr:`Person.birth_published`).
UNPUBLISHED_BIRTH_EVERY = 40


@dataclass(frozen=True)
class Person:
    """One natural person (an officer, owner, shareholder or consumer debtor).

    ``title`` is an academic title (``Dr.``, ``Prof. Dr.``; ``""`` for none). The register's person fields
    have no member for it: it stands in front of the first name, as the register prints the name
    (``Dr. Sven Müller``; ``first_name`` ``Dr. Sven``, ``last_name`` ``Müller``).
    """

    id: str
    first_name: str
    last_name: str
    date_of_birth: date
    city: str
    title: str = ""

    @property
    def registered_first_name(self) -> str:
        """The first name with the title in front, as the register's ``first_name`` shows it."""
        return f"{self.title} {self.first_name}" if self.title else self.first_name

    @property
    def full_name(self) -> str:
        return f"{self.registered_first_name} {self.last_name}"

    @property
    def birth_published(self) -> bool:
        """Whether the register gives this person's date of birth: for all but about 1 in 40.

        Decided by the person's id (already drawn), so it draws nothing and shifts no other decision. The
        generator still knows the date (ages of officers), the register just does not show it.
        """
        return int(self.id[:8], 16) % UNPUBLISHED_BIRTH_EVERY != 0

    def details(self) -> dict[str, str | None]:
        """The ``natural_person`` member of a representative entry (a fresh dict each time)."""
        return {
            "city": self.city,
            "first_name": self.registered_first_name,
            "last_name": self.last_name,
            "date_of_birth": iso(self.date_of_birth) if self.birth_published else None,
        }


class PersonPool:
    """Creates persons and hands some out again, so that people serve on several boards."""

    def __init__(self, rng: random.Random, reference: Reference, reuse_rate: float = 0.12):
        self.rng = rng
        self.reference = reference
        self.reuse_rate = reuse_rate
        self.people: list[Person] = []
        self.by_id: dict[str, Person] = {}

    def create(self, city: str | None = None, born_before: date = date(2004, 1, 1)) -> Person:
        """A new person; ``city`` is the home town (default: drawn from officers' home towns)."""
        rng = self.rng
        born = random_date(rng, date(1938, 1, 1), min(born_before, date(2004, 1, 1)))
        person_id = new_uuid(rng)  # drawn first, then the names, then the town
        first, last = self.reference.first_names.draw(rng), self.reference.last_names.draw(rng)
        person = Person(
            id=person_id,
            first_name=first.name,
            last_name=last.name,
            date_of_birth=born,
            city=city if city and rng.random() < 0.7 else self.reference.officer_cities.draw(rng),
            title=titled(first, last)[0],
        )
        self.people.append(person)
        self.by_id[person.id] = person
        return person

    def officer(self, city: str | None, adult_on: date) -> Person:
        """An officer adult (18+) on ``adult_on``: now and then someone who already serves elsewhere."""
        latest_birth = date(adult_on.year - 18, 1, 1)
        if self.people and self.rng.random() < self.reuse_rate:
            candidate = self.people[self.rng.randrange(len(self.people))]
            if candidate.date_of_birth <= latest_birth:
                return candidate
        return self.create(city, born_before=latest_birth)
