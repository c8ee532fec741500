"""The ``holdings`` stage: who holds what share of which company, over time, as owners and holdings show it.

The ``board`` stage decides the shareholders and their fractions (``shareholdings`` rows with ``share``) and
writes their ``SHAREHOLDER`` entries; this stage completes a company's rows once its record exists:

* **transfers**: now and then (``TRANSFER_RATE`` of the founders' stakes in active GmbHs and UGs
  without a corporate shareholder) a founder hands their whole stake to a director who held none: the
  founder's entry and row end on that date, a new ``SHAREHOLDER`` entry and row start on it (past holdings with an end date; the stake keeps its size);
* **dates**: each row's ``start`` and ``end`` are its ``SHAREHOLDER`` entry's dates; the stockholders of an
  AG, SE or KGaA (not in the register) have no known start and end with the company;
* **relation types**: ``shareholder`` (GmbH, UG, gGmbH), ``stockholder`` (AG, SE, KGaA), ``limited_partner``
  (a KG's ``SHAREHOLDER`` entries), ``general_partner`` (an OHG's ``SHAREHOLDER`` entries, and a KG's
  ``PERSONAL_LIABLE_DIRECTOR`` entries, which get rows of their own with share 0: the general partner of a
  GmbH & Co. KG holds no capital);
* **nominal shares**: the fraction of the company's current capital in EUR (DEM converted at the fixed
  rate); a partnership has no registered capital, so this stage draws its partners' total contributions.

The stage draws only from its own generator, and only for what it decides (transfers and partnerships'
contributions).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from regkit.schema.interface import DEM_PER_EUR

from .people import random_date

__all__ = ["TRANSFER_RATE", "RELATION_BY_FORM", "company_shareholdings", "shareholder_entry"]

#: Share of founders' stakes (natural persons; active GmbHs and UGs without a corporate shareholder) handed on.
TRANSFER_RATE = 0.12

#: How the holders of a company's ``SHAREHOLDER`` entries (or, for stock corporations, of the world's
#: rows) are related to it, by legal form.
RELATION_BY_FORM: Mapping[str, str] = {
    "gmbh": "shareholder",
    "ug": "shareholder",
    "ggmbh": "shareholder",
    "ag": "stockholder",
    "se": "stockholder",
    "kgaa": "stockholder",
    "kg": "limited_partner",
    "ohg": "general_partner",
}

_CONTRIBUTIONS = (5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 250_000, 500_000)
_MANAGERS = frozenset({"DIRECTOR", "OWNER", "PARTNER", "PERSONAL_LIABLE_DIRECTOR"})


def company_shareholdings(
    rng: random.Random, company: dict[str, Any], held: list[dict[str, Any]], as_of: date
) -> list[dict[str, Any]]:
    """The complete rows of one company's holders ``held`` (the ``board`` stage's rows of ``company``): see the
    module docstring.

    ``company`` is the record; its ``representation`` gains the new entries of transfers (kept in the
    ``board`` stage's order: start date, role, name). The rows come out in the order of ``held``, the
    general partners after the other holders, a transfer's new row after the row it ends. A build calls
    this company by company in plan order (each company with rows), so the stage's draws follow that order.
    """
    capital = _capital_eur(company) or _contributions(rng, company)
    relation = RELATION_BY_FORM.get(company["legal_form"], "shareholder")
    entries = {e["id"]: e for e in company["representation"] if e["role"] == "SHAREHOLDER" and e["id"]}
    rows: list[dict[str, Any]] = []
    for row in held:
        entry = entries.get(row["holder_id"])
        start = entry["start_date"] if entry else None
        end = entry["end_date"] if entry else company.get("terminated_at")
        out = _row(row, relation, row["share"], capital, start, end)
        rows.append(out)
        taker = _transfer_to(rng, company, row, entry, entries, as_of) if entry else None
        if taker is not None:
            taken_on, director = taker
            entry["end_date"] = out["end"] = taken_on  # type: ignore[index]
            new_entry = shareholder_entry(director, taken_on)
            company["representation"].append(new_entry)
            company["representation"].sort(key=lambda e: (e["start_date"], e["role"], e["name"]))
            entries[new_entry["id"]] = new_entry
            holder = {
                "company_id": company["id"],
                "holder_id": director["id"],
                "holder_type": "natural_person",
                "holder_name": director["name"],
                "holder_details": dict(director["natural_person"]),
            }
            rows.append(_row(holder, relation, row["share"], capital, taken_on, None))
    if company["legal_form"] == "kg":
        rows += _general_partners(company)
    return rows


def shareholder_entry(director: Mapping[str, Any], since: str) -> dict[str, Any]:
    """A ``SHAREHOLDER`` entry for the person of ``director`` (a representation entry) from ``since``."""
    return {
        "id": director["id"],
        "name": director["name"],
        "type": "natural_person",
        "role": "SHAREHOLDER",
        "start_date": since,
        "end_date": None,
        "authority": None,
        "natural_person": dict(director["natural_person"]),
    }


def _row(
    row: Mapping[str, Any], relation: str, share: float, capital: float, start: str | None, end: str | None
) -> dict[str, Any]:
    return {
        "company_id": row["company_id"],
        "holder_id": row["holder_id"],
        "holder_type": row["holder_type"],
        "holder_name": row["holder_name"],
        **({"holder_details": row["holder_details"]} if "holder_details" in row else {}),
        "relation_type": relation,
        "share": share,
        "nominal_share": round(share * capital, 2),
        "start": start,
        "end": end,
    }


def _general_partners(company: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A KG's general partners (its ``PERSONAL_LIABLE_DIRECTOR`` entries): rows with share 0 (``holder_id``
    null where the register gives the partner no id)."""
    return [
        {
            "company_id": company["id"],
            "holder_id": e["id"],
            "holder_type": e["type"],
            "holder_name": e["name"],
            **({"holder_details": dict(e["natural_person"])} if e["type"] == "natural_person" else {}),
            "relation_type": "general_partner",
            "share": 0.0,
            "nominal_share": 0.0,
            "start": e["start_date"],
            "end": e["end_date"],
        }
        for e in company["representation"]
        if e["role"] == "PERSONAL_LIABLE_DIRECTOR"
    ]


def _capital_eur(company: Mapping[str, Any]) -> float | None:
    """The current registered capital in EUR (DEM at the fixed rate), or ``None`` without one."""
    capital = company.get("capital")
    if not capital or not capital.get("amount"):
        return None
    amount = float(capital["amount"])
    return amount / float(DEM_PER_EUR) if capital.get("currency") == "DEM" else amount


def _contributions(rng: random.Random, company: Mapping[str, Any]) -> float:
    """The partners' total contributions of a partnership (drawn; the register shows none)."""
    return float(rng.choice(_CONTRIBUTIONS))


def _transfer_to(
    rng: random.Random,
    company: Mapping[str, Any],
    row: Mapping[str, Any],
    entry: Mapping[str, Any],
    entries: Mapping[str, Mapping[str, Any]],
    as_of: date,
) -> tuple[str, Mapping[str, Any]] | None:
    """``(date, director's entry)`` when a founder's stake passes to a director who holds none, else None."""
    if (
        row["holder_type"] != "natural_person"
        or company["status"] != "active"
        or entry["end_date"] is not None
        or company["legal_form"] not in {"gmbh", "ug"}
        or any(e["type"] == "legal_person" and e["role"] == "SHAREHOLDER" for e in company["representation"])
        or rng.random() >= TRANSFER_RATE
    ):
        return None
    earliest = date.fromisoformat(entry["start_date"]) + timedelta(days=2 * 365)
    latest = as_of - timedelta(days=30)
    candidates = [
        e
        for e in company["representation"]
        if e["role"] in _MANAGERS
        and e["type"] == "natural_person"
        and e["id"]
        and e["id"] not in entries
        and e["end_date"] is None
        and date.fromisoformat(e["start_date"]) <= latest
    ]
    if not candidates or earliest > latest:
        return None
    director = candidates[rng.randrange(len(candidates))]
    taken_on = random_date(rng, max(earliest, date.fromisoformat(director["start_date"])), latest)
    return taken_on.isoformat(), director
