"""Owners and holdings: who holds shares in a company, and what a company or person holds, metered.

Both come from the world's shareholdings (``shareholdings.jsonl.gz``, one row per holder, company and period),
so they describe the same shareholdings as the records' ``SHAREHOLDER`` entries (the world's invariant tests
check that). The two answers use the live service's two scales: an owner's ``percentage_share`` is in percent
(5.36 means 5.36 %), a holding's is a fraction (0.5 means 50 %).

The shareholders of an AG, SE or KGaA are not in the register: their owners are a 404 ``owners_not_available``
unless ``best_available`` asks for what filed documents show (then ``best_available`` is true in the answer).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .companies import find_company
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext
    from .world_day import WorldDay

__all__ = ["NOT_IN_REGISTER", "get_owners", "get_holdings", "holdings_of", "owners_of"]

#: Legal forms whose shareholders the register does not list.
NOT_IN_REGISTER = frozenset({"ag", "se", "kgaa"})


def _percent(share: float) -> float:
    return round(float(share) * 100, 4)


def _owner(day: WorldDay, row: Mapping[str, Any]) -> dict[str, Any]:
    """One owner as the live service shows it."""
    owner: dict[str, Any] = {
        "id": row.get("holder_id"),
        "name": row["holder_name"],
        "type": row["holder_type"],
        "relation_type": row["relation_type"],
        "nominal_share": day.nominal_share(row),
        "percentage_share": _percent(row["share"]),
        "start": row.get("start"),
        "legal_person": None,
        "natural_person": None,
    }
    if row["holder_type"] == "legal_person":
        company = day.companies.get(row.get("holder_id") or "")
        address = (company or {}).get("address") or {}
        owner["legal_person"] = {"name": row["holder_name"], "city": address.get("city"), "country": "DE"}
    else:
        person = row.get("holder_details") or day.catalog.persons.get(row.get("holder_id") or "", {})
        first, last = person.get("first_name"), person.get("last_name")
        if not (first and last):
            first, _, last = str(row["holder_name"]).rpartition(" ")
        owner["natural_person"] = {
            "first_name": first,
            "last_name": last,
            "full_name": row["holder_name"],
            "city": person.get("city"),
            "country": "DE",
            "date_of_birth": person.get("date_of_birth"),
        }
    return owner


def get_owners(
    context: RegisterContext,
    user: User,
    company_id: str,
    *,
    realtime: bool,
    export: bool,
    best_available: bool,
    base_url: str,
) -> Charged[dict[str, Any]]:
    """The current owners of a well-formed company id, largest share first; 10 credits, 20 with ``realtime``.

    Raises
    ------
    ApiError
        404 ``company_not_found``; 404 ``owners_not_available`` for an AG, SE or KGaA without
        ``best_available``.
    """
    record = find_company(context, company_id, realtime=realtime)
    from_documents = record["legal_form"] in NOT_IN_REGISTER
    if from_documents and not best_available:
        raise ApiError(
            "owners_not_available",
            f"The register does not list the shareholders of {record['id']} (legal form "
            f"{record['legal_form']}); ask with best_available=true for the owners known from filed documents.",
        )
    owners = owners_of(context.world_day(), record["id"])
    lists = [d for d in record.get("documents", ()) if d["type"] == "shareholder_list"]
    sources = [] if export else [{"document_url": context.signer.url(base_url, d["id"])} for d in lists]
    body = {"company_id": record["id"], "best_available": from_documents, "owners": owners, "sources": sources}
    if realtime and context.config.realtime_latency:
        time.sleep(context.config.realtime_latency)
    charged = spend(context, user, PRICES["owners_realtime" if realtime else "owners"])
    return Charged(body, charged.credits, charged.remaining)


def owners_of(day: WorldDay, company_id: str) -> list[dict[str, Any]]:
    """The current owners of the company ``company_id`` (its id on ``day``) as ``owners`` lists them: largest
    share first, then by name and id."""
    owners = [_owner(day, r) for r in day.shareholdings(company_id) if r.get("end") is None]
    owners.sort(key=lambda o: (-o["percentage_share"], o["name"], o["id"] or ""))
    return owners


def holdings_of(day: WorldDay, holder_id: str) -> list[dict[str, Any]]:
    """What ``holder_id`` holds and held on ``day``: current holdings first, then by start date and company id."""
    companies = day.companies
    holdings = [
        {
            "company_id": row["company_id"],
            "name": companies[row["company_id"]]["name"]["name"],
            "relation_type": row["relation_type"],
            "nominal_share": day.nominal_share(row),
            "percentage_share": float(row["share"]),
            "start": row.get("start"),
            "end": row.get("end"),
        }
        for row in day.holdings(holder_id)
    ]
    holdings.sort(key=lambda h: (h["end"] is not None, h["start"] or "", h["company_id"], h["end"] or ""))
    return holdings


def get_holdings(context: RegisterContext, user: User, company_id: str) -> Charged[dict[str, Any]]:
    """The companies a well-formed company id holds or held shares in (past ones with ``end``); 10 credits.

    Raises
    ------
    ApiError
        404 ``company_not_found``.
    """
    record = find_company(context, company_id)
    body = {"company_id": record["id"], "holdings": holdings_of(context.world_day(), record["id"])}
    charged = spend(context, user, PRICES["holdings"])
    return Charged(body, charged.credits, charged.remaining)
