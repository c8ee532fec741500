"""Monitors: ``GET``/``POST /v1/monitor`` and ``DELETE /v1/monitor/{entity_id}``.

All three need a plan that includes monitoring (402 otherwise). A user whose plan loses monitoring has
its monitors disabled with their configuration kept; an upgrade does not re-enable them, the operator
does (:mod:`regkit.local.admin`). One monitor per user and entity: creating a second is a 409.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flask import Blueprint, Response

from regkit.schema.interface import MONITOR_ENTITY_TYPES, PREFERENCES, PRICES, UPDATE_FREQUENCIES

from .bodies import read_json_object
from .companies import check_company_id
from .context import current, current_user, spend
from .errors import ApiError, json_response
from .insolvencies import UUID_PATTERN

__all__ = ["bp"]

bp = Blueprint("monitors", __name__)

_MEMBERS = frozenset({"entity_type", "entity_id", "preferences", "update_frequency"})
_SELECT = "SELECT entity_type, entity_id, preferences, update_frequency, disabled FROM monitors"


def _monitor(row: tuple[Any, ...]) -> dict[str, Any]:
    entity_type, entity_id, preferences, update_frequency, disabled = row
    return {"entity_type": entity_type, "entity_id": entity_id, "preferences": json.loads(preferences),
            "update_frequency": update_frequency, "disabled": bool(disabled)}


def _preferences(value: Any) -> list[str]:
    if (not isinstance(value, list) or not value or not all(isinstance(p, str) and p in PREFERENCES for p in value)
            or len(set(value)) != len(value)):
        raise ApiError("invalid_body", f"'preferences' must be a non-empty array of distinct values from "
                                       f"{', '.join(PREFERENCES)}.")
    return value


def _entity(entity_type: Any, entity_id: Any) -> str:
    """Validate the entity's id form and existence; return its canonical id."""
    if entity_type not in MONITOR_ENTITY_TYPES:
        raise ApiError("invalid_body", f"'entity_type' must be one of {', '.join(MONITOR_ENTITY_TYPES)}.")
    catalog = current().catalog
    if entity_type == "company":
        entity_id = check_company_id(entity_id, code="invalid_entity_id")
        exists = entity_id in catalog.world.companies
    else:
        if not isinstance(entity_id, str) or not UUID_PATTERN.match(entity_id):
            raise ApiError("invalid_entity_id", f"A person monitor's 'entity_id' must be a person UUID, not {entity_id!r}.")
        entity_id = entity_id.lower()
        exists = entity_id in catalog.persons
    if not exists:
        raise ApiError("entity_not_found", f"No {entity_type} has the id {entity_id}.")
    return entity_id


@bp.get("/v1/monitor")
def list_monitors():
    """The caller's monitors, active and disabled, oldest first."""
    user = current_user()
    user.require_monitoring()
    with current().state.connection() as conn:
        rows = conn.execute(f"{_SELECT} WHERE user = ? ORDER BY created_at, entity_id", (user.ref,)).fetchall()
    return json_response({"items": [_monitor(row) for row in rows]})


@bp.post("/v1/monitor")
def create_monitor():
    """Create a monitor (25 credits weekly, 50 daily); person monitors are always weekly."""
    user = current_user()
    user.require_monitoring()
    body = read_json_object(required=True)
    if set(body) - _MEMBERS:
        raise ApiError("invalid_body", f"Unknown member(s) {', '.join(sorted(set(body) - _MEMBERS))}; a monitor takes "
                                       f"{', '.join(sorted(_MEMBERS))}.")
    entity_type = body.get("entity_type")
    if entity_type == "person" and body.get("update_frequency") is not None:
        raise ApiError("invalid_body", "Person monitors are always weekly; leave out 'update_frequency'.")
    frequency = body.get("update_frequency") or "weekly"
    if frequency not in UPDATE_FREQUENCIES:
        raise ApiError("invalid_body", f"'update_frequency' must be one of {', '.join(UPDATE_FREQUENCIES)}.")
    preferences = _preferences(body.get("preferences"))
    entity_id = _entity(entity_type, body.get("entity_id"))
    context = current()
    now = context.now()

    def insert(conn: sqlite3.Connection) -> tuple[Any, ...]:
        try:
            conn.execute("INSERT INTO monitors (user, entity_id, entity_type, preferences, update_frequency, created_at)"
                         " VALUES (?, ?, ?, ?, ?, ?)", (user.ref, entity_id, entity_type, json.dumps(preferences),
                                                       frequency, now))
        except sqlite3.IntegrityError:
            raise ApiError("monitor_exists", f"You already monitor {entity_id}; delete that monitor first to change "
                                             "it.") from None
        return conn.execute(f"{_SELECT} WHERE user = ? AND entity_id = ?", (user.ref, entity_id)).fetchone()

    row = spend(PRICES[f"monitor_{frequency}"], insert)
    return json_response(_monitor(row))


@bp.delete("/v1/monitor/<path:entity_id>")
def delete_monitor(entity_id: str):
    """Remove the caller's monitor on ``entity_id`` (204), active or disabled."""
    user = current_user()
    user.require_monitoring()
    key = entity_id.lower() if UUID_PATTERN.match(entity_id) else entity_id
    with current().state.connection() as conn:
        deleted = conn.execute("DELETE FROM monitors WHERE user = ? AND entity_id = ?", (user.ref, key)).rowcount
    if not deleted:
        raise ApiError("monitor_not_found", f"You have no monitor on {entity_id}.")
    return Response(status=204)
