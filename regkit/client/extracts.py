"""Transparenzregister extracts: ordering, polling until done, saving the documents at once."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import requests

from regkit.schema.interface import PRICES, SANDBOX_CREDENTIAL_NAME

from . import validation
from regkit.errors import TransportError, ValidationError, WaitTimeout
from .policy import SCOPE_HEADER
from .records import ExtractRecord
from .transport.call import Operation

if TYPE_CHECKING:
    from .transport.call import Answer

__all__ = ["ExtractMethods"]

logger = logging.getLogger(__name__)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

_ORDER_HINTS = {
    402: "Transparenzregister extracts need a paid plan (or more credits: see client.get_credits())",
    403: "the Transparenzregister refused the stored login (locked, not unlocked or not identified): settle it "
    "there, or store other credentials with client.store_credentials(...)",
    404: "check the company id, and that credentials of this name are stored (client.store_credentials)",
    409: "several Transparenzregister entities match this company; the order cannot be placed",
    429: "the extract quota of the rolling 30-day window is used up; order later",
}


class ExtractMethods:
    """The extract methods of :class:`regkit.Client` (a mixin; see there)."""

    def order_extract(self, company_id: str | None = None, credential_name: str = "default") -> ExtractRecord:
        """Order a Transparenzregister extract (50 credits; 0 in ``"sandbox"`` mode).

        Never retried: if the order fails in a way that leaves open whether it was placed, the
        error has ``outcome_unknown=True`` and says how to check.

        Parameters
        ----------
        company_id : str, optional
            The company; must be left out in sandbox mode.
        credential_name : str
            Stored credentials to use, or ``"sandbox"`` for the built-in test mode.
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
        body = {} if sandbox else {"company_id": validation.company_id(company_id)}
        hint = (
            "the order may have been placed: compare client.get_credits() with before (a production "
            "order costs 50 credits); the extract id is unknown, so ask support for it rather than "
            "ordering again and paying twice"
        )
        op = Operation(
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
        answer = self._call(op)  # type: ignore[attr-defined]
        return ExtractRecord(answer.data, self._meta(answer))  # type: ignore[attr-defined]

    def _extract_op(self, extract_id: str) -> Operation:
        path = f"/v1/transparenzregister/extracts/{quote(validation.extract_id(extract_id))}"
        # The scope header keeps this user's extracts out of every other key's cache entries.
        scope = self._scope  # type: ignore[attr-defined]
        return Operation("get_extract", "GET", path, headers=((SCOPE_HEADER, scope),), price=PRICES["extract_poll"])

    def get_extract(self, extract_id: str) -> ExtractRecord:
        """The extract now (free).  Terminal answers are cached; their document URLs are refreshed
        once they may have expired (offline: left out, ``meta.urls_expired``)."""
        op = self._extract_op(extract_id)
        answer: Answer = self._call(op)  # type: ignore[attr-defined]
        stale = bool(answer.data.get("documents")) and self._urls_stale(answer)  # type: ignore[attr-defined]
        if stale and not self.cache.offline:  # type: ignore[attr-defined]
            answer, stale = self._call(replace(op, refresh=True)), False  # type: ignore[attr-defined]
        data = answer.data
        if stale:
            data = {**data, "documents": [{k: v for k, v in d.items() if k != "url"} for d in data["documents"]]}
        return ExtractRecord(data, self._meta(answer, urls_expired=stale))  # type: ignore[attr-defined]

    def wait_for_extract(
        self,
        extract_id: str,
        timeout: float = 120.0,
        download_to: str | Path | None = None,
        *,
        poll: float = 0.5,
        poll_max: float = 5.0,
    ) -> ExtractRecord:
        """Poll (free) with growing pauses until the extract is ``completed`` or ``failed``.

        Parameters
        ----------
        timeout : float
            Seconds to wait before raising :class:`WaitTimeout`.
        download_to : str or Path, optional
            Directory to save a completed extract's documents in right away (their URLs expire);
            the saved paths are in ``record.files``.
        poll, poll_max : float
            First pause between polls and the longest one (each pause is 1.5× the last).
        """
        deadline = time.monotonic() + timeout
        pause = poll
        while True:
            record = self.get_extract(extract_id)
            if record.is_terminal:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeout(
                    f"extract {extract_id} is still processing after {timeout:g} s",
                    method="GET",
                    path=f"/v1/transparenzregister/extracts/{extract_id}",
                )
            time.sleep(min(pause, left))
            pause = min(pause * 1.5, poll_max)
        if record.status == "failed":
            logger.warning("extract %s failed", extract_id)
        elif download_to is not None:
            record.files = self.download_extract(record, download_to)
        return record

    def download_extract(self, record: ExtractRecord, directory: str | Path) -> list[Path]:
        """Save the documents of a completed extract into ``directory``; return their paths.

        The presigned URLs are fetched without the API key.  If one has expired, the extract is
        fetched again (free) for fresh URLs, once.
        """
        target = Path(directory)
        target.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        session = self._download_session()
        for index, document in enumerate(record.get("documents") or []):
            name = _UNSAFE.sub("_", Path(str(document.get("filename") or document.get("document_id"))).name)
            path = target / (name or f"document-{index}")
            path.write_bytes(self._fetch_document(session, record, index))
            paths.append(path)
        return paths

    def _fetch_document(self, session: requests.Session, record: ExtractRecord, index: int) -> bytes:
        document = record["documents"][index]
        timeout = self._caller.timeout  # type: ignore[attr-defined]
        try:
            response = session.get(document.get("url") or self._fresh_url(record, index), timeout=timeout)
            if response.status_code == 403:  # the presigned URL expired meanwhile: ask for a fresh one
                response = session.get(self._fresh_url(record, index), timeout=timeout)
        except requests.RequestException as exc:
            raise TransportError(
                f"document {document.get('document_id')} could not be downloaded: {type(exc).__name__}"
            ) from exc
        if response.status_code != 200:
            raise TransportError(
                f"document {document.get('document_id')} could not be downloaded (status {response.status_code})",
                status=response.status_code,
            )
        return response.content

    def _fresh_url(self, record: ExtractRecord, index: int) -> str:
        answer = self._call(replace(self._extract_op(record["id"]), refresh=True))  # type: ignore[attr-defined]
        return answer.data["documents"][index]["url"]

    def _download_session(self) -> requests.Session:
        session = requests.Session()  # no Authorization: presigned URLs need no key, and get none
        if self._adapter is not None:  # type: ignore[attr-defined]
            session.mount(self.base_url + "/", self._adapter)  # type: ignore[attr-defined]
        return session  # not closed by the caller: it may share the local register's adapter
