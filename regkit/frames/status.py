"""Whether a company existed on a past date, and its status then, inferred from the dated facts of its record.

The interface gives only the current ``status``; there is no status history. Existence on a date ``d``
(:func:`existed_on`, the one rule of :func:`regkit.frames.as_of`, :func:`regkit.frames.panel` and
:func:`regkit.graph.as_of`) has three answers:

* ``False`` before ``incorporated_at``, and from ``terminated_at`` on (the day of termination included);
* ``True`` from incorporation up to and on the record's newest date (:func:`newest_date`): the record dates
  something of the company on that day, so it was there;
* after the newest date: ``True`` unless the record says the company is removed (status ``inactive``) without a
  termination date — then nothing tells when it ended, and existence is **unknown**: ``None``
  (:func:`removed_after` gives that newest date). Records imported from OffeneRegister are like that: "removed",
  with no date of removal, often with the incorporation date as their only date. A company in liquidation
  still exists.

The status on ``d`` (null wherever ``existed`` is not True, but ``inactive`` once terminated):

* before ``incorporated_at``: null; from ``terminated_at`` on: ``inactive``; where existence is unknown: null;
* on or after the record's newest date the record's own ``status``, when it is ``active`` or ``liquidation`` —
  nothing the record dates happened later, so the company then stood as the record says it stands now. A status
  the record carries no dated fact for (a cooperative in liquidation with an "i.L." name and no liquidator
  listed, as real register records have) shows from that date on. A removed record's ``inactive`` is never
  shown for a day it existed on: its removal is not dated;
* otherwise ``liquidation`` when a ``LIQUIDATOR`` role is active on ``d``, or an insolvency proceeding that
  dissolves a company (current status ``opened``, ``mass_insufficient``, ``rejected_no_assets``, ``lifted``,
  ``discontinued``) began on or before ``d`` — from its ``opened_at``, or for a rejection for lack of assets
  (never opened) from its ``closed_at``, the date of the rejection;
* otherwise ``active``.

These are the register's rules (a company is in liquidation from the appointment of a liquidator, or from its
dissolution by insolvency, until it is deleted). On the bundled world's ``as_of`` date the inferred status
equals the records' current status for every company (a test checks it: its removed companies all carry a
``terminated_at``). For a live record the rule can only see what the record dates: a status change the record
carries no date for is not visible in the past.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from .mandates import mandate_active

__all__ = [
    "DISSOLVING",
    "dissolution_date",
    "existed_on",
    "inferred_status",
    "newest_date",
    "removed_after",
    "status_on",
]

Day = TypeVar("Day", str, _dt.date)

DISSOLVING = ("opened", "mass_insufficient", "rejected_no_assets", "lifted", "discontinued")
"""Insolvency statuses that mean the company was dissolved by the proceeding."""

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def dissolution_date(company: Mapping[str, Any]) -> str | None:
    """The earliest date an insolvency proceeding dissolved the company (``YYYY-MM-DD``), or None."""
    dates = []
    for summary in company.get("insolvencies") or ():
        if summary["current_status"] not in DISSOLVING:
            continue
        start = summary.get("opened_at")
        if start is None and summary["current_status"] == "rejected_no_assets":
            start = summary.get("closed_at")
        if start is not None:
            dates.append(start)
    return min(dates) if dates else None


def newest_date(company: Mapping[str, Any]) -> str | None:
    """The newest date the record carries (``YYYY-MM-DD``), or None when it carries none.

    Every date of the record counts — of its histories and roles (start and end), incorporation, termination,
    its proceedings, filings, reports and agreements — except the dates of birth of its people, which date no
    event of the company.

    Examples
    --------
    >>> newest_date({"incorporated_at": "2001-01-01", "names": [{"name": "A eG", "start_date": "2009-03-02"}],
    ...     "representation": [{"natural_person": {"date_of_birth": "2011-01-01"}, "start_date": "2005-01-01"}]})
    '2009-03-02'
    """
    newest = None
    stack: list[Any] = [company]
    while stack:
        value = stack.pop()
        members = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, member in members:
            if isinstance(member, str):
                # a cheap look first (10 characters, dashes in place): most strings are not dates
                if (
                    len(member) == 10
                    and member[4] == member[7] == "-"
                    and (newest is None or member > newest)
                    and key != "date_of_birth"
                    and _ISO_DATE.fullmatch(member)
                ):
                    newest = member
            elif isinstance(member, (Mapping, list)):
                stack.append(member)
    return newest


def removed_after(company: Mapping[str, Any]) -> str | None:
    """For a company the record says is removed (status ``inactive``) but gives no termination date: the newest
    date the record carries — it existed on that day and was removed on some day after it. None for every other
    company (its existence is known on every day).

    Examples
    --------
    >>> removed = {"status": "inactive", "incorporated_at": "1998-04-02", "terminated_at": None}
    >>> removed_after(removed), removed_after(dict(removed, terminated_at="2020-01-01"))
    ('1998-04-02', None)
    """
    if company.get("status") != "inactive" or company.get("terminated_at") is not None:
        return None
    return newest_date(company)


def existed_on(day: Day, incorporated: Day | None, terminated: Day | None, removed: Day | None) -> bool | None:
    """Whether a company existed on ``day``: True, False, or None (unknown) — the rule of the module docstring.

    ``incorporated`` and ``terminated`` are ``incorporated_at`` and ``terminated_at`` (None: unknown — no bound),
    ``removed`` is :func:`removed_after`. The dates are ISO strings or :class:`datetime.date` values, all of one
    kind (the graph passes its node attributes).

    Examples
    --------
    >>> [existed_on(d, "2001-05-02", None, "2009-03-01") for d in ("2001-05-01", "2009-03-01", "2009-03-02")]
    [False, True, None]
    >>> existed_on("2030-01-01", "2001-05-02", None, None), existed_on("2020-01-01", "2001-05-02", "2020-01-01", None)
    (True, False)
    """
    if incorporated is not None and day < incorporated:
        return False
    if terminated is not None and day >= terminated:
        return False
    if removed is not None and day > removed:
        return None
    return True


def liquidator_on(company: Mapping[str, Any], day: str) -> bool:
    """Whether a liquidator's role is active on ``day`` (:func:`regkit.frames.mandates.mandate_active`)."""
    return any(
        r["role"] == "LIQUIDATOR" and mandate_active(r["start_date"], r["end_date"], day)
        for r in company["representation"]
    )


def status_on(company: Mapping[str, Any], day: str) -> tuple[bool | None, str | None]:
    """Whether the company existed on ``day`` (``YYYY-MM-DD``; True, False or None: unknown) and its inferred
    status then (None before incorporation and where existence is unknown).

    Examples
    --------
    >>> company = {"incorporated_at": "2001-01-01", "terminated_at": "2020-06-30", "status": "inactive",
    ...     "representation": [{"role": "LIQUIDATOR", "start_date": "2019-01-01", "end_date": None}]}
    >>> [status_on(company, d) for d in ("2000-12-31", "2010-01-01", "2019-05-01", "2020-06-30")]
    [(False, None), (True, 'active'), (True, 'liquidation'), (False, 'inactive')]
    >>> in_liquidation = {"incorporated_at": "1991-05-02", "terminated_at": None, "status": "liquidation",
    ...     "names": [{"name": "Bau eG i.L.", "start_date": "1991-05-02"}], "representation": []}
    >>> status_on(in_liquidation, "1991-05-02"), status_on(in_liquidation, "1991-05-01")
    ((True, 'liquidation'), (False, None))
    >>> removed = {"incorporated_at": "1998-04-02", "terminated_at": None, "status": "inactive",
    ...     "representation": []}
    >>> status_on(removed, "1998-04-02"), status_on(removed, "1998-04-03")
    ((True, 'active'), (None, None))
    """
    existed = existed_on(day, company["incorporated_at"], company["terminated_at"], removed_after(company))
    if existed is None:
        return None, None
    if not existed:
        return False, (None if day < company["incorporated_at"] else "inactive")
    inferred = inferred_status(company, day)[1]
    recorded = company.get("status")
    # the record's own status can only make a difference where it differs; "inactive" is undated (see above)
    if recorded is not None and recorded not in (inferred, "inactive"):
        newest = newest_date(company)
        if newest is not None and day >= newest:
            return True, recorded
    return True, inferred


def inferred_status(company: Mapping[str, Any], day: str) -> tuple[bool, str]:
    """Whether the company existed on ``day`` and its status then by the dated facts alone — termination,
    liquidators, dissolving proceedings — leaving aside incorporation, the record's own ``status`` and whether a
    removed company's existence is known (:func:`status_on` adds those).

    After the record's newest date it no longer changes; :func:`status_on` then gives the record's status.
    """
    terminated = company["terminated_at"]
    if terminated is not None and day >= terminated:
        return False, "inactive"
    dissolved = dissolution_date(company)
    if (dissolved is not None and dissolved <= day) or liquidator_on(company, day):
        return True, "liquidation"
    return True, "active"
