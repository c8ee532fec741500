"""Monitors: a user's monitors on companies and persons — listing, creating (metered), deleting, disabling.

All of them need a plan that includes monitoring (402 otherwise; the handlers check it first). A user whose
plan loses monitoring has its monitors disabled with their configuration kept (:func:`set_disabled`); an
upgrade does not re-enable them, the operator does (:mod:`regkit.local.models.admin`). One monitor per user
and entity: creating a second is a 409.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES, UUID_PATTERN

from ..exceptions import ApiError
from .credits import Charged, spend
from .monitor_checks import register_monitor
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["list_monitors", "create_monitor", "delete_monitor", "set_disabled"]

_SELECT = "SELECT entity_type, entity_id, preferences, update_frequency, disabled FROM monitors"


def _monitor(row: tuple[Any, ...]) -> dict[str, Any]:
    entity_type, entity_id, preferences, update_frequency, disabled = row
    return {
        "entity_type": entity_type,
        "entity_id": entity_id,
        "preferences": json.loads(preferences),
        "update_frequency": update_frequency,
        "disabled": bool(disabled),
    }


def list_monitors(context: RegisterContext, user: User) -> list[dict[str, Any]]:
    """The user's monitors, active and disabled, oldest first."""
    with context.state.connection() as conn:
        rows = conn.execute(f"{_SELECT} WHERE user = ? ORDER BY created_at, entity_id", (user.ref,)).fetchall()
    return [_monitor(row) for row in rows]


def _check_exists(context: RegisterContext, entity_type: str, entity_id: str) -> None:
    day = context.world_day()
    if entity_type == "company":  # a former id (a move to another court) leads to the company, as a lookup does
        exists = day.company(day.resolve(entity_id)) is not None
    else:
        exists = day.person(entity_id.lower()) is not None
    if not exists:
        raise ApiError("entity_not_found", f"No {entity_type} has the id {entity_id}.")


def create_monitor(
    context: RegisterContext,
    user: User,
    entity_type: str,
    entity_id: str,
    preferences: list[str],
    update_frequency: str,
) -> Charged[dict[str, Any]]:
    """Create a monitor on an entity given by its canonical id (25 credits weekly, 50 daily).

    Raises
    ------
    ApiError
        404 ``entity_not_found``, 409 ``monitor_exists``, 402 ``insufficient_credits``.
    """
    _check_exists(context, entity_type, entity_id)
    now, today = context.now(), context.today()

    def insert(conn: sqlite3.Connection) -> tuple[Any, ...]:
        try:
            conn.execute(
                "INSERT INTO monitors (user, entity_id, entity_type, preferences, update_frequency, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (user.ref, entity_id, entity_type, json.dumps(preferences), update_frequency, now),
            )
        except sqlite3.IntegrityError:
            raise ApiError(
                "monitor_exists", f"You already monitor {entity_id}; delete that monitor first to change it."
            ) from None
        register_monitor(conn, user.ref, entity_id, today)
        return conn.execute(f"{_SELECT} WHERE user = ? AND entity_id = ?", (user.ref, entity_id)).fetchone()

    created = spend(context, user, PRICES[f"monitor_{update_frequency}"], insert)
    return Charged(_monitor(created.value), created.credits, created.remaining)


def delete_monitor(context: RegisterContext, user: User, entity_id: str) -> None:
    """Remove the user's monitor on ``entity_id`` (a person UUID in any case), active or disabled."""
    key = entity_id.lower() if UUID_PATTERN.match(entity_id) else entity_id
    with context.state.connection() as conn:
        deleted = conn.execute("DELETE FROM monitors WHERE user = ? AND entity_id = ?", (user.ref, key)).rowcount
    if not deleted:
        raise ApiError("monitor_not_found", f"You have no monitor on {entity_id}.")


def set_disabled(conn: sqlite3.Connection, user_ref: str, disabled: bool) -> int:
    """Disable (or re-enable) every monitor of ``user_ref`` that is not so yet; return how many changed."""
    return conn.execute(
        "UPDATE monitors SET disabled = ? WHERE user = ? AND disabled = ?", (int(disabled), user_ref, int(not disabled))
    ).rowcount
