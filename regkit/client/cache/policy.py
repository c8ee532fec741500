"""What is cached, and for how long: by the operation's row of the endpoint table.

Each operation names its row of :data:`regkit.schema.endpoints.ENDPOINTS` (:class:`~regkit.client.transport.operation.
Operation`'s ``endpoint``), and the row says how long its answers are kept — ``cache``, the name of a
:class:`CachePolicy` field (``company``, ``ownership``, ``financials``, ``search``, ``autocomplete``, ``person``,
``insolvency``, ``extract``, ``document``), or ``None``: never (orders, credentials, monitors, credits) — and which
answers may be stored (``stored_when``, checked by :func:`answers`). A ``realtime=true`` lookup is never cached. Nothing
is worked out again from the URL: :meth:`CachePolicy.lifetime_of` reads the field, :func:`answers` the rule.

Only 200 answers are stored (errors never are), and only when their body is a complete JSON object that passes the
row's rule: a truncated body never reaches the cache, a processing extract is asked again.

:meth:`CachePolicy.urls_expire_after` gives the same lifetimes as requests-cache URL patterns, generated from the
table, for a ``requests_cache.CachedSession`` of one's own.

Keys (:mod:`regkit.client.cache.keys`): requests-cache's default ``ignored_parameters``
(``Authorization`` among them) and ``password`` are never part of a key, and requests-cache redacts them from
what it stores, so the API key is neither in a key nor stored.  Public register answers are shared by every key
of the same service; user-scoped answers (extracts) carry an ``X-Regkit-Scope`` header — a hash of base URL and
key, never the key — which is part of their key, so another key never gets them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import timedelta
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from requests_cache import DEFAULT_IGNORED_PARAMS, DO_NOT_CACHE

from regkit.errors import ArgumentError, ValidationError, explain_arguments
from regkit.schema.endpoints import CACHE_LIFETIMES, ENDPOINTS, Endpoint
from regkit.schema.interface import (
    COMPANY_ID_PATTERN,
    DOCUMENT_URL_VALIDITY_SECONDS,
    SCOPE_HEADER,
    SOURCE_URL_VALIDITY_SECONDS,
)

from .json_body import parsed_json

if TYPE_CHECKING:
    from requests_cache import ExpirationPatterns

__all__ = [
    "CachePolicy",
    "SCOPE_HEADER",
    "IGNORED_PARAMETERS",
    "scope_token",
    "keep_response",
    "stored_under",
    "answers",
    "record_company_ids",
]


#: requests-cache's defaults plus what regkit adds (never a replacement).
IGNORED_PARAMETERS = (*DEFAULT_IGNORED_PARAMS, "password")

_TERMINAL_EXTRACT = frozenset({"completed", "failed"})
_URL_MARGIN = timedelta(minutes=5)


@explain_arguments
@dataclass(frozen=True)
class CachePolicy:
    """How long each kind of answer is kept.

    Parameters
    ----------
    company, search, insolvency, extract : timedelta
        Lifetime of company lookups, searches (insolvencies, companies, persons), insolvency details
        and terminal extracts in the cache.
    url_lifetime : timedelta
        How long presigned URLs (company and owners ``sources``, extract ``documents``) are treated as
        usable after the answer was produced: 5 minutes short of the interface's validity
        (``SOURCE_URL_VALIDITY_SECONDS``, 30 minutes), so a URL handed out still works for a while.
    ownership, person, autocomplete : timedelta
        Lifetime of owners and holdings, of persons and their holdings, and of autocomplete's suggestions.
    document : timedelta
        Lifetime of document answers (``get_document``, ``get_realtime_document``): their ``url`` is the answer,
        and it lives 15 minutes (``DOCUMENT_URL_VALIDITY_SECONDS``), so they are kept 5 minutes less; a longer
        value is cut to that, so a dead URL is never served from the cache.
    financials : timedelta
        Lifetime of a company's financial statements (their report URLs are treated as ``url_lifetime`` says).
    versions : int
        How many older answers of one request are kept when it is refreshed and its answer changed (the newest;
        ``0`` keeps none): what :meth:`~regkit.client.Client.changes` compares, at 0 credits
        (:mod:`regkit.client.cache.versions`).
    """

    company: timedelta = timedelta(days=30)
    search: timedelta = timedelta(days=1)
    insolvency: timedelta = timedelta(days=1)
    extract: timedelta = timedelta(days=30)
    url_lifetime: timedelta = timedelta(seconds=SOURCE_URL_VALIDITY_SECONDS) - _URL_MARGIN
    ownership: timedelta = timedelta(days=30)
    person: timedelta = timedelta(days=30)
    autocomplete: timedelta = timedelta(hours=1)
    document: timedelta = timedelta(seconds=DOCUMENT_URL_VALIDITY_SECONDS) - _URL_MARGIN
    financials: timedelta = timedelta(days=30)
    versions: int = 10

    def __post_init__(self) -> None:
        if isinstance(self.versions, bool) or not isinstance(self.versions, int) or self.versions < 0:
            raise ValidationError(
                f"CachePolicy(versions=...) must be a whole number >= 0, not {self.versions!r:.60}",
                suggestion="e.g. CachePolicy(versions=20) keeps a request's 20 newest older answers; 0 keeps none",
            )
        for item in fields(self):
            if item.name == "versions":
                continue
            value = getattr(self, item.name)
            if not isinstance(value, timedelta):
                raise ArgumentError(
                    f"CachePolicy({item.name}=...) must be a datetime.timedelta, not {type(value).__name__} "
                    f"{value!r:.60}",
                    suggestion=f"e.g. CachePolicy({item.name}=timedelta(days=7)) (from datetime import timedelta); "
                    "nothing was sent",
                )
            if value < timedelta(0):
                raise ValidationError(
                    f"CachePolicy({item.name}=...) must not be negative, not {value}",
                    suggestion="timedelta(0) keeps nothing of that kind; nothing was sent",
                )

    @property
    def document_lifetime(self) -> timedelta:
        """How long a document answer is kept and its ``url`` trusted: :attr:`document`, at most 10 minutes."""
        return min(self.document, timedelta(seconds=DOCUMENT_URL_VALIDITY_SECONDS) - _URL_MARGIN)

    def lifetime(self, rules: ExpirationPatterns, url: str) -> timedelta | None:
        """How long the answer to ``url`` is kept under ``rules`` (:meth:`urls_expire_after`): the first rule whose
        pattern matches; ``None``: never cached.

        Examples
        --------
        >>> policy = CachePolicy()
        >>> rules = policy.urls_expire_after("https://api.example")
        >>> policy.lifetime(rules, "https://api.example/v1/company/DE-HRB-B1-1")
        datetime.timedelta(days=30)
        >>> policy.lifetime(rules, "https://api.example/v1/company/DE-HRB-B1-1?realtime=true") is None
        True
        """
        for pattern, lifetime in rules.items():
            if isinstance(pattern, re.Pattern) and pattern.search(url):
                return lifetime if isinstance(lifetime, timedelta) else None
        return None

    def lifetime_of(self, cache: str | None) -> timedelta | None:
        """How long an answer whose endpoint row says ``cache`` is kept (``None``: never).

        ``cache`` names a field of this policy (:data:`regkit.schema.endpoints.CACHE_LIFETIMES`); ``"document"`` is
        read through :attr:`document_lifetime`, which never outlives the answer's URL.

        Examples
        --------
        >>> CachePolicy().lifetime_of("ownership"), CachePolicy().lifetime_of(None)
        (datetime.timedelta(days=30), None)
        """
        if cache is None:
            return None
        if cache not in CACHE_LIFETIMES:
            raise ValueError(f"{cache!r} is none of the cache lifetimes {CACHE_LIFETIMES}")
        return self.document_lifetime if cache == "document" else getattr(self, cache)

    def urls_expire_after(self, base_url: str) -> ExpirationPatterns:
        """The same lifetimes as requests-cache URL patterns for a client talking to ``base_url``, generated from
        the endpoint table: pattern → lifetime (``DO_NOT_CACHE``: never), in the order they are tried — a
        ``realtime=true`` lookup first (never cached), then one pattern per path of the table.

        regkit's client does not use them (an operation carries its row); they are for a
        ``requests_cache.CachedSession(urls_expire_after=...)`` of one's own, and for :meth:`lifetime`.
        """
        root = "^" + re.escape(base_url.rstrip("/"))
        rules: dict[Any, Any] = {}
        for row in ENDPOINTS:
            if row.realtime_price is not None and not row.realtime_cached:
                realtime = re.compile(root + _path_pattern(row.path) + r"/?\?(?:[^#]*&)?realtime=true(?:[&#]|$)")
                rules[realtime] = DO_NOT_CACHE
        for row in ENDPOINTS:
            lifetime = self.lifetime_of(row.cache)
            rules.setdefault(
                re.compile(root + _path_pattern(row.path) + r"/?(?:[?#]|$)"),
                DO_NOT_CACHE if lifetime is None else lifetime,
            )
        return rules


def _path_pattern(template: str) -> str:
    """A regular expression of a path template of the endpoint table: each ``{parameter}`` is one segment."""
    parts = re.split(r"\{[A-Za-z_][A-Za-z0-9_]*\}", template)
    return "[^/?#]+".join(re.escape(part) for part in parts)


def scope_token(base_url: str, api_key: str) -> str:
    """A stable, non-reversible token naming one API user of one service (never the key)."""
    digest = hashlib.sha256(f"regkit-scope\0{base_url.rstrip('/')}\0{api_key}".encode())
    return digest.hexdigest()[:32]


def keep_response(endpoint: Endpoint | None, asked: str | None, response: Any) -> bool:
    """Whether a fresh 200 answer may be stored in the cache: a complete JSON object that :func:`answers` the
    request. Anything else (a body cut off by the network, an HTML error page, a processing extract) is not written.
    """
    return stored_under(endpoint, asked, response) is not None


def stored_under(endpoint: Endpoint | None, asked: str | None, response: Any) -> tuple[str, ...] | None:
    """Whether a fresh answer may be stored (:func:`keep_response`), and the other identifiers it answers too:
    ``None`` when it may not be stored; else the identifiers besides ``asked`` whose requests of the same row it
    answers, to be stored as aliases of it — a company's former ids (before a move to another court), so a lookup
    by either is free from then on. The one question the client asks the policy about a fresh answer.

    Examples
    --------
    >>> from requests_cache import CachedResponse
    >>> from regkit.schema.endpoints import by_operation
    >>> moved = b'{"id": "DE-HRB-B8534-82057", "registers": [{"company_id": "DE-HRB-F1103-1"}]}'
    >>> response = CachedResponse(content=moved, status_code=200)
    >>> stored_under(by_operation("get_company"), "DE-HRB-F1103-1", response)  # asked by its former id
    ('DE-HRB-B8534-82057',)
    >>> stored_under(by_operation("get_company"), "DE-HRB-B1234-5", response) is None  # not the company asked for
    True
    """
    if getattr(response, "status_code", None) != 200:
        return None
    try:
        data = parsed_json(response)
    except (ValueError, UnicodeDecodeError):
        return None
    if not answers(endpoint, asked, data):
        return None
    assert endpoint is not None and endpoint.stored_when is not None  # answers() is False without a rule
    also = _ALSO_ANSWERS.get(endpoint.stored_when)
    return also(data, asked or "") if also is not None else ()


def answers(endpoint: Endpoint | None, asked: str | None, data: Any) -> bool:
    """Whether ``data`` is a whole answer to a request of ``endpoint`` for ``asked`` (its identifier), by the row's
    ``stored_when`` rule (:data:`regkit.schema.endpoints.STORED_WHEN`): what an answer must be to be stored, and
    to be served for that request — also one stored under another key (a former company id's alias). An operation
    of no row, or of a row whose answers are never stored, has none.

    Examples
    --------
    >>> from regkit.schema.endpoints import by_operation
    >>> company, financials = by_operation("get_company"), by_operation("get_financials")
    >>> answers(company, "DE-HRB-B1-1", {"id": "DE-HRB-B1-1", "registers": []})
    True
    >>> answers(company, "DE-HRB-B1-2", {"id": "DE-HRB-B1-1", "registers": []})
    False
    >>> answers(financials, "DE-HRB-B1-1", {"indicators": [], "reports": [], "merged": None})
    True
    >>> answers(financials, "DE-HRB-B1-1", {"indicators": [], "reports": []})
    False
    """
    if endpoint is None or endpoint.stored_when is None or not isinstance(data, dict):
        return False
    return _STORED_WHEN[endpoint.stored_when](endpoint, asked or "", data)


def _names_company(row: Endpoint, asked: str, data: dict[str, Any]) -> bool:
    former = {r.get("company_id") for r in data.get("registers") or [] if isinstance(r, dict)}
    return asked in {data.get(row.answer_names or "id"), *former}


def _names_company_id(row: Endpoint, asked: str, data: dict[str, Any]) -> bool:
    named = data.get(row.answer_names or "")  # asked by a former id, the answer names the current one
    return isinstance(named, str) and bool(COMPANY_ID_PATTERN.match(named)) and _has_list(row, asked, data)


def _has_list(row: Endpoint, asked: str, data: dict[str, Any]) -> bool:
    return isinstance(data.get(row.answer_list or ""), list)


def _whole_financials(row: Endpoint, asked: str, data: dict[str, Any]) -> bool:
    return isinstance(data.get("indicators"), list) and isinstance(data.get("reports"), list) and "merged" in data


def _names_itself(row: Endpoint, asked: str, data: dict[str, Any]) -> bool:
    named = data.get(row.answer_names or "")  # a person or a document is looked up in any letter case
    return isinstance(named, str) and named.casefold() == asked.casefold()


_STORED_WHEN: Mapping[str, Callable[[Endpoint, str, dict[str, Any]], bool]] = MappingProxyType(
    {
        "json_object": lambda row, asked, data: True,
        "names_company": _names_company,
        "names_company_id": _names_company_id,
        "has_list": _has_list,
        "whole_financials": _whole_financials,
        "names_person": _names_itself,
        "names_document": _names_itself,
        "terminal_extract": lambda row, asked, data: data.get("status") in _TERMINAL_EXTRACT,
    }
)


def _former_company_ids(data: dict[str, Any], asked: str) -> tuple[str, ...]:
    return tuple(sorted(i for i in record_company_ids(data) - {asked} if COMPANY_ID_PATTERN.fullmatch(i)))


#: The other identifiers an answer stored by a ``stored_when`` rule answers too (rules not named: none).
_ALSO_ANSWERS: Mapping[str, Callable[[dict[str, Any], str], tuple[str, ...]]] = MappingProxyType(
    {"names_company": _former_company_ids}
)
"""The check of each rule of :data:`regkit.schema.endpoints.STORED_WHEN` (a test checks both name the same)."""


def record_company_ids(company: Any) -> set[str]:
    """Every id a company answer stands for: its ``id`` and the ids of its register history.

    Examples
    --------
    >>> sorted(record_company_ids({"id": "DE-HRB-B8534-82057", "registers": [{"company_id": "DE-HRB-F1103-1"},
    ...                                                              {"company_id": "DE-HRB-B8534-82057"}]}))
    ['DE-HRB-B8534-82057', 'DE-HRB-F1103-1']
    """
    if not isinstance(company, dict):
        return set()
    ids = {r.get("company_id") for r in company.get("registers") or [] if isinstance(r, dict)}
    ids.add(company.get("id"))
    return {i for i in ids if isinstance(i, str) and i}
