"""Owners, holdings and persons: one paid lookup each, cached like a company, and what such a lookup would cost.

A company's record names its shareholders but never its subsidiaries; :meth:`~regkit.client.Client.get_holdings` is the
downward edge (the companies a company holds shares in, current and past), :meth:`~regkit.client.Client.get_owners` the
upward one (the current owners, with shares).  Persons are found by their UUID — the ``id`` of their
``representation`` entries and owner entries — or by :meth:`~regkit.client.Client.search_persons`.

:data:`LOOKUPS` names the endpoints ``Client.is_cached(id, endpoint=...)`` and
``Client.estimate_cost(ids, endpoint=...)`` answer for, so that a crawl can ask, before it pays, what a level of
company, owners, holdings and person calls would cost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from urllib.parse import quote

from regkit.errors import ValidationError
from regkit.schema.interface import PRICES

from . import contact, validation
from .financials import financials_op
from .ownership import ownership_history_op, ubos_op
from .transport.operation import Operation

__all__ = ["Lookup", "LOOKUPS", "COMPANY_HINTS", "lookup", "lookup_op", "company_op", "owners_op"]

_OWNERS_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company is an AG, SE or KGaA, whose "
    "shareholders the register does not list: get_owners(id, best_available=True) returns those known from filed "
    "documents",
    402: "not enough credits: see client.get_credits()",
}
_PERSON_HINTS = {
    404: "no credits were spent; check the person id where you found it (representation[].id, an owner's id, a "
    "person search result)",
    402: "not enough credits: see client.get_credits()",
}
COMPANY_HINTS = {
    404: "no credits were spent; check the id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}


@dataclass(frozen=True)
class Lookup:
    """One lookup endpoint: how its id is checked, its price keys, and whether it has a realtime variant.

    Attributes
    ----------
    check : callable
        Validates and normalises the id (``validation.validate_company_id`` or ``validation.person_id``).
    price : str
        Key of :data:`regkit.schema.interface.PRICES`.
    realtime_price : str or None
        Key of the realtime variant; ``None``: the endpoint has none.
    """

    check: Callable[[Any], str]
    price: str
    realtime_price: str | None = None

    def price_of(self, realtime: bool) -> int:
        """Credits of one lookup."""
        return PRICES[self.realtime_price if realtime and self.realtime_price else self.price]


LOOKUPS: Mapping[str, Lookup] = MappingProxyType(
    {
        "company": Lookup(validation.validate_company_id, "company", "company_realtime"),
        "owners": Lookup(validation.validate_company_id, "owners", "owners_realtime"),
        "holdings": Lookup(validation.validate_company_id, "holdings"),
        "person": Lookup(validation.person_id, "person"),
        "person_holdings": Lookup(validation.person_id, "person_holdings"),
        "ubos": Lookup(validation.validate_company_id, "ubos"),
        "owners_historical": Lookup(validation.validate_company_id, "owners_historical"),
        "financials": Lookup(validation.validate_company_id, "financials"),
        "contact": Lookup(validation.validate_company_id, "contact"),
        "website": Lookup(contact.website, "website_lookup"),
    }
)
"""The endpoints of ``Client.is_cached`` / ``Client.estimate_cost``: ``get_company``, ``get_owners``,
``get_holdings``, ``get_person``, ``get_person_holdings``, ``get_ubos`` (``"ubos"``),
``get_ownership_history`` (``"owners_historical"``), ``get_financials`` (``"financials"``), ``get_contact``
(``"contact"``) and ``get_company_by_website`` (``"website"``: the identifiers are website URLs)."""


def lookup(endpoint: Any, realtime: bool) -> Lookup:
    """The :class:`Lookup` of ``endpoint``; ``ValidationError`` for an unknown one or a realtime it lacks."""
    if endpoint not in LOOKUPS:
        raise ValidationError(
            f"endpoint must be one of {', '.join(map(repr, LOOKUPS))}, not {endpoint!r}",
            suggestion="e.g. endpoint='holdings' for get_holdings; nothing was sent",
        )
    found = LOOKUPS[endpoint]
    if realtime and found.realtime_price is None:
        raise ValidationError(
            f"endpoint {endpoint!r} has no realtime variant",
            suggestion="realtime=True applies to 'company' and 'owners' only",
        )
    return found


def _flags(**flags: bool) -> tuple[tuple[str, str], ...]:
    return tuple((name, "true") for name, on in flags.items() if on)


def company_op(company_id: str, realtime: bool, export: bool) -> Operation:
    """The operation of ``get_company`` for a checked ``company_id`` (nothing is sent)."""
    price = PRICES["company_realtime" if realtime else "company"]
    return Operation(
        "get_company",
        "GET",
        f"/v1/company/{quote(company_id)}",
        params=_flags(realtime=realtime, export=export),
        price=price,
        hints=COMPANY_HINTS,
    )


def owners_op(company_id: str, realtime: bool, best_available: bool, export: bool) -> Operation:
    """The operation of ``get_owners`` for a checked ``company_id`` (nothing is sent)."""
    params = _flags(realtime=realtime, export=export, best_available=best_available)
    return Operation(
        "get_owners",
        "GET",
        f"/v1/company/{quote(company_id)}/owners",
        params=params,
        price=LOOKUPS["owners"].price_of(realtime),
        hints=_OWNERS_HINTS,
    )


def lookup_op(endpoint: Any, identifier: Any, realtime: bool, best_available: bool = False) -> Operation:
    """The operation of one lookup of :data:`LOOKUPS` (arguments checked; nothing is sent).

    Raises
    ------
    ValidationError
        An unknown ``endpoint``, a malformed ``identifier``, ``realtime`` for an endpoint without it, or
        ``best_available`` for another endpoint than ``"owners"``.
    """
    found = lookup(endpoint, realtime)
    if best_available and endpoint != "owners":
        raise ValidationError(
            f"best_available applies to endpoint='owners' only, not {endpoint!r}",
            suggestion="leave best_available out, or ask with endpoint='owners'",
        )
    ident = found.check(identifier)
    if endpoint == "contact":
        return contact.contact_op(ident)
    if endpoint == "website":
        return contact.website_op(ident)
    if endpoint == "company":
        return company_op(ident, realtime, False)
    if endpoint == "owners":
        return owners_op(ident, realtime, best_available, False)
    if endpoint == "ubos":
        return ubos_op(ident)
    if endpoint == "owners_historical":
        return ownership_history_op(ident)
    if endpoint == "financials":
        return financials_op(ident)
    path = {
        "holdings": f"/v1/company/{quote(ident)}/holdings",
        "person": f"/v1/person/{quote(ident)}",
        "person_holdings": f"/v1/person/{quote(ident)}/holdings",
    }[endpoint]
    call = {"holdings": "get_holdings", "person": "get_person", "person_holdings": "get_person_holdings"}[endpoint]
    hints = COMPANY_HINTS if endpoint == "holdings" else _PERSON_HINTS
    return Operation(call, "GET", path, price=found.price_of(False), hints=hints)
