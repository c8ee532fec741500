"""Proceeding records: case numbers in the courts' formats, administrators, events with details."""

from __future__ import annotations

import random
from datetime import date, timedelta

from .insolvency import OPEN_STATUSES, REPORT_TYPE, STATUS_AFTER_EVENT, SUMMARY, Timeline
from .people import Person, PersonPool, new_uuid
from .published import publish_details
from .reference import Court, Reference

__all__ = ["CaseNumbers", "Administrators", "proceeding_record", "summary_of"]

_STREETS = ("Hauptstraße", "Bahnhofstraße", "Schillerstraße", "Goethestraße", "Lindenstraße", "Kirchstraße",
            "Gartenstraße", "Parkstraße", "Ringstraße", "Am Markt", "Königstraße", "Friedrichstraße")


class CaseNumbers:
    """Case numbers as the insolvency courts write them: ``36a IN 1234/24`` (companies), ``IK`` (consumers)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.taken: set[tuple[str, str]] = set()

    def department(self, court: Court) -> str:
        number = sum(ord(ch) * (i + 1) for i, ch in enumerate(court.code)) % 90 + 1
        letter = "" if number % 3 else "abcdn"[number % 5]
        return f"{number}{letter}"

    def allocate(self, court: Court, consumer: bool, filed: date) -> str:
        register = "IK" if consumer else "IN"
        while True:
            case = f"{self.department(court)} {register} {self.rng.randint(1, 2400)}/{filed.year % 100:02d}"
            if (court.code, case) not in self.taken:
                self.taken.add((court.code, case))
                return case


class Administrators:
    """Insolvency administrators: a few dozen lawyers who handle many proceedings each."""

    def __init__(self, rng: random.Random, pool: PersonPool, size: int, reference: Reference):
        self.rng = rng
        self.offices = {}
        self.people = []
        for _ in range(size):
            court = reference.current_courts.draw(rng)
            places = reference.court_places[court.code]
            place = places[0]  # law firms sit in the court towns
            person = pool.create(city=place.city)
            self.people.append(person)
            self.offices[person.id] = f"{rng.choice(_STREETS)} {rng.randint(1, 120)}, {place.postal_code} {place.city}"

    def draw(self) -> tuple[str, str]:
        person = self.people[int(self.rng.random() ** 2 * len(self.people))]
        title = "Dr. " if self.rng.random() < 0.3 else ""
        return f"Rechtsanwalt {title}{person.full_name}", self.offices[person.id]


def _event(rng: random.Random, event_type: str, day: date, details: dict, not_before: date) -> dict:
    """One published event; its ``details`` hold amounts and dates as the announcement's text."""
    published = max(day + timedelta(days=rng.randint(1, 4)), not_before)
    event_id = new_uuid(rng)
    return {
        "id": event_id,
        "event_type": event_type,
        "report_type": REPORT_TYPE[event_type],
        "published_at": published.isoformat(),
        "decision_date": day.isoformat() if event_type != "other" else None,
        "effective_at": f"{day.isoformat()}T{rng.randint(8, 15):02d}:{rng.choice(('00', '15', '30', '45'))}:00Z"
        if event_type in {"proceedings_opened", "preliminary_measures"} else None,
        "summary": SUMMARY[event_type],
        "details": publish_details(details, event_id),
    }


def proceeding_record(
    rng: random.Random,
    timeline: Timeline,
    *,
    court: Court,
    case_number: str,
    debtor_name: str,
    debtor_kind: str,
    debtor_legal_form: str | None,
    company_id: str | None,
    person: Person | None,
    city: str | None,
    administrators: Administrators,
) -> dict:
    """One proceeding with every member of ``GET /v1/insolvency/{id}`` plus the search-only members."""
    consumer = debtor_kind == "natural_person" and rng.random() < 0.8
    regular_grounds = [["illiquidity"], ["over_indebtedness"], ["illiquidity", "over_indebtedness"], ["imminent_illiquidity"]]
    grounds = ["illiquidity"] if debtor_kind == "natural_person" else rng.choices(regular_grounds, [50, 15, 30, 5])[0]
    administration = "external_administration"
    if debtor_kind == "legal_person" and "imminent_illiquidity" in grounds:
        administration = rng.choice(["self_administration", "protective_shield"])
    elif debtor_kind == "legal_person" and rng.random() < 0.04:
        administration = "self_administration"
    opened = timeline.at("proceedings_opened")
    administrator, office = administrators.draw() if timeline.status != "unknown" else (None, None)
    deadline = opened + timedelta(days=rng.randint(42, 70)) if opened else None
    closed = timeline.at("proceedings_lifted") or timeline.at("proceedings_discontinued") or timeline.at("rejected_insufficient_assets")
    distributes = timeline.at("final_distribution_announced") is not None or timeline.at("distribution_announced") is not None
    scale = 150_000 if debtor_kind == "natural_person" else 4_000_000
    claims = round(rng.uniform(scale / 100, scale), 2) if distributes else None
    available = round(claims * rng.uniform(0.02, 0.3), 2) if claims else None
    events, status = [], "unknown"
    for event_type, day in timeline.events:
        details = {
            "insolvency_grounds": grounds if event_type in {"preliminary_measures", "proceedings_opened"} else [],
            "meetings": [],
            "administrator_name": administrator if event_type in {"preliminary_measures", "proceedings_opened"} else None,
            "administrator_address": office if event_type in {"preliminary_measures", "proceedings_opened"} else None,
            "claims_filing_deadline": deadline.isoformat() if event_type == "proceedings_opened" and deadline else None,
            "closed_at": day.isoformat() if event_type in {"proceedings_lifted", "proceedings_discontinued"} else None,
            "discharge_granted": True if event_type == "discharge_granted" else False if event_type == "discharge_denied" else None,
            "distribution_available": available if event_type.endswith("distribution_announced") else None,
            "distribution_claims_total": claims if event_type.endswith("distribution_announced") else None,
        }
        if event_type == "proceedings_opened":
            details["meetings"] = [
                {"kind": "report_meeting", "at": f"{(day + timedelta(days=rng.randint(40, 80))).isoformat()}T10:00:00Z",
                 "location": f"{court.name}, Saal {rng.randint(1, 30)}"},
                {"kind": "examination_meeting", "at": f"{(day + timedelta(days=rng.randint(81, 120))).isoformat()}T10:30:00Z",
                 "location": f"{court.name}, Saal {rng.randint(1, 30)}"},
            ]
        previous = date.fromisoformat(events[-1]["published_at"]) if events else day
        events.append(_event(rng, event_type, day, details, previous))
        status = STATUS_AFTER_EVENT.get(event_type, status)
    assert status == timeline.status, (status, timeline)
    published = [e["published_at"] for e in events]
    return {
        "id": new_uuid(rng),
        "case_number": case_number,
        "court": court.name,
        "current_status": status,
        "debtor_name": debtor_name,
        "debtor_kind": debtor_kind,
        "debtor_legal_form": debtor_legal_form,
        "company_id": company_id,
        "proceeding_kind": "consumer_insolvency" if consumer else "regular_insolvency",
        "administration_kind": administration if status != "unknown" else None,
        "administrator_name": administrator,
        "administrator_address": office,
        "insolvency_grounds": grounds if status != "unknown" else None,
        "claims_filing_deadline": deadline.isoformat() if deadline else None,
        "opened_at": opened.isoformat() if opened else None,
        "closed_at": closed.isoformat() if closed and status not in OPEN_STATUSES - {"discharge_pending"} else None,
        "first_event_at": min(published),
        "last_event_at": max(published),
        "distribution_available": available,
        "distribution_claims_total": claims,
        "events": events,
        "city": city,
        "person_id": person.id if person else None,
        "has_open_insolvency": status in OPEN_STATUSES,
    }


def summary_of(record: dict) -> dict:
    """The ``CompanyInsolvencySummary`` of a proceeding (what ``company.insolvencies`` holds)."""
    keys = ("id", "current_status", "court", "case_number", "proceeding_kind", "administration_kind", "opened_at", "closed_at")
    return {key: record[key] for key in keys}
