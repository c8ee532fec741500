"""The ``realtime`` stage: register changes after the stored copy's date that only a realtime lookup shows."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import Any

from .officers import natural_entry
from .people import PersonPool, random_date
from .reference import Reference

__all__ = ["PENDING", "is_candidate", "chosen", "pending_changes"]

#: How many companies have register changes after the stored copy's date.
PENDING = 12


def is_candidate(company: Mapping[str, Any]) -> bool:
    """Whether a (final) record may get a pending change: an active GmbH or AG with capital and no insolvency."""
    return (
        company["status"] == "active"
        and "insolvencies" not in company
        and company["legal_form"] in {"gmbh", "ag"}
        and company["capital"] is not None
    )


def chosen(candidates: int, count: int = PENDING) -> range:
    """The positions, among ``candidates`` candidates in plan order, of the companies that get a change:
    ``count`` of them, evenly spread."""
    return range(0, candidates, max(1, candidates // count))[:count]


def pending_changes(
    rng: random.Random, reference: Reference, companies: Iterable[Mapping[str, Any]], as_of: date
) -> dict[str, dict]:
    """The :func:`chosen` candidates ``companies`` (records, in plan order) as a realtime lookup shows them, by id.

    They take turns: a new address, a new director, a doubled capital — each 5–120 days after ``as_of``.
    The records themselves are left as they are.
    """
    realtime = {}
    for number, company in enumerate(companies):
        changed = copy.deepcopy(dict(company))
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
