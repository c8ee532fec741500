"""API users: who an API key belongs to, its plan, and bearer authentication with its throttle.

API keys and their initial plans come from the world (``world.json`` ``users``); the operator can
change a user's plan in the state file (``regkit local plan``, :func:`store_plan`), which then wins. State rows are keyed by
:func:`user_ref`, a digest of the key, so the state file holds no API key. Logs name a user by
:func:`user_name`, never by the key.

Failed authentications (an API key that is not known) are throttled per client address with a token
bucket (``Config.auth_failure_limit`` per ``auth_failure_window`` seconds). While an address's bucket is
empty, every request from it that needs a key is answered ``429 rate_limited`` with ``Retry-After``
*before the key is looked at* — a correct key too: answering a correct key normally would tell a guesser
which guess was right, so the throttle would not slow guessing at all. A request without any key does not
count (it guesses nothing). The address is the connection's peer (``REMOTE_ADDR``); ``X-Forwarded-For``
is not trusted (anyone can send it), so behind a reverse proxy all clients share the proxy's bucket.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..exceptions import ApiError
from .catalog import Catalog

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["User", "authenticate", "user_ref", "user_name", "current_plan_name", "resolve_user", "store_plan"]

logger = logging.getLogger("regkit.local.auth")  # the logger's documented name (README, regkit.local.logs)


def user_ref(api_key: str) -> str:
    """The state file's name for the user of ``api_key`` (a SHA-256 prefix, not the key)."""
    return hashlib.sha256(api_key.encode("utf-8")).hexdigest()[:32]


@functools.lru_cache(maxsize=16)
def _names(catalog: Catalog) -> dict[str, str]:
    return {
        key: str(entry.get("name") or f"user-{number}")
        for number, (key, entry) in enumerate(catalog.users.items(), start=1)
    }


def user_name(catalog: Catalog, api_key: str) -> str:
    """The name logs and the ``regkit serve`` banner use for the user of ``api_key`` (never the key).

    The world's ``users[].name`` when it gives one, else ``user-<n>`` by the user's position in
    ``world.json`` ``users`` (the bundled world: ``user-1`` is ``demo-paid``, ``user-2`` ``demo-free``,
    ``user-3`` ``demo-empty``).
    """
    return _names(catalog)[api_key]


@dataclass(frozen=True)
class User:
    """An authenticated API user as one request sees it (its repr leaves out the key)."""

    api_key: str = field(repr=False)
    ref: str
    plan_name: str
    plan: dict[str, Any]
    included_credits: int
    period: str
    name: str = ""

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
            raise ApiError(
                "plan_required",
                f"Transparenzregister access requires a paid plan; the plan "
                f"{self.plan_name!r} is not one. Upgrade the plan.",
            )

    def require_monitoring(self) -> None:
        """Raise 402 ``plan_required`` unless the plan includes monitoring."""
        if not self.monitoring:
            raise ApiError(
                "plan_required",
                f"Monitoring requires a plan that includes it; the plan {self.plan_name!r} does not. Upgrade the plan.",
            )


def current_plan_name(conn: sqlite3.Connection, catalog: Catalog, api_key: str) -> str:
    """The plan of ``api_key`` now: the operator's change in the state file, else the world's."""
    row = conn.execute("SELECT plan FROM user_plans WHERE user = ?", (user_ref(api_key),)).fetchone()
    return row[0] if row else catalog.users[api_key]["plan"]


def store_plan(conn: sqlite3.Connection, api_key: str, plan: str, now: float) -> None:
    """Put ``api_key`` on ``plan`` in the state file (the operator's change, which wins over the world's)."""
    conn.execute(
        "INSERT INTO user_plans (user, plan, changed_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user) DO UPDATE SET plan = excluded.plan, changed_at = excluded.changed_at",
        (user_ref(api_key), plan, now),
    )


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
        name=user_name(catalog, api_key),
    )


def authenticate(context: RegisterContext, authorization: str | None, address: str = "-") -> User:
    """Check an ``Authorization`` header from the client at ``address``.

    ``context.auth_throttle`` (when set) is the bucket of failed authentications per client address (see
    the module's description).

    Raises
    ------
    ApiError
        429 ``rate_limited`` while ``address`` is throttled; 401 ``unauthorized`` when the header is
        missing, not a bearer token, or the key is unknown (which takes a token from the bucket).
    """
    throttle = context.auth_throttle
    if throttle is not None:
        wait = throttle.peek(address)
        if wait:
            seconds = max(1, math.ceil(wait))
            raise ApiError(
                "rate_limited",
                f"Too many failed authentications from your address; no key is checked "
                f"from it for {seconds} s. Check the API key, then retry after that.",
                headers={"Retry-After": str(seconds)},
            )
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(
            "unauthorized",
            "Authentication required: send 'Authorization: Bearer <API_KEY>'.",
            headers={"WWW-Authenticate": 'Bearer realm="regkit"'},
        )
    if token not in context.catalog.users:
        if throttle is not None and throttle.acquire(address) == 0 and throttle.peek(address):
            logger.warning(
                "Client %s used up its %d failed authentications; its requests are answered 429 until "
                "the bucket refills",
                address,
                int(throttle.burst),
            )
        raise ApiError(
            "unauthorized",
            "The API key is not valid; check it (the local register accepts the world's demo keys, e.g. demo-paid).",
            headers={"WWW-Authenticate": 'Bearer realm="regkit", error="invalid_token"'},
        )
    with context.state.connection() as conn:
        return resolve_user(conn, context.catalog, token)
