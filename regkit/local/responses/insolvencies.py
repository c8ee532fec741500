"""``POST /v1/search/insolvency`` and ``GET /v1/insolvency/{insolvency_id}``: read the search body or the id,
answer the page or the proceeding."""

from __future__ import annotations

from flask import Response, request

from regkit.schema.interface import UUID_PATTERN

from ..exceptions import ApiError
from ..models import insolvencies
from ..search.request import parse_search_request
from .bodies import read_json_object
from .context import charged, current, current_user
from .render import json_response

__all__ = ["search_insolvency", "get_insolvency", "client_gone"]


def client_gone() -> bool:
    """Whether the server knows the client of this request has disconnected (waitress tells, when asked to
    look ahead on a connection: ``channel_request_lookahead``); then nothing is charged for the answer.
    """
    check = request.environ.get("waitress.client_disconnected")
    return bool(check is not None and check())


def search_insolvency() -> Response:
    """One page of proceedings matching the query and filters, newest last event first.

    A body the parser refuses (400, also one past the limits) is charged nothing.
    """
    search = parse_search_request(read_json_object(required=False))
    page = insolvencies.search_insolvency(current(), current_user(), search, client_gone=client_gone)
    return json_response(charged(page))


def get_insolvency(insolvency_id: str) -> Response:
    """One proceeding with all its events, oldest first."""
    if not UUID_PATTERN.match(insolvency_id):
        raise ApiError(
            "invalid_insolvency_id",
            f"{insolvency_id!r} is not a proceeding id (a UUID, as in search "
            "results and company insolvency summaries).",
        )
    return json_response(charged(insolvencies.get_insolvency(current(), current_user(), insolvency_id)))
