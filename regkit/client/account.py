"""Credentials, monitors and credits: what the account methods of :class:`regkit.Client` send.

Nothing here is ever cached: stored credentials are sent once and never written anywhere, monitors and credits
are always asked afresh.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from regkit.schema.interface import PRICES

from . import validation
from .transport.operation import Operation

__all__ = ["store_credentials_op", "create_monitor_op", "delete_monitor_op"]

_CREDENTIAL_HINTS = {
    401: "the Transparenzregister rejected this username and password (the API key is fine); check them",
    402: "storing Transparenzregister credentials needs a paid plan",
    409: "the account holds the maximum number of credential sets; overwrite an existing name instead",
}


def store_credentials_op(username: Any, password: Any, name: Any) -> Operation:
    """The operation of ``store_credentials`` (arguments checked; nothing is sent; never retried)."""
    name = validation.credential_name(name, storing=True)
    username, password = validation.credentials(username, password)
    return Operation(
        "store_credentials",
        "POST",
        "/v1/transparenzregister/credentials",
        body={"username": username, "password": password, "name": name},
        price=PRICES["credentials_store"],
        idempotent=False,
        hints=_CREDENTIAL_HINTS,
        unknown_hint="store them again: it overwrites the set of that name",
    )


def create_monitor_op(entity_type: Any, entity_id: Any, preferences: Any, update_frequency: Any) -> Operation:
    """The operation of ``create_monitor`` (arguments checked; nothing is sent; never retried)."""
    body = validation.monitor(entity_type, entity_id, preferences, update_frequency)
    price = PRICES["monitor_daily" if body.get("update_frequency") == "daily" else "monitor_weekly"]
    hint = (
        f"check client.list_monitors() for a monitor on {body['entity_id']} before creating it "
        "again; one that exists is a 409, not a second charge"
    )
    return Operation(
        "create_monitor", "POST", "/v1/monitor", body=body, price=price, idempotent=False, unknown_hint=hint
    )


def delete_monitor_op(entity_id: Any) -> Operation:
    """The operation of ``delete_monitor`` for a company id or a person UUID (checked; nothing is sent)."""
    kind = "company" if str(entity_id).strip().startswith("DE-") else "person"
    path = f"/v1/monitor/{quote(validation.entity_id(kind, entity_id))}"
    hints = {404: "there is no monitor on this entity; see client.list_monitors()"}
    return Operation("delete_monitor", "DELETE", path, price=PRICES["monitor_delete"], hints=hints)
