"""Explorers for Jupyter: ipywidgets over the client, the frames, the graph and the plots.

Each explorer is an ``ipywidgets.VBox`` (it displays itself) whose parts are attributes, so code and
tests can drive it: set ``explorer.company_id.value``, call ``explorer.load_button.click()``, read
``explorer.status.value``. The logic lives in plain functions (``company_logic``,
``insolvency_logic``, ``group_logic``) that return data or HTML; figures are inline SVG in ``HTML``
widgets, long tables sortable with clickable rows (itables), so everything works — and is tested — without
a kernel. Every button that sends a request says its cost ("Search (10 credits)", "0 credits, cached"), and
a change of input clears or greys out what no longer answers it.

Displayed, an explorer also carries a static HTML snapshot of what it shows (``regkit.widgets.static``):
JupyterLab shows it where widgets cannot render — a notebook opened fresh, untrusted, without a kernel — and
``jupyter nbconvert --to html`` exports it (the stored notebooks keep no widget state, so nbconvert never picks a
widget view that needs the widget manager from a CDN). :func:`save_html` writes it as a page of its own, offline;
``ipywidgets.embed.embed_minimal_html`` would load the widget manager from CDNs.

======================  ==================================================================
CompanyExplorer         one company: summary, histories, representatives, indicators, ...
InsolvencyExplorer      search proceedings with filters and pages, the cost shown first
GroupExplorer           crawl a group (estimate first), draw it on a date, list interlocks
======================  ==================================================================

Names are imported on first use, so ``import regkit.widgets`` loads neither ipywidgets nor matplotlib.
"""

from __future__ import annotations

from regkit._lazy import lazy_exports

#: Public name → module that defines it.
_EXPORTS = {
    "CompanyExplorer": "regkit.widgets.company",
    "InsolvencyExplorer": "regkit.widgets.insolvency",
    "GroupExplorer": "regkit.widgets.group",
    "PersonExplorer": "regkit.widgets.person",
    "save_html": "regkit.widgets.static",
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
