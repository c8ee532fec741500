"""Recording a handle's charges in the team's budget: one settlement, or every charge Redis did not take yet (before
the next reservation, after a restore, and from the heartbeat's thread)."""

from __future__ import annotations

import logging
from typing import Any

from .connection import TeamConnection
from .memory import TeamMemory
from .model import LEDGER_LENGTH, HandleSettings, PendingCharge

__all__ = ["ChargeRecorder"]

logger = logging.getLogger(__name__)


class ChargeRecorder:
    """Writes settlements to the team's budget and ledger.

    Parameters
    ----------
    connection : TeamConnection
        The team's Redis.
    memory : TeamMemory
        What this handle remembers (its pending charges among it).
    settings : HandleSettings
        Who spends (the ledger's ``who``).
    """

    def __init__(self, connection: TeamConnection, memory: TeamMemory, settings: HandleSettings) -> None:
        self._connection = connection
        self._memory = memory
        self._settings = settings

    def record(self, item: PendingCharge) -> Any:
        """Settle ``item`` in Redis: ``{1, spent, exact, gen}``, or ``{-1, ...}`` when the team is gone (raises
        ``redis.RedisError``)."""
        args = [item.rid, item.charged, self._settings.member, item.call, item.path, LEDGER_LENGTH, item.inc]
        return self._connection.run("settle", 6, args)

    def record_pending(self) -> bool:
        """Record the pending charges in Redis, oldest first: ``True`` when none is left, ``False`` when the team is
        gone from Redis (they stay pending). Raises ``redis.RedisError`` (the charge stays pending)."""
        while True:
            item = self._memory.take_oldest_pending()
            if item is None:
                return True
            try:
                reply = self.record(item)
            except BaseException:
                self._memory.put_back_pending(item)
                raise
            if int(reply[0]) != 1:
                self._memory.put_back_pending(item)
                return False
            self._memory.see_gen(int(reply[3]))
            if item.charged:
                logger.info("team %s: %d pending credits recorded", self._connection.team, item.charged)
