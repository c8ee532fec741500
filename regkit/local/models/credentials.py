"""Stored Transparenzregister credentials: validate a set against the register, store it encrypted, read it back.

Sets are scoped to the API user (another user can neither use nor see them), at most
``MAX_CREDENTIAL_SETS`` names each; the name ``sandbox`` is reserved. See :mod:`regkit.local.vault`.
"""

from __future__ import annotations

import hmac
import sqlite3
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import MAX_CREDENTIAL_SETS

from ..exceptions import ApiError
from ..vault import iso_time
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["store_credentials", "stored_credentials", "accepted_account"]


def _store(conn: sqlite3.Connection, user: str, name: str, token: bytes, now: float) -> tuple[float, float]:
    existing = conn.execute("SELECT created_at FROM credentials WHERE user = ? AND name = ?", (user, name)).fetchone()
    if existing is None:
        count = conn.execute("SELECT count(*) FROM credentials WHERE user = ?", (user,)).fetchone()[0]
        if count >= MAX_CREDENTIAL_SETS:
            raise ApiError(
                "credential_limit_reached",
                f"You already store {MAX_CREDENTIAL_SETS} credential sets; "
                "overwrite one of their names instead of adding a new one.",
            )
    created = existing[0] if existing else now
    conn.execute(
        "INSERT INTO credentials (user, name, token, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user, name) DO UPDATE SET token = excluded.token, updated_at = excluded.updated_at",
        (user, name, token, created, now),
    )
    return created, now


def accepted_account(context: RegisterContext, username: str, password: str) -> dict[str, Any] | None:
    """The Transparenzregister account ``username`` if ``password`` is its password now, else ``None``."""
    account = context.catalog.accounts.get(username)
    if account is None or not hmac.compare_digest(account["password"].encode("utf-8"), password.encode("utf-8")):
        return None
    return account


def store_credentials(
    context: RegisterContext, user: User, username: str, password: str, name: str
) -> Charged[dict[str, Any]]:
    """Validate a credential set against the Transparenzregister and store it encrypted under a well-formed
    ``name`` that is not ``sandbox`` in any case (free); storing under a name in use overwrites that set.

    Raises
    ------
    ApiError
        401 ``register_credentials_rejected`` when the register does not know the username and password,
        409 ``credential_limit_reached`` for an 11th name.
    """
    if accepted_account(context, username, password) is None:
        raise ApiError(
            "register_credentials_rejected",
            "The Transparenzregister rejected this username and password; check them and try again.",
        )
    token = context.vault.seal(username, password)
    now = context.now()
    stored = spend(context, user, 0, lambda conn: _store(conn, user.ref, name, token, now))
    created, updated = stored.value
    return Charged(
        {"name": name, "username": username, "created_at": iso_time(created), "updated_at": iso_time(updated)},
        stored.credits,
        stored.remaining,
    )


def stored_credentials(context: RegisterContext, user: User, name: str, *, purpose: str) -> tuple[str, str]:
    """The ``(username, password)`` ``user`` stored under ``name``, decrypted for ``purpose`` (logged).

    Raises
    ------
    ApiError
        404 ``credentials_not_found`` when there is no set of that name; 500 ``internal_error`` when the
        register's key cannot decrypt it.
    """
    with context.state.connection() as conn:
        row = conn.execute("SELECT token FROM credentials WHERE user = ? AND name = ?", (user.ref, name)).fetchone()
    if row is None:
        raise ApiError(
            "credentials_not_found",
            f"You have no stored credentials named {name!r}; store them with "
            "POST /v1/transparenzregister/credentials first.",
        )
    return context.vault.unseal(row[0], name=name, user=user.name, purpose=purpose)
