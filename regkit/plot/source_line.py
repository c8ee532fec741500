"""The one-line source every regkit figure carries at its bottom-left ("regkit local register — synthetic data").

How a plot learns its source, first match wins:

1. ``source=`` given as a string: that line (``None`` or ``False``: no line).
2. The data says it: a frame's ``df.attrs["regkit_source"]``, a graph's ``G.graph["source"]`` (or the first of
   a list of them that has one). Records do not carry a source; figures of records take step 3 or 4.
3. The session's default, set with :func:`set_default_source` — a string, or a client, whose
   ``client.target.source()`` knows the line (the live service with the day it was read, the CC BY attribution of
   an imported OffeneRegister world).
4. The client opened last and still open in this process (:func:`regkit.client.transport.target.latest_source`): a figure
   drawn in a session on the live service says so, not "synthetic". With several clients open on different
   sources, set the line with ``source=`` or :func:`set_default_source`.
5. :data:`DEFAULT_SOURCE`: "regkit local register — synthetic data", what a client without a key uses.

The line is the figure's ``supxlabel`` (constrained layout makes room for it), left-aligned, with gid
:data:`SOURCE_GID`. A figure holds it once: a second plot drawn on another Axes of the same figure (``ax=``) adds
its source only when it differs ("A; B"). A line longer than the figure is wide is wrapped, never cut (the
Text's ``full_text`` keeps it in one piece). On a figure without a layout engine the line hangs just below the
figure's bottom-left corner, the figure keeping its size: saved with ``bbox_inches="tight"`` (as Jupyter and
:func:`~regkit.plot.style.figure_svg` do) it is in the picture.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Mapping
from typing import Any

from regkit.errors import ArgumentError, ValidationError

__all__ = [
    "DEFAULT_SOURCE",
    "SOURCE_GID",
    "SOURCE_FONT_SIZE",
    "set_default_source",
    "default_source",
    "source_of",
    "source_text",
    "add_source_line",
    "source_line",
]

#: The source line when neither the call, the data nor the session says otherwise.
DEFAULT_SOURCE = "regkit local register — synthetic data"
#: The gid of the source line's Text artist (find it with ``[t for t in fig.texts if t.get_gid() == SOURCE_GID]``).
SOURCE_GID = "regkit-source"
#: Font size of the source line (points): the smallest size regkit's figures use.
SOURCE_FONT_SIZE = 9.0

_session: dict[str, str | None] = {"source": None}


def _client_source(value: Any) -> str | None:
    from regkit.client.transport.target import Target, source_line_of

    target = getattr(value, "target", None)
    return source_line_of(target) if isinstance(target, Target) else None


def set_default_source(source: Any) -> str | None:
    """Set the source line of later figures whose data does not say where it comes from.

    Parameters
    ----------
    source : str, regkit.Client or None
        The line; a client (its ``client.target.source()``, with today's date for the live service); ``None``
        goes back to :data:`DEFAULT_SOURCE`.

    Returns
    -------
    str or None
        The line set (``None`` after a reset).

    Examples
    --------
    >>> set_default_source("openregister.de, retrieved 2026-11-27")
    'openregister.de, retrieved 2026-11-27'
    >>> default_source()
    'openregister.de, retrieved 2026-11-27'
    >>> set_default_source(None); default_source()
    'regkit local register — synthetic data'
    """
    if source is None:
        _session["source"] = None
        return None
    text = source if isinstance(source, str) else _client_source(source)
    if text is None:
        raise ValidationError(
            f"set_default_source takes a string, a regkit.Client or None, not {type(source).__name__}: "
            "pass the line itself, e.g. set_default_source('openregister.de, retrieved 2026-11-27')"
        )
    _session["source"] = text
    return text


def default_source() -> str:
    """The session's source line (:func:`set_default_source`), else the open client's, else
    :data:`DEFAULT_SOURCE`."""
    if _session["source"]:
        return _session["source"]
    # no client module loaded: no client was ever opened here (and plotting does not import the client)
    target_module = sys.modules.get("regkit.client.transport.target")
    latest = target_module.latest_source() if target_module is not None else None
    return latest or DEFAULT_SOURCE


def _said(data: Any, depth: int = 0) -> str | None:
    """The source ``data`` carries, if any (frames, graphs, and lists/batches/mappings holding them)."""
    if data is None or depth > 2:
        return None
    attrs = getattr(data, "attrs", None)
    if isinstance(attrs, Mapping) and attrs.get("regkit_source"):
        return str(attrs["regkit_source"])
    graph = getattr(data, "graph", None)
    if isinstance(graph, Mapping) and graph.get("source"):
        return str(graph["source"])
    if isinstance(data, str | bytes) or hasattr(data, "raw"):
        return None
    if isinstance(data, Mapping):
        if "id" in data:  # one CompanyV1 / proceeding dict
            return None
        items: Any = list(data.values())[:5]
    elif isinstance(data, list | tuple) or hasattr(data, "__len__") and hasattr(data, "__getitem__"):
        try:
            items = [data[i] for i in range(min(len(data), 5))]
        except (TypeError, KeyError, IndexError):
            return None
    else:
        return None
    return next((s for s in (_said(item, depth + 1) for item in items) if s), None)


def source_of(*data: Any) -> str:
    """The source line of a figure drawn from ``data``: what the data says, else the session's default.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"a": [1]})
    >>> source_of(frame)
    'regkit local register — synthetic data'
    >>> frame.attrs["regkit_source"] = "openregister.de, retrieved 2026-11-27"
    >>> source_of(frame)
    'openregister.de, retrieved 2026-11-27'
    """
    return next((s for s in (_said(d) for d in data) if s), None) or default_source()


def source_text(source: Any, *data: Any) -> str | None:
    """The line a plot's ``source=`` argument asks for: a string itself, ``True`` from ``data``, ``None``/``False``
    none.

    Raises
    ------
    regkit.errors.ValidationError
        For anything else (with what to pass instead).
    """
    if source is None or source is False:
        return None
    if source is True:
        return source_of(*data)
    if isinstance(source, str):
        return source or None
    text = _client_source(source)
    if text is None:
        raise ValidationError(
            f"source must be a string, True (from the data), None or False (no line), not {type(source).__name__}: "
            "pass source='…' to set the line, source=None to leave it out"
        )
    return text


def source_line(fig: Any) -> Any:
    """The figure's source line (a matplotlib ``Text``), or ``None``."""
    return next((t for t in fig.texts if t.get_gid() == SOURCE_GID), None)


def add_source_line(ax_or_fig: Any, source: Any = True, *data: Any, inside: bool = False) -> Any:
    """Write the source line at the bottom-left of the figure of ``ax_or_fig`` (once per figure).

    Parameters
    ----------
    ax_or_fig : matplotlib Axes or Figure
    source : str, bool or None
        As a plot's ``source=``: a string is the line, ``True`` the line ``data`` carries (:func:`source_of`),
        ``None``/``False`` no line.
    *data
        What the figure was drawn from.
    inside : bool
        On a figure without a layout engine, write the line inside the figure's bottom-left corner, in room its
        plot left there (a plain ``savefig`` keeps it), instead of just below the figure.

    Returns
    -------
    matplotlib.text.Text or None
        The source line (gid :data:`SOURCE_GID`), or ``None`` when none was asked for.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, (left, right) = plt.subplots(1, 2, layout="constrained")
    >>> add_source_line(left, "regkit local register — synthetic data").get_text()
    'regkit local register — synthetic data'
    >>> add_source_line(right, True).get_text()  # the same line: the figure keeps one
    'regkit local register — synthetic data'
    >>> sum(t.get_gid() == SOURCE_GID for t in fig.texts)
    1
    """
    from .inputs import describe, is_figure

    fig = getattr(ax_or_fig, "figure", None) or ax_or_fig
    if not is_figure(fig) and is_figure(getattr(fig, "figure", None)):  # a SubFigure: the line is its figure's
        fig = fig.figure
    if not is_figure(fig):
        raise ArgumentError(
            f"add_source_line needs a matplotlib Axes or Figure; got {describe(ax_or_fig)}",
            suggestion="pass the Axes a plot returned (or its ax.figure)",
        )
    text = source_text(source, *data)
    if text is None:
        return None
    existing = source_line(fig)
    if existing is not None:
        parts = getattr(existing, "full_text", existing.get_text()).split("; ")
        if text not in parts:
            whole = "; ".join([*parts, text])
            existing.full_text = whole
            existing.set_text(_wrap(whole, fig))
        return existing
    style = {"ha": "left", "fontsize": SOURCE_FONT_SIZE, "color": "#555555", "gid": SOURCE_GID}
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    # constrained layout makes room for a supxlabel (no y: it places it); tight layout (fig.tight_layout() leaves
    # its engine on the figure) does not, so there the line hangs below like on a figure without an engine
    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        line = fig.supxlabel(_wrap(text, fig), x=0.01, **style)
    elif inside:
        width, height = fig.get_size_inches()
        line = fig.text(0.08 / width, 0.06 / height, _wrap(text, fig), va="bottom", **style)
    else:
        line = _below(fig, _wrap(text, fig), style)
    line.full_text = text
    return line


def _wrap(text: str, fig: Any) -> str:
    """``text`` in lines as wide as the figure (a long attribution, such as a CC BY notice, is not cut)."""
    width = max(20, int(fig.get_figwidth() * 72 * 0.97 / (0.56 * SOURCE_FONT_SIZE)))
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def _below(fig: Any, text: str, style: dict[str, Any]) -> Any:
    """On a figure without a layout engine the line hangs just below its bottom-left corner: the figure and its Axes
    keep their size and place (a caller's figure is the caller's), and a tight bounding box — what Jupyter and
    :func:`~regkit.plot.style.figure_svg` save — takes it in."""
    width, height = fig.get_size_inches()
    return fig.text(
        0.08 / width, -0.04 / height, text, va="top", **style
    )  # figure coordinates: a tight save moves them
