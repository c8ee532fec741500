"""Watchlists kept in the cache's storage, so that a team sharing a Redis cache shares them.

A watchlist's definition — its companies and persons, its categories and the age after which a member is stale —
is one JSON document under its name: a table ``regkit_watchlists`` of the SQLite file, keys
``<namespace>-watchlists:<name>`` of the team's Redis, or memory, through requests-cache's public storage classes
(``SQLiteDict``, ``RedisDict``, ``DictStorage``), as the versions are (:mod:`.versions`). Clearing the cache's
answers keeps them: a watchlist is what to watch, not an answer.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

from requests_cache import BaseCache

from .beside import storage_beside

__all__ = ["WATCHLISTS_TABLE", "WatchlistStore"]

#: The table of the SQLite file the watchlists are kept in.
WATCHLISTS_TABLE = "regkit_watchlists"


class WatchlistStore:
    """The watchlist definitions of one cache, by name (opened on first use).

    Parameters
    ----------
    backend : requests-cache backend or None
        The cache they are kept beside (``None``: memory only).
    """

    def __init__(self, backend: BaseCache | None) -> None:
        self._backend = backend
        self._storage: MutableMapping[str, Any] | None = None

    @property
    def storage(self) -> MutableMapping[str, Any]:
        """The mapping of name → definition (JSON)."""
        if self._storage is None:
            self._storage = storage_beside(self._backend, WATCHLISTS_TABLE, "-watchlists")
        return self._storage

    def get(self, name: str) -> dict[str, Any] | None:
        """The definition stored under ``name``, or None."""
        stored = self.storage.get(name)
        if stored is None:
            return None
        text = stored.decode("utf-8") if isinstance(stored, bytes) else str(stored)
        found = json.loads(text)
        return found if isinstance(found, dict) else None

    def put(self, name: str, definition: dict[str, Any]) -> None:
        """Store ``definition`` under ``name`` (replacing what was there)."""
        self.storage[name] = json.dumps(definition, ensure_ascii=False, sort_keys=True).encode("utf-8")

    def delete(self, name: str) -> bool:
        """Delete the watchlist ``name``; whether there was one."""
        try:
            del self.storage[name]
        except KeyError:
            return False
        return True

    def names(self) -> list[str]:
        """Every stored watchlist's name, sorted."""
        return sorted(str(name) for name in self.storage)
