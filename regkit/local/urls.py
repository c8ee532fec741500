"""The routes of the local register, built from the endpoint table (moto's ``urls.py``).

Method, path and public-ness of each operation come from :data:`regkit.schema.endpoints.ENDPOINTS`; this module
adds the handler. Each handler lives in :mod:`regkit.local.responses` under the name of the model function it
calls. An endpoint is named ``<responses module>.<handler>`` (``monitors.create_monitor``); the public ones (scope
``"public"``) are answered without a bearer token: the interface description, and presigned downloads (the
signature is their authorisation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from flask import Flask

from regkit.schema.endpoints import ENDPOINTS, Endpoint

from .responses import (
    companies,
    contact,
    credentials,
    documents,
    financials,
    insolvencies,
    monitors,
    ownership,
    ownership_history,
    persons,
    search,
    service,
    transparency,
    ubos,
)

__all__ = ["Route", "HANDLERS", "ROUTES", "PUBLIC_ENDPOINTS", "werkzeug_rule", "add_routes"]


@dataclass(frozen=True)
class Route:
    """One endpoint: its method, its path rule (werkzeug syntax), its handler, and whether it is public."""

    method: str
    rule: str
    handler: Callable[..., Any]
    public: bool = False

    @property
    def endpoint(self) -> str:
        """``<responses module>.<handler>``, e.g. ``companies.get_company``."""
        return f"{self.handler.__module__.rpartition('.')[2]}.{self.handler.__name__}"


HANDLERS: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {
        "get_company": companies.get_company,
        "get_owners": ownership.get_owners,
        "get_holdings": ownership.get_holdings,
        "get_historical_owners": ownership_history.get_historical_owners,
        "get_ubos": ubos.get_ubos,
        "get_person": persons.get_person,
        "get_person_holdings": persons.get_person_holdings,
        "search_company": search.search_company,
        "autocomplete_company": search.autocomplete_company,
        "search_person": persons.search_person,
        "search_insolvency": insolvencies.search_insolvency,
        "get_insolvency": insolvencies.get_insolvency,
        "get_financials": financials.get_financials,
        "download_financial_report": financials.download_report,
        "get_document": documents.get_document,
        "get_realtime_document": documents.get_realtime_document,
        "download_document": documents.download_document,
        "get_contact": contact.get_contact,
        "lookup_company": contact.lookup_company,
        "order_extract": transparency.order_extract,
        "get_extract": transparency.get_extract,
        "store_credentials": credentials.store_credentials,
        "get_credits": service.get_credits,
        "list_monitors": monitors.list_monitors,
        "create_monitor": monitors.create_monitor,
        "delete_monitor": monitors.delete_monitor,
        "get_openapi": service.get_openapi,
    }
)
"""The handler of each operation, by :attr:`~regkit.schema.endpoints.Endpoint.operation_id`."""


def werkzeug_rule(row: Endpoint) -> str:
    """The werkzeug rule of a row's path: ``/v1/company/{company_id}`` → ``/v1/company/<path:company_id>``.

    A path's only parameter takes the rest of the path (``path:``), slashes included, so that a malformed id
    reaches its handler and is answered with the interface's 400 or 404; where a path has several, each is one
    segment (``/v1/financials/<company_id>/<report_id>``), so that none swallows the next.

    Examples
    --------
    >>> from regkit.schema.endpoints import by_operation
    >>> werkzeug_rule(by_operation("get_owners"))
    '/v1/company/<path:company_id>/owners'
    >>> werkzeug_rule(by_operation("download_financial_report"))
    '/v1/financials/<company_id>/<report_id>'
    """
    converter = "path:" if len(row.path_parameters) == 1 else ""
    rule = row.path
    for name in row.path_parameters:
        rule = rule.replace(f"{{{name}}}", f"<{converter}{name}>")
    return rule


ROUTES = tuple(
    Route(row.method, werkzeug_rule(row), HANDLERS[row.operation_id], public=row.scope == "public") for row in ENDPOINTS
)
"""One route per row of :data:`~regkit.schema.endpoints.ENDPOINTS`, in its order."""

#: Endpoints answered without a bearer token.
PUBLIC_ENDPOINTS = frozenset(route.endpoint for route in ROUTES if route.public)


def add_routes(app: Flask) -> None:
    """Add every route to ``app``.

    Set ``app.url_map.merge_slashes = False`` first: ``/v1/company/%2Fx`` (an id starting with ``/``) is then
    the interface's JSON 404, not a 308 redirect to another URL with an HTML body.
    """
    for route in ROUTES:
        app.add_url_rule(route.rule, endpoint=route.endpoint, view_func=route.handler, methods=[route.method])
