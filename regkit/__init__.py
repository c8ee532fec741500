"""regkit: German company register research in Jupyter.

Company histories, indicators and insolvency proceedings as pandas DataFrames, corporate groups as
networkx graphs, over the metered register interface or the bundled local register (no key needed).

Public names are imported lazily, so ``import regkit`` stays fast and does not load pandas,
matplotlib or Flask until they are used.
"""

from __future__ import annotations

import logging

from ._lazy import lazy_exports

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())

#: Public name → module that defines it.
_EXPORTS = {
    name: "regkit.client"
    for name in (
        "Client",
        "CachePolicy",
        "RetryPolicy",
        "CostEstimate",
        "CompanyRecord",
        "CompanyBatch",
        "InsolvencySearchPage",
        "InsolvencyResults",
        "InsolvencyRecord",
        "CompanySearchPage",
        "CompanySearchResults",
        "CompanySuggestions",
        "OwnersRecord",
        "HoldingsRecord",
        "UbosRecord",
        "OwnershipHistoryRecord",
        "PersonSearchPage",
        "PersonSearchResults",
        "PersonRecord",
        "ExtractRecord",
        "CredentialRecord",
        "CreditsRecord",
        "MonitorRecord",
        "ContactRecord",
        "OfflineCacheMiss",
        "WaitTimeout",
        "parse_company_id",
        "FinancialsRecord",
    )
}
_EXPORTS.update(
    {
        name: "regkit.frames"
        for name in (
            "history",
            "representatives",
            "indicators",
            "ratios",
            "links",
            "documents",
            "insolvency_summaries",
            "industry_codes",
            "contact",
            "as_of",
            "CompanyAsOf",
            "companies",
            "insolvency_results",
            "events",
            "panel",
            "proceedings",
            "beneficial_owners",
            "company_search_results",
            "owners",
            "holdings",
            "person_search_results",
            "persons",
            "management_positions",
        )
    }
)

_EXPORTS.update(
    {
        name: "regkit.errors"
        for name in (
            "RegkitError",
            "APIError",
            "ValidationError",
            "ArgumentError",
            "BadRequestError",
            "AuthenticationError",
            "PaymentRequiredError",
            "PermissionDeniedError",
            "NotFoundError",
            "ConflictError",
            "RateLimitedError",
            "ServerError",
            "TransportError",
            "BudgetExceededError",
            "BudgetUnavailableError",
            "CacheError",
            "CacheUnavailableError",
            "RegkitWarning",
            "CacheWriteWarning",
            "BudgetWarning",
            "NoFinancialReportsWarning",
            "BudgetStopWarning",
            "Interrupted",
        )
    }
)
_EXPORTS["crawl"] = "regkit.graph"
# documents (issue 23, slice D)
_EXPORTS.update(
    {name: "regkit.client" for name in ("DocumentRecord", "RealtimeDocumentRecord", "Downloads", "DownloadEstimate")}
)
_EXPORTS.update(
    {name: "regkit.widgets" for name in ("CompanyExplorer", "InsolvencyExplorer", "GroupExplorer", "PersonExplorer")}
)

#: Subpackages reachable as ``regkit.graph``, ``regkit.plot``, … without importing them first.
_SUBPACKAGES = ("client", "frames", "graph", "plot", "widgets", "local", "schema", "errors")

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, _SUBPACKAGES)
__all__ = ["__version__", *__all__]
