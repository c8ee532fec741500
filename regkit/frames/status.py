"""A company's status on a past date, inferred from the dated facts of its record.

The interface gives only the current ``status``; there is no status history. On a date ``d``:

* before ``incorporated_at``: the company did not exist yet — ``existed`` False, status null;
* on or after ``terminated_at``: ``existed`` False, status ``inactive``;
* on or after the record's newest date (:func:`newest_date`): the record's own ``status`` — nothing the record
  dates happened later, so the company then stood as the record says it stands now (``existed`` False when that
  status is ``inactive``). A status the record carries no dated fact for (a cooperative in liquidation with an
  "i.L." name and no liquidator listed, as real register records have) shows from that date on;
* otherwise ``liquidation`` when a ``LIQUIDATOR`` role is active on ``d``, or an insolvency proceeding that
  dissolves a company (current status ``opened``, ``mass_insufficient``, ``rejected_no_assets``, ``lifted``,
  ``discontinued``) began on or before ``d`` — from its ``opened_at``, or for a rejection for lack of assets
  (never opened) from its ``closed_at``, the date of the rejection;
* otherwise ``active``.

These are the register's rules (a company is in liquidation from the appointment of a liquidator, or from its
dissolution by insolvency, until it is deleted). On the bundled world's ``as_of`` date the inferred status
equals the records' current status for every company (a test checks it). For a live record the rule can only
see what the record dates: a status change the record carries no date for is not visible in the past.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["DISSOLVING", "dissolution_date", "inferred_status", "newest_date", "status_on"]

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


def liquidator_on(company: Mapping[str, Any], day: str) -> bool:
    """Whether a liquidator's role is active on ``day``."""
    return any(
        r["role"] == "LIQUIDATOR" and r["start_date"] <= day and (r["end_date"] is None or day < r["end_date"])
        for r in company["representation"]
    )


def status_on(company: Mapping[str, Any], day: str) -> tuple[bool, str | None]:
    """Whether the company existed on ``day`` (``YYYY-MM-DD``) and its inferred status then.

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
    """
    if day < company["incorporated_at"]:
        return False, None
    existed, inferred = inferred_status(company, day)
    recorded = company.get("status")
    # a dated termination stands; otherwise the record's own status can only make a difference where it differs
    if existed and recorded is not None and recorded != inferred:
        newest = newest_date(company)
        if newest is not None and day >= newest:
            return recorded != "inactive", recorded
    return existed, inferred


def inferred_status(company: Mapping[str, Any], day: str) -> tuple[bool, str]:
    """Whether the company existed on ``day`` and its status then by the dated facts alone — termination,
    liquidators, dissolving proceedings — leaving aside incorporation and the record's own ``status``.

    After the record's newest date it no longer changes; :func:`status_on` then gives the record's status.
    """
    terminated = company["terminated_at"]
    if terminated is not None and day >= terminated:
        return False, "inactive"
    dissolved = dissolution_date(company)
    if (dissolved is not None and dissolved <= day) or liquidator_on(company, day):
        return True, "liquidation"
    return True, "active"
