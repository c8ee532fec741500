"""The company explorer's **changes** tab: what changed between the answers the cache kept about the company.

When an answer is fetched again and differs, the cache keeps the older one as a version
(:meth:`regkit.client.Client.changes`); this tab shows the changes they hold — a timeline
(:func:`regkit.plot.changes_timeline`) and a table — for 0 credits. Its button fetches the company again and
compares (the price of a lookup, said on the button; the answer it replaces becomes a version): how a reader checks
"has anything changed since I last looked?".
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from regkit.errors import RegkitError

from .messages import error_text
from .render import draw_figure, figure_html, frame_html, message_html

__all__ = ["ChangesPane", "changes_figure", "changes_html", "changes_rows"]

_PRICE = 10


def changes_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The table of the tab: one row per change, newest first — ``date``, ``category``, ``what`` (in words),
    ``before``, ``after``, ``seen`` (when the newer answer was fetched)."""
    from regkit.plot.changes import kind_label

    records = frame.to_dict("records")
    table = pd.DataFrame(
        {
            "date": frame["date"],
            "category": frame["category"].astype(str),
            "what": [kind_label(r) for r in records],
            "before": [_text(r["before"]) for r in records],
            "after": [_text(r["after"]) for r in records],
            "seen": frame["fetched_after"] if "fetched_after" in frame.columns else pd.NaT,
        }
    )
    return table.sort_values(["seen", "date"], ascending=False, na_position="last").reset_index(drop=True)


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return str(value)


def changes_html(client: Any, company_id: str, name: str) -> str:
    """The tab's HTML: the timeline and the table of what the cached versions of the company hold, or what to do
    to have some (0 credits)."""
    try:
        frame = client.changes(company_id)
    except (RegkitError, ValueError) as exc:
        return message_html(f"changes: {error_text(exc)}", "error")
    if frame.empty:
        return message_html(
            f"No changes of {name} known yet: the cache holds one answer about it. Fetching it again (the button "
            "below) keeps this one as a version, and anything that changed shows here.",
            "info",
        )

    head = message_html(f"{len(frame)} change(s) of {name} between the answers the cache kept (0 credits).", "ok")
    return head + figure_html(changes_figure(frame, company_id, name)) + frame_html(changes_rows(frame))


def changes_figure(frame: pd.DataFrame, company_id: str, name: str) -> Any:
    """The changes tab's chart: :func:`regkit.plot.changes_timeline` of ``frame`` (``client.changes``) on a
    figure 9.5 in wide, as tall as its rows (at most 40)."""
    from regkit.plot.changes import changes_timeline

    def draw(ax: Any) -> None:
        changes_timeline(frame, ax=ax, names={company_id: name}, source=True)

    return draw_figure(draw, (9.5, max(2.4, 0.3 * min(len(frame), 40) + 1.6)))


class ChangesPane(widgets.VBox):
    """The tab: the button that fetches the company again, and what changed."""

    def __init__(self) -> None:
        self.button = widgets.Button(
            description="Fetch again and compare",
            disabled=True,
            tooltip=f"GET /v1/company/{{id}} again ({_PRICE} credits); the answer it replaces is kept as a version",
            layout=widgets.Layout(width="auto"),
        )
        self.view = widgets.HTML()
        super().__init__([self.button, self.view])

    def clear(self, text: str = "") -> None:
        """Empty the tab (``text``: what to say instead)."""
        self.view.value = message_html(text) if text else ""
        self.button.disabled = True

    def show(self, client: Any, company_id: str, name: str) -> None:
        """Show what the cache's versions of ``company_id`` hold; enable the button (its price on it)."""
        self.view.value = changes_html(client, company_id, name)
        self.button.description = f"Fetch again and compare ({_PRICE} credits)"
        self.button.disabled = False
