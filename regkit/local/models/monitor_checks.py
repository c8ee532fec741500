"""Monitors at work: on every day the register's clock passes, due monitors check their entity and their changes
become webhook messages; monitors are charged every 30 days of the register's clock.

A daily monitor checks every day, a weekly one every 7th day since its creation (``changes-and-webhooks.md``).
A check compares the answers about its entity on the day after its previous check's day (or its creation day)
minus one — what the register said then — with the answers on the day of the check, in the monitor's
categories (its preferences), with the one function that diffs answers
(:func:`regkit.schema.changes.diff_answers`): a company's record (``basic``, ``representation``, ``documents``,
``insolvencies``), its financials (``financials``) and its proceedings (``insolvencies``: the events each
publishes); a person's management positions. A check that finds
changes queues one message for the key's webhook endpoint (:mod:`.webhooks`), with the event body the spec
gives; one that finds none sends nothing.

The checks run inside the transaction that moves the clock (:meth:`regkit.local.models.clock.RegisterClock.advance`):
every day is checked once, by whichever process advanced, and none is lost if it dies half-way.

Charges: a monitor costs its creation price again every 30 days since it was created on the register's clock
(weekly 25, daily 50: ``PRICES["monitor_weekly"]``, ``PRICES["monitor_daily"]``); a key that cannot pay has that
monitor disabled (its configuration kept, as a plan without monitoring does).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from typing import Any

from regkit.schema.changes import diff_answers
from regkit.schema.interface import PRICES

from ..exceptions import ApiError
from .catalog import Catalog
from .clock import RegisterClock
from .credits import charge
from .financials import day_financials
from .insolvencies import detail_of
from .users import resolve_user, user_ref
from .webhooks import queue_event
from .world_day import WorldDay

__all__ = ["CHARGE_DAYS", "advance_register", "run_checks", "register_monitor"]

#: Every this many days of the register's clock since its creation, a monitor is charged again.
CHARGE_DAYS = 30

_COMPANY_CATEGORIES = {"basic", "representation", "documents", "insolvencies"}


def register_monitor(conn: sqlite3.Connection, user: str, entity_id: str, today: dt.date) -> None:
    """Remember the register's day a monitor was created on (its checks and charges count from it)."""
    conn.execute(
        "INSERT OR REPLACE INTO monitor_days (user, entity_id, created_day, checked_day) VALUES (?, ?, ?, ?)",
        (user, entity_id, today.isoformat(), today.isoformat()),
    )


def advance_register(clock: RegisterClock, catalog: Catalog, days: int, now: float) -> dt.date:
    """Move the register's clock ``days`` forward and run the due checks and charges of every day passed, in one
    transaction; return the new today (``regkit local advance`` and ``LocalRegister.advance``)."""
    return clock.advance(days, then=lambda conn, start, day: run_checks(conn, catalog, start, day, now))


def run_checks(conn: sqlite3.Connection, catalog: Catalog, start: dt.date, end: dt.date, now: float) -> int:
    """Check the due monitors of every day after ``start`` up to ``end``; queue their events and take their
    monthly charges inside ``conn``'s transaction. Return the number of events queued."""
    keys = {user_ref(api_key): api_key for api_key in catalog.users}
    monitors = conn.execute(
        "SELECT m.user, m.entity_id, m.entity_type, m.preferences, m.update_frequency, d.created_day, d.checked_day"
        " FROM monitors AS m LEFT JOIN monitor_days AS d ON d.user = m.user AND d.entity_id = m.entity_id"
        " WHERE m.disabled = 0 ORDER BY m.created_at, m.entity_id"
    ).fetchall()
    days: dict[dt.date, WorldDay] = {}

    def world(day: dt.date) -> WorldDay:
        if day not in days:
            days[day] = WorldDay(catalog, day)
        return days[day]

    queued = 0
    for user, entity_id, entity_type, preferences, frequency, created, checked in monitors:
        created_day = dt.date.fromisoformat(created) if created else start
        checked_day = dt.date.fromisoformat(checked) if checked else start
        if created is None:  # a monitor of a state file older than the clock: it starts counting now
            register_monitor(conn, user, entity_id, start)
        api_key = keys.get(user)
        if api_key is None:
            continue
        day = start
        while day < end:
            day += dt.timedelta(days=1)
            age = (day - created_day).days
            if age > 0 and age % CHARGE_DAYS == 0 and not _charged(conn, catalog, api_key, frequency, now):
                conn.execute("UPDATE monitors SET disabled = 1 WHERE user = ? AND entity_id = ?", (user, entity_id))
                break
            if frequency == "weekly" and age % 7:
                continue
            changes = _changes(world, entity_type, entity_id, json.loads(preferences), checked_day, day)
            if changes:
                monitor = {"preferences": json.loads(preferences), "update_frequency": frequency}
                period = (checked_day + dt.timedelta(days=1), day)
                queue_event(conn, user, entity_type, entity_id, monitor, period, changes, now)
                queued += 1
            checked_day = day
        conn.execute(
            "UPDATE monitor_days SET checked_day = ? WHERE user = ? AND entity_id = ?",
            (checked_day.isoformat(), user, entity_id),
        )
    return queued


def _charged(conn: sqlite3.Connection, catalog: Catalog, api_key: str, frequency: str, now: float) -> bool:
    """Take a monitor's monthly charge; False when the key cannot pay it."""
    try:
        charge(conn, resolve_user(conn, catalog, api_key), PRICES[f"monitor_{frequency}"], now)
    except ApiError:
        return False
    return True


def _changes(
    world: Any, entity_type: str, entity_id: str, preferences: list[str], checked: dt.date, day: dt.date
) -> list[dict[str, Any]]:
    """The changes of ``entity_id`` in ``preferences`` between the answers of ``checked`` and of ``day``."""
    before, after = world(checked), world(day)
    if entity_type == "person":
        if "management_positions" not in preferences:
            return []
        old, new = _person(before, entity_id), _person(after, entity_id)
        if old is None or new is None:
            return []
        return diff_answers("get_person", old, new, ["management_positions"])
    old_record, new_record = before.company(before.resolve(entity_id)), after.company(after.resolve(entity_id))
    if old_record is None or new_record is None:
        return []
    changes: list[dict[str, Any]] = []
    if old_record != new_record:  # every company answer checked is derived from the record
        categories = [c for c in preferences if c in _COMPANY_CATEGORIES]
        if categories:
            changes += diff_answers("get_company", old_record, new_record, categories)
        if "financials" in preferences:
            old, new = day_financials(before, old_record), day_financials(after, new_record)
            changes += diff_answers("get_financials", old, new, ["financials"])
    if "insolvencies" in preferences:  # each proceeding's events: published without the record changing
        for summary in sorted(new_record.get("insolvencies") or (), key=lambda s: str(s["id"])):
            old_proceeding, new_proceeding = before.insolvency(summary["id"]), after.insolvency(summary["id"])
            if old_proceeding is not None and new_proceeding is not None and old_proceeding != new_proceeding:
                changes += diff_answers(
                    "get_insolvency", detail_of(old_proceeding), detail_of(new_proceeding), ["insolvencies"]
                )
    return changes


def _person(world: WorldDay, entity_id: str) -> dict[str, Any] | None:
    person = world.person(entity_id.lower())
    if person is None:
        return None
    return {"id": person.id, "management_positions": [dict(p) for p in person.positions]}
