"""What a handler knows about the request it serves: its register's backend, its user, what it charged."""

from __future__ import annotations

from typing import TypeVar

from flask import current_app, g

from ..models.backend import EXTENSION, RegisterContext
from ..models.credits import Charged
from ..models.users import User

__all__ = ["current", "current_user", "charged"]

T = TypeVar("T")


def current() -> RegisterContext:
    """The backend of the application handling the current request."""
    return current_app.extensions[EXTENSION]


def current_user() -> User:
    """The authenticated user of the current request."""
    return g.user


def charged(result: Charged[T]) -> T:
    """Record what a metered model call charged (for ``X-Credits-Charged`` / ``X-Credits-Remaining``) and
    return its value."""
    g.credits_charged = result.credits
    g.credits_remaining = result.remaining
    return result.value
