"""Figures of register data: matplotlib drawings that take ``ax=None`` and return the Axes.

Names are imported on first use (a name → module map), so ``import regkit.plot`` loads neither
matplotlib nor the modules behind it. Add a plot by adding its name to :data:`_EXPORTS`.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name → module that defines it.
_EXPORTS = {
    "group": "regkit.plot.group",
    "indicators": "regkit.plot.financials",
    "ratios": "regkit.plot.financials",
    "insolvency_trend": "regkit.plot.insolvency",
    "insolvency_timeline": "regkit.plot.insolvency",
    "trend_counts": "regkit.plot.insolvency",
    "timeline": "regkit.plot.history",
    "timeline_bars": "regkit.plot.history",
    "deterministic": "regkit.plot.style",
    "figure_svg": "regkit.plot.style",
    "EuroFormatter": "regkit.plot.style",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'regkit.plot' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # after the import, which bound a submodule of the same name, if any
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
