"""The searches: finding companies and persons and autocompleting company names — what they send, the company
search's records, their HTML summaries and analysis methods.

A company can be looked up only once its id is known, and its record maps a group only upwards; these
endpoints close both gaps.  The methods are on :class:`~regkit.client.Client` (one page ``search_*``, every page
``search_all_*`` minding the budget, lazily ``iter_*``; 10 credits a page, cached for a day; see
:mod:`regkit.client.bulk.paging`); the person search's records are in :mod:`regkit.client.persons`.
Filters are checked against each search's vocabulary (:mod:`regkit.client.arguments.filter_fields`) before anything
is sent; the free text is sent as ``{"value": ...}``, the form the live service's clients send.


The analysis methods
--------------------
``results.to_dataframe()`` and friends are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from regkit.common.html import SummaryTable, plural, summary_html
from regkit.errors import ValidationError
from regkit.schema.endpoints import Endpoint, by_operation

from .arguments import validation
from .arguments.filter_fields import COMPANY_FILTERS, PERSON_FILTERS, FilterVocabulary
from .persons import PersonSearchPage, PersonSearchResults
from .records import (
    Record,
    SearchPage,
    SearchResults,
    search_row,
)
from .transport.operation import Operation, operation

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "Search",
    "SEARCHES",
    "COMPANY_SEARCH",
    "PERSON_SEARCH",
    "AUTOCOMPLETE_LENGTH",
    "search_op",
    "autocomplete_op",
    "CompanySearchPage",
    "CompanySearchResults",
    "CompanySuggestions",
    "CompanySearchFrames",
    "suggestions_html",
]


class CompanySearchFrames:
    """Frames of company search results (a page, all pages of a search, or autocomplete's suggestions)."""

    #: The result ids whose holdings the client's cache held when the search was answered (``get_holdings`` or
    #: a crawl down from them is free); set by the client, ``None`` on a record built by hand.
    holdings_cached: frozenset[str] | None = None

    def to_dataframe(self) -> pd.DataFrame:
        """One row per result (see ``regkit.frames.company_search_results``), with ``holdings_cached`` when the
        client set it."""
        from regkit.frames.company_search import company_search_results

        return company_search_results(self, holdings_cached=self.holdings_cached)


class CompanySearchPage(CompanySearchFrames, SearchPage):
    """One page of a company search (``client.search_companies``): ``results`` and ``pagination``;
    iterating yields the result dicts (``company_id``, ``name``, ``legal_form``, ``register_*``, ``active``,
    ``country``, ``purpose``, ``address``)."""

    kind = "company_page"


class CompanySearchResults(CompanySearchFrames, SearchResults):
    """Every result of a company search, or its first ``limit`` (``client.search_all_companies``), best match
    first; the attributes are :class:`~regkit.client.records.SearchResults`'."""

    def to_dataframe(self) -> Any:
        """One row per result (see ``regkit.frames.company_search_results``); ``attrs`` holds ``total_results``,
        ``pages``, ``credits`` and ``estimated_credits``."""
        return self._with_totals(super().to_dataframe())


class CompanySuggestions(CompanySearchFrames, Record):
    """Autocomplete's suggestions (``client.autocomplete_companies``): at most 10 company search results, best
    first; iterating yields them."""

    kind = "company_suggestions"

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the suggestions."""
        return iter(self.raw.get("results", []))

    def __len__(self) -> int:
        return len(self.raw.get("results", []))

    def _label(self) -> str:
        names = [str(r.get("name", "")) for r in self.raw.get("results", [])[:3]]
        return f"{len(self)} suggestion(s)" + (f": {'; '.join(names)}" if names else "")

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: each suggestion's name, legal form, register and city."""
        return suggestions_html(list(self))


def suggestions_html(results: Sequence[Mapping[str, Any]]) -> str:
    """Autocomplete's suggestions."""
    rows = [search_row("company", r)[:4] for r in results]
    table = SummaryTable(("Name", "Legal form", "Register", "City"), rows)
    title = plural(len(rows), "suggestion") if rows else "No suggestions"
    return summary_html(title, subtitle="autocomplete (free)", tables=[table] if rows else [], kind="suggestions")


AUTOCOMPLETE_LENGTH = (2, 200)
"""Shortest and longest text autocomplete takes, in characters (after stripping)."""


PageT = TypeVar("PageT", CompanySearchPage, PersonSearchPage)


ResultsT = TypeVar("ResultsT", CompanySearchResults, PersonSearchResults)


@dataclass(frozen=True)
class Search(Generic[PageT, ResultsT]):
    """One search endpoint: its kind, its row of the endpoint table, its filters, and the records it returns."""

    kind: str
    operation_id: str
    vocabulary: FilterVocabulary
    page: type[PageT]
    results: type[ResultsT]

    @property
    def endpoint(self) -> Endpoint:
        """Its row of the endpoint table."""
        return by_operation(self.operation_id)

    @property
    def call(self) -> str:
        """The client method (``search_companies``)."""
        return self.endpoint.client_method or self.operation_id

    @property
    def path(self) -> str:
        """The path it is sent to."""
        return self.endpoint.path

    @property
    def credits(self) -> int:
        """Credits of one page."""
        return self.endpoint.credits()


COMPANY_SEARCH: Search[CompanySearchPage, CompanySearchResults] = Search(
    "company",
    "search_company",
    COMPANY_FILTERS,
    CompanySearchPage,
    CompanySearchResults,
)


PERSON_SEARCH: Search[PersonSearchPage, PersonSearchResults] = Search(
    "person",
    "search_person",
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
    return operation(search.operation_id, body=body)


def autocomplete_op(query: Any) -> Operation:
    """The operation of ``autocomplete_companies`` (the text checked; nothing is sent)."""
    return operation("autocomplete_company", params=(("query", _autocomplete_text(query)),))


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
