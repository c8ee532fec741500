"""HTML for the explorers: figures as inline SVG, frames as tables, messages.

Everything here returns a string, so the explorers put it into ``ipywidgets.HTML`` widgets whose
``value`` tests can read without a kernel. Figures are drawn on a ``matplotlib.figure.Figure`` of
their own (not pyplot): nothing is shown twice in Jupyter and nothing is left open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.schema.formatting import percent_text

from .messages import LEVELS, message_html

if TYPE_CHECKING:
    from regkit.client.protocol import CreditCounts

__all__ = [
    "LEVELS",
    "credits_html",
    "draw_figure",
    "draw_html",
    "figure_html",
    "frame_html",
    "message_html",
    "percent_text",
    "source_html",
]


def frame_html(
    frame: pd.DataFrame, columns: Sequence[str] | None = None, max_rows: int = 200, empty: str = "nothing to show"
) -> str:
    """A frame as the explorers' table (formatted, one style): :func:`regkit.widgets.tables.table_html`.

    Examples
    --------
    >>> frame_html(pd.DataFrame({"a": [1, None]}))  # doctest: +ELLIPSIS
    '<style>...<table class="regkit-table">...<td class="regkit-num">–</td>...'
    >>> frame_html(pd.DataFrame({"a": []}), empty="no rows")
    '<div class="regkit-message regkit-info" style="color:#57606a">no rows</div>'
    """
    from .tables import table_html

    return table_html(frame, columns, empty=empty, max_rows=max_rows)


def figure_html(fig: Any) -> str:
    """A figure as inline SVG (deterministic: :func:`regkit.plot.style.figure_svg`)."""
    from regkit.plot.style import figure_svg

    svg = figure_svg(fig)
    svg = svg[svg.index("<svg") :].replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)  # fits its pane
    return f'<div class="regkit-figure">{svg}</div>'


def draw_figure(draw: Callable[[Any], Any], figsize: tuple[float, float] = (8.0, 4.0), nrows: int = 1) -> Any:
    """Call ``draw(ax)`` on a new (non-pyplot, constrained-layout) figure and return the figure.

    With ``nrows > 1``, ``draw`` receives the list of ``nrows`` Axes stacked with a shared x axis.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    axes = fig.subplots(nrows, 1, sharex=True, squeeze=False)[:, 0]
    draw(axes[0] if nrows == 1 else list(axes))
    return fig


def draw_html(draw: Callable[[Any], Any], figsize: tuple[float, float] = (8.0, 4.0), nrows: int = 1) -> str:
    """:func:`draw_figure`, as HTML (:func:`figure_html`)."""
    return figure_html(draw_figure(draw, figsize, nrows))


def credits_html(client: CreditCounts, spent: int | None = None, saved: int | None = None) -> str:
    """What an explorer spent and saved by the cache, then its client in all (explorers sharing a client share
    its bill), and what is left of the budget. Without ``spent`` the line counts the client's calls only.

    Examples
    --------
    >>> class Budget: limit = remaining = None
    >>> class Client: credits_spent, credits_saved, budget = 20, 10, Budget()
    >>> credits_html(Client(), 10, 0)  # doctest: +ELLIPSIS
    '<div ...>Credits spent by this explorer: 10 · saved by the cache: 0 · its client in all: 20 spent, 10 saved</div>'
    >>> credits_html(Client())  # doctest: +ELLIPSIS
    '<div ...>Credits spent by this client: 20 · saved by the cache: 10</div>'
    """
    if spent is None:
        text = f"Credits spent by this client: {client.credits_spent} · saved by the cache: {client.credits_saved}"
    else:
        text = (
            f"Credits spent by this explorer: {spent} · saved by the cache: {saved or 0} · its client in all: "
            f"{client.credits_spent} spent, {client.credits_saved} saved"
        )
    budget = getattr(client, "budget", None)
    if budget is not None and getattr(budget, "limit", None) is not None:
        text += f" · budget left: {budget.remaining} of {budget.limit}"
    return message_html(text) + source_html(client)


def source_html(client: Any) -> str:
    """The explorers' footer line naming the data and its licence, for a client on real data (an imported world,
    such as OffeneRegister's under CC BY 4.0); empty for the bundled synthetic world, which the client announces
    itself.

    Examples
    --------
    >>> class World: synthetic = False
    >>> class Target:
    ...     world = World()
    ...     def source(self): return "Contains data from OffeneRegister.de, CC BY 4.0"
    >>> class Client: target = Target()
    >>> source_html(Client())
    '<div class="regkit-source" style="color:#57606a;font-size:11px">Data: Contains data from OffeneRegister.de, CC BY 4.0</div>'
    """
    import html

    target = getattr(client, "target", None)
    world = getattr(target, "world", None)
    if target is None or world is None or getattr(world, "synthetic", True):
        return ""
    text = html.escape(target.source())
    return f'<div class="regkit-source" style="color:#57606a;font-size:11px">Data: {text}</div>'
