"""``GET /v1/company/{company_id}/ubo``: read the id, answer the company's beneficial owners."""

from __future__ import annotations

from flask import Response

from ..models import ubos
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_ubos"]


def get_ubos(company_id: str) -> Response:
    """The company's beneficial owners (more than 25 % effective; else fictitious ones); 10 credits."""
    company_id = check_company_id(company_id)
    return json_response(charged(ubos.get_ubos(current(), current_user(), company_id)))
