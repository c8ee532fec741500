"""The research endpoints: finding companies and persons, autocomplete, owners, holdings and persons.

A company can be looked up only once its id is known, and its record maps a group only upwards; these
endpoints close both gaps.  :class:`ResearchMethods` is mixed into :class:`~regkit.client.Client`: the searches
are here (one page ``search_*``, every page ``search_all_*`` minding the budget, lazily ``iter_*``; 10 credits
a page, cached for a day; see :mod:`regkit.client.paging`), the lookups in :mod:`regkit.client.research_lookups`.
Filters are checked against each search's vocabulary (:mod:`regkit.client.filter_fields`) before anything is
sent; the free text is sent as ``{"value": ...}``, the form the live service's clients send.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PER_PAGE_MAX, PRICES

from . import paging, validation
from regkit.errors import ValidationError
from .filter_fields import COMPANY_FILTERS, PERSON_FILTERS, FilterVocabulary
from .research_lookups import LookupMethods
from .research_records import (
    CompanySearchPage,
    CompanySearchResults,
    CompanySuggestions,
    PersonSearchPage,
    PersonSearchResults,
)
from .transport.call import Operation

if TYPE_CHECKING:
    from .budget import Budget

__all__ = ["ResearchMethods", "AUTOCOMPLETE_LENGTH"]

AUTOCOMPLETE_LENGTH = (2, 200)
"""Shortest and longest text autocomplete takes, in characters (after stripping)."""


@dataclass(frozen=True)
class _Search:
    """One search endpoint: its client method, path, price key, filters, and the records it returns."""

    call: str
    path: str
    price: str
    vocabulary: FilterVocabulary
    page: type[CompanySearchPage] | type[PersonSearchPage]
    results: type[CompanySearchResults] | type[PersonSearchResults]


_SEARCHES = {
    "company": _Search(
        "search_companies",
        "/v1/search/company",
        "company_search",
        COMPANY_FILTERS,
        CompanySearchPage,
        CompanySearchResults,
    ),
    "person": _Search(
        "search_persons", "/v1/search/person", "person_search", PERSON_FILTERS, PersonSearchPage, PersonSearchResults
    ),
}


class ResearchMethods(LookupMethods):
    """The research endpoints of :class:`~regkit.client.Client` (searches here, lookups in
    :class:`~regkit.client.research_lookups.LookupMethods`)."""

    if TYPE_CHECKING:  # provided by Client
        budget: Budget

    def _research_search_op(self, kind: str, query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
        search = _SEARCHES[kind]
        body: dict[str, Any] = {}
        if (text := validation.query(query)) is not None:
            body["query"] = {"value": text}
        if normalised := validation.filters(filters, search.vocabulary):
            body["filters"] = normalised
        body["pagination"] = validation.pagination(page, per_page)
        return Operation(search.call, "POST", search.path, body=body, price=PRICES[search.price])

    def _search_page(self, kind: str, query: Any, filters: Any, page: Any, per_page: Any) -> Any:
        answer = self._call(self._research_search_op(kind, query, filters, page, per_page))
        return _SEARCHES[kind].page(answer.data, self._meta(answer))

    def _iter(self, kind: str, query: Any, filters: Any, per_page: Any, limit: Any) -> Iterator[dict[str, Any]]:
        first = self._research_search_op(kind, query, filters, 1, per_page)
        limit = paging.check_limit(limit)
        return paging.iter_results(lambda op: _SEARCHES[kind].page(self._call(op).data), first, limit)

    def _search_all(self, kind: str, query: Any, filters: Any, limit: Any, per_page: Any, progress: Any) -> Any:
        search = _SEARCHES[kind]
        limit = paging.check_limit(limit)
        progress = validation.flag(progress, "progress")
        self._research_search_op(kind, query, filters, 1, per_page if limit is None else max(1, min(per_page, limit)))
        if limit == 0:
            return search.results([], total_results=0, pages=0, credits=0, estimated_credits=0)
        pages, wanted, estimate = paging.fetch_pages(
            lambda page, size: self._search_page(kind, query, filters, page, size),
            limit=limit,
            per_page=per_page,
            progress=progress,
            budget=self.budget,
            price=PRICES[search.price],
            call=search.call.replace("search_", "search_all_"),
            path=search.path,
            unit=f"{kind} pages",
        )
        return search.results(
            paging.results_of(pages, wanted),
            total_results=pages[0].total_results,
            pages=len(pages),
            credits=paging.credits_of(pages),
            estimated_credits=estimate,
        )

    # -- companies -----------------------------------------------------------------------------
    def search_companies(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> CompanySearchPage:
        """One page of a company search (10 credits per page; cached for a day).

        Parameters
        ----------
        query : str, optional
            Words matched against current and former names, the register number and the city; every word must
            match, the last as a prefix; ä/ae, ö/oe, ü/ue, ß/ss are one.  Best match first.
        filters : mapping or list of dict, optional
            ``{"legal_form": "gmbh", "city": "Kassel", "revenue": (1_000_000, None), "active": True,
            "purpose": ["Software"]}`` or the interface's filter objects; the fields are
            :data:`regkit.client.filter_fields.COMPANY_FILTERS` (amounts in EUR over the latest reported year).
        page, per_page : int
            Page from 1; 1–100 results per page (the price is per page).

        Returns
        -------
        CompanySearchPage
            ``results`` and ``pagination``; ``.to_dataframe()``: :func:`regkit.frames.company_search_results`.

        Raises
        ------
        ValidationError
            An unknown filter field, a value outside its enum, a malformed range, query or page (nothing is
            sent).
        BadRequestError
            A field only the live service serves, sent to the local register (400 ``unsupported_filter``; no
            credits spent).
        """
        return self._search_page("company", query, filters, page, per_page)

    def iter_companies(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching company across pages, fetched lazily (10 credits per page); arguments as for
        :meth:`search_companies`, checked now.  Each page goes through the budget as it is fetched."""
        return self._iter("company", query, filters, per_page, limit)

    def search_all_companies(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> CompanySearchResults:
        """Every match of a company search (or the first ``limit``), page after page, minding the budget.

        Arguments as for :meth:`search_companies`; ``limit``, ``per_page`` and ``progress`` as for
        :meth:`~regkit.client.Client.search_all_insolvencies`.

        Returns
        -------
        CompanySearchResults
            The results, best match first, with ``total_results``, ``pages``, ``credits`` and
            ``estimated_credits``.

        Raises
        ------
        ValidationError
            Before anything is sent.
        BudgetExceededError
            When the pages after the first would cost more than is left (only the first page has been paid).
        """
        return self._search_all("company", query, filters, limit, per_page, progress)

    def autocomplete_companies(self, query: str) -> CompanySuggestions:
        """Up to 10 companies whose name starts like ``query``, best first (free, but rate-limited; cached for
        an hour).

        Parameters
        ----------
        query : str
            2–200 characters.

        Returns
        -------
        CompanySuggestions
            Iterates over company search results; ``.to_dataframe()``: :func:`regkit.frames.company_search_results`.

        Raises
        ------
        ValidationError
            Text shorter than 2 or longer than 200 characters (nothing is sent).
        """
        text = _autocomplete_text(query)
        op = Operation(
            "autocomplete_companies",
            "GET",
            "/v1/autocomplete/company",
            params=(("query", text),),
            price=PRICES["autocomplete"],
        )
        answer = self._call(op)
        return CompanySuggestions(answer.data, self._meta(answer))

    # -- persons -------------------------------------------------------------------------------
    def search_persons(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> PersonSearchPage:
        """One page of a person search (10 credits per page; cached for a day).

        Parameters
        ----------
        query : str, optional
            Words of the person's name.
        filters : mapping or list of dict, optional
            Fields ``date_of_birth`` (a date or a ``(min, max)`` range), ``city``, ``active`` (bool).
        page, per_page : int
            As for :meth:`search_companies`.

        Returns
        -------
        PersonSearchPage
            ``results`` (``id``, ``name``, ``city``, ``date_of_birth``, ``active``) and ``pagination``; persons
            without a known date of birth are not listed.  ``.to_dataframe()``:
            :func:`regkit.frames.person_search_results`.

        Raises
        ------
        ValidationError
            Before anything is sent.
        """
        return self._search_page("person", query, filters, page, per_page)

    def iter_persons(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching person across pages, fetched lazily (10 credits per page); see :meth:`search_persons`."""
        return self._iter("person", query, filters, per_page, limit)

    def search_all_persons(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> PersonSearchResults:
        """Every match of a person search (or the first ``limit``), minding the budget; as
        :meth:`search_all_companies`."""
        return self._search_all("person", query, filters, limit, per_page, progress)


def _autocomplete_text(query: Any) -> str:
    if not isinstance(query, str):
        raise ValidationError(f"query must be a string, not {query!r}", suggestion="e.g. 'Nordst'; nothing was sent")
    text = query.strip()
    low, high = AUTOCOMPLETE_LENGTH
    if not low <= len(text) <= high:
        raise ValidationError(
            f"autocomplete query must be {low} to {high} characters long, not {len(text)}",
            suggestion="type at least two letters; for longer text use search_companies; nothing was sent",
        )
    validation._sendable(text, "query")
    return text
