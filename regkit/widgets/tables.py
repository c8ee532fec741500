"""Tables as the explorers show them: formatted for a reader, one style, sortable and clickable where long.

Frames stay raw for analysis; a table on screen does not. :func:`display_frame` turns a frame into the text a
reader sees — codes as labels (``gmbh`` → "GmbH", ``liquidation`` → "in Liquidation"), money with digit
grouping and ``€``, shares in ``%``, dates as ``YYYY-MM-DD``, ``–`` for a missing value, headings in words —
and leaves out columns of UUIDs (a person's or proceeding's id means nothing to a reader; the explorers keep
the raw frame to act on a click). :func:`table_html` writes it as a static table in the one style of the
explorers (:data:`TABLE_CSS`: dates, numbers, company ids, case numbers and coded labels ("GmbH", "rejected (no
assets)") never wrap, numbers right-aligned); :func:`sortable_table`
makes it an `itables <https://mwouts.github.io/itables/>`_ widget — sortable, searchable, paged, its rows
clickable — whose JavaScript comes with the itables package (nothing is downloaded: it works offline).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

import pandas as pd

from regkit.frames.financial_ratios import RATIOS
from regkit.frames.financials import MEASURES
from regkit.schema import LABELS, column_label, display_label
from regkit.schema.formatting import MISSING, date_text, euro_text, is_missing, percent_text, value_text

from .messages import message_html

__all__ = [
    "MONEY_COLUMNS",
    "PERCENT_COLUMNS",
    "TABLE_CSS",
    "display_frame",
    "is_id_column",
    "is_uuid_column",
    "sortable_table",
    "table_html",
]

#: Columns that hold EUR amounts (the twelve measures, capital, nominal shares).
MONEY_COLUMNS: frozenset[str] = frozenset(
    {*MEASURES, "capital", "capital_amount", "capital_eur", "amount", "nominal_share", "salaries_per_employee"}
)

#: Columns that hold fractions shown in percent: shares and the ratios of :func:`regkit.frames.ratios` (all but
#: ``salaries_per_employee``, an amount: :data:`MONEY_COLUMNS`).
PERCENT_COLUMNS: frozenset[str] = frozenset({"share", *RATIOS} - MONEY_COLUMNS)

TABLE_CSS = (
    "<style>"
    ".regkit-table{border-collapse:collapse;font-size:12.5px;margin:4px 0 10px 0}"
    ".regkit-table th{text-align:left;font-weight:600;border-bottom:1.5px solid #57606a;padding:3px 10px 3px 4px;"
    "white-space:nowrap}"
    ".regkit-table td{padding:2px 10px 2px 4px;border-bottom:1px solid #e5e7eb;vertical-align:top}"
    ".regkit-table tbody tr:nth-child(even){background:#f6f8fa}"
    ".regkit-table th.regkit-num{text-align:right}"
    ".regkit-table td.regkit-num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
    ".regkit-table td.regkit-date{white-space:nowrap}"
    ".regkit-table td.regkit-id,.regkit-table td.regkit-label{white-space:nowrap}"
    "</style>"
)
"""The one table style of the explorers (a ``<style>`` element; :func:`table_html` puts it before each table)."""

_ID = re.compile(r"^(?:[A-Z]{2}-[A-Za-z]+-[A-Z0-9]+-\d+[A-Z]*|\d+[a-z]? [A-Za-z]{1,4} \d+/\d+)$")
"""A register id (``DE-HRB-R3101-94644``) or an insolvency case number (``89 IN 482/24``): kept on one line."""

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def is_uuid_column(values: pd.Series) -> bool:
    """Whether every present value of a column is a UUID (such columns are left out of displays).

    Examples
    --------
    >>> is_uuid_column(pd.Series(["cfd35d80-f1f6-4762-911e-a0c0413fdb53", None]))
    True
    >>> is_uuid_column(pd.Series(["DE-HRB-F1103-267645"])), is_uuid_column(pd.Series([None]))
    (False, False)
    """
    present = values.dropna()
    return bool(len(present)) and all(isinstance(v, str) and _UUID.match(v) for v in present)


def _kind(column: str, values: pd.Series, money: Collection[str], percent: Collection[str]) -> str:
    if column in money:
        return "money"
    if column in percent:
        return "percent"
    if column in LABELS:
        return "label"
    if column == "court":
        return "court"
    if (
        pd.api.types.is_datetime64_any_dtype(values)
        or column.endswith(("_date", "_at"))
        or column in ("date", "start", "end", "date_of_birth")
    ):
        return "date"
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return "number"
    if is_id_column(values):
        return "id"
    return "text"


def is_id_column(values: pd.Series) -> bool:
    """Whether every present value of a column is a register id or an insolvency case number (such columns are
    never wrapped: a reader copies them whole).

    Examples
    --------
    >>> is_id_column(pd.Series(["DE-HRB-F1103-267645", "DE-HRB-X1517-62135KI", None]))
    True
    >>> is_id_column(pd.Series(["89 IN 482/24", "54n IN 1778/26"]))
    True
    >>> is_id_column(pd.Series(["Gerber GmbH"])), is_id_column(pd.Series([None]))
    (False, False)
    """
    present = values.dropna()
    return bool(len(present)) and all(isinstance(v, str) and _ID.match(v) for v in present)


def _cell(kind: str, column: str, value: Any) -> str:
    if is_missing(value):
        return MISSING
    if kind == "money":
        return euro_text(value)
    if kind == "percent":
        return percent_text(value)
    if kind == "label":
        return display_label(column, value)
    if kind == "date":
        return date_text(value)
    if kind == "court":  # every insolvency and register court is an Amtsgericht: the town says which
        return str(value).removeprefix("Amtsgericht ")
    return value_text(value)


def _plan(
    frame: pd.DataFrame, columns: Sequence[str] | None, money: Collection[str] | None, percent: Collection[str] | None
) -> list[tuple[str, str]]:
    money = MONEY_COLUMNS if money is None else money
    percent = PERCENT_COLUMNS if percent is None else percent
    names = list(frame.columns) if columns is None else [c for c in columns if c in frame]
    return [(c, _kind(c, frame[c], money, percent)) for c in names if not is_uuid_column(frame[c])]


def display_frame(
    frame: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    money: Collection[str] | None = None,
    percent: Collection[str] | None = None,
) -> pd.DataFrame:
    """The text a reader sees: every cell formatted, codes as labels, headings in words, UUID columns left out.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any regkit frame (its values are not changed).
    columns : sequence of str, optional
        The columns to show, in this order (absent ones are skipped); default all.
    money, percent : collection of str, optional
        Columns in EUR and columns of fractions to show in percent; default :data:`MONEY_COLUMNS` and
        :data:`PERCENT_COLUMNS`.

    Returns
    -------
    pandas.DataFrame
        The same rows and index; one ``object`` column of ``str`` per shown column, named by
        :func:`regkit.schema.column_label` (``"debtor_legal_form"`` → ``"Legal form"``).

    Examples
    --------
    >>> frame = pd.DataFrame({"legal_form": ["gmbh"], "revenue": [1234567.0], "share": [0.5],
    ...                       "id": ["cfd35d80-f1f6-4762-911e-a0c0413fdb53"], "start": [pd.Timestamp("2020-01-02")]})
    >>> display_frame(frame).iloc[0].to_dict()
    {'Legal form': 'GmbH', 'Revenue': '€1,234,567', 'Share': '50 %', 'Start': '2020-01-02'}
    """
    plan = _plan(frame, columns, money, percent)
    shown = {column_label(c): [_cell(kind, c, v) for v in frame[c]] for c, kind in plan}
    return pd.DataFrame(shown, index=frame.index, dtype=object) if plan else pd.DataFrame(index=frame.index)


def table_html(
    frame: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    empty: str = "nothing to show",
    max_rows: int = 200,
    money: Collection[str] | None = None,
    percent: Collection[str] | None = None,
) -> str:
    """A frame as a static HTML table in the explorers' one style (:data:`TABLE_CSS`), or ``empty`` as a message.

    Formatted by :func:`display_frame`; at most ``max_rows`` rows, then a line saying how many more there are.
    Numbers are right-aligned and, like dates, never wrap. Everything is escaped.

    Examples
    --------
    >>> out = table_html(pd.DataFrame({"legal_form": ["gmbh"], "capital": [25000.0]}))
    >>> "<th>Legal form</th>" in out and ">GmbH</td>" in out and 'class="regkit-num">€25,000</td>' in out
    True
    >>> table_html(pd.DataFrame({"a": []}), empty="no rows")
    '<div class="regkit-message regkit-info" style="color:#57606a">no rows</div>'
    """
    plan = _plan(frame, columns, money, percent)
    if frame.empty or not plan:
        return message_html(empty)
    numeric = ("money", "percent", "number")
    right = ' class="regkit-num"'
    head = "".join(f"<th{right if kind in numeric else ''}>{html.escape(column_label(c))}</th>" for c, kind in plan)
    classes = {
        "money": right,
        "percent": right,
        "number": right,
        "date": ' class="regkit-date"',
        "id": ' class="regkit-id"',
    }
    rows = []
    for values in zip(*(frame[c].head(max_rows) for c, _ in plan)):
        cells = (
            f"<td{classes.get(kind, '')}>{html.escape(_cell(kind, c, v), quote=False)}</td>"
            for (c, kind), v in zip(plan, values)
        )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    more = len(frame) - max_rows
    table = f'<table class="regkit-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return TABLE_CSS + table + (message_html(f"… and {more:,} more rows") if more > 0 else "")


def sortable_table(
    frame: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    on_select: Callable[[int | None], Any] | None = None,
    page_length: int = 10,
    money: Collection[str] | None = None,
    percent: Collection[str] | None = None,
) -> Any:
    """A long frame as an itables widget: sortable by any column, searchable, paged, one row selectable.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows (raw; shown through :func:`display_frame`, so sorting a money column sorts by amount —
        DataTables reads ``€1,234`` as a number).
    columns, money, percent
        As :func:`display_frame`.
    on_select : callable, optional
        Called with the position (0-based, in ``frame``) of the row clicked, or ``None`` when the selection
        is cleared.
    page_length : int
        Rows per page.

    Returns
    -------
    itables.widget.ITable
        The widget; ``widget.df`` is the displayed text, ``widget.selected_rows`` the selected positions
        (setting it from Python selects, as a click does).
    """
    from itables.widget import ITable

    shown = display_frame(frame, columns, money=money, percent=percent).reset_index(drop=True)
    plan = _plan(frame, columns, money, percent)
    numbers = [i for i, (_, kind) in enumerate(plan) if kind in ("money", "percent", "number")]
    dates = [i for i, (_, kind) in enumerate(plan) if kind == "date"]
    ids = [i for i, (_, kind) in enumerate(plan) if kind == "id"]
    labels = [i for i, (_, kind) in enumerate(plan) if kind == "label"]
    column_defs = [
        {"targets": numbers, "type": "num-fmt", "className": "dt-right regkit-num"},
        {"targets": dates, "className": "dt-left regkit-date"},
        {"targets": ids, "className": "dt-left regkit-id"},
        {"targets": labels, "className": "dt-left regkit-label"},
    ]
    table = ITable(
        shown,
        select={"style": "single"} if on_select else False,
        pageLength=page_length,
        lengthMenu=sorted({page_length, 25, 50, 100}),
        classes="display compact regkit-itable",
        showIndex=False,
        maxBytes=0,
        allow_html=False,
        order=[],
        autoWidth=False,  # the browser sizes the columns to their text: no wrapping while the width is free
        style="table-layout:auto;width:auto;margin:0 auto 0 0;caption-side:bottom",
        columnDefs=[d for d in column_defs if d["targets"]],
    )
    if on_select is not None:

        def selected(change: dict[str, Any]) -> None:
            rows = change["new"]
            on_select(int(rows[0]) if rows else None)

        table.observe(selected, names="selected_rows")
    return table
