"""Insolvency proceedings: what a search page and a proceeding send (the methods are on
:class:`~regkit.client.Client`), the records they return, their HTML summaries and analysis methods.


The analysis methods
--------------------
``proceeding.events()``, ``results.to_dataframe()`` and friends are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from regkit.common.html import SummaryTable, summary_html
from regkit.schema.formatting import MISSING, count_text, date_text
from regkit.schema.labels import display_label

from .arguments import validation
from .records import (
    Record,
    SearchPage,
    SearchResults,
    legal_form_text,
    text_or_missing,
)
from .transport.operation import Operation, operation

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "search_op",
    "InsolvencySearchPage",
    "InsolvencyResults",
    "InsolvencyRecord",
    "InsolvencyPageFrames",
    "InsolvencyFrames",
    "insolvency_html",
]


def search_op(query: Any, filters: Any, page: Any, per_page: Any) -> Operation:
    """The operation of one insolvency search page (arguments checked; nothing is sent).

    Raises
    ------
    ValidationError
        A malformed query, filter or page.
    """
    body: dict[str, Any] = {}
    if (text := validation.query(query)) is not None:
        body["query"] = text
    if normalised := validation.filters(filters):
        body["filters"] = normalised
    body["pagination"] = validation.pagination(page, per_page)
    return operation("search_insolvency", body=body)


class InsolvencyPageFrames:
    """Frames of insolvency search results (one page, or all pages of a search)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per result (see ``regkit.frames.insolvency_results``)."""
        from regkit.frames.insolvency import insolvency_results

        return insolvency_results(self)


class InsolvencyFrames:
    """Frames of one proceeding (mixed into :class:`~regkit.client.insolvency.InsolvencyRecord`)."""

    def to_dataframe(self) -> pd.DataFrame:
        """One-row frame of the proceeding (see ``regkit.frames.proceedings``)."""
        from regkit.frames.insolvency import proceedings

        return proceedings(self)

    def events(self) -> pd.DataFrame:
        """The proceeding's events, oldest first (see ``regkit.frames.events``)."""
        from regkit.frames.insolvency import events

        return events(self)


class InsolvencySearchPage(InsolvencyPageFrames, SearchPage):
    """One page of an insolvency search: ``results`` (list of dicts) and ``pagination``."""

    kind = "insolvency_page"
    results_of = "insolvency"


class InsolvencyResults(InsolvencyPageFrames, SearchResults):
    """Every result of an insolvency search, or its first ``limit`` (``client.search_all_insolvencies``), in the
    interface's order (``last_event_at`` descending, then ``id``); the attributes are :class:`SearchResults`'."""

    results_of = "insolvency"

    def to_dataframe(self) -> Any:
        """One row per result (see ``regkit.frames.insolvency_results``); ``attrs`` holds ``total_results``,
        ``pages``, ``credits`` and ``estimated_credits``."""
        return self._with_totals(super().to_dataframe())


class InsolvencyRecord(InsolvencyFrames, Record):
    """One insolvency proceeding with its events (``GET /v1/insolvency/{id}``)."""

    kind = "insolvency"

    def _label(self) -> str:
        return f"{self.raw.get('case_number', '')} {self.raw.get('debtor_name', '')}".strip() or super()._label()

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: debtor, case, status, administrator, dates, the latest events."""
        return insolvency_html(self.raw)


def _event_rows(events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    return [
        [
            date_text(e.get("published_at")),
            display_label("event_type", e["event_type"]) if e.get("event_type") else MISSING,
            text_or_missing(e.get("summary")),
        ]
        for e in reversed(events)
    ]


def insolvency_html(p: Mapping[str, Any]) -> str:
    """One insolvency proceeding: debtor, case, status, administrator, dates, the latest events."""
    status = p.get("current_status")
    open_ = p.get("closed_at") is None
    kind = display_label("debtor_kind", p["debtor_kind"]) if p.get("debtor_kind") else MISSING
    facts = [("Debtor", legal_form_text(p, "debtor_legal_form") if p.get("debtor_legal_form") else kind)]
    if p.get("company_id"):
        facts.append(("Company", str(p["company_id"])))
    facts += [
        (
            "Proceeding",
            " · ".join(display_label(c, p[c]) for c in ("proceeding_kind", "administration_kind") if p.get(c))
            or MISSING,
        ),
        ("Administrator", text_or_missing(p.get("administrator_name"))),
        ("Grounds", ", ".join(str(g).replace("_", " ") for g in p.get("insolvency_grounds") or ()) or MISSING),
        ("Opened", date_text(p.get("opened_at"))),
        ("Closed", date_text(p.get("closed_at")) if not open_ else "open"),
    ]
    if p.get("claims_filing_deadline"):
        facts.append(("Claims deadline", date_text(p["claims_filing_deadline"])))
    events = list(p.get("events") or ())
    table = SummaryTable(
        ("Published", "Event", "Summary"),
        _event_rows(events),
        nowrap=(0,),
        limit=4,
        where="record.events()",
        caption=f"Latest events ({count_text(len(events))} in all)",
    )
    badge = (display_label("current_status", status), "warning" if open_ else "info") if status else None
    subtitle = ", ".join(str(p[k]) for k in ("case_number", "court") if p.get(k))
    return summary_html(
        text_or_missing(p.get("debtor_name")),
        facts,
        subtitle=subtitle,
        badge=badge,
        tables=[table] if events else [],
        kind="insolvency",
    )
