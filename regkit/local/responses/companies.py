"""``GET /v1/company/{company_id}``: read the id and the ``realtime`` / ``export`` flags, answer the company."""

from __future__ import annotations

from flask import Response, request

from regkit.schema.derived import HEADER as DERIVED_HEADER
from regkit.schema.interface import COMPANY_ID_PATTERN

from ..exceptions import ApiError
from ..models import companies
from .bodies import query_flag
from .context import charged, current, current_user
from .render import json_response

__all__ = ["get_company", "check_company_id"]


def check_company_id(company_id: object, *, code: str = "invalid_company_id") -> str:
    """Return ``company_id`` if it is well-formed, else raise a 400 with ``code``."""
    if not isinstance(company_id, str) or not COMPANY_ID_PATTERN.match(company_id):
        raise ApiError(
            code,
            f"{company_id!r} is not a company id; the form is "
            "DE-<HRB|HRA|PR|GnR|VR>-<court code>-<number>, e.g. DE-HRB-F1103-267645.",
        )
    return company_id


def get_company(company_id: str) -> Response:
    """A CompanyV1, 10 credits (20 with ``realtime=true``); ``export=true`` leaves out the source documents.

    The record's derived members, where the world derived some (one imported from OffeneRegister), are in the
    ``X-Regkit-Derived`` header (:mod:`regkit.schema.derived`); no header where it has none."""
    realtime, export = query_flag("realtime"), query_flag("export")
    company_id = check_company_id(company_id)
    context = current()
    company = charged(
        companies.get_company(
            context, current_user(), company_id, realtime=realtime, export=export, base_url=request.host_url
        )
    )
    marks = companies.derived_marks(context, company, realtime=realtime)
    return json_response(company, headers={DERIVED_HEADER: marks} if marks else None)
