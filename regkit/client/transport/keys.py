"""The cache key of an operation: exactly requests-cache's key, derived in microseconds and remembered.

requests-cache derives a key from a prepared request (``requests`` merges the session's settings, then
requests-cache copies the request and normalizes its URL with ``url_normalize``): about half a millisecond, more
than reading and parsing the cached answer.  For the common shape of a lookup — a GET below the base URL whose
path segments and query values are plain (``[A-Za-z0-9._~-]``, no dot segment, no empty value, no ignored
parameter), with no header but the scope header — every step of that normalization is the identity or a sort, so
:class:`CacheKeys` hashes the same parts directly (method, normalized URL, empty body, ``verify``, the matched
scope header, the serializer).  Anything else (a POST body, a free-text query, an unusual base URL or session
setting) takes requests-cache's own path.  Both paths are remembered per operation, in a bounded map.
``tests/client/test_client_stored.py`` checks the two agree for every kind of operation the client makes.
"""

from __future__ import annotations

import json
import re
import threading
from hashlib import blake2b
from typing import Any
from urllib.parse import urlencode

import requests
from requests_cache import DO_NOT_CACHE, CachedSession
from requests_cache.cache_keys import normalize_url

from .operation import Operation

__all__ = ["CacheKeys", "MEMO_SIZE"]

#: Operations whose key is remembered (about 200 bytes each); the map starts afresh when full.
MEMO_SIZE = 100_000

_PLAIN_PATH = re.compile(r"(?:/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+")
_PLAIN_PARAM = re.compile(r"[A-Za-z0-9._~-]+")
_PROBE = "/regkit-probe"
#: Request headers that change how requests-cache reads (cache directives, method overrides).
_DIRECTIVE_HEADERS = frozenset({"cache-control", "pragma", "x-http-method-override", "x-http-method",
                                "x-method-override"})  # fmt: skip


class CacheKeys:
    """Cache keys of one client's operations (see the module docstring).

    Parameters
    ----------
    session : CachedSession
        The client's session: its settings (ignored parameters, matched headers, lifetimes per URL, key
        function), its headers and its backend's serializer are read once, now, as build_session left them.
    base_url : str
        The base URL operations' paths are below.
    """

    def __init__(self, session: CachedSession, base_url: str) -> None:
        self.session = session
        self.base_url = base_url.rstrip("/")
        self._memo: dict[str, str] = {}  # strings only: nothing the garbage collector has to visit
        self._lock = threading.Lock()
        settings = session.settings
        self._ignored = frozenset(settings.ignored_parameters or ())
        self._lifetimes: list[tuple[Any, Any]] = list((settings.urls_expire_after or {}).items())
        self._match = self._match_headers()
        self._prefix = self._normalized_base() if self._plain_session() and self._match is not None else None
        self._tail = str(session.cache.responses.serializer).encode()

    # -- what the fast derivation may assume -------------------------------------------------------
    def _plain_session(self) -> bool:
        """Whether nothing of the session's own settings changes keys or reads beyond what the fast path does."""
        settings = self.session.settings
        if settings.key_fn is not None or settings.disabled or "GET" not in settings.allowable_methods:
            return False
        if self.session.params or any(name.lower() in _DIRECTIVE_HEADERS for name in self.session.headers):
            return False
        if not all(isinstance(pattern, re.Pattern) for pattern, _ in self._lifetimes):
            return False
        probe = self.base_url + _PROBE
        return self.session.prepare_request(requests.Request("GET", probe)).url == probe

    def _normalized_base(self) -> str | None:
        """``normalize_url`` of the base URL, when it normalizes independently of a plain path below it."""
        normalized = normalize_url(self.base_url + _PROBE, self.session.settings.ignored_parameters)
        return normalized[: -len(_PROBE)] if normalized.endswith(_PROBE) else None

    def _match_headers(self) -> dict[str, str | None] | None:
        """The matched headers (requests-cache's ``match_headers``), lower-cased and sorted, each with the
        session's value (``None``: the session does not send it); ``None`` when they are not a plain list of
        names."""
        match = self.session.settings.match_headers
        if match is True or isinstance(match, str):
            return None
        ignored = {name.lower() for name in self._ignored}
        found: dict[str, str | None] = {}
        for name in match or ():
            if not isinstance(name, str) or name.lower() in ignored:
                return None
            value = next((v for k, v in self.session.headers.items() if k.lower() == name.lower()), None)
            if value is not None and (not isinstance(value, str) or "," in value):
                return None
            found[name.lower()] = value
        return dict(sorted(found.items()))

    # -- keys -----------------------------------------------------------------------------------
    def key(self, op: Operation) -> str:
        """The key requests-cache stores ``op``'s answer under."""
        return self.lookup(op)[0]

    def lookup(self, op: Operation) -> tuple[str, bool]:
        """``(key, readable)``: the key, and whether the fast read of :mod:`regkit.client.stored` may answer
        ``op`` as requests-cache would (a plain GET whose URL has a cache lifetime).  ``readable`` is ``False``
        for everything else, which then goes through requests-cache itself."""
        memo = f"{op.method} {op.path} {op.params!r} {op.headers!r} {_body_text(op.body)}"
        found = self._memo.get(memo)
        if found is None:
            fast = self._fast(op)
            found = ("+" if fast[1] else "-") + fast[0] if fast is not None else "-" + self.slow_key(op)
            with self._lock:
                if len(self._memo) >= MEMO_SIZE:
                    self._memo.clear()
                self._memo[memo] = found
        return found[1:], found[0] == "+"

    def slow_key(self, op: Operation) -> str:
        """The key as requests-cache derives it from the prepared request (what it computes when ``op`` is
        sent: method, URL, query, JSON body, headers)."""
        request = requests.Request(op.method, self.base_url + op.path, params=list(op.params) or None,
                                   json=op.body, headers=dict(op.headers) or None)  # fmt: skip
        return str(self.session.cache.create_key(self.session.prepare_request(request)))

    def _fast(self, op: Operation) -> tuple[str, bool] | None:
        """``(key, readable)`` derived directly, or ``None`` when ``op`` is not of the plain shape."""
        if self._prefix is None or op.method != "GET" or op.body is not None or not _PLAIN_PATH.fullmatch(op.path):
            return None
        for name, value in op.params:
            if name in self._ignored or not (_PLAIN_PARAM.fullmatch(name) and _PLAIN_PARAM.fullmatch(value)):
                return None
        matched = self._matched(op)
        if matched is None:
            return None
        query = "&".join(f"{name}={value}" for name, value in sorted(op.params))
        url = self._prefix + op.path + ("?" + query if query else "")
        digest = blake2b(digest_size=8)
        for part in (b"GET", url.encode(), b"True", *matched, self._tail):
            digest.update(part)
        return digest.hexdigest(), self._lifetime(op) != DO_NOT_CACHE

    def _lifetime(self, op: Operation) -> Any:
        """The lifetime requests-cache gives ``op``'s answer (its first matching ``urls_expire_after`` rule, on the
        URL as sent, else the session's ``expire_after``)."""
        sent = self.base_url + op.path + ("?" + urlencode(op.params) if op.params else "")
        for pattern, lifetime in self._lifetimes:
            if pattern.search(sent):
                return lifetime
        return self.session.settings.expire_after

    def _matched(self, op: Operation) -> list[bytes] | None:
        """The ``name=value`` parts of the matched headers, or ``None`` when a header of ``op`` could change the
        key or the read in a way the fast path does not follow."""
        assert self._match is not None
        values = self._match
        if op.headers:
            values = dict(values)
            for name, value in op.headers:
                lower = name.lower()
                if lower in _DIRECTIVE_HEADERS or not isinstance(value, str) or "," in value:
                    return None
                if lower in values:
                    values[lower] = value
        return [f"{name}={value}".encode() for name, value in values.items() if value is not None]


def _body_text(body: Any) -> str | None:
    return None if body is None else json.dumps(body, sort_keys=True)
