"""Transparenzregister extracts: what ordering and polling send, where a document is saved, the
:class:`ExtractRecord`, its HTML summary and its analysis method.


The analysis methods
--------------------
``extract.to_dataframe()`` are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regkit.common.html import SummaryTable, summary_html
from regkit.errors import ValidationError
from regkit.schema.formatting import MISSING, date_text
from regkit.schema.interface import SANDBOX_CREDENTIAL_NAME

from .arguments import validation
from .cache.policy import SCOPE_HEADER
from .records import (
    Record,
    RecordMeta,
    percentage_text,
    text_or_missing,
    timestamp_of,
)
from .transport.operation import Operation, operation

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["order_op", "extract_op", "document_filename", "ExtractRecord", "ExtractFrames", "extract_html"]


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
    """The operation of ``order_extract`` (arguments checked; nothing is sent; sent again only after a 429
    ``rate_limited``).

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
    return operation(
        "order_extract",
        body=body,
        headers=(("X-Credential-Name", name),),
        choice=name,
        hints=_ORDER_HINTS,
        idempotent=False,
        unknown_hint=hint,
    )


def extract_op(extract_id: Any, scope: str) -> Operation:
    """The operation of ``get_extract``; ``scope`` (the user's scope token) keeps this user's extracts out of
    every other key's cache entries."""
    checked = validation.extract_id(extract_id)
    return operation("get_extract", {"extract_id": checked}, headers=((SCOPE_HEADER, scope),))


def document_filename(document: dict[str, Any], index: int) -> str:
    """A safe file name for the ``index``-th document of an extract (its ``filename``, else its id)."""
    name = _UNSAFE.sub("_", Path(str(document.get("filename") or document.get("document_id"))).name)
    return name or f"document-{index}"


class ExtractFrames:
    """Frames of a Transparenzregister extract (mixed into :class:`~regkit.client.extract.ExtractRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """The beneficial owners of a completed extract (see ``regkit.frames.beneficial_owners``)."""
        from regkit.frames.extracts import beneficial_owners

        return beneficial_owners(self)


class ExtractRecord(ExtractFrames, Record):
    """A Transparenzregister extract: ``status`` is ``processing``, ``completed`` or ``failed``."""

    kind = "extract"
    TERMINAL = frozenset({"completed", "failed"})

    def __init__(self, raw: Mapping[str, Any], meta: RecordMeta | None = None) -> None:
        super().__init__(raw, meta)
        self.files: list[Any] = []  # paths of documents saved by wait_for_extract(download_to=...)

    @property
    def is_terminal(self) -> bool:
        """Whether the extract finished (``completed`` or ``failed``)."""
        return self.raw.get("status") in self.TERMINAL

    def _label(self) -> str:
        return f"{self.raw.get('id', '')} {self.raw.get('status', '')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: status, dates, beneficial owners, documents."""
        return extract_html(self.raw)


def extract_html(e: Mapping[str, Any]) -> str:
    """A Transparenzregister extract: status, what it is of, its beneficial owners and documents."""
    status = str(e.get("status") or "unknown")
    level = {"completed": "ok", "failed": "error", "processing": "info"}.get(status, "info")
    facts = [
        ("Of", str(e.get("company_id") or (f"eKRN {e['ekrn']}" if e.get("ekrn") else MISSING))),
        ("Submitted", date_text(timestamp_of(e.get("submitted_at")))),
    ]
    if e.get("completed_at"):
        facts.append(("Completed", date_text(timestamp_of(e["completed_at"]))))
    if e.get("reference_number"):
        facts.append(("Reference", str(e["reference_number"])))
    documents = [str(d.get("filename") or d.get("format") or "") for d in e.get("documents") or ()]
    if documents:
        facts.append(("Documents", ", ".join(documents)))
    ubos = list((e.get("report") or {}).get("ubos") or ())
    rows = [
        [
            text_or_missing((u.get("natural_person") or {}).get("full_name")),
            str((u.get("interest") or {}).get("type") or MISSING).replace("_", " "),
            percentage_text((u.get("interest") or {}).get("percentage")),
        ]
        for u in ubos
    ]
    table = SummaryTable(
        ("Beneficial owner", "Interest", "Share"),
        rows,
        numeric=(2,),
        where="extract.to_dataframe()",
        caption="Beneficial owners",
    )
    return summary_html(
        "Transparenzregister extract",
        facts,
        subtitle=str(e.get("id") or ""),
        badge=(status, level),
        tables=[table] if rows else [],
        kind="extract",
    )
