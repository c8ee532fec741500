"""Representation entries: directors, Prokura, shareholders, owners, partners, liquidators."""

from __future__ import annotations

import random
from datetime import date, timedelta

from .people import Person, PersonPool, iso, random_date
from .reference import Reference

__all__ = ["legal_entry", "natural_entry", "representation", "REPRESENTATION_RULES"]

#: General representation rules as the register publishes them, per legal form.
REPRESENTATION_RULES = {
    "gmbh": "Ist ein Geschäftsführer bestellt, so vertritt er die Gesellschaft allein. Sind mehrere Geschäftsführer bestellt, so wird die Gesellschaft durch zwei Geschäftsführer oder durch einen Geschäftsführer gemeinsam mit einem Prokuristen vertreten.",
    "ag": "Ist nur ein Vorstandsmitglied bestellt, so vertritt es die Gesellschaft allein. Sind mehrere Vorstandsmitglieder bestellt, so wird die Gesellschaft durch zwei Vorstandsmitglieder oder durch ein Vorstandsmitglied gemeinsam mit einem Prokuristen vertreten.",
    "kg": "Jeder persönlich haftende Gesellschafter vertritt die Gesellschaft allein.",
    "ohg": "Jeder persönlich haftende Gesellschafter vertritt die Gesellschaft allein.",
    "eg": "Die Genossenschaft wird durch zwei Vorstandsmitglieder gemeinschaftlich vertreten.",
    "ev": "Der Verein wird durch zwei Mitglieder des Vorstands gemeinsam vertreten.",
}
_BOARD_ROLES = {"DIRECTOR", "PROKURA", "PARTNER", "OWNER", "PERSONAL_LIABLE_DIRECTOR", "OTHER"}
_RULE_ALIASES = {"ug": "gmbh", "ggmbh": "gmbh", "se": "ag", "kgaa": "kg", "ewiv": "gmbh"}


def natural_entry(
    person: Person, role: str, start: date, end: date | None, authority: str | None, keep_id: bool = True
) -> dict:
    """A representative entry for a natural person (``id`` null when the register gives none)."""
    return {
        "id": person.id if keep_id else None,
        "name": person.full_name,
        "type": "natural_person",
        "role": role,
        "start_date": iso(start),
        "end_date": iso(end) if end else None,
        "authority": authority,
        "natural_person": person.details(),
    }


def legal_entry(
    company_id: str | None,
    name: str,
    city: str | None,
    role: str,
    start: date,
    end: date | None,
    country: str = "DE",
) -> dict:
    """A representative entry for a legal person (a company of the world, or one outside it)."""
    return {
        "id": company_id,
        "name": name,
        "type": "legal_person",
        "role": role,
        "start_date": iso(start),
        "end_date": iso(end) if end else None,
        "authority": None,
        "legal_person": {"name": name, "city": city, "country": country},
    }


def _terms(rng: random.Random, start: date, end: date, turnover: float) -> list[tuple[date, date | None]]:
    """Consecutive terms of office covering ``[start, end]``; the last one open."""
    terms: list[tuple[date, date | None]] = []
    current = start
    while True:
        if (end - current).days > 730 and rng.random() < turnover:
            stop = random_date(rng, current + timedelta(days=365), end - timedelta(days=30))
            terms.append((current, stop))
            current = stop + timedelta(days=rng.randint(0, 20))
        else:
            terms.append((current, None))
            return terms


class _Board:
    """Collects the entries of one company."""

    def __init__(self, rng: random.Random, reference: Reference, pool: PersonPool, city: str):
        self.rng, self.reference, self.pool, self.city = rng, reference, pool, city
        self.entries: list[dict] = []
        self.active: list[tuple[Person, str]] = []

    def people(
        self,
        role: str,
        kind: str,
        count: int,
        start: date,
        end: date,
        turnover: float = 0.35,
        shared: list[Person] | None = None,
    ) -> None:
        for seat in range(count):
            for term_start, term_end in _terms(self.rng, start, end, turnover):
                if shared and seat < len(shared) and term_start == start:
                    person = shared[seat]
                else:
                    person = self.pool.officer(self.city, term_start)
                authority = self.reference.authority[kind].draw(self.rng) if kind in self.reference.authority else None
                keep_id = self.rng.random() > 0.04
                self.entries.append(natural_entry(person, role, term_start, term_end, authority, keep_id))
                if term_end is None:
                    self.active.append((person, role))


def _appoint(
    board: _Board,
    rng: random.Random,
    legal_form: str,
    start: date,
    until: date,
    general_partner: dict | None,
    shared: list[Person] | None,
) -> None:
    """The officers a legal form has: directors and Prokura, partners, an owner, a board of an eG/e.V."""
    if legal_form in {"gmbh", "ug", "ggmbh", "ewiv", "foreign", "municipal"}:
        board.people(
            "DIRECTOR", "director", 1 if rng.random() < 0.65 else rng.randint(2, 3), start, until, shared=shared
        )
        if rng.random() < 0.3:
            board.people("PROKURA", "prokura", rng.randint(1, 2), random_date(rng, start, until), until)
    elif legal_form in {"ag", "se"}:
        board.people("DIRECTOR", "director", rng.randint(2, 4), start, until, turnover=0.5, shared=shared)
        board.people("PROKURA", "prokura", rng.randint(1, 3), random_date(rng, start, until), until)
    elif legal_form in {"kg", "kgaa"}:
        if general_partner is None:
            board.people("PERSONAL_LIABLE_DIRECTOR", "partner", 1, start, until, turnover=0.1)
        if rng.random() < 0.25:
            board.people("PROKURA", "prokura", 1, random_date(rng, start, until), until)
    elif legal_form in {"ohg", "gbr", "unknown", "llp"}:
        board.people("PARTNER", "partner", rng.randint(2, 4), start, until, turnover=0.15)
    elif legal_form == "ek":
        board.people("OWNER", "owner", 1, start, until, turnover=0.05)
    elif legal_form in {"eg", "ev"}:
        board.people("DIRECTOR", "director", rng.randint(2, 3), start, until, turnover=0.5)
    else:
        board.people("OTHER", "other", 1, start, until)


def _close(
    entries: list[dict], liquidation_start: date | None, terminated_at: date | None, general_partner: dict | None
) -> None:
    """End what is still open when the board is dissolved (liquidation) or the company ends."""
    for entry in entries:
        if entry["end_date"] is not None:
            continue
        if liquidation_start is not None and entry["role"] in _BOARD_ROLES and entry is not general_partner:
            entry["end_date"] = liquidation_start.isoformat()
        elif terminated_at is not None:
            entry["end_date"] = terminated_at.isoformat()


def representation(
    rng: random.Random,
    reference: Reference,
    pool: PersonPool,
    *,
    legal_form: str,
    city: str,
    start: date,
    stop: date,
    terminated_at: date | None,
    liquidation_start: date | None,
    general_partner: dict | None,
    shared_directors: list[Person] | None,
) -> list[dict]:
    """The representation of one company over its life ``[start, stop]``, in start order.

    ``stop`` is ``terminated_at`` for a company that ended, otherwise the world's date.
    ``general_partner`` is the entry of a GmbH acting as general partner of a KG/KGaA; ``shared_directors``
    are persons who take the first director seats (a group's directors).
    """
    board = _Board(rng, reference, pool, city)
    _appoint(board, rng, legal_form, start, liquidation_start or stop, general_partner, shared_directors)
    entries = board.entries
    if general_partner is not None:
        entries.append(general_partner)
    if liquidation_start is not None:
        formers = [
            p for p, role in board.active if role in {"DIRECTOR", "PARTNER", "OWNER", "PERSONAL_LIABLE_DIRECTOR"}
        ]
        liquidator = formers[0] if formers and rng.random() < 0.7 else pool.officer(city, liquidation_start)
        authority = reference.authority["liquidator"].draw(rng)
        entries.append(natural_entry(liquidator, "LIQUIDATOR", liquidation_start, None, authority))
    _close(entries, liquidation_start, terminated_at, general_partner)
    entries.sort(key=lambda e: (e["start_date"], e["role"], e["name"]))
    return entries


def rule_for(legal_form: str) -> str | None:
    """The general representation rule for a legal form (None where the register publishes none)."""
    return REPRESENTATION_RULES.get(_RULE_ALIASES.get(legal_form, legal_form))
