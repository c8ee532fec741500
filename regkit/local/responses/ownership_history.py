"""``GET /v1/company/{company_id}/owners/historical``: read the id, answer the company's ownership history."""

from __future__ import annotations

from flask import Response

from ..models import ownership_history
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_historical_owners"]


def get_historical_owners(company_id: str) -> Response:
    """The owners across the company's filed shareholder lists; 10 credits (404 ``owners_not_available``, free,
    without any list)."""
    company_id = check_company_id(company_id)
    return json_response(charged(ownership_history.get_historical_owners(current(), current_user(), company_id)))
