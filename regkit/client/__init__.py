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

from .account import CredentialRecord, CreditsRecord
from .arguments.company_ids import parse_company_id
from .bulk.downloads import DownloadedFile, DownloadEstimate, Downloads
from .bulk.fetcher import CostEstimate
from .cache.client_cache import ClientCache
from .cache.policy import CachePolicy
from .company import CompanyBatch, CompanyRecord
from .contact import ContactRecord
from .core import DEFAULT_LIVE_BASE_URL, DEMO_API_KEY, LOCAL_ORIGIN, Client
from .document import DocumentRecord, RealtimeDocumentRecord
from .extract import ExtractRecord
from .financials import FinancialsRecord
from .insolvency import InsolvencyRecord, InsolvencyResults, InsolvencySearchPage
from .monitor import MonitorRecord
from .ownership import HoldingsRecord, OwnershipHistoryRecord, OwnersRecord, UbosRecord
from .persons import PersonRecord, PersonSearchPage, PersonSearchResults
from .records import RecordMeta
from .search import CompanySearchPage, CompanySearchResults, CompanySuggestions
from .team import TeamBudget
from .transport.retry import RetryPolicy

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
