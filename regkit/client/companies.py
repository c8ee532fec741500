"""Company lookups for :class:`~regkit.client.Client` and its bulk fetcher: one company, the cached ones of many.

:class:`CompanyLookups` turns a company answer into a :class:`~regkit.client.records.CompanyRecord`: presigned
source URLs older than ``policy.url_lifetime`` are left out (or refetched, paid, with ``refresh_sources``), and a
fresh answer is made to serve every id the company stands for (its former ids too), so a lookup by either is free
from now on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from regkit.errors import ValidationError
from regkit.schema.derived import HEADER as DERIVED_HEADER
from regkit.schema.derived import parse_marks

from . import validation
from .answers import record_meta, urls_stale
from .cache import ClientCache
from .cache_store import CHUNK
from .memory import gc_paused
from .policy import CachePolicy, record_company_ids
from .records import CompanyRecord
from .research_lookups import company_op
from .transport.call import Caller
from .transport.operation import Answer, Operation

__all__ = ["CompanyLookups", "derived_members"]

logger = logging.getLogger(__name__)


class CompanyLookups:
    """``get_company`` and the cache's part of ``get_companies``, over a client's caller.

    Parameters
    ----------
    caller : Caller
        Sends operations (cache, budget, ledger, retries).
    cache : ClientCache
        The client's cache (whether it is on).
    policy : CachePolicy
        Cache lifetimes, among them ``url_lifetime``.
    """

    def __init__(self, caller: Caller, cache: ClientCache, policy: CachePolicy) -> None:
        self.caller = caller
        self.cache = cache
        self.policy = policy

    def get(
        self, company_id: str, realtime: bool = False, export: bool = False, refresh_sources: bool = False
    ) -> CompanyRecord:
        """One company (``company_id`` already checked); see :meth:`regkit.client.Client.get_company`."""
        op = company_op(company_id, realtime, export)
        return self.record(op, self.caller.call(op), refresh_sources)

    def record(self, op: Operation, answer: Answer, refresh_sources: bool = False) -> CompanyRecord:
        """The record of a company answer, its presigned URLs checked."""
        stale = urls_stale(answer, self.policy.url_lifetime)
        if stale and refresh_sources:
            answer, stale = self.caller.call(replace(op, refresh=True)), False
        if answer.source == "network":
            self.alias(op, answer.data)
        data = answer.data
        if stale:
            data = {k: v for k, v in data.items() if k != "sources"}
            logger.info("%s: cached source URLs expired and were left out (refresh_sources=True fetches them)", op.path)
        return CompanyRecord(data, record_meta(answer, urls_expired=stale), derived_members(op, answer))

    def cached(self, company_ids: Sequence[str], realtime: bool = False) -> dict[str, CompanyRecord]:
        """The companies of ``company_ids`` (valid, distinct) the cache answers now, read in one batch, each with
        its ledger row as :meth:`get` records a hit; the others are left out."""
        found: dict[str, CompanyRecord] = {}
        for start in range(0, len(company_ids), CHUNK):  # a chunk at a time: few temporary objects live at once
            part = company_ids[start : start + CHUNK]
            ops = [company_op(cid, realtime, False) for cid in part]
            with gc_paused():  # many short-lived objects per answer beside the records already read
                for cid, op, answer in zip(part, ops, self.caller.cached_many(ops)):
                    if answer is not None:
                        found[cid] = self.record(op, answer)
        return found

    def alias(self, op: Operation, data: Any) -> None:
        """Make a fresh company answer serve every id it stands for (its current id and its former ids,
        before a move to another court), so a lookup by either is free from now on."""
        if not self.cache.enabled or ("realtime", "true") in op.params:
            return
        asked = op.path.rsplit("/", 1)[-1]
        others = []
        for other in sorted(record_company_ids(data) - {asked}):
            try:
                others.append(replace(op, path=f"/v1/company/{quote(validation.validate_company_id(other))}"))
            except ValidationError:
                continue
        self.caller.alias(op, others)


def derived_members(op: Operation, answer: Answer) -> frozenset[str]:
    """The derived members the answer's ``X-Regkit-Derived`` header names (:mod:`regkit.schema.derived`); none
    without the header. A header that cannot be read is logged and names none."""
    try:
        return parse_marks(answer.derived)
    except ValueError as exc:
        logger.warning("%s: the %s header is not readable, its marks are left out (%s)", op.path, DERIVED_HEADER, exc)
        return frozenset()
