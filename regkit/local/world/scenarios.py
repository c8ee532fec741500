"""The scenarios of ``world.json``: one company (or proceeding) for each interesting case, found as records pass.

A build shows :class:`ScenarioFinder` every company record once it is final (in plan order, with whether it
moved to another court's district and its Transparenzregister matches) and every proceeding (company
proceedings in plan order, then those against natural persons); the first that fits a case is its example.
A small world may lack a case; its row is then left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["ScenarioFinder"]

Record = dict[str, Any]
#: A company case: (case, does the company fit (record, moved to another district, EKRNs or None), what).
CompanyCase = tuple[str, Callable[[Record, bool, Any], bool], Callable[[Record], str]]


def _active(company: Record) -> bool:
    return company["status"] == "active"


def _balance_sheet_only(company: Record) -> bool:
    """A small firm's published accounts: balance sheets, no revenue."""
    return bool(company["indicators"]) and all(i["revenue"] is None for i in company["indicators"])


def _general_partner_company(company: Record) -> bool:
    return company["legal_form"] == "kg" and any(
        r["role"] == "PERSONAL_LIABLE_DIRECTOR" and r["type"] == "legal_person" for r in company["representation"]
    )


_GROUP_CASE = "large group's Organträger"
_REALTIME_CASE = "pending register change (realtime only)"
_REGISTER_CASES: tuple[CompanyCase, ...] = (
    (
        "several mergers in one transaction (acquirer)",
        lambda c, _, __: len({a["agreement_date"] for a in c["acquisitions"]}) < len(c["acquisitions"]),
        lambda c: "acquisitions sharing an agreement_date",
    ),
    (
        "merged company (absorbed)",
        lambda c, _, __: c["merged_into"] is not None,
        lambda c: f"merged into {c['merged_into']['company_id']}",
    ),
    (
        "spin-off (transferor)",
        lambda c, _, __: bool(c["asset_spin_offs"]),
        lambda c: f"assets to {c['asset_spin_offs'][0]['company_id']}",
    ),
    (
        "UG → GmbH conversion",
        lambda c, _, __: (
            _active(c) and [n["legal_form"] for n in c["names"]][:2] == ["ug", "gmbh"] and _balance_sheet_only(c)
        ),
        lambda c: "capital raised to 25,000 EUR",
    ),
    (
        "registered GbR → OHG",
        lambda c, _, __: _active(c) and c["names"][0]["legal_form"] == "gbr",
        lambda c: "status change of a registered GbR",
    ),
    (
        "moved to another court's district",
        lambda c, moved, _: moved and _active(c),
        lambda c: "two entries in registers, two addresses",
    ),
    (
        "DEM capital converted to EUR",
        lambda c, _, __: _active(c) and len(c["capitals"]) > 1 and c["capitals"][0]["currency"] == "DEM",
        lambda c: "capital history across 2002",
    ),
    (
        "GmbH & Co. KG",
        lambda c, _, __: _active(c) and _general_partner_company(c),
        lambda c: "a GmbH of the world as general partner",
    ),
    (
        "company in liquidation",
        lambda c, _, __: c["status"] == "liquidation" and any(r["role"] == "LIQUIDATOR" for r in c["representation"]),
        lambda c: "liquidator appointed, name with i.L.",
    ),
)
#: Proceeding cases: (case, does the proceeding fit (record, its company's record or None), subject, what).
_PROCEEDING_CASES: tuple[tuple[str, Callable[[Record, Any], bool], str, Callable[[Record], str]], ...] = (
    (
        "open insolvency (with distress in the accounts)",
        lambda p, c: c is not None and p["current_status"] == "opened" and len(c["indicators"]) >= 3,
        "company_id",
        lambda p: f"{p['case_number']}, {p['court']}",
    ),
    (
        "consumer insolvency with discharge (insolvency id)",
        lambda p, _: p["current_status"] == "discharge_granted",
        "id",
        lambda p: p["debtor_name"],
    ),
)
_TRANSPARENCY_CASES: tuple[CompanyCase, ...] = (
    (
        "no Transparenzregister match",
        lambda c, _, ekrns: _active(c) and not ekrns,
        lambda c: "production extract → 404",
    ),
    (
        "ambiguous Transparenzregister match",
        lambda c, _, ekrns: _active(c) and len(ekrns or ()) > 1,
        lambda c: "production extract → 409",
    ),
    (
        "unique Transparenzregister match",
        lambda c, _, ekrns: _active(c) and len(ekrns or ()) == 1 and c["legal_form"] == "gmbh",
        lambda c: "production extract completes",
    ),
)
_ORDER = (
    _GROUP_CASE,
    *(case for case, _, _ in _REGISTER_CASES),
    *(case for case, _, _, _ in _PROCEEDING_CASES),
    *(case for case, _, _ in _TRANSPARENCY_CASES),
    _REALTIME_CASE,
)


class ScenarioFinder:
    """Keeps the first company or proceeding of each case, as records pass (see the module docstring)."""

    def __init__(self) -> None:
        self.found: dict[str, tuple[str, str]] = {}
        self._companies = [*_REGISTER_CASES, *_TRANSPARENCY_CASES]
        self._proceedings = list(_PROCEEDING_CASES)

    def see_company(self, company: Record, moved: bool, ekrns: Sequence[str] | None) -> None:
        """Look at a final company record; ``moved``: it moved to another court's district; ``ekrns``: its
        Transparenzregister matches (``None`` for none)."""
        for entry in [e for e in self._companies if e[1](company, moved, ekrns)]:
            case, _, describe = entry
            self.found[case] = (company["id"], describe(company))
            self._companies.remove(entry)

    def see_proceeding(self, proceeding: Record, company: Record | None) -> None:
        """Look at a proceeding; ``company`` is its debtor's record (``None`` for a natural person)."""
        for entry in [e for e in self._proceedings if e[1](proceeding, company)]:
            case, _, subject, describe = entry
            self.found[case] = (proceeding[subject], describe(proceeding))
            self._proceedings.remove(entry)

    def rows(self, groups: Sequence[Mapping[str, Any]], realtime: Mapping[str, Any]) -> list[dict[str, str]]:
        """``world.json``'s scenarios, with the largest of ``groups`` (``world.json``'s) and the first of the
        ``realtime`` records (by id)."""
        found = dict(self.found)
        if groups:
            biggest = max(groups, key=lambda g: len(g["members"]))
            what = f"group {biggest['id']} ({biggest['name']}), {len(biggest['members'])} companies"
            found[_GROUP_CASE] = (biggest["organtraeger"], what)
        if realtime:
            found[_REALTIME_CASE] = (min(realtime), "realtime=true shows a newer entry")
        return [
            {"case": case, "company_id": found[case][0], "what": found[case][1]} for case in _ORDER if case in found
        ]
