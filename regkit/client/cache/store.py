"""The client's answers in requests-cache, through its public API only, and what happens when the storage fails.

:class:`ResponseStore` is the one place that touches a requests-cache backend.  It reads an answer with
``get_response(key)`` (one read per hit; requests-cache follows a former company id's alias in its public
``redirects`` mapping), writes one with ``save_response(response, cache_key=key, expires=...)``, aliases with
``redirects[alias] = key``, deletes with ``delete(...)`` and lists with ``responses.keys()``.  The key is regkit's
own (:mod:`regkit.client.cache.keys`), the stored format regkit's serializer (:mod:`regkit.client.cache.format`).

**Faults.**  A read that fails (a corrupt SQLite file, a Redis that does not answer) raises
:class:`~regkit.errors.CacheError` — :class:`~regkit.errors.CacheUnavailableError` for a backend
that is down — before anything is sent, so the caller can refuse to pay for an answer it may already have.  A
write never raises: the answer was paid for and goes back to the caller whatever the storage does.  A write that
fails — and one that requests-cache silently drops (its SQLite backend rolls back a failed commit without a word:
a full disk, a read-only file), found by asking ``contains(key)`` afterwards — is counted (:attr:`unstored`) and
warned about once per reason (:class:`~regkit.errors.CacheWriteWarning`, with the location and the reason).

**Threads.**  requests-cache's SQLite backend shares one ``sqlite3`` connection between threads and locks only
its writes, so a read in one thread can run on the connection while another thread begins a write on it; with a
bulk lookup's workers that surfaced as ``sqlite3.DatabaseError: no more rows available`` (requests-cache issues
#820 and #1008).  Every call into a SQLite backend here holds this store's own lock, so each use of the
connection is exclusive; a read takes tens of microseconds, so workers barely wait.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from requests_cache import BaseCache, CachedResponse, SQLiteCache

from regkit.errors import CacheError, CacheUnavailableError, CacheWriteWarning

from .versions import VersionStore
from .watchlists import WatchlistStore

__all__ = ["ResponseStore", "StoredAnswer", "CHUNK"]

logger = logging.getLogger(__name__)

#: Keys read per round when many are asked for (bounds the objects alive at once).
CHUNK = 500
_NOT_STORED = "not stored in the cache"


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """One stored answer, as the cache holds it.

    Attributes
    ----------
    key : str
        The key it is stored under.
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
        The stored request headers (only ``X-Regkit-Scope``, naming the user a user-scoped answer belongs to).
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

    @classmethod
    def of(cls, key: str, response: CachedResponse) -> StoredAnswer:
        """The stored answer of a ``CachedResponse`` read under ``key``."""
        request = response.request
        created = response.created_at
        expires = response.expires
        return cls(
            key=key,
            method=str(getattr(request, "method", None) or "GET"),
            url=str(getattr(request, "url", None) or response.url or ""),
            status=int(response.status_code),
            body=bytes(response.content or b""),
            created_at=_aware(created) or datetime.now(timezone.utc),
            expires=_aware(expires),
            request_headers=dict(getattr(request, "headers", None) or {}),
            headers=dict(response.headers or {}),
        )


def _aware(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def _redis_errors() -> tuple[type[BaseException], ...]:
    redis = sys.modules.get("redis")  # a Redis cache has imported it; no other needs it
    return (redis.RedisError,) if redis is not None else ()


class ResponseStore:
    """One client's cache storage (see the module docstring).

    Parameters
    ----------
    backend : requests-cache backend or None
        Where answers are kept (``None``: no cache).
    location : str
        Where that is, for messages (a path or a URL without its password).
    """

    def __init__(self, backend: BaseCache | None, location: str) -> None:
        self.backend = backend
        self.location = location
        self.unstored = 0
        self._warned: set[str] = set()
        self._reasons: dict[str, str] = {}
        self._count_lock = threading.Lock()
        serial = isinstance(backend, SQLiteCache)
        self._lock: Any = threading.RLock() if serial else contextlib.nullcontext()
        self._errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, *_redis_errors())
        self._down: tuple[type[BaseException], ...] = _redis_errors()
        self._versions: VersionStore | None = None
        self._watchlists: WatchlistStore | None = None

    @property
    def enabled(self) -> bool:
        """Whether answers are stored at all."""
        return self.backend is not None

    # -- reading -------------------------------------------------------------------------------------
    def get(self, key: str) -> CachedResponse | None:
        """The answer stored under ``key`` (or under the key it is an alias of), expired or not; ``None`` when there
        is none.

        Raises
        ------
        CacheError
            The storage cannot be read (:class:`CacheUnavailableError`: it does not answer), or something is stored
            under ``key`` that cannot be decoded (a damaged row).
        """
        if self.backend is None:
            return None
        try:
            with self._lock:
                response = self.backend.get_response(key)
                damaged = response is None and self.backend.contains(key=key)
        except self._errors as exc:
            raise self._read_error(exc) from None
        if damaged:
            raise CacheError(
                f"an answer stored in the cache at {self.location} cannot be read (a damaged row, or one written "
                "in another format — a cache written by regkit before its own format)",
                location=self.location,
                suggestion="run `regkit cache repair` (it keeps what can be read and converts answers of an earlier "
                "regkit, so they are not paid again); Client(uncached_ok=True) pays without the cache meanwhile",
            )
        return response

    def contains(self, key: str) -> bool:
        """Whether anything is stored under ``key`` (an answer or an alias), readable or not."""
        if self.backend is None:
            return False
        try:
            with self._lock:
                return bool(self.backend.contains(key=key))
        except self._errors as exc:
            raise self._read_error(exc) from None

    def read(self, keys: Iterable[str]) -> dict[str, StoredAnswer]:
        """The stored answers of ``keys`` that can be read (expired ones included), each under the key asked by."""
        found: dict[str, StoredAnswer] = {}
        for key in dict.fromkeys(keys):
            try:
                response = self.get(key)
            except CacheError as exc:
                if isinstance(exc, CacheUnavailableError):
                    raise
                continue  # damaged: left out, as the docstring says
            if response is not None:
                found[key] = StoredAnswer.of(key, response)
        return found

    def keys(self) -> list[str]:
        """The keys of every stored answer (aliases not included)."""
        if self.backend is None:
            return []
        try:
            with self._lock:
                return list(self.backend.responses.keys())
        except self._errors as exc:
            raise self._read_error(exc) from None

    def scan(self, unreadable: list[str] | None = None) -> Iterator[StoredAnswer]:
        """Every stored answer, read :data:`CHUNK` keys at a time.  The key of an answer that cannot be read
        (damaged, or written in another format) is appended to ``unreadable`` and the scan goes on."""
        keys = self.keys()
        for start in range(0, len(keys), CHUNK):
            for key in keys[start : start + CHUNK]:
                try:
                    response = self.get(key)
                except CacheError:
                    response = None
                if response is None:
                    if unreadable is not None:
                        unreadable.append(key)
                    continue
                yield StoredAnswer.of(key, response)

    def count(self) -> int:
        """How many answers are stored."""
        if self.backend is None:
            return 0
        try:
            with self._lock:
                return len(self.backend.responses)
        except self._errors as exc:
            raise self._read_error(exc) from None

    # -- writing -------------------------------------------------------------------------------------
    def put(
        self, key: str, response: Any, expires: datetime | None, aliases: Sequence[str] = (), versions: int = 0
    ) -> str | None:
        """Store a fresh answer under ``key`` until ``expires``, and make each of ``aliases`` serve it too (the keys
        of a company's former ids); ``None`` when it is stored, else why not (counted in :attr:`unstored`;
        :meth:`warn` says it, once per reason, after the caller has recorded the call).  Never raises: the answer
        was paid for.

        With ``versions`` > 0 the answer it replaces, when its body differs, is kept as the newest of at most that
        many versions of ``key`` (:mod:`regkit.client.cache.versions`); a version that cannot be written is warned
        of like an answer, the fresh answer still stored."""
        if self.backend is None:
            return None
        older = None
        if versions > 0:
            try:  # the answer this one replaces, to keep as a version; one that cannot be read is simply replaced
                with self._lock:
                    older = self.backend.get_response(key)
            except Exception:  # a damaged row must not keep the paid answer from being stored
                older = None
        try:
            with self._lock:
                self.backend.save_response(response, cache_key=key, expires=expires)
                stored = self.backend.contains(key=key)
        except self._errors as exc:
            self.release_failed_write()
            return self._unstored(_reason(exc))
        except Exception as exc:  # a paid answer is never lost to a storage fault
            self.release_failed_write()
            return self._unstored(f"{type(exc).__name__}: {exc}")
        if not stored:  # requests-cache rolled the write back without a word
            return self._unstored("the write did not persist (a full disk, or a file that cannot be written)")
        try:  # the answer is stored: an alias or version that cannot be written is warned of, the answer not lost
            with self._lock:
                for alias in aliases:
                    self.backend.redirects[alias] = key
                if older is not None and older.status_code == 200 and older.content != response.content:
                    url = str(getattr(older.request, "url", None) or older.url or "")
                    self.versions.keep(key, url, older.created_at, bytes(older.content or b""), versions)
        except self._errors as exc:
            self.release_failed_write()
            return self._unstored(_reason(exc), count=False)
        return None

    @property
    def versions(self) -> VersionStore:
        """The versions of this cache's requests (:mod:`regkit.client.cache.versions`)."""
        if self._versions is None:
            assert self.backend is not None
            self._versions = VersionStore(self.backend)
        return self._versions

    @property
    def watchlists(self) -> WatchlistStore:
        """The watchlists kept beside this cache's answers (:mod:`regkit.client.cache.watchlists`; memory only
        without a cache)."""
        if self._watchlists is None:
            self._watchlists = WatchlistStore(self.backend)
        return self._watchlists

    def expire(self, key: str) -> bool:
        """Make the answer stored under ``key`` expired now, so the next lookup fetches it again (and the answer it
        replaces becomes a version); ``False`` when nothing readable is stored there.

        Raises
        ------
        CacheError
            The storage cannot be read or written.
        """
        response = self.get(key)
        if response is None or response.is_expired:
            return False
        try:
            with self._lock:
                self.backend.save_response(response, cache_key=key, expires=datetime.now(timezone.utc))  # type: ignore[union-attr]
        except self._errors as exc:
            self.release_failed_write()
            raise self._read_error(exc) from None
        return True

    def count_unstored(self) -> None:
        """Count a paid answer that was not offered to the storage (it did not answer when it was read)."""
        with self._count_lock:
            self.unstored += 1

    def _unstored(self, reason: str, count: bool = True) -> str:
        if count:
            with self._count_lock:
                self.unstored += 1
        logger.warning("cache %s: an answer was not stored (%s)", self.location, reason)
        note = f"{_NOT_STORED} ({reason})"
        with self._count_lock:
            self._reasons[note] = reason
        return note

    def warn(self, note: str | None) -> None:
        """Issue :class:`~regkit.errors.CacheWriteWarning` for a note :meth:`put` returned — once per reason
        and store (later ones are logged and counted only)."""
        if not note or not note.startswith(_NOT_STORED):
            return
        with self._count_lock:
            reason = self._reasons.get(note, note)
            first = reason not in self._warned
            self._warned.add(reason)
        if first:
            warnings.warn(
                f"regkit cache at {self.location}: a paid answer could not be stored ({reason}); it was returned, "
                "and the same call will be paid again. client.cache.info()['unstored'] counts them; free space, "
                "make the file writable, or point the client at another cache",
                CacheWriteWarning,
                stacklevel=3,
            )

    def release_failed_write(self) -> None:
        """End the transaction a failed SQLite write may have left open, by closing the backend's connection
        (requests-cache's public ``close()``; it opens a new one on the next use).

        requests-cache rolls a write back only when it fails with ``sqlite3.OperationalError``; one that fails
        with another ``sqlite3.DatabaseError`` (a damaged page: "database disk image is malformed") leaves its
        ``BEGIN IMMEDIATE`` open, holding the file's write lock — and every later write, in this process or another,
        then waits for it forever (requests-cache retries ``BEGIN IMMEDIATE`` without a bound).  Closing the
        connection discards the open transaction and its lock.
        """
        if not isinstance(self.backend, SQLiteCache):
            return
        with self._lock:
            try:
                self.backend.close()
            except sqlite3.Error as exc:
                logger.warning("cache %s: a failed write could not be rolled back (%s)", self.location, exc)

    # -- errors --------------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the backend's connections (it opens them again when used)."""
        if self.backend is not None:
            with self._lock:
                self.backend.close()

    def _read_error(self, exc: BaseException) -> CacheError:
        if self._down and isinstance(exc, self._down):
            return CacheUnavailableError(
                f"the cache at {self.location} does not answer ({_reason(exc)}); nothing was sent",
                location=self.location,
            )
        return CacheError(f"the cache at {self.location} cannot be read ({_reason(exc)})", location=self.location)

    def __repr__(self) -> str:
        return f"<ResponseStore {self.location}>"


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    return f"{type(exc).__name__}: {text}"[:300]
