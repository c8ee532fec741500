"""Documents: what ``get_document`` and ``get_realtime_document`` send, and the records they return.

* ``get_document(document_id)`` — ``GET /v1/document/{id}``: the metadata of a document a company lists in its
  ``documents`` (``{id, name, date, type, url}``), free (the listing was paid with the company).
* ``get_realtime_document(company_id, category)`` — ``GET /v1/document?company_id=…&document_category=…``: a
  document fetched from the register now (``{category, file_name, file_date, url}``), 20 credits; the category is
  checked against :data:`~regkit.schema.interface.DOCUMENT_CATEGORIES` before anything is sent.

Both answers are a presigned ``url`` valid for 15 minutes. They are cached for
:attr:`~regkit.client.cache.policy.CachePolicy.document_lifetime` (10 minutes, never longer), so a URL served from the
cache still works for at least 5 minutes. Downloading the files: :mod:`regkit.client.bulk.downloads`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from regkit.errors import ValidationError
from regkit.schema.interface import DOCUMENT_CATEGORIES

from .arguments import validation
from .records import Record, RecordMeta
from .transport.operation import Operation, operation

__all__ = [
    "document_op",
    "realtime_document_op",
    "document_category",
    "document_id",
    "DocumentRecord",
    "RealtimeDocumentRecord",
]

_DOCUMENT_HINTS = {
    404: "no company lists a document with this id; the ids are in a company's documents "
    "(client.get_company(id).documents); nothing was charged",
}
_REALTIME_HINTS = {
    404: "the company does not exist or has no document of this category (document_not_available: e.g. no "
    "shareholder list, or no historical printout for a company registered after 2006); nothing was charged",
    402: "not enough credits: see client.get_credits()",
}


def document_category(value: Any) -> str:
    """Check a document category (one of :data:`~regkit.schema.interface.DOCUMENT_CATEGORIES`).

    Examples
    --------
    >>> document_category("current_printout")
    'current_printout'
    >>> document_category("AD")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: 'AD' is not a document category — allowed: current_printout, chronological_printout, historical_printout, structured_information, shareholder_list, articles_of_association; nothing was sent
    """
    if not isinstance(value, str) or value not in DOCUMENT_CATEGORIES:
        raise ValidationError(
            f"{value!r} is not a document category",
            suggestion=f"allowed: {', '.join(DOCUMENT_CATEGORIES)}; nothing was sent",
        )
    return value


_DOCUMENT_ID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def document_id(value: Any) -> str:
    """A listed document's id: a non-empty string (the ids of a company's ``documents``)."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(
            f"document_id must be a non-empty string, not {value!r}",
            suggestion="pass an id from a company's documents (client.get_company(id).documents); nothing was sent",
        )
    validation.sendable(value, "document_id")
    stripped = value.strip()
    if "/" in stripped or "\\" in stripped or stripped.strip(".") == "":
        raise ValidationError(
            f"{value!r} is not a document id (it has a path separator or is only dots)",
            suggestion="pass an id from a company's documents (client.get_company(id).documents); nothing was sent",
        )
    if not _DOCUMENT_ID.match(stripped):  # the interface's document ids are UUIDs: anything else cannot be one
        raise ValidationError(
            f"{value!r} is not a document id: a listed document's id is a UUID "
            "(e.g. '350380e3-0c85-4c49-8e6a-3f0e8806a423')",
            suggestion="pass an id from a company's documents (client.get_company(id).documents), or "
            "(company_id, category) for a document fetched now; nothing was sent",
        )
    return stripped


def document_op(value: Any) -> Operation:
    """The operation of ``get_document`` (free; the id checked, nothing sent)."""
    return operation("get_document", {"document_id": document_id(value)}, hints=_DOCUMENT_HINTS)


def realtime_document_op(company_id: Any, category: Any) -> Operation:
    """The operation of ``get_realtime_document`` (20 credits; id and category checked, nothing sent)."""
    checked = validation.validate_company_id(company_id)
    return operation(
        "get_realtime_document",
        params=(("company_id", checked), ("document_category", document_category(category))),
        hints=_REALTIME_HINTS,
    )


def _fresh(meta: RecordMeta, lifetime: timedelta) -> bool:
    return meta.fetched_at is not None and datetime.now(timezone.utc) - meta.fetched_at < lifetime


class DocumentRecord(Record):
    """A listed document's metadata: ``id``, ``name``, ``date``, ``type``, ``url`` (valid 15 minutes).

    ``client.download(record, dir)`` saves the file; an expired ``url`` is asked again there, for free.
    """

    kind = "document"

    def url_fresh(self, lifetime: timedelta) -> bool:
        """Whether ``url`` is younger than ``lifetime`` (the client's ``policy.document_lifetime``)."""
        return bool(self.raw.get("url")) and _fresh(self.meta, lifetime)

    def _label(self) -> str:
        return f"{self.raw.get('type', '')} {self.raw.get('date', '')} {self.raw.get('id', '')}"


class RealtimeDocumentRecord(Record):
    """A document fetched from the register now: ``category``, ``file_name``, ``file_date``, ``url`` (valid 15
    minutes), and ``company_id`` (the company asked for; not a member of the answer).

    ``client.download(record, dir)`` saves the file; once ``url`` has expired a new one costs 20 credits again.
    """

    kind = "realtime_document"

    def __init__(self, raw: Mapping[str, Any], meta: RecordMeta | None = None, *, company_id: str) -> None:
        super().__init__(raw, meta)
        self.company_id = company_id

    def url_fresh(self, lifetime: timedelta) -> bool:
        """Whether ``url`` is younger than ``lifetime`` (the client's ``policy.document_lifetime``)."""
        return bool(self.raw.get("url")) and _fresh(self.meta, lifetime)

    def _label(self) -> str:
        return f"{self.company_id} {self.raw.get('category', '')} {self.raw.get('file_date', '')}"
