"""The one rule for beneficial owners (§ 3 GwG), used by ``GET /v1/company/{id}/ubo`` and the Transparenzregister.

A natural person is a beneficial owner of a company when they hold **more than 25 %** of its capital, directly
or through other companies: along each chain of current holdings (person → company → … → the company) the
shares multiply, and a person's chains add up (:func:`effective_shares`). Exactly 25 % is not more than 25 %.
Chains never revisit a company, so ownership cycles end (a cycle's repeated rounds are not counted).

Where a chain runs through a partner's stake in a partnership (relation ``limited_partner`` or
``general_partner``), the share is not fixed — a limited partner's part of the profit and assets follows the
partnership agreement, not only the contribution — so the person's effective share is only the most they could
hold: the answer gives it as ``max_percentage_share`` with ``percentage_share`` null, and the person is a
beneficial owner when that maximum is more than 25 %.

When no natural person qualifies, the legal representatives are the fictitious beneficial owners (§ 3 (2)
sentence 5 GwG): the current directors (of a GmbH & Co. KG without a natural person among its representatives,
the directors of its general partner), with null shares (:func:`fictitious_owners`).

``GET …/ubo`` (:mod:`.ubos`) and the Transparenzregister extract (:mod:`.owners`) apply this same rule; only the companies planted in
``world.json`` → ``transparenzregister.discrepancies`` report otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "THRESHOLD",
    "PARTNER_RELATIONS",
    "Owner",
    "holders_by_company",
    "effective_shares",
    "is_beneficial",
    "beneficial_owners",
    "fictitious_owners",
]

#: A beneficial owner holds more than this fraction (25 %), not this fraction itself.
THRESHOLD = 0.25
#: Holdings through which a share is not fixed (a partner's stake in a partnership).
PARTNER_RELATIONS = frozenset({"limited_partner", "general_partner"})
_EPSILON = 1e-9
_MAX_DEPTH = 12
_MAX_STEPS = 100_000
_REPRESENTATIVE_ROLES = frozenset({"DIRECTOR", "PERSONAL_LIABLE_DIRECTOR", "OWNER", "PARTNER", "LIQUIDATOR"})


@dataclass(frozen=True)
class Owner:
    """A natural person's effective share of a company (a fraction, summed over chains) and how it is held.

    ``fixed`` is false when one of the person's chains runs through a partner's stake: ``share`` is then the
    most the person could hold.
    """

    person_id: str
    name: str
    share: float
    direct: bool
    indirect: bool
    fixed: bool = True

    @property
    def scope(self) -> str:
        """``direct``, ``indirect`` or ``direct_and_indirect``."""
        return "direct_and_indirect" if self.direct and self.indirect else ("direct" if self.direct else "indirect")


def holders_by_company(shareholdings: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Group shareholdings rows by the company held."""
    grouped: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for holding in shareholdings:
        grouped[holding["company_id"]].append(holding)
    return dict(grouped)


def effective_shares(company_id: str, holders: Mapping[str, list[Mapping[str, Any]]]) -> list[Owner]:
    """Every natural person's summed share of ``company_id`` over all ownership chains, largest first.

    ``holders`` maps a company id to the rows of its current holders with a share (``share`` a fraction,
    ``holder_type``, ``holder_id``, ``holder_name``, ``relation_type``).
    """
    totals: dict[str, float] = defaultdict(float)
    names: dict[str, str] = {}
    direct: set[str] = set()
    indirect: set[str] = set()
    unfixed: set[str] = set()
    steps = 0
    stack: list[tuple[str, float, frozenset[str], bool]] = [(company_id, 1.0, frozenset({company_id}), True)]
    while stack and steps < _MAX_STEPS:
        company, factor, path, fixed = stack.pop()
        for holding in holders.get(company, ()):
            steps += 1
            share = factor * float(holding["share"])
            holder = holding["holder_id"]
            chain_fixed = fixed and holding.get("relation_type") not in PARTNER_RELATIONS
            if holder is None or share <= 0:
                continue
            if holding["holder_type"] == "natural_person":
                totals[holder] += share
                names[holder] = holding.get("holder_name") or holder
                (direct if company == company_id else indirect).add(holder)
                if not chain_fixed:
                    unfixed.add(holder)
            elif holder not in path and len(path) < _MAX_DEPTH and share > _EPSILON:
                stack.append((holder, share, path | {holder}, chain_fixed))
    owners = [
        Owner(p, names[p], min(total, 1.0), p in direct, p in indirect, p not in unfixed) for p, total in totals.items()
    ]
    return sorted(owners, key=lambda o: (-o.share, o.name, o.person_id))


def is_beneficial(share: float) -> bool:
    """Whether an effective share (a fraction) makes a beneficial owner: more than 25 %.

    >>> is_beneficial(0.25), is_beneficial(0.2501)
    (False, True)
    """
    return share > THRESHOLD + _EPSILON


def beneficial_owners(company_id: str, holders: Mapping[str, list[Mapping[str, Any]]]) -> list[Owner]:
    """The natural persons holding more than 25 % of ``company_id`` effectively, largest first."""
    return [o for o in effective_shares(company_id, holders) if is_beneficial(o.share)]


def fictitious_owners(company: Mapping[str, Any], companies: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The legal representatives who stand in as beneficial owners: the company's current representatives that
    are natural persons or, with none, the current ones of its legal-person partners (a GmbH & Co. KG's general
    partner's directors). Representation entries, in the record's order."""
    current = [
        r
        for r in company.get("representation", ())
        if r.get("end_date") is None and r.get("role") in _REPRESENTATIVE_ROLES
    ]
    people = [r for r in current if r.get("type") == "natural_person"]
    if people:
        return people
    for partner in current:
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
