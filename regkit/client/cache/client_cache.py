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

Every SQLite and Redis cache is opened with regkit's serializer (:mod:`regkit.client.cache.format`) and read and
written only through requests-cache's public API, by :class:`~regkit.client.cache.store.ResponseStore`.

* **SQLite**: the file and a new directory are its owner's only (0600, 0700), whatever the file's name; a path
  without a suffix gets ``.sqlite`` (as requests-cache names it), created 0600 before requests-cache opens it. One
  missing directory is made (0700); a path whose directory and that directory's parent do not exist (a mistyped
  path), or a string that looks like a URL of another scheme (``htps://…``), is refused.  A file that is not a readable SQLite cache, or one that cannot be written (a read-only file or
  filesystem: every answer would be paid for and lost), is a :class:`~regkit.errors.CacheError` that names
  it (``regkit cache check`` / ``regkit cache repair``).  A write that fails later (a full disk) is counted and
  warned about (:class:`~regkit.errors.CacheWriteWarning`); the paid answer is returned all the same.
* **Redis**: requests-cache's Redis backend in the namespace ``regkit`` (it gives each answer Redis' own expiry an
  hour after the answer's lifetime ends). A Redis password (``redis://:PASSWORD@host`` or ``?password=``) is used
  to connect and shown nowhere: :func:`redact_url` replaces it in every location, message and ``repr``.  A Redis
  that stops answering makes paid calls fail before they are sent
  (:class:`~regkit.errors.CacheUnavailableError`), unless the client was made with ``uncached_ok=True``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from requests_cache import BaseCache, SQLiteCache

from regkit.errors import CacheError, ValidationError

from .beside import storage_beside
from .format import SERIALIZER
from .store import ResponseStore, StoredAnswer

__all__ = [
    "open_backend",
    "default_cache_dir",
    "redact_url",
    "is_redis_url",
    "connect_redis",
    "location_of",
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
_URL_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:/")
_CACHE_EXAMPLES = "e.g. Client(cache='memory'), Client(cache='~/regkit-cache') or Client(cache='redis://host:6379/0')"


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
    CacheError
        The SQLite file exists but is not a readable cache (corrupt, or another kind of file).
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
            directory = default_cache_dir()
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            return _sqlite(directory / CACHE_FILE)
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
    if isinstance(cache, str) and _URL_LIKE.match(cache.strip()):
        scheme = cache.strip().split(":", 1)[0]
        raise ValidationError(
            f"cache: {redact_url(cache.strip())!r} is a URL of the scheme {scheme!r}, which regkit does not know",
            suggestion="a Redis cache is redis://, rediss:// or unix://; a file is a path (" + _CACHE_EXAMPLES + ")",
        )
    if isinstance(cache, (str, os.PathLike)) and str(cache).strip():
        path = Path(str(cache).strip() if isinstance(cache, str) else cache).expanduser()
        target = path / CACHE_FILE if path.is_dir() else path
        if not target.parent.is_dir() and not target.parent.parent.is_dir():
            raise ValidationError(
                f"cache: neither {target.parent} nor the directory it would be made in exists (a mistyped path?)",
                suggestion="give a path in an existing directory, or one new directory below one (it is made "
                f"0700); a directory gets {CACHE_FILE}",
            )
        try:
            target.parent.mkdir(mode=0o700, exist_ok=True)
            return _sqlite(target)
        except OSError as exc:
            raise ValidationError(
                f"cache: {path} cannot hold the cache ({exc.strerror or exc})",
                suggestion="pass a writable path, a redis:// URL or cache='memory'",
            ) from None
    shown = redact_url(cache) if isinstance(cache, str) else repr(cache)
    raise ValidationError(
        f"cache must be 'default', 'sqlite', 'memory', a path, a redis:// URL, False or a requests-cache "
        f"backend, not {shown!r} ({type(cache).__name__})",
        suggestion=_CACHE_EXAMPLES,
    )


def _from_setting(environ: Mapping[str, str]) -> BaseCache | None:
    """The cache ``REGKIT_CACHE`` names, else the default SQLite file."""
    value = environ.get(CACHE_SETTING, "").strip()
    if not value:
        return open_backend("sqlite")
    if value in ("default", "none", "false", "off"):
        raise ValidationError(
            f"{CACHE_SETTING}={value!r} names no cache",
            suggestion=f"set {CACHE_SETTING} to a path, 'sqlite', 'memory' or a redis:// URL, or unset it; to "
            "turn the cache off pass Client(cache=False)",
        )
    try:
        return open_backend(value)
    except ValidationError as exc:
        exc.message = f"{CACHE_SETTING}: {exc.message}"
        exc.args = (str(exc),)
        raise


def _private(path: Path) -> None:
    """Make ``path`` and its SQLite side files (``-wal``, ``-shm``, ``-journal``) readable by their owner only."""
    for each in (path, *(path.with_name(path.name + side) for side in ("-wal", "-shm", "-journal"))):
        try:
            if each.exists() and each.stat().st_uid == os.getuid() and each.stat().st_mode & 0o077:
                each.chmod(0o600)
        except OSError:  # a read-only filesystem: nothing can be changed (nor written)
            pass


def _sqlite(path: Path) -> SQLiteCache:
    """SQLite at ``path`` (``.sqlite`` added when it has no suffix), readable by its owner only: the file is
    created 0600 before SQLite opens it, and SQLite gives its -wal and -shm files the database file's mode."""
    if not path.suffix:
        path = path.with_name(path.name + ".sqlite")
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if not _writable(path):
        # requests-cache cannot open a file it cannot write (its SQLite backend waits forever for a write lock),
        # and a cache that keeps nothing would have every answer paid again: say so now.
        raise CacheError(
            f"the cache file {path} cannot be written (a read-only file or filesystem); regkit would pay for "
            "answers it cannot keep",
            location=str(path),
            suggestion="make it writable, or point the client elsewhere (REGKIT_CACHE, cache=...); cache=False "
            "pays for every answer without a cache",
        )
    _private(path)
    try:
        backend = _open_within(path, LOCK_WAIT)
        foreign = _foreign(backend)  # reads the file: a damaged or foreign one fails here, not at the first lookup
    except sqlite3.Error as exc:
        raise CacheError(
            f"the cache file {path} cannot be opened ({type(exc).__name__}: {exc})", location=str(path)
        ) from None
    if foreign:
        backend.close()
        raise CacheError(
            f"the cache file {path} holds answers regkit cannot read: written by an earlier regkit (in "
            "requests-cache's format) or by another program",
            location=str(path),
            suggestion=f"run `regkit cache repair --cache {path}`: it converts an earlier regkit's answers (so they "
            "are not paid again) and keeps whatever else can be read",
        )
    _private(path)
    return backend


#: The table beside a cache's answers that opening writes to (and leaves empty): the proof the file can be written.
_OPENING_TABLE = "regkit_opening"

#: Seconds the client waits to open its cache file while another process writes to it, before it gives up with a
#: CacheError.
LOCK_WAIT = 30.0


def _open_within(path: Path, seconds: float) -> SQLiteCache:
    """requests-cache's SQLite backend on ``path``, opened within ``seconds`` or a :class:`CacheError`.

    A file whose write lock another process holds and never gives back (a regkit process stopped in a debugger, a
    program holding a transaction open) would make the client wait forever: requests-cache asks for the lock again
    and again without a bound (since 1.3 already when it opens the file; 1.2 at the first write, after the answer
    was paid).  So the backend is opened in a thread of its own — its public constructor, then one write and its
    removal in a table of regkit's own beside the answers (``storage_beside``) — and waited for at most
    ``seconds``; a backend that opens after that, once the lock is given back, is closed by its thread.  A damaged
    file fails in the constructor, which the caller reports.
    """
    opened: dict[str, Any] = {}
    gave_up = threading.Event()

    def open_backend() -> None:
        try:
            backend = SQLiteCache(path, busy_timeout=30_000, wal=True, serializer=SERIALIZER)
            probe = storage_beside(backend, _OPENING_TABLE, "-opening")
            probe["opened"] = b""  # a write: the file's write lock, however this requests-cache opens the file
            del probe["opened"]
            close = getattr(probe, "close", None)  # SQLiteDict's: its own connection
            if close is not None:
                close()
        except BaseException as exc:  # handed to the waiting thread
            opened["error"] = exc
            return
        opened["backend"] = backend
        if gave_up.is_set():
            backend.close()

    thread = threading.Thread(target=open_backend, name=f"regkit-open-cache {path.name}", daemon=True)
    thread.start()
    try:
        thread.join(seconds)
    except BaseException:  # an interrupt while waiting: the backend, once open, is closed by its thread
        gave_up.set()
        raise
    error = opened.get("error")
    if thread.is_alive() or (isinstance(error, sqlite3.OperationalError) and "locked" in str(error)):
        gave_up.set()
        raise CacheError(
            f"the cache file {path} is locked: another process has been writing to it for more than {seconds:.0f} s",
            location=str(path),
            suggestion="end the other regkit process (or program) that holds it, or point this client at "
            "another cache (cache=..., REGKIT_CACHE); nothing was sent",
        )
    if error is not None:
        raise error
    backend: SQLiteCache = opened["backend"]
    return backend


def _foreign(backend: BaseCache) -> bool:
    """Whether the first stored answer of ``backend`` is in another format than regkit's (an earlier regkit's)."""
    keys = iter(backend.responses.keys())
    try:
        first = next(keys, None)
    finally:
        close = getattr(keys, "close", None)
        if close is not None:
            close()
    return first is not None and backend.get_response(first) is None


def _writable(path: Path) -> bool:
    """Whether SQLite can write ``path`` (the file and its directory, for the -wal and -shm files)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _redis(url: str) -> BaseCache:
    """A requests-cache ``RedisCache`` on ``url`` (namespace ``regkit``, regkit's serializer), after a ``PING``."""
    shown = redact_url(url)
    try:
        import redis  # noqa: F401
        from requests_cache import RedisCache
    except ImportError as exc:
        raise ImportError(f"a Redis cache ({shown}) needs the redis package: pip install redis") from exc
    connection = connect_redis(url, what="cache")
    backend = RedisCache(namespace=_REDIS_NAMESPACE, connection=connection, serializer=SERIALIZER)
    backend.cache_name = shown  # shown by location() and info(); never with a password
    return backend


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
        raise ValidationError(
            f"{what}: {shown} is not a Redis URL ({_scrub(str(exc), secret)})",
            suggestion="e.g. redis://host:6379/0, redis://:PASSWORD@host:6379/0 or rediss://host:6380/0 (TLS)",
        ) from None
    try:
        connection.ping()
    except redis.RedisError as exc:
        connection.close()
        raise ValidationError(
            f"{what}: Redis at {shown} did not answer PING ({_scrub(str(exc), secret)})",
            suggestion="start Redis or correct the URL (host, port, database, password)",
        ) from None
    return connection


def _password_of(url: str) -> str | None:
    match = re.search(r"//[^/?#]*?:([^/?#]*)@", url) or re.search(r"[?&]password=([^&#]*)", url, re.IGNORECASE)
    return match.group(1) if match and match.group(1) else None


def _scrub(text: str, secret: str | None) -> str:
    return text.replace(secret, "***") if secret else text


def location_of(backend: BaseCache | None) -> str:
    """Where ``backend`` lives (a file path, ``memory``, a Redis URL without password, or ``none``)."""
    if backend is None:
        return "none"
    if isinstance(backend, SQLiteCache):
        return str(backend.db_path)
    if type(backend) is BaseCache:
        return "memory"
    return redact_url(str(backend.cache_name))


def _store_for(backend: BaseCache | None) -> ResponseStore:
    return ResponseStore(backend, location_of(backend))


#: The longest age ``clear(older_than=...)`` takes (older than anything a cache can hold).
MAX_AGE = timedelta(days=100 * 366)


class ClientCache:
    """The cache of one client: ``info()``, ``clear()``, ``check()``, ``repair()``, ``scan()`` and the
    ``offline`` switch.

    In offline mode every call is answered from the cache only; an answer that is not there (or never cached, like
    credits and monitors) raises :class:`~regkit.errors.OfflineCacheMiss` and nothing is sent.

    Parameters
    ----------
    backend : requests-cache backend or None
        Where answers are kept (:func:`open_backend`).
    policy : CachePolicy
        Lifetimes per kind of answer.
    offline : bool
        Answer from the cache only.
    uncached_ok : bool
        When the cache cannot be read (a Redis that is down, a damaged file), send paid calls anyway, without the
        cache (each is marked ``uncached`` in the ledger); by default they are refused with
        :class:`~regkit.errors.CacheError` before anything is sent.
    """

    def __init__(
        self, backend: BaseCache | None, policy: Any, offline: bool = False, uncached_ok: bool = False
    ) -> None:
        self.store = _store_for(backend)
        self.policy = policy
        self.offline = offline
        self.uncached_ok = uncached_ok

    @property
    def backend(self) -> BaseCache | None:
        """The requests-cache backend (``None``: no cache)."""
        return self.store.backend

    @property
    def enabled(self) -> bool:
        """Whether answers are cached at all."""
        return self.store.enabled

    def close(self) -> None:
        """Close the backend's connections (a later read or write opens them again)."""
        self.store.close()

    def location(self) -> str:
        """Where the cache lives (a file path, ``memory``, a Redis URL without password, or ``none``)."""
        return self.store.location

    def info(self) -> dict[str, Any]:
        """What the cache holds and for how long.

        Returns
        -------
        dict
            ``backend`` (``SQLiteCache``, ``RedisCache``, ``BaseCache`` for memory, or ``none``), ``location``
            (:meth:`location`: never a password), ``responses`` (stored answers), ``bytes`` (SQLite only: the size
            of the database file and its ``-wal``/``-shm`` files on disk), ``unstored`` (paid answers this client
            could not store: a full disk, a file that became read-only, a Redis that was down), ``offline`` and
            ``lifetimes`` (per kind of answer).

        Raises
        ------
        CacheError
            The cache cannot be read.
        """
        info: dict[str, Any] = {
            "backend": "none" if self.backend is None else type(self.backend).__name__,
            "location": self.location(),
            "responses": self.store.count(),
            "unstored": self.store.unstored,
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
            "documents (their URLs live 15 minutes)": str(self.policy.document_lifetime),
            "realtime (company, owners), credentials, monitors, credits, orders": "never",
        }
        return info

    def clear(self, older_than: timedelta | None = None) -> int:
        """Delete the stored answers — all of them, or those cached longer ago than ``older_than`` — and return
        how many were deleted (the next calls for them are paid again).

        Raises
        ------
        ValidationError
            ``older_than`` is not a positive duration, or longer than any cache can be old (100 years).
        CacheError
            The cache cannot be read.
        """
        if self.backend is None:
            return 0
        if older_than is not None:
            if not isinstance(older_than, timedelta) or older_than <= timedelta(0):
                raise ValidationError(
                    f"older_than must be a positive timedelta, not {older_than!r}",
                    suggestion="e.g. timedelta(days=30); clear() without it deletes everything",
                )
            if older_than > MAX_AGE:
                raise ValidationError(
                    f"older_than={older_than.days} days is longer than any cache can be old (at most {MAX_AGE.days})",
                    suggestion="clear() without older_than deletes everything",
                )
        before = self.store.count()
        backend = self.backend
        try:
            if older_than is None:
                backend.clear()
                self.store.versions.clear()
            else:
                backend.delete(older_than=older_than)
        except (sqlite3.Error, OSError) as exc:
            self.store.release_failed_write()
            raise CacheError(
                f"the cache at {self.location()} could not be cleared ({exc})", location=self.location()
            ) from None
        removed = before - self.store.count()
        logger.info("cache: %d answer(s) deleted from %s", removed, self.location())
        return removed

    def scan(self, unreadable: list[str] | None = None) -> Iterator[StoredAnswer]:
        """Every stored answer (expired ones included), a chunk at a time; the keys of answers that cannot be read
        are appended to ``unreadable`` (the scan goes on)."""
        return self.store.scan(unreadable)

    def read(self, keys: Any) -> dict[str, StoredAnswer]:
        """The stored answers of ``keys`` that can be read (expired ones included)."""
        return self.store.read(keys)

    def versions_of(self, key: str) -> list[tuple[datetime, str]]:
        """The versions the cache keeps of ``key``'s answer, oldest first: ``(fetched_at, JSON body)`` (the Parquet
        export's ``versions`` and ``changes`` tables read them)."""
        if self.backend is None:
            return []
        return [(version.fetched_at, version.body) for version in self.store.versions.of(key)]

    def check(self) -> dict[str, Any]:
        """Read every stored answer and say what is wrong.

        Returns
        -------
        dict
            ``location``, ``responses`` (stored answers), ``readable``, ``unreadable`` (answers that cannot be
            decoded: damaged, or written in another format), ``error`` (why the cache could not be read at all,
            else ``None``) and ``ok``.
        """
        unreadable: list[str] = []
        result: dict[str, Any] = {
            "location": self.location(),
            "responses": 0,
            "readable": 0,
            "unreadable": 0,
            "error": None,
        }
        try:
            result["responses"] = self.store.count()
            result["readable"] = sum(1 for _ in self.scan(unreadable))
        except CacheError as exc:
            result["error"] = exc.message
        result["unreadable"] = len(unreadable)
        result["ok"] = result["error"] is None and not unreadable
        return result

    def __repr__(self) -> str:
        mode = ", offline" if self.offline else ""
        return f"<ClientCache {self.location()}{mode}>"


def _key_of(method: str, url: str, body: Any, headers: Any) -> tuple[str, str | None] | None:
    """The key regkit stores the answer to a request (full URL, raw body, headers) under, and the company id it
    asked for (``None`` for other requests); ``None`` when it is no request of the interface."""
    from urllib.parse import parse_qsl, urlsplit

    from .keys import cache_key

    if "/v1/" not in url:
        return None
    base, _, rest = url.partition("/v1/")
    parts = urlsplit("/v1/" + rest)
    data: Any = None
    if body:
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return None
    pairs = [(name, str(value)) for name, value in (headers or {}).items()]
    key = cache_key(base, method or "GET", parts.path, parse_qsl(parts.query), data, pairs)
    asked = parts.path.split("/v1/company/", 1)[1] if parts.path.startswith("/v1/company/") else None
    return key, (asked if asked and "/" not in asked else None)


def _convert_legacy(source: Path, target: SQLiteCache, keys: list[str]) -> tuple[int, list[str]]:
    """Copy the answers of ``keys`` that are in the format regkit wrote before its own (requests-cache's ``pickle``
    serializer, under requests-cache's keys) into ``target`` under regkit's keys, with the aliases of companies'
    former ids; return how many were converted and the keys that were not."""
    from .policy import record_company_ids

    try:
        legacy = SQLiteCache(source, busy_timeout=30_000, serializer="pickle")
    except sqlite3.Error:
        return 0, keys
    converted, left = 0, []
    for key in keys:
        try:
            response = legacy.get_response(key)
            request = response.request if response is not None else None
            found = _key_of(str(request.method), str(request.url), request.body, request.headers) if request else None
        except Exception:  # a row of neither format: counted as lost by the caller
            response, found = None, None
        if response is None or found is None:
            left.append(key)
            continue
        new_key, asked = found
        target.save_response(response, cache_key=new_key, expires=response.expires)
        converted += 1
        try:
            others = record_company_ids(json.loads(response.content)) - {asked} if asked is not None else set()
        except ValueError:
            others = set()
        for other in sorted(others):
            url = str(response.request.url).replace(f"/v1/company/{asked}", f"/v1/company/{other}", 1)
            alias = _key_of("GET", url, None, response.request.headers)
            if alias is not None:
                target.redirects[alias[0]] = new_key
    legacy.close()
    return converted, left


def repair(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Keep what can be read of a damaged SQLite cache: copy every readable answer (and alias) into a new file, move
    the damaged one aside (``<name>.damaged-<UTC time>``) and put the new one in its place.  A file of which nothing
    can be read (not a SQLite database at all) is moved aside too, and an empty cache takes its place.  Answers
    stored by an earlier regkit (in requests-cache's ``pickle`` format, under requests-cache's keys) are converted to
    regkit's format and keys, so an upgrade does not pay again for them.

    Returns
    -------
    dict
        ``location``, ``kept`` (answers copied), ``converted`` (of them, answers in the earlier format), ``lost``
        (answers that could not be read; ``None`` when not even the list of answers could be read), ``aliases``
        (kept) and ``moved_to`` (where the damaged file now is).

    Raises
    ------
    ValidationError
        There is no file at ``path``.
    """
    source = Path(path)
    if not source.suffix:
        source = source.with_name(source.name + ".sqlite")
    if not source.is_file():
        raise ValidationError(f"there is no cache file at {source}", suggestion="regkit cache info shows where it is")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    fresh = source.with_name(f"{source.stem}.repairing-{stamp}{source.suffix}")
    os.close(os.open(fresh, os.O_CREAT | os.O_WRONLY, 0o600))
    target = SQLiteCache(fresh, busy_timeout=30_000, wal=True, serializer=SERIALIZER)
    kept = aliases = converted = 0
    lost: int | None = None
    try:
        damaged = SQLiteCache(source, busy_timeout=30_000, serializer=SERIALIZER)
    except sqlite3.Error:
        damaged = None
    if damaged is not None:
        try:
            keys = list(damaged.responses.keys())
        except sqlite3.Error:
            keys = None
        if keys is not None:
            unread = []
            for key in keys:
                try:
                    response = damaged.get_response(key)
                except sqlite3.Error:
                    response = None
                if response is None:
                    unread.append(key)
                    continue
                target.save_response(response, cache_key=key, expires=response.expires)
                kept += 1
            converted, left = _convert_legacy(source, target, unread) if unread else (0, [])
            kept += converted
            lost = len(left)
            try:
                for alias, key in list(damaged.redirects.items()):
                    if target.contains(key=key):
                        target.redirects[alias] = key
                        aliases += 1
            except sqlite3.Error:
                pass
        damaged.close()
    target.close()
    moved = source.with_name(f"{source.name}.damaged-{stamp}")
    shutil.move(str(source), moved)
    for side in ("-wal", "-shm"):
        leftover = source.with_name(source.name + side)
        if leftover.exists():
            shutil.move(str(leftover), moved.with_name(moved.name + side))
    fresh.replace(source)
    for side in ("-wal", "-shm"):
        fresh_side = fresh.with_name(fresh.name + side)
        if fresh_side.exists():
            fresh_side.unlink()
    _private(source)
    logger.info("cache %s repaired: %d kept, %s lost; the damaged file is %s", source, kept, lost, moved)
    return {
        "location": str(source),
        "kept": kept,
        "converted": converted,
        "lost": lost,
        "aliases": aliases,
        "moved_to": str(moved),
    }
