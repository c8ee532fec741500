"""The tables of :class:`~regkit.widgets.CompanyExplorer`'s tabs, formatted for a reader.

Each ``*_table`` function returns ``(head, frame, columns)`` — an HTML line saying what the table counts, the
rows (raw: the explorer formats them with :class:`~regkit.widgets.company_panes.TablePane`, static or sortable
by their number) and the columns to show; each ``*_html`` function returns the same as one static HTML string
(the form the tests and the screenshots read). Codes read as labels ("GmbH", "Prokura"), money with ``€``,
shares in ``%``, no UUID columns (:mod:`regkit.widgets.tables`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from regkit.frames import documents, history, insolvency_summaries, links, representatives
from regkit.frames import owners as owners_frame
from regkit.frames.histories import FIELDS
from regkit.schema import display_label
from regkit.schema.formatting import MISSING, count_text, euro_text, money_text, plural

from .render import draw_figure, figure_html, message_html
from .search_logic import is_person_id
from .tables import table_html

__all__ = [
    "HISTORY_COLUMNS",
    "documents_html",
    "documents_table",
    "histories_html",
    "insolvencies_html",
    "links_html",
    "owners_table",
    "representatives_html",
    "representatives_table",
    "timeline_figure",
]

HISTORY_COLUMNS = {
    "names": ["valid_from", "valid_to", "name", "legal_form"],
    "addresses": ["valid_from", "valid_to", "address"],
    "purposes": ["valid_from", "valid_to", "purpose"],
    "capitals": ["valid_from", "valid_to", "amount", "in_euro"],
    "registers": [
        "valid_from",
        "valid_to",
        "register_type",
        "register_number",
        "register_court",
        "register_company_id",
    ],
}
"""The columns each history table shows (``capitals``: the amount in its own currency, then in EUR)."""

_AUTHORITY = 48  # characters of the authority text a table shows (the frame keeps all of it)
Table = tuple[str, pd.DataFrame, list[str]]


def _static(table: Table, empty: str) -> str:
    head, frame, columns = table
    return head + table_html(frame, columns, empty=empty, max_rows=500)


def timeline_figure(record: Any) -> Any:
    """The histories tab's chart: :func:`regkit.plot.timeline` on a figure 10 in wide, as tall as its lines."""
    from regkit.plot.history import drawing_lines, timeline, timeline_bars

    lines = len(drawing_lines(timeline_bars(record))[1])
    return draw_figure(lambda ax: timeline(record, ax), (10.0, max(2.5, 0.34 * lines + 1.9)))


def histories_html(record: Any) -> str:
    """The company's timeline chart, then one table per history (names, addresses, ...)."""
    parts = [figure_html(timeline_figure(record))]
    for field in FIELDS:
        frame = history(record, field).rename(columns={"formatted_value": "address"})
        if field == "capitals":  # in its own currency (DEM, USD), then in EUR; a capital to the cent
            frame = frame.assign(
                amount=[
                    MISSING if pd.isna(a) else money_text(a, c) for a, c in zip(frame["amount"], frame["currency"])
                ],
                in_euro=[euro_text(e, 2) for e in frame["amount_eur"]],
            )
        parts.append(f"<h4>{field.capitalize()}</h4>")
        parts.append(table_html(frame, HISTORY_COLUMNS[field], empty=f"no {field} registered", money=()))
    return "".join(parts)


def representatives_table(record: Any) -> Table:
    """One row per role held, active roles first, then by start; the head counts people and roles."""
    frame = representatives(record).sort_values(["is_active", "start_date"], ascending=[False, True], kind="stable")
    frame = frame.rename(columns={"is_active": "active"})
    frame["authority"] = [
        a if not isinstance(a, str) or len(a) <= _AUTHORITY else a[: _AUTHORITY - 1] + "…" for a in frame["authority"]
    ]
    people = frame.drop_duplicates(["id", "name"]) if len(frame) else frame
    active = int(frame["active"].sum())
    head = (
        message_html(
            f"{plural(len(people), 'person', 'people')} in {plural(len(frame), 'role')}; "
            f"{count_text(active)} active (listed first)."
        )
        if len(frame)
        else ""
    )
    return head, frame, ["name", "role", "start_date", "end_date", "active", "city", "authority"]


def representatives_html(record: Any) -> str:
    """:func:`representatives_table` as static HTML."""
    return _static(representatives_table(record), "no representatives registered")


def documents_table(record: Any) -> Table:
    """The documents, newest first (their UUIDs are not shown)."""
    frame = documents(record).sort_values("date", ascending=False, kind="stable")
    frame["type"] = [str(t).replace("_", " ") for t in frame["type"]]  # articles_of_association → words
    head = message_html(f"{plural(len(frame), 'document')}, newest first.") if len(frame) else ""
    return head, frame, ["date", "type", "latest"]


def documents_html(record: Any) -> str:
    """:func:`documents_table` as static HTML."""
    return _static(documents_table(record), "no documents")


def insolvencies_html(record: Any) -> str:
    """The proceedings against the company (the record's insolvency summaries)."""
    columns = [
        "case_number",
        "court",
        "current_status",
        "proceeding_kind",
        "administration_kind",
        "opened_at",
        "closed_at",
    ]
    return table_html(insolvency_summaries(record), columns, empty="no insolvency proceedings")


def links_html(record: Any) -> str:
    """Mergers, spin-offs and the profit-transfer agreement, as source → target."""
    columns = ["relation", "source_name", "source", "target_name", "target", "registration_date", "agreement_date"]
    return table_html(links(record), columns, empty="no mergers, spin-offs or profit-transfer agreement")


def owners_table(found: Any) -> Table:
    """The owners, largest share first; for an AG, SE or KGaA first a note that they come from filed documents
    (``best_available``). A holder's register id is shown for a company, not a person's UUID."""
    frame = owners_frame(found).sort_values("share", ascending=False, kind="stable")
    frame["holder_type"] = [display_label("debtor_kind", t) for t in frame["holder_type"]]
    frame["holder_id"] = [None if is_person_id(h) else h for h in frame["holder_id"]]
    frame = frame.rename(columns={"holder_id": "holder_register_id"})
    note = ""
    if getattr(found, "raw", found).get("best_available"):
        note = message_html(
            "The register does not list the shareholders of an AG, SE or KGaA: these are the owners "
            "known from filed documents (asked with best_available=True).",
            "warning",
        )
    columns = [
        "holder_name",
        "holder_type",
        "relation_type",
        "share",
        "nominal_share",
        "start",
        "holder_city",
        "holder_register_id",
    ]
    return note, frame, columns
