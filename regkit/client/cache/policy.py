"""What is cached, and for how long.

Rules on the request's URL, first match wins (:meth:`CachePolicy.lifetime`)::

    GET  /v1/company/{id}[/owners]?...realtime=true...  never (DO_NOT_CACHE) — this rule comes first
    POST /v1/transparenzregister/credentials    never (DO_NOT_CACHE: POST bodies are stored as sent)
    POST /v1/transparenzregister/extracts       never (an order)
    GET  /v1/company/{id}/owners, .../holdings  ``ownership``  (default 30 days)
    GET  /v1/company/{id}/owners/historical, .../ubo  ``ownership``  (default 30 days)
    GET  /v1/company/{id}                       ``company``    (default 30 days)
    GET  /v1/company/{id}/financials            ``financials`` (default 30 days; expired report URLs are
                                                 never handed out: see :mod:`regkit.client.financials`)
    POST /v1/search/insolvency, /company, /person  ``search``  (default 1 day; the body is in the key)
    GET  /v1/autocomplete/company               ``autocomplete`` (default 1 hour; free, but rate-limited)
    GET  /v1/person/{id}, /v1/person/{id}/holdings  ``person`` (default 30 days)
    GET  /v1/insolvency/{id}                    ``insolvency`` (default 1 day)
    GET  /v1/transparenzregister/extracts/{id}  ``extract``    (default 30 days), terminal answers only
    GET  /v1/document/{id}, /v1/document?...    ``document``   (default 10 minutes; never longer than the answer's
                                                URL lives, 15 minutes, less a 5-minute margin)
    GET  /v0/company/{id}/contact, /v0/search/lookup  ``company`` (default 30 days: contact data is company data)
    /v1/monitor..., /v1/credits, anything else  never

Only 200 answers are stored (errors never are), and only when their body is complete JSON (see
:func:`keep_response`): a truncated body never reaches the cache.

Keys (:mod:`regkit.client.cache.keys`): requests-cache's default ``ignored_parameters``
(``Authorization`` among them) and ``password`` are never part of a key, and requests-cache redacts them from
what it stores, so the API key is neither in a key nor stored.  Public register answers are shared by every key
of the same service; user-scoped answers (extracts) carry an ``X-Regkit-Scope`` header — a hash of base URL and
key, never the key — which is part of their key, so another key never gets them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, fields
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from requests_cache import DEFAULT_IGNORED_PARAMS, DO_NOT_CACHE

from regkit.errors import ArgumentError, ValidationError, explain_arguments
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

    def __post_init__(self) -> None:
        for item in fields(self):
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

    def urls_expire_after(self, base_url: str) -> ExpirationPatterns:
        """The rules for a client talking to ``base_url``: URL pattern → lifetime (``DO_NOT_CACHE``: never), in
        the order they are tried."""
        root = "^" + re.escape(base_url.rstrip("/"))
        segment = r"[^/?#]+"
        end = r"/?(?:[?#]|$)"
        return {
            re.compile(
                root + rf"/v1/company/{segment}(?:/owners)?/?\?(?:[^#]*&)?realtime=true(?:[&#]|$)"
            ): DO_NOT_CACHE,
            re.compile(root + rf"/v1/transparenzregister/credentials{end}"): DO_NOT_CACHE,
            re.compile(root + rf"/v1/transparenzregister/extracts{end}"): DO_NOT_CACHE,
            re.compile(root + rf"/v1/company/{segment}/(?:owners|holdings){end}"): self.ownership,
            re.compile(root + rf"/v1/company/{segment}/(?:owners/historical|ubo){end}"): self.ownership,
            re.compile(root + rf"/v1/company/{segment}{end}"): self.company,
            re.compile(root + rf"/v1/company/{segment}/financials{end}"): self.financials,
            re.compile(root + rf"/v1/search/(?:insolvency|company|person){end}"): self.search,
            re.compile(root + rf"/v1/autocomplete/company{end}"): self.autocomplete,
            re.compile(root + rf"/v1/person/{segment}(?:/holdings)?{end}"): self.person,
            re.compile(root + rf"/v1/insolvency/{segment}{end}"): self.insolvency,
            re.compile(root + rf"/v1/transparenzregister/extracts/{segment}{end}"): self.extract,
            re.compile(root + rf"/v1/document(?:/{segment})?{end}"): self.document_lifetime,
            re.compile(root + rf"/v0/company/{segment}/contact{end}"): self.company,
            re.compile(root + rf"/v0/search/lookup{end}"): self.company,
        }


def scope_token(base_url: str, api_key: str) -> str:
    """A stable, non-reversible token naming one API user of one service (never the key)."""
    digest = hashlib.sha256(f"regkit-scope\0{base_url.rstrip('/')}\0{api_key}".encode())
    return digest.hexdigest()[:32]


def keep_response(response: Any) -> bool:
    """``filter_fn`` of the session: whether a 200 answer may be stored (and served) from the cache.

    It must be a JSON object; a company lookup must be the company asked for — its current id, or
    one of its own former ids (``registers[].company_id``: a lookup by the id it had before a move
    to another register court answers with the current record); owners and holdings must name the
    company asked for (``company_id``), a person and a person's holdings the person (``id``,
    ``person_id``); an extract must be terminal.  Anything else (a body cut off by the network, an HTML
    error page, a processing extract) is neither written nor, if somehow present, served.
    """
    if getattr(response, "status_code", None) != 200:
        return True  # only 200s are cacheable (allowable_codes); errors are left to the caller
    try:
        data = parsed_json(response)
    except (ValueError, UnicodeDecodeError):
        return False
    return answers(_path_of(response), data)


def answers(path: str, data: Any) -> bool:
    """Whether ``data`` is a whole answer to the request for ``path`` (see :func:`keep_response`): what a cached
    answer must be to be served for that path — also one stored under another key (a former company id's alias).

    Examples
    --------
    >>> answers("/v1/company/DE-HRB-B1-1", {"id": "DE-HRB-B1-1", "registers": []})
    True
    >>> answers("/v1/company/DE-HRB-B1-2", {"id": "DE-HRB-B1-1", "registers": []})
    False
    >>> answers("/v1/company/DE-HRB-B1-1/financials", {"indicators": [], "reports": [], "merged": None})
    True
    >>> answers("/v1/company/DE-HRB-B1-1/financials", {"indicators": [], "reports": []})
    False
    """
    from urllib.parse import unquote

    if not isinstance(data, dict):
        return False
    path = unquote(path).rstrip("/")
    if "/v1/company/" in path:
        asked, _, part = path.split("/v1/company/", 1)[1].partition("/")
        if part == "financials":  # the answer names no company: it must be whole
            return (
                isinstance(data.get("indicators"), list) and isinstance(data.get("reports"), list) and "merged" in data
            )
        if part in ("owners", "holdings"):  # asked by a former id, the answer names the current one
            named = data.get("company_id")
            return isinstance(named, str) and bool(COMPANY_ID_PATTERN.match(named)) and isinstance(data.get(part), list)
        if part == "ubo":
            named = data.get("company_id")
            return (
                isinstance(named, str) and bool(COMPANY_ID_PATTERN.match(named)) and isinstance(data.get("ubos"), list)
            )
        if part == "owners/historical":  # the answer names no company: a whole answer is its owners list
            return isinstance(data.get("owners"), list)
        return not part and asked in record_company_ids(data)
    if "/v1/person/" in path:
        asked, _, part = path.split("/v1/person/", 1)[1].partition("/")
        named = data.get("person_id" if part == "holdings" else "id")
        return part in ("", "holdings") and isinstance(named, str) and named.lower() == asked.lower()
    if "/v1/document/" in path:  # a listed document's metadata names its id (looked up in any letter case)
        named = data.get("id")
        return isinstance(named, str) and named.casefold() == path.split("/v1/document/", 1)[1].casefold()
    if "/v1/transparenzregister/extracts/" in path:
        return data.get("status") in _TERMINAL_EXTRACT
    return True


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


def _path_of(response: Any) -> str:
    from urllib.parse import unquote, urlsplit

    request = getattr(response, "request", None)
    url = getattr(request, "url", None) or getattr(response, "url", "") or ""
    return unquote(urlsplit(url).path).rstrip("/")
