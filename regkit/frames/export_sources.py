"""What a Parquet export reads: the cache's stored answers, sorted by kind, and the newest one per company.

The first of the export's two passes (:func:`survey`) reads every stored answer once — its request line and
when it was fetched, never the JSON beyond the first member — and decides what the second pass exports:

* **Kinds** by method and path (below ``/v1/``, after any prefix of the base URL)::

      GET  /v1/company/{id}             company          GET  /v1/person/{id}            person
      GET  /v1/company/{id}/owners      owners           GET  /v1/person/{id}/holdings   person_holdings
      GET  /v1/company/{id}/holdings    holdings         GET  /v1/insolvency/{id}        insolvency
      POST /v1/search/insolvency        insolvency_search
      POST /v1/search/company           company_search   POST /v1/search/person          person_search

* **One answer per thing.** A company can be stored more than once (with and without ``export=true``, asked by
  a former id and again by the current one, from two services); so can owners (with ``best_available``), a
  person or a proceeding. The thing is what the answer names (``id``, ``company_id``, ``person_id``), and the
  newest answer for it wins. Search pages are all read; their results are de-duplicated later, newest first.
* **Left out, and counted:** user-scoped answers (Transparenzregister extracts, and anything stored with the
  ``X-Regkit-Scope`` request header: they belong to one API user, and an export is a file anyone may be given),
  autocomplete suggestions (a typing aid: the searches' pages hold the same results in full), and anything else
  (never cached by regkit, or not a 200).

Expired answers are exported like the others (what was fetched stays the user's data); ``expired`` marks them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple, Protocol
from urllib.parse import parse_qsl, unquote

__all__ = ["ENTITY_KINDS", "SEARCH_KINDS", "KINDS", "Source", "StoredAnswer", "Survey", "classify", "survey"]


class StoredAnswer(Protocol):
    """One stored answer as the export reads it (``regkit.client.cache.store.StoredAnswer`` has these members):
    the request that fetched it, its status and body, when it was fetched and until when it is served."""

    @property
    def key(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def status(self) -> int: ...
    @property
    def body(self) -> bytes: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def expires(self) -> datetime | None: ...
    @property
    def request_headers(self) -> dict[str, str]: ...
    def is_expired(self, now: datetime | None = None) -> bool:
        """Whether the cache would no longer serve it at ``now``."""


#: Kinds looked up by id, with the member of the answer that names the thing it is about.
ENTITY_KINDS = {
    "company": "id",
    "owners": "company_id",
    "holdings": "company_id",
    "person": "id",
    "person_holdings": "person_id",
    "insolvency": "id",
}
#: Search kinds, with the member of each result that names it.
SEARCH_KINDS = {"insolvency_search": "id", "company_search": "company_id", "person_search": "id"}
KINDS = (*ENTITY_KINDS, *SEARCH_KINDS)

_SEGMENT = r"[^/]+"
_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("GET", re.compile(rf"/v1/company/{_SEGMENT}/?"), "company"),
    ("GET", re.compile(rf"/v1/company/{_SEGMENT}/owners/?"), "owners"),
    ("GET", re.compile(rf"/v1/company/{_SEGMENT}/holdings/?"), "holdings"),
    ("GET", re.compile(rf"/v1/person/{_SEGMENT}/?"), "person"),
    ("GET", re.compile(rf"/v1/person/{_SEGMENT}/holdings/?"), "person_holdings"),
    ("GET", re.compile(rf"/v1/insolvency/{_SEGMENT}/?"), "insolvency"),
    ("POST", re.compile(r"/v1/search/insolvency/?"), "insolvency_search"),
    ("POST", re.compile(r"/v1/search/company/?"), "company_search"),
    ("POST", re.compile(r"/v1/search/person/?"), "person_search"),
    ("GET", re.compile(r"/v1/autocomplete/company/?"), "autocomplete"),
    ("GET", re.compile(r"/v1/transparenzregister/.*"), "user_scoped"),
]
#: Query parameters regkit sends that say how an answer was asked; every other parameter is left out.
_SAFE_PARAMETERS = frozenset({"realtime", "export", "best_available"})
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?")
_HEADS = {
    member: re.compile(rb'^\s*\{\s*"' + member.encode() + rb'"\s*:\s*"([^"\\]*)"')
    for member in set(ENTITY_KINDS.values())
}


class Source(NamedTuple):
    """One stored answer the export reads (a row of the ``sources`` table, plus its cache key)."""

    key: str
    kind: str
    entity_id: str | None
    origin: str
    method: str
    path: str
    query: str | None
    fetched_at: datetime
    expires: datetime | None
    expired: bool


@dataclass
class Survey:
    """What the first pass found: every answer to export (``sources``), the newest answer per thing
    (``chosen[kind][entity_id]``), the search pages (``pages[kind]``, newest first), and what was left out."""

    sources: list[Source] = field(default_factory=list)
    chosen: dict[str, dict[str, Source]] = field(default_factory=lambda: {k: {} for k in ENTITY_KINDS})
    pages: dict[str, list[Source]] = field(default_factory=lambda: {k: [] for k in SEARCH_KINDS})
    skipped: Counter[str] = field(default_factory=Counter)

    def take(self, source: Source) -> None:
        """Count ``source`` in: the newest answer per thing wins (ties: the larger cache key, so it is stable)."""
        self.sources.append(source)
        if source.kind in SEARCH_KINDS:
            self.pages[source.kind].append(source)
            return
        assert source.entity_id is not None
        known = self.chosen[source.kind].get(source.entity_id)
        if known is None or (source.fetched_at, source.key) > (known.fetched_at, known.key):
            self.chosen[source.kind][source.entity_id] = source


def _route(path: str) -> tuple[str, str]:
    """``(prefix, route)``: the part of the path before ``/v1/`` (a base URL's own path) and the rest."""
    at = path.find("/v1/")
    return (path, "") if at < 0 else (path[:at], path[at:])


def classify(method: str, url: str, headers: dict[str, str], scope_header: str) -> tuple[str, str, str, str | None]:
    """``(kind, origin, path, query)`` of a stored request; ``kind`` is a reason to leave it out when it is not
    one of :data:`KINDS` (``user_scoped``: a user-scoped answer, or one stored with the request header
    ``scope_header``; ``autocomplete``; ``other``).

    ``origin`` is scheme, host and port (never a user or password) with the base URL's own path; ``path`` starts
    at ``/v1/``; ``query`` keeps only ``realtime``, ``export`` and ``best_available`` (``None`` when none).

    Examples
    --------
    >>> classify("GET", "https://user:pw@api.example/v1/company/DE-HRB-B1-1?export=true&api_key=x", {}, "X-Scope")
    ('company', 'https://api.example', '/v1/company/DE-HRB-B1-1', 'export=true')
    """
    parts = _URL.match(url)
    if parts is None:
        return "other", "", "", None
    scheme, netloc, raw_path, raw_query = parts.groups()
    prefix, route = _route(unquote(raw_path) if "%" in raw_path else raw_path)
    origin = f"{scheme}://{netloc.rpartition('@')[2]}{prefix.rstrip('/')}"
    query = None
    if raw_query:
        query = "&".join(f"{k}={v}" for k, v in parse_qsl(raw_query) if k in _SAFE_PARAMETERS) or None
    scope = scope_header.lower()
    if any(name.lower() == scope for name in headers):
        return "user_scoped", origin, route, query
    for wanted, pattern, kind in _ROUTES:
        if pattern.fullmatch(route):
            return (kind if method.upper() == wanted else "other"), origin, route.rstrip("/"), query
    return "other", origin, route, query


def entity_id(kind: str, body: bytes) -> str | None:
    """The id an answer of ``kind`` is about (its ``id``, ``company_id`` or ``person_id``): read from the head of
    the body when that member comes first (as the interface sends it), else from the parsed JSON; ``None`` when
    the body is not an answer of that kind."""
    member = ENTITY_KINDS[kind]
    head = _HEADS[member].match(body[:256])
    if head is not None:
        return head.group(1).decode("utf-8", "replace")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    value = data.get(member) if isinstance(data, dict) else None
    return value if isinstance(value, str) and value else None


def survey(answers: Iterable[StoredAnswer], now: datetime, scope_header: str) -> Survey:
    """The first pass over the stored answers (:class:`StoredAnswer`\\ s): classify each
    (``scope_header`` marks user-scoped ones), keep the newest per thing, count what is left out."""
    found = Survey()
    for answer in answers:
        if answer.status != 200:
            found.skipped["other"] += 1
            continue
        kind, origin, path, query = classify(answer.method, answer.url, answer.request_headers, scope_header)
        if kind not in KINDS:
            found.skipped[kind] += 1
            continue
        thing = entity_id(kind, answer.body) if kind in ENTITY_KINDS else None
        if kind in ENTITY_KINDS and thing is None:
            found.skipped["unreadable"] += 1
            continue
        found.take(
            Source(
                answer.key,
                kind,
                thing,
                origin,
                answer.method.upper(),
                path,
                query,
                answer.created_at,
                answer.expires,
                answer.is_expired(now),
            )
        )
    for pages in found.pages.values():
        pages.sort(key=lambda s: (s.fetched_at, s.key), reverse=True)
    return found
