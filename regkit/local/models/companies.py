"""Companies: one company's record by id (a former id resolves), with presigned source URLs, metered.

A lookup costs 10 credits, 20 with ``realtime`` (the register's newest record, pending changes included,
which takes ``Config.realtime_latency`` longer).

A world imported from OffeneRegister derives some members of its records (dates the source lacks, ...);
:func:`derived_marks` gives them for the ``X-Regkit-Derived`` header of the answer (:mod:`regkit.schema.derived`),
read from the store's ``derived`` table.
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

__all__ = ["derived_marks", "find_company", "get_company"]


def find_company(context: RegisterContext, company_id: str, *, realtime: bool = False) -> dict[str, Any]:
    """The stored (or, with ``realtime``, the register's newest) record of a well-formed id; 404 if none.

    A company's former id (before a move to another register court: ``world.json`` ``former_ids``, or a move
    since the world's ``as_of``) resolves to the company under its current id.
    """
    day = context.world_day()
    company_id = day.resolve(company_id)
    record = day.realtime(company_id) if realtime else None
    record = record or day.company(company_id)
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


def derived_marks(context: RegisterContext, company: dict[str, Any], *, realtime: bool = False) -> str | None:
    """The derived members of the ``company`` record :func:`get_company` answered, as the ``X-Regkit-Derived``
    header's value; ``None`` when it has none (every world but an imported one), or when the answer is the
    register's newest record (``realtime``: a record of the world's ``realtime`` file, which no import derives)."""
    world = context.catalog.world
    company_id = company["id"]
    if realtime and company_id in world.realtime:
        return None
    return world.derived.get(company_id)
