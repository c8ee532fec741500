"""The small HTML summary Jupyter shows for a record: a bold title, a few facts, at most one short table.

Every record of the client (a cost estimate, a batch, a search page, an owners list, the account's credits ...)
displays through :func:`summary_html`, so they all look alike: a title line in bold (with an optional status
badge), a grey line under it, a definition table of facts, and a table of at most :data:`MAX_ROWS` rows
followed by "… and N more".  Callers pass plain text; everything is escaped here, once.  The styles are inline
(not a ``<style>`` element) so that the summary keeps its look in an untrusted notebook, whose HTML JupyterLab
sanitises; text takes the theme's colour and lines and stripes are translucent grey, so a dark theme reads too.  The look follows the explorers' table style (:data:`regkit.widgets.tables.TABLE_CSS`).
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from regkit.schema.formatting import more_text, plural

__all__ = ["MAX_ROWS", "SummaryTable", "more_text", "plural", "summary_html"]

MAX_ROWS = 10
"""The most rows a summary's table shows; the rest are counted ("… and 37 more")."""

_BOX = (
    "border:1px solid rgba(128,128,128,0.35);border-radius:6px;padding:6px 12px 8px 12px;max-width:62em;"
    "font-size:13px;line-height:1.45;display:inline-block;min-width:22em"
)
_TITLE = "font-size:115%;font-weight:600"
_SUB = "opacity:0.72;font-size:90%"
_FACT_TH = "text-align:left;font-weight:600;padding:1px 12px 1px 0;vertical-align:top;white-space:nowrap"
_FACT_TD = "text-align:left;padding:1px 0;vertical-align:top"
_HEAD = "text-align:left;font-weight:600;border-bottom:1.5px solid rgba(110,119,129,0.85);padding:3px 10px 3px 4px;white-space:nowrap"
_CELL = "text-align:left;padding:2px 10px 2px 4px;border-bottom:1px solid rgba(128,128,128,0.22);vertical-align:top"
_NUM = "text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums"
_EVEN = "background:rgba(128,128,128,0.08)"
_ODD = "background:transparent"
# JupyterLab's own table style (centred, right-aligned, fixed layout, its own font size) is overridden inline.
_TABLE = "border-collapse:collapse;border:none;table-layout:auto;font-size:inherit;color:inherit"
_BADGES = {"ok": "#1a7f37", "warning": "#9a6700", "error": "#cf222e", "info": "#6e7781"}


@dataclass(frozen=True)
class SummaryTable:
    """A short table of a summary: plain-text cells, the first ``MAX_ROWS`` rows shown.

    Attributes
    ----------
    headers : sequence of str
        Column headings.
    rows : sequence of sequence of str
        Every row (only the first ``limit`` are shown); cells are plain text.
    numeric : collection of int
        Columns (by position) right-aligned with tabular digits: counts, amounts, shares.
    nowrap : collection of int
        Columns (by position) that never wrap: dates, codes.
    total : int or None
        How many rows there are in all, if more than ``rows`` holds (``None``: ``len(rows)``).
    limit : int
        Rows shown at most (never more than :data:`MAX_ROWS`).
    where : str
        Where the rest are, said after "… and N more" (``"page.to_dataframe()"``).
    caption : str
        A bold line above the table (``"Current positions"``).
    """

    headers: Sequence[str]
    rows: Sequence[Sequence[str]]
    numeric: Collection[int] = field(default_factory=tuple)
    nowrap: Collection[int] = field(default_factory=tuple)
    total: int | None = None
    limit: int = MAX_ROWS
    where: str = ""
    caption: str = ""

    def html(self) -> str:
        """The table as HTML, every cell escaped, and the "… and N more" line when rows are left out."""
        shown = list(self.rows)[: min(self.limit, MAX_ROWS)]
        total = len(self.rows) if self.total is None else self.total
        head = "".join(f"<th style='{_HEAD}{self._align(i)}'>{_text(h)}</th>" for i, h in enumerate(self.headers))
        body = "".join(
            f"<tr style='{_EVEN if n % 2 else _ODD}'>"
            + "".join(f"<td style='{_CELL}{self._align(i)}'>{_text(c)}</td>" for i, c in enumerate(row))
            + "</tr>"
            for n, row in enumerate(shown)
        )
        caption = f"<div style='font-weight:600;margin-top:6px'>{_text(self.caption)}</div>" if self.caption else ""
        more = (
            f"<div style='{_SUB}'>{_text(more_text(total - len(shown), self.where))}</div>"
            if total > len(shown)
            else ""
        )
        table = (
            f"<table style='{_TABLE};margin:4px 0 2px 0'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )
        return caption + (table if shown else "") + more

    def _align(self, column: int) -> str:
        if column in self.numeric:
            return ";" + _NUM
        return ";white-space:nowrap" if column in self.nowrap else ""


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


def summary_html(
    title: str,
    facts: Sequence[tuple[str, str]] = (),
    *,
    subtitle: str = "",
    badge: tuple[str, str] | None = None,
    tables: Sequence[SummaryTable] = (),
    note: str = "",
    kind: str = "record",
) -> str:
    """The small HTML summary of a record.

    Parameters
    ----------
    title : str
        The title line, in bold: what the record is about (a name, "Cost estimate: 40 credits"); never a UUID.
    facts : sequence of (str, str)
        Label and value, one per line of a definition table.
    subtitle : str
        A grey line under the title (counts, the id).
    badge : (str, str), optional
        A status badge after the title: its text and its level (``"ok"``, ``"warning"``, ``"error"``, ``"info"``).
    tables : sequence of SummaryTable
        Short tables after the facts.
    note : str
        A grey line at the end (what to call next).
    kind : str
        Names the summary in its CSS class (``regkit-summary regkit-summary-<kind>``), for tests and styling.

    Returns
    -------
    str
        An HTML fragment (one ``<div>``), every text escaped.

    Examples
    --------
    >>> html_text = summary_html("A <b> GmbH", [("Legal form", "GmbH")], badge=("active", "ok"))
    >>> "A &lt;b&gt; GmbH" in html_text and "<b>" not in html_text and "GmbH</td>" in html_text
    True
    """
    colour = _BADGES[badge[1]] if badge else ""
    badge_html = (
        (
            f" <span style='background:{colour};color:#fff;border-radius:3px;padding:0 6px;font-size:80%;"
            f"font-weight:400;vertical-align:1px'>{_text(badge[0])}</span>"
        )
        if badge
        else ""
    )
    rows = "".join(
        f"<tr style='{_ODD}'><th style='{_FACT_TH}'>{_text(label)}</th><td style='{_FACT_TD}'>{_text(value)}</td></tr>"
        for label, value in facts
    )
    parts = [f"<div style='{_TITLE}'>{_text(title)}{badge_html}</div>"]
    if subtitle:
        parts.append(f"<div style='{_SUB}'>{_text(subtitle)}</div>")
    if rows:
        parts.append(f"<table style='{_TABLE};margin:4px 0 0 0'><tbody>{rows}</tbody></table>")
    parts += [table.html() for table in tables]
    if note:
        parts.append(f"<div style='{_SUB};margin-top:4px'>{_text(note)}</div>")
    return f"<div class='regkit-summary regkit-summary-{_text(kind)}' style='{_BOX}'>{''.join(parts)}</div>"
