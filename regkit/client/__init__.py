"""The interface client: one :class:`Client` class (``regkit.client.core``) with one method per endpoint, and the
collaborators it owns — caching, credits ledger and budget, retries, bulk lookups — with validation and the
exception tree.  ``regkit`` re-exports the public names."""

from regkit.errors import (
    APIError,
    ArgumentError,
    AuthenticationError,
    BadRequestError,
    BudgetExceededError,
    BudgetStopWarning,
    BudgetUnavailableError,
    BudgetWarning,
    CacheError,
    CacheUnavailableError,
    CacheWriteWarning,
    ConflictError,
    Interrupted,
    NoFinancialReportsWarning,
    NotFoundError,
    OfflineCacheMiss,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitedError,
    RegkitError,
    RegkitWarning,
    ServerError,
    TransportError,
    ValidationError,
    WaitTimeout,
)

from .bulk import CostEstimate
from .cache import ClientCache
from .company_ids import company_id, parse_company_id
from .contact import ContactRecord
from .core import DEFAULT_LIVE_BASE_URL, DEMO_API_KEY, LOCAL_ORIGIN, Client
from .documents import DocumentRecord, RealtimeDocumentRecord
from .downloads import DownloadedFile, DownloadEstimate, Downloads
from .financials import FinancialsRecord
from .ownership_records import OwnershipHistoryRecord, UbosRecord
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
from .research_records import (
    CompanySearchPage,
    CompanySearchResults,
    CompanySuggestions,
    HoldingsRecord,
    OwnersRecord,
    PersonRecord,
    PersonSearchPage,
    PersonSearchResults,
)
from .retry import RetryPolicy
from .team_budget import TeamBudget

__all__ = [
    "TeamBudget",
    "APIError",
    "AuthenticationError",
    "BadRequestError",
    "BudgetExceededError",
    "BudgetUnavailableError",
    "BudgetWarning",
    "CacheError",
    "CacheUnavailableError",
    "CacheWriteWarning",
    "CachePolicy",
    "Client",
    "ClientCache",
    "CompanyBatch",
    "CompanyRecord",
    "CompanySearchPage",
    "CompanySearchResults",
    "CompanySuggestions",
    "ConflictError",
    "ContactRecord",
    "CostEstimate",
    "CredentialRecord",
    "CreditsRecord",
    "DEFAULT_LIVE_BASE_URL",
    "DEMO_API_KEY",
    "ExtractRecord",
    "HoldingsRecord",
    "InsolvencyRecord",
    "InsolvencyResults",
    "InsolvencySearchPage",
    "LOCAL_ORIGIN",
    "MonitorRecord",
    "NotFoundError",
    "OfflineCacheMiss",
    "OwnersRecord",
    "OwnershipHistoryRecord",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PersonRecord",
    "PersonSearchPage",
    "PersonSearchResults",
    "RateLimitedError",
    "RecordMeta",
    "RegkitError",
    "RegkitWarning",
    "RetryPolicy",
    "ServerError",
    "TransportError",
    "UbosRecord",
    "ValidationError",
    "WaitTimeout",
    "parse_company_id",
    "company_id",
    "DocumentRecord",
    "RealtimeDocumentRecord",
    "DownloadedFile",
    "DownloadEstimate",
    "Downloads",
    "FinancialsRecord",
    "NoFinancialReportsWarning",
    "ArgumentError",
    "BudgetStopWarning",
    "Interrupted",
]
