"""Older answers of a refreshed request, kept as versions beside the cache, so what changed can be read for free.

When a stored answer is replaced by a fresh one that differs, the older one is kept as a **version** of its
request: its body (the JSON the interface sent), the URL asked and when it was fetched. A refresh that brings the
same body adds none. Each request keeps at most :attr:`~regkit.client.cache.policy.CachePolicy.versions` of them,
the newest (10 by default; 0 keeps none), in the cache's own storage — a table ``regkit_versions`` of the SQLite
file, keys ``regkit-versions:<key>`` of the team's Redis beside the cache's ``regkit:`` ones, or memory — through requests-cache's public storage
classes (``SQLiteDict``, ``RedisDict``, ``DictStorage``). A team sharing a Redis cache shares its versions.

Versions are read with the stored answer and diffed by :meth:`regkit.client.Client.changes` at 0 credits; clearing
the cache (``client.cache.clear()``) deletes them with the answers.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from requests_cache import BaseCache

from .beside import storage_beside

__all__ = ["VERSIONS_TABLE", "Version", "VersionStore"]

#: The table of the SQLite file the versions are kept in.
VERSIONS_TABLE = "regkit_versions"


@dataclass(frozen=True)
class Version:
    """One answer of a request as it was fetched.

    Attributes
    ----------
    key : str
        The request's cache key.
    url : str
        The URL asked.
    fetched_at : datetime
        When it was fetched (UTC, aware).
    body : str
        The JSON the interface sent.
    """

    key: str
    url: str
    fetched_at: datetime
    body: str

    @property
    def data(self) -> Any:
        """The answer, parsed."""
        return json.loads(self.body)


def _storage(backend: BaseCache) -> MutableMapping[str, Any]:
    """Where ``backend``'s versions live: beside its answers, in the same file or Redis."""
    return storage_beside(backend, VERSIONS_TABLE, "-versions")


class VersionStore:
    """The versions of one cache's requests (see the module docstring); opened on first use.

    Parameters
    ----------
    backend : requests-cache backend
        The cache whose answers the versions are of.
    """

    def __init__(self, backend: BaseCache) -> None:
        self._backend = backend
        self._storage: MutableMapping[str, Any] | None = None

    @property
    def storage(self) -> MutableMapping[str, Any]:
        """The mapping of cache key → the request's versions (JSON), opened on first use."""
        if self._storage is None:
            self._storage = _storage(self._backend)
        return self._storage

    def keep(self, key: str, url: str, fetched_at: datetime | None, body: bytes, limit: int) -> None:
        """Keep an answer that is being replaced as the newest version of ``key``, and at most ``limit`` in all."""
        if limit <= 0:
            return
        kept = self._entries(key)
        when = (fetched_at or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat()
        kept.append({"url": url, "fetched_at": when, "body": body.decode("utf-8", errors="replace")})
        self.storage[key] = json.dumps(kept[-limit:], ensure_ascii=False).encode("utf-8")

    def of(self, key: str) -> list[Version]:
        """The versions of ``key``, oldest first (none: an empty list)."""
        return [
            Version(key, entry["url"], datetime.fromisoformat(entry["fetched_at"]), entry["body"])
            for entry in self._entries(key)
        ]

    def count(self) -> int:
        """How many requests have versions."""
        return len(self.storage)

    def clear(self) -> None:
        """Delete every version."""
        self.storage.clear()

    def _entries(self, key: str) -> list[dict[str, Any]]:
        stored = self.storage.get(key)
        if stored is None:
            return []
        text = stored.decode("utf-8") if isinstance(stored, bytes) else str(stored)
        entries = json.loads(text)
        return entries if isinstance(entries, list) else []
