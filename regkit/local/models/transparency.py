"""Transparenzregister extracts: ordering one (sandbox or production), polling it, and its stored document.

An order is stored at once with the moment it finishes (``ready_at`` = submission + the configured
delay) and its outcome; reads before that moment say ``processing``, so no background worker is needed.
The outcome and report are fixed at order time from the world and the credentials used then, so later
changes (an overwritten credential set, an operator's plan change) never alter an extract in flight.

Failure rule (production): an extract of a company whose status is ``inactive`` (deleted from the
register) ends ``failed``; every other production extract and every sandbox extract ends ``completed``.
Credits are spent at order time; a failed extract is not refunded.

A production order is checked in this order, the first failure answering: 402 plan without
Transparenzregister access; 400 credential name, body, ``company_id`` (the handler,
:mod:`regkit.local.responses.transparency`, checks these first); then here 404 company; 404 credentials of
that name; 403 account (wrong password now, locked, identification incomplete, not unlocked); 404 / 409
Transparenzregister entity (none / several); 429 30-day quota (:func:`check_quota`); 402 credits.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import sqlite3
import uuid
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES, SANDBOX_CREDENTIAL_NAME

from ..exceptions import ApiError
from ..vault import iso_time
from .companies import find_company
from .credentials import accepted_account, stored_credentials
from .credits import Charged, spend
from .owners import build_report, sandbox_report
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["order_extract", "get_extract", "check_quota", "extract_document", "QUOTA_WINDOW_SECONDS"]

QUOTA_WINDOW_SECONDS = 30 * 86400
_STATE_MESSAGES = {
    "locked": "the account is locked",
    "identification_incomplete": "the account's identification is incomplete",
    "not_unlocked": "the account has not been unlocked yet",
}
_COLUMNS = "seq, company_id, ekrn, submitted_at, ready_at, outcome, reference_number, report"


def _date(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).date().isoformat()


def _documents(context: RegisterContext, seq: int, base_url: str) -> list[dict[str, Any]]:
    """The documents of a completed extract, with URLs presigned below ``base_url``."""
    with context.state.connection() as conn:
        files = conn.execute(
            "SELECT document_id, filename, format FROM extract_documents WHERE extract_seq = ? ORDER BY filename",
            (seq,),
        ).fetchall()
    return [
        {"document_id": d, "filename": f, "format": fmt, "url": context.signer.url(base_url, d)} for d, f, fmt in files
    ]


def _resource(
    context: RegisterContext, row: tuple[Any, ...], now: float, *, base_url: str = "", order: bool = False
) -> dict[str, Any]:
    seq, company_id, ekrn, submitted_at, ready_at, outcome, reference_number, report = row
    done = not order and now >= ready_at
    completed = done and outcome == "completed"
    documents = _documents(context, seq, base_url) if completed else None
    return {
        "id": f"tre_{seq}",
        "status": outcome if done else "processing",
        "company_id": company_id,
        "ekrn": ekrn,
        "submitted_at": iso_time(submitted_at),
        "completed_at": iso_time(ready_at) if done else None,
        "reference_number": reference_number if completed else None,
        "report": json.loads(report) if completed else None,
        "documents": documents,
    }


def check_quota(conn: sqlite3.Connection, user_ref: str, quota: int, now: float) -> None:
    """Raise 429 ``extract_quota_exceeded`` (with ``Retry-After``) when ``user_ref`` has ordered ``quota``
    production extracts in the 30 days before ``now``; sandbox extracts do not count."""
    since = now - QUOTA_WINDOW_SECONDS
    count, oldest = conn.execute(
        "SELECT count(*), min(submitted_at) FROM extracts WHERE user = ? AND mode = 'production' AND submitted_at > ?",
        (user_ref, since),
    ).fetchone()
    if count >= quota:
        wait = max(1, math.ceil(oldest + QUOTA_WINDOW_SECONDS - now)) if oldest is not None else QUOTA_WINDOW_SECONDS
        raise ApiError(
            "extract_quota_exceeded",
            f"Your plan allows {quota} production extracts in any 30 days and "
            f"they are used; retry in {wait} s or upgrade the plan.",
            headers={"Retry-After": str(wait)},
        )


def _insert(conn: sqlite3.Connection, values: dict[str, Any]) -> tuple[Any, ...]:
    cursor = conn.execute(
        "INSERT INTO extracts (user, mode, credential_name, account_ref, company_id, ekrn, submitted_at, ready_at, "
        "outcome, report) VALUES (:user, :mode, :credential_name, :account_ref, :company_id, :ekrn, :submitted_at, "
        ":ready_at, :outcome, :report)",
        values,
    )
    seq = cursor.lastrowid
    reference = f"TR-{_date(values['submitted_at'])[:4]}-{seq:07d}"
    conn.execute("UPDATE extracts SET reference_number = ? WHERE seq = ?", (reference, seq))
    if values["outcome"] == "completed":
        conn.execute(
            "INSERT INTO extract_documents (document_id, extract_seq, format, filename) VALUES (?, ?, 'pdf', ?)",
            (str(uuid.uuid4()), seq, f"transparenzregister-tre_{seq}.pdf"),
        )
    return conn.execute(f"SELECT {_COLUMNS} FROM extracts WHERE seq = ?", (seq,)).fetchone()


def _login(context: RegisterContext, user: User, name: str, company_id: str) -> str:
    """Log in to the Transparenzregister with the credentials ``name``; return the account's username."""
    username, password = stored_credentials(context, user, name, purpose=f"a production extract of {company_id}")
    account = accepted_account(context, username, password)
    if account is None:
        raise ApiError(
            "register_authentication_rejected",
            f"The Transparenzregister no longer accepts the credentials {name!r}; store them again.",
        )
    state = account.get("state")
    if state != "valid":
        unknown = f"the account state is {state!r}"
        reason = unknown if state is None else _STATE_MESSAGES.get(state, unknown)
        raise ApiError(
            "register_authentication_rejected",
            f"The Transparenzregister rejected the login: {reason}. "
            "Settle it with the Transparenzregister, then retry.",
        )
    return username


def _register_entity(context: RegisterContext, company_id: str) -> str:
    """The one Transparenzregister entity (EKRN) of ``company_id`` (404 none, 409 several)."""
    ekrns = context.catalog.entities.get(context.world_day().origin(company_id), [])
    if not ekrns:
        raise ApiError("register_entity_not_found", f"The Transparenzregister has no entity for {company_id}.")
    if len(ekrns) > 1:
        raise ApiError(
            "ambiguous_register_entity",
            f"{len(ekrns)} Transparenzregister entities match {company_id}; the order cannot be disambiguated.",
        )
    return ekrns[0]


def _production(context: RegisterContext, user: User, name: str, company_id: str, now: float) -> dict[str, Any]:
    """Check everything a production order needs; return the row to insert (quota and credits come later)."""
    company = find_company(context, company_id)
    username = _login(context, user, name, company["id"])
    ekrn = _register_entity(context, company["id"])
    ready_at = now + context.config.extract_delay
    failed = company.get("status") == "inactive"
    report = (
        None
        if failed
        else build_report(
            company,
            context.world_day().companies,
            context.world_day().holders,
            context.catalog.persons,
            _date(ready_at),
            context.catalog.discrepancies.get(context.world_day().origin(company["id"])),
        )
    )
    return {
        "user": user.ref,
        "mode": "production",
        "credential_name": name,
        "account_ref": hashlib.sha256(username.encode()).hexdigest()[:16],
        "company_id": company["id"],
        "ekrn": ekrn,
        "submitted_at": now,
        "ready_at": ready_at,
        "outcome": "failed" if failed else "completed",
        "report": None if report is None else json.dumps(report),
    }


def _sandbox(context: RegisterContext, user: User, now: float) -> dict[str, Any]:
    """The row of a sandbox order: the test EKRN's fixed report, always completed."""
    ready_at = now + context.config.extract_delay
    return {
        "user": user.ref,
        "mode": "sandbox",
        "credential_name": SANDBOX_CREDENTIAL_NAME,
        "account_ref": None,
        "company_id": None,
        "ekrn": context.catalog.sandbox_ekrn,
        "submitted_at": now,
        "ready_at": ready_at,
        "outcome": "completed",
        "report": json.dumps(sandbox_report(_date(ready_at))),
    }


def order_extract(
    context: RegisterContext, user: User, credential_name: str, company_id: str | None
) -> Charged[dict[str, Any]]:
    """Order an extract (status ``processing``); the credential name ``sandbox`` is the free test mode.

    ``credential_name`` is well-formed and not a case variant of ``sandbox``; a production order has a
    well-formed ``company_id``.
    """
    now = context.now()
    if credential_name == SANDBOX_CREDENTIAL_NAME:
        values = _sandbox(context, user, now)
        ordered = spend(context, user, PRICES["extract_sandbox"], lambda conn: _insert(conn, values))
    else:
        assert company_id is not None
        values = _production(context, user, credential_name, company_id, now)
        quota = int(user.plan.get("extract_quota_30d", 0))

        def change(conn: sqlite3.Connection) -> tuple[Any, ...]:
            check_quota(conn, user.ref, quota, now)
            return _insert(conn, values)

        ordered = spend(context, user, PRICES["extract_production"], change)
    return Charged(_resource(context, ordered.value, now, order=True), ordered.credits, ordered.remaining)


def get_extract(context: RegisterContext, user: User, extract_id: str, *, base_url: str) -> dict[str, Any]:
    """An extract of ``user`` by a well-formed id (``tre_<digits>``); completed ones carry the report and
    document URLs presigned below ``base_url``."""
    digits = extract_id[4:]
    with context.state.connection() as conn:
        row = (
            None
            if len(digits) > 18 or str(int(digits)) != digits
            else conn.execute(
                f"SELECT {_COLUMNS} FROM extracts WHERE seq = ? AND user = ?", (int(digits), user.ref)
            ).fetchone()
        )
    if row is None:
        raise ApiError("extract_not_found", f"You have no extract {extract_id}.")
    return _resource(context, row, context.now(), base_url=base_url)


def extract_document(context: RegisterContext, document_id: str) -> tuple[str, dict[str, Any], str] | None:
    """The extract id, report and file name behind the document ``document_id`` of an extract that has
    completed by now, or ``None``."""
    with context.state.connection() as conn:
        row = conn.execute(
            "SELECT e.seq, e.report, e.ready_at, d.filename FROM extract_documents d "
            "JOIN extracts e ON e.seq = d.extract_seq WHERE d.document_id = ?",
            (document_id,),
        ).fetchone()
    if row is None or row[1] is None or row[2] > context.now():
        return None
    return f"tre_{row[0]}", json.loads(row[1]), row[3]
