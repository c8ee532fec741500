"""The ``proceedings`` stage: proceeding records — case numbers in the courts' formats, administrators,
natural-person debtors, events with their published details.

The events' dates come from the ``insolvency`` stage (companies) or :func:`.insolvency.schedule_person`
(natural persons); everything else of a proceeding is drawn here, from the ``proceedings`` generator (the form
of an event's published text from the event's id, see :mod:`.published`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta

from .cases import Administrators, CaseNumbers
from .insolvency import OPEN_STATUSES, REPORT_TYPE, STATUS_AFTER_EVENT, SUMMARY, Timeline, schedule_person
from .people import Person, PersonPool, iso_or_none, new_uuid
from .published import publish_details
from .reference import Reference
from .specs import Court, Spec

__all__ = ["Proceedings", "event_details", "event_record", "opening_meetings", "proceeding_record", "summary_of"]


def event_record(rng: random.Random, event_type: str, day: date, details: dict, not_before: date) -> dict:
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
        if event_type in {"proceedings_opened", "preliminary_measures"}
        else None,
        "summary": SUMMARY[event_type],
        "details": publish_details(details, event_id),
    }


def _grounds(rng: random.Random, debtor_kind: str) -> tuple[list[str], str]:
    """Insolvency grounds and the kind of administration (self-administration or a protective shield now and then)."""
    if debtor_kind == "natural_person":
        return ["illiquidity"], "external_administration"
    regular = [["illiquidity"], ["over_indebtedness"], ["illiquidity", "over_indebtedness"], ["imminent_illiquidity"]]
    grounds = rng.choices(regular, [50, 15, 30, 5])[0]
    if "imminent_illiquidity" in grounds:
        return grounds, rng.choice(["self_administration", "protective_shield"])
    return grounds, "self_administration" if rng.random() < 0.04 else "external_administration"


def event_details(event_type: str, day: date, facts: dict) -> dict:
    """What an event's announcement states (before it is written as published text)."""
    opening = event_type in {"preliminary_measures", "proceedings_opened"}
    distribution = event_type.endswith("distribution_announced")
    return {
        "insolvency_grounds": facts["grounds"] if opening else [],
        "meetings": [],
        "administrator_name": facts["administrator"] if opening else None,
        "administrator_address": facts["office"] if opening else None,
        "claims_filing_deadline": iso_or_none(facts["deadline"]) if event_type == "proceedings_opened" else None,
        "closed_at": day.isoformat() if event_type in {"proceedings_lifted", "proceedings_discontinued"} else None,
        "discharge_granted": True
        if event_type == "discharge_granted"
        else False
        if event_type == "discharge_denied"
        else None,
        "distribution_available": facts["available"] if distribution else None,
        "distribution_claims_total": facts["claims"] if distribution else None,
    }


def opening_meetings(rng: random.Random, court: Court, day: date) -> list[dict]:
    """The report and examination meetings an opening order sets."""
    return [
        {
            "kind": "report_meeting",
            "at": f"{(day + timedelta(days=rng.randint(40, 80))).isoformat()}T10:00:00Z",
            "location": f"{court.name}, Saal {rng.randint(1, 30)}",
        },
        {
            "kind": "examination_meeting",
            "at": f"{(day + timedelta(days=rng.randint(81, 120))).isoformat()}T10:30:00Z",
            "location": f"{court.name}, Saal {rng.randint(1, 30)}",
        },
    ]


def _facts(rng: random.Random, timeline: Timeline, debtor_kind: str, administrators: Administrators) -> dict:
    """The facts of a proceeding its announcements repeat: grounds, administrator, deadline, distribution."""
    grounds, administration = _grounds(rng, debtor_kind)
    opened = timeline.at("proceedings_opened")
    administrator, office = administrators.draw() if timeline.status != "unknown" else (None, None)
    distributes = (
        timeline.at("final_distribution_announced") is not None or timeline.at("distribution_announced") is not None
    )
    scale = 150_000 if debtor_kind == "natural_person" else 4_000_000
    claims = round(rng.uniform(scale / 100, scale), 2) if distributes else None
    return {
        "grounds": grounds,
        "administration": administration,
        "opened": opened,
        "administrator": administrator,
        "office": office,
        "deadline": opened + timedelta(days=rng.randint(42, 70)) if opened else None,
        "claims": claims,
        "available": round(claims * rng.uniform(0.02, 0.3), 2) if claims else None,
    }


def _events(rng: random.Random, timeline: Timeline, court: Court, facts: dict) -> list[dict]:
    """The published events of a proceeding; the status they lead to is the timeline's (asserted)."""
    events: list[dict] = []
    status = "unknown"
    for event_type, day in timeline.events:
        details = event_details(event_type, day, facts)
        if event_type == "proceedings_opened":
            details["meetings"] = opening_meetings(rng, court, day)
        previous = date.fromisoformat(events[-1]["published_at"]) if events else day
        events.append(event_record(rng, event_type, day, details, previous))
        status = STATUS_AFTER_EVENT.get(event_type, status)
    assert status == timeline.status, (status, timeline)
    return events


def _closed(timeline: Timeline) -> date | None:
    """When the proceeding ended: lifted, discontinued or rejected for lack of assets."""
    return (
        timeline.at("proceedings_lifted")
        or timeline.at("proceedings_discontinued")
        or timeline.at("rejected_insufficient_assets")
    )


def proceeding_record(
    rng: random.Random,
    timeline: Timeline,
    *,
    court: Court,
    case_number: str,
    debtor: tuple[str, str, str | None],
    company_id: str | None,
    person: Person | None,
    city: str | None,
    administrators: Administrators,
) -> dict:
    """One proceeding with every member of ``GET /v1/insolvency/{id}`` plus the search-only members.

    ``debtor`` is ``(name, kind, legal form)``; the kind is ``legal_person`` or ``natural_person``.
    """
    debtor_name, debtor_kind, debtor_legal_form = debtor
    facts = _facts(rng, timeline, debtor_kind, administrators)
    events = _events(rng, timeline, court, facts)
    status = timeline.status
    closed = _closed(timeline)
    published = [e["published_at"] for e in events]
    known = status != "unknown"
    return {
        "id": new_uuid(rng),
        "case_number": case_number,
        "court": court.name,
        "current_status": status,
        "debtor_name": debtor_name,
        "debtor_kind": debtor_kind,
        "debtor_legal_form": debtor_legal_form,
        "company_id": company_id,
        "proceeding_kind": "consumer_insolvency" if " IK " in case_number else "regular_insolvency",
        "administration_kind": facts["administration"] if known else None,
        "administrator_name": facts["administrator"],
        "administrator_address": facts["office"],
        "insolvency_grounds": facts["grounds"] if known else None,
        "claims_filing_deadline": iso_or_none(facts["deadline"]),
        "opened_at": iso_or_none(facts["opened"]),
        "closed_at": closed.isoformat() if closed and status not in OPEN_STATUSES - {"discharge_pending"} else None,
        "first_event_at": min(published),
        "last_event_at": max(published),
        "distribution_available": facts["available"],
        "distribution_claims_total": facts["claims"],
        "events": events,
        "city": city,
        "person_id": person.id if person else None,
        "has_open_insolvency": status in OPEN_STATUSES,
    }


def summary_of(record: dict) -> dict:
    """The ``CompanyInsolvencySummary`` of a proceeding (what ``company.insolvencies`` holds)."""
    keys = (
        "id",
        "current_status",
        "court",
        "case_number",
        "proceeding_kind",
        "administration_kind",
        "opened_at",
        "closed_at",
    )
    return {key: record[key] for key in keys}


class Proceedings:
    """The ``proceedings`` stage, one proceeding at a time: each company's as soon as its record exists
    (:meth:`of_company`, in plan order), then those against natural persons (:meth:`of_people`, one for every
    ten of the world's ``companies``)."""

    def __init__(self, rng: random.Random, reference: Reference, companies: int):
        self.rng, self.reference, self.companies = rng, reference, companies
        self.pool = PersonPool(rng, reference)
        self.cases = CaseNumbers(rng)
        self.administrators = Administrators(rng, self.pool, max(12, companies // 80), reference)

    def of_company(self, spec: Spec, timeline: Timeline, company: dict) -> dict:
        """The proceeding of ``timeline`` against ``spec``'s company; ``company`` is its record (for the
        debtor's name when the proceeding was filed, and its town)."""
        return _company_proceeding(self.rng, spec, timeline, company, self.cases, self.administrators)

    def of_people(self, as_of: date) -> Iterator[dict]:
        """The proceedings against natural persons (call it once, after every company's)."""
        for _ in range(max(1, round(self.companies * 0.1))):
            yield _person_proceeding(self.rng, self.reference, self.pool, self.cases, self.administrators, as_of)


def _company_proceeding(
    rng: random.Random,
    spec: Spec,
    timeline: Timeline,
    company: dict,
    cases: CaseNumbers,
    administrators: Administrators,
) -> dict:
    """A proceeding against a company, at the insolvency court of its register court, under the name it had."""
    court = spec.registrations[-1].court
    filed = timeline.events[0][1]
    names = company["names"]
    name = next((n for n in reversed(names) if n["start_date"] <= filed.isoformat()), names[0])
    return proceeding_record(
        rng,
        timeline,
        court=court,
        case_number=cases.allocate(court, False, filed),
        debtor=(name["name"], "legal_person", name["legal_form"]),
        company_id=spec.id,
        person=None,
        city=company["address"]["city"],
        administrators=administrators,
    )


def _person_proceeding(
    rng: random.Random,
    reference: Reference,
    pool: PersonPool,
    cases: CaseNumbers,
    administrators: Administrators,
    as_of: date,
) -> dict:
    """A proceeding against a natural person (80 % consumer insolvencies, ``IK``) at a court near their town."""
    court = reference.current_courts.draw(rng)
    places = reference.court_places[court.code]
    place = places[rng.randrange(len(places))]
    person = pool.create(city=place.city, born_before=date(2000, 1, 1))
    timeline = schedule_person(rng, as_of)
    case_number = cases.allocate(court, rng.random() < 0.8, timeline.events[0][1])
    return proceeding_record(
        rng,
        timeline,
        court=court,
        case_number=case_number,
        debtor=(person.full_name, "natural_person", None),
        company_id=None,
        person=person,
        city=place.city,
        administrators=administrators,
    )
