"""Contact data and the lookup by website: a company's published contact, and the company behind a website.

Both answer from the record's ``contact`` (world stage ``contact``: ``website_url``, ``email``, ``phone``,
``vat_id``), which about half of the active companies publish. A company without a website has no contact
(404 ``contact_not_available``). The lookup compares hosts as :func:`regkit.schema.websites.website_host` does
(no scheme, ``www.``, case, port or path). A few companies of the world share a website (same name, two
courts): the lookup answers the one with the smallest company id **(ours)**.

The host → company lookup is a table of the world's store (``catalog.websites``), read one host at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .companies import find_company
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext
    from .catalog import Catalog

__all__ = ["get_contact", "lookup_company", "website_index"]


def website_index(catalog: Catalog) -> Mapping[str, str]:
    """Host → company id over the catalog's companies with a website (the store's lookup, read per host)."""
    return catalog.websites


def _contact_of(record: dict[str, Any]) -> dict[str, Any] | None:
    contact = record.get("contact") or {}
    return contact if contact.get("website_url") else None


def get_contact(context: RegisterContext, user: User, company_id: str) -> Charged[dict[str, Any]]:
    """The contact data a well-formed company id publishes; 10 credits.

    Raises
    ------
    ApiError
        404 ``company_not_found``; 404 ``contact_not_available`` when the company publishes no website.
        Neither spends credits.
    """
    record = find_company(context, company_id)
    contact = _contact_of(record)
    if contact is None:
        raise ApiError(
            "contact_not_available",
            f"{record['id']} publishes no website, so it has no contact data; nothing was charged.",
        )
    body = {
        "source_url": contact["website_url"],
        "email": contact.get("email"),
        "phone": contact.get("phone"),
        "vat_id": contact.get("vat_id"),
    }
    charged = spend(context, user, PRICES["contact"])
    return Charged(body, charged.credits, charged.remaining)


def lookup_company(context: RegisterContext, user: User, host: str) -> Charged[dict[str, Any]]:
    """The company whose website has ``host`` (as :func:`~regkit.schema.websites.website_host` gives it),
    with its contact data; 10 credits.

    Raises
    ------
    ApiError
        404 ``company_not_found`` when no company publishes that website (no credits spent).
    """
    company_id = website_index(context.catalog).get(host)
    if company_id is None:
        raise ApiError(
            "company_not_found",
            f"No company publishes the website {host}; check the address, or search by name with "
            "POST /v1/search/company. Nothing was charged.",
        )
    day = context.world_day()
    company_id = day.resolve(company_id)  # it may have moved to another court's district since the world's date
    contact = _contact_of(day.companies[company_id]) or {}
    body = {
        "company_id": company_id,
        "email": contact.get("email"),
        "phone": contact.get("phone"),
        "vat_id": contact.get("vat_id"),
    }
    charged = spend(context, user, PRICES["website_lookup"])
    return Charged(body, charged.credits, charged.remaining)
