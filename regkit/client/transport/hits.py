"""Cache hits read straight from the stored rows: what requests-cache would serve, without its request pipeline.

A hit through requests-cache builds a prepared request, derives its key, deserializes a full ``CachedResponse``
(attrs, cattrs) and runs its cache policy: about half a millisecond before the body is even parsed.
:class:`CacheReader` takes the key from :class:`~regkit.client.transport.keys.CacheKeys`, reads the row with
:func:`regkit.client.stored.read_many` (one batched read for many operations) and serves it when requests-cache
would: a plain GET whose URL has a cache lifetime, a stored 200 that has not expired and carries no ``Vary``,
whose body is JSON that the session's ``filter_fn`` (:func:`regkit.client.policy.keep_response`) accepts.
Everything else — not stored, expired, unusual — is left to requests-cache (``None``), so misses, refreshes and
offline mode behave exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from typing import Any

from ..policy import keep_response, parsed_json
from ..stored import StoredAnswer, decode, read_many, read_rows
from .keys import CacheKeys
from .operation import Answer, Operation

__all__ = ["CacheReader"]


class _Request:
    __slots__ = ("method", "url")

    def __init__(self, method: str, url: str) -> None:
        self.method = method
        self.url = url


class _StoredResponse:
    """The few members of a response that :func:`parsed_json` and ``filter_fn`` read."""

    def __init__(self, stored: StoredAnswer) -> None:
        self.status_code = stored.status
        self.content = stored.body
        self.url = stored.url
        self.request = _Request(stored.method, stored.url)


class CacheReader:
    """Serves operations from the stored rows of one client's cache (see the module docstring).

    Parameters
    ----------
    keys : CacheKeys
        The client's keys (and its session, whose backend is read).
    """

    def __init__(self, keys: CacheKeys) -> None:
        self.keys = keys
        session = keys.session
        self._filter = session.settings.filter_fn
        self._codes = tuple(session.settings.allowable_codes)

    @property
    def backend(self) -> Any:
        """The requests-cache backend read."""
        return self.keys.session.cache

    def answer(self, op: Operation) -> Answer | None:
        """``op``'s answer from the cache, or ``None`` when requests-cache has to decide."""
        key, readable = self.keys.lookup(op)
        if not readable or op.refresh:
            return None
        raw = read_rows(self.backend, (key,)).get(key)
        return self._served(decode(self.backend.responses, key, raw), datetime.now(timezone.utc))

    def answers(self, ops: Sequence[Operation]) -> Iterator[Answer | None]:
        """The answers of ``ops`` from the cache (``None`` where requests-cache has to decide), in order; the
        rows are read in one batch, each is decoded and parsed when its turn comes (so that few objects are
        alive at once: the garbage collector has less to do)."""
        keys: list[str | None] = []
        for op in ops:
            key, readable = self.keys.lookup(op)
            keys.append(key if readable and not op.refresh else None)
        wanted = [key for key in keys if key is not None]
        rows = read_rows(self.backend, wanted) if wanted else {}
        storage, now = self.backend.responses, datetime.now(timezone.utc)
        for wanted_key in keys:
            yield None if wanted_key is None else self._served(decode(storage, wanted_key, rows.get(wanted_key)), now)

    def stored(self, ops: Sequence[Operation]) -> list[StoredAnswer | None]:
        """The stored answers of ``ops`` that have not expired (``None`` for the others), whatever their kind;
        nothing is parsed or served."""
        keys = [None if op.refresh else self.keys.key(op) for op in ops]
        found = read_many(self.backend, [key for key in keys if key is not None])
        now = datetime.now(timezone.utc)
        answers = [None if key is None else found.get(key) for key in keys]
        return [answer if answer is not None and not answer.is_expired(now) else None for answer in answers]

    def _served(self, stored: StoredAnswer | None, now: datetime) -> Answer | None:
        if stored is None or stored.status != 200 or 200 not in self._codes or stored.is_expired(now):
            return None
        if any(name.lower() == "vary" for name in stored.headers):
            return None  # requests-cache compares the varying request headers: let it
        response = _StoredResponse(stored)
        try:
            data = parsed_json(response)
        except (ValueError, UnicodeDecodeError):
            return None
        if self._filter is not None and (self._filter is not keep_response or not keep_response(response)):
            return None  # another filter, or one that refuses the row: requests-cache deletes it
        return Answer(data, stored.status, "cache", stored.created_at, 0)
