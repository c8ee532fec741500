"""``POST /v1/search/insolvency`` and ``GET /v1/insolvency/{insolvency_id}`` (10 credits each)."""

from __future__ import annotations

import math
import re
from typing import Any

from flask import Blueprint, request

from regkit.schema.interface import PRICES

from .bodies import read_json_object
from .context import current, spend
from .errors import ApiError, json_response
from .search_request import parse_search_request

__all__ = ["bp", "UUID_PATTERN", "SEARCH_ONLY_MEMBERS", "detail_of", "client_gone"]

bp = Blueprint("insolvencies", __name__)

UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
#: Members of a world proceeding that only the search shows, not the detail endpoint.
SEARCH_ONLY_MEMBERS = frozenset({"city", "person_id", "has_open_insolvency"})


def client_gone() -> bool:
    """Whether the server knows the client of this request has disconnected (waitress tells, when asked to
    look ahead on a connection: ``channel_request_lookahead``); then nothing is charged for the answer.
    """
    check = request.environ.get("waitress.client_disconnected")
    return bool(check is not None and check())


@bp.post("/v1/search/insolvency")
def search_insolvency():
    """One page of proceedings matching the query and filters, newest last event first.

    A body the parser refuses (400, also one past the limits) and a search that fails are charged nothing;
    the charge is made after the page is ready, and not at all when the client has gone by then.
    """
    search = parse_search_request(read_json_object(required=False))
    results, total = current().catalog.insolvency_index.search(search)
    response = json_response({
        "results": results,
        "pagination": {
            "page": search.page,
            "per_page": search.per_page,
            "total_pages": math.ceil(total / search.per_page),
            "total_results": total,
        },
    })
    if not client_gone():
        spend(PRICES["insolvency_search"])
    return response


@bp.get("/v1/insolvency/<path:insolvency_id>", merge_slashes=False)  # "//x": a JSON 404, not a 308 to "/x"
def get_insolvency(insolvency_id: str):
    """One proceeding with all its events, oldest first."""
    if not UUID_PATTERN.match(insolvency_id):
        raise ApiError("invalid_insolvency_id", f"{insolvency_id!r} is not a proceeding id (a UUID, as in search "
                                                "results and company insolvency summaries).")
    proceeding = current().catalog.world.insolvencies.get(insolvency_id.lower())
    if proceeding is None:
        raise ApiError("insolvency_not_found", f"No proceeding has the id {insolvency_id}.")
    response = json_response(detail_of(proceeding))
    spend(PRICES["insolvency_detail"])
    return response


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
