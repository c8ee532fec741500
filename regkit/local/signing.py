"""Presigned document URLs: ``/v1/documents/{id}?expires=<unix>&signature=<hex HMAC-SHA256>``.

The secret is generated once per state file (``meta.signing_secret``), never derived from an API key,
so URLs stay valid across restarts of the same register and are worthless for any other.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Callable
from urllib.parse import quote

from .exceptions import ApiError

__all__ = ["UrlSigner", "EXPIRES_MAX"]

#: Latest expiry a URL can carry (the largest signed 64-bit integer, as the OpenAPI document says).
EXPIRES_MAX = 2**63 - 1
_EXPIRES = re.compile(r"[0-9]{1,19}\Z")  # ASCII digits only: str.isdigit() also takes "²" and "٣"
_SIGNATURE = re.compile(r"[0-9a-fA-F]{1,128}\Z")


class UrlSigner:
    """Signs and checks document URLs.

    Parameters
    ----------
    secret : bytes
        The HMAC key.
    ttl : int
        Seconds a URL stays valid.
    clock : callable
        Current Unix time.
    """

    def __init__(self, secret: bytes, ttl: int = 1800, clock: Callable[[], float] = time.time):
        self._secret = secret
        self.ttl = ttl
        self._clock = clock

    def signature(self, document_id: str, expires: int) -> str:
        """The lower-case hex HMAC-SHA256 over ``document_id`` and ``expires``."""
        message = f"{document_id}\n{expires}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def url(self, base_url: str, document_id: str, ttl: int | None = None) -> str:
        """An absolute URL for ``document_id`` valid for ``ttl`` seconds from now (default :attr:`ttl`)."""
        expires = int(self._clock()) + (self.ttl if ttl is None else ttl)
        return (
            f"{base_url.rstrip('/')}/v1/documents/{quote(document_id, safe='')}"
            f"?expires={expires}&signature={self.signature(document_id, expires)}"
        )

    def verify(self, document_id: str, expires: str | None, signature: str | None) -> None:
        """Check a request's ``expires`` and ``signature``.

        Raises
        ------
        ApiError
            403 ``invalid_signature`` when either is missing or malformed (``expires`` is a Unix time in ASCII
            digits up to :data:`EXPIRES_MAX`, ``signature`` hex) or the signature is wrong, 403 ``url_expired``
            when the URL is past its expiry.
        """
        if (
            not expires
            or not signature
            or not _EXPIRES.match(expires)
            or int(expires) > EXPIRES_MAX
            or not _SIGNATURE.match(signature)
        ):
            raise ApiError(
                "invalid_signature",
                "This document URL is not signed, or its expires or signature is "
                "malformed; request the record again for a fresh presigned URL.",
            )
        expected = self.signature(document_id, int(expires)).encode()
        if not hmac.compare_digest(expected, signature.lower().encode("utf-8")):
            raise ApiError(
                "invalid_signature",
                "The document URL's signature is wrong; request the record again for a fresh presigned URL.",
            )
        if int(expires) < self._clock():
            raise ApiError(
                "url_expired",
                "This document URL has expired (source URLs are valid for 30 minutes, /v1/document URLs for 15); "
                "request the record or the document again for a fresh one.",
            )
