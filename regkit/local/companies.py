"""``GET /v1/company/{company_id}``: one company, metered 10 credits (20 with ``realtime=true``)."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, request

from regkit.schema.interface import COMPANY_ID_PATTERN, PRICES

from .bodies import query_flag
from .context import current, spend
from .errors import ApiError, json_response

__all__ = ["bp", "check_company_id", "find_company"]

bp = Blueprint("companies", __name__)


def check_company_id(company_id: object, *, code: str = "invalid_company_id") -> str:
    """Return ``company_id`` if it is well-formed, else raise a 400 with ``code``."""
    if not isinstance(company_id, str) or not COMPANY_ID_PATTERN.match(company_id):
        raise ApiError(code, f"{company_id!r} is not a company id; the form is "
                             "DE-<HRB|HRA|PR|GnR|VR>-<court code>-<number>, e.g. DE-HRB-F1103-267645.")
    return company_id


def find_company(company_id: str, *, realtime: bool = False) -> dict[str, Any]:
    """The stored (or, with ``realtime``, the register's newest) record of a well-formed id; 404 if none.

    A company's former id (before a move to another register court, ``world.json`` ``former_ids``)
    resolves to the company under its current id.
    """
    world = current().catalog.world
    company_id = world.meta.get("former_ids", {}).get(company_id, company_id)
    record = world.realtime.get(company_id) if realtime else None
    record = record or world.companies.get(company_id)
    if record is None:
        raise ApiError("company_not_found", f"No company has the id {company_id}.")
    return record


@bp.get("/v1/company/<path:company_id>")
def get_company(company_id: str):
    """A CompanyV1; ``realtime=true`` shows pending register changes.

    ``export=true`` returns the company without source documents: ``sources`` stays present and empty, as
    every member of CompanyV1 that is not optional does (the live service's client requires it).
    """
    realtime, export = query_flag("realtime"), query_flag("export")
    record = find_company(check_company_id(company_id), realtime=realtime)
    context = current()
    sources = [] if export else [{"document_url": context.signer.url(request.host_url, d["id"])}
                                 for d in record.get("documents", ())]
    response = json_response({**record, "sources": sources})
    if realtime and context.config.realtime_latency:
        time.sleep(context.config.realtime_latency)
    spend(PRICES["company_realtime" if realtime else "company"])
    return response
