"""The hook between records and the analysis layer: a registry of frame builders.

``regkit.frames`` sits above the client, so the client must never import it at module level.
Instead ``regkit.frames`` calls :func:`register_frames` when it is imported; a record method looks
its builder up here and, if it is missing, imports ``regkit.frames`` once (at call time) and looks
again.  ``import regkit.client`` therefore stays free of pandas and of the analysis layer.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping
from typing import Any

from .errors import RegkitError

__all__ = ["FRAME_HOOKS", "register_frames", "builder"]

#: Hook names a frames provider may register, with the call each serves.
FRAME_HOOKS = {
    "company.to_dataframe": "CompanyRecord.to_dataframe()",
    "company.history": "CompanyRecord.history(field)",
    "companies.to_dataframe": "CompanyBatch.to_dataframe()",
    "insolvency_page.to_dataframe": "InsolvencySearchPage.to_dataframe()",
    "insolvency.to_dataframe": "InsolvencyRecord.to_dataframe()",
    "insolvency.events": "InsolvencyRecord.events()",
    "extract.to_dataframe": "ExtractRecord.to_dataframe()",
    "company.repr_html": "CompanyRecord._repr_html_() (the card Jupyter shows)",
    "company.representatives": "CompanyRecord.representatives()",
    "company.indicators": "CompanyRecord.indicators(unit, wide)",
    "company.links": "CompanyRecord.links()",
    "company.documents": "CompanyRecord.documents()",
    "company.insolvency_summaries": "CompanyRecord.insolvency_summaries()",
    "company.industry_codes": "CompanyRecord.industry_codes()",
    "company.contact": "CompanyRecord.contact()",
    "company.as_of": "CompanyRecord.as_of(date)",
    "company.panel": "CompanyRecord.panel(years, unit)",
    "companies.history": "CompanyBatch.history(field)",
    "companies.representatives": "CompanyBatch.representatives()",
    "companies.indicators": "CompanyBatch.indicators(unit, wide)",
    "companies.links": "CompanyBatch.links()",
    "companies.panel": "CompanyBatch.panel(years, unit)",
}

_FRAMES_MODULE = "regkit.frames"
_registry: dict[str, Callable[..., Any]] = {}
_registry_lock = threading.Lock()


def register_frames(builders: Mapping[str, Callable[..., Any]]) -> None:
    """Register the analysis layer's builders (called by ``regkit.frames`` on import).

    Parameters
    ----------
    builders : mapping of str to callable
        Hook name (a key of :data:`FRAME_HOOKS`) to ``builder(record, *args, **kwargs)``.
    """
    unknown = sorted(set(builders) - set(FRAME_HOOKS))
    if unknown:
        raise ValueError(f"unknown frame hooks {unknown}; known: {sorted(FRAME_HOOKS)}")
    with _registry_lock:
        _registry.update(builders)


def builder(hook: str) -> Callable[..., Any]:
    """The registered builder of ``hook``, importing ``regkit.frames`` once if needed."""
    builder = _registry.get(hook)
    if builder is None:
        try:
            importlib.import_module(_FRAMES_MODULE)
        except ImportError as exc:
            raise RegkitError(
                f"{FRAME_HOOKS[hook]} needs {_FRAMES_MODULE}, which could not be imported ({exc})",
                suggestion="install regkit completely, or use .raw for the JSON",
            ) from exc
        builder = _registry.get(hook)
    if builder is None:
        raise RegkitError(
            f"{_FRAMES_MODULE} registers no builder for {hook!r} ({FRAME_HOOKS[hook]})",
            suggestion="use .raw for the JSON meanwhile",
        )
    return builder
