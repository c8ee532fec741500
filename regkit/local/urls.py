"""The routes of the local register: one line per endpoint, path → handler (moto's ``urls.py``).

Each handler lives in :mod:`regkit.local.responses` under the name of the model function it calls. An
endpoint is named ``<responses module>.<handler>`` (``monitors.create_monitor``); the public ones are
answered without a bearer token: the interface description, and presigned downloads (the signature is
their authorisation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask

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

__all__ = ["Route", "ROUTES", "PUBLIC_ENDPOINTS", "add_routes"]


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


ROUTES = (
    Route("GET", "/v1/company/<path:company_id>", companies.get_company),
    Route("GET", "/v1/company/<path:company_id>/owners", ownership.get_owners),
    Route("GET", "/v1/company/<path:company_id>/holdings", ownership.get_holdings),
    Route("POST", "/v1/search/person", persons.search_person),
    Route("GET", "/v1/person/<path:person_id>", persons.get_person),
    Route("GET", "/v1/person/<path:person_id>/holdings", persons.get_person_holdings),
    Route("POST", "/v1/search/company", search.search_company),
    Route("GET", "/v1/autocomplete/company", search.autocomplete_company),
    Route("POST", "/v1/search/insolvency", insolvencies.search_insolvency),
    Route("GET", "/v1/insolvency/<path:insolvency_id>", insolvencies.get_insolvency),
    Route("POST", "/v1/transparenzregister/extracts", transparency.order_extract),
    Route("GET", "/v1/transparenzregister/extracts/<path:extract_id>", transparency.get_extract),
    Route("POST", "/v1/transparenzregister/credentials", credentials.store_credentials),
    Route("GET", "/v1/monitor", monitors.list_monitors),
    Route("POST", "/v1/monitor", monitors.create_monitor),
    Route("DELETE", "/v1/monitor/<path:entity_id>", monitors.delete_monitor),
    Route("GET", "/v1/documents/<path:document_id>", documents.download_document, public=True),
    Route("GET", "/v1/credits", service.get_credits),
    Route("GET", "/v1/openapi.json", service.get_openapi, public=True),
    # documents (issue 23, slice D)
    Route("GET", "/v1/document/<path:document_id>", documents.get_document),
    Route("GET", "/v1/document", documents.get_realtime_document),
    Route("GET", "/v1/company/<path:company_id>/owners/historical", ownership_history.get_historical_owners),
    Route("GET", "/v1/company/<path:company_id>/ubo", ubos.get_ubos),
    Route("GET", "/v1/company/<path:company_id>/financials", financials.get_financials),
    Route("GET", "/v1/financials/<company_id>/<report_id>", financials.download_report, public=True),
    Route("GET", "/v0/company/<path:company_id>/contact", contact.get_contact),
    Route("GET", "/v0/search/lookup", contact.lookup_company),
)

#: Endpoints answered without a bearer token.
PUBLIC_ENDPOINTS = frozenset(route.endpoint for route in ROUTES if route.public)


def add_routes(app: Flask) -> None:
    """Add every route to ``app``.

    Set ``app.url_map.merge_slashes = False`` first: ``/v1/company/%2Fx`` (an id starting with ``/``) is then
    the interface's JSON 404, not a 308 redirect to another URL with an HTML body.
    """
    for route in ROUTES:
        app.add_url_rule(route.rule, endpoint=route.endpoint, view_func=route.handler, methods=[route.method])
