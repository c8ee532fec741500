"""The endpoint table: one row per operation of the interface, and what regkit knows about each.

``openapi.json`` describes what an operation takes and answers; this table adds what regkit decides about it, in
one place: the id it takes and how that is checked, its price keys (:data:`~regkit.schema.interface.PRICES`), how
long the client's cache keeps its answers and which answers may be stored, the client's record class and method,
and whose data it is. The client builds its operations, cache lifetimes, cost estimates and lookups from it, the
local register its routes (:mod:`regkit.local.urls`), and ``docs/generate_interface_tables.py`` the "Endpoints at
a glance" table of ``docs/interface.md``. ``tests/test_endpoint_table.py`` checks every row against the document.

Everything here is data (names, not functions): the client maps an :attr:`Endpoint.identifier_check` to its
validator and an :attr:`Endpoint.stored_when` rule to its check of an answer. This module imports only the
standard library and :mod:`regkit.schema.interface`.

Examples
--------
>>> row = by_operation("get_owners")
>>> row.method, row.path_for(company_id="DE-HRB-B1234-5")
('GET', '/v1/company/DE-HRB-B1234-5/owners')
>>> row.credits(), row.credits(realtime=True), row.cache, row.lookup
(10, 20, 'ownership', 'owners')
>>> found, parameters = match("GET", "/v1/company/DE-HRB-B1234-5/owners")
>>> found.operation_id, parameters
('get_owners', {'company_id': 'DE-HRB-B1234-5'})
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from urllib.parse import quote, unquote

from regkit.schema.interface import PRICES

__all__ = [
    "Endpoint",
    "PriceChoice",
    "ENDPOINTS",
    "ENDPOINTS_BY_ID",
    "LOOKUP_NAMES",
    "RESOURCES",
    "SCOPES",
    "IDENTIFIER_CHECKS",
    "CACHE_LIFETIMES",
    "STORED_WHEN",
    "SUMMARY_MARKS",
    "OUR_PRICES",
    "by_operation",
    "by_lookup",
    "match",
]

RESOURCES = (
    "company",
    "ownership",
    "persons",
    "search",
    "insolvency",
    "financials",
    "document",
    "contact",
    "extract",
    "account",
    "monitor",
    "service",
)
"""The resources the operations belong to, in the order of :data:`ENDPOINTS` (the client keeps each in one place)."""

SCOPES: Mapping[str, str] = MappingProxyType(
    {
        "register": "public register data: the same for every API key of a service, so one cache entry serves all",
        "user": "belongs to one API user (extracts, stored credentials, monitors, credits); a cached answer is kept "
        "under the user's scope header (regkit.schema.interface.SCOPE_HEADER), never served to another key",
        "public": "answered without a bearer token: the interface description, and presigned downloads (their "
        "signature is the credential)",
    }
)
"""Whose data an operation's answer is, by :attr:`Endpoint.scope`."""

IDENTIFIER_CHECKS: Mapping[str, str] = MappingProxyType(
    {
        "company_id": "a company id: regkit.schema.interface.COMPANY_ID_PATTERN",
        "uuid": "a UUID (a person, an insolvency proceeding): regkit.schema.interface.UUID_PATTERN",
        "extract_id": "an extract id tre_<digits>: regkit.schema.interface.EXTRACT_ID_PATTERN",
        "entity_id": "a monitor's entity: a company id (COMPANY_ID_PATTERN) or a person UUID (UUID_PATTERN)",
        "document_id": "a listed document's id: a UUID, without a path separator",
        "website": "a website URL, compared by host (regkit.schema.websites)",
    }
)
"""How an :attr:`Endpoint.identifier` is checked before anything is sent, by :attr:`Endpoint.identifier_check`."""

CACHE_LIFETIMES = (
    "company",
    "ownership",
    "financials",
    "search",
    "autocomplete",
    "person",
    "insolvency",
    "extract",
    "document",
)
"""The lifetimes an answer can be kept for: names of fields of the client's ``CachePolicy`` (``document`` is read
through its ``document_lifetime``, which never outlives the answer's URL)."""

STORED_WHEN: Mapping[str, str] = MappingProxyType(
    {
        "json_object": "any JSON object",
        "names_company": "the company asked for: the answer's `answer_names` member (`id`) or one of its former ids "
        "(`registers[].company_id`) is the id asked by, so a lookup by a former id may be stored",
        "names_company_id": "the answer's `answer_names` member (`company_id`) is a well-formed company id — asked "
        "by a former id, the answer names the current one — and its `answer_list` member is a list",
        "has_list": "the answer's `answer_list` member is a list (the answer names no company)",
        "whole_financials": "`indicators` and `reports` are lists and `merged` is present (the answer names no "
        "company)",
        "names_person": "the answer's `answer_names` member equals the person id asked for, in any letter case",
        "names_document": "the answer's `answer_names` member equals the document id asked for, in any letter case",
        "terminal_extract": "the extract is terminal: `status` is `completed` or `failed`",
    }
)
"""What a 200 answer must be to be stored in, or served from, the client's cache, by :attr:`Endpoint.stored_when`.

Every rule first requires a JSON object; a body cut off by the network or an HTML error page is never stored. A
cached answer found under another key (a former company id's alias) is served only when it passes the rule for
the path asked by."""

SUMMARY_MARKS: Mapping[str, str] = MappingProxyType(
    {
        "live": "how the live service behaves, learned from its current public client",
        "live path": "the live service's path, learned from its current public client",
    }
)
"""Where an operation comes from when not from the interface description, by :attr:`Endpoint.summary_mark` (the
marks of ``docs/interface.md``; **(local only)** is :attr:`Endpoint.local_only`)."""

OUR_PRICES = frozenset(
    {
        "insolvency_detail",
        "company_search",
        "autocomplete",
        "owners",
        "owners_realtime",
        "holdings",
        "person_search",
        "person",
        "person_holdings",
        "extract_production",
        "extract_poll",
        "document",
        "document_realtime",
        "owners_historical",
        "ubos",
        "financials",
        "contact",
        "website_lookup",
    }
)
"""Price keys whose price the interface description leaves open: our own decision (**(ours)** in
``docs/interface.md``). The local register charges them and regkit relies on them."""

_PARAMETER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class PriceChoice:
    """A price that depends on what the request carries.

    Attributes
    ----------
    part : str
        Where the deciding value is: ``"body"`` (a member of the JSON body) or ``"header"``.
    name : str
        The body member or header (``"update_frequency"``, ``"X-Credential-Name"``).
    prices : tuple of (str, str)
        ``(value, price key)``: a request whose ``name`` holds ``value`` costs ``PRICES[price key]``.
    label : str
        What the row's own :attr:`Endpoint.price` is called: the price of any other value (``"weekly"``,
        ``"production"``).
    """

    part: str
    name: str
    prices: tuple[tuple[str, str], ...]
    label: str

    def price_key(self, value: object, otherwise: str) -> str:
        """The price key of a request whose ``name`` holds ``value``; ``otherwise`` for any other value.

        Examples
        --------
        >>> by_operation("create_monitor").price_choice.price_key("daily", "monitor_weekly")
        'monitor_daily'
        """
        return next((key for chosen, key in self.prices if chosen == value), otherwise)


@dataclass(frozen=True)
class Endpoint:
    """One operation of the interface (one row of :data:`ENDPOINTS`).

    Attributes
    ----------
    operation_id : str
        The document's ``operationId`` (``"get_company"``): the row's name.
    method : str
        The HTTP method, upper case (``"GET"``).
    path : str
        The path template of the document (``"/v1/company/{company_id}"``).
    resource : str
        The resource it belongs to, one of :data:`RESOURCES`.
    summary : str
        What it answers, in a few words (the "What" of ``docs/interface.md``'s table).
    price : str
        The key of :data:`~regkit.schema.interface.PRICES` a call costs (the plain call when there is a realtime
        variant or a :attr:`price_choice`). A failed call (any non-2xx) and a cache hit cost 0.
    identifier : str or None
        The parameter naming the thing asked for: a path parameter (``"company_id"``), or a query parameter where
        the path has none (``"url"`` of the website lookup, ``"company_id"`` of a document fetched now); ``None``
        where the thing asked for is in the body or there is none.
    identifier_check : str or None
        How the identifier is checked before anything is sent, one of :data:`IDENTIFIER_CHECKS`; ``None``: not
        checked by the client (a presigned URL: its signature is the check).
    realtime_price : str or None
        Price key of ``realtime=true``; ``None``: the operation has no realtime variant.
    price_choice : PriceChoice or None
        Where the body or a header chooses the price (monitors: weekly or daily; extracts: production or
        sandbox).
    paged : bool
        A search answering one page per request (the body's ``pagination``); the price is per request.
    cache : str or None
        How long the client keeps a 200 answer: a field of its ``CachePolicy``, one of :data:`CACHE_LIFETIMES`;
        ``None``: never stored (orders, credentials, monitors, credits, presigned downloads).
    realtime_cached : bool
        Whether an answer asked with ``realtime=true`` may be stored; ``False``: such answers are never cached, so
        a realtime call always reaches the register.
    stored_when : str or None
        What a 200 answer must be to be stored or served from the cache, one of :data:`STORED_WHEN`; ``None``
        exactly when :attr:`cache` is ``None``.
    answer_names : str or None
        The answer's member that names the thing asked for, read by the ``names_*`` rules (``"id"``,
        ``"company_id"``, ``"person_id"``).
    answer_list : str or None
        The answer's member that must be a list, read by ``names_company_id`` and ``has_list``.
    record : str or None
        The name of the client's record class for the answer (``"CompanyRecord"``; ``list_monitors`` answers a list
        of them); ``None``: the client has none.
    client_method : str or None
        The ``Client`` method calling it (``"get_ownership_history"`` for ``get_historical_owners``); ``None`` for
        the local register's own routes.
    lookup : str or None
        The ``endpoint=`` name of ``Client.is_cached`` and ``Client.estimate_cost`` (``"owners"``); ``None``: not
        one of :data:`LOOKUP_NAMES`.
    scope : str
        Whose data the answer is, one of :data:`SCOPES`: ``"register"``, ``"user"`` or ``"public"``.
    local_only : bool
        Served by the local register only (the document's ``x-regkit-local``).
    quote_safe : str
        Characters :meth:`path_for` leaves unquoted: ``"/"`` (what ``urllib.parse.quote`` leaves by default: a
        checked id never holds one), ``""`` where an id may hold anything (documents and reports).
    summary_mark : str or None
        Where the operation comes from when not from the interface description, one of :data:`SUMMARY_MARKS`.
    success_ours : bool
        The success status is our own decision (**(ours)** in ``docs/interface.md``).
    """

    operation_id: str
    method: str
    path: str
    resource: str
    summary: str
    price: str
    identifier: str | None = None
    identifier_check: str | None = None
    realtime_price: str | None = None
    price_choice: PriceChoice | None = None
    paged: bool = False
    cache: str | None = None
    realtime_cached: bool = False
    stored_when: str | None = None
    answer_names: str | None = None
    answer_list: str | None = None
    record: str | None = None
    client_method: str | None = None
    lookup: str | None = None
    scope: str = "register"
    local_only: bool = False
    quote_safe: str = "/"
    summary_mark: str | None = None
    success_ours: bool = False

    @property
    def path_parameters(self) -> tuple[str, ...]:
        """The names of the path's parameters, in order (``("company_id", "report_id")``)."""
        return tuple(_PARAMETER.findall(self.path))

    @property
    def price_keys(self) -> tuple[str, ...]:
        """Every price key a call can cost: :attr:`price`, the realtime one, those of :attr:`price_choice`."""
        keys = [self.price]
        if self.realtime_price is not None:
            keys.append(self.realtime_price)
        if self.price_choice is not None:
            keys += [key for _, key in self.price_choice.prices]
        return tuple(keys)

    @property
    def paid(self) -> bool:
        """Whether a call can cost credits: any of :attr:`price_keys` costs more than 0."""
        return any(PRICES[key] > 0 for key in self.price_keys)

    def credits(self, realtime: bool = False, choice: object = None) -> int:
        """Credits of one successful call.

        Parameters
        ----------
        realtime : bool
            ``realtime=true`` (only where :attr:`realtime_price` is set).
        choice : object, optional
            The value of :attr:`price_choice`'s body member or header (``"daily"``, ``"sandbox"``).

        Raises
        ------
        ValueError
            ``realtime`` for an operation without a realtime variant.

        Examples
        --------
        >>> by_operation("get_company").credits(realtime=True)
        20
        >>> by_operation("order_extract").credits(choice="sandbox")
        0
        """
        if realtime:
            if self.realtime_price is None:
                raise ValueError(f"{self.operation_id} has no realtime variant")
            return PRICES[self.realtime_price]
        if self.price_choice is not None:
            return PRICES[self.price_choice.price_key(choice, self.price)]
        return PRICES[self.price]

    def path_for(self, **parameters: str) -> str:
        """The path of a request, each parameter percent-quoted as ``urllib.parse.quote(value, safe=quote_safe)``.

        Parameters
        ----------
        **parameters : str
            One value per path parameter, by name.

        Returns
        -------
        str
            The path, without base URL or query.

        Raises
        ------
        TypeError
            A parameter missing or one the path does not have, or a value that is not a string.

        Examples
        --------
        >>> by_operation("get_company").path_for(company_id="DE-HRB-B1234-5")
        '/v1/company/DE-HRB-B1234-5'
        >>> by_operation("get_document").path_for(document_id="a/b c")
        '/v1/document/a%2Fb%20c'
        >>> by_operation("get_credits").path_for()
        '/v1/credits'
        """
        names = self.path_parameters
        if set(parameters) != set(names):
            raise TypeError(f"{self.operation_id} takes the path parameters {names}, not {tuple(parameters)}")
        for name, value in parameters.items():
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string, not {type(value).__name__}")
        return _PARAMETER.sub(lambda found: quote(parameters[found[1]], safe=self.quote_safe), self.path)

    def _match(self, segments: list[str]) -> dict[str, str] | None:
        """The path parameters if the request path's ``segments`` are this row's path, else ``None``."""
        templates = self.path.split("/")
        if len(segments) != len(templates):
            return None
        parameters: dict[str, str] = {}
        for template, segment in zip(templates, segments):
            found = _PARAMETER.fullmatch(template)
            if found is None:
                if template != segment:
                    return None
            elif not segment:
                return None
            else:
                parameters[found[1]] = unquote(segment)
        return parameters


ENDPOINTS: tuple[Endpoint, ...] = (
    # company
    Endpoint(
        "get_company",
        "GET",
        "/v1/company/{company_id}",
        "company",
        "one company with its history",
        price="company",
        identifier="company_id",
        identifier_check="company_id",
        realtime_price="company_realtime",
        cache="company",
        stored_when="names_company",
        answer_names="id",
        record="CompanyRecord",
        client_method="get_company",
        lookup="company",
    ),
    # ownership
    Endpoint(
        "get_owners",
        "GET",
        "/v1/company/{company_id}/owners",
        "ownership",
        "a company's current owners",
        price="owners",
        identifier="company_id",
        identifier_check="company_id",
        realtime_price="owners_realtime",
        cache="ownership",
        stored_when="names_company_id",
        answer_names="company_id",
        answer_list="owners",
        record="OwnersRecord",
        client_method="get_owners",
        lookup="owners",
        summary_mark="live path",
    ),
    Endpoint(
        "get_holdings",
        "GET",
        "/v1/company/{company_id}/holdings",
        "ownership",
        "what a company holds and held",
        price="holdings",
        identifier="company_id",
        identifier_check="company_id",
        cache="ownership",
        stored_when="names_company_id",
        answer_names="company_id",
        answer_list="holdings",
        record="HoldingsRecord",
        client_method="get_holdings",
        lookup="holdings",
        summary_mark="live path",
    ),
    Endpoint(
        "get_historical_owners",
        "GET",
        "/v1/company/{company_id}/owners/historical",
        "ownership",
        "how a company's owners changed, from its shareholder lists",
        price="owners_historical",
        identifier="company_id",
        identifier_check="company_id",
        cache="ownership",
        stored_when="has_list",
        answer_list="owners",
        record="OwnershipHistoryRecord",
        client_method="get_ownership_history",
        lookup="owners_historical",
        summary_mark="live path",
    ),
    Endpoint(
        "get_ubos",
        "GET",
        "/v1/company/{company_id}/ubo",
        "ownership",
        "a company's beneficial owners",
        price="ubos",
        identifier="company_id",
        identifier_check="company_id",
        cache="ownership",
        stored_when="names_company_id",
        answer_names="company_id",
        answer_list="ubos",
        record="UbosRecord",
        client_method="get_ubos",
        lookup="ubos",
        summary_mark="live path",
    ),
    # persons
    Endpoint(
        "get_person",
        "GET",
        "/v1/person/{person_id}",
        "persons",
        "one person with their management positions",
        price="person",
        identifier="person_id",
        identifier_check="uuid",
        cache="person",
        stored_when="names_person",
        answer_names="id",
        record="PersonRecord",
        client_method="get_person",
        lookup="person",
        summary_mark="live path",
    ),
    Endpoint(
        "get_person_holdings",
        "GET",
        "/v1/person/{person_id}/holdings",
        "persons",
        "what a person holds and held",
        price="person_holdings",
        identifier="person_id",
        identifier_check="uuid",
        cache="person",
        stored_when="names_person",
        answer_names="person_id",
        record="HoldingsRecord",
        client_method="get_person_holdings",
        lookup="person_holdings",
        summary_mark="live path",
    ),
    # search
    Endpoint(
        "search_company",
        "POST",
        "/v1/search/company",
        "search",
        "search companies by name, register number, city and filters",
        price="company_search",
        paged=True,
        cache="search",
        stored_when="json_object",
        record="CompanySearchPage",
        client_method="search_companies",
        summary_mark="live path",
    ),
    Endpoint(
        "autocomplete_company",
        "GET",
        "/v1/autocomplete/company",
        "search",
        "up to 10 companies for a name as it is typed",
        price="autocomplete",
        cache="autocomplete",
        stored_when="json_object",
        record="CompanySuggestions",
        client_method="autocomplete_companies",
        summary_mark="live path",
    ),
    Endpoint(
        "search_person",
        "POST",
        "/v1/search/person",
        "search",
        "search persons",
        price="person_search",
        paged=True,
        cache="search",
        stored_when="json_object",
        record="PersonSearchPage",
        client_method="search_persons",
        summary_mark="live path",
    ),
    # insolvency
    Endpoint(
        "search_insolvency",
        "POST",
        "/v1/search/insolvency",
        "insolvency",
        "search insolvency proceedings",
        price="insolvency_search",
        paged=True,
        cache="search",
        stored_when="json_object",
        record="InsolvencySearchPage",
        client_method="search_insolvencies",
    ),
    Endpoint(
        "get_insolvency",
        "GET",
        "/v1/insolvency/{insolvency_id}",
        "insolvency",
        "one proceeding with all its events",
        price="insolvency_detail",
        identifier="insolvency_id",
        identifier_check="uuid",
        cache="insolvency",
        stored_when="json_object",
        record="InsolvencyRecord",
        client_method="get_insolvency",
        summary_mark="live path",
    ),
    # financials
    Endpoint(
        "get_financials",
        "GET",
        "/v1/company/{company_id}/financials",
        "financials",
        "a company's annual reports (balance sheet, P&L), 48 measures per year",
        price="financials",
        identifier="company_id",
        identifier_check="company_id",
        cache="financials",
        stored_when="whole_financials",
        record="FinancialsRecord",
        client_method="get_financials",
        lookup="financials",
        summary_mark="live path",
    ),
    Endpoint(
        "download_financial_report",
        "GET",
        "/v1/financials/{company_id}/{report_id}",
        "financials",
        "one annual report as HTML, by presigned URL",
        price="financial_report_download",
        identifier="report_id",
        scope="public",
        local_only=True,
        quote_safe="",
    ),
    # document
    Endpoint(
        "get_document",
        "GET",
        "/v1/document/{document_id}",
        "document",
        "a listed document's metadata and download URL",
        price="document",
        identifier="document_id",
        identifier_check="document_id",
        cache="document",
        stored_when="names_document",
        answer_names="id",
        record="DocumentRecord",
        client_method="get_document",
        quote_safe="",
        summary_mark="live path",
    ),
    Endpoint(
        "get_realtime_document",
        "GET",
        "/v1/document",
        "document",
        "a document fetched from the register now",
        price="document_realtime",
        identifier="company_id",
        identifier_check="company_id",
        cache="document",
        stored_when="json_object",
        record="RealtimeDocumentRecord",
        client_method="get_realtime_document",
        summary_mark="live path",
    ),
    Endpoint(
        "download_document",
        "GET",
        "/v1/documents/{document_id}",
        "document",
        "a source document, by presigned URL",
        price="document_download",
        identifier="document_id",
        scope="public",
        local_only=True,
        quote_safe="",
    ),
    # contact
    Endpoint(
        "get_contact",
        "GET",
        "/v0/company/{company_id}/contact",
        "contact",
        "a company's published contact data",
        price="contact",
        identifier="company_id",
        identifier_check="company_id",
        cache="company",
        stored_when="json_object",
        record="ContactRecord",
        client_method="get_contact",
        lookup="contact",
        summary_mark="live path",
    ),
    Endpoint(
        "lookup_company",
        "GET",
        "/v0/search/lookup",
        "contact",
        "the company behind a website",
        price="website_lookup",
        identifier="url",
        identifier_check="website",
        cache="company",
        stored_when="json_object",
        record="ContactRecord",
        client_method="get_company_by_website",
        lookup="website",
        summary_mark="live path",
    ),
    # extract
    Endpoint(
        "order_extract",
        "POST",
        "/v1/transparenzregister/extracts",
        "extract",
        "order a Transparenzregister extract",
        price="extract_production",
        price_choice=PriceChoice("header", "X-Credential-Name", (("sandbox", "extract_sandbox"),), "production"),
        record="ExtractRecord",
        client_method="order_extract",
        scope="user",
        success_ours=True,
    ),
    Endpoint(
        "get_extract",
        "GET",
        "/v1/transparenzregister/extracts/{extract_id}",
        "extract",
        "poll an extract",
        price="extract_poll",
        identifier="extract_id",
        identifier_check="extract_id",
        cache="extract",
        stored_when="terminal_extract",
        record="ExtractRecord",
        client_method="get_extract",
        scope="user",
    ),
    # account
    Endpoint(
        "store_credentials",
        "POST",
        "/v1/transparenzregister/credentials",
        "account",
        "validate and store register credentials",
        price="credentials_store",
        record="CredentialRecord",
        client_method="store_credentials",
        scope="user",
    ),
    Endpoint(
        "get_credits",
        "GET",
        "/v1/credits",
        "account",
        "credits used and remaining",
        price="credits",
        record="CreditsRecord",
        client_method="get_credits",
        scope="user",
        summary_mark="live",
    ),
    # monitor
    Endpoint(
        "list_monitors",
        "GET",
        "/v1/monitor",
        "monitor",
        "list the caller's monitors",
        price="monitor_list",
        record="MonitorRecord",
        client_method="list_monitors",
        scope="user",
    ),
    Endpoint(
        "create_monitor",
        "POST",
        "/v1/monitor",
        "monitor",
        "create a monitor",
        price="monitor_weekly",
        price_choice=PriceChoice("body", "update_frequency", (("daily", "monitor_daily"),), "weekly"),
        record="MonitorRecord",
        client_method="create_monitor",
        scope="user",
        summary_mark="live path",
        success_ours=True,
    ),
    Endpoint(
        "delete_monitor",
        "DELETE",
        "/v1/monitor/{entity_id}",
        "monitor",
        "delete the caller's monitor on an entity",
        price="monitor_delete",
        identifier="entity_id",
        identifier_check="entity_id",
        client_method="delete_monitor",
        scope="user",
        summary_mark="live path",
        success_ours=True,
    ),
    # service
    Endpoint(
        "get_openapi",
        "GET",
        "/v1/openapi.json",
        "service",
        "this interface as OpenAPI 3.1",
        price="openapi",
        scope="public",
        local_only=True,
    ),
)
"""Every operation of the interface, grouped by resource (:data:`RESOURCES`)."""

ENDPOINTS_BY_ID: Mapping[str, Endpoint] = MappingProxyType({row.operation_id: row for row in ENDPOINTS})
"""The rows by :attr:`Endpoint.operation_id`."""

LOOKUP_NAMES = tuple(row.lookup for row in ENDPOINTS if row.lookup)
"""The ``endpoint=`` names of ``Client.is_cached`` and ``Client.estimate_cost``: the :attr:`Endpoint.lookup` of the
rows that have one, in the table's order."""

_BY_LOOKUP: Mapping[str, Endpoint] = MappingProxyType({row.lookup: row for row in ENDPOINTS if row.lookup})
_BY_METHOD: Mapping[str, tuple[Endpoint, ...]] = MappingProxyType(
    {method: tuple(row for row in ENDPOINTS if row.method == method) for method in {row.method for row in ENDPOINTS}}
)


def by_operation(operation_id: str) -> Endpoint:
    """The row of ``operation_id``.

    Raises
    ------
    KeyError
        No operation has that id.

    Examples
    --------
    >>> by_operation("get_historical_owners").client_method
    'get_ownership_history'
    """
    try:
        return ENDPOINTS_BY_ID[operation_id]
    except KeyError:
        raise KeyError(f"no operation {operation_id!r}; one of {', '.join(ENDPOINTS_BY_ID)}") from None


def by_lookup(name: str) -> Endpoint:
    """The row of the ``endpoint=`` name ``name`` of ``Client.is_cached`` / ``Client.estimate_cost``.

    Raises
    ------
    KeyError
        ``name`` is not one of :data:`LOOKUP_NAMES`.

    Examples
    --------
    >>> by_lookup("website").path
    '/v0/search/lookup'
    """
    try:
        return _BY_LOOKUP[name]
    except (KeyError, TypeError):
        raise KeyError(f"no lookup {name!r}; one of {', '.join(LOOKUP_NAMES)}") from None


def match(method: str, path: str) -> tuple[Endpoint, dict[str, str]] | None:
    """The row a request is for, and its path parameters.

    Each path parameter is one non-empty segment, so ``/v1/company/X/owners`` is ``get_owners`` (never
    ``get_company`` of ``"X/owners"``) and ``/v1/company/X/owners/historical`` is ``get_historical_owners``. A
    query string or fragment and one trailing ``/`` are ignored.

    Parameters
    ----------
    method : str
        The HTTP method (any letter case).
    path : str
        The request's path, without base URL: as sent (percent-quoted: each parameter is unquoted, so
        ``%2F`` is a ``/`` inside a value) or unquoted (the same string where the values hold no ``/`` and no
        ``%``, as checked ids never do).

    Returns
    -------
    tuple of (Endpoint, dict of str to str) or None
        The row and its path parameters, unquoted; ``None``: no operation has that method and path.

    Examples
    --------
    >>> row, parameters = match("GET", "/v1/company/DE-HRB-B1234-5/owners/historical?x=1")
    >>> row.operation_id, parameters
    ('get_historical_owners', {'company_id': 'DE-HRB-B1234-5'})
    >>> match("get", by_operation("get_document").path_for(document_id="a/b"))[1]
    {'document_id': 'a/b'}
    >>> match("POST", "/v1/company/DE-HRB-B1234-5") is None
    True
    """
    path = path.partition("#")[0].partition("?")[0]
    segments = path.split("/")
    if len(segments) > 2 and segments[-1] == "":
        segments.pop()
    for row in _BY_METHOD.get(method.upper(), ()):
        parameters = row._match(segments)
        if parameters is not None:
            return row, parameters
    return None
