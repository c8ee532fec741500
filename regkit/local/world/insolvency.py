"""The ``insolvency`` stage: the dated events of insolvency proceedings, whose published events explain their status.

:func:`schedule_company` fits the events of a company's planned proceeding (and, after a rejection, lifting or
discontinuation, the company's deletion); :func:`schedule_person` those of a natural person's (used by the
``proceedings`` stage). The records themselves are written in :mod:`regkit.local.world.proceedings`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from .people import random_date

__all__ = [
    "Timeline",
    "STATUS_AFTER_EVENT",
    "OPEN_STATUSES",
    "REPORT_TYPE",
    "SUMMARY",
    "schedule_company",
    "schedule_person",
]

#: The status a proceeding is in after an event of this type (events not listed leave it unchanged).
STATUS_AFTER_EVENT = {
    "preliminary_measures": "preliminary",
    "proceedings_opened": "opened",
    "rejected_insufficient_assets": "rejected_no_assets",
    "mass_insufficiency_notified": "mass_insufficient",
    "plan_supervision_ordered": "plan_supervised",
    "proceedings_lifted": "lifted",
    "proceedings_discontinued": "discontinued",
    "discharge_pending": "discharge_pending",
    "discharge_granted": "discharge_granted",
    "discharge_denied": "discharge_denied",
    "discharge_revoked": "discharge_revoked",
}
#: Statuses in which a proceeding counts as open (``has_open_insolvency``).
OPEN_STATUSES = {"preliminary", "opened", "mass_insufficient", "plan_supervised", "discharge_pending"}
REPORT_TYPE = {
    "preliminary_measures": "security_measures",
    "proceedings_opened": "openings",
    "rejected_insufficient_assets": "rejection_for_insufficiency_of_assets",
    "in_proceeding_decision": "decisions_in_proceedings",
    "mass_insufficiency_notified": "decisions_in_proceedings",
    "distribution_announced": "distribution_lists",
    "final_distribution_announced": "distribution_lists",
    "proceedings_lifted": "decisions_after_termination",
    "proceedings_discontinued": "decisions_after_termination",
    "plan_confirmed": "supervised_insolvency_plans",
    "plan_supervision_ordered": "supervised_insolvency_plans",
    "discharge_pending": "decisions_in_discharge_proceedings",
    "discharge_granted": "decisions_in_discharge_proceedings",
    "discharge_denied": "decisions_in_discharge_proceedings",
    "discharge_revoked": "decisions_in_discharge_proceedings",
    "other": "misc",
}
SUMMARY = {
    "preliminary_measures": "Vorläufige Insolvenzverwaltung angeordnet; Sicherungsmaßnahmen nach § 21 InsO.",
    "proceedings_opened": "Das Insolvenzverfahren wird eröffnet.",
    "rejected_insufficient_assets": "Der Antrag auf Eröffnung des Insolvenzverfahrens wird mangels Masse abgewiesen.",
    "in_proceeding_decision": "Beschluss im Verfahren: schriftliches Verfahren angeordnet.",
    "mass_insufficiency_notified": "Der Insolvenzverwalter hat Masseunzulänglichkeit angezeigt.",
    "distribution_announced": "Verteilungsverzeichnis niedergelegt (Abschlagsverteilung).",
    "final_distribution_announced": "Schlussverteilung: das Schlussverzeichnis ist niedergelegt.",
    "proceedings_lifted": "Das Insolvenzverfahren wird nach Vollzug der Schlussverteilung aufgehoben.",
    "proceedings_discontinued": "Das Insolvenzverfahren wird eingestellt.",
    "plan_confirmed": "Der Insolvenzplan wird bestätigt.",
    "plan_supervision_ordered": "Die Überwachung der Planerfüllung wird angeordnet.",
    "discharge_pending": "Die Restschuldbefreiung wird in Aussicht gestellt; die Abtretungsfrist läuft.",
    "discharge_granted": "Dem Schuldner wird Restschuldbefreiung erteilt.",
    "discharge_denied": "Die Restschuldbefreiung wird versagt.",
    "discharge_revoked": "Die erteilte Restschuldbefreiung wird widerrufen.",
    "other": "Sonstige Bekanntmachung im Insolvenzverfahren.",
}
_DURATIONS = {  # (event type, days after the previous event: low, high) per final status
    "preliminary": [("preliminary_measures", 0, 0)],
    "rejected_no_assets": [("preliminary_measures", 0, 0), ("rejected_insufficient_assets", 30, 90)],
    "opened": [("preliminary_measures", 0, 0), ("proceedings_opened", 30, 90), ("in_proceeding_decision", 20, 200)],
    "mass_insufficient": [
        ("preliminary_measures", 0, 0),
        ("proceedings_opened", 30, 90),
        ("mass_insufficiency_notified", 90, 700),
    ],
    "plan_supervised": [
        ("preliminary_measures", 0, 0),
        ("proceedings_opened", 30, 90),
        ("plan_confirmed", 150, 500),
        ("plan_supervision_ordered", 1, 20),
    ],
    "lifted": [
        ("preliminary_measures", 0, 0),
        ("proceedings_opened", 30, 90),
        ("distribution_announced", 300, 900),
        ("final_distribution_announced", 100, 500),
        ("proceedings_lifted", 60, 200),
    ],
    "discontinued": [
        ("preliminary_measures", 0, 0),
        ("proceedings_opened", 30, 90),
        ("proceedings_discontinued", 200, 1000),
    ],
    "unknown": [("other", 0, 0)],
}
_PERSON_DURATIONS = {
    "preliminary": [("preliminary_measures", 0, 0)],
    "opened": [("proceedings_opened", 0, 0)],
    "rejected_no_assets": [("rejected_insufficient_assets", 0, 0)],
    "discontinued": [("proceedings_opened", 0, 0), ("proceedings_discontinued", 120, 700)],
    "lifted": [
        ("proceedings_opened", 0, 0),
        ("final_distribution_announced", 200, 500),
        ("proceedings_lifted", 30, 120),
    ],
    "discharge_pending": [
        ("proceedings_opened", 0, 0),
        ("final_distribution_announced", 200, 500),
        ("proceedings_lifted", 30, 120),
        ("discharge_pending", 0, 10),
    ],
    "discharge_granted": [
        ("proceedings_opened", 0, 0),
        ("final_distribution_announced", 200, 500),
        ("proceedings_lifted", 30, 120),
        ("discharge_pending", 0, 10),
        ("discharge_granted", 800, 1000),
    ],
    "discharge_denied": [
        ("proceedings_opened", 0, 0),
        ("final_distribution_announced", 200, 500),
        ("proceedings_lifted", 30, 120),
        ("discharge_pending", 0, 10),
        ("discharge_denied", 300, 700),
    ],
    "discharge_revoked": [
        ("proceedings_opened", 0, 0),
        ("final_distribution_announced", 200, 500),
        ("proceedings_lifted", 30, 120),
        ("discharge_pending", 0, 10),
        ("discharge_granted", 800, 1000),
        ("discharge_revoked", 100, 400),
    ],
}
_PERSON_STATUS_WEIGHTS = {
    "opened": 25,
    "discharge_pending": 25,
    "discharge_granted": 30,
    "discharge_denied": 3,
    "discharge_revoked": 2,
    "lifted": 5,
    "rejected_no_assets": 3,
    "preliminary": 3,
    "discontinued": 4,
}


@dataclass
class Timeline:
    """The dated events of one proceeding, oldest first, its resulting status and, for a company debtor
    deleted after the proceeding, the day it was deleted."""

    status: str
    events: list[tuple[str, date]] = field(default_factory=list)
    deleted: date | None = None

    def at(self, event_type: str) -> date | None:
        """The date of the first event of ``event_type`` (``None`` if there is none)."""
        return next((d for t, d in self.events if t == event_type), None)


def _fit(
    rng: random.Random, steps: list[tuple[str, int, int]], earliest: date, as_of: date
) -> list[tuple[str, date]] | None:
    gaps = [rng.randint(low, high) for _, low, high in steps]
    total = sum(gaps)
    latest_start = as_of - timedelta(days=total + 5)
    if latest_start < earliest:
        return None
    start = random_date(rng, max(earliest, latest_start - timedelta(days=3000)), latest_start)
    events, current = [], start
    for (event_type, _, _), gap in zip(steps, gaps):
        current += timedelta(days=gap)
        events.append((event_type, current))
    return events


def schedule_company(rng: random.Random, incorporated: date, planned: str, as_of: date) -> Timeline | None:
    """Fix the events of a company's planned proceeding (final status ``planned``), filed two years or more
    after ``incorporated``; ``None`` when even preliminary measures do not fit before ``as_of``.

    When the planned sequence does not fit, the proceeding stays at preliminary measures. After a rejection
    for lack of assets, lifting or discontinuation the company is deleted 200–600 days later (``deleted``, if
    that is before ``as_of``; the rules are in ``data/README.md``).
    """
    earliest = incorporated + timedelta(days=730)
    events = _fit(rng, _DURATIONS[planned], earliest, as_of)
    status = planned
    if events is None:
        status, events = "preliminary", _fit(rng, _DURATIONS["preliminary"], earliest, as_of)
    if events is None:
        return None
    deleted = None
    if status in {"rejected_no_assets", "lifted", "discontinued"}:
        day = events[-1][1] + timedelta(days=rng.randint(200, 600))
        deleted = day if day < as_of else None
    return Timeline(status, events, deleted)


def schedule_person(rng: random.Random, as_of: date) -> Timeline:
    """Events of a natural person's proceeding, from opening (or preliminary measures) to discharge."""
    status = rng.choices(list(_PERSON_STATUS_WEIGHTS), list(_PERSON_STATUS_WEIGHTS.values()))[0]
    events = _fit(rng, _PERSON_DURATIONS[status], date(2012, 1, 1), as_of)
    assert events is not None  # 2012 leaves room for the longest sequence
    return Timeline(status, events)
