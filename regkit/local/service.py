"""``GET /v1/credits`` (the caller's balance) and ``GET /v1/openapi.json`` (the interface description)."""

from __future__ import annotations

import copy
import functools
import json

from flask import Blueprint, Response, request

from regkit.schema.interface import load_openapi

from .context import current, current_user
from .credits import credits_document
from .errors import json_response

__all__ = ["bp", "PUBLIC_ENDPOINTS"]

bp = Blueprint("service", __name__)

#: Endpoints answered without a bearer token: the description, and presigned downloads (the signature
#: is their authorisation).
PUBLIC_ENDPOINTS = frozenset({"service.get_openapi", "documents.download_document"})


@bp.get("/v1/credits")
def get_credits():
    """The caller's credit balance for the current period (free)."""
    context = current()
    with context.state.connection() as conn:
        return json_response(credits_document(conn, current_user(), context.now()))


@functools.lru_cache(maxsize=8)
def _openapi_bytes(origin: str) -> bytes:
    document = copy.deepcopy(load_openapi())
    for server in document.get("servers", ()):
        variable = server.get("variables", {}).get("base_url")
        if variable is not None:
            variable["default"] = origin
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


@bp.get("/v1/openapi.json")
def get_openapi():
    """The OpenAPI 3.1 description, its ``base_url`` defaulting to the origin it was fetched from."""
    return Response(_openapi_bytes(request.host_url.rstrip("/")), mimetype="application/json")
