"""What :class:`~regkit.widgets.InsolvencyExplorer` does, as plain functions: filters from the inputs,
the cost of a search page before it is sent, the search, the results table and one proceeding's events.

Cost of a page
    Every search request costs 10 credits (``PRICES["insolvency_search"]``), whatever its page size; a page
    the client's cache holds costs 0. :func:`search_cost` asks ``client.estimate_search_cost`` — nothing is
    sent — and :func:`cost_label` says it as a button does: ``"10 credits"``, ``"0 credits, cached"``.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.errors import RegkitError
from regkit.frames import events, insolvency_results
from regkit.schema import INSOLVENCY_STATUSES, LEGAL_FORMS, display_label
from regkit.schema.formatting import count_text, credits_text

from .messages import error_html
from .render import draw_figure, figure_html, frame_html, message_html

if TYPE_CHECKING:
    from regkit.client import InsolvencySearchPage
    from regkit.client.protocol import RegisterClient

__all__ = [
    "DATE_FIELDS",
    "EVENT_COLUMNS",
    "LEGAL_FORM_OPTIONS",
    "PER_PAGE_OPTIONS",
    "RESULT_COLUMNS",
    "STATUS_OPTIONS",
    "build_filters",
    "cost_label",
    "events_html",
    "page_text",
    "proceeding_figure",
    "results_html",
    "results_table",
    "run_search",
    "search_cost",
    "total_pages",
]

STATUS_OPTIONS = tuple((display_label("current_status", status), status) for status in INSOLVENCY_STATUSES)
LEGAL_FORM_OPTIONS = (("any", None), *((display_label("legal_form", form), form) for form in LEGAL_FORMS))
DATE_FIELDS = (
    ("opened", "opened_at"),
    ("closed", "closed_at"),
    ("last event", "last_event_at"),
    ("claims filing deadline", "claims_filing_deadline"),
)
PER_PAGE_OPTIONS = (10, 25, 50, 100)
RESULT_COLUMNS = (
    "debtor_name",
    "case_number",
    "court",
    "current_status",
    "debtor_legal_form",
    "opened_at",
    "last_event_at",
)
"""The columns of the results table, in order (the proceeding's id is kept in the frame, not shown)."""
EVENT_COLUMNS = ("published_at", "event_type", "decision_date", "summary")
"""The columns of a proceeding's events table."""


def build_filters(
    statuses: Sequence[str] = (),
    court: str = "",
    legal_form: str | None = None,
    date_from: _dt.date | None = None,
    date_to: _dt.date | None = None,
    date_field: str = "opened_at",
) -> dict[str, Any]:
    """The client's filter mapping for the explorer's inputs (empty inputs add no filter).

    The court is matched by keywords (every word must occur: ``"Darmstadt"`` finds
    "Amtsgericht Darmstadt"); the date range is inclusive on ``date_field``.

    Examples
    --------
    >>> build_filters(["opened"], " Darmstadt ", "gmbh", _dt.date(2020, 1, 1), None)  # doctest: +NORMALIZE_WHITESPACE
    {'current_status': ['opened'], 'court': {'keywords': ['Darmstadt']}, 'debtor_legal_form': 'gmbh',
     'opened_at': ('2020-01-01', None)}
    >>> build_filters()
    {}
    """
    filters: dict[str, Any] = {}
    if statuses:
        filters["current_status"] = list(statuses)
    if court and court.split():
        filters["court"] = {"keywords": court.split()}
    if legal_form:
        filters["debtor_legal_form"] = legal_form
    if date_from is not None or date_to is not None:
        fields = [field for _, field in DATE_FIELDS]
        if date_field not in fields:
            raise ValueError(f"date_field must be one of {', '.join(fields)}, not {date_field!r}")
        filters[date_field] = tuple(None if d is None else d.isoformat() for d in (date_from, date_to))
    return filters


def search_cost(client: RegisterClient, query: str | None, filters: Any, page: int, per_page: int) -> int:
    """Credits the search page would cost now: 0 from the cache, else 10 (``client.estimate_search_cost``).

    Raises
    ------
    regkit.ValidationError
        For arguments the client would reject.
    """
    return int(client.estimate_search_cost(query, filters, page=page, per_page=per_page))


def cost_label(credits: int) -> str:
    """What a search page costs, as its button says it (a page that costs nothing is one the cache holds).

    Examples
    --------
    >>> cost_label(10), cost_label(0)
    ('10 credits', '0 credits, cached')
    """
    return credits_text(credits, cached=credits == 0)


def run_search(
    client: RegisterClient, query: str | None, filters: Any, page: int, per_page: int
) -> tuple[InsolvencySearchPage, pd.DataFrame]:
    """One page of results: the page record and its frame (:func:`regkit.frames.insolvency_results`)."""
    result = client.search_insolvencies(query or None, filters, page=page, per_page=per_page)
    return result, insolvency_results(result)


def total_pages(result: Any) -> int:
    """The number of pages of a search page record (at least 1)."""
    pagination = result.raw.get("pagination", {})
    per_page = max(1, int(pagination.get("per_page", 1)))
    return max(1, int(pagination.get("total_pages") or math.ceil(result.total_results / per_page)))


def page_text(result: Any) -> str:
    """``"page 2 of 43 · 423 proceedings (10 credits)"`` for a page record (``"0 credits, cached"`` from the cache).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> page = NS(raw={"pagination": {"page": 2, "per_page": 10, "total_pages": 43}}, total_results=423,
    ...           meta=NS(from_cache=True, credits=0))
    >>> page_text(page)
    'page 2 of 43 · 423 proceedings (0 credits, cached)'
    """
    cost = credits_text(0, cached=True) if result.meta.from_cache else credits_text(result.meta.credits)
    page = result.raw.get("pagination", {}).get("page", 1)
    noun = "proceeding" if result.total_results == 1 else "proceedings"
    return f"page {page} of {total_pages(result)} · {count_text(result.total_results)} {noun} ({cost})"


def results_html(frame: pd.DataFrame) -> str:
    """The results as a static table (formatted, no ids): :func:`regkit.widgets.tables.table_html`."""
    return frame_html(frame, RESULT_COLUMNS, empty="no proceedings match")


def results_table(frame: pd.DataFrame, on_select: Callable[[int | None], Any], page_length: int = 10) -> Any:
    """The results as a sortable table whose rows are clickable (:func:`regkit.widgets.tables.sortable_table`).

    ``on_select`` receives the position of the row clicked in ``frame`` (or ``None``); ``frame["id"]`` at that
    position is the proceeding to show.
    """
    from .tables import sortable_table

    return sortable_table(frame, RESULT_COLUMNS, on_select=on_select, page_length=page_length)


def proceeding_figure(record: Any, events: int) -> Any:
    """The proceeding's chart: :func:`regkit.plot.insolvency_timeline` on a figure 9 in wide, as tall as its
    ``events`` rows."""
    from regkit.plot.insolvency import insolvency_timeline

    return draw_figure(lambda ax: insolvency_timeline(record, ax), (9.0, max(2.5, 0.42 * events + 1.2)))


def events_html(client: RegisterClient, insolvency_id: str) -> str:
    """One proceeding's events: a line saying whose they are and what they cost (10 credits, 0 from the cache),
    the timeline chart and the events table; a regkit error as a message."""
    try:
        record = client.get_insolvency(insolvency_id)
    except RegkitError as exc:
        return error_html(exc)
    frame = events(record)
    cost = credits_text(0, cached=True) if record.meta.from_cache else credits_text(record.meta.credits)
    debtor = record.raw.get("debtor_name") or insolvency_id
    case = record.raw.get("case_number")
    count = f"{count_text(len(frame))} event{'' if len(frame) == 1 else 's'}"
    line = f"{debtor}{f' ({case})' if case else ''}: {count} ({cost})"
    chart = figure_html(proceeding_figure(record, len(frame)))
    table = frame_html(frame, EVENT_COLUMNS, empty="no events published")
    return message_html(line) + chart + table
