"""``GET /v1/document/{document_id}``, ``GET /v1/document?company_id=…&document_category=…`` and
``GET /v1/documents/{document_id}``: a listed document's metadata, a document fetched now, and the file behind
a presigned URL.

The download has no bearer token (the route is public, see :mod:`regkit.local.urls`): the signature is the
authorisation.
"""

from __future__ import annotations

from flask import Response, request

from ..exceptions import ApiError
from ..models import documents
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["download_document", "get_document", "get_realtime_document"]


def download_document(document_id: str) -> Response:
    """The file behind a presigned URL (403 when unsigned, tampered with or expired; 404 when unknown)."""
    data, filename, mimetype = documents.download_document(
        current(), document_id, request.args.get("expires"), request.args.get("signature")
    )
    return Response(data, mimetype=mimetype, headers={"Content-Disposition": f'inline; filename="{filename}"'})


def get_document(document_id: str) -> Response:
    """A listed document's metadata with a URL valid 15 minutes; free (404 ``document_not_found``)."""
    return json_response(documents.get_document(current(), document_id, base_url=request.host_url))


def _one(name: str) -> str:
    values = request.args.getlist(name)
    if len(values) != 1 or not values[0]:
        raise ApiError(
            "invalid_parameter",
            f"Send the query parameter {name!r} once, e.g. "
            "/v1/document?company_id=DE-HRB-F1103-267645&document_category=current_printout.",
        )
    return values[0]


def get_realtime_document() -> Response:
    """A document fetched from the register now; 20 credits (400 for a bad id or category, 404 when the company
    or that kind of document does not exist: neither charged)."""
    company_id = check_company_id(_one("company_id"))
    category = _one("document_category")
    body = documents.get_realtime_document(current(), current_user(), company_id, category, base_url=request.host_url)
    return json_response(charged(body))
