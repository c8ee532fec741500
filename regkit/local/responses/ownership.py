"""``GET /v1/company/{company_id}/owners`` and ``GET /v1/company/{company_id}/holdings``: read the id and flags,
answer the company's owners or holdings."""

from __future__ import annotations

from flask import Response, request

from ..models import ownership
from .bodies import query_flag
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_owners", "get_holdings"]


def get_owners(company_id: str) -> Response:
    """The company's current owners; 10 credits (20 with ``realtime=true``). ``best_available=true`` answers
    for an AG, SE or KGaA from filed documents; ``export=true`` leaves out the source documents."""
    realtime, export, best = query_flag("realtime"), query_flag("export"), query_flag("best_available")
    company_id = check_company_id(company_id)
    body = ownership.get_owners(
        current(),
        current_user(),
        company_id,
        realtime=realtime,
        export=export,
        best_available=best,
        base_url=request.host_url,
    )
    return json_response(charged(body))


def get_holdings(company_id: str) -> Response:
    """The companies this company holds or held shares in; 10 credits."""
    company_id = check_company_id(company_id)
    return json_response(charged(ownership.get_holdings(current(), current_user(), company_id)))
