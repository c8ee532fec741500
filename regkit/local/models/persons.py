"""Persons: one person with their management positions, their holdings, and the person search, metered.

A person of the world is a natural person with a UUID: a representative, a shareholder or stockholder, or a
consumer debtor; the same person has the same UUID everywhere. A person's ``management_positions`` are exactly
their representation entries that are not ``SHAREHOLDER`` entries, current and past, across all companies.

The person search is answered by a :class:`~regkit.local.search.person_index.PersonIndex` (FTS5 over the folded
names, never a scan of every person): ``persons.sqlite`` of the world store's search indexes. It lists only persons with a published date of birth
(the live result requires one), except in a world whose meta says it has none (``"dates_of_birth": false``,
OffeneRegister): there every person is listed, with ``date_of_birth: null``.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .credits import Charged, spend
from .ownership import holdings_of
from .users import User

if TYPE_CHECKING:
    from ..search.person_request import PersonSearch
    from ..search.person_rows import Person
    from .backend import RegisterContext

__all__ = ["get_person", "get_person_holdings", "person_body", "search_person"]


def _find(context: RegisterContext, person_id: str) -> Person:
    person = context.world_day().person(person_id.lower())
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
    body = person_body(person, dt.datetime.fromtimestamp(context.now(), dt.timezone.utc).date())
    charged = spend(context, user, PRICES["person"])
    return Charged(body, charged.credits, charged.remaining)


def person_body(person: Person, today: dt.date) -> dict[str, Any]:
    """The ``GET /v1/person/{id}`` body of a world person, their ``age`` on ``today``."""
    return {
        "id": person.id,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "city": person.city,
        "date_of_birth": person.date_of_birth,
        "age": _age(person.date_of_birth, today),
        "management_positions": [dict(p) for p in person.positions],
    }


def get_person_holdings(context: RegisterContext, user: User, person_id: str) -> Charged[dict[str, Any]]:
    """What a person holds and held (past holdings with ``end``); 10 credits."""
    person = _find(context, person_id)
    body = {"person_id": person.id, "holdings": holdings_of(context.world_day(), person.id)}
    charged = spend(context, user, PRICES["person_holdings"])
    return Charged(body, charged.credits, charged.remaining)


def search_person(context: RegisterContext, user: User, search: PersonSearch) -> Charged[dict[str, Any]]:
    """One page of persons matching a validated search, by last name, first name, date of birth and id.

    Persons without a date of birth are listed only when the world has none (``meta["dates_of_birth"]`` is
    ``False``).
    """
    without_birth = context.catalog.meta.get("dates_of_birth") is False
    results, total = context.world_day().person_index.search(search, listed_without_birth=without_birth)
    body = {
        "results": results,
        "pagination": {
            "page": search.page,
            "per_page": search.per_page,
            "total_pages": math.ceil(total / search.per_page),
            "total_results": total,
        },
    }
    charged = spend(context, user, PRICES["person_search"])
    return Charged(body, charged.credits, charged.remaining)
