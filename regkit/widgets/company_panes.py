"""The table tabs of the explorers (company and person): a line of HTML above a table that is static when the
list is short and sortable when it is long.

A short list (at most :data:`LONG` rows) reads best as a plain table (:func:`regkit.widgets.tables.table_html`):
no controls, printed as shown. A long one — the representatives of a big AG, a person's sixteen positions,
a company's documents — needs sorting, searching and pages (:func:`regkit.widgets.tables.sortable_table`).
Both are formatted the same way, in the one table style of the explorers.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import ipywidgets as widgets
import pandas as pd

from .render import message_html
from .tables import sortable_table, table_html

__all__ = ["LONG", "TablePane"]

LONG = 10
"""A list of more rows than this is shown as a sortable table."""


class TablePane(widgets.VBox):
    """``head`` (an ``HTML`` widget: counts, messages and a short list's static table) above ``table``, the
    sortable table of a long list (``itables.widget.ITable``; ``None`` while the list is short).

    Examples
    --------
    >>> pane = TablePane()
    >>> pane.show("<b>2 rows</b>", pd.DataFrame({"a": [1, 2]}), ["a"])
    >>> pane.table is None and "<table" in pane.head.value
    True
    >>> pane.show("", pd.DataFrame({"a": range(11)}), ["a"])
    >>> pane.table.df["A"].tolist()[-1], "<table" in pane.head.value
    ('10', False)
    """

    def __init__(self, **kwargs: Any) -> None:
        self.head = widgets.HTML()
        self.table: Any = None
        super().__init__([self.head], **kwargs)

    def show(
        self,
        head: str,
        frame: pd.DataFrame,
        columns: Sequence[str] | None = None,
        *,
        empty: str = "nothing to show",
        on_select: Callable[[int | None], Any] | None = None,
        sortable: bool | None = None,
        money: Collection[str] | None = None,
        percent: Collection[str] | None = None,
    ) -> None:
        """Show ``head`` and ``frame``: a static table up to :data:`LONG` rows, a sortable one beyond (or as
        ``sortable`` says; a table whose rows are clicked, ``on_select``, is always sortable)."""
        long = len(frame) > LONG if sortable is None else sortable
        if not frame.empty and (long or on_select is not None):
            self.table = sortable_table(frame, columns, on_select=on_select, money=money, percent=percent)
            self.head.value = head
            self.children = [self.head, self.table]
        else:
            self.message(head + table_html(frame, columns, empty=empty, money=money, percent=percent))

    def message(self, text: str) -> None:
        """Show only ``text`` (HTML): no table."""
        self.table = None
        self.head.value = text
        self.children = [self.head]

    def clear(self, text: str = "") -> None:
        """Show nothing (or a message, plain text)."""
        self.message(message_html(text) if text else "")
