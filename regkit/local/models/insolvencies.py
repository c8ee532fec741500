"""Insolvency proceedings: a page of search results and one proceeding's details, 10 credits each.

A search that fails is charged nothing; the charge is made after the page is ready, and not at all when
the client has gone by then (nobody receives the answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from ..search.query import SearchRequest
from .credits import Charged, charged_page, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["SEARCH_ONLY_MEMBERS", "search_insolvency", "get_insolvency", "detail_of"]

#: Proceeding and person ids: UUIDs, in any case.
#: Members of a world proceeding that only the search shows, not the detail endpoint.
SEARCH_ONLY_MEMBERS = frozenset({"city", "person_id", "has_open_insolvency"})


def search_insolvency(
    context: RegisterContext, user: User, search: SearchRequest, *, client_gone: Callable[[], bool] = lambda: False
) -> Charged[dict[str, Any]]:
    """One page of proceedings matching a validated search, newest last event first.

    ``client_gone`` is asked once the page is ready: when it says the client has disconnected, nothing is
    charged.
    """
    results, total = context.world_day().insolvency_index.search(search)
    return charged_page(context, user, results, total, search.page, search.per_page, "insolvency_search", client_gone)


def get_insolvency(context: RegisterContext, user: User, insolvency_id: str) -> Charged[dict[str, Any]]:
    """One proceeding (by a well-formed id, any case) with all its events, oldest first."""
    proceeding = context.world_day().insolvency(insolvency_id.lower())
    if proceeding is None:
        raise ApiError("insolvency_not_found", f"No proceeding has the id {insolvency_id}.")
    detail = detail_of(proceeding)
    charged = spend(context, user, PRICES["insolvency_detail"])
    return Charged(detail, charged.credits, charged.remaining)


def detail_of(proceeding: dict[str, Any]) -> dict[str, Any]:
    """The ``GET /v1/insolvency/{id}`` body of a world proceeding.

    The search-only members are left out, and ``insolvency_grounds`` is always an array here (empty when no
    ground was published), while a search result shows unknown grounds as null: the live service's client
    requires the array on this endpoint and allows null only in search results.
    """
    body = {k: v for k, v in proceeding.items() if k not in SEARCH_ONLY_MEMBERS}
    if body.get("insolvency_grounds") is None:
        body["insolvency_grounds"] = []
    return body
