"""Wire the builders into the client's records (``CompanyRecord.history(...)``, ``_repr_html_``, ...).

The client defines the hook names (``regkit.client.records.FRAME_HOOKS``) and looks builders up lazily;
this module hands over every builder whose hook the client knows. :data:`HOOKS` also lists hooks the client
does not define yet — they are registered as soon as it does, without a change here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from .card import company_card_html
from .companies import companies_frame
from .details import contact, documents, industry_codes, insolvency_summaries
from .extracts import beneficial_owners
from .financials import indicators
from .histories import history
from .insolvency import events, insolvency_results, proceedings
from .panels import panel
from .relations import links
from .roles import representatives
from .snapshot import as_of

__all__ = ["HOOKS", "register"]

logger = logging.getLogger("regkit.frames")

HOOKS: dict[str, Callable[..., Any]] = {
    # defined by the client today
    "company.to_dataframe": companies_frame,
    "company.history": history,
    "companies.to_dataframe": companies_frame,
    "insolvency_page.to_dataframe": insolvency_results,
    "insolvency.to_dataframe": proceedings,
    "insolvency.events": events,
    "extract.to_dataframe": beneficial_owners,
    # asked of the client: record methods of the same name (see the frames report)
    "company.repr_html": company_card_html,
    "company.representatives": representatives,
    "company.indicators": indicators,
    "company.links": links,
    "company.documents": documents,
    "company.insolvency_summaries": insolvency_summaries,
    "company.industry_codes": industry_codes,
    "company.contact": contact,
    "company.as_of": as_of,
    "company.panel": panel,
    "companies.history": history,
    "companies.representatives": representatives,
    "companies.indicators": indicators,
    "companies.links": links,
    "companies.panel": panel,
}
"""Hook name → builder; every builder takes the record (or batch) first, then the method's arguments."""


def register() -> list[str]:
    """Register the builders the client knows; return the hook names registered (none without a client)."""
    try:
        from regkit.client.records import FRAME_HOOKS, register_frames
    except ImportError:  # the analysis layer works on plain dicts without the client
        return []
    known = {name: builder for name, builder in HOOKS.items() if name in FRAME_HOOKS}
    register_frames(known)
    logger.debug("frames hooks registered: %s", sorted(known))
    return sorted(known)
