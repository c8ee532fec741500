"""The ``filings`` and ``discrepancies`` stages: a shareholder list per ownership change, and planted differences
between the Transparenzregister and the ownership chains.

``filings`` (:func:`file_shareholder_lists`): a GmbH, UG or gGmbH files a shareholder list (§ 40 GmbHG) at its
incorporation and whenever the set of its shareholders or their shares changes — at every ``start`` and ``end``
of one of its shareholdings rows before the company's termination. The ``documents`` stage already gives such
companies a list at every change of name or capital; those entries stay as they are (same id, same date) and a
list is added, with an id drawn from this stage's generator, only at a change date that has none. The newest
list is then the ``latest`` one, so its holders are exactly the company's current shareholders (as long as the
company exists).

``discrepancies`` (:class:`Discrepancies`): a few companies whose production Transparenzregister extract
completes (one EKRN, not deleted) get an extract that disagrees with their ownership chains, so that a
cross-check has something to find: a **stale owner** (a founder who handed their stake of more than 25 % on is
still reported) and a **missing owner** (one of two or more natural persons holding more than 25 % directly is left out). They
are listed in ``world.json`` under ``transparenzregister.discrepancies``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .people import new_uuid

__all__ = ["LIST_FORMS", "PLANTS_PER_KIND", "Discrepancies", "change_dates", "file_shareholder_lists"]

#: Legal forms that file shareholder lists with the register (§ 40 GmbHG).
LIST_FORMS = frozenset({"gmbh", "ug", "ggmbh"})
#: How many companies of each kind of discrepancy a world gets (fewer when it has fewer candidates).
PLANTS_PER_KIND = 3
_UBO_THRESHOLD = 0.25


def change_dates(record: Mapping[str, Any], rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """The dates on which the shareholders of ``record`` or their shares changed, incorporation included.

    A row's ``end`` on (or after) the company's termination is the company's end, not a change of owners.
    """
    ended = record.get("terminated_at")
    dates = {record["incorporated_at"]}
    for row in rows:
        for day in (row.get("start"), row.get("end")):
            if day and (ended is None or day < ended):
                dates.add(day)
    return dates


def file_shareholder_lists(rng: random.Random, record: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Add a ``shareholder_list`` document to ``record`` at every change date of ``rows`` that has none.

    Only companies of :data:`LIST_FORMS` with a ``documents`` member listing shareholder lists file them; the
    existing entries keep their ids and dates, ``latest`` moves to the newest list, and the documents stay
    sorted by type and date. The stage draws one UUID per added list, company by company in plan order.
    """
    documents = record.get("documents") or []
    lists = [d for d in documents if d["type"] == "shareholder_list"]
    if record["legal_form"] not in LIST_FORMS or not lists:
        return
    have = {d["date"] for d in lists}
    added = [
        {"id": new_uuid(rng), "type": "shareholder_list", "date": day, "latest": False}
        for day in sorted(change_dates(record, rows) - have)
    ]
    if not added:
        return
    lists += added
    newest = max(lists, key=lambda d: d["date"])
    for entry in lists:
        entry["latest"] = entry is newest
    record["documents"] = sorted(documents + added, key=lambda d: (d["type"], d["date"]))


@dataclass
class Discrepancies:
    """Candidates for planted Transparenzregister discrepancies, gathered company by company in plan order."""

    stale: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)

    def see(self, record: Mapping[str, Any], rows: Iterable[Mapping[str, Any]], ekrns: list[str] | None) -> None:
        """Note the candidates of one company (a single EKRN and not deleted, so its extract completes)."""
        if not ekrns or len(ekrns) != 1 or record["status"] == "inactive":
            return
        people = [r for r in rows if r["holder_type"] == "natural_person" and r.get("holder_id")]
        current = {r["holder_id"] for r in people if r.get("end") is None}
        owners = [r for r in people if r.get("end") is None and float(r["share"]) > _UBO_THRESHOLD]
        for row in people:
            if float(row["share"]) <= _UBO_THRESHOLD or (row.get("end") is None and len(owners) < 2):
                continue
            plant = {
                "company_id": record["id"],
                "person_id": row["holder_id"],
                "name": row["holder_name"],
                "percentage": round(float(row["share"]) * 100, 2),
            }
            if row.get("end") is None:
                self.missing.append({**plant, "kind": "missing_owner"})
            elif row["holder_id"] not in current:
                self.stale.append({**plant, "kind": "stale_owner", "until": row["end"]})

    def choose(self, rng: random.Random) -> list[dict[str, Any]]:
        """The planted discrepancies: up to :data:`PLANTS_PER_KIND` of each kind, one per company, by company id."""
        chosen: dict[str, dict[str, Any]] = {}
        for candidates in (self.stale, self.missing):
            first: dict[str, dict[str, Any]] = {}
            for candidate in candidates:
                if candidate["company_id"] not in chosen:
                    first.setdefault(candidate["company_id"], candidate)
            pool = list(first.values())
            for plant in rng.sample(pool, min(PLANTS_PER_KIND, len(pool))):
                chosen.setdefault(plant["company_id"], plant)
        return [chosen[c] for c in sorted(chosen)]
