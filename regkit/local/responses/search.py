"""``POST /v1/search/company`` and ``GET /v1/autocomplete/company``: read the body or the query, answer the
companies."""

from __future__ import annotations

from flask import Response, request

from ..models import company_search
from ..search.company_request import parse_autocomplete_query, parse_company_search
from .bodies import read_json_object
from .context import charged, current, current_user
from .insolvencies import client_gone
from .render import json_response

__all__ = ["search_company", "autocomplete_company"]


def search_company() -> Response:
    """One page of companies matching the query and filters, best match first.

    A body the parser refuses (400: also a filter only the live service serves, or a location) is charged
    nothing.
    """
    search = parse_company_search(read_json_object(required=False))
    page = company_search.search_company(current(), current_user(), search, client_gone=client_gone)
    return json_response(charged(page))


def autocomplete_company() -> Response:
    """The first companies matching the start of a name, best first; free."""
    query = parse_autocomplete_query(request.args.getlist("query"))
    return json_response(company_search.autocomplete_company(current(), current_user(), query))
