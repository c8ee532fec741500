"""Insolvency proceedings: what a search page and a proceeding send (the methods are on :class:`~regkit.client.Client`).

Every search request costs 10 credits whatever its page size; how ``search_all_insolvencies`` pages and
checks the budget is said in :mod:`regkit.client.paging`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from regkit.schema.interface import PRICES

from . import validation
from .transport.operation import Operation

__all__ = ["search_op", "insolvency_op"]


def search_op(query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
    """The operation of one insolvency search page (arguments checked; nothing is sent).

    Raises
    ------
    ValidationError
        A malformed query, filter or page.
    """
    body: dict[str, Any] = {}
    if (text := validation.query(query)) is not None:
        body["query"] = text
    if normalised := validation.filters(filters):
        body["filters"] = normalised
    body["pagination"] = validation.pagination(page, per_page)
    return Operation(
        "search_insolvencies", "POST", "/v1/search/insolvency", body=body, price=PRICES["insolvency_search"]
    )


def insolvency_op(insolvency_id: Any) -> Operation:
    """The operation of ``get_insolvency`` (the id checked; nothing is sent)."""
    path = f"/v1/insolvency/{quote(validation.insolvency_id(insolvency_id))}"
    return Operation("get_insolvency", "GET", path, price=PRICES["insolvency_detail"])
