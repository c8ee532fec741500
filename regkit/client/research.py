"""The research searches: finding companies and persons, autocomplete, owners, holdings and persons.

A company can be looked up only once its id is known, and its record maps a group only upwards; these
endpoints close both gaps.  The methods are on :class:`~regkit.client.Client` (one page ``search_*``, every page
``search_all_*`` minding the budget, lazily ``iter_*``; 10 credits a page, cached for a day; see
:mod:`regkit.client.paging`); what the searches and autocomplete send is made here, what the lookups send in
:mod:`regkit.client.research_lookups`.
Filters are checked against each search's vocabulary (:mod:`regkit.client.filter_fields`) before anything is
sent; the free text is sent as ``{"value": ...}``, the form the live service's clients send.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from regkit.errors import ValidationError
from regkit.schema.interface import PRICES

from . import validation
from .filter_fields import COMPANY_FILTERS, PERSON_FILTERS, FilterVocabulary
from .research_records import (
    CompanySearchPage,
    CompanySearchResults,
    PersonSearchPage,
    PersonSearchResults,
)
from .transport.operation import Operation

__all__ = [
    "Search",
    "SEARCHES",
    "COMPANY_SEARCH",
    "PERSON_SEARCH",
    "AUTOCOMPLETE_LENGTH",
    "search_op",
    "autocomplete_op",
]

AUTOCOMPLETE_LENGTH = (2, 200)
"""Shortest and longest text autocomplete takes, in characters (after stripping)."""


PageT = TypeVar("PageT", CompanySearchPage, PersonSearchPage)
ResultsT = TypeVar("ResultsT", CompanySearchResults, PersonSearchResults)


@dataclass(frozen=True)
class Search(Generic[PageT, ResultsT]):
    """One search endpoint: its kind, client method, path, price key, filters, and the records it returns."""

    kind: str
    call: str
    path: str
    price: str
    vocabulary: FilterVocabulary
    page: type[PageT]
    results: type[ResultsT]


COMPANY_SEARCH: Search[CompanySearchPage, CompanySearchResults] = Search(
    "company",
    "search_companies",
    "/v1/search/company",
    "company_search",
    COMPANY_FILTERS,
    CompanySearchPage,
    CompanySearchResults,
)
PERSON_SEARCH: Search[PersonSearchPage, PersonSearchResults] = Search(
    "person",
    "search_persons",
    "/v1/search/person",
    "person_search",
    PERSON_FILTERS,
    PersonSearchPage,
    PersonSearchResults,
)
SEARCHES: dict[str, Search[Any, Any]] = {"company": COMPANY_SEARCH, "person": PERSON_SEARCH}
"""The searches by the ``kind`` of ``Client.estimate_search_cost`` (insolvency aside)."""


def search_op(kind: str, query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
    """The operation of one page of the ``kind`` search (``"company"`` or ``"person"``; arguments checked, nothing
    is sent).

    Raises
    ------
    ValidationError
        A filter outside the search's vocabulary, a malformed query or page.
    """
    search = SEARCHES[kind]
    body: dict[str, Any] = {}
    if (text := validation.query(query)) is not None:
        body["query"] = {"value": text}
    if normalised := validation.filters(filters, search.vocabulary):
        body["filters"] = normalised
    body["pagination"] = validation.pagination(page, per_page)
    return Operation(search.call, "POST", search.path, body=body, price=PRICES[search.price])


def autocomplete_op(query: Any) -> Operation:
    """The operation of ``autocomplete_companies`` (the text checked; nothing is sent)."""
    return Operation(
        "autocomplete_companies",
        "GET",
        "/v1/autocomplete/company",
        params=(("query", _autocomplete_text(query)),),
        price=PRICES["autocomplete"],
    )


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
    validation.sendable(text, "query")
    return text
