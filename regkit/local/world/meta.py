"""The world's non-register facts: API users and plans, Transparenzregister accounts and matches."""

from __future__ import annotations

import random
from datetime import date

__all__ = [
    "PLANS",
    "USERS",
    "TRANSPARENZREGISTER_ACCOUNTS",
    "SANDBOX_EKRN",
    "TransparencyMatches",
    "world_meta",
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


class TransparencyMatches:
    """The ``transparency`` stage, company by company in plan order: whether a company resolves to one, no
    or several Transparenzregister entities (by EKRN; no EKRN is drawn twice)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.taken: set[int] = set()

    def match(self, status: str) -> list[str] | None:
        """The EKRNs of the next company (of ``status``), or ``None`` when it has no match."""
        roll = self.rng.random()
        if status == "inactive" and roll < 0.8:
            return None
        if roll < 0.88 or status == "inactive":
            return [self._ekrn()]
        if roll < 0.95:
            return None
        return [self._ekrn(), self._ekrn()]

    def _ekrn(self) -> str:
        while True:
            number = self.rng.randint(10**11, 10**12 - 1)
            value = f"DE{number}"
            if number not in self.taken and value != SANDBOX_EKRN:
                self.taken.add(number)
                return value
