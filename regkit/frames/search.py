"""``insolvencies``: page through an insolvency search and return one frame, minding the budget.

Every search request costs 10 credits whatever its page size, so pages are fetched with the largest page size
the interface allows (100). The first page tells how many results there are; before any further page is
fetched the cost of the rest is estimated (pages still needed × 10 credits; cached pages will cost nothing,
so it is an upper bound). When the client has a budget, the estimate is shown — in the progress bar's
description and in the log (``regkit.frames`` logger, INFO) — and checked: if it exceeds what is left of the
budget, ``BudgetExceededError`` is raised and nothing beyond the first page is spent.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.schema import PER_PAGE_MAX, PRICES

from .insolvency import insolvency_results, result_list

if TYPE_CHECKING:
    from regkit.client import Client

__all__ = ["insolvencies"]

logger = logging.getLogger("regkit.frames")


def _progress(total: int, enabled: bool, description: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc=description, unit="page", leave=False)


def insolvencies(client: "Client", query: str | None = None, filters: Any = None, limit: int | None = None, *,
                 per_page: int = PER_PAGE_MAX, progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """Search insolvency proceedings and return every match (or the first ``limit``) as a frame.

    Parameters
    ----------
    client : regkit.Client
        Anything with ``search_insolvencies(query, filters, page, per_page)`` returning pages, and optionally
        a ``budget`` with ``limit``, ``remaining`` and ``check(credits, what=...)``.
    query : str, optional
        Free text over debtor names, case numbers, administrators and courts.
    filters : list of dict or mapping, optional
        The interface's filter objects (``{"field": "court", "value": "Amtsgericht Kassel"}``) or the
        client's mapping shorthand.
    limit : int, optional
        At most this many results (pages beyond them are not fetched).
    per_page : int
        Results per request (1–100; more per page means fewer paid requests).
    progress : bool
        Show a progress bar over the pages (with the estimated cost when a budget is set).

    Returns
    -------
    pandas.DataFrame
        The frame of :func:`~regkit.frames.insolvency_results` (columns and dtypes there), in the interface's
        order (``last_event_at`` descending, then ``id``). ``attrs`` holds ``total_results`` (matches over all
        pages), ``pages`` (requests made), ``credits`` (credits actually charged) and ``estimated_credits``
        (the estimate for the pages after the first).

    Raises
    ------
    BudgetExceededError
        When the pages after the first would cost more than is left of the client's budget (only the first
        page has been paid).
    ValueError
        For a negative or non-integer ``limit``.

    Examples
    --------
    >>> import regkit
    >>> client = regkit.Client(cache=False)  # doctest: +SKIP
    >>> frame = insolvencies(client, filters=[{"field": "court", "value": "Amtsgericht Hof"}], limit=5)  # doctest: +SKIP
    >>> len(frame) <= 5  # doctest: +SKIP
    True
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be a non-negative integer or None, not {limit!r}")
    if limit == 0:
        return _attrs(insolvency_results([]), 0, 0, 0, 0)
    size = per_page if limit is None else max(1, min(per_page, limit))
    first = client.search_insolvencies(query, filters, page=1, per_page=size)
    total = int(first.raw["pagination"]["total_results"])
    wanted = total if limit is None else min(limit, total)
    more = max(0, math.ceil(wanted / size) - 1)
    estimate = more * PRICES["insolvency_search"]
    description = _announce(client, total, more, estimate)
    pages = [first]
    with _progress(more + 1, progress, description) as bar:
        bar.update(1)
        while len(pages) <= more and pages[-1].has_next and len(pages[-1]):
            pages.append(client.search_insolvencies(query, filters, page=len(pages) + 1, per_page=size))
            bar.update(1)
    credits = sum(getattr(getattr(p, "meta", None), "credits", 0) for p in pages)
    return _attrs(insolvency_results(result_list(pages)[:wanted]), total, len(pages), credits, estimate)


def _announce(client: Any, total: int, more: int, estimate: int) -> str:
    budget = getattr(client, "budget", None)
    if budget is None or getattr(budget, "limit", None) is None or not more:
        return "insolvency pages"
    text = (f"{total} results: {more} more page(s) cost up to {estimate} credits "
            f"(budget left {budget.remaining})")  # fmt: skip
    logger.info("insolvencies: %s", text)
    budget.check(estimate, what=f"insolvencies ({text})", method="POST", path="/v1/search/insolvency")
    return f"insolvency pages (≤{estimate} credits)"


def _attrs(frame: pd.DataFrame, total: int, pages: int, credits: int, estimate: int) -> pd.DataFrame:
    frame.attrs.update(total_results=total, pages=pages, credits=credits, estimated_credits=estimate)
    return frame
