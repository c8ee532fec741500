"""regkit: German company register research in Jupyter.

Company histories, indicators and insolvency proceedings as pandas DataFrames, corporate groups as
networkx graphs, over the metered register interface or the bundled local register (no key needed).

Public names are imported lazily, so ``import regkit`` stays fast and does not load pandas,
matplotlib or Flask until they are used.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())

#: Public name → module that defines it.
_EXPORTS = {
    name: "regkit.client"
    for name in (
        "Client", "CachePolicy", "RetryPolicy", "CostEstimate",
        "CompanyRecord", "CompanyBatch", "InsolvencySearchPage", "InsolvencyRecord", "ExtractRecord",
        "CredentialRecord", "CreditsRecord", "MonitorRecord",
        "RegkitError", "APIError", "ValidationError", "BadRequestError", "AuthenticationError",
        "PaymentRequiredError", "PermissionDeniedError", "NotFoundError", "ConflictError", "RateLimitedError",
        "ServerError", "TransportError", "BudgetExceededError", "OfflineCacheMiss", "WaitTimeout",
    )
}
_EXPORTS.update({
    name: "regkit.frames"
    for name in (
        "history", "representatives", "indicators", "ratios", "links", "documents", "insolvency_summaries",
        "industry_codes", "contact", "as_of", "CompanyAsOf", "companies_frame", "insolvency_results", "events",
        "insolvencies", "panel", "proceedings", "beneficial_owners",
    )
})

_EXPORTS["crawl"] = "regkit.graph"
_EXPORTS.update({name: "regkit.widgets" for name in ("CompanyExplorer", "InsolvencyExplorer", "GroupExplorer")})

#: Subpackages reachable as ``regkit.graph``, ``regkit.plot``, … without importing them first.
_SUBPACKAGES = ("client", "frames", "graph", "plot", "widgets", "local", "schema")

__all__ = ["__version__", *_EXPORTS, *_SUBPACKAGES]


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"regkit.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'regkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
