"""``GET /v1/company/{company_id}/financials`` and the presigned HTML of one report: read the request, answer."""

from __future__ import annotations

from flask import Response, request

from ..models import financials
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_financials", "download_report"]


def get_financials(company_id: str) -> Response:
    """The company's financial statements, indicators and merged table; 10 credits."""
    company_id = check_company_id(company_id)
    body = financials.get_financials(current(), current_user(), company_id, base_url=request.host_url)
    return json_response(charged(body))


def download_report(company_id: str, report_id: str) -> Response:
    """The HTML of one report behind a presigned URL (403 when unsigned, tampered with or expired; 404 when
    unknown). Public: the signature is the authorisation."""
    page = financials.download_report(
        current(), company_id, report_id, request.args.get("expires"), request.args.get("signature")
    )
    return Response(page.encode("utf-8"), mimetype="text/html", content_type="text/html; charset=utf-8")
