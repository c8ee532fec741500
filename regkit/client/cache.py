"""Where the client's cache lives, and the ``client.cache`` handle (info, clear, offline mode).

``cache=`` of :class:`regkit.Client` accepts:

==================================  ===========================================================
``"sqlite"`` (the default)          SQLite file ``http_cache.sqlite`` in ``REGKIT_CACHE_DIR``, or
                                    else ``platformdirs.user_cache_dir("regkit")``
a path (str or ``os.PathLike``)     SQLite at that file (a directory gets ``http_cache.sqlite``)
``"memory"``                        in this process only, gone when it ends
``"redis://..."``, ``"rediss://"``  a shared Redis (needs ``pip install redis``)
``False`` or ``None``               no cache at all (every call is sent and paid)
a requests-cache backend instance   used as given
==================================  ===========================================================
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from requests_cache.backends import BaseCache, SQLiteCache
from requests_cache.backends.sqlite import SQLiteDict

from .errors import ValidationError

__all__ = ["open_backend", "default_cache_dir", "ClientCache", "CACHE_FILE"]

logger = logging.getLogger(__name__)

CACHE_FILE = "http_cache.sqlite"
_REDIS_NAMESPACE = "regkit"


def default_cache_dir() -> Path:
    """``REGKIT_CACHE_DIR`` if set (read now, not at import), else the user cache dir."""
    env = os.environ.get("REGKIT_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("regkit"))


def _redact_url(url: str) -> str:
    return re.sub(r"//([^@/]*)@", "//***@", url)


def open_backend(cache: Any = "sqlite") -> BaseCache | None:
    """Return the requests-cache backend ``cache`` names, or ``None`` for no cache."""
    if cache is None or cache is False:
        return None
    if isinstance(cache, BaseCache):
        return cache
    if cache is True or cache == "sqlite":
        try:
            return _sqlite(default_cache_dir() / CACHE_FILE)
        except OSError as exc:
            source = "REGKIT_CACHE_DIR" if os.environ.get("REGKIT_CACHE_DIR") else "the user cache directory"
            raise ValidationError(
                f"cache: {source} {default_cache_dir()} cannot hold the cache ({exc.strerror or exc})",
                suggestion="point REGKIT_CACHE_DIR at a writable directory, or pass cache='memory'",
            ) from None
    if cache == "memory":
        return BaseCache(cache_name="regkit-memory")
    if isinstance(cache, str) and cache.startswith(("redis://", "rediss://", "unix://")):
        return _redis(cache)
    if isinstance(cache, (str, os.PathLike)):
        path = Path(cache).expanduser()
        return _sqlite(path / CACHE_FILE if path.is_dir() else path)
    raise ValidationError(
        f"cache must be 'sqlite', 'memory', a path, a redis:// URL, False or a requests-cache "
        f"backend, not {cache!r} ({type(cache).__name__})",
        suggestion="e.g. Client(cache='memory') or Client(cache='~/regkit-cache')",
    )


def _sqlite(path: Path) -> SQLiteCache:
    """SQLite at ``path``, readable by its owner only: a new directory is 0700, the file 0600 (SQLite
    gives its -wal and -shm files the database file's mode), as the register's state files are."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    backend = SQLiteCache(path, busy_timeout=30_000, wal=True)
    for table in (backend.responses, backend.redirects):
        table.__class__ = SerialSQLiteDict  # same state, reads under the lock too
    return backend


class SerialSQLiteDict(SQLiteDict):
    """requests-cache's ``SQLiteDict``, with reads serialised as its writes are.

    ``SQLiteDict`` shares one ``sqlite3`` connection between threads and takes its lock for writes only, so a
    read in one thread can run on the connection while another thread begins a write on it. With a bulk
    lookup's 16 workers that surfaced as ``sqlite3.DatabaseError: no more rows available`` from
    ``BEGIN IMMEDIATE`` (requests-cache issues #820 and #1008 describe the same). Holding the (re-entrant,
    shared by both tables) lock for every use of the connection makes each use exclusive; a read of the
    cache takes tens of microseconds, so workers barely wait.
    """

    @contextmanager
    def connection(self, commit: bool = False) -> Iterator[sqlite3.Connection]:
        with self._lock, super().connection(commit) as con:
            yield con


def _redis(url: str) -> BaseCache:
    try:
        import redis
        from requests_cache.backends.redis import RedisCache
    except ImportError as exc:
        raise ImportError(f"a Redis cache ({_redact_url(url)}) needs the redis package: pip install redis") from exc
    backend = RedisCache(namespace=_REDIS_NAMESPACE, connection=redis.Redis.from_url(url))
    backend.cache_name = _redact_url(url)  # shown by info(); never with a password
    return backend


class ClientCache:
    """The cache of one client: ``info()``, ``clear()`` and the ``offline`` switch.

    In offline mode every call is answered from the cache only; an answer that is not there (or
    never cached, like credits and monitors) raises :class:`~regkit.client.errors.OfflineCacheMiss`
    and nothing is sent.
    """

    def __init__(self, backend: BaseCache | None, policy: Any, offline: bool = False) -> None:
        self.backend = backend
        self.policy = policy
        self.offline = offline

    @property
    def enabled(self) -> bool:
        """Whether answers are cached at all."""
        return self.backend is not None

    def location(self) -> str:
        """Where the cache lives (a file path, ``memory``, a Redis URL without password, or ``none``)."""
        if self.backend is None:
            return "none"
        if isinstance(self.backend, SQLiteCache):
            return str(self.backend.db_path)
        if type(self.backend) is BaseCache:
            return "memory"
        return str(self.backend.cache_name)

    def info(self) -> dict[str, Any]:
        """Backend, location, number of stored answers, size on disk (SQLite), offline flag and
        lifetimes per kind of answer."""
        info: dict[str, Any] = {
            "backend": "none" if self.backend is None else type(self.backend).__name__,
            "location": self.location(),
            "responses": 0 if self.backend is None else len(self.backend.responses),
            "offline": self.offline,
        }
        if isinstance(self.backend, SQLiteCache):
            path = Path(self.backend.db_path)
            info["bytes"] = sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())
        info["lifetimes"] = {
            "company": str(self.policy.company),
            "owners and holdings": str(self.policy.ownership),
            "person, person holdings": str(self.policy.person),
            "search (insolvency, company, person)": str(self.policy.search),
            "autocomplete": str(self.policy.autocomplete),
            "insolvency": str(self.policy.insolvency),
            "extract (terminal only)": str(self.policy.extract),
            "presigned URLs": str(self.policy.url_lifetime),
            "realtime (company, owners), credentials, monitors, credits, orders": "never",
        }
        return info

    def clear(self, older_than: timedelta | None = None) -> int:
        """Delete the stored answers — all of them, or those cached longer ago than ``older_than`` — and return
        how many were deleted (the next calls for them are paid again)."""
        if self.backend is None:
            return 0
        before = len(self.backend.responses)
        if older_than is None:
            self.backend.clear()
        else:
            if older_than <= timedelta(0):
                raise ValidationError(f"older_than must be positive, not {older_than}",
                                      suggestion="e.g. timedelta(days=30); clear() without it deletes everything")  # fmt: skip
            self.backend.delete(older_than=older_than)
        removed = before - len(self.backend.responses)
        logger.info("cache: %d answer(s) deleted from %s", removed, self.location())
        return removed

    def __repr__(self) -> str:
        mode = ", offline" if self.offline else ""
        return f"<ClientCache {self.location()}{mode}>"
