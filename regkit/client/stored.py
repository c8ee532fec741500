"""The client's cache read directly: stored answers by key in one batch, or all of them in a stream.

requests-cache answers one request at a time and rebuilds a full ``CachedResponse`` (attrs, cattrs, a
``PreparedRequest``) for each; a bulk re-run or an export of months of lookups needs neither.  This module
reads the stored rows themselves, for the backends regkit opens (:mod:`regkit.client.cache`): SQLite (one
``SELECT … WHERE key IN`` per chunk, under the backend's lock), Redis (``MGET`` per chunk) and the in-memory
backend.  A row is decoded as requests-cache's ``pickle`` serializer wrote it (the unstructured response dict);
another serializer, or a row written by a requests-cache version whose layout differs, goes through the
backend's own ``deserialize`` instead — slower, never wrong.  :func:`read_rows` gives the rows undecoded, so that
a caller can decode each when it needs it (the client's fast read of hits does, to keep few objects alive).

Nothing here sends anything or writes to the cache.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from requests_cache.backends import BaseCache, SQLiteCache
from requests_cache.serializers import CattrStage, SerializerPipeline, pickle_serializer

__all__ = ["StoredAnswer", "decode", "read_rows", "read_many", "scan", "CHUNK"]

#: Keys per SQLite ``IN (...)`` / Redis ``MGET`` round trip.
CHUNK = 500


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """One stored answer, as the cache holds it.

    Attributes
    ----------
    key : str
        The requests-cache key it is stored under.
    method, url : str
        The request that fetched it (the URL with its query string).
    status : int
        The HTTP status (only successes are stored).
    body : bytes
        The response body as received (JSON).
    created_at : datetime
        When it was fetched (UTC, aware).
    expires : datetime or None
        When it stops being served (UTC, aware); ``None`` means never.
    request_headers : dict
        The stored request headers (``Authorization`` is redacted by requests-cache; ``X-Regkit-Scope`` names
        the user a user-scoped answer belongs to).
    headers : dict
        The stored response headers.
    """

    key: str
    method: str
    url: str
    status: int
    body: bytes
    created_at: datetime
    expires: datetime | None
    request_headers: dict[str, str] = field(default_factory=dict, repr=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False)

    def is_expired(self, now: datetime | None = None) -> bool:
        """Whether the cache would no longer serve it at ``now`` (default: the current time)."""
        if self.expires is None:
            return False
        return (now or datetime.now(timezone.utc)) >= self.expires


def _aware(value: Any) -> datetime | None:
    if value is None:
        return None
    stamp = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=timezone.utc)


def _from_fields(key: str, fields: dict[str, Any]) -> StoredAnswer:
    request = fields.get("request") or {}
    created = _aware(fields["created_at"])
    assert created is not None
    return StoredAnswer(
        key=key,
        method=str(request.get("method", "GET")),
        url=str(request.get("url") or fields.get("url", "")),
        status=int(fields["status_code"]),
        body=bytes(fields.get("_content") or b""),
        created_at=created,
        expires=_aware(fields.get("expires")),
        request_headers=request.get("headers") or {},  # the unpickled row's own dicts: nobody else has them
        headers=fields.get("headers") or {},
    )


def _from_response(key: str, response: Any) -> StoredAnswer:
    request = getattr(response, "request", None)
    return StoredAnswer(
        key=key,
        method=str(getattr(request, "method", "GET")),
        url=str(getattr(request, "url", None) or response.url),
        status=int(response.status_code),
        body=bytes(response.content or b""),
        created_at=_aware(response.created_at) or datetime.now(timezone.utc),
        expires=_aware(response.expires),
        request_headers=dict(getattr(request, "headers", None) or {}),
        headers=dict(getattr(response, "headers", None) or {}),
    )


def _plain_pickle(serializer: Any) -> bool:
    """Whether ``serializer`` is requests-cache's ``pickle`` serializer (or a backend's copy of it): a response
    unstructured by cattrs into a dict, pickled."""
    if serializer is pickle_serializer:
        return True
    stages = getattr(serializer, "stages", None)
    return (
        isinstance(serializer, SerializerPipeline)
        and isinstance(stages, (list, tuple))
        and len(stages) == 2
        and isinstance(stages[0], CattrStage)
        and getattr(stages[1], "obj", None) is pickle
    )


def decode(storage: Any, key: str, raw: Any) -> StoredAnswer | None:
    """One stored row of ``storage`` (a backend's ``responses``) as a :class:`StoredAnswer`, or ``None`` if it
    cannot be read (requests-cache then treats it as missing too)."""
    if raw is None:
        return None
    if hasattr(raw, "status_code"):
        return _from_response(key, raw)  # the in-memory backend keeps response objects
    if isinstance(raw, (bytes, bytearray, memoryview)) and _plain_pickle(getattr(storage, "serializer", None)):
        try:
            fields = pickle.loads(raw)
            if isinstance(fields, dict) and "_content" in fields and "status_code" in fields:
                return _from_fields(key, fields)
        except (pickle.UnpicklingError, EOFError, KeyError, TypeError, ValueError):
            pass
    response = storage.deserialize(key, raw)
    return None if response is None else _from_response(key, response)


def _chunks(keys: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(keys), CHUNK):
        yield keys[start : start + CHUNK]


def _rows(backend: BaseCache, table: Any, keys: Sequence[str]) -> dict[str, Any]:
    """Raw values of ``keys`` in ``table`` (``backend.responses`` or ``backend.redirects``), missing ones left out."""
    found: dict[str, Any] = {}
    if isinstance(backend, SQLiteCache):
        for chunk in _chunks(keys):
            marks = ",".join("?" * len(chunk))
            with table.connection() as con:
                found.update(con.execute(f"SELECT key, value FROM {table.table_name} WHERE key IN ({marks})", chunk))
        return found
    redis_mget = _redis_mget(backend, table)
    if redis_mget is not None:
        for chunk in _chunks(keys):
            found.update((k, v) for k, v in zip(chunk, redis_mget(chunk)) if v is not None)
        return found
    data = getattr(table, "data", None)  # DictStorage: a dict underneath
    for key in keys:
        value = data.get(key) if isinstance(data, dict) else _get(table, key)
        if value is not None:
            found[key] = value
    return found


def _get(table: Any, key: str) -> Any:
    try:
        return table[key]
    except KeyError:
        return None


def _redis_mget(backend: BaseCache, table: Any) -> Any:
    """``keys -> raw values`` for a table of requests-cache's Redis backend, or ``None`` for other backends.

    The key layout is requests-cache's (1.x): an answer under ``<namespace>:<key>``, redirects in one hash named
    ``<namespace>-redirects``."""
    connection = getattr(backend.responses, "connection", None)
    namespace = getattr(backend.responses, "namespace", None)
    if connection is None or namespace is None or not hasattr(connection, "mget"):
        return None
    if table is backend.responses:
        return lambda chunk: connection.mget([f"{namespace}:{k}".encode() for k in chunk])
    return lambda chunk: connection.hmget(f"{namespace}-redirects", [k.encode() for k in chunk])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, (bytes, bytearray)) else str(value)


def read_rows(backend: BaseCache, keys: Iterable[str]) -> dict[str, Any]:
    """The stored rows of ``keys`` as the backend holds them (undecoded), following redirects (a former company id
    that points at the answer stored under the current one), each under the key it was asked by; keys with no
    row are left out.  :func:`decode` (with ``backend.responses``) reads one; :func:`read_many` does both."""
    wanted = list(dict.fromkeys(keys))
    rows = _rows(backend, backend.responses, wanted)
    missing = [k for k in wanted if k not in rows]
    if missing:
        aliases = {k: _text(v) for k, v in _rows(backend, backend.redirects, missing).items()}
        targets = _rows(backend, backend.responses, sorted(set(aliases.values()) - rows.keys())) if aliases else {}
        for key, target in aliases.items():
            raw = rows.get(target, targets.get(target))
            if raw is not None:
                rows[key] = raw
    return {key: rows[key] for key in wanted if key in rows}  # in the order asked


def read_many(backend: BaseCache, keys: Iterable[str]) -> dict[str, StoredAnswer]:
    """The stored answers of ``keys`` (expired ones included; check :meth:`StoredAnswer.is_expired`), following
    redirects (a former company id that points at the answer stored under the current one).  Keys with no
    readable answer are left out.  The returned answers keep the key they were asked by."""
    answers: dict[str, StoredAnswer] = {}
    for key, raw in read_rows(backend, keys).items():
        answer = decode(backend.responses, key, raw)
        if answer is not None:
            answers[key] = answer
    return answers


def scan(backend: BaseCache, chunk: int = CHUNK) -> Iterator[StoredAnswer]:
    """Every stored answer of ``backend``, streamed ``chunk`` rows at a time (memory stays bounded).  Rows that
    cannot be read are skipped, as requests-cache skips them."""
    storage: Any = backend.responses
    if isinstance(backend, SQLiteCache):
        last = ""
        while True:
            with storage.connection() as con:
                rows = con.execute(
                    f"SELECT key, value FROM {storage.table_name} WHERE key > ? ORDER BY key LIMIT ?", (last, chunk)
                ).fetchall()
            for key, raw in rows:
                answer = decode(storage, key, raw)
                if answer is not None:
                    yield answer
            if len(rows) < chunk:
                return
            last = rows[-1][0]
    keys = list(storage.keys())
    for part in range(0, len(keys), chunk):
        found = _rows(backend, storage, keys[part : part + chunk])
        for key in keys[part : part + chunk]:
            answer = decode(storage, key, found.get(key))
            if answer is not None:
                yield answer
