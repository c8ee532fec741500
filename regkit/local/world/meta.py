"""The world's non-register facts: API users and plans, Transparenzregister accounts and matches, scenarios."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

__all__ = [
    "PLANS",
    "USERS",
    "TRANSPARENZREGISTER_ACCOUNTS",
    "SANDBOX_EKRN",
    "world_meta",
    "transparency_entities",
    "scenarios",
]

SANDBOX_EKRN = "DE727032388716"
PLANS = {
    "free": {"paid": False, "monitoring": False, "extract_quota_30d": 0},
    "basic": {"paid": True, "monitoring": False, "extract_quota_30d": 5},
    "pro": {"paid": True, "monitoring": True, "extract_quota_30d": 20},
}
USERS = [
    {
        "api_key": "demo-paid",
        "plan": "pro",
        "included_credits": 100_000,
        "period": "billing_cycle",
        "description": "paid plan with monitoring and 100,000 credits",
    },
    {
        "api_key": "demo-free",
        "plan": "free",
        "included_credits": 500,
        "period": "rolling_30_days",
        "description": "free plan with 500 credits: no Transparenzregister, no monitoring",
    },
    {
        "api_key": "demo-empty",
        "plan": "pro",
        "included_credits": 0,
        "period": "billing_cycle",
        "description": "paid plan with monitoring and no credits left: every paid call is a 402",
    },
]
#: Test accounts of the (simulated) Transparenzregister; published here on purpose, they guard nothing.
TRANSPARENZREGISTER_ACCOUNTS = [
    {"username": "tr-demo@regkit.example", "password": "Transparenz-2026!", "state": "valid"},
    {"username": "tr-locked@regkit.example", "password": "Gesperrt-2026!", "state": "locked"},
    {
        "username": "tr-unidentified@regkit.example",
        "password": "Ausweis-fehlt-2026!",
        "state": "identification_incomplete",
    },
    {"username": "tr-new@regkit.example", "password": "Noch-nicht-frei-2026!", "state": "not_unlocked"},
]


def world_meta(seed: int, size: int, as_of: date, generator: str, groups: list[dict], entities: dict) -> dict:
    """The content of ``world.json`` (before scenarios and former ids are added)."""
    return {
        "synthetic": True,
        "notice": "A synthetic world: no real company or person. See data/README.md and data/NOTICE.md.",
        "seed": seed,
        "size": size,
        "generator": generator,
        "as_of": as_of.isoformat(),
        "plans": PLANS,
        "users": USERS,
        "transparenzregister": {
            "sandbox_ekrn": SANDBOX_EKRN,
            "accounts": TRANSPARENZREGISTER_ACCOUNTS,
            "entities": entities,
        },
        "groups": groups,
    }


def transparency_entities(rng: random.Random, companies: dict[str, dict]) -> dict[str, list[str]]:
    """Which companies resolve to one, none or several Transparenzregister entities (by EKRN)."""
    entities: dict[str, list[str]] = {}
    taken: set[str] = set()

    def ekrn() -> str:
        while True:
            value = f"DE{rng.randint(10**11, 10**12 - 1)}"
            if value not in taken and value != SANDBOX_EKRN:
                taken.add(value)
                return value

    for company_id, company in companies.items():
        roll = rng.random()
        if company["status"] == "inactive" and roll < 0.8:
            continue
        if roll < 0.88 or company["status"] == "inactive":
            entities[company_id] = [ekrn()]
        elif roll < 0.95:
            continue
        else:
            entities[company_id] = [ekrn(), ekrn()]
    return entities


def _first(items, predicate):
    return next((item for item in items if predicate(item)), None)


def _balance_sheet_only(company: dict) -> bool:
    """A small firm's published accounts: balance sheets, no revenue."""
    return bool(company["indicators"]) and all(i["revenue"] is None for i in company["indicators"])


def scenarios(specs, companies, insolvencies, entities, realtime, groups) -> list[dict]:
    """One company (or proceeding) for each interesting case, for the scenario table of ``data/README.md``.

    A small world may lack a case; its row is then left out.
    """
    cases = _register_cases(specs, companies, groups) + _world_cases(companies, insolvencies, entities, realtime)
    rows = []
    for case, subject, describe in cases:
        if subject is None:
            continue
        subject_id = subject if isinstance(subject, str) else subject["id"]
        rows.append({"case": case, "company_id": subject_id, "what": describe(subject)})
    return rows


def _register_cases(specs, companies, groups) -> list[tuple]:
    """``(case, company or id, describe)`` for the shapes of register records: groups, links, histories."""
    values = list(companies.values())
    active = [c for c in values if c["status"] == "active"]
    biggest: Any = max(groups, key=lambda g: len(g["members"])) if groups else None
    moved = _first(specs, lambda s: s.court_moved and companies[s.id]["status"] == "active")
    return [
        ("large group's Organträger", specs[biggest["organtraeger"]].id if biggest else None,
         lambda _: f"group {biggest['id']} ({biggest['name']}), {len(biggest['members'])} companies"),
        ("several mergers in one transaction (acquirer)",
         _first(values, lambda c: len({a["agreement_date"] for a in c["acquisitions"]}) < len(c["acquisitions"])),
         lambda c: "acquisitions sharing an agreement_date"),
        ("merged company (absorbed)", _first(values, lambda c: c["merged_into"] is not None),
         lambda c: f"merged into {c['merged_into']['company_id']}"),
        ("spin-off (transferor)", _first(values, lambda c: c["asset_spin_offs"]),
         lambda c: f"assets to {c['asset_spin_offs'][0]['company_id']}"),
        ("UG → GmbH conversion", _first(active, lambda c: [n["legal_form"] for n in c["names"]][:2] == ["ug", "gmbh"]
                                        and _balance_sheet_only(c)), lambda c: "capital raised to 25,000 EUR"),
        ("registered GbR → OHG", _first(active, lambda c: c["names"][0]["legal_form"] == "gbr"),
         lambda c: "status change of a registered GbR"),
        ("moved to another court's district", moved.id if moved else None, lambda c: "two entries in registers, two addresses"),
        ("DEM capital converted to EUR",
         _first(active, lambda c: len(c["capitals"]) > 1 and c["capitals"][0]["currency"] == "DEM"),
         lambda c: "capital history across 2002"),
        ("GmbH & Co. KG", _first(active, lambda c: c["legal_form"] == "kg" and any(
            r["role"] == "PERSONAL_LIABLE_DIRECTOR" and r["type"] == "legal_person" for r in c["representation"])),
         lambda c: "a GmbH of the world as general partner"),
        ("company in liquidation", _first(values, lambda c: c["status"] == "liquidation"
                                          and any(r["role"] == "LIQUIDATOR" for r in c["representation"])),
         lambda c: "liquidator appointed, name with i.L."),
    ]  # fmt: skip


def _world_cases(companies, insolvencies, entities, realtime) -> list[tuple]:
    """``(case, company or id, describe)`` for proceedings, Transparenzregister matches and realtime changes."""
    active = [c for c in companies.values() if c["status"] == "active"]
    opened = _first(insolvencies.values(), lambda p: p["company_id"] and p["current_status"] == "opened"
                    and len(companies[p["company_id"]]["indicators"]) >= 3)  # fmt: skip
    consumer = _first(insolvencies.values(), lambda p: p["current_status"] == "discharge_granted")
    return [
        ("open insolvency (with distress in the accounts)", opened["company_id"] if opened else None,
         lambda _: f"{opened['case_number']}, {opened['court']}"),
        ("consumer insolvency with discharge (insolvency id)", consumer["id"] if consumer else None,
         lambda _: consumer["debtor_name"]),
        ("no Transparenzregister match", _first(active, lambda c: c["id"] not in entities), lambda c: "production extract → 404"),
        ("ambiguous Transparenzregister match", _first(active, lambda c: len(entities.get(c["id"], [])) > 1),
         lambda c: "production extract → 409"),
        ("unique Transparenzregister match",
         _first(active, lambda c: len(entities.get(c["id"], [])) == 1 and c["legal_form"] == "gmbh"),
         lambda c: "production extract completes"),
        ("pending register change (realtime only)", min(realtime) if realtime else None,
         lambda _: "realtime=true shows a newer entry"),
    ]  # fmt: skip
