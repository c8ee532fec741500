"""Metering: what each user has used of the credits included in the period, charging, and ``get_credits``.

Usage is kept per user and UTC day (``usage`` table), so the balance of a calendar-month billing cycle
or of a rolling 30-day window is a sum over at most 31 rows. :func:`charge` must run inside the state
change's ``BEGIN IMMEDIATE`` transaction: the balance check, the charge and the change commit together
or not at all, and two threads cannot both spend the last credits — :func:`spend` does that for every
metered model call and returns its value as :class:`Charged`.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from ..exceptions import ApiError
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = [
    "charged_page",
    "Balance",
    "Charged",
    "balance",
    "charge",
    "spend",
    "credits_document",
    "get_credits",
    "remaining_credits",
    "period_start",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)  # Charged is frozen: read-only, so covariant

ROLLING_DAYS = 30


def _today(now: float) -> dt.date:
    return dt.datetime.fromtimestamp(now, dt.timezone.utc).date()


def period_start(period: str, now: float) -> dt.date:
    """First day counted in the period: the 1st of the month (billing cycle) or 29 days back (rolling)."""
    today = _today(now)
    if period == "rolling_30_days":
        return today - dt.timedelta(days=ROLLING_DAYS - 1)
    return today.replace(day=1)


@dataclass(frozen=True)
class Balance:
    """Credits of a user's current period."""

    used: int
    included: int

    @property
    def remaining(self) -> int:
        """Credits still available (never negative: calls that cannot be paid are refused)."""
        return max(self.included - self.used, 0)


def balance(conn: sqlite3.Connection, user: User, now: float) -> Balance:
    """The user's balance at ``now``."""
    start = period_start(user.period, now).isoformat()
    row = conn.execute(
        "SELECT coalesce(sum(credits), 0) FROM usage WHERE user = ? AND day >= ?", (user.ref, start)
    ).fetchone()
    return Balance(used=int(row[0]), included=user.included_credits)


def charge(conn: sqlite3.Connection, user: User, credits: int, now: float) -> Balance:
    """Spend ``credits`` inside the caller's transaction and return the balance after it.

    Raises
    ------
    ApiError
        402 ``insufficient_credits`` when the balance cannot pay; nothing is charged then.
    """
    before = balance(conn, user, now)
    if credits <= 0:
        return before
    if before.remaining < credits:
        raise ApiError(
            "insufficient_credits",
            f"This call costs {credits} credits and {before.remaining} remain in "
            "the current period; wait for the period to reset or upgrade the plan.",
        )
    conn.execute(
        "INSERT INTO usage (user, day, credits) VALUES (?, ?, ?) "
        "ON CONFLICT (user, day) DO UPDATE SET credits = credits + excluded.credits",
        (user.ref, _today(now).isoformat(), credits),
    )
    return Balance(used=before.used + credits, included=before.included)


@dataclass(frozen=True)
class Charged(Generic[T_co]):
    """What a metered model call returns: its ``value``, the ``credits`` it charged and the balance left
    (``remaining`` is ``None`` when the call charged nothing and did not look)."""

    value: T_co
    credits: int = 0
    remaining: int | None = None


@overload
def spend(context: RegisterContext, user: User, credits: int, change: None = None) -> Charged[None]: ...


@overload
def spend(
    context: RegisterContext, user: User, credits: int, change: Callable[[sqlite3.Connection], T]
) -> Charged[T]: ...


def spend(
    context: RegisterContext, user: User, credits: int, change: Callable[[sqlite3.Connection], T] | None = None
) -> Charged[T | None]:
    """Apply ``change`` and charge ``credits`` to ``user`` in one transaction; return its result as charged.

    Either both happen or neither: an :class:`~regkit.local.exceptions.ApiError` raised by ``change`` (a 409,
    a quota 429) comes first and charges nothing; a 402 (balance too low) rolls the change back.
    """
    now = context.now()
    with context.state.transaction() as conn:
        result = change(conn) if change is not None else None
        after = charge(conn, user, credits, now)
    return Charged(result, credits, after.remaining)


def remaining_credits(context: RegisterContext, user: User) -> int:
    """The credits ``user`` has left in the current period."""
    with context.state.connection() as conn:
        return balance(conn, user, context.now()).remaining


def _reset_at(conn: sqlite3.Connection, user: User, now: float) -> str:
    today = _today(now)
    if user.period == "rolling_30_days":
        row = conn.execute(
            "SELECT min(day) FROM usage WHERE user = ? AND day >= ? AND credits > 0",
            (user.ref, period_start(user.period, now).isoformat()),
        ).fetchone()
        first = dt.date.fromisoformat(row[0]) if row[0] is not None else today
        day = first + dt.timedelta(days=ROLLING_DAYS)
    else:
        day = (today.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return f"{day.isoformat()}T00:00:00Z"


def credits_document(conn: sqlite3.Connection, user: User, now: float) -> dict[str, Any]:
    """The body of ``GET /v1/credits``.

    ``reset_at`` is the first day of the next month for a billing cycle; for a rolling window it is when
    the oldest credits still counted drop out, and when none are counted, 30 days from today (the window
    starts with the next request). It is never null: the live service's client requires it.
    """
    current = balance(conn, user, now)
    return {
        "used_credits": current.used,
        "remaining_credits": current.remaining,
        "included_credits": current.included,
        "overage_credits": 0,
        "paid": user.paid,
        "period": {"type": user.period, "reset_at": _reset_at(conn, user, now)},
    }


def get_credits(context: RegisterContext, user: User) -> dict[str, Any]:
    """The caller's credit balance for the current period (``GET /v1/credits``, free)."""
    with context.state.connection() as conn:
        return credits_document(conn, user, context.now())


def charged_page(
    context: RegisterContext,
    user: User,
    results: list[Any],
    total: int,
    page: int,
    per_page: int,
    price: str,
    client_gone: Callable[[], bool],
) -> Charged[dict[str, Any]]:
    """A search page (``results`` plus ``pagination``), charged ``PRICES[price]`` once it is ready — unless
    ``client_gone()`` says the client has disconnected by then (nobody receives the answer: nothing is charged).
    """
    from regkit.schema.interface import PRICES

    body = {
        "results": results,
        "pagination": {
            "page": page,
            "per_page": per_page,
            "total_pages": -(-total // per_page),
            "total_results": total,
        },
    }
    if client_gone():
        return Charged(body)
    charged = spend(context, user, PRICES[price])
    return Charged(body, charged.credits, charged.remaining)
