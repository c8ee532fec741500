"""The local register's today: the world's ``as_of`` at first, then the day it was advanced to.

The live register moves on by itself; the local one moves only when told (``regkit local advance --days N``, or
:meth:`regkit.local.register.LocalRegister.advance`), so that what happens between two days can be rehearsed. Its
today is kept in the register's state file (the ``meta`` row ``today``), so every process on that file — a running
``regkit serve`` included — sees the same day: a context reads it again when its copy is older than
:data:`NOTICE_SECONDS`. It never moves back. A state file used with another world starts from that world's
``as_of`` when that is later than the day it holds.

An imported world (OffeneRegister) does not live on: its today is its retrieval date, and advancing it is
refused with that reason.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..exceptions import OperatorError
from .state import StateDB

__all__ = ["TODAY", "NOTICE_SECONDS", "RegisterClock", "world_as_of", "lives_on"]

#: The ``meta`` row of the state file that holds the register's today (ISO date).
TODAY = "today"
#: How old a context's copy of today may be before it reads the state file again (an advance by another process
#: is noticed within this many seconds).
NOTICE_SECONDS = 2.0


def world_as_of(meta: Mapping[str, Any]) -> dt.date:
    """The day the world's stored copy was taken (``world.json`` ``as_of``)."""
    return dt.date.fromisoformat(str(meta["as_of"])[:10])


def lives_on(meta: Mapping[str, Any]) -> bool:
    """Whether the world may be advanced: a synthetic world (built from a seed) does, an imported one does not."""
    return bool(meta.get("synthetic")) and "seed" in meta


class RegisterClock:
    """The register's today, read from and written to its state file.

    Parameters
    ----------
    state : StateDB
        The register's state file.
    meta : mapping
        The world's ``world.json`` (its ``as_of``, whether it is synthetic).
    monotonic : callable
        Seconds for the age of the copy of today (:func:`time.monotonic`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> state = StateDB(pathlib.Path(tempfile.mkdtemp()) / "state.sqlite")
    >>> clock = RegisterClock(state, {"synthetic": True, "seed": 1, "as_of": "2026-06-30"})
    >>> clock.today()
    datetime.date(2026, 6, 30)
    >>> clock.advance(7)
    datetime.date(2026, 7, 7)
    >>> RegisterClock(state, {"synthetic": True, "seed": 1, "as_of": "2026-06-30"}).today()  # kept in the file
    datetime.date(2026, 7, 7)
    >>> state.close()
    """

    def __init__(
        self, state: StateDB, meta: Mapping[str, Any], monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.state = state
        self.as_of = world_as_of(meta)
        self.lives_on = lives_on(meta)
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._copy: tuple[float, dt.date] | None = None

    def today(self) -> dt.date:
        """The register's today: read from the state file when the copy is older than :data:`NOTICE_SECONDS`."""
        now = self._monotonic()
        with self._lock:
            if self._copy is not None and now - self._copy[0] < NOTICE_SECONDS:
                return self._copy[1]
        day = self._read()
        with self._lock:
            self._copy = (now, day)
        return day

    def _read(self) -> dt.date:
        if not self.lives_on:
            return self.as_of
        stored = self.state.meta(TODAY)
        return max(self.as_of, dt.date.fromisoformat(stored)) if stored else self.as_of

    def advance(
        self, days: int, then: Callable[[sqlite3.Connection, dt.date, dt.date], object] | None = None
    ) -> dt.date:
        """Move today ``days`` days forward (a whole number of at least 1) and return the new today.

        ``then(conn, start, day)`` runs inside the same transaction, with the day before and after (the monitors'
        checks: every day passed is checked once, and not at all if the advance fails).

        Raises
        ------
        regkit.local.exceptions.OperatorError
            When ``days`` is not a whole number of at least 1 (the register never moves back), or the world is an
            imported one (its clock is its retrieval date).
        """
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise OperatorError(
                f"advance by a whole number of days of at least 1, not {days!r}: the register's clock never moves back"
            )
        if not self.lives_on:
            raise OperatorError(
                f"this world was imported, not generated: its clock is its retrieval date ({self.as_of}) and it "
                "does not live on; advance a generated world (the bundled one, or `regkit world build`)"
            )
        with self.state.transaction() as conn:  # two advances at once both count
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (TODAY,)).fetchone()
            start = max(self.as_of, dt.date.fromisoformat(row[0])) if row else self.as_of
            day = start + dt.timedelta(days=days)
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (TODAY, day.isoformat()))
            if then is not None:
                then(conn, start, day)
        with self._lock:
            self._copy = (self._monotonic(), day)
        return day
