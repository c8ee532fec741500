"""Shared helpers of the Parquet export tests: a cache filled through the local register, and the frames an export
must equal, built from the client's own records with the frames builders.

Import as ``from export_support import ...`` (pytest puts the test's directory on ``sys.path``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

import regkit.frames as rf

__all__ = ["API_KEY", "Fetched", "TABLE_NAMES", "pick_ids", "fill_cache", "expected_tables"]

#: The key the tests' clients send (a documented demo key of the local register).
API_KEY = "demo-paid"

#: Every data table of an export, the versions and their changes, and ``sources``.
TABLE_NAMES = (
    "companies",
    "names",
    "addresses",
    "purposes",
    "capitals",
    "registers",
    "representatives",
    "indicators",
    "links",
    "documents",
    "industry_codes",
    "contact",
    "insolvency_summaries",
    "owners",
    "holdings",
    "persons",
    "management_positions",
    "proceedings",
    "events",
    "insolvency_results",
    "company_search_results",
    "person_search_results",
    "versions",
    "changes",
    "sources",
)


def _first(companies: Iterable[dict[str, Any]], test: Any) -> dict[str, Any]:
    return next(c for c in companies if test(c))


def pick_ids(world: Any) -> dict[str, Any]:
    """Ids of the bundled world with what the export must carry: a merger (both sides), a profit-transfer
    agreement, several names, an insolvency, two reports on one date, a former id, owners (a GmbH's, and an AG's
    best available), a holding company and a person with positions and a holding."""
    companies = sorted(world.companies.values(), key=lambda c: c["id"])
    merged = _first(companies, lambda c: c["merged_into"] is not None)
    insolvent = _first(companies, lambda c: c.get("insolvencies"))
    moved = _first(companies, lambda c: len({r.get("company_id") for r in c["registers"]} - {None}) > 1)
    held = {r["company_id"] for r in world.shareholdings if r["end"] is None}
    holders = sorted(
        {
            r["holder_id"]
            for r in world.shareholdings
            if r["holder_type"] == "legal_person" and r["holder_id"] and r["end"] is None
        }
    )
    directors = {
        e["id"]
        for c in companies
        for e in c["representation"]
        if e["role"] == "DIRECTOR" and e["type"] == "natural_person" and e["id"]
    }
    person = sorted(
        r["holder_id"]
        for r in world.shareholdings
        if r["holder_type"] == "natural_person" and r["holder_id"] in directors
    )[0]
    ids = {
        "merged": merged["id"],
        "acquirer": merged["merged_into"]["company_id"],
        "profit_transfer": _first(companies, lambda c: c["profit_transfer_agreement"] is not None)["id"],
        "names": _first(companies, lambda c: len(c["names"]) >= 3)["id"],
        "insolvent": insolvent["id"],
        "revised": _first(companies, lambda c: len({i["date"] for i in c["indicators"]}) < len(c["indicators"]))["id"],
        "gmbh_owned": _first(companies, lambda c: c["legal_form"] == "gmbh" and c["id"] in held)["id"],
        "ag": _first(companies, lambda c: c["legal_form"] == "ag")["id"],
        "holder": holders[0],
        "person": person,
        "proceedings": [s["id"] for s in insolvent["insolvencies"]][:2],
    }
    former = sorted({r["company_id"] for r in moved["registers"]} - {moved["id"], None})[0]
    ids["moved"], ids["former"] = moved["id"], former
    return ids


@dataclass
class Fetched:
    """What :func:`fill_cache` fetched, in fetch order (records of the client, as a user has them)."""

    companies: list[Any] = field(default_factory=list)
    owners: list[Any] = field(default_factory=list)
    holdings: list[Any] = field(default_factory=list)
    person_holdings: list[Any] = field(default_factory=list)
    persons: list[Any] = field(default_factory=list)
    insolvencies: list[Any] = field(default_factory=list)
    insolvency_pages: list[Any] = field(default_factory=list)
    company_pages: list[Any] = field(default_factory=list)
    person_pages: list[Any] = field(default_factory=list)
    extract_id: str = ""


def fill_cache(client: Any, ids: dict[str, Any]) -> Fetched:
    """Fetch through ``client`` what :func:`pick_ids` chose, some searches, an autocomplete and a sandbox extract
    (the last two must be left out of an export); the same company twice (with ``export=True``) and once by its
    former id, so that the export has to pick one answer per company."""
    fetched = Fetched()
    company_ids = [
        ids[k]
        for k in ("merged", "acquirer", "profit_transfer", "names", "insolvent", "revised", "gmbh_owned", "ag", "moved")
    ]
    fetched.companies.extend(client.get_companies(company_ids, progress=False).ok)
    fetched.companies.append(client.get_company(ids["former"]))
    fetched.companies.append(client.get_company(ids["names"], export=True))
    fetched.owners += [client.get_owners(ids["gmbh_owned"]), client.get_owners(ids["ag"], best_available=True)]
    fetched.holdings.append(client.get_holdings(ids["holder"]))
    fetched.persons.append(client.get_person(ids["person"]))
    fetched.person_holdings.append(client.get_person_holdings(ids["person"]))
    fetched.insolvencies += [client.get_insolvency(i) for i in ids["proceedings"]]
    first = client.search_insolvencies(per_page=5)
    fetched.insolvency_pages += [first, client.search_insolvencies(per_page=5, page=2)]
    fetched.insolvency_pages.append(client.search_insolvencies(first[0]["debtor_name"], per_page=5))  # overlaps
    fetched.company_pages.append(client.search_companies("Holding", per_page=4))
    surname = fetched.persons[0]["last_name"]
    fetched.person_pages.append(client.search_persons(surname, per_page=3))
    client.autocomplete_companies("Hanse")
    fetched.extract_id = client.wait_for_extract(client.order_extract(credential_name="sandbox").id, timeout=30).id
    return fetched


def _by(records: Sequence[Any], member: str) -> list[dict[str, Any]]:
    """One raw answer per ``member`` value, sorted by it (the export's order; duplicates are equal answers)."""
    return [raw for _, raw in sorted({r.raw[member]: r.raw for r in records}.items())]


def _newest_first(pages: Sequence[Any], member: str) -> list[dict[str, Any]]:
    """The results of ``pages`` (fetched oldest first), newest page first, each result once."""
    seen: set[Any] = set()
    out = []
    for page in reversed(pages):
        for result in page:
            if result[member] not in seen:
                seen.add(result[member])
                out.append(result)
    return out


def expected_tables(fetched: Fetched) -> dict[str, pd.DataFrame]:
    """The frames the export's tables must equal, from the client's records by the rules of
    :func:`regkit.frames.export.export_parquet` (one answer per thing, in id order; search results newest first)."""
    companies = _by(fetched.companies, "id")
    persons = _by(fetched.persons, "id")
    proceedings = _by(fetched.insolvencies, "id")
    frames = {
        "companies": rf.companies(companies),
        "representatives": rf.representatives(companies),
        "indicators": rf.indicators(companies),
        "links": rf.links(companies),
        "documents": rf.documents(companies),
        "industry_codes": rf.industry_codes(companies),
        "contact": rf.contact(companies),
        "insolvency_summaries": rf.insolvency_summaries(companies),
        "owners": rf.owners(_by(fetched.owners, "company_id")),
        "holdings": rf.holdings(_by(fetched.holdings, "company_id") + _by(fetched.person_holdings, "person_id")),
        "persons": rf.persons(persons),
        "management_positions": rf.management_positions(persons),
        "proceedings": rf.proceedings(proceedings),
        "events": rf.events(proceedings),
        "insolvency_results": rf.insolvency_results(_newest_first(fetched.insolvency_pages, "id")),
        "company_search_results": rf.company_search_results(_newest_first(fetched.company_pages, "company_id")),
        "person_search_results": rf.person_search_results(_newest_first(fetched.person_pages, "id")),
    }
    for field_ in ("names", "addresses", "purposes", "capitals", "registers"):
        frames[field_] = rf.history(companies, field_)
    return frames
