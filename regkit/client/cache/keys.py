"""The cache key of an operation: regkit's own, derived from what the operation asks, in microseconds.

A key names one question to one service: the service's base URL, the method, the path below it (normalized as
RFC 3986 says: escaped unreserved characters decoded, other escapes upper-cased, other characters escaped — so
``DE-HRB-B1234-1`` and ``DE%2DHRB-B1234-1`` are one company, while ``a%2Fb`` stays another path than ``a/b``), the query parameters sorted by name (those of
:data:`~regkit.client.cache.policy.IGNORED_PARAMETERS` left out: never a credential), the JSON body in canonical form
(sorted members, no spaces) and the user scope header (``X-Regkit-Scope``: a user-scoped answer is another
user's question).  It is a BLAKE2b hash of those parts, prefixed with a format version.

regkit owns this function outright rather than asking requests-cache for its key: requests-cache derives its key
from a prepared request (``requests`` merges the session's settings, then it normalizes the URL), about 260 µs a
key measured here — five times the ``json.loads`` of a company's answer — and the key would change with its
serializer and its normalization rules.  requests-cache is given the key (``save_response(cache_key=...)``,
``get_response(key)``) and never derives one for regkit.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from hashlib import blake2b
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from .policy import IGNORED_PARAMETERS, SCOPE_HEADER

__all__ = ["CacheKeys", "KeyedOperation", "cache_key", "KEY_VERSION", "MEMO_SIZE"]

#: The key format; a new format gets a new number (old answers are then simply not found).
KEY_VERSION = "regkit-key-1"
#: Operations whose key is remembered (about 200 bytes each); the map starts afresh when full.
MEMO_SIZE = 100_000


class KeyedOperation(Protocol):
    """What a cache key is made of — the members of an :class:`~regkit.client.transport.operation.Operation` it
    reads: the method, the path, the query parameters, the JSON body and the headers."""

    @property
    def method(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def params(self) -> tuple[tuple[str, str], ...]: ...

    @property
    def body(self) -> Any: ...

    @property
    def headers(self) -> tuple[tuple[str, str], ...]: ...


_IGNORED = frozenset(name.lower() for name in IGNORED_PARAMETERS)
_SCOPE = SCOPE_HEADER.lower()
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PATH_SAFE = "/%!$&'()*+,;=:@"


def _escape(match: re.Match[str]) -> str:
    character = chr(int(match.group(1), 16))
    return character if character in _UNRESERVED else "%" + match.group(1).upper()


_PLAIN = re.compile(r"[A-Za-z0-9/._~-]*")


def _path(path: str) -> str:
    """``path`` normalized (RFC 3986, 6.2.2): unreserved characters unescaped, escapes upper-cased, the rest escaped."""
    if _PLAIN.fullmatch(path):
        return path  # nothing to unescape or escape: the common case, a lookup's path
    return quote(_ESCAPE.sub(_escape, path), safe=_PATH_SAFE)


def _base(base_url: str) -> str:
    """``scheme://host[:port]/prefix`` with scheme and host lower-cased and no trailing slash."""
    parts = urlsplit(base_url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def _canonical_body(body: Any) -> str:
    return "" if body is None else json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_key(
    base_url: str,
    method: str,
    path: str,
    params: Iterable[tuple[str, str]] = (),
    body: Any = None,
    headers: Iterable[tuple[str, str]] = (),
) -> str:
    """The cache key of one request (see the module docstring).

    Parameters
    ----------
    base_url : str
        The service (``https://api.openregister.de``, or a local register's URL).
    method, path : str
        HTTP method and path below ``base_url`` (normalized first: see the module docstring).
    params : iterable of (str, str)
        Query parameters (order does not matter; ignored names are left out).
    body : object
        The JSON body (``None``: none).
    headers : iterable of (str, str)
        Request headers; only the user scope header counts.

    Examples
    --------
    >>> a = cache_key("https://api.example", "GET", "/v1/company/DE-HRB-B1-1", [("b", "2"), ("a", "1")])
    >>> a == cache_key("HTTPS://API.example/", "get", "/v1/company/DE%2DHRB-B1-1", [("a", "1"), ("b", "2")])
    True
    >>> a == cache_key("https://api.example", "GET", "/v1/company/DE-HRB-B1-2", [("a", "1"), ("b", "2")])
    False
    """
    query = sorted((str(name), str(value)) for name, value in params if str(name).lower() not in _IGNORED)
    scope = next((str(value) for name, value in headers if name.lower() == _SCOPE), "")
    parts = (
        KEY_VERSION,
        _base(base_url),
        method.upper(),
        _path(path),
        json.dumps(query) if query else "[]",
        _canonical_body(body),
        scope,
    )
    digest = blake2b("\0".join(parts).encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest()


class CacheKeys:
    """The keys of one client's operations, remembered per operation (a bounded map).

    Parameters
    ----------
    base_url : str
        The service the client talks to.
    """

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._memo: dict[Any, str] = {}
        self._lock = threading.Lock()

    def key(self, op: KeyedOperation) -> str:
        """The key ``op``'s answer is stored under."""
        memo = (op.method, op.path, op.params, op.headers, _canonical_body(op.body) if op.body is not None else None)
        found = self._memo.get(memo)
        if found is None:
            found = cache_key(self.base_url, op.method, op.path, op.params, op.body, op.headers)
            with self._lock:
                if len(self._memo) >= MEMO_SIZE:
                    self._memo.clear()
                self._memo[memo] = found
        return found
