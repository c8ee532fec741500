"""Reading request input: JSON bodies and boolean query parameters, with 400s for anything malformed."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from .errors import ApiError

__all__ = ["read_json_object", "query_flag"]

def read_json_object(*, required: bool) -> dict[str, Any]:
    """The request body as a JSON object; an empty body is ``{}`` unless ``required``.

    The Content-Type is not checked (clients differ); the bytes must be UTF-8 JSON.

    Raises
    ------
    ApiError
        400 ``invalid_json`` for bytes that are not JSON, ``invalid_body`` for JSON that is not an object
        or a missing required body.
    """
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise ApiError("invalid_body", "This call needs a JSON object as its body.")
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ApiError("invalid_json", f"The body is not valid JSON ({exc}); send a JSON object.") from None
    if not isinstance(body, dict):
        raise ApiError("invalid_body", "The body must be a JSON object.")
    return body


def query_flag(name: str) -> bool:
    """A boolean query parameter: ``true`` or ``false`` in any case (``True`` is what requests sends); absent is false.

    Raises
    ------
    ApiError
        400 ``invalid_parameter`` for any other value.
    """
    values = request.args.getlist(name)
    if not values:
        return False
    if len(values) > 1:
        raise ApiError("invalid_parameter", f"Send the query parameter {name!r} once.")
    value = values[0].strip().lower()
    if value in ("true", "false"):
        return value == "true"
    raise ApiError("invalid_parameter", f"The query parameter {name!r} must be true or false, not {values[0]!r}.")
