"""The Transparenzregister report of a company, built from its beneficial owners.

Who is reported follows the one rule of :mod:`.beneficial_owners` (more than 25 % effective, § 3 GwG; with
nobody above it, the legal representatives as fictional beneficial owners, § 3 (2) sentence 5 GwG), so an
extract agrees with ``GET …/ubo`` — except for the companies the world plants to differ
(``world.json`` → ``transparenzregister.discrepancies``, :func:`build_report`'s ``discrepancy``): a
``stale_owner`` who handed their stake on is still reported, a ``missing_owner`` is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .beneficial_owners import beneficial_owners, fictitious_owners

__all__ = ["build_report", "sandbox_report"]

_FICTIONAL_REASON = (
    "No natural person holds more than 25 %, directly or indirectly; the legal representatives are "
    "reported as fictional beneficial owners (§ 3 (2) sentence 5 GwG)."
)
_REGISTER_START = "2017-10-01"
_SANDBOX_CORRECTED_BY = "TR-2021-0004711"


def _person(name: str, details: Mapping[str, Any]) -> dict[str, Any]:
    first, last = details.get("first_name"), details.get("last_name")
    if not (first and last) and name:
        first, _, last = name.rpartition(" ")
    return {
        "title": None,
        "first_name": first or None,
        "last_name": last or None,
        "full_name": name or " ".join(p for p in (first, last) if p) or None,
        "date_of_birth": details.get("date_of_birth"),
        "city": details.get("city"),
        "country": "DE",
        "nationalities": ["DE"],
    }


def _status_flags(corrected_by: str | None = None) -> dict[str, Any]:
    """A notice's status flags: ``corrected_by_reference`` is the reference of the notice that corrected it."""
    return {
        "corrected_by_reference": corrected_by,
        "corrected_references": [],
        "deleted": False,
        "deletion_date": None,
        "discrepancy_note": None,
    }


def _frame(
    created_at: str,
    valid_from: str,
    notice_type: str,
    reason: str | None,
    groups: list[dict[str, Any]],
    ubos: list[dict[str, Any]],
    status_flags: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "created_at": created_at,
        "notice_type": notice_type,
        "fictional_ubo_reason": reason,
        "status_flags": status_flags or _status_flags(),
        "validity": {"from": {"date": valid_from, "note": None}, "until": {"date": None, "note": None}},
        "groups": groups,
        "ubos": ubos,
    }


def build_report(
    company: Mapping[str, Any],
    companies: Mapping[str, Mapping[str, Any]],
    holders: Mapping[str, list[Mapping[str, Any]]],
    persons: Mapping[str, Mapping[str, Any]],
    created_at: str,
    discrepancy: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``report`` of a completed extract for ``company``.

    ``discrepancy`` is the company's planted difference from ``world.json`` (``kind`` ``stale_owner`` or
    ``missing_owner``, ``person_id``, ``name``, ``percentage``), or ``None``: the report then lists exactly the
    beneficial owners of the rule.
    """
    valid_from = max(company.get("incorporated_at") or _REGISTER_START, _REGISTER_START)
    found = [(o.person_id, o.name, o.scope, round(o.share * 100, 2)) for o in beneficial_owners(company["id"], holders)]
    if discrepancy is not None and discrepancy["kind"] == "missing_owner":
        found = [f for f in found if f[0] != discrepancy["person_id"]]
    elif discrepancy is not None and discrepancy["kind"] == "stale_owner":
        found.append((discrepancy["person_id"], discrepancy["name"], "direct", float(discrepancy["percentage"])))
        found.sort(key=lambda f: (-f[3], f[1], f[0]))
    if found:
        ubos = [
            {
                "position": i,
                "natural_person": _person(name, persons.get(person_id, {})),
                "interest": {"type": "ownership", "scope": scope, "percentage": percentage},
            }
            for i, (person_id, name, scope, percentage) in enumerate(found, start=1)
        ]
        group = {
            "position": 1,
            "description": "Beneficial owners by capital or voting rights (more than 25 %)",
            "interest_type": "ownership",
        }
        return _frame(created_at, valid_from, "beneficial_owners", None, [group], ubos)
    ubos = [
        {
            "position": i,
            "natural_person": _person(r["name"], r.get("natural_person") or persons.get(r.get("id") or "", {})),
            "interest": {"type": "fictional", "scope": "legal_representative", "percentage": None},
        }
        for i, r in enumerate(fictitious_owners(company, companies), start=1)
    ]
    group = {
        "position": 1,
        "description": "Fictional beneficial owners (legal representatives)",
        "interest_type": "fictional",
    }
    return _frame(created_at, valid_from, "fictional_beneficial_owners", _FICTIONAL_REASON, [group], ubos)


def sandbox_report(created_at: str) -> dict[str, Any]:
    """The fixed report of the sandbox's test EKRN.

    Its notice was corrected by a later one (``corrected_by_reference`` set), so that a client's test run sees
    that member as the string it is; production reports show current notices (null).
    """
    person = {
        "title": "Dr.",
        "first_name": "Erika",
        "last_name": "Mustermann",
        "full_name": "Dr. Erika Mustermann",
        "date_of_birth": "1964-08-12",
        "city": "Berlin",
        "country": "DE",
        "nationalities": ["DE"],
    }
    group = {
        "position": 1,
        "description": "Beneficial owners by capital or voting rights (more than 25 %)",
        "interest_type": "ownership",
    }
    ubo = {
        "position": 1,
        "natural_person": person,
        "interest": {"type": "ownership", "scope": "direct", "percentage": 100.0},
    }
    return _frame(
        created_at,
        _REGISTER_START,
        "beneficial_owners",
        None,
        [group],
        [ubo],
        _status_flags(corrected_by=_SANDBOX_CORRECTED_BY),
    )
