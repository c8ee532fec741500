"""Ownership over time: the filed shareholder lists of a company and the owners' history across them, metered.

A GmbH, UG or gGmbH files a shareholder list (§ 40 GmbHG) at its incorporation and at every change of its
shareholders, their shares, its name or its capital (the world's ``filings`` stage). The content of a list is
the company's shareholdings rows in force on the list's date (``start <= date < end``) — so the newest list of an
existing company shows exactly its current owners of ``GET …/owners``. :func:`shareholder_lists` gives every
list's content (what the shareholder-list PDF prints); :func:`get_historical_owners` answers
``GET /v1/company/{id}/owners/historical`` from the same lists.

Amounts: a holder's nominal amount is its fraction of the capital in force on the list's date, in integer cents
of EUR (a DEM capital converted at the fixed rate), allotted by largest remainder so that the amounts of one list
add up to the capital to the cent. Percentages are the fractions in percent, rounded to four places.

A company that has filed no shareholder list (every legal form but GmbH, UG and gGmbH: the register keeps no
list of an AG's stockholders, and a partnership's partners are register entries, ``GET …/owners``) answers a 404
``owners_not_available``, before any credit is spent.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import DEM_PER_EUR, PRICES

from ..exceptions import ApiError
from .companies import find_company
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["entity_type", "shareholder_lists", "shareholder_list", "historical_owners", "get_historical_owners"]

_ENTITY_BY_FORM = {"foreign": "foreign_company", "municipal": "german_government_entity"}


def entity_type(context: RegisterContext, row: Mapping[str, Any]) -> str:
    """The owner's ``entity_type`` of a shareholdings row: ``natural_person``, or by the holding company's legal
    form ``foreign_company`` (a foreign company's branch), ``german_government_entity`` (a municipal
    enterprise) or ``german_company``."""
    if row["holder_type"] == "natural_person":
        return "natural_person"
    holder = context.world_day().companies.get(row.get("holder_id") or "")
    if holder is None:
        return "foreign_company"
    return _ENTITY_BY_FORM.get(holder["legal_form"], "german_company")


def _capital_cents(company: Mapping[str, Any], day: str) -> int:
    """The registered capital in force on ``day`` in EUR cents (the first one before it was registered)."""
    capitals = sorted(company.get("capitals") or (), key=lambda c: c["start_date"])
    if not capitals:
        raise ValueError(f"{company['id']} files shareholder lists but has no capital")
    capital = capitals[0]
    for entry in capitals:
        if entry["start_date"] <= day:
            capital = entry
    amount = Decimal(str(capital["amount"]))
    if capital.get("currency") == "DEM":
        amount /= Decimal(str(DEM_PER_EUR))
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _allot(total: int, shares: list[float]) -> list[int]:
    """``total`` cents split by ``shares`` (fractions adding up to 1), largest remainder first."""
    exact = [Decimal(str(s)) * total for s in shares]
    floors = [int(e) for e in exact]
    rest = total - sum(floors)
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[: max(rest, 0)]:
        floors[i] += 1
    return floors


def _holder(context: RegisterContext, row: Mapping[str, Any]) -> dict[str, Any]:
    """What a shareholder list says of a holder (GesLV): name, and date of birth and residence, or seat and
    register."""
    kind = entity_type(context, row)
    holder: dict[str, Any] = {
        "id": row.get("holder_id") or "",
        "name": row["holder_name"],
        "entity_type": kind,
        "country": "DE" if kind != "foreign_company" else None,
    }
    if kind == "natural_person":
        person = row.get("holder_details") or context.catalog.persons.get(row.get("holder_id") or "", {})
        holder.update(date_of_birth=person.get("date_of_birth"), city=person.get("city"), register=None)
    else:
        company = context.world_day().companies.get(row.get("holder_id") or "") or {}
        register = company.get("register") or {}
        holder.update(
            date_of_birth=None,
            city=(company.get("address") or {}).get("city"),
            register=(
                f"{register['register_court']} {register['register_type']} {register['register_number']}"
                if register
                else None
            ),
        )
    return holder


def shareholder_lists(context: RegisterContext, company_id: str) -> list[dict[str, Any]]:
    """The content of every shareholder list ``company_id`` has filed, oldest first.

    Each list is ``{document_id, date, latest, capital (EUR cents), holders}``; each holder ``{position, id,
    name, entity_type, country, date_of_birth, city, register, nominal_shares (EUR cents), percentage_shares,
    share}`` (``share`` the fraction), largest holding first. ``id`` is a person's UUID or a company's id.
    An empty list when the company has filed none; 404 ``company_not_found`` for an unknown id.
    """
    company = find_company(context, company_id)
    documents = sorted(
        (d for d in company.get("documents", ()) if d["type"] == "shareholder_list"), key=lambda d: (d["date"], d["id"])
    )
    rows = context.world_day().shareholdings(company["id"])
    lists = []
    for document in documents:
        day = document["date"]
        held = [
            r
            for r in rows
            if float(r["share"]) > 0 and (r.get("start") or "") <= day and (r.get("end") is None or r["end"] > day)
        ]
        held.sort(key=lambda r: (-float(r["share"]), r["holder_name"], r.get("holder_id") or ""))
        capital = _capital_cents(company, day)
        cents = _allot(capital, [float(r["share"]) for r in held])
        holders = [
            {
                "position": position,
                **_holder(context, row),
                "nominal_shares": amount,
                "percentage_shares": round(float(row["share"]) * 100, 4),
                "share": float(row["share"]),
            }
            for position, (row, amount) in enumerate(zip(held, cents, strict=True), start=1)
        ]
        lists.append(
            {
                "document_id": document["id"],
                "date": day,
                "latest": bool(document.get("latest")),
                "capital": capital,
                "holders": holders,
            }
        )
    return lists


def shareholder_list(context: RegisterContext, document_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``(company record, list content)`` of the shareholder list ``document_id`` (as :func:`shareholder_lists`
    gives it), or ``None`` when no company lists a shareholder list of that id."""
    found = context.world_day().document(document_id)
    if found is None or found[1]["type"] != "shareholder_list":
        return None
    company = find_company(context, found[0])
    content = next(filed for filed in shareholder_lists(context, company["id"]) if filed["document_id"] == document_id)
    return company, content


def historical_owners(context: RegisterContext, company_id: str) -> list[dict[str, Any]]:
    """The ``owners`` of the ownership history of a company that has filed shareholder lists (see the module)."""
    company = find_company(context, company_id)
    lists = shareholder_lists(context, company["id"])
    current = (
        set()
        if company.get("status") == "inactive" or not lists
        else {(h["id"], h["name"]) for h in lists[-1]["holders"]}
    )
    owners: dict[tuple[str, str], dict[str, Any]] = {}
    for filed in lists:
        for holder in filed["holders"]:
            key = (holder["id"], holder["name"])
            owner = owners.setdefault(
                key,
                {
                    "id": holder["id"],
                    "name": holder["name"],
                    "entity_type": holder["entity_type"],
                    "country": holder["country"],
                    "status": "active" if key in current else "removed",
                    "first_appearance": filed["date"],
                    "last_appearance": None,
                    "ownership_history": [],
                },
            )
            owner["ownership_history"].append(
                {
                    "document_id": filed["document_id"],
                    "document_date": filed["date"],
                    "nominal_shares": holder["nominal_shares"],
                    "percentage_shares": holder["percentage_shares"],
                }
            )
            if owner["status"] == "removed":
                owner["last_appearance"] = filed["date"]
    return sorted(
        owners.values(),
        key=lambda o: (
            o["status"] != "active",
            -o["ownership_history"][-1]["percentage_shares"],
            o["first_appearance"],
            o["name"],
            o["id"],
        ),
    )


def get_historical_owners(context: RegisterContext, user: User, company_id: str) -> Charged[dict[str, Any]]:
    """How the owners of a well-formed company id changed, one entry per filed shareholder list; 10 credits.

    Raises
    ------
    ApiError
        404 ``company_not_found``; 404 ``owners_not_available`` for a company that has filed no shareholder
        list (nothing is charged for either).
    """
    company = find_company(context, company_id)
    if not any(d["type"] == "shareholder_list" for d in company.get("documents", ())):
        raise ApiError(
            "owners_not_available",
            f"{company['id']} (legal form {company['legal_form']}) has filed no shareholder list, so its ownership "
            "history is not known (only a GmbH, UG or gGmbH files them); ask "
            f"GET /v1/company/{company['id']}/owners for the owners the register lists now.",
        )
    body = {"owners": historical_owners(context, company["id"])}
    charged = spend(context, user, PRICES["owners_historical"])
    return Charged(body, charged.credits, charged.remaining)
