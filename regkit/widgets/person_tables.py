"""The tables of :class:`~regkit.widgets.PersonExplorer`'s tabs, formatted for a reader.

Each ``*_table`` function returns ``(head, frame, columns)``: an HTML line saying what the table counts, the
raw rows (the explorer shows them with :class:`~regkit.widgets.company_panes.TablePane`, static or sortable by
their number) and the columns to show; each ``*_html`` function returns the same as static HTML. Roles read as
labels ("Geschäftsführer / Vorstand", "Prokura"), shares in ``%``, nominal shares in ``€``, no UUID columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.errors import RegkitError
from regkit.frames import holdings as holdings_frame
from regkit.frames import management_positions
from regkit.schema import display_label
from regkit.schema.formatting import count_text, credits_text, plural

from .messages import error_html
from .person_chart import positions_chart
from .person_logic import co_officer_companies, co_officers, interlocks
from .render import draw_figure, figure_html, message_html
from .tables import table_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = [
    "RESULT_COLUMNS",
    "co_officer_tables",
    "holdings_html",
    "holdings_table",
    "positions_chart_html",
    "positions_figure",
    "positions_html",
    "positions_table",
    "results_frame",
    "results_message",
]

RESULT_COLUMNS = ["name", "date_of_birth", "city", "current_position"]
"""The columns of the table of search results (a person's UUID is not shown)."""

Table = tuple[str, pd.DataFrame, list[str]]


def results_message(page: Any, frame: pd.DataFrame) -> str:
    """How many persons were found, at what cost, and what to do next."""
    cost = credits_text(page.meta.credits, cached=page.meta.from_cache)
    total = page.raw.get("pagination", {}).get("total_results", len(frame))
    more = f"; the first {len(frame)} are listed — add words to narrow it" if total > len(frame) else ""
    pick = " Click a row to fill in the person id." if len(frame) else ""
    return message_html(
        f"{plural(total, 'person', 'people')} found ({cost}){more}.{pick}", "ok" if len(frame) else "warning"
    )


def results_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The search results with ``current_position`` (the result's ``active``: holds a position now)."""
    return frame.assign(current_position=frame["active"].astype(bool))


def positions_chart_html(person: Any, held: Any = None) -> str:
    """The positions chart (holdings drawn too), or why there is none."""
    frame = management_positions(person)
    if frame.empty and (held is None or not len(held)):
        return message_html("No management positions and no holdings registered.")
    return figure_html(positions_figure(person, held))


def positions_figure(person: Any, held: Any = None) -> Any:
    """The positions tab's chart: :func:`positions_chart` on a figure 9 in wide, as tall as its rows."""
    rows = int(management_positions(person)["company_id"].nunique()) + (len(held) if held is not None else 0)
    return draw_figure(lambda ax: positions_chart(person, ax, holdings=held), (9.0, max(2.6, 0.42 * rows + 1.9)))


def positions_table(person: Any) -> Table:
    """The positions, earliest first; the head counts positions, companies and current ones."""
    frame = management_positions(person).sort_values(["start_date", "company_name"], kind="stable")
    frame = frame.rename(columns={"is_current": "current"})
    head = ""
    if len(frame):
        head = message_html(
            f"{plural(len(frame), 'position')} at {plural(frame['company_id'].nunique(), 'company', 'companies')}; "
            f"{count_text(int(frame['current'].sum()))} current."
        )
    return head, frame, ["company_name", "company_id", "role", "start_date", "end_date", "current"]


def positions_html(person: Any, held: Any = None) -> str:
    """The positions chart and the table of positions, as static HTML."""
    head, frame, columns = positions_table(person)
    chart = positions_chart_html(person, held)
    if frame.empty:
        return chart
    return chart + head + table_html(frame, columns, empty="no management positions registered", max_rows=500)


def holdings_table(held: Any) -> Table:
    """The companies the person holds (held) shares in, current first, shares in percent."""
    frame = holdings_frame(held).sort_values(["is_current", "start"], ascending=[False, True], kind="stable")
    frame = frame.rename(columns={"is_current": "current"})
    frame["relation_type"] = [str(t).replace("_", " ") for t in frame["relation_type"]]
    head = message_html(f"{plural(len(frame), 'holding')}; {count_text(int(frame['current'].sum()))} current.")
    columns = ["company_name", "company_id", "relation_type", "share", "nominal_share", "start", "end", "current"]
    return head if len(frame) else "", frame, columns


def holdings_html(held: Any) -> str:
    """:func:`holdings_table` as static HTML (or why there is none)."""
    if held is None:
        return message_html("The holdings could not be fetched (see the status line).", "error")
    head, frame, columns = holdings_table(held)
    return head + table_html(frame, columns, empty="no shareholdings registered", max_rows=500)


_SHARED = "companies_shared"
_SHARED_NOTE = "Companies shared: at how many of their companies each person served with them."


def co_officer_tables(
    client: RegisterClient, person: Any
) -> tuple[pd.DataFrame | None, str, Table | None, Table | None]:
    """Look up the person's companies and tabulate who served with them.

    Returns
    -------
    (pandas.DataFrame or None, str, table or None, table or None)
        The co-officers frame (:func:`~regkit.widgets.person_logic.co_officers`), a message (what was looked
        up, at what cost, how many people), the interlocks table (at two or more companies) and the table of
        everyone per company; ``None`` for the frame and tables when nothing could be looked up.
    """
    ids = co_officer_companies(person)
    if not ids:
        return None, message_html("No management positions: nobody served with them."), None, None
    before = client.credits_spent
    try:
        batch = client.get_companies(ids, errors="collect", progress=False)
    except RegkitError as exc:
        return None, error_html(exc), None, None
    co = co_officers(person, list(batch.ok))
    failed = f"; {len(batch.errors)} could not be fetched" if batch.errors else ""
    spent = client.credits_spent - before
    both = interlocks(co)
    head = message_html(
        f"From the records of their {plural(len(ids), 'company', 'companies')} "
        f"({credits_text(spent)}{failed}): {plural(co['person_id'].nunique(), 'person', 'people')} "
        f"served with them, {count_text(len(both))} of them at two or more of these companies.",
        "ok",
    )
    everyone = co.assign(
        roles=[
            " · ".join(display_label("role", r.upper().replace(" ", "_")) for r in roles.split(" · "))
            for roles in co["roles"]
        ]
    ).rename(columns={"is_current": "current"})
    return (
        co,
        head,
        (
            "<h4>At two or more companies</h4>" + message_html(_SHARED_NOTE),
            both.rename(columns={"n_companies": _SHARED}),
            ["name", _SHARED, "company_names", "current"],
        ),
        ("<h4>Everyone, per company</h4>", everyone, ["name", "company_name", "roles", "start", "end", "current"]),
    )
