"""A person's positions over time: one lane per company, a bar per position (and per shareholding), years on
the axis.

:func:`position_bars` is the table :func:`positions_chart` draws, one row per bar, built from
:func:`regkit.frames.management_positions` and, if given, :func:`regkit.frames.holdings`.

Open ends
    A position still held (no ``end_date``) or a current holding is drawn up to ``until`` and marked with an
    arrow head. ``until`` defaults to the last day of the year of the newest date among the positions and
    holdings, or today if that is earlier — never a day still to come — so the same person gives the same
    figure once that year is over (``age`` is not used: the register counts it on its current date); pass
    ``until="today"`` (or a date) to draw up to another day.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
from matplotlib import dates as mdates

from regkit.frames import holdings as holdings_frame
from regkit.frames import management_positions
from regkit.plot.bar_text import bar_text
from regkit.plot.history import COLOURS as _TIMELINE_COLOURS
from regkit.plot.source_line import add_source_line
from regkit.plot.style import new_axes
from regkit.schema import REPRESENTATION_ROLES, display_label
from regkit.schema.labels import ROLE_LABELS, plain_label

from .render import percent_text

__all__ = ["BAR_COLUMNS", "HOLDING", "KEY_COLOURS", "position_bars", "positions_chart"]

BAR_COLUMNS = ("lane", "row", "company_id", "company_name", "start", "end", "open", "key", "text")
"""Columns of :func:`position_bars`."""

HOLDING = "shareholding"
"""The ``key`` of a holding's bar."""

KEY_COLOURS = {**{role: _TIMELINE_COLOURS[role] for role in REPRESENTATION_ROLES}, HOLDING: "#C9B38F"}
"""Bar colour per role (the colours of :func:`regkit.plot.timeline`) and for shareholdings."""

_LANE_LABEL = 34  # characters of a company name on the y axis
_FONT = 9.0  # the smallest text of the chart (points)


def _role_text(role: str, gloss: bool = True) -> str:
    """A role as a reader says it ("director (Geschäftsführer / Vorstand)"; without ``gloss`` "director", as on
    the bars: the legend glosses it); ``shareholder`` stays a word."""
    if role not in ROLE_LABELS:
        return role.replace("_", " ").lower()
    return display_label("role", role) if gloss else plain_label("role", role)


def _until(starts: pd.Series, ends: pd.Series, until: Any) -> pd.Timestamp:
    today = pd.Timestamp.today().normalize()
    if isinstance(until, str) and until == "today":
        return today
    if until is not None:
        return pd.Timestamp(until)
    newest = pd.concat([starts, ends]).max()
    year_end = pd.Timestamp(year=(newest if pd.notna(newest) else pd.Timestamp("1970-01-01")).year, month=12, day=31)
    return min(year_end, today)


def _pack(bars: pd.DataFrame) -> list[int]:
    """A sub-row per bar within its company's lane: bars that overlap in time never share one."""
    rows: list[int] = []
    ends: dict[tuple[str, int], pd.Timestamp] = {}
    for r in bars.itertuples(index=False):
        row = 0
        while (r.company_id, row) in ends and ends[(r.company_id, row)] > r.start:
            row += 1
        ends[(r.company_id, row)] = r.end
        rows.append(row)
    return rows


def position_bars(person: Any, holdings: Any = None, until: Any = None) -> pd.DataFrame:
    """The bars of :func:`positions_chart`, one per position (and holding), lanes in the order drawn.

    Parameters
    ----------
    person : record or dict
        One person (``client.get_person(uuid)`` or a PersonV1 dict).
    holdings : record or dict, optional
        Their holdings (``client.get_person_holdings(uuid)``): drawn as ``shareholding`` bars.
    until : date-like or "today", optional
        Where open bars end (see the module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per bar; companies in the order of their first bar (earliest on top), bars by start:

        ============  ==============  ===============================================================
        lane          int64           0 for the top company, 1 for the next, ...
        row           int64           the bar's line, top to bottom over all lanes (a company whose
                                      bars overlap in time gets one line per overlapping bar)
        company_id    str
        company_name  str
        start         datetime64[us]  ``start_date`` / ``start``
        end           datetime64[us]  ``end_date`` / ``end``, or ``until`` if open
        open          bool            still held (drawn up to ``until``)
        key           str             the role (``DIRECTOR``, ...) or ``shareholding``
        text          str             what the bar says: the role, or ``shareholder 72.73 %``
        ============  ==============  ===============================================================

        ``attrs``: ``until`` (Timestamp), ``undated`` (int: positions and holdings without a start, not drawn).
    """
    positions = management_positions(person)
    parts = [
        pd.DataFrame(
            {
                "company_id": positions["company_id"],
                "company_name": positions["company_name"],
                "start": positions["start_date"],
                "end": positions["end_date"],
                "key": positions["role"].astype(str),
                "text": [_role_text(str(r), gloss=False) for r in positions["role"]],
            }
        )
    ]
    if holdings is not None:
        held = holdings_frame(holdings)
        partner = set(positions.loc[positions["role"].astype(str) == "PERSONAL_LIABLE_DIRECTOR", "company_id"])
        no_capital = held["share"].isna() | (held["share"].fillna(0.0) == 0.0)
        # a general partner without a share of the capital is the position already drawn, not a 0 % holding
        held = held[
            ~((held["relation_type"].astype(str) == "general_partner") & no_capital & held["company_id"].isin(partner))
        ]
        texts = [_holding_text(str(t), s) for t, s in zip(held["relation_type"], held["share"])]
        parts.append(
            pd.DataFrame(
                {
                    "company_id": held["company_id"],
                    "company_name": held["company_name"],
                    "start": held["start"],
                    "end": held["end"],
                    "key": HOLDING,
                    "text": texts,
                }
            )
        )
    bars = pd.concat([p for p in parts if len(p)], ignore_index=True) if any(len(p) for p in parts) else parts[0]
    end = _until(bars["start"], bars["end"], until)
    undated = int(bars["start"].isna().sum())
    bars = bars[bars["start"].notna()].copy()
    bars["open"] = bars["end"].isna().to_numpy(bool)
    bars["end"] = bars["end"].where(bars["end"].notna(), end)
    first = bars.groupby("company_id")["start"].min()
    order = sorted(first.index, key=lambda cid: (first[cid], cid))
    bars["lane"] = bars["company_id"].map({cid: i for i, cid in enumerate(order)}).astype("int64")
    bars = bars.sort_values(["lane", "start", "key"], kind="stable", ignore_index=True)
    bars["sub"] = _pack(bars)
    height = bars.groupby("lane")["sub"].max() + 1
    offset = height.cumsum() - height
    bars["row"] = (bars["lane"].map(offset) + bars["sub"]).astype("int64")
    for column in ("start", "end"):
        bars[column] = pd.to_datetime(bars[column]).astype("datetime64[us]")
    frame = bars[list(BAR_COLUMNS)].reset_index(drop=True)
    frame.attrs.update(until=end, undated=undated)
    return frame


def _year_axis(ax: Any, left: float, right: float) -> None:
    span = (right - left) / 365.25
    ax.xaxis_date()
    ax.xaxis.set_major_locator(mdates.YearLocator(base=max(1, math.ceil(span / 10))))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y"))


def _lane_label(name: str, company_id: str, repeated: bool) -> str:
    """The name (shortened), with the register number where another lane has the same name."""
    short = name if len(name) <= _LANE_LABEL else name[: _LANE_LABEL - 1] + "…"
    parts = company_id.split("-")
    return f"{short} ({parts[1]} {parts[3]})" if repeated and len(parts) == 4 else short


def positions_chart(
    person: Any,
    ax: Any = None,
    *,
    holdings: Any = None,
    until: Any = None,
    title: str | None = None,
    source: Any = True,
) -> Any:
    """Draw a person's management positions (and holdings) over time: one lane per company.

    Parameters
    ----------
    person : record or dict
        One person (``client.get_person(uuid)`` or a PersonV1 dict).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure sized to the number of lanes.
    holdings : record or dict, optional
        Their holdings (``client.get_person_holdings(uuid)``), drawn as ``shareholding`` bars.
    until : date-like or "today", optional
        As for :func:`position_bars`.
    title : str, optional
        Default: the person's name.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        One ``BarContainer`` per key (label: the role or ``shareholding``) in ``ax.containers``; arrow heads
        (gid ``"open"``) at the end of open bars; a legend of the keys inside the axes, above the lanes.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> person = {"id": "9922b97a-9c35-4d0b-8d2b-3908753a84b7", "first_name": "Ida", "last_name": "Roth",
    ...     "city": "Kassel", "date_of_birth": None, "age": None, "management_positions": [
    ...     {"company_name": "Roth GmbH", "register_id": "DE-HRB-B1234-1", "role": "DIRECTOR",
    ...      "start_date": "2019-04-01", "end_date": None},
    ...     {"company_name": "Alt AG", "register_id": "DE-HRB-B1234-2", "role": "PROKURA",
    ...      "start_date": "2001-01-01", "end_date": "2005-01-01"}]}
    >>> ax = positions_chart(person)
    >>> [(c.get_label(), len(c)) for c in ax.containers], [t.get_text() for t in ax.get_yticklabels()]
    ([('DIRECTOR', 1), ('PROKURA', 1)], ['Alt AG', 'Roth GmbH'])
    """
    bars = position_bars(person, holdings, until)
    rows = int(bars["row"].max()) + 1 if len(bars) else 1
    keys = [k for k in (*REPRESENTATION_ROLES, HOLDING) if k in set(bars["key"])]
    ax = new_axes(ax, (9.0, max(2.6, 0.42 * rows + 1.9)))
    add_source_line(ax, source, person)
    left = mdates.date2num(bars["start"].to_numpy())
    width = mdates.date2num(bars["end"].to_numpy()) - left
    for key in keys:
        pick = (bars["key"] == key).to_numpy()
        ax.barh(
            -bars["row"][pick].to_numpy(),
            width[pick],
            left=left[pick],
            height=0.62,
            color=KEY_COLOURS.get(key, "#7F7F7F"),
            edgecolor="white",
            linewidth=0.6,
            label=key,
        )
    start = float(left.min()) if len(bars) else mdates.date2num(bars.attrs["until"])
    stop = mdates.date2num(bars.attrs["until"])
    span = stop - start + 1
    colours = [KEY_COLOURS.get(k, "#7F7F7F") for k in bars["key"]]
    for i, (x, w, y, text) in enumerate(zip(left, width, bars["row"], bars["text"])):
        same = [j for j in range(len(bars)) if bars["row"].iat[j] == y and j != i]
        before = max([float(left[j] + width[j]) for j in same if left[j] + width[j] <= x] + [start - 0.02 * span])
        after = min([float(left[j]) for j in same if left[j] >= x + w] + [stop + 0.02 * span])
        bar_text(ax, float(x), float(x + w), -float(y), str(text), colours[i], fontsize=_FONT, outside=(before, after))
    ends = bars[bars["open"]]
    if len(ends):
        ax.plot(
            mdates.date2num(ends["end"].to_numpy()),
            -ends["row"].to_numpy(),
            linestyle="none",
            marker=">",
            markersize=4,
            color="#333333",
            gid="open",
        )
    lanes = bars.groupby("lane", sort=True).agg(
        top=("row", "min"), bottom=("row", "max"), name=("company_name", "first"), company_id=("company_id", "first")
    )
    counts = lanes["name"].astype(str).value_counts()
    labels = [_lane_label(str(n), str(c), counts[str(n)] > 1) for n, c in zip(lanes["name"], lanes["company_id"])]
    ax.set_yticks(-(lanes["top"] + lanes["bottom"]) / 2, labels, fontsize=_FONT)
    for bottom in lanes["bottom"].iloc[:-1]:
        ax.axhline(-bottom - 0.5, color="#d0d7de", linewidth=0.6)
    columns = _legend_columns([_role_text(k) for k in keys], ax.figure.get_figwidth() * 0.62 * 72)
    legend_rows = math.ceil(len(keys) / columns) if keys else 0
    ax.set_ylim(-rows + 0.4, 0.6 + 0.9 * legend_rows)  # an empty band on top holds the legend
    if keys:
        ax.legend(
            loc="upper left",
            ncol=columns,
            fontsize=_FONT,
            frameon=True,
            framealpha=0.9,
            labels=[_role_text(k) for k in keys],
            handles=ax.containers[: len(keys)],
        )
    _year_axis(ax, start, stop)
    ax.set_xlim(start - 0.02 * span, stop + 0.02 * span)
    ax.grid(True, axis="x", alpha=0.3)
    notes = [f"▶ still held: drawn up to {bars.attrs['until']:%Y-%m-%d}"] if len(ends) else []
    if bars.attrs["undated"]:
        notes.append(f"{bars.attrs['undated']} without a start date not shown")
    ax.set_xlabel("; ".join(notes), fontsize=_FONT)
    raw = getattr(person, "raw", person)
    name = " ".join(str(raw.get(k) or "") for k in ("first_name", "last_name")).strip() or str(raw.get("id", ""))
    ax.set_title(title if title is not None else f"{name}: positions over time", fontsize=10)
    return ax


def _legend_columns(labels: list[str], width: float) -> int:
    """How many columns of these legend entries fit ``width`` points side by side (at least one)."""
    sizes = sorted((len(label) * 0.56 * _FONT + 2.8 * _FONT for label in labels), reverse=True)
    return next((n for n in range(len(sizes), 1, -1) if sum(sizes[:n]) <= width), 1)  # the widest n side by side


def _holding_text(relation: str, share: Any) -> str:
    """``"shareholder 25 %"``; a general partner without a share of the capital (0 or unknown) has no percent.

    Examples
    --------
    >>> _holding_text("shareholder", 0.25), _holding_text("general_partner", 0.0)
    ('shareholder 25 %', 'general partner')
    """
    if relation == "general_partner" and (pd.isna(share) or float(share) == 0.0):
        return _role_text(relation)
    return f"{_role_text(relation)} {percent_text(share)}"
