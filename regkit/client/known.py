"""What the client's cache already knows about the results of a call, read for free: the names an answer leaves
out, and which companies' holdings are cached.

Nothing here sends a request or writes a ledger row (:meth:`~regkit.client.transport.call.Caller.peek` and
``are_cached``); an id the cache does not know is simply not named or not marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from regkit.errors import CacheError, ValidationError

from .frame_methods import CompanySearchFrames
from .research_lookups import lookup_op

if TYPE_CHECKING:
    from .transport.call import Caller

__all__ = ["cached_name", "named", "holdings_cached", "marked"]


def cached_name(caller: Caller, endpoint: str, identifier: Any) -> str | None:
    """The name in the cached record of a company (``endpoint="company"``) or a person (``"person"``), or
    ``None`` when the cache holds none (nothing is sent, no ledger row)."""
    try:
        (hit,) = caller.peek([lookup_op(endpoint, identifier, False)])
    except (ValidationError, CacheError):
        return None  # a malformed id, or a cache that cannot be read: no name, and the call itself succeeded
    if hit is None or not isinstance(hit.data, Mapping):
        return None
    data = hit.data
    name: Any
    if endpoint == "person":
        name = " ".join(str(data[k]) for k in ("first_name", "last_name") if data.get(k))
    else:
        name = data.get("name")
        name = name.get("name") if isinstance(name, Mapping) else name
    return name if isinstance(name, str) and name else None


def named(record: Any, caller: Caller, endpoint: str, identifier: Any) -> Any:
    """``record`` with ``known_names`` set to ``{identifier: name}`` when the cache names ``identifier``."""
    name = cached_name(caller, endpoint, identifier)
    if name is not None:
        record.known_names = {str(identifier): name}
    return record


def holdings_cached(caller: Caller, company_ids: Iterable[Any]) -> frozenset[str]:
    """The ids among ``company_ids`` whose holdings (``get_holdings(id)``) the cache answers now, for free."""
    ids, ops = [], []
    for company_id in dict.fromkeys(company_ids):
        try:
            ops.append(lookup_op("holdings", company_id, False))
        except ValidationError:
            continue
        ids.append(str(company_id))
    try:
        # most results are not cached: one existence check each, and the full read (expiry, a readable row) only
        # for those stored
        store = caller.cache.store
        stored = [(i, op) for i, op in zip(ids, ops) if store.contains(caller.cache_key(op))]
        flags = caller.are_cached([op for _, op in stored])
    except CacheError:
        return frozenset()
    return frozenset(i for (i, _), cached in zip(stored, flags) if cached)


def marked(record: Any, caller: Caller, pages: Iterable[Any] | None = None) -> Any:
    """A company search page, search results or suggestions with ``holdings_cached`` set (see
    :func:`holdings_cached`); other searches are returned as they are. ``pages``: the marked pages the results
    were taken from (their marks are used, not looked up again)."""
    if isinstance(record, CompanySearchFrames):
        results = cast("Iterable[Mapping[str, Any]]", record)  # a page, results or suggestions: they iterate results
        ids = [r.get("company_id") for r in results]
        if pages is not None:
            seen: set[str] = set()
            for page in pages:
                seen |= getattr(page, "holdings_cached", None) or set()
            record.holdings_cached = frozenset(i for i in ids if i in seen)
        else:
            record.holdings_cached = holdings_cached(caller, ids)
    return record
