"""``GET /v1/credits`` (the caller's balance) and ``GET /v1/openapi.json`` (the interface description)."""

from __future__ import annotations

import copy
import functools
import json

from flask import Response, request

from regkit.schema.interface import load_openapi

from ..models import credits
from .context import current, current_user
from .render import json_response

__all__ = ["get_credits", "get_openapi"]


def get_credits() -> Response:
    """The caller's credit balance for the current period (free)."""
    return json_response(credits.get_credits(current(), current_user()))


@functools.lru_cache(maxsize=8)
def _openapi_bytes(origin: str) -> bytes:
    document = copy.deepcopy(load_openapi())
    for server in document.get("servers", ()):
        variable = server.get("variables", {}).get("base_url")
        if variable is not None:
            variable["default"] = origin
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def get_openapi() -> Response:
    """The OpenAPI 3.1 description, its ``base_url`` defaulting to the origin it was fetched from."""
    return Response(_openapi_bytes(request.host_url.rstrip("/")), mimetype="application/json")
