"""Beneficial owners from the world's shareholdings, and the Transparenzregister report built from them.

A natural person is a beneficial owner when it holds 25 % or more of the company, directly or through
other companies; shares multiply along a chain and add up over all chains. Chains never revisit a company,
so ownership cycles terminate (a cycle's repeated rounds are not counted). When nobody reaches 25 %, the
legal representatives are reported as fictional beneficial owners (§ 3 (2) sentence 5 GwG).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Owner", "beneficial_owners", "build_report", "sandbox_report", "THRESHOLD"]

THRESHOLD = 0.25
_MAX_DEPTH = 12
_MAX_STEPS = 100_000
_REPRESENTATIVE_ROLES = frozenset({"DIRECTOR", "PERSONAL_LIABLE_DIRECTOR", "OWNER", "PARTNER", "LIQUIDATOR"})
_FICTIONAL_REASON = (
    "No natural person holds 25 % or more, directly or indirectly; the legal representatives are "
    "reported as fictional beneficial owners (§ 3 (2) sentence 5 GwG)."
)
_REGISTER_START = "2017-10-01"
_SANDBOX_CORRECTED_BY = "TR-2021-0004711"


@dataclass(frozen=True)
class Owner:
    """A natural person's effective share of a company and how it is held."""

    person_id: str
    name: str
    share: float
    direct: bool
    indirect: bool

    @property
    def scope(self) -> str:
        """``direct``, ``indirect`` or ``direct_and_indirect``."""
        return "direct_and_indirect" if self.direct and self.indirect else ("direct" if self.direct else "indirect")


def holders_by_company(shareholdings: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Group shareholdings by the company held."""
    grouped: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for holding in shareholdings:
        grouped[holding["company_id"]].append(holding)
    return dict(grouped)


def effective_shares(company_id: str, holders: Mapping[str, list[Mapping[str, Any]]]) -> list[Owner]:
    """Every natural person's summed share of ``company_id`` over all ownership chains, largest first."""
    totals: dict[str, float] = defaultdict(float)
    names: dict[str, str] = {}
    direct: set[str] = set()
    indirect: set[str] = set()
    steps = 0
    stack: list[tuple[str, float, frozenset[str]]] = [(company_id, 1.0, frozenset({company_id}))]
    while stack and steps < _MAX_STEPS:
        company, factor, path = stack.pop()
        for holding in holders.get(company, ()):
            steps += 1
            share = factor * float(holding["share"])
            holder = holding["holder_id"]
            if holding["holder_type"] == "natural_person":
                totals[holder] += share
                names[holder] = holding.get("holder_name") or holder
                (direct if company == company_id else indirect).add(holder)
            elif holder not in path and len(path) < _MAX_DEPTH and share > 1e-9:
                stack.append((holder, share, path | {holder}))
    owners = [Owner(p, names[p], min(total, 1.0), p in direct, p in indirect) for p, total in totals.items()]
    return sorted(owners, key=lambda o: (-o.share, o.name, o.person_id))


def beneficial_owners(company_id: str, holders: Mapping[str, list[Mapping[str, Any]]]) -> list[Owner]:
    """The persons holding 25 % or more of ``company_id``."""
    return [o for o in effective_shares(company_id, holders) if o.share >= THRESHOLD - 1e-9]


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


def _representatives(company: Mapping[str, Any], companies: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    current = [
        r
        for r in company.get("representation", ())
        if r.get("end_date") is None and r.get("role") in _REPRESENTATIVE_ROLES
    ]
    people = [r for r in current if r.get("type") == "natural_person"]
    if people:
        return people
    for partner in current:  # e.g. a GmbH & Co. KG: the general partner's directors
        parent = companies.get(partner.get("id") or "")
        if parent is not None:
            people += [
                r
                for r in parent.get("representation", ())
                if r.get("end_date") is None
                and r.get("role") in _REPRESENTATIVE_ROLES
                and r.get("type") == "natural_person"
            ]
    return people


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
) -> dict[str, Any]:
    """The ``report`` of a completed extract for ``company``."""
    valid_from = max(company.get("incorporated_at") or _REGISTER_START, _REGISTER_START)
    owners = beneficial_owners(company["id"], holders)
    if owners:
        ubos = [
            {
                "position": i,
                "natural_person": _person(o.name, persons.get(o.person_id, {})),
                "interest": {"type": "ownership", "scope": o.scope, "percentage": round(o.share * 100, 2)},
            }
            for i, o in enumerate(owners, start=1)
        ]
        group = {
            "position": 1,
            "description": "Beneficial owners by capital or voting rights (25 % or more)",
            "interest_type": "ownership",
        }
        return _frame(created_at, valid_from, "beneficial_owners", None, [group], ubos)
    ubos = [
        {
            "position": i,
            "natural_person": _person(r["name"], r.get("natural_person") or persons.get(r.get("id") or "", {})),
            "interest": {"type": "fictional", "scope": "legal_representative", "percentage": None},
        }
        for i, r in enumerate(_representatives(company, companies), start=1)
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
        "description": "Beneficial owners by capital or voting rights (25 % or more)",
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
