"""The ``realtime`` stage: register changes after the stored copy's date that only a realtime lookup shows."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from datetime import date, timedelta

from .officers import natural_entry
from .people import PersonPool, random_date
from .reference import Reference

__all__ = ["pending_changes"]


def pending_changes(
    rng: random.Random, reference: Reference, companies: Mapping[str, dict], as_of: date, count: int = 12
) -> dict[str, dict]:
    """Up to ``count`` active GmbHs and AGs (with no insolvency) as a realtime lookup shows them, by id.

    They take turns: a new address, a new director, a doubled capital — each 5–120 days after ``as_of``.
    """
    candidates = [
        c
        for c in companies.values()
        if c["status"] == "active"
        and "insolvencies" not in c
        and c["legal_form"] in {"gmbh", "ag"}
        and c["capital"] is not None
    ]
    step = max(1, len(candidates) // count)
    realtime = {}
    for number, company in enumerate(candidates[::step][:count]):
        changed = copy.deepcopy(company)
        day = random_date(rng, as_of + timedelta(days=5), as_of + timedelta(days=120))
        kind = number % 3
        if kind == 0:
            _move(rng, changed, day)
        elif kind == 1:
            person = PersonPool(rng, reference).create(city=changed["address"]["city"], born_before=date(1998, 1, 1))
            authority = reference.authority["director"].draw(rng)
            changed["representation"].append(natural_entry(person, "DIRECTOR", day, None, authority))
        else:
            capital = dict(changed["capital"], start_date=day.isoformat(), currency="EUR")
            capital["amount"] = float(max(capital["amount"], 25_000.0) * 2)
            changed["capitals"].append(capital)
            changed["capital"] = capital
        realtime[changed["id"]] = changed
    return realtime


def _move(rng: random.Random, company: dict, day: date) -> None:
    """A new street in the same town from ``day`` on."""
    address = dict(company["address"], start_date=day.isoformat(), street=f"Neue Straße {rng.randint(1, 99)}")
    town = f"{address.get('postal_code', '')} {address['city']}".strip()
    address["formatted_value"] = ", ".join(p for p in (address.get("extra"), address["street"], town) if p)
    company["addresses"].append(address)
    company["address"] = address
