"""A company's status on a past date, inferred from the dated facts of its record.

The interface gives only the current ``status``; there is no status history. On a date ``d``:

* before ``incorporated_at``: the company did not exist yet — ``existed`` False, status null;
* on or after ``terminated_at``: ``existed`` False, status ``inactive``;
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

from collections.abc import Mapping
from typing import Any

__all__ = ["DISSOLVING", "dissolution_date", "status_on"]

DISSOLVING = ("opened", "mass_insufficient", "rejected_no_assets", "lifted", "discontinued")
"""Insolvency statuses that mean the company was dissolved by the proceeding."""


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
    >>> company = {"incorporated_at": "2001-01-01", "terminated_at": "2020-06-30", "representation": [
    ...     {"role": "LIQUIDATOR", "start_date": "2019-01-01", "end_date": None}]}
    >>> [status_on(company, d) for d in ("2000-12-31", "2010-01-01", "2019-05-01", "2020-06-30")]
    [(False, None), (True, 'active'), (True, 'liquidation'), (False, 'inactive')]
    """
    if day < company["incorporated_at"]:
        return False, None
    terminated = company["terminated_at"]
    if terminated is not None and day >= terminated:
        return False, "inactive"
    dissolved = dissolution_date(company)
    if (dissolved is not None and dissolved <= day) or liquidator_on(company, day):
        return True, "liquidation"
    return True, "active"
