"""A company's cap table over time: who held how much at each shareholder list, stacked to 100 %, step-wise.

Each filed shareholder list is a step: from its date until the next list the shares stand as that list shows
them, one coloured band per owner, stacked to 100 % (the lists' percentages). The owner's name and share are
written inside their band where it is tall enough — the name whole, wrapped at its spaces in a narrow band, or left
out where it still does not fit (never cut short) — and every owner is in the legend (right of the chart) with
the share they last held. The last list's shares are drawn until ``until`` (by default two years after it, at
least a third of the span). A dotted vertical line marks each list's date, and the date is written above the
chart ("30 Jun 2015"); a date too close to the one before it to be written beside it keeps its line and tick,
and the chart says how many went unwritten. The title names the company where the data know its name (a record
of ``client.get_ownership_history`` reads it from the client's cache, for free), else its id.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import dates as mdates
from matplotlib.transforms import blended_transform_factory

from regkit.errors import ValidationError
from regkit.schema.dates import validate_date

from .group_labels import shorten
from .inputs import OWNERSHIP_ANSWER, OWNERSHIP_FRAME, check_input
from .source_line import add_source_line
from .style import new_axes
from .years import year_axis

__all__ = ["CAP_TABLE_COLOURS", "cap_table", "cap_table_steps"]

CAP_TABLE_COLOURS = (
    "#4C72B0",
    "#DD8452",
    "#55A868",
    "#C44E52",
    "#8172B3",
    "#937860",
    "#DA8BC3",
    "#8C8C8C",
    "#CCB974",
    "#64B5CD",
)
"""Band colours, given to owners in the order they first appear (then repeated)."""

_LABEL_CHARACTERS = 28
_DATE_FONT = 9.0  # the list dates above the chart (points): the smallest text regkit draws
_DATE_ROOM = 6.0  # the title's distance above the dates (points)
_TITLE_CHARACTERS = 70  # a longer title is wrapped at a word


def _history(history: Any, plot: str) -> pd.DataFrame:
    """The ownership-history frame of ``history`` (a frame or an answer); else an error naming what was given."""
    kind, given = check_input(history, plot, OWNERSHIP_FRAME, OWNERSHIP_ANSWER)
    if kind is OWNERSHIP_FRAME:
        return given
    from regkit.frames import ownership_history

    return ownership_history(given)


def _percent(frame: pd.DataFrame) -> pd.Series:
    """Each row's share in percent: the list's ``percentage`` as printed, else ``share`` (a fraction) * 100."""
    if "percentage" in frame:
        return frame["percentage"].astype(float)
    return frame["share"].astype(float) * 100


def cap_table_steps(history: Any) -> pd.DataFrame:
    """The cap table as a table: one row per shareholder list, one column per owner (percent; 0 where absent).

    Parameters
    ----------
    history : DataFrame or answer
        :func:`regkit.frames.ownership_history` or the ownership-history answer itself. Of a frame, the values
        are its ``percentage`` (percent, as the lists print them), else its ``share`` (a fraction) * 100.

    Returns
    -------
    pandas.DataFrame
        Index ``document_date`` (datetime64[us], one row per list, oldest first); columns the owners (their
        ``owner_id`` where known, else the name) in the order they first appear — except that an owner who took
        over a stake one-to-one (a list where one owner leaves and one arrives with the same share) comes right
        after the one they took it from, so the stake keeps its place in the stack and only its colour changes;
        values ``float64`` percent.

    Examples
    --------
    >>> answer = {"owners": [
    ...     {"id": "p-1", "name": "Ida Roth", "entity_type": "natural_person", "ownership_history": [
    ...         {"document_id": "d1", "document_date": "2010-01-04", "nominal_shares": 2500000, "percentage_shares": 100.0},
    ...         {"document_id": "d2", "document_date": "2015-06-30", "nominal_shares": 1250000, "percentage_shares": 50.0}]},
    ...     {"id": "p-2", "name": "Eva Lenz", "entity_type": "natural_person", "ownership_history": [
    ...         {"document_id": "d2", "document_date": "2015-06-30", "nominal_shares": 1250000, "percentage_shares": 50.0}]}]}
    >>> cap_table_steps(answer).to_dict("index")  # doctest: +NORMALIZE_WHITESPACE
    {Timestamp('2010-01-04 00:00:00'): {'p-1': 100.0, 'p-2': 0.0},
     Timestamp('2015-06-30 00:00:00'): {'p-1': 50.0, 'p-2': 50.0}}
    """
    frame = _history(history, "cap_table_steps")
    key = frame["owner_id"].fillna(frame["owner_name"]) if "owner_id" in frame else frame["owner_name"]
    data = pd.DataFrame({"document_date": frame["document_date"], "owner": key, "percentage": _percent(frame)})
    order = list(dict.fromkeys(data.sort_values("document_date", kind="stable")["owner"]))
    table = data.pivot_table(index="document_date", columns="owner", values="percentage", aggfunc="sum")
    table = table.reindex(columns=order).fillna(0.0).astype("float64")
    table = table[_successors_beside(table)]
    table.columns.name = None
    return table


def _successors_beside(table: pd.DataFrame) -> list[Any]:
    """The owners in stack order: first appearance, each one-to-one successor right after the owner it replaced."""
    order = list(table.columns)
    values = table.to_numpy()
    for i in range(1, len(table)):
        left = [o for k, o in enumerate(table.columns) if values[i - 1, k] > 0 and values[i, k] == 0]
        came = [o for k, o in enumerate(table.columns) if values[i - 1, k] == 0 and values[i, k] > 0]
        for arrived in came:
            share = values[i, list(table.columns).index(arrived)]
            match = [o for o in left if abs(values[i - 1, list(table.columns).index(o)] - share) < 1e-9]
            if match:
                left.remove(match[0])
                order.remove(arrived)
                order.insert(order.index(match[0]) + 1, arrived)
    return order


def cap_table(
    history: Any,
    ax: Any = None,
    *,
    until: Any = None,
    title: str | None = None,
    source: Any = True,
    label_min: float = 12.0,
) -> Any:
    """Draw the cap table over time: each owner's share at each shareholder list, stacked to 100 %.

    Parameters
    ----------
    history : DataFrame or answer
        :func:`regkit.frames.ownership_history` of one company, or the ownership-history answer.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    until : date-like, optional
        How long the last list's shares are drawn (default: two years after the last list, at least a third of
        the span from the first, so the current owners' band is wide enough for their names): a ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO
        ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a ``ValidationError``.
    title : str, optional
        The Axes title (default: "Shareholders by shareholder list").
    label_min : float
        An owner's name and share are written inside their band where the band is at least this many percentage
        points tall: the name whole, wrapped at its spaces where the band is narrow, or left out (the share
        alone; the legend names the colour) where even so it does not fit — never cut.
    source : str, bool or None
        The figure's source line at its bottom-left (:mod:`regkit.plot.source_line`): ``True`` (default) what the
        data says or the session's default, a string that line, ``None``/``False`` none; with ``ax=`` the figure
        carries it once.

    Returns
    -------
    matplotlib.axes.Axes
        Bands step-wise between list dates, y from 0 to 100 %, a dotted line at each list date, the legend
        (owner and last share held) right of the chart.

    Raises
    ------
    regkit.errors.ArgumentError
        ``history`` is neither an ownership-history frame nor an answer (None, a string, a company record…).
    regkit.errors.ValidationError
        When the history has no shareholder list.
    """
    frame = _history(history, "cap_table")
    steps = cap_table_steps(frame)
    if steps.empty:
        raise ValidationError(
            "the ownership history has no shareholder list: nothing to draw (a company that files none)",
            suggestion="draw a company that files shareholder lists (client.get_ownership_history(id) has owners)",
        )
    names = dict(
        zip(
            frame["owner_id"].fillna(frame["owner_name"]) if "owner_id" in frame else frame["owner_name"],
            frame["owner_name"],
        )
    )
    dates = list(steps.index)
    first, last = dates[0], dates[-1]
    end = (
        pd.Timestamp(validate_date(until, "until"))
        if until is not None
        else last + max(pd.Timedelta(days=730), (last - first) / 3)
    )
    if end <= last:
        raise ValidationError(
            f"until ({end.date()}) must come after the last list ({last.date()})",
            suggestion="pass a later until=, or leave it out (a year after the last list)",
        )
    x = mdates.date2num([*dates, end])
    ax = new_axes(ax, figsize=(9.0, 4.2))
    add_source_line(ax, source, history)
    bottom = np.zeros(len(dates) + 1)
    # a label character's width in days: about 0.6 em of the 9 pt font the names are drawn in, on the axes' width
    inches = ax.get_position().width * ax.figure.get_figwidth()
    per_character = (x[-1] - x[0]) / inches * (9 * 0.6 / 72) * 1.3  # and a margin either side
    per_line = 100 / (ax.get_position().height * ax.figure.get_figheight()) * (9 * 1.3 / 72)  # a line, in points %
    for index, owner in enumerate(steps.columns):
        values = np.append(steps[owner].to_numpy(), steps[owner].to_numpy()[-1])
        colour = CAP_TABLE_COLOURS[index % len(CAP_TABLE_COLOURS)]
        held = steps[owner].to_numpy()
        label = f"{shorten(str(names[owner]), _LABEL_CHARACTERS)} ({held[-1]:g} %)" if held[-1] else None
        label = label or f"{shorten(str(names[owner]), _LABEL_CHARACTERS)} (until {_last_held(steps, owner)})"
        ax.fill_between(
            x, bottom, bottom + values, step="post", color=colour, edgecolor="white", linewidth=0.6, label=label
        )
        for i in range(len(dates)):  # the name inside the band, where it fits
            width, height = x[i + 1] - x[i], values[i]
            characters = int(width / per_character)  # how many characters the band is wide
            text = _band_text(str(names[owner]), f"{height:g} %", characters, int(height / per_line))
            if height >= label_min and text:
                ax.text(
                    (x[i] + x[i + 1]) / 2,
                    bottom[i] + height / 2,
                    text,
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white",
                    clip_on=True,
                )
        bottom = bottom + values
    for day in x[:-1]:
        ax.axvline(day, color="#333333", linestyle=":", linewidth=0.8)
    ax.set_ylim(0, 100)
    ax.set_ylabel("share of the capital (%)")
    year_axis(ax, first, end)
    above = _list_dates(ax, dates, x[-1] - x[0], inches)
    who = _company(history, frame)
    default = f"{who}: shareholders by shareholder list" if who else "Shareholders by shareholder list"
    ax.set_title(textwrap.fill(title if title is not None else default, _TITLE_CHARACTERS), pad=above + _DATE_ROOM)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False, title="owner (last share)")
    return ax


def _band_text(name: str, share: str, characters: int, lines: int) -> str:
    r"""What a band ``characters`` wide and ``lines`` tall says: the whole name and the share, the name wrapped at
    its spaces where one line is too narrow, else the share alone (the legend names the colour) — a name is never
    cut ("Marcus Kög" was someone else's name); nothing where not even the share fits.

    Examples
    --------
    >>> _band_text("Marcus Kögel", "35.71 %", 20, 4)
    'Marcus Kögel\n35.71 %'
    >>> _band_text("Marcus Kögel", "35.71 %", 7, 4)
    'Marcus\nKögel\n35.71 %'
    >>> _band_text("Jörg Dickscheid", "32.14 %", 7, 4)
    '32.14 %'
    >>> _band_text("Jörg Dickscheid", "32.14 %", 5, 4)
    ''
    """
    if len(share) > characters or lines < 1:
        return ""
    wrapped = [name] if len(name) <= characters else textwrap.wrap(name, characters, break_long_words=False)
    if all(len(line) <= characters for line in wrapped) and len(wrapped) + 1 <= lines:
        return "\n".join([*wrapped, share])
    return share


def _company(history: Any, frame: pd.DataFrame) -> str:
    """``"Name (id)"`` of the company the history is about, what of it is known, or ``""``."""
    ids = frame["company_id"].dropna().unique().tolist() if "company_id" in frame else []
    company_id = str(ids[0]) if len(ids) == 1 else str(getattr(history, "company_id", "") or "")
    name = getattr(history, "company_name", None) or (frame.attrs.get("company_names") or {}).get(company_id)
    if name and company_id:
        return f"{name} ({company_id})"
    return str(name or company_id)


def _list_dates(ax: Any, dates: list[pd.Timestamp], span: float, inches: float) -> float:
    """Each list's date above the chart (gid ``"list_date"``), on the first of two lines where it does not run
    into a date written before it (a date close to the last one goes on the upper line, one closer still is left
    unwritten and counted in the heading above them, gid ``"list_dates"``). Returns the points they take up."""
    width = 11 * 0.6 * _DATE_FONT / 72 * span / inches  # "30 Jun 2015" in days
    along_top = blended_transform_factory(ax.transData, ax.transAxes)
    line_height = _DATE_FONT * 1.3
    written_to = [-np.inf, -np.inf]  # per line, where its last date ends
    unwritten = 0
    low, high = ax.get_xlim()
    for day in mdates.date2num(dates):
        # centred on its line; at the chart's ends, starting or ending there (not over the y axis' labels)
        align, start = (
            ("left", day)
            if day - width / 2 < low
            else ("right", day - width)
            if day + width / 2 > high
            else ("center", day - width / 2)
        )
        line = next((k for k in (0, 1) if start >= written_to[k] + 0.15 * width), None)
        if line is None:
            unwritten += 1
            continue
        written_to[line] = start + width
        ax.annotate(
            mdates.num2date(day).strftime("%-d %b %Y"),
            (day, 1.0),
            xycoords=along_top,
            xytext=(0, 3 + line * line_height),
            textcoords="offset points",
            ha=align,
            va="bottom",
            fontsize=_DATE_FONT,
            color="#333333",
            annotation_clip=False,
            gid="list_date",
        )
    lines = 2 if written_to[1] > -np.inf else 1
    heading = (
        f"shareholder lists ({unwritten} too close to others to be dated here)" if unwritten else "shareholder lists"
    )
    ax.annotate(
        heading,
        (0.5, 1.0),
        xycoords="axes fraction",
        xytext=(0, 3 + lines * line_height),
        textcoords="offset points",
        ha="center",
        va="bottom",
        fontsize=_DATE_FONT,
        color="#555555",
        gid="list_dates",
    )
    return 3 + (lines + 1) * line_height


def _last_held(steps: pd.DataFrame, owner: Any) -> str:
    held = steps.index[steps[owner].to_numpy() > 0]
    after = steps.index[steps.index > held[-1]]
    return str(after[0].date()) if len(after) else str(held[-1].date())
