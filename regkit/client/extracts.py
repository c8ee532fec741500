"""Transparenzregister extracts: what ordering and polling send, and where a document is saved.

The methods (``order_extract``, ``get_extract``, ``wait_for_extract``, ``download_extract``) are on
:class:`regkit.Client`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from regkit.errors import ValidationError
from regkit.schema.interface import PRICES, SANDBOX_CREDENTIAL_NAME

from . import validation
from .policy import SCOPE_HEADER
from .transport.operation import Operation

__all__ = ["order_op", "extract_op", "document_filename"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

_ORDER_HINTS = {
    402: "Transparenzregister extracts need a paid plan (or more credits: see client.get_credits())",
    403: "the Transparenzregister refused the stored login (locked, not unlocked or not identified): settle it "
    "there, or store other credentials with client.store_credentials(...)",
    404: "check the company id, and that credentials of this name are stored (client.store_credentials)",
    409: "several Transparenzregister entities match this company; the order cannot be placed",
    429: "the extract quota of the rolling 30-day window is used up; order later",
}


def order_op(company_id: Any, credential_name: Any) -> Operation:
    """The operation of ``order_extract`` (arguments checked; nothing is sent; never retried).

    Raises
    ------
    ValidationError
        A ``company_id`` in sandbox mode, none outside it, or a malformed id or credential name.
    """
    name = validation.credential_name(credential_name)
    sandbox = name == SANDBOX_CREDENTIAL_NAME
    if sandbox and company_id is not None:
        raise ValidationError(
            "sandbox mode orders the fixed test EKRN; leave company_id out",
            suggestion="order_extract(credential_name='sandbox')",
        )
    if not sandbox and company_id is None:
        raise ValidationError("company_id is required unless credential_name='sandbox'")
    body = {} if sandbox else {"company_id": validation.validate_company_id(company_id)}
    hint = (
        "the order may have been placed: compare client.get_credits() with before (a production "
        "order costs 50 credits); the extract id is unknown, so ask support for it rather than "
        "ordering again and paying twice"
    )
    return Operation(
        "order_extract",
        "POST",
        "/v1/transparenzregister/extracts",
        body=body,
        headers=(("X-Credential-Name", name),),
        hints=_ORDER_HINTS,
        price=PRICES["extract_sandbox" if sandbox else "extract_production"],
        idempotent=False,
        unknown_hint=hint,
    )


def extract_op(extract_id: Any, scope: str) -> Operation:
    """The operation of ``get_extract``; ``scope`` (the user's scope token) keeps this user's extracts out of
    every other key's cache entries."""
    path = f"/v1/transparenzregister/extracts/{quote(validation.extract_id(extract_id))}"
    return Operation("get_extract", "GET", path, headers=((SCOPE_HEADER, scope),), price=PRICES["extract_poll"])


def document_filename(document: dict[str, Any], index: int) -> str:
    """A safe file name for the ``index``-th document of an extract (its ``filename``, else its id)."""
    name = _UNSAFE.sub("_", Path(str(document.get("filename") or document.get("document_id"))).name)
    return name or f"document-{index}"
