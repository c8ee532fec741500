"""Webhook endpoints and messages: where a key's monitor events go, and each message with its delivery state.

The live service configures a key's endpoint outside the API; the local register does it with a local-only
command (``regkit local webhook set API_KEY --url URL``), which generates the endpoint's ``whsec_`` secret
(Standard Webhooks) and prints it once; ``regkit local webhook deliveries API_KEY`` lists the messages. Endpoint
URLs may be ``http://`` for loopback and private hosts, ``https://`` otherwise.

A message is queued by a monitor's check (:mod:`.monitor_checks`) with status ``pending``; the running register's
sender (:class:`regkit.local.delivery.WebhookSender`) posts it, signed, and records each try: ``delivered`` on a
2xx, else another try after the next retry delay, ``failed`` after the last (it stays listed). A message keeps its
id (``msg_…``, the ``webhook-id``) on every try. A key without an endpoint keeps its messages pending until it
has one.
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import json
import secrets
import sqlite3
import uuid
from typing import Any
from urllib.parse import urlsplit

from ..exceptions import OperatorError
from .catalog import Catalog
from .state import StateDB
from .users import user_ref

__all__ = [
    "set_endpoint",
    "endpoint_of",
    "deliveries",
    "queue_event",
    "due_messages",
    "record_try",
    "check_endpoint_url",
]


def check_endpoint_url(url: str) -> str:
    """``url`` if it may receive webhooks: ``https://``, or ``http://`` to a loopback or private host."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise OperatorError(f"the endpoint must be an http:// or https:// URL with a host, not {url!r}")
    if parts.scheme == "http" and not _local_host(parts.hostname):
        raise OperatorError(f"http:// is only for loopback and private hosts; use https:// for {parts.hostname}")
    return url


def _local_host(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private


def set_endpoint(state: StateDB, catalog: Catalog, api_key: str, url: str, now: float) -> str:
    """Point ``api_key``'s webhooks at ``url`` with a new secret; return the secret (``whsec_…``)."""
    if api_key not in catalog.users:
        raise OperatorError("no such API key in this world (see data/README.md for the demo keys)")
    check_endpoint_url(url)
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode("ascii")
    with state.transaction() as conn:
        conn.execute(
            "INSERT OR REPLACE INTO webhook_endpoints (user, url, secret, updated_at) VALUES (?, ?, ?, ?)",
            (user_ref(api_key), url, secret, now),
        )
    return secret


def endpoint_of(conn: sqlite3.Connection, user: str) -> tuple[str, str] | None:
    """``(url, secret)`` of a user's endpoint, or None."""
    row = conn.execute("SELECT url, secret FROM webhook_endpoints WHERE user = ?", (user,)).fetchone()
    return (str(row[0]), str(row[1])) if row else None


def deliveries(state: StateDB, catalog: Catalog, api_key: str) -> list[dict[str, Any]]:
    """``api_key``'s messages, oldest first: ``webhook_id``, ``event_id``, ``entity_id``, ``status``
    (``pending``, ``delivered``, ``failed``), ``tries``, ``last_error``."""
    if api_key not in catalog.users:
        raise OperatorError("no such API key in this world (see data/README.md for the demo keys)")
    with state.connection() as conn:
        rows = conn.execute(
            "SELECT id, event_id, entity_id, status, tries, last_error FROM webhook_messages WHERE user = ?"
            " ORDER BY created_at, rowid",
            (user_ref(api_key),),
        ).fetchall()
    names = ("webhook_id", "event_id", "entity_id", "status", "tries", "last_error")
    return [dict(zip(names, row)) for row in rows]


def queue_event(
    conn: sqlite3.Connection,
    user: str,
    entity_type: str,
    entity_id: str,
    monitor: dict[str, Any],
    period: tuple[dt.date, dt.date],
    changes: list[dict[str, Any]],
    now: float,
) -> str:
    """Queue the event of one check that found ``changes``; return its message id."""
    start, day = period
    event_id = f"evt_{uuid.uuid4().hex}"
    body = {
        "id": event_id,
        "type": f"{entity_type}.changed",
        "created_at": f"{day.isoformat()}T00:00:00Z",
        "entity_type": entity_type,
        "entity_id": entity_id,
        "monitor": monitor,
        "period": {"from": start.isoformat(), "to": day.isoformat()},
        "changes": changes,
    }
    message_id = f"msg_{uuid.uuid4().hex}"
    conn.execute(
        "INSERT INTO webhook_messages (id, user, event_id, entity_id, body, status, tries, next_attempt, created_at)"
        " VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)",
        (message_id, user, event_id, entity_id, json.dumps(body, ensure_ascii=False, separators=(",", ":")), now, now),
    )
    return message_id


def due_messages(state: StateDB, now: float, limit: int = 50) -> list[tuple[str, str, str, str, int]]:
    """Pending messages due by ``now`` whose key has an endpoint: ``(id, body, url, secret, tries)``."""
    with state.connection() as conn:
        rows = conn.execute(
            "SELECT m.id, m.body, e.url, e.secret, m.tries FROM webhook_messages AS m"
            " JOIN webhook_endpoints AS e ON e.user = m.user"
            " WHERE m.status = 'pending' AND m.next_attempt <= ? ORDER BY m.next_attempt, m.rowid LIMIT ?",
            (now, limit),
        ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4])) for r in rows]


def record_try(state: StateDB, message_id: str, error: str | None, now: float, delays: tuple[float, ...]) -> str:
    """Record a try of ``message_id`` (``error`` None: delivered); return its status after it."""
    with state.transaction() as conn:
        row = conn.execute("SELECT tries, status FROM webhook_messages WHERE id = ?", (message_id,)).fetchone()
        if row is None or row[1] != "pending":
            return str(row[1]) if row else "gone"
        tries = int(row[0]) + 1
        if error is None:
            status, next_attempt = "delivered", now
        elif tries > len(delays):
            status, next_attempt = "failed", now
        else:
            status, next_attempt = "pending", now + delays[tries - 1]
        conn.execute(
            "UPDATE webhook_messages SET tries = ?, status = ?, next_attempt = ?, last_error = ? WHERE id = ?",
            (tries, status, next_attempt, error, message_id),
        )
    return status
