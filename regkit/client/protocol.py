"""What the analysis and view layers need of a client, as :class:`typing.Protocol`\\ s.

:func:`regkit.graph.crawl` and the explorers (:mod:`regkit.widgets`) call a handful of a client's methods. These
protocols name exactly those members, with the parameters they pass and the records they get back, so mypy checks
every call and a reader sees what a crawl or an explorer may do with the client it is given. :class:`regkit.Client`
satisfies each of them (checked statically below and by ``tests/package/test_client_protocol.py``); any other
object with these members can stand in for it.

=======================  ==========================================================================================
protocol                 used by
=======================  ==========================================================================================
:class:`CreditCounts`    the explorers' credits line (``credits_spent``, ``credits_saved``, ``budget``)
:class:`CrawlClient`     :func:`regkit.graph.crawl` and its level plans: cost estimates, then the lookups
:class:`RegisterClient`  the explorers (company, group, person, insolvency): all of the above and the searches
=======================  ==========================================================================================
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import pandas as pd

from . import (
    CompanyBatch,
    CompanyRecord,
    CompanySuggestions,
    CostEstimate,
    DownloadEstimate,
    Downloads,
    FinancialsRecord,
    HoldingsRecord,
    InsolvencyRecord,
    InsolvencySearchPage,
    OwnersRecord,
    PersonRecord,
    PersonSearchPage,
)

__all__ = ["BudgetView", "CreditCounts", "CrawlClient", "RegisterClient"]


@runtime_checkable
class BudgetView(Protocol):
    """A client's spending limit as the explorers and a crawl read it."""

    @property
    def limit(self) -> int | None:
        """Credits the client may spend in total (``None``: no limit)."""

    @property
    def remaining(self) -> int | None:
        """Credits left (``None``: no limit)."""


@runtime_checkable
class CreditCounts(Protocol):
    """What a client has spent and saved, and its budget."""

    @property
    def credits_spent(self) -> int:
        """Credits the interface charged this client."""

    @property
    def credits_saved(self) -> int:
        """Credits not spent thanks to the cache."""

    @property
    def budget(self) -> BudgetView:
        """The client's spending limit."""


@runtime_checkable
class CrawlClient(CreditCounts, Protocol):
    """What :func:`regkit.graph.crawl` calls: an estimate per level and endpoint, then the lookups."""

    def estimate_cost(self, company_ids: Sequence[str], *, endpoint: str = "company") -> CostEstimate:
        """What looking up ``company_ids`` (person UUIDs for the person endpoints) would cost now."""

    def get_companies(self, ids: Sequence[str], *, errors: str = "raise", progress: bool = True) -> CompanyBatch:
        """Many companies at once (``errors="collect"``: failures kept in the batch, not raised)."""

    def get_holdings(self, company_id: str) -> HoldingsRecord:
        """What a company holds and held."""

    def get_person(self, person_id: str) -> PersonRecord:
        """One person with their management positions."""

    def get_person_holdings(self, person_id: str) -> HoldingsRecord:
        """What a person holds and held."""


@runtime_checkable
class RegisterClient(CrawlClient, Protocol):
    """What the explorers call: a crawl's members, single lookups, what is cached, and the searches."""

    def get_company(self, company_id: str) -> CompanyRecord:
        """One company."""

    def get_owners(self, company_id: str, *, best_available: bool = False) -> OwnersRecord:
        """A company's current owners."""

    def get_insolvency(self, insolvency_id: str) -> InsolvencyRecord:
        """One insolvency proceeding with its events."""

    def is_cached(self, company_id: str, *, endpoint: str = "company", best_available: bool = False) -> bool:
        """Whether the cache answers this lookup now (for free)."""

    def estimate_search_cost(
        self,
        query: str | None = None,
        filters: object = None,
        *,
        page: int = 1,
        per_page: int = 10,
        kind: str = "insolvency",
    ) -> int:
        """Credits a search page would cost now (0 when cached)."""

    def autocomplete_companies(self, query: str) -> CompanySuggestions:
        """Companies whose name starts like ``query`` (free, rate-limited)."""

    def search_persons(self, query: str | None = None) -> PersonSearchPage:
        """The first page of persons matching ``query``."""

    def search_insolvencies(
        self, query: str | None = None, filters: object = None, *, page: int = 1, per_page: int = 10
    ) -> InsolvencySearchPage:
        """One page of insolvency proceedings."""

    # documents (issue 23, slice D): the company explorer's Documents tab
    def estimate_download_cost(self, documents: object, directory: str | os.PathLike[str]) -> DownloadEstimate:
        """What downloading ``documents`` into ``directory`` would cost now (0 for what it holds or is free)."""

    def download(self, documents: object, directory: str | os.PathLike[str], *, progress: bool = True) -> Downloads:
        """Save documents as files in ``directory``, paying for none it already has."""

    def get_financials(self, company_id: str) -> FinancialsRecord:
        """A company's filed annual reports (the company explorer's financials tab)."""

    def changes(self, entity_id: str, categories: Sequence[str] | None = None) -> pd.DataFrame:
        """What changed between the cached versions of an entity's answers (the explorer's changes tab)."""

    def mark_stale(self, entity_id: str) -> int:
        """Expire the cached answers about an entity, so the next lookup fetches them (the changes tab's button)."""


if TYPE_CHECKING:  # mypy proves that the one Client satisfies every protocol above
    from . import Client

    def _client_is_a_register_client(client: Client) -> RegisterClient:
        return client
