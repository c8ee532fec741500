"""What a reader sees in an explorer, read back for the widget tests: the tables (static HTML or sortable itables
widgets) as rows of cell text, and every visible text of a widget tree (to look for UUIDs or raw codes)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
"""A UUID anywhere in a text."""


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> list[list[dict[str, str]]]:
    """Every ``<table>`` of ``html`` as rows of ``{heading: cell text}`` (the first row is the heading)."""
    parser = _Tables()
    parser.feed(html)
    return [[dict(zip(t[0], row)) for row in t[1:]] for t in parser.tables if t]


def table_rows(pane: Any) -> list[dict[str, str]]:
    """The rows a ``TablePane`` shows: of its sortable table (``pane.table.df``) or of the static table in its
    ``head`` (the last table there)."""
    if pane.table is not None:
        return [{k: str(v) for k, v in row.items()} for row in pane.table.df.to_dict("records")]
    tables = html_tables(pane.head.value)
    return tables[-1] if tables else []


def visible_text(widget: Any) -> str:
    """The HTML of every ``HTML`` widget and the cells of every itables widget under ``widget``, joined."""
    parts: list[str] = []
    df = getattr(widget, "df", None)
    if df is not None:
        parts.append(" ".join(map(str, df.columns)) + " " + " ".join(str(v) for v in df.to_numpy().ravel()))
    value = getattr(widget, "value", None)
    if isinstance(value, str) and widget.__class__.__name__ == "HTML":
        parts.append(value)
    for child in getattr(widget, "children", ()):
        parts.append(visible_text(child))
    return "\n".join(p for p in parts if p)
