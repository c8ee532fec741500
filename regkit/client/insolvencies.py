"""Insolvency proceedings: one search page, every page of a search (minding the budget), one proceeding.

Every search request costs 10 credits whatever its page size; how ``search_all_insolvencies`` pages and
checks the budget is said in :mod:`regkit.client.paging`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from regkit.schema.interface import PER_PAGE_MAX, PRICES

from . import paging, validation
from regkit.errors import ValidationError
from .filter_fields import SEARCH_KINDS
from .records import InsolvencyRecord, InsolvencyResults, InsolvencySearchPage
from .transport.call import Operation

if TYPE_CHECKING:
    from .budget import Budget
    from .records import RecordMeta
    from .transport.call import Answer, Caller

__all__ = ["InsolvencyMethods"]


class InsolvencyMethods:
    """The insolvency endpoints of :class:`~regkit.client.Client`."""

    if TYPE_CHECKING:  # provided by Client
        _caller: Caller
        budget: Budget

        def _call(self, op: Operation) -> Answer: ...

        def _meta(self, answer: Answer, urls_expired: bool = False) -> RecordMeta: ...

        def _research_search_op(self, kind: str, query: Any, filters: Any, page: Any, per_page: Any) -> Operation: ...

    def _search_op(self, query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
        body: dict[str, Any] = {}
        if (text := validation.query(query)) is not None:
            body["query"] = text
        if normalised := validation.filters(filters):
            body["filters"] = normalised
        body["pagination"] = validation.pagination(page, per_page)
        return Operation(
            "search_insolvencies", "POST", "/v1/search/insolvency", body=body, price=PRICES["insolvency_search"]
        )

    def search_insolvencies(
        self, query: str | None = None, filters: Any = None, page: int = 1, per_page: int = 10
    ) -> InsolvencySearchPage:
        """One page of insolvency proceedings (10 credits per page; cached for a day).

        ``filters`` takes the interface's list of filter objects or a mapping (see
        :func:`regkit.client.validation.filters`).
        """
        answer = self._call(self._search_op(query, filters, page, per_page))
        return InsolvencySearchPage(answer.data, self._meta(answer))

    def estimate_search_cost(
        self,
        query: str | None = None,
        filters: Any = None,
        page: int = 1,
        per_page: int = 10,
        *,
        kind: str = "insolvency",
    ) -> int:
        """Credits one search page with these arguments would cost now: 0 when the cache answers it, else 10.
        Nothing is sent.

        Parameters
        ----------
        query, filters, page, per_page
            As for the search method of ``kind``.
        kind : {"insolvency", "company", "person"}
            Which search: :meth:`search_insolvencies`, ``search_companies`` or ``search_persons``.

        Raises
        ------
        ValidationError
            For an unknown ``kind``, or arguments its search method would reject.
        """
        if kind not in SEARCH_KINDS:
            raise ValidationError(
                f"kind must be one of {', '.join(map(repr, SEARCH_KINDS))}, not {kind!r}",
                suggestion="e.g. kind='company' for search_companies; nothing was sent",
            )
        if kind == "insolvency":
            op = self._search_op(query, filters, page, per_page)
        else:
            op = self._research_search_op(kind, query, filters, page, per_page)
        return 0 if self._caller.is_cached(op) else op.price

    def iter_insolvencies(
        self, query: str | None = None, filters: Any = None, per_page: int = 100, limit: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every matching proceeding across pages, fetched lazily (10 credits per page).

        Arguments are checked now; pages are fetched as the iterator is consumed.
        """
        first = self._search_op(query, filters, 1, per_page)
        limit = paging.check_limit(limit)
        return paging.iter_results(lambda op: InsolvencySearchPage(self._call(op).data), first, limit)

    def search_all_insolvencies(
        self,
        query: str | None = None,
        filters: Any = None,
        limit: int | None = None,
        *,
        per_page: int = PER_PAGE_MAX,
        progress: bool = True,
    ) -> InsolvencyResults:
        """Every match of an insolvency search (or the first ``limit``), page after page, minding the budget.

        Parameters
        ----------
        query : str, optional
            Free text over debtor names, case numbers, administrators and courts.
        filters : list of dict or mapping, optional
            The interface's filter objects (``{"field": "court", "value": "Amtsgericht Kassel"}``) or the
            mapping shorthand of :func:`regkit.client.validation.filters`.
        limit : int, optional
            At most this many results (pages beyond them are not fetched).
        per_page : int
            Results per request (1–100; more per page means fewer paid requests).
        progress : bool
            Show a progress bar over the pages (with the estimated cost when a budget is set).

        Returns
        -------
        InsolvencyResults
            The results in the interface's order (``last_event_at`` descending, then ``id``), with
            ``total_results``, ``pages``, ``credits`` and ``estimated_credits``; ``.to_dataframe()`` is the
            frame of :func:`regkit.frames.insolvency_results` with those four in ``attrs``.

        Raises
        ------
        ValidationError
            For a negative or non-integer ``limit`` or a malformed query or filter (nothing is sent).
        BudgetExceededError
            When the pages after the first would cost more than is left of the budget (only the first
            page has been paid).
        """
        limit = paging.check_limit(limit)
        progress = validation.flag(progress, "progress")
        self._search_op(query, filters, 1, per_page if limit is None else max(1, min(per_page, limit)))  # checked
        if limit == 0:
            return InsolvencyResults([], total_results=0, pages=0, credits=0, estimated_credits=0)
        pages, wanted, estimate = paging.fetch_pages(
            lambda page, size: self.search_insolvencies(query, filters, page=page, per_page=size),
            limit=limit,
            per_page=per_page,
            progress=progress,
            budget=self.budget,
            price=PRICES["insolvency_search"],
            call="search_all_insolvencies",
            path="/v1/search/insolvency",
            unit="insolvency pages",
        )
        return InsolvencyResults(
            paging.results_of(pages, wanted),
            total_results=pages[0].total_results,
            pages=len(pages),
            credits=paging.credits_of(pages),
            estimated_credits=estimate,
        )

    def get_insolvency(self, insolvency_id: str) -> InsolvencyRecord:
        """One proceeding with all its events (10 credits; cached for a day)."""
        path = f"/v1/insolvency/{quote(validation.insolvency_id(insolvency_id))}"
        answer = self._call(Operation("get_insolvency", "GET", path, price=PRICES["insolvency_detail"]))
        return InsolvencyRecord(answer.data, self._meta(answer))
