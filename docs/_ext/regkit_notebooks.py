"""How the site shows the notebooks' widgets: by what each stored beside its view, not by the widget JavaScript.

An explorer stores a static HTML snapshot of itself beside its widget view (``text/html``,
:mod:`regkit.widgets.static`). The view needs the ipywidgets JavaScript, which myst-nb loads from a CDN and which
shows a blank cell where it cannot load or does not know a widget. ``docs/conf.py`` copies each notebook without
its stored widget state (:func:`without_widget_state`) and tells myst-nb to skip the widget mime types, so the
snapshot (or another widget's image or text) is what the page shows.
"""

from __future__ import annotations

import json

__all__ = ["WIDGET_MIME_TYPES", "without_widget_state"]

WIDGET_MIME_TYPES = ("application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json")
"""The outputs only the widget JavaScript can draw (skipped by the site)."""


def without_widget_state(data: bytes) -> bytes:
    """The notebook (``.ipynb`` bytes) without ``metadata.widgets``; unchanged bytes when it has none.

    Examples
    --------
    >>> without_widget_state(b'{"cells": [], "metadata": {"widgets": {"state": 1}}}')
    b'{\\n "cells": [],\\n "metadata": {}\\n}\\n'
    >>> without_widget_state(b'{"metadata": {}}')
    b'{"metadata": {}}'
    """
    notebook = json.loads(data)
    if "widgets" not in notebook.get("metadata", {}):
        return data
    del notebook["metadata"]["widgets"]
    return (json.dumps(notebook, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
