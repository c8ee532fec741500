"""``GET /v0/company/{company_id}/contact`` and ``GET /v0/search/lookup``: read the id or the website, answer
the contact data."""

from __future__ import annotations

from flask import Response, request

from regkit.schema.websites import website_host

from ..exceptions import ApiError
from ..models import contact
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_contact", "lookup_company"]


def get_contact(company_id: str) -> Response:
    """The company's published contact data (website, e-mail, phone, VAT id); 10 credits."""
    company_id = check_company_id(company_id)
    return json_response(charged(contact.get_contact(current(), current_user(), company_id)))


def lookup_company() -> Response:
    """The company behind the website in the query parameter ``url``, with its contact data; 10 credits.

    Raises
    ------
    ApiError
        400 ``invalid_url``: ``url`` missing, sent twice, blank or not a website URL (nothing charged).
    """
    values = request.args.getlist("url")
    if not values:
        raise ApiError("invalid_url", "Send the website as the query parameter 'url' (?url=https://www.example.de).")
    if len(values) > 1:
        raise ApiError("invalid_url", "Send the query parameter 'url' once.")
    try:
        host = website_host(values[0])
    except ValueError as exc:
        raise ApiError("invalid_url", str(exc)) from None
    return json_response(charged(contact.lookup_company(current(), current_user(), host)))
