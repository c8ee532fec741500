"""The bars of a company's timeline: one row per name, address, capital, register, role, status and proceeding.

:func:`timeline_bars` is the table :func:`regkit.plot.timeline` draws, built from the frames
(:func:`regkit.frames.history`, :func:`~regkit.frames.representatives`,
:func:`~regkit.frames.insolvency_summaries`) and the status rule of :mod:`regkit.frames.status`.

Open ends
    A version still in force (``valid_to`` NaT, a role without ``end_date``, a proceeding not closed)
    is drawn up to ``until`` and marked with an arrow head. ``until`` defaults to the company's
    termination date, or else the last day of the year of the newest date anywhere in the record — so the same
    record always gives the same figure, a record of one date still draws its bars (a year's rest, not a
    day), and a director appointed on the newest date shows as more than a sliver; pass ``until="today"`` (or
    a date, such as the register's today) to draw up to another day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from regkit.errors import ValidationError
from regkit.frames import history, insolvency_summaries, representatives
from regkit.frames.status import dissolution_date, removed_after, status_on
from regkit.schema.dates import validate_date
from regkit.schema.formatting import money_text
from regkit.schema.labels import display_label, plain_label

from .inputs import COMPANY, check_input

__all__ = ["LANES", "BAR_COLUMNS", "timeline_bars", "record_horizon"]

LANES = ("names", "addresses", "capitals", "registers", "representatives", "status", "insolvencies")
"""The lanes of :func:`timeline`, top to bottom."""

BAR_COLUMNS = ("lane", "row", "start", "end", "open", "text", "key")
"""Columns of :func:`timeline_bars`."""

_ROW = {"names": "name", "addresses": "address", "capitals": "capital", "registers": "register"}


def _raw(company: Any, plot: str = "timeline") -> Mapping[str, Any]:
    """The CompanyV1 mapping of one company (a record or a dict); else an error naming what was given."""
    _, given = check_input(company, plot, COMPANY)
    raw: Mapping[str, Any] = getattr(given, "raw", given)
    return raw


def _dates(value: Any) -> list[str]:
    """Every ``YYYY-MM-DD`` string in a nested payload."""
    if isinstance(value, Mapping):
        return [d for v in value.values() for d in _dates(v)]
    if isinstance(value, list):
        return [d for v in value for d in _dates(v)]
    if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-" and value[:4].isdigit():
        return [value]
    return []


def record_horizon(company: Any) -> pd.Timestamp:
    """The default ``until``: ``terminated_at``, or else the last day of the year of the newest date in the
    record (``sources`` apart; see the module docstring).

    Examples
    --------
    >>> record_horizon({"id": "X", "terminated_at": None, "names": [{"start_date": "2001-02-03"}],
    ...                 "indicators": [{"date": "2019-06-30"}]})
    Timestamp('2019-12-31 00:00:00')
    >>> record_horizon({"id": "X", "terminated_at": None, "incorporated_at": "2019-05-02", "names": []})
    Timestamp('2019-12-31 00:00:00')
    """
    raw = _raw(company)
    if raw.get("terminated_at"):
        return pd.Timestamp(raw["terminated_at"])
    found = [d for key, v in raw.items() if key != "sources" for d in _dates(v)]
    newest = pd.Timestamp(max(found)) if found else pd.Timestamp(raw.get("incorporated_at") or "1970-01-01")
    return pd.Timestamp(year=newest.year, month=12, day=31)


def _until(company: Mapping[str, Any], until: Any) -> pd.Timestamp:
    if until is None:
        return record_horizon(company)
    if isinstance(until, str) and until == "today":
        return pd.Timestamp.today().normalize()
    return pd.Timestamp(validate_date(until, "until"))


def _history_rows(company: Mapping[str, Any], field: str, until: pd.Timestamp, born: Any) -> list[tuple]:
    frame = history(company, field)
    rows = []
    for r in frame.itertuples(index=False):
        start = r.valid_from if pd.notna(r.valid_from) else born
        end = r.valid_to if pd.notna(r.valid_to) else until
        rows.append((field, _ROW[field], start, end, pd.isna(r.valid_to), _text(field, r), field))
    return rows


def _text(field: str, r: Any) -> str:
    if field == "names":
        return str(r.name)
    if field == "addresses":
        return " ".join(str(v) for v in (r.postal_code, r.city) if pd.notna(v)) or str(r.formatted_value)
    if field == "capitals":
        if pd.isna(r.amount):
            return "–"
        return money_text(r.amount, r.currency, 0)  # as cards and tables
    return f"{r.register_type} {r.register_number}, {r.register_court}"


def _people_rows(company: Mapping[str, Any], until: pd.Timestamp, max_people: int) -> tuple[list[tuple], int]:
    roles = representatives(company)
    if roles.empty:
        return [], 0
    first = roles.groupby("id", sort=False)["start_date"].min().sort_values(kind="stable")
    hidden = max(0, len(first) - max_people)
    labels: dict[str, str] = {}
    for pid in first.index[hidden:]:  # the same name for two ids: number the later ones
        name = str(roles.loc[roles["id"] == pid, "name"].iloc[0])
        taken = sum(1 for label in labels.values() if label == name or label.startswith(name + " ("))
        labels[pid] = name if not taken else f"{name} ({taken + 1})"
    rank = {pid: i for i, pid in enumerate(labels)}
    rows = []
    for r in roles[roles["id"].isin(labels)].sort_values("start_date", kind="stable").itertuples(index=False):
        end = r.end_date if pd.notna(r.end_date) else until
        rows.append(
            (
                rank[r.id],
                (
                    "representatives",
                    f"{labels[r.id]} · {plain_label('role', r.role)}",
                    r.start_date,
                    end,
                    pd.isna(r.end_date),
                    "",
                    str(r.role),
                ),
            )
        )
    return [row for _, row in sorted(rows, key=lambda item: item[0])], hidden


def _status_rows(company: Mapping[str, Any], until: pd.Timestamp) -> list[tuple]:
    born = company.get("incorporated_at")
    if not born:
        return []
    points = {born, company.get("terminated_at"), dissolution_date(company)}
    points |= {
        d
        for r in company.get("representation") or ()
        if r["role"] == "LIQUIDATOR"
        for d in (r["start_date"], r["end_date"])
    }
    removed = removed_after(company)
    if removed:  # removed on some day after its newest dated fact: from the next day on its status is unknown
        points.add((pd.Timestamp(removed) + pd.Timedelta(days=1)).date().isoformat())
    days = sorted(d for d in points if d and d >= born)
    spans: list[list[Any]] = []
    for day in days:
        status = status_on(company, day)[1]
        if spans and spans[-1][0] == status:
            continue
        if spans:
            spans[-1][2] = pd.Timestamp(day)
        spans.append([status, pd.Timestamp(day), None])
    end = max(until, spans[-1][1])
    return [
        (
            "status",
            "status",
            start,
            stop if stop is not None else end,
            stop is None and status != "inactive",
            status,
            status,
        )
        for status, start, stop in spans
        if status is not None  # unknown (a removed record that dates no end): no bar, the last one ends there
    ]


def _insolvency_rows(company: Mapping[str, Any], until: pd.Timestamp) -> tuple[list[tuple], int]:
    rows, undated = [], 0
    for r in insolvency_summaries(company).itertuples(index=False):
        start = r.opened_at if pd.notna(r.opened_at) else r.closed_at
        if pd.isna(start):  # neither opened nor closed (preliminary): no place on the axis, counted instead
            undated += 1
            continue
        end = r.closed_at if pd.notna(r.closed_at) else until
        rows.append(
            (
                "insolvencies",
                str(r.case_number),
                start,
                end,
                pd.isna(r.closed_at),
                display_label("current_status", r.current_status),
                "insolvencies",
            )
        )
    return rows, undated


def timeline_bars(company: Any, until: Any = None, lanes: Sequence[str] = LANES, max_people: int = 12) -> pd.DataFrame:
    """The bars of :func:`timeline`, one row each, lanes in order.

    Parameters
    ----------
    company : record or dict
        One company.
    until : date-like or "today", optional
        Where open bars end (see the module docstring): a ``datetime.date``, ``datetime``, ``Timestamp`` or
        ``datetime64``, ISO ``"YYYY-MM-DD"`` or German ``"DD.MM.YYYY"`` (day first); other text is a
        ``ValidationError``.
    lanes : sequence of str
        Which of :data:`LANES` to include, in this order.
    max_people : int
        Representatives beyond this many (the earliest appointed) are left out.

    Returns
    -------
    pandas.DataFrame
        ===========  ==============  =================================================================
        lane         str             one of :data:`LANES`
        row          str             the y label: ``name``, ``address``, ..., ``<person> · <role>``, a case number
        start        datetime64[us]  ``valid_from`` / ``start_date`` / ``opened_at``
        end          datetime64[us]  ``valid_to`` / ``end_date`` / ``closed_at``, or ``until`` if open
        open         bool            the bar is still in force (its end is ``until``)
        text         str             what the bar says (name, city, amount, status; "" for a role)
        key          str             colour key (lane, role or status)
        ===========  ==============  =================================================================

        ``attrs``: ``until`` (Timestamp), ``hidden_people`` (int: representatives left out),
        ``undated_insolvencies`` (int: proceedings with neither ``opened_at`` nor ``closed_at``, not drawn).
    """
    raw = _raw(company, "timeline_bars")
    unknown = [lane for lane in ([lanes] if isinstance(lanes, str) else lanes) if lane not in LANES]
    if unknown or isinstance(lanes, str):
        raise ValidationError(
            f"lanes must be among {', '.join(LANES)}; not {unknown or lanes!r}",
            suggestion=f"pass a list of them, e.g. lanes=[{LANES[0]!r}, 'status']",
        )
    end = _until(raw, until)
    born = pd.Timestamp(raw["incorporated_at"]) if raw.get("incorporated_at") else pd.NaT
    rows: list[tuple] = []
    hidden = undated = 0
    for lane in lanes:
        if lane in _ROW:
            rows += _history_rows(raw, lane, end, born)
        elif lane == "representatives":
            people, hidden = _people_rows(raw, end, max_people)
            rows += people
        elif lane == "status":
            rows += _status_rows(raw, end)
        else:
            proceedings, undated = _insolvency_rows(raw, end)
            rows += proceedings
    frame = pd.DataFrame(rows, columns=list(BAR_COLUMNS))
    for column in ("start", "end"):
        frame[column] = pd.to_datetime(frame[column]).astype("datetime64[us]")
    frame["open"] = frame["open"].astype(bool)
    frame.attrs.update(until=end, hidden_people=hidden, undated_insolvencies=undated)
    return frame
