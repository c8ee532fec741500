"""``GET``/``POST /v1/monitor`` and ``DELETE /v1/monitor/{entity_id}``: check the plan, read and check the
monitor in the body, answer the monitors."""

from __future__ import annotations

from typing import Any

from flask import Response

from regkit.schema.interface import MONITOR_ENTITY_TYPES, PREFERENCES, UPDATE_FREQUENCIES, UUID_PATTERN

from ..exceptions import ApiError
from ..models import monitors
from .bodies import read_json_object
from .companies import check_company_id
from .context import charged, current, current_user
from .render import json_response

__all__ = ["list_monitors", "create_monitor", "delete_monitor"]

_MEMBERS = frozenset({"entity_type", "entity_id", "preferences", "update_frequency"})


def _preferences(value: Any) -> list[str]:
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(p, str) and p in PREFERENCES for p in value)
        or len(set(value)) != len(value)
    ):
        raise ApiError(
            "invalid_body", f"'preferences' must be a non-empty array of distinct values from {', '.join(PREFERENCES)}."
        )
    return value


def _entity(entity_type: Any, entity_id: Any) -> tuple[str, str]:
    """Validate the entity type and the form of its id; return the type and the canonical id."""
    if not isinstance(entity_type, str) or entity_type not in MONITOR_ENTITY_TYPES:
        raise ApiError("invalid_body", f"'entity_type' must be one of {', '.join(MONITOR_ENTITY_TYPES)}.")
    if entity_type == "company":
        return entity_type, check_company_id(entity_id, code="invalid_entity_id")
    if not isinstance(entity_id, str) or not UUID_PATTERN.match(entity_id):
        raise ApiError("invalid_entity_id", f"A person monitor's 'entity_id' must be a person UUID, not {entity_id!r}.")
    return entity_type, entity_id.lower()


def list_monitors() -> Response:
    """The caller's monitors, active and disabled, oldest first."""
    user = current_user()
    user.require_monitoring()
    return json_response({"items": monitors.list_monitors(current(), user)})


def create_monitor() -> Response:
    """Create a monitor (25 credits weekly, 50 daily); person monitors are always weekly."""
    user = current_user()
    user.require_monitoring()
    body = read_json_object(required=True)
    if set(body) - _MEMBERS:
        raise ApiError(
            "invalid_body",
            f"Unknown member(s) {', '.join(sorted(set(body) - _MEMBERS))}; a monitor takes "
            f"{', '.join(sorted(_MEMBERS))}.",
        )
    entity_type = body.get("entity_type")
    if entity_type == "person" and body.get("update_frequency") is not None:
        raise ApiError("invalid_body", "Person monitors are always weekly; leave out 'update_frequency'.")
    frequency = body.get("update_frequency") or "weekly"
    if frequency not in UPDATE_FREQUENCIES:
        raise ApiError("invalid_body", f"'update_frequency' must be one of {', '.join(UPDATE_FREQUENCIES)}.")
    preferences = _preferences(body.get("preferences"))
    kind, entity_id = _entity(entity_type, body.get("entity_id"))
    created = monitors.create_monitor(current(), user, kind, entity_id, preferences, frequency)
    return json_response(charged(created))


def delete_monitor(entity_id: str) -> Response:
    """Remove the caller's monitor on ``entity_id`` (204), active or disabled."""
    user = current_user()
    user.require_monitoring()
    monitors.delete_monitor(current(), user, entity_id)
    return Response(status=204)
