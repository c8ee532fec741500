"""Where the client's cache lives, and the ``client.cache`` handle (info, clear, offline mode).

``cache=`` of :class:`regkit.Client` accepts:

==================================  ===========================================================
``"default"`` (the default)         ``REGKIT_CACHE`` if set (any of the values below as text: a
                                    path, ``memory``, ``sqlite`` or a Redis URL), else ``"sqlite"``
``"sqlite"``                        SQLite file ``http_cache.sqlite`` in ``REGKIT_CACHE_DIR``, or
                                    else ``platformdirs.user_cache_dir("regkit")``
a path (str or ``os.PathLike``)     SQLite at that file (a directory gets ``http_cache.sqlite``)
``"memory"``                        in this process only, gone when it ends
``"redis://..."``, ``"rediss://"``  a Redis shared by every client pointed at it, in any process on
``"unix://..."``                    any machine (needs ``pip install redis``); checked with ``PING``
                                    when the client is made
``False`` or ``None``               no cache at all (every call is sent and paid)
a requests-cache backend instance   used as given
==================================  ===========================================================

On Redis, answers are stored under ``regkit:<key hash>`` (with Redis' own expiry an hour after the answer's
lifetime ends) and the aliases of companies' former ids in the hash ``regkit-redirects``; nothing else of the
database is read, counted or cleared. A Redis password (``redis://:PASSWORD@host`` or ``?password=``) is used
to connect and shown nowhere: :func:`redact_url` replaces it in every location, message and ``repr``.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from requests_cache.backends import BaseCache, SQLiteCache
from requests_cache.backends.sqlite import SQLiteDict

from .errors import ValidationError

__all__ = [
    "open_backend",
    "default_cache_dir",
    "redact_url",
    "is_redis_url",
    "connect_redis",
    "ClientCache",
    "CACHE_FILE",
    "CACHE_SETTING",
]

logger = logging.getLogger(__name__)

CACHE_FILE = "http_cache.sqlite"
#: The setting that says where ``cache="default"`` is (a path, ``memory``, ``sqlite`` or a Redis URL).
CACHE_SETTING = "REGKIT_CACHE"
_REDIS_NAMESPACE = "regkit"
_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def default_cache_dir() -> Path:
    """``REGKIT_CACHE_DIR`` if set (read now, not at import), else the user cache dir."""
    env = os.environ.get("REGKIT_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("regkit"))


def redact_url(url: str) -> str:
    """``url`` with its user information and any ``password=`` query value replaced by ``***``.

    Examples
    --------
    >>> redact_url("redis://:s3cret@cache.example:6379/0")
    'redis://***@cache.example:6379/0'
    >>> redact_url("redis://cache.example/0?password=s3cret&ssl_cert_reqs=none")
    'redis://cache.example/0?password=***&ssl_cert_reqs=none'
    """
    url = re.sub(r"//[^/?#]*@", "//***@", url)
    return re.sub(r"([?&](?:password|passwd|pass)=)[^&#]*", r"\1***", url, flags=re.IGNORECASE)


def is_redis_url(value: Any) -> bool:
    """Whether ``value`` is a ``redis://``, ``rediss://`` or ``unix://`` URL."""
    return isinstance(value, str) and value.strip().lower().startswith(_REDIS_SCHEMES)


def open_backend(cache: Any = "default") -> BaseCache | None:
    """Return the requests-cache backend ``cache`` names, or ``None`` for no cache (see the module docstring).

    Raises
    ------
    ValidationError
        ``cache`` is none of the accepted values, its place cannot hold a cache, or its Redis does not answer.
    ImportError
        A Redis URL without the ``redis`` package installed.
    """
    if cache is None or cache is False:
        return None
    if isinstance(cache, BaseCache):
        return cache
    if cache == "default":
        return _from_setting(os.environ)
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
    if is_redis_url(cache):
        return _redis(cache.strip())
    if isinstance(cache, (str, os.PathLike)) and str(cache).strip():
        path = Path(cache).expanduser()
        try:
            return _sqlite(path / CACHE_FILE if path.is_dir() else path)
        except OSError as exc:
            raise ValidationError(f"cache: {path} cannot hold the cache ({exc.strerror or exc})",
                                  suggestion="pass a writable path, a redis:// URL or cache='memory'") from None  # fmt: skip
    shown = redact_url(cache) if isinstance(cache, str) else repr(cache)
    raise ValidationError(
        f"cache must be 'default', 'sqlite', 'memory', a path, a redis:// URL, False or a requests-cache "
        f"backend, not {shown!r} ({type(cache).__name__})",
        suggestion="e.g. Client(cache='memory'), Client(cache='~/regkit-cache') or Client(cache='redis://host:6379/0')",
    )


def _from_setting(environ: Mapping[str, str]) -> BaseCache | None:
    """The cache ``REGKIT_CACHE`` names, else the default SQLite file."""
    value = environ.get(CACHE_SETTING, "").strip()
    if not value:
        return open_backend("sqlite")
    if value in ("default", "none", "false", "off"):
        raise ValidationError(f"{CACHE_SETTING}={value!r} names no cache",
                              suggestion=f"set {CACHE_SETTING} to a path, 'sqlite', 'memory' or a redis:// URL, or "
                                         "unset it; to turn the cache off pass Client(cache=False)")  # fmt: skip
    try:
        return open_backend(value)
    except ValidationError as exc:
        exc.message = f"{CACHE_SETTING}: {exc.message}"
        exc.args = (str(exc),)
        raise


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
    """A requests-cache ``RedisCache`` on ``url`` (namespace ``regkit``), after a ``PING``."""
    shown = redact_url(url)
    try:
        import redis  # noqa: F401
        from requests_cache.backends.redis import RedisCache
    except ImportError as exc:
        raise ImportError(f"a Redis cache ({shown}) needs the redis package: pip install redis") from exc
    connection = connect_redis(url, what="cache")
    backend = RedisCache(namespace=_REDIS_NAMESPACE, connection=connection)
    backend.cache_name = shown  # shown by location() and info(); never with a password
    backend.responses.__class__ = _expiring_dict_class()  # same state; SET with EX, not the deprecated SETEX
    return backend


def _expiring_dict_class() -> type:
    """requests-cache's ``RedisDict`` writing ``SET key value EX ttl`` (redis-py 6+ deprecates ``setex``, which
    requests-cache 1.x calls for every answer with a lifetime)."""
    from requests_cache.backends.redis import RedisDict

    class ExpiringRedisDict(RedisDict):
        def __setitem__(self, key: str, item: Any) -> None:
            expires_delta = getattr(item, "expires_delta", None)
            ttl = None if expires_delta is None or not self.ttl else int(expires_delta + self.ttl_offset)
            self.connection.set(self._bkey(key), self.serialize(item), ex=ttl if ttl and ttl > 0 else None)

    return ExpiringRedisDict


def connect_redis(url: str, *, what: str) -> Any:
    """A ``redis.Redis`` on ``url`` that has answered ``PING``; ``what`` names its use in messages.

    Raises
    ------
    ValidationError
        A malformed URL, or a Redis that does not answer or refuses the password (the message shows the URL
        without its password).
    """
    import redis

    shown = redact_url(url)
    secret = _password_of(url)
    try:
        connection = redis.Redis.from_url(url, socket_connect_timeout=10, socket_timeout=60, health_check_interval=30)
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"{what}: {shown} is not a Redis URL ({_scrub(str(exc), secret)})",
                              suggestion="e.g. redis://host:6379/0, redis://:PASSWORD@host:6379/0 or "
                                         "rediss://host:6380/0 (TLS)") from None  # fmt: skip
    try:
        connection.ping()
    except redis.RedisError as exc:
        connection.close()
        raise ValidationError(f"{what}: Redis at {shown} did not answer PING ({_scrub(str(exc), secret)})",
                              suggestion="start Redis or correct the URL (host, port, database, password)",
                              ) from None  # fmt: skip
    return connection


def _password_of(url: str) -> str | None:
    match = re.search(r"//[^/?#]*?:([^/?#]*)@", url) or re.search(r"[?&]password=([^&#]*)", url, re.IGNORECASE)
    return match.group(1) if match and match.group(1) else None


def _scrub(text: str, secret: str | None) -> str:
    return text.replace(secret, "***") if secret else text


def _redis_bytes(backend: Any) -> int:
    """Bytes Redis uses for regkit's answers and aliases: the sum of ``MEMORY USAGE`` (all samples) of every
    ``regkit:*`` key and of the ``regkit-redirects`` hash — what they take in Redis' memory, overhead included."""
    connection = backend.responses.connection
    namespace = backend.responses.namespace
    total = 0
    keys = [f"{namespace}-redirects".encode()]
    batch: list[bytes] = []
    for key in [*keys, *connection.scan_iter(match=f"{namespace}:*", count=1000)]:
        batch.append(key)
        if len(batch) == 1000:
            total += _memory_usage(connection, batch)
            batch = []
    return total + _memory_usage(connection, batch)


def _is_redis(backend: Any) -> bool:
    try:
        from requests_cache.backends.redis import RedisCache
    except ImportError:  # no redis package: no Redis cache either
        return False
    return isinstance(backend, RedisCache)


def _memory_usage(connection: Any, keys: list[bytes]) -> int:
    pipe = connection.pipeline(transaction=False)
    for key in keys:
        pipe.memory_usage(key, samples=0)
    return sum(int(used or 0) for used in pipe.execute())


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
        return redact_url(str(self.backend.cache_name))

    def info(self) -> dict[str, Any]:
        """What the cache holds and for how long.

        Returns
        -------
        dict
            ``backend`` (``SQLiteCache``, ``RedisCache``, ``BaseCache`` for memory, or ``none``), ``location``
            (:meth:`location`: never a password), ``responses`` (stored answers), ``bytes`` (SQLite: the size
            of the database file and its ``-wal``/``-shm`` files on disk; Redis: the sum of ``MEMORY USAGE``
            of regkit's keys, i.e. the memory they take in Redis, overhead included; absent for memory),
            ``offline`` and ``lifetimes`` (per kind of answer).
        """
        info: dict[str, Any] = {
            "backend": "none" if self.backend is None else type(self.backend).__name__,
            "location": self.location(),
            "responses": 0 if self.backend is None else len(self.backend.responses),
            "offline": self.offline,
        }
        if isinstance(self.backend, SQLiteCache):
            path = Path(self.backend.db_path)
            info["bytes"] = sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())
        elif _is_redis(self.backend):
            info["bytes"] = _redis_bytes(self.backend)
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
