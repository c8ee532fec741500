"""Wire the builders into the client's records (``CompanyRecord.history(...)``, ``_repr_html_``, ...).

The client defines the hook names (``regkit.client.records.FRAME_HOOKS``) and looks builders up lazily;
this module hands over every builder whose hook the client knows. :data:`HOOKS` also lists hooks the client
does not define yet — they are registered as soon as it does, without a change here. What is registered
is a thin function that imports the builder's module on its first call, so registering (on
``import regkit.frames``) loads neither pandas nor the builders.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

__all__ = ["HOOKS", "builder", "register"]

logger = logging.getLogger("regkit.frames")

HOOKS: dict[str, str] = {
    # defined by the client today
    "company.to_dataframe": "companies:companies_frame",
    "company.history": "histories:history",
    "companies.to_dataframe": "companies:companies_frame",
    "insolvency_page.to_dataframe": "insolvency:insolvency_results",
    "insolvency.to_dataframe": "insolvency:proceedings",
    "insolvency.events": "insolvency:events",
    "extract.to_dataframe": "extracts:beneficial_owners",
    # asked of the client: record methods of the same name (see the frames report)
    "company.repr_html": "card:company_card_html",
    "company.representatives": "roles:representatives",
    "company.indicators": "financials:indicators",
    "company.links": "relations:links",
    "company.documents": "details:documents",
    "company.insolvency_summaries": "details:insolvency_summaries",
    "company.industry_codes": "details:industry_codes",
    "company.contact": "details:contact",
    "company.as_of": "snapshot:as_of",
    "company.panel": "panels:panel",
    "companies.history": "histories:history",
    "companies.representatives": "roles:representatives",
    "companies.indicators": "financials:indicators",
    "companies.links": "relations:links",
    "companies.panel": "panels:panel",
}
"""Hook name → ``"module:function"`` of :mod:`regkit.frames`; every builder takes the record (or batch)
first, then the method's arguments."""


def builder(target: str) -> Callable[..., Any]:
    """The builder ``"module:function"`` of :mod:`regkit.frames` (imports the module)."""
    module, name = target.split(":")
    return getattr(importlib.import_module(f"regkit.frames.{module}"), name)


def _deferred(target: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return builder(target)(*args, **kwargs)

    call.__name__ = call.__qualname__ = target.split(":")[1]
    call.__doc__ = f"Calls regkit.frames.{target.replace(':', '.')} (imported on first use)."
    return call


def register() -> list[str]:
    """Register the builders the client knows; return the hook names registered (none without a client)."""
    try:
        from regkit.client.records import FRAME_HOOKS, register_frames
    except ImportError:  # the analysis layer works on plain dicts without the client
        return []
    known = {name: _deferred(target) for name, target in HOOKS.items() if name in FRAME_HOOKS}
    register_frames(known)
    logger.debug("frames hooks registered: %s", sorted(known))
    return sorted(known)
