"""Explorers for Jupyter: ipywidgets over the client, the frames, the graph and the plots.

Each explorer is an ``ipywidgets.VBox`` (it displays itself) whose parts are attributes, so code and
tests can drive it: set ``explorer.company_id.value``, call ``explorer.load_button.click()``, read
``explorer.status.value``. The logic lives in plain functions (``company_logic``,
``insolvency_logic``, ``group_logic``) that return data or HTML; figures are inline SVG in ``HTML``
widgets, so everything works — and is tested — without a kernel.

======================  ==================================================================
CompanyExplorer         one company: summary, histories, representatives, indicators, ...
InsolvencyExplorer      search proceedings with filters and pages, the cost shown first
GroupExplorer           crawl a group (estimate first), draw it on a date, list interlocks
======================  ==================================================================

Names are imported on first use, so ``import regkit.widgets`` loads neither ipywidgets nor matplotlib.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name → module that defines it.
_EXPORTS = {
    "CompanyExplorer": "regkit.widgets.company",
    "InsolvencyExplorer": "regkit.widgets.insolvency",
    "GroupExplorer": "regkit.widgets.group",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'regkit.widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
