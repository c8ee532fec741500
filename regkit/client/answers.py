"""From an :class:`~regkit.client.transport.operation.Answer` to what a record says about it: its
:class:`~regkit.client.records.RecordMeta`, and whether its presigned URLs may have expired."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from .records import RecordMeta
from .transport.operation import Answer

__all__ = ["record_meta", "urls_stale"]


def record_meta(answer: Answer, urls_expired: bool = False) -> RecordMeta:
    """How ``answer`` was obtained: from the cache or not, when, for how many credits."""
    return RecordMeta(answer.from_cache, answer.fetched_at, answer.credits, urls_expired)


def urls_stale(answer: Answer, lifetime: timedelta, key: str = "sources") -> bool:
    """Whether ``answer`` carries presigned URLs (a non-empty ``key``: ``"sources"`` of a company or owners answer,
    ``"documents"`` of an extract), came from the cache and is older than ``lifetime`` (so its URLs may be dead).
    An answer without URLs (an export's ``"sources": []``) never is."""
    if not answer.data.get(key):
        return False
    return answer.from_cache and datetime.now(timezone.utc) - answer.fetched_at > lifetime
