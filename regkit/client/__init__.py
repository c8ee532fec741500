"""The interface client: one method per endpoint, caching, credits ledger and budget, retries,
validation and the exception tree.  ``regkit`` re-exports the public names."""

from .bulk import CostEstimate
from .cache import ClientCache
from .company_ids import company_id
from .core import DEFAULT_LIVE_BASE_URL, DEMO_API_KEY, LOCAL_ORIGIN, Client
from .errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    BudgetExceededError,
    ConflictError,
    NotFoundError,
    OfflineCacheMiss,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitedError,
    RegkitError,
    ServerError,
    TransportError,
    ValidationError,
    WaitTimeout,
)
from .policy import CachePolicy
from .records import (
    CompanyBatch,
    CompanyRecord,
    CredentialRecord,
    CreditsRecord,
    ExtractRecord,
    InsolvencyRecord,
    InsolvencyResults,
    InsolvencySearchPage,
    MonitorRecord,
    RecordMeta,
)
from .retry import RetryPolicy

__all__ = [
    "APIError",
    "AuthenticationError",
    "BadRequestError",
    "BudgetExceededError",
    "CachePolicy",
    "Client",
    "ClientCache",
    "CompanyBatch",
    "CompanyRecord",
    "ConflictError",
    "CostEstimate",
    "CredentialRecord",
    "CreditsRecord",
    "DEFAULT_LIVE_BASE_URL",
    "DEMO_API_KEY",
    "ExtractRecord",
    "InsolvencyRecord",
    "InsolvencyResults",
    "InsolvencySearchPage",
    "LOCAL_ORIGIN",
    "MonitorRecord",
    "NotFoundError",
    "OfflineCacheMiss",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "RateLimitedError",
    "RecordMeta",
    "RegkitError",
    "RetryPolicy",
    "ServerError",
    "TransportError",
    "ValidationError",
    "WaitTimeout",
    "company_id",
]
