"""Bearer authentication and plans.

API keys and their initial plans come from the world (``world.json`` ``users``); the operator can
change a user's plan in the state file (``regkit local plan``), which then wins. State rows are keyed by
:func:`user_ref`, a digest of the key, so the state file holds no API key.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog
from .errors import ApiError

__all__ = ["User", "authenticate", "user_ref", "current_plan_name", "resolve_user"]


def user_ref(api_key: str) -> str:
    """The state file's name for the user of ``api_key`` (a SHA-256 prefix, not the key)."""
    return hashlib.sha256(api_key.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class User:
    """An authenticated API user as one request sees it."""

    api_key: str
    ref: str
    plan_name: str
    plan: dict[str, Any]
    included_credits: int
    period: str

    @property
    def paid(self) -> bool:
        """Whether the plan is a paid plan (Transparenzregister access)."""
        return bool(self.plan.get("paid"))

    @property
    def monitoring(self) -> bool:
        """Whether the plan includes monitoring."""
        return bool(self.plan.get("monitoring"))

    def require_paid(self) -> None:
        """Raise 402 ``plan_required`` unless the plan is paid."""
        if not self.paid:
            raise ApiError("plan_required", f"Transparenzregister access requires a paid plan; the plan "
                                            f"{self.plan_name!r} is not one. Upgrade the plan.")

    def require_monitoring(self) -> None:
        """Raise 402 ``plan_required`` unless the plan includes monitoring."""
        if not self.monitoring:
            raise ApiError("plan_required", f"Monitoring requires a plan that includes it; the plan "
                                            f"{self.plan_name!r} does not. Upgrade the plan.")


def current_plan_name(conn: sqlite3.Connection, catalog: Catalog, api_key: str) -> str:
    """The plan of ``api_key`` now: the operator's change in the state file, else the world's."""
    row = conn.execute("SELECT plan FROM user_plans WHERE user = ?", (user_ref(api_key),)).fetchone()
    return row[0] if row else catalog.users[api_key]["plan"]


def resolve_user(conn: sqlite3.Connection, catalog: Catalog, api_key: str) -> User:
    """The :class:`User` of a known ``api_key`` (raises KeyError for an unknown one)."""
    entry = catalog.users[api_key]
    plan_name = current_plan_name(conn, catalog, api_key)
    return User(
        api_key=api_key,
        ref=user_ref(api_key),
        plan_name=plan_name,
        plan=catalog.plans.get(plan_name, {}),
        included_credits=int(entry.get("included_credits", 0)),
        period=entry.get("period", "billing_cycle"),
    )


def authenticate(conn: sqlite3.Connection, catalog: Catalog, authorization: str | None) -> User:
    """Check an ``Authorization`` header.

    Raises
    ------
    ApiError
        401 ``unauthorized`` when the header is missing, not a bearer token, or the key is unknown.
    """
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError("unauthorized", "Authentication required: send 'Authorization: Bearer <API_KEY>'.",
                       headers={"WWW-Authenticate": 'Bearer realm="regkit"'})
    if token not in catalog.users:
        raise ApiError("unauthorized", "The API key is not valid; check it (the local register accepts the "
                                       "world's demo keys, e.g. demo-paid).",
                       headers={"WWW-Authenticate": 'Bearer realm="regkit", error="invalid_token"'})
    return resolve_user(conn, catalog, token)
