"""Storage beside a cache's answers, for what regkit keeps with them (versions, watchlists).

A table of the SQLite file, keys ``<namespace>-<name>:<key>`` of the team's Redis beside the cache's own, or memory —
through requests-cache's public storage classes (``SQLiteDict``, ``RedisDict``, ``DictStorage``), values stored as
the bytes given (no serializer).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from requests_cache import BaseCache, DictStorage, RedisCache, RedisDict, SQLiteCache, SQLiteDict

__all__ = ["storage_beside"]


def storage_beside(backend: BaseCache | None, table: str, namespace_suffix: str) -> MutableMapping[str, Any]:
    """A mapping kept beside ``backend``'s answers: the SQLite file's ``table``, the Redis namespace of the cache
    followed by ``namespace_suffix``, or memory (another backend, or none)."""
    if backend is None:
        return DictStorage()
    if isinstance(backend, SQLiteCache):  # its file, through the backend's own path
        return SQLiteDict(backend.db_path, table_name=table, busy_timeout=30_000, wal=True, serializer=None)
    responses: Any = backend.responses
    if isinstance(backend, RedisCache):  # RedisDict keys are "<namespace>:<key>": a namespace of their own
        return RedisDict(
            f"{responses.namespace}{namespace_suffix}", connection=responses.connection, serializer=None, ttl=False
        )
    return DictStorage()
