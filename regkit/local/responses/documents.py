"""``GET /v1/documents/{document_id}``: read the presigned URL's ``expires`` and ``signature``, answer the PDF.

No bearer token (the route is public, see :mod:`regkit.local.urls`): the signature is the authorisation.
"""

from __future__ import annotations

from flask import Response, request

from ..models import documents
from .context import current

__all__ = ["download_document"]


def download_document(document_id: str) -> Response:
    """The PDF behind a presigned URL (403 when unsigned, tampered with or expired; 404 when unknown)."""
    data, filename = documents.download_document(
        current(), document_id, request.args.get("expires"), request.args.get("signature")
    )
    return Response(data, mimetype="application/pdf", headers={"Content-Disposition": f'inline; filename="{filename}"'})
