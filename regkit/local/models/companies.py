"""Companies: one company's record by id (a former id resolves), with presigned source URLs, metered.

A lookup costs 10 credits, 20 with ``realtime`` (the register's newest record, pending changes included,
which takes ``Config.realtime_latency`` longer).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["find_company", "get_company"]


def find_company(context: RegisterContext, company_id: str, *, realtime: bool = False) -> dict[str, Any]:
    """The stored (or, with ``realtime``, the register's newest) record of a well-formed id; 404 if none.

    A company's former id (before a move to another register court, ``world.json`` ``former_ids``)
    resolves to the company under its current id.
    """
    world = context.catalog.world
    company_id = world.meta.get("former_ids", {}).get(company_id, company_id)
    record = world.realtime.get(company_id) if realtime else None
    record = record or world.companies.get(company_id)
    if record is None:
        raise ApiError("company_not_found", f"No company has the id {company_id}.")
    return record


def get_company(
    context: RegisterContext, user: User, company_id: str, *, realtime: bool, export: bool, base_url: str
) -> Charged[dict[str, Any]]:
    """A CompanyV1 of a well-formed id; ``realtime`` shows pending register changes.

    ``export`` returns the company without source documents: ``sources`` stays present and empty, as
    every member of CompanyV1 that is not optional does (the live service's client requires it). Source
    URLs are presigned below ``base_url``.
    """
    record = find_company(context, company_id, realtime=realtime)
    sources = (
        [] if export else [{"document_url": context.signer.url(base_url, d["id"])} for d in record.get("documents", ())]
    )
    company = {**record, "sources": sources}
    if realtime and context.config.realtime_latency:
        time.sleep(context.config.realtime_latency)
    charged = spend(context, user, PRICES["company_realtime" if realtime else "company"])
    return Charged(company, charged.credits, charged.remaining)
