"""What changed when: a timeline of typed changes, for one company or a whole watchlist.

The input is a frame of changes — :meth:`regkit.client.Client.changes`, a watchlist refresh's ``changes``
(:meth:`regkit.client.watchlist.Watchlist.refresh`), or the events a receiver stored
(:func:`regkit.client.webhook.read_events`). Each change is a dot, coloured by its category (the same colour in
every figure), on the day the register gives for it (a new director's first day, a new name's): filled. A change
whose answer gives no such day — a report filed (its date is the fiscal year's end, not the filing's), a
correction — is a hollow dot in a column of its own right of the dates (after a dashed line): it is new since the
answer before, but when it happened is not known, and a date of fetching would mix the register's clock with the
reader's.

For one entity each change is a row, the newest on top, labelled with its date and what happened in words. For
several, the rows are the entities with changes, the most recently changed on top, at most ``max_rows`` of them
(the title says how many more there are): a watchlist of 300 companies shows the few dozen that changed, not 300
empty rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from regkit.schema.changes import CATEGORIES

from .inputs import Input, check_input, frame_with
from .source_line import add_source_line
from .style import date_axis, new_axes

__all__ = ["CATEGORY_COLOURS", "changes_timeline", "kind_label"]

#: The colour of each category of change (a monitor's preferences); all different.
CATEGORY_COLOURS: Mapping[str, str] = {
    "basic": "#4C72B0",
    "representation": "#DD8452",
    "financials": "#55A868",
    "documents": "#8172B3",
    "ownership": "#C44E52",
    "holdings": "#937860",
    "insolvencies": "#111111",
    "management_positions": "#DA8BC3",
}
_FONT = 9.0

_KIND_WORDS = {
    "name_changed": "new name",
    "legal_form_changed": "new legal form",
    "address_changed": "new address",
    "seat_moved": "seat moved",
    "register_changed": "new register",
    "purpose_changed": "new purpose",
    "capital_changed": "capital",
    "status_changed": "status",
    "terminated": "terminated",
    "merged_into": "merged",
    "acquisition": "acquisition",
    "spin_off": "spin-off",
    "profit_transfer_agreement_started": "profit transfer agreement",
    "profit_transfer_agreement_ended": "profit transfer agreement ended",
    "industry_changed": "industry",
    "contact_changed": "contact",
    "representative_appointed": "appointed",
    "representative_left": "left",
    "role_changed": "new role",
    "authority_changed": "new authority",
    "representation_rule_changed": "representation rule",
    "report_filed": "report filed",
    "report_corrected": "report corrected",
    "document_filed": "document filed",
    "document_superseded": "document superseded",
    "shareholder_list_filed": "shareholder list",
    "owner_added": "new owner",
    "owner_removed": "owner gone",
    "share_changed": "share changed",
    "beneficial_owner_changed": "beneficial owner",
    "holding_added": "new holding",
    "holding_removed": "holding gone",
    "holding_share_changed": "holding changed",
    "insolvency_opened": "insolvency opened",
    "insolvency_status_changed": "insolvency status",
    "insolvency_event": "insolvency event",
    "position_started": "position started",
    "position_ended": "position ended",
}

CHANGES = Input(
    "a frame of changes",
    "client.changes(id), watchlist.refresh().changes or regkit.client.webhook.read_events(store)",
    frame_with("category", "kind", "date"),
)
_REFRESH = Input(
    "a watchlist refresh", "watchlist.refresh()", lambda v: isinstance(getattr(v, "changes", None), pd.DataFrame)
)


def kind_label(change: Mapping[str, Any]) -> str:
    """A few words for one change: what happened and to whom or what.

    Examples
    --------
    >>> kind_label({"kind": "representative_appointed", "after": "DIRECTOR", "detail": {"name": "Max Hürtgen"}})
    'Max Hürtgen appointed (DIRECTOR)'
    >>> kind_label({"kind": "name_changed", "after": "Nord Holding GmbH", "detail": {}})
    'new name: Nord Holding GmbH'
    """
    kind = str(change.get("kind"))
    words = _KIND_WORDS.get(kind, kind.replace("_", " "))
    detail = change.get("detail") if isinstance(change.get("detail"), Mapping) else {}
    who = detail.get("name") if isinstance(detail, Mapping) else None
    if kind in {"representative_appointed", "representative_left"} and who:
        role = change.get("after") if kind == "representative_appointed" else change.get("before")
        return f"{who} {words}" + (f" ({role})" if role else "")
    if kind in {"name_changed", "status_changed"} and change.get("after"):
        return f"{words}: {change['after']}"
    if kind == "seat_moved" and isinstance(detail, Mapping) and detail.get("city_after"):
        return f"{words} to {detail['city_after']}"
    return words


def changes_timeline(
    changes: Any,
    ax: Any = None,
    *,
    names: Mapping[str, str] | None = None,
    max_rows: int = 40,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """Draw what changed when: one dot per change, coloured by category.

    Parameters
    ----------
    changes : pandas.DataFrame or WatchlistRefresh
        A frame of changes with ``category``, ``kind`` and ``date`` (and ``entity_id`` to draw several entities),
        or a watchlist refresh.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the rows.
    names : mapping, optional
        Entity id → the name to show (default the ids).
    max_rows : int
        Most entities shown (the most recently changed); the title says how many more have changes.
    title : str, optional
        Default: how many changes of how many entities, and the span of their register dates.
    source : str, bool or None
        The figure's source line (see :func:`regkit.plot.add_source_line`).

    Returns
    -------
    matplotlib.axes.Axes
        Filled dots (gid ``"change"``) on the register's date of each change; changes without one (a report
        filed: its date is its fiscal year's end) as hollow dots (gid ``"change-undated"``) in a column of their
        own right of a dashed line, as the legend says. Y tick labels: each change's date and what happened (one
        entity) or the entities with their number of changes (several). A legend of the categories drawn, with their counts.
        Without changes the axes say so (gid ``"no-data"``), without a warning: that nothing changed is an answer.

    Raises
    ------
    regkit.errors.ArgumentError
        ``changes`` is not a frame of changes, or ``max_rows`` is not a whole number of at least 1.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> frame = pd.DataFrame({"entity_id": ["DE-HRB-B1234-1"], "category": ["basic"], "kind": ["name_changed"],
    ...     "date": [pd.Timestamp("2026-08-01")], "after": ["Nord GmbH"], "detail": [{}]})
    >>> ax = changes_timeline(frame, source=None)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['2026-08-01  new name: Nord GmbH']
    """
    kind, given = check_input(changes, "changes_timeline", CHANGES, _REFRESH)
    frame = given.changes if kind is _REFRESH else given
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        from regkit.errors import ArgumentError

        raise ArgumentError(
            f"max_rows must be a whole number of at least 1, not {max_rows!r}", suggestion="e.g. max_rows=40"
        )
    when = _register_days(frame)
    undated = np.isnan(when)
    entities = frame["entity_id"].astype(str).to_numpy() if "entity_id" in frame.columns else np.full(len(frame), "")
    several = len(set(entities)) > 1
    if several:
        rows, labels, hidden = _entity_rows(entities, when, names or {}, max_rows)
    else:
        rows, labels, hidden = _change_rows(frame, when, max_rows)
    ax = new_axes(ax, (9.5, max(2.4, 0.3 * len(labels) + 1.6)))
    add_source_line(ax, source, changes)
    if frame.empty:  # said in the figure; no warning: nothing changed is an answer, not a gap
        ax.set_axis_off()
        ax.text(0.5, 0.5, "no changes", ha="center", va="center", fontsize=11, transform=ax.transAxes, gid="no-data")
        return ax
    categories = frame["category"].astype(str).to_numpy()
    keys = entities if several else np.array([str(i) for i in range(len(frame))])
    y = np.array([-rows[k] if k in rows else np.nan for k in keys], dtype=float)
    shown = ~np.isnan(y)
    low, high = _span(when[shown & ~undated])
    column = high + 0.12 * (high - low)  # the undated column, right of the dates
    x = np.where(undated, column, when)
    for category in CATEGORIES:
        pick = shown & (categories == category)
        if not pick.any():
            continue
        colour = CATEGORY_COLOURS.get(category, "#777777")
        label = f"{category} ({int(pick.sum())})"
        if (pick & ~undated).any():
            ax.scatter(x[pick & ~undated], y[pick & ~undated], s=42, color=colour, zorder=3, label=label, gid="change")
            label = "_"
        if (pick & undated).any():
            ax.scatter(
                x[pick & undated],
                y[pick & undated],
                s=42,
                facecolor="white",
                edgecolor=colour,
                linewidth=1.6,
                zorder=3,
                label=label,
                gid="change-undated",
            )
    ax.set_yticks([-i for i in range(len(labels))], labels, fontsize=_FONT)
    ax.set_ylim(-len(labels) + 0.4, 0.8)
    date_axis(ax)
    ax.set_xlim(low - 0.03 * (high - low), column + 0.06 * (high - low))
    if undated[shown].any():
        edge = high + 0.06 * (high - low)
        ax.axvline(edge, color="#999999", linewidth=0.8, linestyle="--", zorder=1)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_xlabel("the register's date of the change")
    handles, legend_labels = ax.get_legend_handles_labels()
    if undated[shown].any():
        from matplotlib.lines import Line2D

        handles.append(
            Line2D([], [], marker="o", linestyle="", markerfacecolor="white", markeredgecolor="#777777", markersize=7)
        )
        legend_labels.append(
            "hollow, right of the line:\nno register date (a report:\nits date is its fiscal year's end)"
        )
    if handles:
        ax.legend(handles, legend_labels, fontsize=_FONT, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    heading = title if title is not None else _title(frame, entities, when, shown & ~undated, names or {})
    if hidden:  # said where nobody misses it: under the title
        heading += (
            f"\n+ {hidden} more with changes (the {len(labels)} changed last are shown)"
            if several
            else f"\n+ {hidden} older changes (the {len(labels)} newest are shown)"
        )
    ax.set_title(heading, fontsize=10)
    return ax


def _register_days(frame: pd.DataFrame) -> np.ndarray:
    """Each change's register date as a matplotlib date number; NaN without one (and for financial reports,
    whose date is the end of the fiscal year they report on, not when they were filed)."""
    from matplotlib import dates as mdates

    date = pd.to_datetime(frame["date"], errors="coerce")
    if getattr(date.dt, "tz", None) is not None:
        date = date.dt.tz_convert("UTC").dt.tz_localize(None)
    date = date.where(frame["category"].astype(str) != "financials")
    return np.array([mdates.date2num(d) if not pd.isna(d) else np.nan for d in date], dtype=float)


def _span(days: np.ndarray) -> tuple[float, float]:
    """The first and last of ``days`` (at least 60 days apart, centred; a recent year without any)."""
    from matplotlib import dates as mdates

    if days.size == 0:
        end = mdates.date2num(pd.Timestamp.now().normalize())
        return end - 365.0, end
    low, high = float(np.nanmin(days)), float(np.nanmax(days))
    if high - low < 60:
        middle = (low + high) / 2
        low, high = middle - 30, middle + 30
    return low, high


def _change_rows(frame: pd.DataFrame, when: np.ndarray, max_rows: int) -> tuple[dict[str, int], list[str], int]:
    """One entity: a row per change (by position), the newest on top, labelled with its date and what happened;
    at most ``max_rows`` (the newest), and how many are hidden."""
    records = frame.to_dict("records")
    order = sorted(range(len(records)), key=lambda i: (-(np.inf if np.isnan(when[i]) else when[i]), i))
    shown = order[:max_rows]
    labels = []
    for i in shown:
        day = records[i].get("date")
        known = not np.isnan(when[i]) and not pd.isna(day)
        labels.append(
            f"{pd.Timestamp(day):%Y-%m-%d}  {_short(kind_label(records[i]), 48)}"
            if known
            else _short(kind_label(records[i]), 60)
        )
    return {str(i): row for row, i in enumerate(shown)}, labels, len(order) - len(shown)


def _entity_rows(
    entities: np.ndarray, when: np.ndarray, names: Mapping[str, str], max_rows: int
) -> tuple[dict[str, int], list[str], int]:
    """The row of each shown entity (the most recently changed first: an undated change counts as the most recent,
    it is new since the last check), the y labels, and how many are hidden."""
    latest: dict[str, float] = {}
    counts: dict[str, int] = {}
    for entity, day in zip(entities, when):
        counts[entity] = counts.get(entity, 0) + 1
        latest[entity] = max(latest.get(entity, -np.inf), np.inf if np.isnan(day) else day)
    order = sorted(counts, key=lambda e: (-latest.get(e, -np.inf), str(names.get(e, e))))
    shown = order[:max_rows]
    labels = [f"{_short(str(names.get(e, e)))} ({counts[e]})" for e in shown]
    return {e: i for i, e in enumerate(shown)}, labels, len(order) - len(shown)


def _short(text: str, length: int = 40) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def _title(
    frame: pd.DataFrame, entities: np.ndarray, when: np.ndarray, shown: np.ndarray, names: Mapping[str, str]
) -> str:
    from matplotlib import dates as mdates

    span = ""
    if shown.any():
        first, last = (mdates.num2date(x).date().isoformat() for x in (np.nanmin(when[shown]), np.nanmax(when[shown])))
        span = f", {first} – {last}" if first != last else f", {first}"
    count = len(set(entities))
    who = (
        f"{count} entities"
        if count > 1
        else (str(names.get(entities[0], entities[0])) if count and entities[0] else "one entity")
    )
    return f"What changed: {len(frame)} change{'' if len(frame) == 1 else 's'} of {who}{span}"
