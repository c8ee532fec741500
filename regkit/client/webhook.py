"""Receiving monitors' webhook events: verified, deduplicated, stored, and read back as changes.

A monitor's event reaches the account's webhook endpoint as a ``POST`` signed as Standard Webhooks say
(``webhook-id``, ``webhook-timestamp``, ``webhook-signature``; see ``docs/interface.md``, "Webhook events").
:class:`Receiver` is that endpoint as a WSGI application, to mount in any WSGI server or to run with
``regkit webhook listen``:

- the signature is checked with the ``standardwebhooks`` library against the endpoint's secret (``whsec_…``);
  a bad or missing signature is answered ``401``, a timestamp more than 5 minutes from the receiver's clock
  ``401`` too, and nothing of it is stored;
- a verified message is written to the event store (:class:`EventStore`, an SQLite file the user names) before
  it is answered ``200``, so a receiver killed after the write and restarted has it, and a sender that did not get
  the answer sends it again;
- delivery is at-least-once: a message whose ``webhook-id`` is stored already is answered ``200`` and not stored
  again;
- a verified body that is not an event regkit knows (the live service does not publish its body) is stored raw and
  counted (``unrecognised``), never dropped.

:func:`read_events` reads the store back as one row per change — the columns of
:func:`regkit.frames.changes_table` after the event's own — so an event's changes and a diff of the answers read
alike.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regkit.errors import ValidationError
from regkit.schema.changes import CATEGORIES, CHANGE_MEMBERS, KINDS

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EVENT_TYPES", "MAX_BODY_BYTES", "EventStore", "Receiver", "read_events", "secret_from"]

#: The event types of a monitor's webhook event.
EVENT_TYPES = ("company.changed", "person.changed")

#: The largest body the receiver reads (larger ones are answered 413, nothing stored).
MAX_BODY_BYTES = 5 * 1024 * 1024

#: The environment variable ``regkit webhook listen`` reads the endpoint's secret from.
SECRET_SETTING = "REGKIT_WEBHOOK_SECRET"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    webhook_id TEXT PRIMARY KEY,
    received_at TEXT NOT NULL,
    recognised INTEGER NOT NULL,
    body TEXT NOT NULL
)
"""


def secret_from(environ: Mapping[str, str], secret_file: str | Path | None = None) -> str:
    """The endpoint's secret: the file's first line when ``secret_file`` is given, else ``REGKIT_WEBHOOK_SECRET``.

    Raises
    ------
    ValidationError
        Neither gives one, or it is not a ``whsec_`` secret.
    """
    if secret_file is not None:
        try:
            lines = Path(secret_file).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ValidationError(f"the secret file {secret_file} cannot be read ({exc.strerror or exc})") from None
        secret = lines[0].strip() if lines else ""
    else:
        secret = environ.get(SECRET_SETTING, "").strip()
    if not secret:
        raise ValidationError(
            "no webhook secret: set REGKIT_WEBHOOK_SECRET or pass --secret-file FILE",
            suggestion="the secret is the endpoint's whsec_… (regkit local webhook set prints it); it is never "
            "taken on the command line, where other users of the machine can read it",
        )
    if not secret.startswith("whsec_"):
        raise ValidationError("the webhook secret must start with whsec_ (a Standard Webhooks secret)")
    return secret


def _recognised(event: Any) -> bool:
    """Whether ``event`` is a monitor's event as regkit reads it: its type, its entity and well-formed changes."""
    if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
        return False
    if not isinstance(event.get("entity_id"), str) or not isinstance(event.get("changes"), list):
        return False
    for change in event["changes"]:
        if not isinstance(change, dict) or any(member not in change for member in CHANGE_MEMBERS):
            return False
        if change["category"] not in CATEGORIES or change["kind"] not in KINDS[change["category"]]:
            return False
    return True


class EventStore:
    """The events a receiver took, in an SQLite file (made when missing; one row per ``webhook-id``).

    Parameters
    ----------
    path : str or path
        The file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        with self._connect() as connection:
            connection.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        return connection

    def add(self, webhook_id: str, body: bytes, recognised: bool) -> bool:
        """Store one verified message (committed when this returns); ``False`` when its ``webhook-id`` is stored
        already (a delivery sent again), which is not stored twice."""
        received = datetime.now(timezone.utc).isoformat()
        text = body.decode("utf-8", errors="replace")
        with self._lock, self._connect() as connection:
            cursor = connection.execute(
                "INSERT OR IGNORE INTO events (webhook_id, received_at, recognised, body) VALUES (?, ?, ?, ?)",
                (webhook_id, received, int(recognised), text),
            )
            return cursor.rowcount == 1

    def rows(self) -> list[dict[str, Any]]:
        """Every stored message in the order received: ``webhook_id``, ``received_at``, ``recognised``, ``body``."""
        with self._lock, self._connect() as connection:
            found = connection.execute(
                "SELECT webhook_id, received_at, recognised, body FROM events ORDER BY rowid"
            ).fetchall()
        return [{"webhook_id": w, "received_at": r, "recognised": bool(k), "body": b} for w, r, k, b in found]

    def counts(self) -> dict[str, int]:
        """``{"events": …, "unrecognised": …}``: the messages stored, and those whose body regkit does not know."""
        rows = self.rows()
        return {"events": len(rows), "unrecognised": sum(not row["recognised"] for row in rows)}


class Receiver:
    """The webhook endpoint as a WSGI application (see the module docstring).

    Parameters
    ----------
    secret : str
        The endpoint's ``whsec_…`` secret.
    store : EventStore or path
        Where verified messages go.
    on_event : callable, optional
        Called with each new recognised event (a dict) after it is stored.
    """

    def __init__(
        self, secret: str, store: EventStore | str | Path, on_event: Callable[[dict[str, Any]], None] | None = None
    ) -> None:
        from standardwebhooks import Webhook

        self.webhook = Webhook(secret)
        self.store = store if isinstance(store, EventStore) else EventStore(store)
        self.on_event = on_event
        self.rejected = 0
        self.duplicates = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        from standardwebhooks import WebhookVerificationError

        if environ.get("REQUEST_METHOD") != "POST":
            return _answer(start_response, 405, "a webhook endpoint takes POST only", [("Allow", "POST")])
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            return _answer(start_response, 413, f"the body must have a Content-Length of at most {MAX_BODY_BYTES}")
        body = environ["wsgi.input"].read(length) if length else b""
        headers = {
            name[5:].replace("_", "-").lower(): value for name, value in environ.items() if name.startswith("HTTP_")
        }
        try:
            self.webhook.verify(body, headers, json_parse=False)
        except WebhookVerificationError as exc:
            self.rejected += 1
            return _answer(start_response, 401, f"not verified: {exc}")
        try:
            event = json.loads(body)
        except ValueError:
            event = None
        recognised = _recognised(event)
        if not self.store.add(headers["webhook-id"], body, recognised):
            self.duplicates += 1
            return _answer(start_response, 200, "already received")
        if recognised and self.on_event is not None:
            self.on_event(event)
        return _answer(start_response, 200, "stored")


def _answer(
    start_response: Callable[..., Any], status: int, message: str, extra: list[tuple[str, str]] | None = None
) -> list[bytes]:
    reasons = {200: "OK", 401: "Unauthorized", 405: "Method Not Allowed", 413: "Content Too Large"}
    body = json.dumps({"status": status, "message": message}).encode()
    start_response(
        f"{status} {reasons[status]}",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body))), *(extra or [])],
    )
    return [body]


#: The columns :func:`read_events` puts before those of :func:`regkit.frames.changes_table`.
EVENT_COLUMNS = ("webhook_id", "event_id", "type", "entity_type", "entity_id", "created_at", "period_from", "period_to")


def read_events(store: EventStore | str | Path) -> pd.DataFrame:
    """The changes of every recognised event of a receiver's store, one row per change, in the order received.

    Parameters
    ----------
    store : EventStore or path
        The receiver's store (``regkit webhook listen --store FILE``).

    Returns
    -------
    pandas.DataFrame
        ===========  ===================  ==========================================================
        webhook_id   str                  the message id (the same on every retry)
        event_id     str                  the event's ``id`` (``evt_…``)
        type         str                  ``company.changed`` or ``person.changed``
        entity_type  str                  ``company`` or ``person``
        entity_id    str                  the company id or person id
        created_at   datetime64[us, UTC]  the register's day of the check
        period_from  datetime64[us]       the first day the check covers
        period_to    datetime64[us]       the last
        ===========  ===================  ==========================================================

        then the columns of :func:`regkit.frames.changes_table`. Bodies regkit does not know are not in it:
        ``EventStore(path).counts()["unrecognised"]`` counts them and ``rows()`` has them raw.
    """
    import pandas as pd

    from regkit.frames import changes_table

    events = store if isinstance(store, EventStore) else EventStore(store)
    changes: list[dict[str, Any]] = []
    meta: list[tuple[Any, ...]] = []
    for row in events.rows():
        if not row["recognised"]:
            continue
        event = json.loads(row["body"])
        period = event.get("period") or {}
        for change in event["changes"]:
            changes.append(change)
            meta.append(
                (
                    row["webhook_id"],
                    event.get("id"),
                    event.get("type"),
                    event.get("entity_type"),
                    event.get("entity_id"),
                    event.get("created_at"),
                    period.get("from"),
                    period.get("to"),
                )
            )
    frame = changes_table(changes)
    text = frame["field"].dtype
    for position, column in enumerate(EVENT_COLUMNS):
        values = [row[position] for row in meta]
        if column == "created_at":
            typed: Any = pd.to_datetime(values, utc=True).astype("datetime64[us, UTC]")
        elif column.startswith("period_"):
            typed = pd.to_datetime(values).astype("datetime64[us]")
        else:
            typed = pd.array(values, dtype=text)
        frame.insert(position, column, typed)
    return frame
