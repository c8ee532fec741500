"""Reading request input: JSON bodies and boolean query parameters, with 400s for anything malformed.

A body is JSON text as RFC 8259 defines it, read strictly: ``NaN``/``Infinity``, integers of more than
:data:`MAX_INTEGER_DIGITS` digits and strings holding a lone surrogate (an unpaired ``\\ud800``–``\\udfff``
escape, which is no Unicode character and cannot be stored, compared as UTF-8 or logged) are refused here,
once for every endpoint, so no handler ever sees them.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

from ..exceptions import ApiError
from ..search.query import lone_surrogate

__all__ = ["read_json_object", "query_flag", "MAX_INTEGER_DIGITS"]

#: Longest integer a body may hold (more digits than any count, page or Unix time needs).
MAX_INTEGER_DIGITS = 30


def _name(key: str) -> str:
    return key if len(key) <= 40 and key.isidentifier() else ascii(key[:40])


def _surrogate_at(body: Any) -> str | None:
    """Where in a parsed body a string (a value or a member name) holds a lone surrogate, or ``None``."""
    stack: list[tuple[Any, str]] = [(body, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if lone_surrogate(item):
                return path or "the body"
        elif isinstance(item, dict):
            for key, value in item.items():
                where = f"{path}.{_name(key)}" if path else _name(key)
                if lone_surrogate(key):
                    return f"a member name in {path or 'the body'}"
                stack.append((value, where))
        elif isinstance(item, list):
            stack.extend((value, f"{path}[{i}]") for i, value in enumerate(item))
    return None


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits; at most {MAX_INTEGER_DIGITS} are read")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def read_json_object(*, required: bool) -> dict[str, Any]:
    """The request body as a JSON object; an empty body is ``{}`` unless ``required``.

    The Content-Type is not checked (clients differ); the bytes must be UTF-8 JSON.

    Raises
    ------
    ApiError
        400 ``invalid_json`` for bytes that are not JSON (or hold ``NaN``, an integer of more than
        :data:`MAX_INTEGER_DIGITS` digits, a lone surrogate), ``invalid_body`` for JSON that is not an object
        or a missing required body.
    """
    raw = request.get_data(cache=True)
    if not raw:
        if required:
            raise ApiError("invalid_body", "This call needs a JSON object as its body.")
        return {}
    try:
        body = json.loads(raw, parse_int=_integer, parse_constant=_constant)
    except (ValueError, RecursionError) as exc:
        raise ApiError("invalid_json", f"The body is not valid JSON ({exc}); send a JSON object.") from None
    where = _surrogate_at(body)
    if where is not None:
        raise ApiError(
            "invalid_json",
            f"The body holds a lone surrogate (an unpaired \\ud800-\\udfff escape, "
            f"which is no character) in {where}; send the text as valid Unicode.",
        )
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
