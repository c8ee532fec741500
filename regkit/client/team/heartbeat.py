"""The heartbeat of a team budget's handle: its calls in flight stay held while they run, and a member that stops
beating leaves orphans.

Each reservation lives ``hold`` seconds in Redis. While its call runs, a background thread of the process that holds
it extends it every ``hold / 3`` seconds (and records the handle's pending charges). A reservation whose hold passed
— its process stopped beating — becomes an orphan: still counted against the cap until a reconciliation with the
register's account settles it (:mod:`regkit.client.team.reconciliation`). A reservation found expired or missing
while its call still runs is held again.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from .charges import ChargeRecorder
from .connection import TeamConnection
from .memory import TeamMemory
from .model import HandleSettings

__all__ = ["Heartbeat"]

logger = logging.getLogger(__name__)


class Heartbeat:
    """This handle's calls in flight, and the thread that keeps them held.

    Parameters
    ----------
    connection : TeamConnection
        The team's Redis.
    memory : TeamMemory
        What this handle remembers (whether charges are pending).
    charges : ChargeRecorder
        Records the pending charges at each beat.
    settings : HandleSettings
        ``hold``: seconds a reservation lives without a beat.
    """

    def __init__(
        self, connection: TeamConnection, memory: TeamMemory, charges: ChargeRecorder, settings: HandleSettings
    ) -> None:
        self._connection = connection
        self._memory = memory
        self._charges = charges
        self._settings = settings
        self._lock = threading.Lock()  # the calls in flight, against the beat
        self._live: dict[str, int] = {}
        self._beating = False

    def track(self, rid: str, credits: int) -> None:
        """Reservation ``rid`` of ``credits`` is held for a call that now runs."""
        with self._lock:
            self._live[rid] = credits

    def release(self, rid: str) -> None:
        """Reservation ``rid`` is settled (waits for a beat under way, so that it never holds a settled one)."""
        with self._lock:
            self._live.pop(rid, None)

    def live(self) -> dict[str, int]:
        """This handle's reservations of calls in flight: id → credits."""
        with self._lock:
            return dict(self._live)

    def ensure_running(self) -> None:
        """Start the heartbeat's thread unless it runs (it ends when nothing is in flight or pending)."""
        with self._lock:
            if self._beating:
                return
            self._beating = True
        threading.Thread(target=self._run, name=f"regkit-team-{self._connection.team}", daemon=True).start()

    def _run(self) -> None:
        """Every ``hold / 3`` seconds: extend this process's live reservations (holding again any that expired or
        were lost) and record its pending charges; end when there are neither."""
        while True:
            time.sleep(max(0.05, self._settings.hold / 3))
            with self._lock:  # a settlement waits for the beat, so that it never holds a settled reservation
                live = dict(self._live)
                if not live and not self._memory.has_pending:
                    self._beating = False
                    return
                if live:
                    self._beat(live)
            if self._memory.has_pending:
                try:
                    self._charges.record_pending()
                except Exception:  # tried again at the next beat and before the next reservation
                    pass

    def _beat(self, live: dict[str, int]) -> None:
        hold = self._settings.hold
        team = self._connection.team
        args: list[Any] = [int(hold * 1000)]
        for rid, credits in live.items():
            args += [rid, credits]
        try:
            alive, again = (int(x) for x in self._connection.run("beat", 5, args))
        except Exception as exc:  # a missed beat is logged; the next one tries again
            logger.warning(
                "team %s: heartbeat failed (%s); reservations become orphans after %.0f s without one",
                team,
                type(exc).__name__,
                hold,
            )
            return
        if alive < 0:
            logger.warning(
                "team %s: the team's data is gone from Redis; %d call(s) of this process in flight are "
                "held again once it is re-established",
                team,
                len(live),
            )
        elif again:
            logger.warning(
                "team %s: %d reservation(s) of this process had expired or were lost and are held again (hold=%.0f s)",
                team,
                again,
                hold,
            )
