"""The lookups by id — company, owners, holdings, persons, beneficial owners, ownership history, financials,
contact, website — as one table: how each id is checked, what each lookup costs and sends, and what the cache
already knows of their answers, read for free.

:data:`LOOKUPS` names the endpoints ``Client.is_cached(id, endpoint=...)`` and
``Client.estimate_cost(ids, endpoint=...)`` answer for, so that a crawl can ask, before it pays, what a level of
company, owners, holdings and person calls would cost; :func:`lookup_op` builds the operation of any of them from its row of the
endpoint table (:mod:`regkit.schema.endpoints`), with the identifier checked by :data:`CHECKS` and the hints of its
resource module.

What the cache knows (:func:`cached_name`, :func:`named`, :func:`holdings_cached`, :func:`marked`): the names an
answer leaves out, and which companies' holdings are cached.  Nothing there sends a request or writes a ledger row
(:meth:`~regkit.client.transport.call.Caller.peek` and ``are_cached``); an id the cache does not know is simply not
named or not marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from regkit.errors import CacheError, ValidationError
from regkit.schema.endpoints import LOOKUP_NAMES, Endpoint, by_lookup

from . import company, contact, financials, ownership, persons
from .arguments import validation
from .search import CompanySearchFrames
from .transport.operation import Operation, flag_params, operation

if TYPE_CHECKING:
    from .transport.call import Caller

__all__ = ["CHECKS", "HINTS", "LOOKUPS", "lookup", "lookup_op", "cached_name", "named", "holdings_cached", "marked"]


#: How the identifier of a lookup is checked (and normalised) before anything is sent, by its row's
#: ``identifier_check`` (:data:`regkit.schema.endpoints.IDENTIFIER_CHECKS`; the lookups' UUIDs are persons).
CHECKS: Mapping[str, Callable[[Any], str]] = MappingProxyType(
    {
        "company_id": validation.validate_company_id,
        "uuid": validation.person_id,
        "website": contact.website,
    }
)

#: What an error of each operation tells the user, by operation id (each resource module's ``HINTS``).
HINTS: Mapping[str, Mapping[int, str]] = MappingProxyType(
    {**company.HINTS, **ownership.HINTS, **persons.HINTS, **financials.HINTS, **contact.HINTS}
)

LOOKUPS: Mapping[str, Endpoint] = MappingProxyType({name: by_lookup(name) for name in LOOKUP_NAMES})
"""The endpoints of ``Client.is_cached`` / ``Client.estimate_cost``, by name, each its row of the endpoint table:
``get_company``, ``get_owners``, ``get_holdings``, ``get_person``, ``get_person_holdings``, ``get_ubos``
(``"ubos"``), ``get_ownership_history`` (``"owners_historical"``), ``get_financials`` (``"financials"``),
``get_contact`` (``"contact"``) and ``get_company_by_website`` (``"website"``: the identifiers are website URLs)."""


def lookup(endpoint: Any, realtime: bool) -> Endpoint:
    """The row of the lookup ``endpoint``; ``ValidationError`` for an unknown one or a realtime it lacks."""
    if endpoint not in LOOKUPS:
        raise ValidationError(
            f"endpoint must be one of {', '.join(map(repr, LOOKUPS))}, not {endpoint!r}",
            suggestion="e.g. endpoint='holdings' for get_holdings; nothing was sent",
        )
    found = LOOKUPS[endpoint]
    if realtime and found.realtime_price is None:
        raise ValidationError(
            f"endpoint {endpoint!r} has no realtime variant",
            suggestion="realtime=True applies to 'company' and 'owners' only",
        )
    return found


def lookup_op(
    endpoint: Any, identifier: Any, realtime: bool, best_available: bool = False, *, export: bool = False
) -> Operation:
    """The operation of one lookup of :data:`LOOKUPS`, built from its row (arguments checked; nothing is sent).

    Raises
    ------
    ValidationError
        An unknown ``endpoint``, a malformed ``identifier``, ``realtime`` or ``export`` for an endpoint without it,
        or ``best_available`` for another endpoint than ``"owners"``.
    """
    row = lookup(endpoint, realtime)
    if best_available and endpoint != "owners":
        raise ValidationError(
            f"best_available applies to endpoint='owners' only, not {endpoint!r}",
            suggestion="leave best_available out, or ask with endpoint='owners'",
        )
    if export and endpoint not in ("company", "owners"):
        raise ValidationError(f"export applies to endpoint='company' and 'owners' only, not {endpoint!r}")
    assert row.identifier is not None and row.identifier_check is not None  # every lookup names what it looks up
    checked = CHECKS[row.identifier_check](identifier)
    flags = flag_params(realtime=realtime, export=export, best_available=best_available)
    hints = HINTS.get(row.operation_id)
    if row.identifier in row.path_parameters:
        path = {row.identifier: checked}
    else:  # a query parameter (the website of /v0/search/lookup)
        path, flags = {}, ((row.identifier, checked), *flags)
    return operation(row.operation_id, path, params=flags, realtime=realtime, hints=hints)


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
