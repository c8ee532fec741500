"""Insolvency proceedings: one search page, every page of a search (minding the budget), one proceeding.

Every search request costs 10 credits whatever its page size.  :meth:`InsolvencyMethods.search_all_insolvencies`
therefore asks for the largest page the interface allows (100); the first page tells how many results there
are, and before any further page is fetched the cost of the rest is estimated (pages still needed × 10
credits; cached pages cost nothing, so it is an upper bound).  Under a budget the estimate is shown — in the
progress bar and in the log (INFO) — and checked: if it exceeds what is left, ``BudgetExceededError`` is
raised and nothing beyond the first page is spent.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from regkit.schema.interface import PER_PAGE_MAX, PRICES

from . import validation
from .errors import ValidationError
from .records import InsolvencyRecord, InsolvencyResults, InsolvencySearchPage
from .transport.call import Operation

if TYPE_CHECKING:
    from .budget import Budget
    from .records import RecordMeta
    from .transport.call import Answer, Caller

__all__ = ["InsolvencyMethods"]

logger = logging.getLogger(__name__)


def _limit(limit: Any) -> int | None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValidationError(f"limit must be a non-negative integer or None, not {limit!r}")
    return limit


class InsolvencyMethods:
    """The insolvency endpoints of :class:`~regkit.client.Client`."""

    if TYPE_CHECKING:  # provided by Client
        _caller: Caller
        budget: Budget

        def _call(self, op: Operation) -> Answer: ...

        def _meta(self, answer: Answer, urls_expired: bool = False) -> RecordMeta: ...

    def _search_op(self, query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
        body: dict[str, Any] = {}
        if (text := validation.query(query)) is not None:
            body["query"] = text
        if normalised := validation.filters(filters):
            body["filters"] = normalised
        body["pagination"] = validation.pagination(page, per_page)
        return Operation("search_insolvencies", "POST", "/v1/search/insolvency", body=body,
                         price=PRICES["insolvency_search"])  # fmt: skip

    def search_insolvencies(self, query: str | None = None, filters: Any = None, page: int = 1,
                            per_page: int = 10) -> InsolvencySearchPage:  # fmt: skip
        """One page of insolvency proceedings (10 credits per page; cached for a day).

        ``filters`` takes the interface's list of filter objects or a mapping (see
        :func:`regkit.client.validation.filters`).
        """
        answer = self._call(self._search_op(query, filters, page, per_page))
        return InsolvencySearchPage(answer.data, self._meta(answer))

    def estimate_search_cost(self, query: str | None = None, filters: Any = None, page: int = 1,
                             per_page: int = 10) -> int:  # fmt: skip
        """Credits :meth:`search_insolvencies` with these arguments would cost now: 0 when the cache
        answers it, else 10.  Nothing is sent.

        Raises
        ------
        ValidationError
            For arguments ``search_insolvencies`` would reject.
        """
        op = self._search_op(query, filters, page, per_page)
        return 0 if self._caller.is_cached(op) else op.price

    def iter_insolvencies(self, query: str | None = None, filters: Any = None, per_page: int = 100,
                          limit: int | None = None) -> Iterator[dict[str, Any]]:  # fmt: skip
        """Every matching proceeding across pages, fetched lazily (10 credits per page).

        Arguments are checked now; pages are fetched as the iterator is consumed.
        """
        first = self._search_op(query, filters, 1, per_page)
        limit = _limit(limit)

        def pages() -> Iterator[dict[str, Any]]:
            op, count = first, 0
            while limit is None or count < limit:
                page = InsolvencySearchPage(self._call(op).data)
                for result in page:
                    if limit is not None and count >= limit:
                        return
                    count += 1
                    yield result
                if not page.has_next or len(page) == 0:
                    return
                body = {**op.body, "pagination": {**op.body["pagination"], "page": op.body["pagination"]["page"] + 1}}
                op = replace(op, body=body)

        return pages()

    def search_all_insolvencies(self, query: str | None = None, filters: Any = None, limit: int | None = None, *,
                                per_page: int = PER_PAGE_MAX, progress: bool = True) -> InsolvencyResults:  # fmt: skip
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
        limit = _limit(limit)
        progress = validation.flag(progress, "progress")
        size = per_page if limit is None else max(1, min(per_page, limit))
        self._search_op(query, filters, 1, size)  # every argument checked before anything is sent
        if limit == 0:
            return InsolvencyResults([], total_results=0, pages=0, credits=0, estimated_credits=0)
        first = self.search_insolvencies(query, filters, page=1, per_page=size)
        wanted = first.total_results if limit is None else min(limit, first.total_results)
        more = max(0, math.ceil(wanted / size) - 1)
        estimate = more * PRICES["insolvency_search"]
        pages = [first]
        with _progress(more + 1, progress, self._announce(first.total_results, more, estimate)) as bar:
            bar.update(1)
            while len(pages) <= more and pages[-1].has_next and len(pages[-1]):
                pages.append(self.search_insolvencies(query, filters, page=len(pages) + 1, per_page=size))
                bar.update(1)
        results = [result for page in pages for result in page][:wanted]
        return InsolvencyResults(results, total_results=first.total_results, pages=len(pages),
                                 credits=sum(page.meta.credits for page in pages), estimated_credits=estimate)  # fmt: skip

    def _announce(self, total: int, more: int, estimate: int) -> str:
        """The progress bar's description; under a budget, check the estimate of the pages still to come."""
        if self.budget.limit is None or not more:
            return "insolvency pages"
        text = (
            f"{total} results: {more} more page(s) cost up to {estimate} credits (budget left {self.budget.remaining})"
        )
        logger.info("search_all_insolvencies: %s", text)
        self.budget.check(estimate, what=f"search_all_insolvencies ({text})", method="POST",
                          path="/v1/search/insolvency")  # fmt: skip
        return f"insolvency pages (≤{estimate} credits)"

    def get_insolvency(self, insolvency_id: str) -> InsolvencyRecord:
        """One proceeding with all its events (10 credits; cached for a day)."""
        path = f"/v1/insolvency/{quote(validation.insolvency_id(insolvency_id))}"
        answer = self._call(Operation("get_insolvency", "GET", path, price=PRICES["insolvency_detail"]))
        return InsolvencyRecord(answer.data, self._meta(answer))


def _progress(total: int, enabled: bool, description: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc=description, unit="page", leave=False)
