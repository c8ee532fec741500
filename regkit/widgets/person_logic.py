"""What :class:`~regkit.widgets.PersonExplorer` does, as plain functions: search persons (cost first), load
one, their positions, holdings and the people who serve with them.

Costs
    A person search page costs 10 credits, 0 when the cache holds it (``client.estimate_search_cost``);
    loading a person is two lookups, the person (their positions) and their holdings, 10 credits each, 0
    from the cache (``client.is_cached``). Who serves with them is in the records of the companies they
    serve: one company lookup each (``client.estimate_cost`` says what they cost before anything is sent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from regkit.errors import RegkitError
from regkit.frames import management_positions, person_search_results, representatives
from regkit.frames.mandates import mandate_days
from regkit.schema.formatting import credits_text
from regkit.schema.interface import PRICES

from .messages import error_html, error_text
from .render import message_html

if TYPE_CHECKING:
    from regkit.client import CostEstimate, HoldingsRecord, PersonRecord, PersonSearchPage
    from regkit.client.protocol import RegisterClient

__all__ = [
    "CO_OFFICER_COLUMNS",
    "TABS",
    "co_officer_companies",
    "co_officers",
    "co_officers_button_text",
    "co_officers_cost",
    "interlocks",
    "load_button_text",
    "load_cost",
    "load_person",
    "run_search",
    "search_button_text",
    "search_cost",
    "summary_html",
]

TABS = ("summary", "positions", "holdings", "interlocks")
"""The explorer's tabs, in order."""

CO_OFFICER_COLUMNS = ("person_id", "name", "company_id", "company_name", "roles", "start", "end", "is_current")
"""Columns of :func:`co_officers`."""

_PERSON_ENDPOINTS = ("person", "person_holdings")


def search_cost(client: RegisterClient, query: str) -> int:
    """Credits the person search would cost now: 0 from the cache, else 10 (nothing is sent).

    Raises
    ------
    regkit.ValidationError
        For a query the client would reject.
    """
    return int(client.estimate_search_cost(query.strip() or None, None, kind="person"))


def run_search(client: RegisterClient, query: str) -> tuple[PersonSearchPage, pd.DataFrame]:
    """The first page of a person search (10 results): the page record and its frame."""
    page = client.search_persons(query.strip() or None)
    return page, person_search_results(page)


def load_cost(client: RegisterClient, person_id: str) -> int:
    """Credits loading a person (their record and their holdings) would cost now; nothing is sent."""
    return sum(0 if client.is_cached(person_id, endpoint=e) else PRICES[e] for e in _PERSON_ENDPOINTS)


def load_button_text(client: RegisterClient, person_id: str | None) -> str:
    """``"Load (20 credits)"``, ``"Load (10 credits)"`` (one of the two cached), ``"Load (0 credits, cached)"``,
    or ``"Load"`` while there is no person id."""
    if person_id is None:
        return "Load"
    cost = load_cost(client, person_id)
    return f"Load ({credits_text(cost, cached=cost == 0)})"


def search_button_text(credits: int | None) -> str:
    """``"Search (10 credits)"``, ``"Search (0 credits, cached)"``, or ``"Search"`` for no valid query."""
    return "Search" if credits is None else f"Search ({credits_text(credits, cached=credits == 0)})"


def summary_html(person: Any) -> str:
    """The person's card (:func:`regkit.frames.person_card_html`)."""
    return str(person._repr_html_())


def load_person(client: RegisterClient, person_id: str) -> tuple[PersonRecord | None, HoldingsRecord | None, str]:
    """Fetch a person and their holdings: ``(person, holdings, message)``; ``None`` for what failed (the
    message says why — errors are shown, not raised)."""
    try:
        person = client.get_person(person_id)
    except RegkitError as exc:
        return None, None, error_html(exc)
    try:
        held = client.get_person_holdings(person_id)
    except RegkitError as exc:
        return (
            person,
            None,
            message_html(f"Loaded {person.full_name}, but not their holdings. {error_text(exc)}", "warning"),
        )
    spent = person.meta.credits + held.meta.credits
    cost = credits_text(spent, cached=person.meta.from_cache and held.meta.from_cache)
    return person, held, message_html(f"Loaded {person.full_name} and their holdings ({cost}).", "ok")


def co_officer_companies(person: Any) -> list[str]:
    """The companies the person holds or held a management position in, in the order listed (distinct)."""
    return list(dict.fromkeys(management_positions(person)["company_id"]))


def co_officers_cost(client: RegisterClient, person: Any) -> CostEstimate:
    """What looking up the person's companies would cost now (``client.estimate_cost``: a ``CostEstimate``)."""
    return client.estimate_cost(co_officer_companies(person))


def co_officers_button_text(estimate: CostEstimate) -> str:
    """``"Find co-officers (30 credits)"``, ``"Find co-officers (0 credits, cached)"`` from a ``CostEstimate``."""
    cached = estimate.credits == 0 and estimate.distinct > 0
    return f"Find co-officers ({credits_text(estimate.credits, cached=cached)})"


def _bound(value: Any) -> Any:
    return None if pd.isna(value) else pd.Timestamp(value)


def _overlap(a_start: Any, a_end: Any, b_start: Any, b_end: Any) -> tuple[Any, Any] | None:
    """The days two mandates share, ``(start, end)`` half-open (NaT: open), or None — by the days of each
    (:func:`regkit.frames.mandates.mandate_days`: a mandate whose start is on or after its end shares none)."""
    a = mandate_days(_bound(a_start), _bound(a_end))
    b = mandate_days(_bound(b_start), _bound(b_end))
    if a is None or b is None:
        return None
    starts = [s for s in (a[0], b[0]) if s is not None]
    ends = [e for e in (a[1], b[1]) if e is not None]
    both = mandate_days(max(starts) if starts else None, min(ends) if ends else None)
    if both is None:
        return None
    return (pd.NaT if both[0] is None else both[0], pd.NaT if both[1] is None else both[1])


def co_officers(person: Any, companies: Any) -> pd.DataFrame:
    """Who served with the person: natural persons in a non-shareholder role at one of their companies while
    the person held a position there.

    Parameters
    ----------
    person : record or dict
        The person (``client.get_person``).
    companies : iterable of records or dicts
        The records of their companies (``client.get_companies(co_officer_companies(person))``).

    Returns
    -------
    pandas.DataFrame
        One row per other person and company, most shared companies first, then by name:

        ============  ==============  ===============================================================
        person_id     str             their id (UUID; a derived key where the register gives none)
        name          str
        company_id    str
        company_name  str
        roles         str             their roles there while serving together, `` · ``-joined
        start         datetime64[us]  when they first served together there
        end           datetime64[us]  when that ended; NaT while both still serve
        is_current    bool            both serve there now
        ============  ==============  ===============================================================
    """
    mine = management_positions(person)
    subject = str(getattr(person, "raw", person)["id"])
    names = dict(zip(mine["company_id"], mine["company_name"]))
    reps = representatives(list(companies))
    reps = reps[(reps["type"] == "natural_person") & (reps["role"] != "SHAREHOLDER") & (reps["id"] != subject)]
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for own in mine.itertuples(index=False):
        for r in reps[reps["company_id"] == own.company_id].itertuples(index=False):
            both = _overlap(own.start_date, own.end_date, r.start_date, r.end_date)
            if both is None:
                continue
            row = found.setdefault(
                (r.id, r.company_id),
                {
                    "person_id": r.id,
                    "name": r.name,
                    "roles": [],
                    "company_id": r.company_id,
                    "start": both[0],
                    "ends": [],
                },
            )
            row["start"] = min(row["start"], both[0])
            row["ends"].append(both[1])
            row["roles"].append(str(r.role).replace("_", " ").lower())
    rows = [
        {
            **{k: v for k, v in row.items() if k not in ("roles", "ends")},
            "company_name": names.get(row["company_id"]),
            "roles": " · ".join(dict.fromkeys(row["roles"])),
            "end": pd.NaT if any(pd.isna(e) for e in row["ends"]) else max(row["ends"]),
        }
        for row in found.values()
    ]
    frame = pd.DataFrame(rows, columns=["person_id", "name", "company_id", "company_name", "roles", "start", "end"])
    for column in ("start", "end"):
        frame[column] = pd.to_datetime(frame[column]).astype("datetime64[us]")
    frame["is_current"] = frame["end"].isna().to_numpy(bool)
    shared = frame.groupby("person_id")["company_id"].transform("nunique")
    frame = frame.assign(_shared=shared).sort_values(
        ["_shared", "name", "person_id", "start"], ascending=[False, True, True, True], kind="stable"
    )
    return (
        frame[list(CO_OFFICER_COLUMNS)]
        .astype({"person_id": str, "name": str, "company_id": str})
        .reset_index(drop=True)
    )


def interlocks(co: pd.DataFrame) -> pd.DataFrame:
    """Who served with the person at two or more of their companies: the interlocks of a :func:`co_officers`
    frame.

    Returns
    -------
    pandas.DataFrame
        One row per other person, most shared companies first, then by name:

        =============  ======  ==========================================================
        person_id      str
        name           str
        n_companies    int64   companies at which they served together (at least 2)
        company_names  str     their names, `` · ``-joined, in the order of ``co``
        current        bool    they still serve together at one of them
        =============  ======  ==========================================================
    """
    grouped = co.groupby(["person_id", "name"], sort=False)
    frame = grouped.agg(
        n_companies=("company_id", "nunique"),
        company_names=("company_name", lambda names: " · ".join(dict.fromkeys(map(str, names)))),
        current=("is_current", "any"),
    ).reset_index()
    frame = frame[frame["n_companies"] >= 2].astype({"n_companies": "int64", "current": bool})
    return frame.sort_values(["n_companies", "name"], ascending=[False, True], kind="stable", ignore_index=True)
