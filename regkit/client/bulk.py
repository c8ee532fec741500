"""Bulk company lookups: estimate first, fetch each distinct company once, concurrently.

* Duplicate ids are fetched once; concurrent identical requests (another thread, another bulk
  call) are merged by the client's in-flight map, so nothing is paid for twice.
* The cost is estimated before anything is sent (distinct uncached ids × price) and checked
  against the budget as a whole.
* Workers share the client's thread pool and its 429 gate: when the interface says
  ``Retry-After``, every worker waits, not just the one that was told.
* Results come back in input order; with ``errors="collect"`` each failure is kept per id.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Future, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import requests

from regkit.schema.interface import PRICES

from . import validation
from .errors import RegkitError, ValidationError
from .records import CompanyBatch, CompanyRecord

if TYPE_CHECKING:
    from .core import Client

__all__ = ["CostEstimate", "estimate_cost", "get_companies"]

logger = logging.getLogger(__name__)

ERROR_MODES = ("raise", "collect")


@dataclass(frozen=True)
class CostEstimate:
    """What a bulk lookup would cost now.

    Attributes
    ----------
    requested : int
        Ids asked for (duplicates included).
    distinct : int
        Distinct valid ids.
    cached : int
        Distinct ids answered by the cache for free right now.
    to_fetch : int
        Distinct ids that would be sent (and paid).
    price : int
        Credits per lookup (10, or 20 realtime).
    credits : int
        ``to_fetch * price``: the most the call can spend.
    budget_remaining : int or None
        Credits left in the client's budget (``None``: no budget).
    """

    requested: int
    distinct: int
    cached: int
    to_fetch: int
    price: int
    credits: int
    budget_remaining: int | None

    @property
    def within_budget(self) -> bool:
        """Whether the budget (if any) covers the estimate."""
        return self.budget_remaining is None or self.credits <= self.budget_remaining

    def __str__(self) -> str:
        budget = "" if self.budget_remaining is None else f"; budget left {self.budget_remaining}"
        return (f"{self.requested} ids, {self.distinct} distinct, {self.cached} cached → "
                f"{self.to_fetch} × {self.price} = {self.credits} credits{budget}")  # fmt: skip


def _is_cached(client: "Client", company_id: str, realtime: bool) -> bool:
    if realtime or not client.cache.enabled:
        return False
    op = client._company_op(company_id, realtime, False)
    session = client._caller.session
    request = session.prepare_request(
        requests.Request(op.method, client.base_url + op.path, params=list(op.params) or None)
    )
    response = session.cache.get_response(session.cache.create_key(request))
    return response is not None and not response.is_expired


def _split_valid(ids: Sequence[str]) -> tuple[list[str], dict[str, RegkitError]]:
    valid: dict[str, None] = {}
    invalid: dict[str, RegkitError] = {}
    for raw in ids:
        try:
            valid[validation.company_id(raw)] = None
        except ValidationError as exc:
            invalid[str(raw)] = exc
    return list(valid), invalid


def estimate_cost(client: "Client", company_ids: Sequence[str], realtime: bool = False) -> CostEstimate:
    """The cost of looking up ``company_ids`` now; nothing is sent.  Malformed ids are not counted."""
    if isinstance(company_ids, str):
        company_ids = [company_ids]
    distinct, _ = _split_valid(company_ids)
    cached = sum(_is_cached(client, cid, realtime) for cid in distinct)
    price = PRICES["company_realtime" if realtime else "company"]
    to_fetch = len(distinct) - cached
    return CostEstimate(len(company_ids), len(distinct), cached, to_fetch, price, to_fetch * price,
                        client.budget.remaining)  # fmt: skip


def _progress_bar(total: int, enabled: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc="companies", unit="company", leave=False)


def get_companies(client: "Client", ids: Sequence[str], *, realtime: bool = False, errors: str = "raise",
                  progress: bool = True, dry_run: bool = False) -> CompanyBatch | CostEstimate:  # fmt: skip
    """Look up many companies; see the module docstring.

    Parameters
    ----------
    ids : sequence of str
        Company ids; duplicates are fetched once.
    realtime : bool
        Fetch each from the official register (20 credits each, never cached).
    errors : {"raise", "collect"}
        ``"raise"``: malformed ids raise before anything is sent, and the first failed lookup stops
        the call (lookups already done stay cached).  ``"collect"``: every failure is kept in
        ``batch.errors`` and its slot is ``None``.
    progress : bool
        Show a tqdm progress bar.
    dry_run : bool
        Return the :class:`CostEstimate` instead of fetching.

    Returns
    -------
    CompanyBatch
        Records in input order (``CostEstimate`` with ``dry_run``).

    Raises
    ------
    BudgetExceededError
        When the estimate exceeds the remaining budget (nothing is sent).
    """
    if errors not in ERROR_MODES:
        raise ValidationError(f"errors must be 'raise' or 'collect', not {errors!r}")
    if isinstance(ids, str):
        raise ValidationError("ids must be a sequence of company ids, not one string",
                              suggestion="use get_company(id) for one company, or pass [id]")  # fmt: skip
    ids = list(ids)
    distinct, invalid = _split_valid(ids)
    if invalid and errors == "raise":
        first = next(iter(invalid.values()))
        raise ValidationError(f"{len(invalid)} of {len(ids)} ids are malformed, e.g. {first.message}",
                              suggestion=first.suggestion)  # fmt: skip
    if dry_run or client.budget.limit is not None:  # the estimate reads every cache entry: only when needed
        estimate = estimate_cost(client, ids, realtime)
        if dry_run:
            return estimate
        client.budget.check(estimate.credits, what=f"get_companies ({estimate})", method="GET",
                            path="/v1/company/{id}")  # fmt: skip
        logger.info("get_companies: %s", estimate)
    results, failures = _fetch_all(client, distinct, realtime, errors, progress)
    failures.update(invalid)
    records = [results.get(_canonical(i)) for i in ids]
    return CompanyBatch(ids, records, {i: failures[_canonical(i)] for i in ids if _canonical(i) in failures})


def _canonical(company_id: Any) -> str:
    return company_id.strip() if isinstance(company_id, str) else str(company_id)


def _fetch_all(client: "Client", distinct: list[str], realtime: bool, errors: str,
               progress: bool) -> tuple[dict[str, CompanyRecord], dict[str, RegkitError]]:  # fmt: skip
    pool = client._executor()
    futures: dict[Future, str] = {pool.submit(client.get_company, cid, realtime=realtime): cid for cid in distinct}
    results: dict[str, CompanyRecord] = {}
    failures: dict[str, RegkitError] = {}
    with _progress_bar(len(futures), progress) as bar:
        for future in as_completed(futures):
            cid = futures[future]
            error = future.exception()
            bar.update(1)
            if error is None:
                results[cid] = future.result()
                continue
            if not isinstance(error, RegkitError) or errors == "raise":
                _cancel(futures)
                logger.info("get_companies stopped at %s; %d fetched (they stay cached)", cid, len(results))
                raise error
            failures[cid] = error
    return results, failures


def _cancel(futures: dict[Future, str]) -> None:
    for future in futures:
        future.cancel()  # no-op for running and finished ones
