"""Reserving and settling credits in a team's budget.

Before a paid request is sent its price is reserved by a Lua script that, in one step, adds up the calls in flight,
the orphans and the team's settled spending, and either holds the price or refuses. Settling releases the
reservation and adds what was charged to the team's spending and ledger, in one step; when Redis does not take it,
the charge stays pending in the handle and is recorded before its next reservation (while any is pending and Redis
still does not answer, paid calls are refused).
"""

from __future__ import annotations

import logging
import uuid
import warnings
from typing import Any

from regkit.errors import BudgetUnavailableError, BudgetWarning

from ..budget.limit import Reservation
from .charges import ChargeRecorder
from .connection import TeamConnection
from .heartbeat import Heartbeat
from .memory import TeamMemory
from .model import HandleSettings, PendingCharge, Refusal, TeamReservation, TeamState
from .reconciliation import Reconciliation

__all__ = ["Reservations"]

logger = logging.getLogger(__name__)


class Reservations:
    """Holds credits for attempts, and settles them with what was charged.

    Parameters
    ----------
    connection : TeamConnection
        The team's Redis.
    memory : TeamMemory
        What this handle remembers of the team, and its pending charges.
    charges : ChargeRecorder
        Records settlements in Redis.
    heartbeat : Heartbeat
        Keeps the reservations of calls in flight held.
    reconciliation : Reconciliation
        Re-establishes a lost team, and reconciles one with orphans before a reservation.
    settings : HandleSettings
        How long a reservation lives.
    """

    def __init__(
        self,
        connection: TeamConnection,
        memory: TeamMemory,
        charges: ChargeRecorder,
        heartbeat: Heartbeat,
        reconciliation: Reconciliation,
        settings: HandleSettings,
    ) -> None:
        self._connection = connection
        self._memory = memory
        self._charges = charges
        self._heartbeat = heartbeat
        self._reconciliation = reconciliation
        self._settings = settings

    # -- reserving -----------------------------------------------------------------------------------
    def reserve(self, credits: int, what: str, context: dict[str, Any]) -> TeamReservation:
        """Hold ``credits`` for one attempt, or raise :class:`~regkit.errors.BudgetExceededError` (and
        :class:`BudgetUnavailableError` when Redis does not answer or the team cannot be re-established)."""
        held = self._attempt(credits, what, context)
        if isinstance(held, Refusal):
            raise held.error(self._connection.team, credits, what, context)
        return held

    def try_reserve(self, credits: int) -> TeamReservation | None:
        """Hold ``credits`` for one attempt, or return ``None`` if they would cross the team's cap."""
        held = self._attempt(credits, "", {})
        return None if isinstance(held, Refusal) else held

    def _attempt(self, credits: int, what: str, context: dict[str, Any]) -> TeamReservation | Refusal:
        call, path = what.split(" (", 1)[0], str(context.get("path") or "")
        if credits <= 0:  # a free attempt (or a team without a cap): never refused
            if not self._reconciliation.recovering:
                self._before_free_attempt(path)
            return TeamReservation(0, None, call, path, self._memory.team.inc)
        self._record_pending()
        want = self._reconciliation.has_account and self._reconciliation.due
        hold_ms = int(self._settings.hold * 1000)
        for _ in range(4):
            rid, team = uuid.uuid4().hex, self._memory.team
            args = [team.id, team.gen, rid, credits, hold_ms, int(want)]
            state = TeamState.of(self._connection.call("reserve", 4, args))
            if state.status in (0, 1, 2):
                self._memory.learn(state)
            if state.status == 1:
                self._heartbeat.track(rid, credits)
                self._heartbeat.ensure_running()
                return TeamReservation(credits, rid, call, path, state.inc)
            if state.status == 0:
                limit = state.limit or 0
                return Refusal(max(0, limit - state.spent - state.held), state.spent, state.held, limit, state.orphaned)
            if state.status == 2:  # orphans, unsure credits or no anchor, and nothing in flight: reconcile first
                want = False
                self._reconciliation.auto_reconcile()
                continue
            self._reconciliation.recover()
        raise self._connection.unsettled()

    def _before_free_attempt(self, path: str) -> None:
        """Before a free attempt (or any attempt of a team without a cap), without ever refusing it: record the
        pending charges if Redis takes them, and anchor a team that is not yet anchored (not before a read of the
        account itself: that is the read the anchor is made with)."""
        import redis

        if self._memory.has_pending:
            try:
                self._charges.record_pending()
            except redis.RedisError:
                pass
        if (
            self._memory.team.used is None
            and self._reconciliation.has_account
            and path != "/v1/credits"
            and self._reconciliation.due
        ):
            self._reconciliation.auto_reconcile()

    def _record_pending(self) -> None:
        """Before a reservation: record this handle's pending charges, or raise :class:`BudgetUnavailableError`."""
        import redis

        for _ in range(3):
            if not self._memory.has_pending:
                return
            try:
                if self._charges.record_pending():
                    return
            except redis.RedisError as exc:
                raise BudgetUnavailableError(
                    f"{self._memory.pending_credits} credits this client was charged are not yet recorded in the "
                    f"budget of team {self._connection.team}, and Redis ({self._connection.where}) does not answer "
                    f"({type(exc).__name__}); nothing was sent",
                    suggestion="start or reconnect the team's Redis: the pending charges are recorded, and paid "
                    "calls go on, as soon as it answers",
                ) from None
            self._reconciliation.recover()
        raise self._connection.unsettled()

    # -- settling ------------------------------------------------------------------------------------
    def settle(self, reservation: Reservation, charged: int) -> str | None:
        """Release ``reservation`` and add ``charged`` to the team's spending and ledger; never raises for Redis
        (see ``TeamBudget.settle``)."""
        import redis

        rid = getattr(reservation, "id", None)
        if rid is not None:
            self._heartbeat.release(rid)
        if rid is None and not charged:
            return None
        item = PendingCharge(
            rid or "",
            int(charged),
            getattr(reservation, "call", ""),
            getattr(reservation, "path", ""),
            getattr(reservation, "incarnation", "") or self._memory.team.inc,
        )
        where = self._connection.where
        try:
            reply = self._charges.record(item)
        except redis.RedisError as exc:
            return self._left_pending(
                item, f"Redis ({where}) does not answer ({type(exc).__name__})", "Redis unreachable"
            )
        if int(reply[0]) == 1:
            self._memory.see_gen(int(reply[3]))
            return None
        # Redis answers without the team's data: re-established from the account, which has counted this charge.
        self._memory.add_pending(item)
        if self._reconciliation.has_account and not self._reconciliation.recovering:
            try:
                self._reconciliation.recover()
                self._charges.record_pending()
            except Exception as exc:  # a settlement never raises: the charge stays pending
                logger.info("team %s: not re-established at settlement (%s)", self._connection.team, type(exc).__name__)
        if not self._memory.is_pending(item):
            return None  # recorded: in the re-established total
        return self._left_pending(
            item, f"Redis ({where}) lost the team's data", "Redis lost the team's data", queued=True
        )

    def _left_pending(self, item: PendingCharge, detail: str, short: str, *, queued: bool = False) -> str:
        team = self._connection.team
        if not queued:
            self._memory.add_pending(item)
        total = self._memory.pending_credits
        self._heartbeat.ensure_running()  # records the pending charges in the background too
        if item.charged:
            until = "" if self._memory.team.limit is None else ", and paid calls are refused until then"
            warnings.warn(
                f"team {team}: the team's budget was not updated: {detail}; {item.charged} credits charged for "
                f"{item.call or 'a call'} are pending ({total} in all). The answer was returned and is in this "
                f"client's ledger; the charge is recorded in the team's budget when Redis answers again{until}",
                BudgetWarning,
                stacklevel=4,
            )
        logger.warning("team %s: %d credits pending (%s)", team, total, short)
        return f"team budget not updated: {short}; {total} credits pending"
