"""``POST /v1/transparenzregister/credentials``: read and check the credential set in the body, store it."""

from __future__ import annotations

from typing import Any

from flask import Response

from regkit.schema.interface import CREDENTIAL_NAME_PATTERN, DEFAULT_CREDENTIAL_NAME, SANDBOX_CREDENTIAL_NAME

from ..exceptions import ApiError
from ..models import credentials
from .bodies import read_json_object
from .context import charged, current, current_user
from .render import json_response

__all__ = ["store_credentials", "check_credential_name"]


def check_credential_name(name: object, *, where: str) -> str:
    """Validate a credential name; ``sandbox`` is returned as is (callers decide whether it is allowed)."""
    if not isinstance(name, str) or not CREDENTIAL_NAME_PATTERN.match(name):
        raise ApiError(
            "invalid_credential_name",
            f"{where} must be a credential name of letters, digits, '_', '.' or '-' (at most 64), e.g. 'default'.",
        )
    return name


def _required_text(body: dict[str, Any], member: str) -> str:
    value = body.get(member)
    if not isinstance(value, str) or not value:
        raise ApiError("invalid_body", f"'{member}' is required and must be a non-empty string.")
    return value


def store_credentials() -> Response:
    """Validate a credential set against the Transparenzregister and store it encrypted (201)."""
    user = current_user()
    user.require_paid()
    body = read_json_object(required=True)
    unknown = set(body) - {"username", "password", "name"}
    if unknown:
        shown = ", ".join(ascii(m[:40]) for m in sorted(unknown)[:5])
        raise ApiError("invalid_body", f"Unknown member(s) {shown}; send username, password and optionally name.")
    username, password = _required_text(body, "username"), _required_text(body, "password")
    name = check_credential_name(body.get("name", DEFAULT_CREDENTIAL_NAME), where="'name'")
    if name.lower() == SANDBOX_CREDENTIAL_NAME:
        raise ApiError(
            "reserved_credential_name",
            "The name 'sandbox' is reserved for the built-in test mode; choose another name.",
        )
    stored = credentials.store_credentials(current(), user, username, password, name)
    return json_response(charged(stored), 201)
