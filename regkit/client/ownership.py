"""Beneficial owners and ownership over time: the operations of ``Client.get_ubos`` and
``Client.get_ownership_history``.

Both are paid lookups of one company (10 credits each), cached like owners and holdings (the ``ownership``
lifetime of :class:`~regkit.client.policy.CachePolicy`), and named in
:data:`regkit.client.research_lookups.LOOKUPS` as ``"ubos"`` and ``"owners_historical"``, so that
``Client.is_cached`` and ``Client.estimate_cost`` answer for them before anything is paid.
"""

from __future__ import annotations

from urllib.parse import quote

from regkit.schema.interface import PRICES

from .transport.operation import Operation

__all__ = ["UBOS_HINTS", "HISTORY_HINTS", "ubos_op", "ownership_history_op"]

UBOS_HINTS = {
    404: "no credits were spent; check the company id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}
HISTORY_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company has filed no shareholder list "
    "(only a GmbH, UG or gGmbH files them): client.get_owners(id) gives the owners the register lists now",
    402: "not enough credits: see client.get_credits()",
}


def ubos_op(company_id: str) -> Operation:
    """The operation of ``get_ubos`` for a checked ``company_id`` (nothing is sent)."""
    return Operation("get_ubos", "GET", f"/v1/company/{quote(company_id)}/ubo", price=PRICES["ubos"], hints=UBOS_HINTS)


def ownership_history_op(company_id: str) -> Operation:
    """The operation of ``get_ownership_history`` for a checked ``company_id`` (nothing is sent)."""
    return Operation(
        "get_ownership_history",
        "GET",
        f"/v1/company/{quote(company_id)}/owners/historical",
        price=PRICES["owners_historical"],
        hints=HISTORY_HINTS,
    )
