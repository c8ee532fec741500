"""Persons: one person with their management positions, their holdings, and the person search, metered.

A person of the world is a natural person with a UUID: a representative, a shareholder or stockholder, or a
consumer debtor; the same person has the same UUID everywhere. A person's ``management_positions`` are exactly
their representation entries that are not ``SHAREHOLDER`` entries, current and past, across all companies.
The person search lists only persons with a published date of birth (the live result requires one).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .credits import Charged, spend
from .ownership import holdings_of
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext
    from .people_index import Person
    from .person_search import PersonSearch

__all__ = ["get_person", "get_person_holdings", "search_person"]


def _find(context: RegisterContext, person_id: str) -> Person:
    person = context.catalog.people.get(person_id.lower())
    if person is None:
        raise ApiError("person_not_found", f"No person has the id {person_id}.")
    return person


def _age(born: str | None, today: dt.date) -> int | None:
    if not born:
        return None
    birth = dt.date.fromisoformat(born)
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


def get_person(context: RegisterContext, user: User, person_id: str) -> Charged[dict[str, Any]]:
    """One person (a well-formed UUID, any case) with all their management positions, oldest first; 10 credits.

    ``age`` is on the register's current date (its clock).
    """
    person = _find(context, person_id)
    today = dt.datetime.fromtimestamp(context.now(), dt.timezone.utc).date()
    body = {
        "id": person.id,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "city": person.city,
        "date_of_birth": person.date_of_birth,
        "age": _age(person.date_of_birth, today),
        "management_positions": [dict(p) for p in person.positions],
    }
    charged = spend(context, user, PRICES["person"])
    return Charged(body, charged.credits, charged.remaining)


def get_person_holdings(context: RegisterContext, user: User, person_id: str) -> Charged[dict[str, Any]]:
    """What a person holds and held (past holdings with ``end``); 10 credits."""
    person = _find(context, person_id)
    body = {"person_id": person.id, "holdings": holdings_of(context, person.id)}
    charged = spend(context, user, PRICES["person_holdings"])
    return Charged(body, charged.credits, charged.remaining)


def _matches(person: Person, search: PersonSearch) -> bool:
    if person.date_of_birth is None:
        return False
    words = search.terms
    for i, word in enumerate(words):
        last = i == len(words) - 1
        if not any(t == word or (last and t.startswith(word)) for t in person.terms):
            return False
    return all(check(person) for check in search.checks)


def search_person(context: RegisterContext, user: User, search: PersonSearch) -> Charged[dict[str, Any]]:
    """One page of persons matching a validated search, by last name, first name, date of birth and id."""
    found: Iterable[Person] = (p for p in context.catalog.people_sorted if _matches(p, search))
    matches = list(found)
    first = (search.page - 1) * search.per_page
    page = matches[first : first + search.per_page]
    body = {
        "results": [
            {"id": p.id, "name": p.name, "city": p.city, "date_of_birth": p.date_of_birth, "active": p.active}
            for p in page
        ],
        "pagination": {
            "page": search.page,
            "per_page": search.per_page,
            "total_pages": math.ceil(len(matches) / search.per_page),
            "total_results": len(matches),
        },
    }
    charged = spend(context, user, PRICES["person_search"])
    return Charged(body, charged.credits, charged.remaining)
