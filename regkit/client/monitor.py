"""Monitors: what ``create_monitor`` and ``delete_monitor`` send, the :class:`MonitorRecord` and its HTML
summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regkit.common.html import summary_html
from regkit.schema.formatting import MISSING

from .arguments import validation
from .records import (
    Record,
    text_or_missing,
)
from .transport.operation import Operation, operation

__all__ = ["create_monitor_op", "delete_monitor_op", "MonitorRecord", "monitor_html"]


def create_monitor_op(entity_type: Any, entity_id: Any, preferences: Any, update_frequency: Any) -> Operation:
    """The operation of ``create_monitor`` (arguments checked; nothing is sent; sent again only after a
    429 ``rate_limited``)."""
    body = validation.monitor(entity_type, entity_id, preferences, update_frequency)
    hint = (
        f"check client.list_monitors() for a monitor on {body['entity_id']} before creating it "
        "again; one that exists is a 409, not a second charge"
    )
    return operation(
        "create_monitor", body=body, choice=body.get("update_frequency"), idempotent=False, unknown_hint=hint
    )


def delete_monitor_op(entity_id: Any) -> Operation:
    """The operation of ``delete_monitor`` for a company id or a person UUID (checked; nothing is sent)."""
    kind = "company" if str(entity_id).strip().startswith("DE-") else "person"
    hints = {404: "there is no monitor on this entity; see client.list_monitors()"}
    return operation("delete_monitor", {"entity_id": validation.entity_id(kind, entity_id)}, hints=hints)


class MonitorRecord(Record):
    """A monitor: ``entity_type``, ``entity_id``, ``preferences``, ``update_frequency``, ``disabled``."""

    kind = "monitor"

    def _label(self) -> str:
        return f"{self.raw.get('entity_type', '')} {self.raw.get('entity_id', '')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: what the monitor watches, how often, whether it is active."""
        return monitor_html(self.raw)


def monitor_html(m: Mapping[str, Any]) -> str:
    """A monitor: what it watches, how often, and whether the service disabled it."""
    disabled = bool(m.get("disabled"))
    facts = [
        ("Watches", ", ".join(str(p).replace("_", " ") for p in m.get("preferences") or ()) or MISSING),
        ("Frequency", text_or_missing(m.get("update_frequency"))),
    ]
    what = "person" if m.get("entity_type") == "person" else "company"
    title = f"Monitor of {what} {m.get('entity_id')}" if what == "company" else "Monitor of a person"
    note = f"person id {text_or_missing(m.get('entity_id'))}" if what == "person" else ""
    return summary_html(
        title, facts, badge=("disabled", "error") if disabled else ("active", "ok"), note=note, kind="monitor"
    )
