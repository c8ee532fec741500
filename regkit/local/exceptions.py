"""The interface's error codes, and :class:`ApiError`, the one exception models and handlers raise; and
:class:`OperatorError`, what the local-only operator commands (``regkit local ...``) refuse with.

Every non-2xx answer has the body ``{"error": {"code": "<snake_case>", "message": "<sentence>"}}``.
:data:`ERROR_CODES` maps each code to its HTTP status; it is the single list models and handlers draw from.
Nothing here knows HTTP beyond that status: :mod:`regkit.local.responses.render` turns an error into its
JSON answer.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ApiError", "ERROR_CODES", "OperatorError"]

#: Error code → HTTP status, grouped by status.
ERROR_CODES: dict[str, int] = {
    # 400: the request is malformed
    "invalid_json": 400,
    "invalid_body": 400,
    "invalid_parameter": 400,
    "invalid_company_id": 400,
    "invalid_insolvency_id": 400,
    "invalid_extract_id": 400,
    "invalid_entity_id": 400,
    "invalid_person_id": 400,
    "invalid_url": 400,
    "invalid_request": 400,
    "invalid_filter": 400,
    "unsupported_filter": 400,
    "unsupported_location": 400,
    "invalid_query": 400,
    "invalid_pagination": 400,
    "invalid_credential_name": 400,
    "invalid_document_category": 400,
    "reserved_credential_name": 400,
    # 401: who are you
    "unauthorized": 401,
    "register_credentials_rejected": 401,
    # 402: pay first
    "insufficient_credits": 402,
    "plan_required": 402,
    # 403: signed URLs and the Transparenzregister account
    "register_authentication_rejected": 403,
    "invalid_signature": 403,
    "url_expired": 403,
    # 404: nothing there
    "not_found": 404,
    "company_not_found": 404,
    "owners_not_available": 404,
    "contact_not_available": 404,
    "person_not_found": 404,
    "insolvency_not_found": 404,
    "extract_not_found": 404,
    "credentials_not_found": 404,
    "register_entity_not_found": 404,
    "entity_not_found": 404,
    "monitor_not_found": 404,
    "document_not_found": 404,
    "document_not_available": 404,
    # other client errors
    "method_not_allowed": 405,
    "ambiguous_register_entity": 409,
    "credential_limit_reached": 409,
    "monitor_exists": 409,
    "payload_too_large": 413,
    "rate_limited": 429,
    "extract_quota_exceeded": 429,
    # server side
    "internal_error": 500,
    "injected_fault": 500,
}


class ApiError(Exception):
    """An error answer of the interface: raise it anywhere in a model or a handler.

    Parameters
    ----------
    code : str
        A key of :data:`ERROR_CODES`; it fixes the HTTP status.
    message : str
        A sentence for a human, saying what to do next.
    headers : mapping, optional
        Extra response headers (``Retry-After``, ``WWW-Authenticate``).
    """

    def __init__(self, code: str, message: str, *, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.code = code
        self.status = ERROR_CODES[code]
        self.message = message
        self.headers = dict(headers or {})


class OperatorError(ValueError):
    """An operator command that cannot be carried out (unknown key or plan, plan without monitoring, a clock
    that would move back or a world that does not live on)."""
