"""Hypothesis strategies for valid CompanyV1 payloads (``spec/service-interface.md``).

Members the interface marks *optional* are sometimes absent, *nullable* ones sometimes null, arrays
sometimes empty, and histories range from none to dozens of versions — unsorted, with repeated start dates,
and with a current member that may be the newest entry, another entry, one not in the history at all, or
null where the interface allows it. Amounts stay within the interface's types: capital a finite double,
indicators int64 cents (within the range where EUR floats are exact, see ``regkit.frames.money``; the
conversion's behaviour beyond it is tested separately).
"""

from __future__ import annotations

import datetime as dt
import string
from typing import Any

from hypothesis import strategies as st

from regkit.frames.financials import MEASURES
from regkit.frames.money import MAX_EXACT_CENTS
from regkit.schema import (
    ADMINISTRATION_KINDS,
    COMPANY_STATUSES,
    CURRENCIES,
    DOCUMENT_TYPES,
    ENTITY_TYPES,
    INSOLVENCY_STATUSES,
    LEGAL_FORMS,
    PROCEEDING_KINDS,
    REGISTER_TYPES,
    REPRESENTATION_ROLES,
)

__all__ = ["company_ids", "companies_v1", "dates", "indicator_entries", "cents"]

dates = st.dates(dt.date(1850, 1, 1), dt.date(2035, 12, 31)).map(dt.date.isoformat)
"""ISO dates over a wide range (the interface's ``date``)."""

text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
words = st.text(alphabet=string.ascii_letters + "äöüß -.&", min_size=1, max_size=16)
uuids = st.uuids().map(str)
cents = st.integers(-MAX_EXACT_CENTS, MAX_EXACT_CENTS)
"""int64 cents in the exact range (the extremes are included by Hypothesis' boundary bias)."""


@st.composite
def company_ids(draw: Any) -> str:
    """Well-formed company ids ``DE-<type>-<court>-<number>``."""
    kind = draw(st.sampled_from(REGISTER_TYPES))
    court = draw(st.sampled_from("BDFMPRX")) + draw(st.from_regex(r"\A[0-9]{4}\Z"))
    number = draw(st.integers(1, 999_999))
    suffix = draw(st.sampled_from(["", "B", "HL", "KI"]))
    return f"DE-{kind}-{court}-{number}{suffix}"


def _entry(required: dict[str, Any], optional: dict[str, Any] | None = None) -> st.SearchStrategy:
    return st.fixed_dictionaries(required, optional=optional or {})


def _date_pool(draw: Any) -> st.SearchStrategy[str]:
    """Dates for one history: sometimes from a tiny pool, so that versions share a start date."""
    pool = draw(st.lists(dates, min_size=1, max_size=4))
    return st.one_of(dates, st.sampled_from(pool))


def _entries(field: str, day: st.SearchStrategy[str]) -> st.SearchStrategy:
    if field == "names":
        return _entry({"name": words, "legal_form": st.sampled_from(LEGAL_FORMS), "start_date": day})
    if field == "addresses":
        return _entry(
            {"city": words, "country": words, "start_date": day, "formatted_value": text},
            {"street": words, "postal_code": st.from_regex(r"\A[0-9]{5}\Z"), "extra": text},
        )
    if field == "purposes":
        return _entry({"purpose": text, "start_date": day})
    if field == "capitals":
        amount = st.one_of(st.integers(0, 10**9).map(float), st.floats(0, 1e12, allow_nan=False, allow_infinity=False))
        return _entry({"amount": amount, "currency": st.sampled_from(CURRENCIES), "start_date": day})
    return _entry(
        {"register_number": words, "register_type": st.sampled_from(REGISTER_TYPES), "register_court": words},
        {"company_id": company_ids(), "start_date": day},
    )


@st.composite
def _history(draw: Any, field: str, nullable: bool, max_size: int) -> tuple[list, Any]:
    day = _date_pool(draw)
    entries = draw(st.lists(_entries(field, day), max_size=max_size))
    choices = ["independent"] + (["null"] if nullable else [])
    if entries:
        choices += ["newest", "last", "any"]
    how = draw(st.sampled_from(choices))
    if how == "null":
        current = None
    elif how == "independent":
        current = draw(_entries(field, day))
    elif how == "newest":
        current = max(entries, key=lambda e: e.get("start_date") or "")
    elif how == "last":
        current = entries[-1]
    else:
        current = draw(st.sampled_from(entries))
    return entries, current


@st.composite
def _role(draw: Any) -> dict[str, Any]:
    start = draw(dates)
    end = draw(st.one_of(st.none(), dates, dates.filter(lambda d: d > start)))
    kind = draw(st.sampled_from(ENTITY_TYPES))
    role = {
        "id": draw(st.one_of(st.none(), uuids, company_ids())),
        "name": draw(words),
        "type": kind,
        "role": draw(st.sampled_from(REPRESENTATION_ROLES)),
        "start_date": start,
        "end_date": end,
        "authority": draw(st.one_of(st.none(), text)),
    }
    natural = _entry(
        {
            "city": st.none() | words,
            "first_name": st.none() | words,
            "last_name": st.none() | words,
            "date_of_birth": st.none() | dates,
        }
    )
    legal = _entry({"name": words, "city": st.none() | words, "country": st.sampled_from(["DE", "AT", "NL", "US"])})
    role.update(
        draw(
            st.fixed_dictionaries(
                {}, optional={"natural_person": st.none() | natural, "legal_person": st.none() | legal}
            )
        )
    )
    return role


def indicator_entries(day: st.SearchStrategy[str] = dates) -> st.SearchStrategy:
    """CompanyIndicatorSummary objects (all members present, monetary ones nullable int64 cents)."""
    members = {m: st.none() | cents for m in MEASURES}
    return _entry({"date": day, "report_id": uuids, **members, "employees": st.none() | st.integers(0, 10**6)})


def _link() -> st.SearchStrategy:
    return _entry(
        {"company_id": company_ids(), "name": words, "registration_date": dates, "agreement_date": st.none() | dates}
    )


_summary = _entry(
    {"id": uuids, "current_status": st.sampled_from(INSOLVENCY_STATUSES), "court": words, "case_number": words},
    {
        "proceeding_kind": st.none() | st.sampled_from(PROCEEDING_KINDS),
        "administration_kind": st.none() | st.sampled_from(ADMINISTRATION_KINDS),
        "opened_at": st.none() | dates,
        "closed_at": st.none() | dates,
    },
)
_social = st.fixed_dictionaries(
    {},
    optional={
        k: words for k in ("linkedin", "instagram", "github", "twitter", "facebook", "youtube", "xing", "tiktok")
    },
)
_contact = _entry({"website_url": words, "social_media": _social}, {"email": words, "phone": words, "vat_id": words})


@st.composite
def companies_v1(draw: Any, max_versions: int = 6) -> dict[str, Any]:
    """A valid CompanyV1 payload (without ``sources``, as ``export=true`` returns it).

    Parameters
    ----------
    max_versions : int
        Largest number of entries per history and array (use ~40 for "dozens").
    """
    company: dict[str, Any] = {"id": draw(company_ids())}
    for field, current, nullable in (
        ("registers", "register", False),
        ("names", "name", False),
        ("addresses", "address", False),
        ("purposes", "purpose", True),
        ("capitals", "capital", True),
    ):
        entries, value = draw(_history(field, nullable, max_versions))
        company[field], company[current] = entries, value
    report_day = _date_pool(draw)
    company.update(
        {
            "status": draw(st.sampled_from(COMPANY_STATUSES)),
            "representation": draw(st.lists(_role(), max_size=max_versions)),
            "representation_rule": draw(st.none() | text),
            "indicators": draw(st.lists(indicator_entries(report_day), max_size=max_versions)),
            "legal_form": draw(st.sampled_from(LEGAL_FORMS)),
            "documents": draw(
                st.lists(
                    _entry(
                        {"id": uuids, "type": st.sampled_from(DOCUMENT_TYPES), "date": dates, "latest": st.booleans()}
                    ),
                    max_size=max_versions,
                )
            ),
            "incorporated_at": draw(dates),
            "notarized_at": draw(st.none() | dates),
            "terminated_at": draw(st.none() | dates),
            "merged_into": draw(st.none() | _link()),
            "acquisitions": draw(st.lists(_link(), max_size=max_versions)),
            "asset_spin_offs": draw(st.lists(_link(), max_size=3)),
            "profit_transfer_agreement": draw(st.none() | _link()),
            "industry_codes": {
                "WZ2025": draw(st.lists(_entry({"code": st.from_regex(r"\A[0-9]{2}\.[0-9]{2}\.[0-9]\Z")}), max_size=3))
            },
            "contact": draw(st.none() | _contact),
        }
    )
    company.update(
        draw(
            st.fixed_dictionaries(
                {}, optional={"lei": st.from_regex(r"\A[0-9A-Z]{20}\Z"), "insolvencies": st.lists(_summary, max_size=3)}
            )
        )
    )
    return company
