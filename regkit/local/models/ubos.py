"""Beneficial owners, metered: ``GET /v1/company/{company_id}/ubo`` answered by the one rule of
:mod:`.beneficial_owners` from the world's current shareholdings.

Shares are in percent (5.36 means 5.36 %), rounded to four places. A share held through a partner's stake is
not fixed: ``percentage_share`` null, ``max_percentage_share`` the most the person could hold. With nobody above
25 %, the fictitious beneficial owners (legal representatives, each once) with both shares null; a deleted
company has no representatives any more, so its list is empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from .beneficial_owners import beneficial_owners, fictitious_owners
from .companies import find_company
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["ubos", "get_ubos"]


def _natural_person(name: str, details: Mapping[str, Any]) -> dict[str, Any]:
    first, last = details.get("first_name"), details.get("last_name")
    if not (first and last):
        first, _, last = name.rpartition(" ")
    return {
        "first_name": first,
        "last_name": last,
        "full_name": name,
        "city": details.get("city") or "",
        "country": "DE",
        "date_of_birth": details.get("date_of_birth"),
    }


def _percent(share: float) -> float:
    return round(share * 100, 4)


def ubos(context: RegisterContext, company: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``ubos`` of ``company`` as ``GET …/ubo`` answers them (see the module)."""
    owners = beneficial_owners(company["id"], context.world_day().holders)
    persons = context.catalog.persons
    if owners:
        return [
            {
                "id": o.person_id,
                "name": o.name,
                "natural_person": _natural_person(o.name, persons.get(o.person_id, {})),
                "legal_person": None,
                "percentage_share": _percent(o.share) if o.fixed else None,
                "max_percentage_share": None if o.fixed else _percent(o.share),
            }
            for o in owners
        ]
    seen: set[str] = set()
    answer = []
    for entry in fictitious_owners(company, context.world_day().companies):
        key = entry.get("id") or entry["name"]
        if key in seen:
            continue
        seen.add(key)
        details = entry.get("natural_person") or persons.get(entry.get("id") or "", {})
        answer.append(
            {
                "id": entry.get("id"),
                "name": entry["name"],
                "natural_person": _natural_person(entry["name"], details),
                "legal_person": None,
                "percentage_share": None,
                "max_percentage_share": None,
            }
        )
    return answer


def get_ubos(context: RegisterContext, user: User, company_id: str) -> Charged[dict[str, Any]]:
    """The beneficial owners of a well-formed company id by the rule of this module; 10 credits.

    Raises
    ------
    ApiError
        404 ``company_not_found`` (nothing charged).
    """
    company = find_company(context, company_id)
    body = {"company_id": company["id"], "ubos": ubos(context, company)}
    charged = spend(context, user, PRICES["ubos"])
    return Charged(body, charged.credits, charged.remaining)
