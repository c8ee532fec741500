"""Paging through a search: lazily (``iter_*``), or every page at once, minding the budget (``search_all_*``).

Every search request costs the same whatever its page size, so ``search_all_*`` asks for the largest page the
interface allows (100).  The first page tells how many results there are, and before any further page is
fetched the cost of the rest is estimated (pages still needed × price; cached pages cost nothing, so it is an
upper bound).  Under a budget the estimate is shown — in the progress bar and in the log (INFO) — and
checked: if it exceeds what is left, ``BudgetExceededError`` is raised and nothing beyond the first page is
spent.  The insolvency, company and person searches share this.

Every ``search_all_*`` call is a run of :mod:`regkit.client.budget.spending`: the cost of the pages after the first is
said on stderr before they are fetched, and an interrupt stops the paging at once with
:class:`~regkit.errors.Interrupted` (the pages that arrived are cached: the same call again pays only for the
rest). ``iter_*`` runs each page as it is asked for, and its interrupt counts every page fetched so far.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from regkit.errors import Interrupted, ValidationError

if TYPE_CHECKING:
    from ..budget.limit import Budget
    from ..budget.spending import Spending, SpendingRun
    from ..transport.call import Operation

__all__ = ["Page", "check_limit", "next_page", "iter_results", "fetch_pages", "results_of", "credits_of"]

logger = logging.getLogger(__name__)


class Page(Protocol):
    """What paging needs of a search page record."""

    @property
    def total_results(self) -> int: ...

    @property
    def has_next(self) -> bool: ...

    def __iter__(self) -> Iterator[dict[str, Any]]: ...

    def __len__(self) -> int: ...


def check_limit(limit: Any) -> int | None:
    """``limit`` of an ``iter_*`` / ``search_all_*`` call: ``None`` or a non-negative integer."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValidationError(f"limit must be a non-negative integer or None, not {limit!r}")
    return limit


def next_page(op: Operation) -> Operation:
    """The same search, one page further."""
    pagination = op.body["pagination"]
    return replace(op, body={**op.body, "pagination": {**pagination, "page": pagination["page"] + 1}})


def iter_results(
    fetch: Callable[[Operation], Page], first: Operation, limit: int | None, spending: Spending, call: str
) -> Iterator[dict[str, Any]]:
    """The results of the search ``first`` starts, page after page as they are consumed, at most ``limit``.

    Each page is fetched in a run of ``spending`` named ``call``; an interrupt during one raises
    :class:`~regkit.errors.Interrupted` counting every page this iterator fetched."""
    op, count = first, 0
    answers = credits = cached = 0
    while limit is None or count < limit:
        try:
            with spending.run(call) as run:
                page = fetch(op)
        except Interrupted as exc:
            raise Interrupted(
                call, answers + exc.answers, credits + exc.credits, cached + exc.cached, exc.detail
            ) from None
        answers, credits, cached = answers + run.answers, credits + run.credits, cached + run.cached
        for result in page:
            if limit is not None and count >= limit:
                return
            count += 1
            yield result
        if not page.has_next or len(page) == 0:
            return
        op = next_page(op)


def fetch_pages(
    fetch: Callable[[int, int], Page],
    *,
    limit: int | None,
    per_page: int,
    progress: bool,
    budget: Budget,
    price: int,
    call: str,
    path: str,
    unit: str,
    spending: Spending,
    cached: Callable[[int, int], bool] | None = None,
) -> tuple[list[Page], int, int]:
    """Every page a ``search_all_*`` call needs (see the module docstring).

    Parameters
    ----------
    fetch : callable
        ``fetch(page, per_page)``: one page (paid, or from the cache).
    limit : int or None
        At most this many results (``0`` is handled by the caller: nothing is fetched).
    per_page : int
        The page size asked for (reduced to ``limit`` when that is smaller).
    budget : Budget
        Checked against the estimate of the pages after the first.
    price : int
        Credits per page.
    call, path, unit : str
        For messages: the client method (``"search_all_companies"``), the endpoint and what the
        progress bar counts (``"company pages"``).
    spending : Spending
        The client's runs: the cost of the rest is said before it is paid, and an interrupt stops the paging.
    cached : callable, optional
        ``cached(page, per_page)``: whether the cache answers that page now (nothing sent), so that the cost said
        counts only the pages to pay.

    Returns
    -------
    (pages, wanted, estimate)
        The pages fetched, how many results are wanted of them, and the estimate that was checked.
    """
    size = per_page if limit is None else max(1, min(per_page, limit))
    with spending.run(call) as run:
        first = fetch(1, size)
        wanted = first.total_results if limit is None else min(limit, first.total_results)
        more = max(0, math.ceil(wanted / size) - 1)
        estimate = more * price
        pages: list[Page] = [first]
        description = _announce(budget, first.total_results, more, estimate, call=call, path=path, unit=unit)
        free = sum(1 for page in range(2, more + 2) if cached(page, size)) if cached is not None and more else 0
        _say_cost(run, first.total_results, wanted, more, free, price, budget)
        with _progress(more + 1, progress, description) as bar:
            bar.update(1)
            while len(pages) <= more and pages[-1].has_next and len(pages[-1]):
                pages.append(fetch(len(pages) + 1, size))
                bar.update(1)
    return pages, wanted, estimate


def _say_cost(run: SpendingRun, total: int, wanted: int, more: int, free: int, price: int, budget: Budget) -> None:
    """The cost line of the pages after the first, before any of them is fetched (none when nothing is to pay)."""
    if more - free <= 0:
        return
    left = "" if budget.remaining is None else f"; budget left {budget.remaining}"
    of = f"{wanted} wanted of {total}" if wanted < total else f"{total}"
    pages = f"{more} more page{'s' if more != 1 else ''}" + (f" ({free} cached)" if free else "")
    run.announce(f"{of} results: {pages} → {(more - free) * price} credits{left}")


def results_of(pages: Sequence[Page], wanted: int) -> list[dict[str, Any]]:
    """The first ``wanted`` results of ``pages``, in order."""
    return [result for page in pages for result in page][:wanted]


def credits_of(pages: Sequence[Any]) -> int:
    """Credits the pages cost (each page record's ``meta.credits``)."""
    return sum(page.meta.credits for page in pages)


def _announce(budget: Budget, total: int, more: int, estimate: int, *, call: str, path: str, unit: str) -> str:
    """The progress bar's description; under a budget, check the estimate of the pages still to come."""
    if budget.limit is None or not more:
        return unit
    text = f"{total} results: {more} more page(s) cost up to {estimate} credits (budget left {budget.remaining})"
    logger.info("%s: %s", call, text)
    budget.check(estimate, what=f"{call} ({text})", method="POST", path=path)
    return f"{unit} (≤{estimate} credits)"


def _progress(total: int, enabled: bool, description: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=None if enabled else True, desc=description, unit="page", leave=False)
