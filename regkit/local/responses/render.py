"""Building answers: the compact JSON body of a record, and the JSON body of an error.

Every non-2xx answer has the body ``{"error": {"code": "<snake_case>", "message": "<sentence>"}}``; the codes
and their statuses are :data:`regkit.local.exceptions.ERROR_CODES`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Response

from ..exceptions import ApiError

__all__ = ["json_response", "error_response", "api_error_response"]


def json_response(payload: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """Serialise ``payload`` compactly as UTF-8 JSON, keeping the key order of the records."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return Response(body.encode("utf-8"), status=status, headers=headers, mimetype="application/json")


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> Response:
    """The JSON error body ``{"error": {"code", "message"}}`` with ``status``."""
    return json_response({"error": {"code": code, "message": message}}, status, headers)


def api_error_response(error: ApiError) -> Response:
    """The JSON error answer of an :class:`~regkit.local.exceptions.ApiError`."""
    return error_response(error.status, error.code, error.message, error.headers)
