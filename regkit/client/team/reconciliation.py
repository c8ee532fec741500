"""Reconciling a team budget with the register's account, and re-establishing a team whose Redis lost its data.

The register's account is the authoritative total: the team's spending is ``used_now - anchor``, the anchor being
the account's ``used_credits`` when the team began. A reconciliation sets it so at a quiet moment (nothing reserved
or settled since the team was read, no call in flight) and drops the orphans; a restore writes the team again, with
the cap and anchor a handle remembers, after Redis lost it. Both read the account through the reader that
:class:`regkit.Client` binds; without it they fail closed.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
import warnings
from collections.abc import Callable
from typing import Any

from regkit.errors import BudgetUnavailableError, BudgetWarning, RegkitError, ValidationError

from .connection import TeamConnection
from .heartbeat import Heartbeat
from .memory import TeamMemory
from .model import (
    LEDGER_LENGTH,
    RESTORE_HINT,
    AccountReading,
    HandleSettings,
    KnownTeam,
    PendingCharge,
    TeamReconciliation,
    TeamState,
    account_moved,
)

__all__ = ["Reconciliation"]

logger = logging.getLogger(__name__)

_RECONCILE_AGAIN = 1.0  # seconds before a reservation tries again to reconcile, after the team was busy
_ACCOUNT_AGAIN = 30.0  # ... after the account could not be read or did not fit the anchor
_NO_READER_AGAIN = 3600.0  # ... when no reader of the account is bound


class Reconciliation:
    """The team in Redis read (and re-established when lost), reconciled with the account, restored by hand.

    Parameters
    ----------
    connection : TeamConnection
        The team's Redis.
    memory : TeamMemory
        What this handle remembers of the team (and its pending charges, which a restore counts).
    heartbeat : Heartbeat
        This handle's calls in flight (held again by a restore).
    settings : HandleSettings
        Who spends and how long a reservation lives.
    """

    def __init__(
        self, connection: TeamConnection, memory: TeamMemory, heartbeat: Heartbeat, settings: HandleSettings
    ) -> None:
        self._connection = connection
        self._memory = memory
        self._heartbeat = heartbeat
        self._settings = settings
        self._lock = threading.RLock()  # one restore or reconciliation at a time
        self._local = threading.local()
        self._account: Callable[[], dict[str, Any]] | None = None
        self._next_reconcile = 0.0

    def bind_account(self, read: Callable[[], dict[str, Any]]) -> None:
        """Read the register's account (``GET /v1/credits`` as a dict) with ``read``."""
        self._account = read

    @property
    def has_account(self) -> bool:
        """Whether a reader of the register's account is bound."""
        return self._account is not None

    @property
    def due(self) -> bool:
        """Whether a reservation may try to reconcile now (not too soon after the last try)."""
        return time.monotonic() >= self._next_reconcile

    @property
    def recovering(self) -> bool:
        """Whether this thread is re-establishing the team (its read of the account must not recover again)."""
        return bool(getattr(self._local, "recovering", False))

    # -- reading the team ----------------------------------------------------------------------------
    def read_state(self, *, recover: bool = True) -> TeamState:
        """The team in Redis, read in one step; with ``recover``, a team that Redis lost is re-established first."""
        for _ in range(3):
            team = self._memory.team
            state = TeamState.of(self._connection.call("state", 4, [team.id, team.gen]))
            if state.status == 1:
                self._memory.learn(state)
                return state
            if not recover:
                return state
            self.recover()
        raise self._connection.unsettled()

    # -- re-establishing -----------------------------------------------------------------------------
    def restore(self, spent: int | None = None) -> str:
        """Re-establish the team in Redis after Redis lost its data (see ``TeamBudget.restore``)."""
        if spent is not None and (not isinstance(spent, int) or isinstance(spent, bool) or spent < 0):
            raise ValidationError(
                f"spent must be a whole number of credits (>= 0), not {spent!r}",
                suggestion="e.g. client.budget.restore(spent=1200)",
            )
        with self._lock:
            team = self._memory.team
            state = TeamState.of(self._connection.call("state", 4, [team.id, team.gen]))
            if state.status == 1:
                self._memory.learn(state)
                return f"team {self._connection.team}: its data is in Redis; nothing to restore"
            return self._restore(spent)

    def recover(self) -> None:
        """The team in Redis is gone, another or rolled back: re-establish it, or adopt the one there; raise
        :class:`BudgetUnavailableError` if that cannot be done."""
        with self._lock:
            team = self._memory.team
            state = TeamState.of(self._connection.call("state", 4, [team.id, team.gen]))
            if state.status == 1:  # another thread of this handle did it meanwhile
                self._memory.learn(state)
                return
            team = self._memory.team
            if state.status == -2 and team.used is None and (state.limit is not None or team.limit is None):
                self._adopt(state)  # this handle knows no more than the team in Redis, which is as strict
                return
            self._restore(None)

    def _restore(self, spent: int | None) -> str:
        name = self._connection.team
        team = self._memory.copy()
        if spent is None and self._account is None:
            raise self._cannot(
                "this TeamBudget has no reader of the register's account to re-establish the team's spending from",
                "use a regkit.Client(budget_scope=...), which binds one, or "
                "client.budget.bind_account(reader); " + RESTORE_HINT,
            )
        if spent is None and team.used is None:
            raise self._cannot(
                "the team was never anchored to the register's account (its first paid call could not read it)",
                RESTORE_HINT,
            )
        claimed = self._memory.claim_pending()  # charged before the account is read below: the account counts them
        self._local.recovering = True
        try:
            account = None if self._account is None else self._read_account()
            if spent is None:
                assert account is not None and team.used is not None
                moved = account_moved(team, account)
                if moved:
                    raise self._cannot(moved, "use a new team name for the new period, or " + RESTORE_HINT)
                anchor: int | None = team.used
                restored, reset, period = account.used - team.used, team.reset, team.period
            else:
                anchor = None if account is None else account.used - spent
                restored = spent
                reset, period = (account.reset, account.period) if account is not None else ("", "")
            inc = uuid.uuid4().hex
            live = self._heartbeat.live()
            args: list[Any] = [
                team.id,
                inc,
                "" if team.limit is None else team.limit,
                "" if anchor is None else anchor,
                reset,
                period,
                restored,
                self._settings.member,
                LEDGER_LENGTH,
                team.gen,
                team.created,
                int(self._settings.hold * 1000),
            ]
            for rid, credits in live.items():
                args += [rid, credits]
            code, gen = (int(x) for x in self._connection.call("restore", 6, args))
        except BaseException:
            self._memory.unclaim_pending(claimed)
            raise
        finally:
            self._local.recovering = False
        if code == 1:
            # their charges are in the restored total; their holds, if Redis still has them, are released
            released = [PendingCharge(p.rid, 0, p.call, p.path, p.inc) for p in claimed if p.rid]
            self._memory.restored(
                KnownTeam(team.id, inc, team.limit, anchor, reset, period, team.created, gen), released
            )
            how = (
                f"the register's account ({account.used} credits used now, {anchor} when the team began)"
                if spent is None and account is not None
                else "the spending given"
            )
            note = (
                f"team {name}: re-established in Redis after it lost or rolled back the team's data: "
                f"{restored} credits spent, from {how}; cap {team.limit if team.limit is not None else 'none'}; "
                "the team's ledger before the loss is gone (a 'restore' row holds the total)"
            )
            logger.warning(note)
            warnings.warn(note, BudgetWarning, stacklevel=5)
            return note
        self._memory.unclaim_pending(claimed)  # recorded by the next reservation, marked unsure: another member's read
        state = TeamState.of(self._connection.call("state", 4, [team.id, team.gen]))
        if state.status == -2 and state.id:
            self._adopt(state)
            return f"team {name}: another member re-established the team (or began it first); this budget uses it"
        if state.status == 1:
            self._memory.learn(state)
        return f"team {name}: its data is in Redis; nothing to restore"

    def _adopt(self, state: TeamState) -> None:
        """Take the team in Redis (another identity) as this handle's."""
        self._memory.adopt(state)
        logger.info("team %s: this budget uses the team as it is in Redis now", self._connection.team)

    def _cannot(self, reason: str, suggestion: str) -> BudgetUnavailableError:
        return BudgetUnavailableError(
            f"the budget of team {self._connection.team} is gone from Redis ({self._connection.where}) — restarted "
            f"without its data, flushed, or rolled back to an older save — and cannot be re-established: {reason}; "
            "nothing was sent",
            suggestion=suggestion,
        )

    # -- reconciling ---------------------------------------------------------------------------------
    def reconcile(self) -> TeamReconciliation:
        """Set the team's spending from the account, and settle its orphans, if the team is quiet (see
        ``TeamBudget.reconcile``)."""
        with self._lock:
            return self._reconcile(auto=False)[0]

    def auto_reconcile(self) -> None:
        """Reconcile before a reservation (at most once a second per handle); never raises for Redis."""
        with self._lock:
            if time.monotonic() < self._next_reconcile:
                return  # another thread of this handle just tried
            try:
                _, again = self._reconcile(auto=True)
            except RegkitError:  # Redis does not answer: the reservation says so, a free attempt goes on
                again = _RECONCILE_AGAIN
            self._next_reconcile = time.monotonic() + again

    def _reconcile(self, *, auto: bool) -> tuple[TeamReconciliation, float]:
        """The reconciliation and, when it was not done, how long a reservation waits before trying again."""
        name = self._connection.team
        state = self.read_state(recover=not auto)
        if state.status != 1:
            return TeamReconciliation(False, f"team {name}: the team's data is gone from Redis"), 0.0
        if auto and state.used is not None and not state.orphaned and not state.unsure:
            return TeamReconciliation(False, f"team {name}: nothing to reconcile", state.spent, state.spent), 0.0
        if self._account is None:
            return TeamReconciliation(
                False,
                f"team {name}: no reader of the register's account is bound (client.budget.bind_account)",
                state.spent,
                state.spent,
            ), _NO_READER_AGAIN
        if state.calls:
            orphans = f"; its orphans stay held ({state.orphaned} credits)" if state.orphaned else ""
            return TeamReconciliation(
                False,
                f"team {name}: {state.calls} call(s) in flight; reconciled when none is{orphans}",
                state.spent,
                state.spent,
            ), _RECONCILE_AGAIN
        try:
            account = self._read_account()
        except BudgetUnavailableError as exc:
            return TeamReconciliation(False, exc.message, state.spent, state.spent), _ACCOUNT_AGAIN
        if state.used is not None:
            moved = account_moved(self._memory.team, account)
            if moved:
                return TeamReconciliation(False, f"team {name}: {moved}", state.spent, state.spent), _ACCOUNT_AGAIN
        member = self._settings.member
        args = [state.id, state.gen, state.inc, account.used, account.reset, account.period, member, LEDGER_LENGTH]
        reply = [int(x) for x in self._connection.call("reconcile", 6, args)]
        if reply[0] != 1:
            return TeamReconciliation(
                False, f"team {name}: a call started or settled meanwhile; try again", state.spent, state.spent
            ), _RECONCILE_AGAIN
        _, before, after, released, anchor = reply
        self._memory.anchor(anchor, account.reset, account.period)
        if state.used is None:
            note = (
                f"team {name}: anchored to the register's account ({account.used} credits used now; "
                f"{after} spent by the team)"
            )
        else:
            note = (
                f"team {name}: reconciled with the register's account ({account.used} credits used now, "
                f"{anchor} when the team began): {after} credits spent, was {before} ({after - before:+d})"
            )
        if released and state.used is None:
            note += (
                f"; {released} credits held by calls of members that stopped mid-call are counted as spent (the "
                "team had no anchor to tell what they were charged)"
            )
        elif released:
            note += (
                f"; {released} credits held by calls of members that stopped mid-call are no longer held (the "
                "account counts what they were charged)"
            )
        if after != before or released:
            logger.warning(note)
            warnings.warn(note, BudgetWarning, stacklevel=5)
        return TeamReconciliation(True, note, before, after, released), 0.0

    def _read_account(self) -> AccountReading:
        name = self._connection.team
        read = self._account
        assert read is not None
        try:
            raw = read()
        except Exception as exc:  # whatever the reader raises, the budget fails closed
            detail = f": {exc.message}" if isinstance(exc, RegkitError) else ""
            raise BudgetUnavailableError(
                f"the register's account (GET /v1/credits), from which the budget of team {name} is "
                f"re-established and reconciled, could not be read ({type(exc).__name__}{detail})",
                suggestion="check that the register is reachable and the API key valid; the next paid call tries "
                "again (or call client.budget.restore())",
            ) from None
        try:
            period = raw.get("period") or {}
            return AccountReading(
                int(raw["used_credits"]), str(period.get("reset_at") or ""), str(period.get("type") or "")
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            raise BudgetUnavailableError(
                f"the register's account has no used_credits to re-establish or reconcile the budget of team "
                f"{name} from",
                suggestion=RESTORE_HINT,
            ) from None
