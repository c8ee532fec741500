"""Insolvency proceedings: search results, proceedings and their events as frames.

``insolvency_grounds`` (an array, or null when unknown) becomes a ``"; "``-joined string — nothing is lost,
values outside the closed list included — and one nullable boolean per known ground (``ground_illiquidity``,
...), <NA> when the grounds are unknown. Event ``meetings`` become ``meeting_count``, the time of the first
meeting of each known kind, and a ``"; "``-joined text of all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import (
    ADMINISTRATION_KINDS,
    DEBTOR_KINDS,
    EVENT_TYPES,
    INSOLVENCY_GROUNDS,
    INSOLVENCY_STATUSES,
    LEGAL_FORMS,
    PROCEEDING_KINDS,
    REPORT_TYPES,
)

from ._columns import BOOLEAN, CENTS_EUR, DATE, DATETIME, FLOAT, INT64, STR, Cat, build_frame, rows_to_columns
from ._input import RECORD_HINT, as_dict, is_collection, required, wrong_kind
from .published import amount_cents, parse_date, parse_datetime, parse_flag, published_text

__all__ = ["MEETING_KINDS", "events", "insolvency_results", "proceedings", "result_list"]

MEETING_KINDS = ("report_meeting", "examination_meeting")
"""Meeting kinds with a column of their own in :func:`events`."""

_GROUNDS = [("insolvency_grounds", STR), *((f"ground_{g}", BOOLEAN) for g in INSOLVENCY_GROUNDS)]
_CATS = {
    "debtor_kind": Cat(DEBTOR_KINDS),
    "debtor_legal_form": Cat(LEGAL_FORMS),
    "current_status": Cat(INSOLVENCY_STATUSES),
    "proceeding_kind": Cat(PROCEEDING_KINDS),
    "administration_kind": Cat(ADMINISTRATION_KINDS),
}

RESULT_SPEC = [
    ("id", STR),
    ("debtor_name", STR),
    ("debtor_kind", _CATS["debtor_kind"]),
    ("debtor_legal_form", _CATS["debtor_legal_form"]),
    ("case_number", STR),
    ("court", STR),
    ("city", STR),
    ("current_status", _CATS["current_status"]),
    ("has_open_insolvency", BOOLEAN),
    ("proceeding_kind", _CATS["proceeding_kind"]),
    ("administration_kind", _CATS["administration_kind"]),
    *_GROUNDS,
    ("administrator_name", STR),
    ("company_id", STR),
    ("person_id", STR),
    ("opened_at", DATE),
    ("closed_at", DATE),
    ("last_event_at", DATE),
]
_RESULT_MEMBERS = [name for name, _ in RESULT_SPEC if name not in dict(_GROUNDS)]

PROCEEDING_SPEC = [
    ("id", STR),
    ("case_number", STR),
    ("court", STR),
    ("current_status", _CATS["current_status"]),
    ("debtor_name", STR),
    ("debtor_kind", _CATS["debtor_kind"]),
    ("debtor_legal_form", _CATS["debtor_legal_form"]),
    ("company_id", STR),
    ("person_id", STR),
    ("city", STR),
    ("has_open_insolvency", BOOLEAN),
    ("proceeding_kind", _CATS["proceeding_kind"]),
    ("administration_kind", _CATS["administration_kind"]),
    ("administrator_name", STR),
    ("administrator_address", STR),
    *_GROUNDS,
    ("claims_filing_deadline", DATE),
    ("opened_at", DATE),
    ("closed_at", DATE),
    ("first_event_at", DATE),
    ("last_event_at", DATE),
    ("distribution_available", FLOAT),
    ("distribution_claims_total", FLOAT),
    ("event_count", INT64),
]
_OPTIONAL = ("person_id", "city", "has_open_insolvency")  # served by the local register, not in the live list

EVENT_SPEC = [
    ("insolvency_id", STR),
    ("position", INT64),
    ("id", STR),
    ("event_type", Cat(EVENT_TYPES)),
    ("report_type", Cat(REPORT_TYPES)),
    ("published_at", DATE),
    ("decision_date", DATE),
    ("effective_at", DATETIME),
    ("summary", STR),
    *_GROUNDS,
    ("administrator_name", STR),
    ("administrator_address", STR),
    ("claims_filing_deadline", DATE),
    ("claims_filing_deadline_text", STR),
    ("closed_at", DATE),
    ("closed_at_text", STR),
    ("discharge_granted", BOOLEAN),
    ("distribution_available", CENTS_EUR),
    ("distribution_available_text", STR),
    ("distribution_claims_total", CENTS_EUR),
    ("distribution_claims_total_text", STR),
    ("meeting_count", INT64),
    *((f"{kind}_at", DATETIME) for kind in MEETING_KINDS),
    ("meetings", STR),
]


def _grounds(grounds: list[str] | None) -> tuple:
    if grounds is None:
        return (None, *(None for _ in INSOLVENCY_GROUNDS))
    return ("; ".join(grounds), *(g in grounds for g in INSOLVENCY_GROUNDS))


def result_list(results: Any) -> list[Mapping[str, Any]]:
    """Search results from a page (record or dict), a list of pages, or an iterable of result dicts."""
    if isinstance(getattr(results, "raw", results), Mapping):
        results = [results]
    elif not is_collection(results):
        raise wrong_kind(
            "search results (a page, pages, or result dicts)",
            results,
            "pass what a search returned: client.search_insolvencies(...), client.search_all_companies(...), "
            "client.iter_persons(...), …",
        )
    out: list[Mapping[str, Any]] = []
    for item in results:
        raw = as_dict(item)
        if "results" in raw:
            out.extend(raw["results"])
        else:
            out.append(raw)
    return out


def insolvency_results(results: Any) -> pd.DataFrame:
    """Insolvency search results as a typed frame, one row per result in the order given.

    Parameters
    ----------
    results : page, pages, or results
        An ``InsolvencySearchPage`` (or its dict), a list of pages, or an iterable of result dicts such as
        ``client.iter_insolvencies(...)``. Results are not de-duplicated.

    Returns
    -------
    pandas.DataFrame
        ===========================  ==============  ============================================
        id                           str             the proceeding (``events`` takes it)
        debtor_name                  str
        debtor_kind                  category        legal_person / natural_person
        debtor_legal_form            category        the legal-form enum; NaN for persons
        case_number, court, city     str
        current_status               category        InsolvencyStatus
        has_open_insolvency          boolean
        proceeding_kind              category        NaN where unknown
        administration_kind          category        NaN where unknown
        insolvency_grounds           str             ``"; "``-joined; NaN where unknown
        ground_illiquidity, ...      boolean         one per known ground; <NA> where unknown
        administrator_name           str
        company_id, person_id        str             links to the company / person
        opened_at, closed_at         datetime64[us]
        last_event_at                datetime64[us]
        ===========================  ==============  ============================================

    Examples
    --------
    >>> page = {"results": [{"id": "p1", "debtor_name": "X GmbH", "debtor_kind": "legal_person",
    ...     "debtor_legal_form": "gmbh", "case_number": "50 IN 1/24", "court": "Amtsgericht Kassel",
    ...     "city": "Kassel", "current_status": "opened", "has_open_insolvency": True,
    ...     "proceeding_kind": "regular_insolvency", "administration_kind": None,
    ...     "insolvency_grounds": ["illiquidity"], "administrator_name": None, "company_id": None,
    ...     "person_id": None, "opened_at": "2024-02-01", "closed_at": None, "last_event_at": "2024-02-03"}],
    ...     "pagination": {"page": 1, "per_page": 10, "total_pages": 1, "total_results": 1}}
    >>> insolvency_results(page)[["debtor_name", "current_status", "ground_illiquidity", "opened_at"]]
      debtor_name current_status  ground_illiquidity  opened_at
    0      X GmbH         opened                True 2024-02-01
    """
    rows = []
    with required("an insolvency search result"):
        for r in result_list(results):
            values = [r[name] for name in _RESULT_MEMBERS]
            rows.append((*values[:11], *_grounds(r["insolvency_grounds"]), *values[11:]))
    return build_frame(rows_to_columns(rows, RESULT_SPEC), RESULT_SPEC)


def _proceeding_list(insolvency: Any) -> list[Mapping[str, Any]]:
    if isinstance(getattr(insolvency, "raw", insolvency), Mapping):
        return [as_dict(insolvency)]
    if is_collection(insolvency):
        return [as_dict(item) for item in insolvency]
    raise wrong_kind(
        "a proceeding (record or dict) or several", insolvency, f"{RECORD_HINT}: client.get_insolvency(insolvency_id)"
    )


def proceedings(insolvency: Any) -> pd.DataFrame:
    """One row per proceeding (``GET /v1/insolvency/{id}``), its events counted, not listed.

    Parameters
    ----------
    insolvency : record, dict, or many of them
        ``InsolvencyRecord`` or proceeding dicts (with ``events``).

    Returns
    -------
    pandas.DataFrame
        ``id``, ``case_number``, ``court`` (str); ``current_status`` (category); ``debtor_name`` (str);
        ``debtor_kind``, ``debtor_legal_form`` (category); ``company_id``, ``person_id``, ``city`` (str);
        ``has_open_insolvency`` (boolean); ``proceeding_kind``, ``administration_kind`` (category);
        ``administrator_name``, ``administrator_address`` (str); ``insolvency_grounds`` (str) and
        ``ground_*`` (boolean); ``claims_filing_deadline``, ``opened_at``, ``closed_at``, ``first_event_at``,
        ``last_event_at`` (datetime64[us]); ``distribution_available``, ``distribution_claims_total``
        (Float64, EUR); ``event_count`` (int64). ``person_id``, ``city`` and ``has_open_insolvency`` are
        null where the detail resource lacks them.

    Examples
    --------
    >>> proceedings([]).shape
    (0, 27)
    """
    rows = []
    with required("an insolvency proceeding"):
        for p in _proceeding_list(insolvency):
            head = [p[n] if n not in _OPTIONAL else p.get(n) for n, _ in PROCEEDING_SPEC[:15]]
            tail = [p[n] for n, _ in PROCEEDING_SPEC[19:-1]]
            rows.append((*head, *_grounds(p["insolvency_grounds"]), *tail, len(p["events"])))
    return build_frame(rows_to_columns(rows, PROCEEDING_SPEC), PROCEEDING_SPEC)


def _meetings(meetings: list[Mapping[str, Any]]) -> tuple:
    first: dict[str, Any] = {kind: None for kind in MEETING_KINDS}
    for m in meetings:
        if m["kind"] in first and first[m["kind"]] is None and (at := parse_datetime(m["at"])) is not None:
            first[m["kind"]] = at.isoformat()
    text = "; ".join(" ".join(str(m.get(k) or "") for k in ("kind", "at", "location")).strip() for m in meetings)
    return (len(meetings), *first.values(), text or None)


def _date_and_text(value: Any) -> tuple[str | None, str | None]:
    day = parse_date(value)
    return (None if day is None else day.isoformat()), published_text(value)


def _amount_and_text(value: Any) -> tuple[int | None, str | None]:
    return amount_cents(value), published_text(value)


def events(insolvency: Any) -> pd.DataFrame:
    """The events of one or more proceedings, oldest first, with their details flattened.

    Parameters
    ----------
    insolvency : record, dict, or many of them
        ``InsolvencyRecord`` or proceeding dicts with ``events``.

    Returns
    -------
    pandas.DataFrame
        Per proceeding in input order, its events by ``published_at`` (same-day events in payload order):

        ===========================  ===================  ==========================================
        insolvency_id                str                  the proceeding
        position                     int64                0 for its oldest event
        id                           str                  the event
        event_type                   category             e.g. proceedings_opened
        report_type                  category             publication category
        published_at                 datetime64[us]
        decision_date                datetime64[us]       NaT where null
        effective_at                 datetime64[us, UTC]  NaT where null
        summary                      str
        insolvency_grounds           str                  and ``ground_*`` (boolean), from ``details``
        administrator_name           str                  ``details`` members, NaN / <NA> where null
        administrator_address        str
        claims_filing_deadline       datetime64[us]       parsed from the published text (see below)
        ``*_text`` (four columns)    str                  what was published: ``claims_filing_deadline_text``,
                                                          ``closed_at_text``, ``distribution_available_text``,
                                                          ``distribution_claims_total_text``
        closed_at                    datetime64[us]       parsed
        discharge_granted            boolean
        distribution_available       Float64              EUR, parsed, exact from integer cents
        distribution_claims_total    Float64              EUR, parsed, exact from integer cents
        meeting_count                int64                creditors' meetings announced
        report_meeting_at            datetime64[us, UTC]  first meeting of that kind (parsed ``at``)
        examination_meeting_at       datetime64[us, UTC]
        meetings                     str                  every meeting: ``kind at location; ...`` as published
        ===========================  ===================  ==========================================

        ``details`` hold text extracted from the publication in no fixed format. The two dates and two
        amounts are parsed by :mod:`regkit.frames.published` (``"14.102,57 EUR"``, ``"14102.57"``,
        ``"01.03.2024"``, ``"2024-03-01"``, ... ; a number as sent by older servers is taken as is); each
        is followed by a ``*_text`` column with the value as published (numbers in their JSON spelling), so
        a value that could not be parsed is null but never lost. Parsing never raises. Meeting times that
        cannot be parsed leave ``*_meeting_at`` null (``meetings`` keeps their text).

    Examples
    --------
    >>> frame = events({"id": "p1", "events": [{"id": "e1", "event_type": "distribution_announced",
    ...     "report_type": "distribution_lists", "published_at": "2024-03-01", "decision_date": None,
    ...     "effective_at": None, "summary": "…", "details": {"insolvency_grounds": [], "meetings": [],
    ...     "administrator_name": None, "administrator_address": None, "claims_filing_deadline": None,
    ...     "closed_at": "01.03.2024", "discharge_granted": None, "distribution_available": "14.102,57 EUR",
    ...     "distribution_claims_total": "rund 2 Mio."}}]})
    >>> frame[["distribution_available", "distribution_available_text", "closed_at", "closed_at_text"]]
       distribution_available distribution_available_text  closed_at closed_at_text
    0                14102.57               14.102,57 EUR 2024-03-01     01.03.2024
    >>> frame[["distribution_claims_total", "distribution_claims_total_text"]]
       distribution_claims_total distribution_claims_total_text
    0                       <NA>                    rund 2 Mio.
    """
    rows = []
    with required("an insolvency event"):
        for p in _proceeding_list(insolvency):
            ordered = sorted(p["events"], key=lambda e: (e["published_at"] is None, e["published_at"] or ""))
            for position, e in enumerate(ordered):
                d = e["details"]
                rows.append(
                    (
                        p["id"],
                        position,
                        e["id"],
                        e["event_type"],
                        e["report_type"],
                        e["published_at"],
                        e["decision_date"],
                        e["effective_at"],
                        e["summary"],
                        *_grounds(d["insolvency_grounds"]),
                        d["administrator_name"],
                        d["administrator_address"],
                        *_date_and_text(d["claims_filing_deadline"]),
                        *_date_and_text(d["closed_at"]),
                        parse_flag(d["discharge_granted"]),
                        *_amount_and_text(d["distribution_available"]),
                        *_amount_and_text(d["distribution_claims_total"]),
                        *_meetings(d["meetings"] or []),
                    )
                )
    return build_frame(rows_to_columns(rows, EVENT_SPEC), EVENT_SPEC)
