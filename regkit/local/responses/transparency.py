"""``POST /v1/transparenzregister/extracts`` and ``GET /v1/transparenzregister/extracts/{extract_id}``: read the
credential name, the body or the id, answer the extract.

The checks here come first, in this order: 402 plan without Transparenzregister access; 400 credential name
(``X-Credential-Name``), body, a case variant of ``sandbox``, ``company_id``. The rest of a production
order's checks are the model's (:mod:`regkit.local.models.transparency`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from regkit.schema.interface import DEFAULT_CREDENTIAL_NAME, EXTRACT_ID_PATTERN, SANDBOX_CREDENTIAL_NAME

from ..exceptions import ApiError
from ..models import transparency
from .bodies import read_json_object
from .companies import check_company_id
from .context import charged, current, current_user
from .credentials import check_credential_name
from .render import json_response

__all__ = ["order_extract", "get_extract"]


def _company_id(body: dict[str, Any]) -> str:
    """The well-formed ``company_id`` a production order needs."""
    if body.get("company_id") is None:
        raise ApiError(
            "invalid_body",
            "'company_id' is required in production mode (only the 'sandbox' credential mode takes an empty body).",
        )
    return check_company_id(body["company_id"])


def order_extract() -> Response:
    """Order an extract (201, status ``processing``); ``X-Credential-Name: sandbox`` is the free test mode."""
    user = current_user()
    user.require_paid()
    name = check_credential_name(
        request.headers.get("X-Credential-Name", DEFAULT_CREDENTIAL_NAME).strip(), where="The X-Credential-Name header"
    )
    body = read_json_object(required=False)
    if set(body) - {"company_id"}:
        raise ApiError("invalid_body", "The order body takes only 'company_id'.")
    if name != SANDBOX_CREDENTIAL_NAME and name.lower() == SANDBOX_CREDENTIAL_NAME:
        raise ApiError(
            "reserved_credential_name",
            f"Credential names are case-sensitive, and {name!r} is not the "
            "sandbox mode: send exactly 'sandbox' (lower case) for the built-in "
            "test mode; any case variant of it is reserved and cannot name "
            "stored credentials.",
        )
    company_id = None if name == SANDBOX_CREDENTIAL_NAME else _company_id(body)
    ordered = transparency.order_extract(current(), user, name, company_id)
    return json_response(charged(ordered), 201)


def get_extract(extract_id: str) -> Response:
    """Poll an extract; completed ones carry the report and presigned document URLs."""
    user = current_user()
    user.require_paid()
    if not EXTRACT_ID_PATTERN.match(extract_id):
        raise ApiError(
            "invalid_extract_id", f"{extract_id!r} is not an extract id (tre_<digits>, as the order returned)."
        )
    return json_response(transparency.get_extract(current(), user, extract_id, base_url=request.host_url))
