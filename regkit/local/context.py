"""Everything one application instance works with, reachable from its request handlers."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Callable, TypeVar

from flask import current_app, g

from .auth import User
from .catalog import Catalog
from .config import Config
from .credits import charge
from .ratelimit import RateLimiter
from .signing import UrlSigner
from .state import StateDB
from .vault import Vault

__all__ = ["RegisterContext", "current", "current_user", "charged", "spend", "EXTENSION"]

T = TypeVar("T")

EXTENSION = "regkit.local"


@dataclass
class RegisterContext:
    """The world, the state file and the services of one local register application."""

    catalog: Catalog
    state: StateDB
    config: Config
    signer: UrlSigner
    vault: Vault
    limiter: RateLimiter | None
    auth_throttle: RateLimiter | None = None

    def now(self) -> float:
        """The register's current Unix time (the configured clock)."""
        return self.config.clock()


def current() -> RegisterContext:
    """The context of the application handling the current request."""
    return current_app.extensions[EXTENSION]


def current_user() -> User:
    """The authenticated user of the current request."""
    return g.user


def charged(credits: int, remaining: int) -> None:
    """Record what the current request spent (for ``X-Credits-Charged`` / ``X-Credits-Remaining``)."""
    g.credits_charged = credits
    g.credits_remaining = remaining


def spend(credits: int, change: Callable[[sqlite3.Connection], T] | None = None) -> T | None:
    """Apply ``change`` and charge ``credits`` to the current user in one transaction.

    Either both happen or neither: an :class:`~regkit.local.errors.ApiError` raised by ``change`` (a 409,
    a quota 429) comes first and charges nothing; a 402 (balance too low) rolls the change back.
    """
    context = current()
    now = context.now()
    with context.state.transaction() as conn:
        result = change(conn) if change is not None else None
        after = charge(conn, current_user(), credits, now)
    charged(credits, after.remaining)
    return result
