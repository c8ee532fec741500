"""HTML for the explorers: figures as inline SVG, frames as tables, messages.

Everything here returns a string, so the explorers put it into ``ipywidgets.HTML`` widgets whose
``value`` tests can read without a kernel. Figures are drawn on a ``matplotlib.figure.Figure`` of
their own (not pyplot): nothing is shown twice in Jupyter and nothing is left open.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

__all__ = ["LEVELS", "credits_html", "draw_html", "figure_html", "frame_html", "message_html", "percent_text"]

LEVELS = {"info": "#57606a", "ok": "#1a7f37", "warning": "#9a6700", "error": "#cf222e"}
"""Message kinds and their colours."""


def message_html(text: str, level: str = "info") -> str:
    """One escaped line of text in the colour of ``level`` (``info``, ``ok``, ``warning``, ``error``).

    Examples
    --------
    >>> message_html("a < b", "error")
    '<div class="regkit-message regkit-error" style="color:#cf222e">a &lt; b</div>'
    """
    colour = LEVELS[level]
    return f'<div class="regkit-message regkit-{level}" style="color:{colour}">{html.escape(text, quote=False)}</div>'


def frame_html(frame: pd.DataFrame, columns: Sequence[str] | None = None, max_rows: int = 200,
               empty: str = "nothing to show") -> str:  # fmt: skip
    """A frame as an HTML table (escaped, nulls as ``–``, at most ``max_rows`` rows), or ``empty``.

    Examples
    --------
    >>> frame_html(pd.DataFrame({"a": [1, None]}))  # doctest: +ELLIPSIS
    '<table class="dataframe regkit-table">...<td>–</td>...'
    >>> frame_html(pd.DataFrame({"a": []}), empty="no rows")
    '<div class="regkit-message regkit-info" style="color:#57606a">no rows</div>'
    """
    if columns is not None:
        frame = frame[[c for c in columns if c in frame]]
    if frame.empty:
        return message_html(empty)
    more = len(frame) - max_rows
    table = frame.head(max_rows).to_html(index=False, na_rep="–", border=0, classes="regkit-table", escape=True)
    return table + (message_html(f"… and {more} more rows") if more > 0 else "")


def percent_text(share: Any) -> str:
    """A share given as a fraction (0.5) as percent text (``"50 %"``), at most two decimals; ``–`` for null.

    Examples
    --------
    >>> percent_text(0.7273), percent_text(0.5), percent_text(None), percent_text(pd.NA)
    ('72.73 %', '50 %', '–', '–')
    """
    if share is None or pd.isna(share):
        return "–"
    text = f"{float(share) * 100:.2f}".rstrip("0").rstrip(".")
    return f"{text} %"


def figure_html(fig: Any) -> str:
    """A figure as inline SVG (deterministic: :func:`regkit.plot.style.figure_svg`)."""
    from regkit.plot.style import figure_svg

    svg = figure_svg(fig)
    return f'<div class="regkit-figure">{svg[svg.index("<svg") :]}</div>'


def draw_html(draw: Callable[[Any], Any], figsize: tuple[float, float] = (8.0, 4.0), nrows: int = 1) -> str:
    """Call ``draw(ax)`` on a new (non-pyplot) figure and return the figure as HTML.

    With ``nrows > 1``, ``draw`` receives the list of ``nrows`` Axes stacked with a shared x axis.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    axes = fig.subplots(nrows, 1, sharex=True, squeeze=False)[:, 0]
    draw(axes[0] if nrows == 1 else list(axes))
    return figure_html(fig)


def credits_html(client: Any) -> str:
    """Credits this client spent and saved, and what is left of its budget.

    Examples
    --------
    >>> class Budget: limit = remaining = None
    >>> class Client: credits_spent, credits_saved, budget = 20, 10, Budget()
    >>> credits_html(Client())
    '<div class="regkit-message regkit-info" style="color:#57606a">Credits spent: 20 · saved by the cache: 10</div>'
    """
    text = f"Credits spent: {client.credits_spent} · saved by the cache: {client.credits_saved}"
    budget = getattr(client, "budget", None)
    if budget is not None and getattr(budget, "limit", None) is not None:
        text += f" · budget left: {budget.remaining} of {budget.limit}"
    return message_html(text)
