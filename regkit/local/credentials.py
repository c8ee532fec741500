"""``POST /v1/transparenzregister/credentials``: validate a credential set and store it encrypted.

Sets are scoped to the API user (another user can neither use nor see them), at most
``MAX_CREDENTIAL_SETS`` names each; the name ``sandbox`` is reserved. See :mod:`regkit.local.vault`.
"""

from __future__ import annotations

import hmac
import sqlite3

from flask import Blueprint

from regkit.schema.interface import (
    CREDENTIAL_NAME_PATTERN,
    DEFAULT_CREDENTIAL_NAME,
    MAX_CREDENTIAL_SETS,
    SANDBOX_CREDENTIAL_NAME,
)

from .bodies import read_json_object
from .context import current, current_user, spend
from .errors import ApiError, json_response
from .vault import iso_time

__all__ = ["bp", "check_credential_name"]

bp = Blueprint("credentials", __name__)


def check_credential_name(name: object, *, where: str) -> str:
    """Validate a credential name; ``sandbox`` is returned as is (callers decide whether it is allowed)."""
    if not isinstance(name, str) or not CREDENTIAL_NAME_PATTERN.match(name):
        raise ApiError("invalid_credential_name", f"{where} must be a credential name of letters, digits, '_', '.' "
                                                  "or '-' (at most 64), e.g. 'default'.")
    return name


def _store(conn: sqlite3.Connection, user: str, name: str, token: bytes, now: float) -> tuple[float, float]:
    existing = conn.execute("SELECT created_at FROM credentials WHERE user = ? AND name = ?", (user, name)).fetchone()
    if existing is None:
        count = conn.execute("SELECT count(*) FROM credentials WHERE user = ?", (user,)).fetchone()[0]
        if count >= MAX_CREDENTIAL_SETS:
            raise ApiError("credential_limit_reached", f"You already store {MAX_CREDENTIAL_SETS} credential sets; "
                                                       "overwrite one of their names instead of adding a new one.")
    created = existing[0] if existing else now
    conn.execute(
        "INSERT INTO credentials (user, name, token, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user, name) DO UPDATE SET token = excluded.token, updated_at = excluded.updated_at",
        (user, name, token, created, now),
    )
    return created, now


@bp.post("/v1/transparenzregister/credentials")
def store_credentials():
    """Validate a credential set against the Transparenzregister and store it encrypted (201)."""
    context, user = current(), current_user()
    user.require_paid()
    body = read_json_object(required=True)
    unknown = set(body) - {"username", "password", "name"}
    if unknown:
        shown = ", ".join(ascii(m[:40]) for m in sorted(unknown)[:5])
        raise ApiError("invalid_body", f"Unknown member(s) {shown}; send username, password "
                                       "and optionally name.")
    username, password = body.get("username"), body.get("password")
    for member, value in (("username", username), ("password", password)):
        if not isinstance(value, str) or not value:
            raise ApiError("invalid_body", f"'{member}' is required and must be a non-empty string.")
    name = check_credential_name(body.get("name", DEFAULT_CREDENTIAL_NAME), where="'name'")
    if name.lower() == SANDBOX_CREDENTIAL_NAME:
        raise ApiError("reserved_credential_name", "The name 'sandbox' is reserved for the built-in test mode; "
                                                   "choose another name.")
    account = context.catalog.accounts.get(username)
    if account is None or not hmac.compare_digest(account["password"].encode("utf-8"), password.encode("utf-8")):
        raise ApiError("register_credentials_rejected", "The Transparenzregister rejected this username and "
                                                        "password; check them and try again.")
    token = context.vault.seal(username, password)
    now = context.now()
    created, updated = spend(0, lambda conn: _store(conn, user.ref, name, token, now))
    return json_response({"name": name, "username": username, "created_at": iso_time(created),
                          "updated_at": iso_time(updated)}, 201)
