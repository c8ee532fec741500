"""How an answer is written into the cache: regkit's compact serializer, plugged into requests-cache.

requests-cache lets a backend take any ``SerializerPipeline`` (``SQLiteCache(path, serializer=...)``): that is
its public hook for the stored format.  Its default (``pickle``: cattrs unstructures the whole response into a
dict, then pickles it) costs about 85 µs to read a company's answer back, more than parsing the answer's JSON.
regkit's format is a short JSON head — status, reason, URL, when it was fetched and when it expires, the
content type and the ``X-Regkit-Derived`` header (a local register of an imported world names the derived members
of a company record in it: :mod:`regkit.schema.derived`), the request's method and URL and its user scope header —
followed by the body exactly as it arrived::

    b"RK1\\n" + 4-byte big-endian length of the head + head (JSON) + body

Reading it back builds a ``CachedResponse`` through its public constructor.  Nothing secret is written: the API
key travels in the ``Authorization`` header, which is not among the stored request headers (and requests-cache
redacts it before the serializer sees the response).  A row that is not in this format (another serializer's, a
damaged one) raises ``ValueError``, which requests-cache turns into "not cached".
"""

from __future__ import annotations

import json
import struct
from datetime import datetime, timezone
from typing import Any

from requests.structures import CaseInsensitiveDict
from requests_cache import CachedRequest, CachedResponse, SerializerPipeline, Stage

from regkit.schema.derived import HEADER as DERIVED_HEADER

from .policy import SCOPE_HEADER

__all__ = ["SERIALIZER", "dumps", "loads", "MAGIC"]

#: The first bytes of every row regkit writes (format 1).
MAGIC = b"RK1\n"
_LENGTH = struct.Struct(">I")
_KEPT_REQUEST_HEADERS = (SCOPE_HEADER,)
#: Response headers kept with an answer (the rest — dates, lengths, credits charged then — say nothing about it).
#: ``X-Regkit-Derived`` is part of the answer: which of its members are derived, not the register's.
_KEPT_HEADERS = ("Content-Type", DERIVED_HEADER)


def _stamp(value: datetime | None) -> str | None:
    if value is None:
        return None
    return (value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)).isoformat()


def _when(text: Any) -> datetime | None:
    if text is None:
        return None
    stamp = datetime.fromisoformat(str(text))
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=timezone.utc)


def dumps(response: CachedResponse) -> bytes:
    """One cached response as a row (see the module docstring)."""
    request = response.request
    request_headers = {
        name: str(request.headers[name]) for name in _KEPT_REQUEST_HEADERS if request.headers.get(name) is not None
    }
    head = {
        "status": int(response.status_code),
        "reason": response.reason,
        "url": response.url,
        "created_at": _stamp(response.created_at),
        "expires": _stamp(response.expires),
        "headers": {name: str(response.headers[name]) for name in _KEPT_HEADERS if name in response.headers},
        "request": {"method": request.method, "url": request.url, "headers": request_headers},
    }
    encoded = json.dumps(head, separators=(",", ":")).encode()
    return MAGIC + _LENGTH.pack(len(encoded)) + encoded + bytes(response.content or b"")


def loads(row: Any) -> CachedResponse:
    """A row written by :func:`dumps` as a ``CachedResponse``.

    Raises
    ------
    ValueError
        ``row`` is not in this format, or is cut off.
    """
    data = bytes(row)
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + _LENGTH.size:
        raise ValueError("not a row in regkit's cache format")
    start = len(MAGIC) + _LENGTH.size
    (length,) = _LENGTH.unpack_from(data, len(MAGIC))
    if start + length > len(data):
        raise ValueError("a cache row cut off inside its head")
    try:
        head = json.loads(data[start : start + length])
        request = head["request"]
        created = _when(head["created_at"])
        if created is None:
            raise ValueError("a cache row without the time it was fetched")
        return CachedResponse(
            content=data[start + length :],
            status_code=int(head["status"]),
            reason=head.get("reason"),
            url=head.get("url"),
            created_at=created,
            expires=_when(head.get("expires")),
            headers=CaseInsensitiveDict(head.get("headers") or {}),
            request=CachedRequest(
                method=request.get("method"),
                url=request.get("url"),
                headers=CaseInsensitiveDict(request.get("headers") or {}),
                body=b"",
            ),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"a cache row with a damaged head ({type(exc).__name__})") from None


#: The serializer regkit opens every SQLite and Redis cache with.
SERIALIZER = SerializerPipeline([Stage(dumps=dumps, loads=loads)], name="regkit-compact-1", is_binary=True)
