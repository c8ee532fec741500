"""Transparenzregister extracts: ``POST /v1/transparenzregister/extracts`` and polling by id.

An order is stored at once with the moment it finishes (``ready_at`` = submission + the configured
delay) and its outcome; reads before that moment say ``processing``, so no background worker is needed.
The outcome and report are fixed at order time from the world and the credentials used then, so later
changes (an overwritten credential set, an operator's plan change) never alter an extract in flight.

Failure rule (production): an extract of a company whose status is ``inactive`` (deleted from the
register) ends ``failed``; every other production extract and every sandbox extract ends ``completed``.
Credits are spent at order time; a failed extract is not refunded.

A production order is checked in this order, the first failure answering: 402 plan without
Transparenzregister access; 400 credential name, body, ``company_id``; 404 company; 404 credentials of
that name; 403 account (wrong password now, locked, identification incomplete, not unlocked); 404 / 409
Transparenzregister entity (none / several); 429 30-day quota; 402 credits.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import math
import sqlite3
import uuid
from typing import Any

from flask import Blueprint, request

from regkit.schema.interface import DEFAULT_CREDENTIAL_NAME, EXTRACT_ID_PATTERN, PRICES, SANDBOX_CREDENTIAL_NAME

from .bodies import read_json_object
from .companies import check_company_id, find_company
from .context import RegisterContext, current, current_user, spend
from .credentials import check_credential_name
from .errors import ApiError, json_response
from .owners import build_report, sandbox_report
from .vault import iso_time

__all__ = ["bp", "QUOTA_WINDOW_SECONDS"]

bp = Blueprint("transparency", __name__)

QUOTA_WINDOW_SECONDS = 30 * 86400
_STATE_MESSAGES = {
    "locked": "the account is locked",
    "identification_incomplete": "the account's identification is incomplete",
    "not_unlocked": "the account has not been unlocked yet",
}
_COLUMNS = "seq, company_id, ekrn, submitted_at, ready_at, outcome, reference_number, report"


def _date(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).date().isoformat()


def _resource(row: tuple[Any, ...], now: float, *, order: bool = False) -> dict[str, Any]:
    seq, company_id, ekrn, submitted_at, ready_at, outcome, reference_number, report = row
    done = not order and now >= ready_at
    completed = done and outcome == "completed"
    documents = None
    if completed:
        context = current()
        with context.state.connection() as conn:
            files = conn.execute("SELECT document_id, filename, format FROM extract_documents WHERE extract_seq = ? "
                                 "ORDER BY filename", (seq,)).fetchall()
        documents = [{"document_id": d, "filename": f, "format": fmt, "url": context.signer.url(request.host_url, d)}
                     for d, f, fmt in files]
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


def _check_quota(conn: sqlite3.Connection, user_ref: str, quota: int, now: float) -> None:
    since = now - QUOTA_WINDOW_SECONDS
    count, oldest = conn.execute("SELECT count(*), min(submitted_at) FROM extracts WHERE user = ? AND mode = "
                                 "'production' AND submitted_at > ?", (user_ref, since)).fetchone()
    if count >= quota:
        wait = max(1, math.ceil(oldest + QUOTA_WINDOW_SECONDS - now)) if oldest is not None else QUOTA_WINDOW_SECONDS
        raise ApiError("extract_quota_exceeded", f"Your plan allows {quota} production extracts in any 30 days and "
                                                 f"they are used; retry in {wait} s or upgrade the plan.",
                       headers={"Retry-After": str(wait)})


def _insert(conn: sqlite3.Connection, values: dict[str, Any]) -> tuple[Any, ...]:
    cursor = conn.execute(
        "INSERT INTO extracts (user, mode, credential_name, account_ref, company_id, ekrn, submitted_at, ready_at, "
        "outcome, report) VALUES (:user, :mode, :credential_name, :account_ref, :company_id, :ekrn, :submitted_at, "
        ":ready_at, :outcome, :report)", values)
    seq = cursor.lastrowid
    reference = f"TR-{_date(values['submitted_at'])[:4]}-{seq:07d}"
    conn.execute("UPDATE extracts SET reference_number = ? WHERE seq = ?", (reference, seq))
    if values["outcome"] == "completed":
        conn.execute("INSERT INTO extract_documents (document_id, extract_seq, format, filename) VALUES (?, ?, 'pdf', ?)",
                     (str(uuid.uuid4()), seq, f"transparenzregister-tre_{seq}.pdf"))
    return conn.execute(f"SELECT {_COLUMNS} FROM extracts WHERE seq = ?", (seq,)).fetchone()


def _production(context: RegisterContext, body: dict[str, Any], name: str, now: float) -> dict[str, Any]:
    """Check everything a production order needs; return the row to insert (quota and credits come later)."""
    user = current_user()
    if body.get("company_id") is None:
        raise ApiError("invalid_body", "'company_id' is required in production mode (only the 'sandbox' credential "
                                       "mode takes an empty body).")
    company = find_company(check_company_id(body["company_id"]))
    with context.state.connection() as conn:
        row = conn.execute("SELECT token FROM credentials WHERE user = ? AND name = ?", (user.ref, name)).fetchone()
    if row is None:
        raise ApiError("credentials_not_found", f"You have no stored credentials named {name!r}; store them with "
                                                "POST /v1/transparenzregister/credentials first.")
    username, password = context.vault.unseal(row[0], name=name, user=user.name,
                                              purpose=f"a production extract of {company['id']}")
    account = context.catalog.accounts.get(username)
    if account is None or not hmac.compare_digest(account["password"].encode(), password.encode()):
        raise ApiError("register_authentication_rejected", f"The Transparenzregister no longer accepts the "
                                                           f"credentials {name!r}; store them again.")
    if account.get("state") != "valid":
        reason = _STATE_MESSAGES.get(account.get("state"), f"the account state is {account.get('state')!r}")
        raise ApiError("register_authentication_rejected", f"The Transparenzregister rejected the login: {reason}. "
                                                           "Settle it with the Transparenzregister, then retry.")
    ekrns = context.catalog.entities.get(company["id"], [])
    if not ekrns:
        raise ApiError("register_entity_not_found", f"The Transparenzregister has no entity for {company['id']}.")
    if len(ekrns) > 1:
        raise ApiError("ambiguous_register_entity", f"{len(ekrns)} Transparenzregister entities match {company['id']}; "
                                                    "the order cannot be disambiguated.")
    ready_at = now + context.config.extract_delay
    failed = company.get("status") == "inactive"
    report = None if failed else build_report(company, context.catalog.world.companies, context.catalog.holders,
                                              context.catalog.persons, _date(ready_at))
    return {"user": user.ref, "mode": "production", "credential_name": name,
            "account_ref": hashlib.sha256(username.encode()).hexdigest()[:16], "company_id": company["id"],
            "ekrn": ekrns[0], "submitted_at": now, "ready_at": ready_at,
            "outcome": "failed" if failed else "completed", "report": None if report is None else json.dumps(report)}


@bp.post("/v1/transparenzregister/extracts")
def order_extract():
    """Order an extract (201, status ``processing``); ``X-Credential-Name: sandbox`` is the free test mode."""
    context, user = current(), current_user()
    user.require_paid()
    name = check_credential_name(request.headers.get("X-Credential-Name", DEFAULT_CREDENTIAL_NAME).strip(),
                                 where="The X-Credential-Name header")
    body = read_json_object(required=False)
    if set(body) - {"company_id"}:
        raise ApiError("invalid_body", "The order body takes only 'company_id'.")
    now = context.now()
    if name != SANDBOX_CREDENTIAL_NAME and name.lower() == SANDBOX_CREDENTIAL_NAME:
        raise ApiError("reserved_credential_name", f"Credential names are case-sensitive, and {name!r} is not the "
                                                   "sandbox mode: send exactly 'sandbox' (lower case) for the built-in "
                                                   "test mode; any case variant of it is reserved and cannot name "
                                                   "stored credentials.")
    if name == SANDBOX_CREDENTIAL_NAME:
        ready_at = now + context.config.extract_delay
        values = {"user": user.ref, "mode": "sandbox", "credential_name": SANDBOX_CREDENTIAL_NAME, "account_ref": None,
                  "company_id": None, "ekrn": context.catalog.sandbox_ekrn, "submitted_at": now, "ready_at": ready_at,
                  "outcome": "completed", "report": json.dumps(sandbox_report(_date(ready_at)))}
        row = spend(PRICES["extract_sandbox"], lambda conn: _insert(conn, values))
    else:
        values = _production(context, body, name, now)
        quota = int(user.plan.get("extract_quota_30d", 0))

        def change(conn: sqlite3.Connection) -> tuple[Any, ...]:
            _check_quota(conn, user.ref, quota, now)
            return _insert(conn, values)

        row = spend(PRICES["extract_production"], change)
    return json_response(_resource(row, now, order=True), 201)


@bp.get("/v1/transparenzregister/extracts/<path:extract_id>")
def get_extract(extract_id: str):
    """Poll an extract; completed ones carry the report and presigned document URLs."""
    context, user = current(), current_user()
    user.require_paid()
    if not EXTRACT_ID_PATTERN.match(extract_id):
        raise ApiError("invalid_extract_id", f"{extract_id!r} is not an extract id (tre_<digits>, as the order returned).")
    digits = extract_id[4:]
    with context.state.connection() as conn:
        row = None if len(digits) > 18 or str(int(digits)) != digits else conn.execute(
            f"SELECT {_COLUMNS} FROM extracts WHERE seq = ? AND user = ?", (int(digits), user.ref)).fetchone()
    if row is None:
        raise ApiError("extract_not_found", f"You have no extract {extract_id}.")
    return json_response(_resource(row, context.now()))
