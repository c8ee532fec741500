""":class:`TeamBudget`: the interface of :class:`~regkit.client.budget.limit.Budget` over a team's state in Redis.

A facade: it composes the roles of :mod:`regkit.client.team` — the team's Redis (:mod:`.connection`), what this
handle remembers (:mod:`.memory`), reservations and settlements (:mod:`.reservations`), the heartbeat that keeps
calls in flight held (:mod:`.heartbeat`), reconciliation with the register's account and restore
(:mod:`.reconciliation`) — and reads the team's state and ledger for display.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from regkit.errors import BudgetExceededError, RegkitError, ValidationError

from ..budget.limit import Budget, Reservation, budget_html
from .charges import ChargeRecorder
from .connection import TeamConnection
from .heartbeat import Heartbeat
from .memory import TeamMemory
from .model import DEFAULT_HOLD_SECONDS, Refusal, TeamReconciliation, TeamReservation, default_member
from .reconciliation import Reconciliation
from .reservations import Reservations

if TYPE_CHECKING:  # pandas is imported when the ledger is asked for, not with the client
    import pandas as pd

__all__ = ["TeamBudget"]

logger = logging.getLogger(__name__)

_LIMIT_REFRESH = 1.0  # seconds a read of the team's cap is reused (the reservation script always reads it anew)


class TeamBudget(Budget):
    """Credits a team may still spend, shared through Redis by all its clients (see :mod:`regkit.client.team`).

    A :class:`~regkit.client.budget.limit.Budget` whose state is the team's in Redis. Usually made by :class:`regkit.Client` from ``budget_scope``; ``client.budget`` is then this object.

    Parameters
    ----------
    url : str
        The Redis URL (``redis://``, ``rediss://`` or ``unix://``), without ``#team``.
    team : str
        The team's name: letters, digits, ``.``, ``_`` and ``-``, at most 64, starting with a letter or digit.
    limit : int, optional
        The team's cap: set in Redis if the team has none, else it must equal the team's cap. ``None``: use the
        team's cap, if it has one (else spending is counted and recorded, never refused). A team that does not
        exist yet is created (with this cap, or as a team without one).
    member : str, optional
        Who spends, in the team ledger; default :func:`default_member` (``user@host pid N``).
    hold : float
        Seconds a reservation lives without a heartbeat (:attr:`hold`).

    Attributes
    ----------
    team : str
        The team's name.
    member : str
        Who this client is in the team ledger.
    hold : float
        Seconds a reservation lives unless the heartbeat of its process extends it (every ``hold / 3``
        seconds while its call runs). After a crash its credits stay held as an orphan until a reconciliation
        with the register's account settles them (:meth:`reconcile`). Settable (e.g. short in tests); a call must
        never pause longer than ``hold`` between beats, which a live process's heartbeat thread guarantees.

    Raises
    ------
    ValidationError
        Redis does not answer, or ``limit`` differs from the cap the team already has.
    ImportError
        The ``redis`` package is not installed (``pip install redis``).

    Examples
    --------
    >>> client = regkit.Client(budget=300, budget_scope="redis://cache.example:6379/0#team-a")  # doctest: +SKIP
    >>> client.budget                                                                            # doctest: +SKIP
    <TeamBudget team-a at redis://cache.example:6379/0: 300 of 300 left>
    >>> client.budget.ledger()                                                                   # doctest: +SKIP
    """

    def __init__(
        self,
        url: str,
        team: str,
        limit: int | None = None,
        *,
        member: str | None = None,
        hold: float = DEFAULT_HOLD_SECONDS,
    ) -> None:
        self._connection = connection = TeamConnection(url, team)
        self.team = team
        self.member = member or default_member()
        self.hold = hold
        self._memory = memory = TeamMemory(connection.claim(limit))
        charges = ChargeRecorder(connection, memory, self)
        heartbeat = Heartbeat(connection, memory, charges, self)
        self._reconciliation = reconciliation = Reconciliation(connection, memory, heartbeat, self)
        self._reservations = Reservations(connection, memory, charges, heartbeat, reconciliation, self)

    def bind_account(self, read: Callable[[], dict[str, Any]]) -> None:
        """Give the budget a way to read the register's account (``GET /v1/credits`` as a dict: ``used_credits``,
        ``remaining_credits``, ``period``...): made by :class:`regkit.Client`, free and never cached.

        The budget reads it to anchor a new team, to re-establish a team whose Redis lost its data
        (:meth:`restore`) and to settle the reservations of members that stopped mid-call (:meth:`reconcile`).
        Without it those fail closed."""
        self._reconciliation.bind_account(read)

    # -- the cap -------------------------------------------------------------------------------------
    @property
    def limit(self) -> int | None:
        """The team's cap in Redis (``None``: no cap), re-read at most once a second; every reservation checks the
        cap stored at that moment. Assigning it sets the team's cap for everyone (:meth:`set_limit`).

        When Redis does not answer or lost the team's data, this is the cap this handle last knew — never ``None``
        for a team that had one (its next reservation then stops, or re-establishes the team)."""
        import redis

        reading = self._memory.limit_reading
        if reading is not None and time.monotonic() - reading.at < _LIMIT_REFRESH:
            return reading.limit
        try:
            stored_id, stored = self._connection.stored_cap()
        except redis.RedisError:
            limit = self._memory.team.limit
        else:
            if stored_id == self._memory.team.id:
                limit = stored
                self._memory.set_limit(limit)
            else:  # gone or replaced: the cap this handle knows
                limit = self._memory.team.limit
        self._memory.remember_limit(limit)
        return limit

    @limit.setter
    def limit(self, limit: int | None) -> None:
        self.set_limit(limit)

    def set_limit(self, limit: int | None) -> None:
        """Set the team's cap for every client of the team (``None`` removes it).

        Raises
        ------
        ValidationError
            ``limit`` is not a whole number ≥ 0 or ``None``.
        BudgetUnavailableError
            Redis does not answer, or lost the team's data and it cannot be re-established (:meth:`restore`).
        """
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise ValidationError(
                f"limit must be a whole number of credits (>= 0) or None, not {limit!r}",
                suggestion="e.g. client.budget.set_limit(5000)",
            )
        for _ in range(3):
            args = [self._memory.team.id, "" if limit is None else limit]
            if int(self._connection.call("set_limit", 1, args)) == 1:
                break
            self._reconciliation.recover()
        else:
            raise self._connection.unsettled()
        self._memory.set_limit(limit)
        self._memory.remember_limit(limit)
        logger.info("team %s: budget set to %s by %s", self.team, "no limit" if limit is None else limit, self.member)

    # -- what is left --------------------------------------------------------------------------------
    def snapshot(self) -> tuple[int, int, int | None]:
        """``(spent, held, limit)`` of the whole team, read from Redis in one step, so they agree (``held``
        includes orphans)."""
        state = self._reconciliation.read_state()
        return state.spent, state.held, state.limit

    @property
    def spent(self) -> int:
        """Credits the whole team has settled so far (charged, or possibly charged)."""
        return self._reconciliation.read_state().spent

    @property
    def held(self) -> int:
        """Credits held right now by calls in flight in every process of the team, and by orphans (calls of
        members that stopped mid-call, until :meth:`reconcile` settles them)."""
        return self._reconciliation.read_state().held

    @property
    def orphaned(self) -> int:
        """Credits held by orphans: reservations whose member stopped beating mid-call (part of :attr:`held`)."""
        return self._reconciliation.read_state().orphaned

    @property
    def pending(self) -> int:
        """Credits this handle settled while Redis did not take them, not yet recorded in the team's budget."""
        return self._memory.pending_credits

    @property
    def remaining(self) -> int | None:
        """Credits left to the team after settled and reserved spending (``None`` without a cap)."""
        spent, held, limit = self.snapshot()
        return None if limit is None else limit - spent - held

    def check(self, needed: int, *, what: str = "this call", **context: object) -> None:
        """Raise :class:`BudgetExceededError` if ``needed`` credits would cross the team's cap now."""
        remaining = self.remaining
        if remaining is not None and needed > remaining:
            raise self.exceeded(needed, what=what, **context)

    def exceeded(self, needed: int, *, what: str = "this call", **context: object) -> BudgetExceededError:
        """The error for a call needing ``needed`` credits that the team's budget does not cover."""
        state = self._reconciliation.read_state()
        remaining = 0 if state.limit is None else max(0, state.limit - state.spent - state.held)
        refusal = Refusal(remaining, state.spent, state.held, state.limit, state.orphaned)
        return refusal.error(self._connection.team, needed, what, context)

    # -- reserve and settle --------------------------------------------------------------------------
    def reserve(self, credits: int, *, what: str = "this call", **context: object) -> TeamReservation:
        """Hold ``credits`` in the team's budget for one attempt.

        Pending charges of this handle are recorded first; a team whose Redis lost its data is re-established
        from the register's account; orphans are settled with the account when the team is quiet.

        Raises
        ------
        BudgetExceededError
            The credits would cross the team's cap (nothing was sent).
        BudgetUnavailableError
            Redis does not answer (or charges of this handle are still pending), or it lost the team's data and
            the team cannot be re-established (the message says why). A free attempt (``credits`` 0) is never
            refused.
        """
        return self._reservations.reserve(credits, what, context)

    def try_reserve(self, credits: int) -> TeamReservation | None:
        """Hold ``credits`` for one attempt, or return ``None`` if they would cross the team's cap (and raise
        :class:`BudgetUnavailableError` as :meth:`reserve` does)."""
        return self._reservations.try_reserve(credits)

    def settle(self, reservation: Reservation, charged: int) -> str | None:
        """Release ``reservation`` and add ``charged`` credits to the team's spending (and, if any, to the team
        ledger), in one step.

        Never raises for Redis: a paid answer is never lost to the team budget. When Redis does not answer (or lost
        the team's data and it cannot be re-established at once) the charge is kept pending in this handle, a
        :class:`~regkit.errors.BudgetWarning` says what was not recorded, and a short note is returned.

        Returns
        -------
        str or None
            ``None`` when the settlement was recorded; else a note such as ``"team budget not updated: Redis
            unreachable; 10 credits pending"``.
        """
        return self._reservations.settle(reservation, charged)

    # -- re-establishing and reconciling -------------------------------------------------------------
    def restore(self, spent: int | None = None) -> str:
        """Re-establish the team in Redis after Redis lost its data, and say what was done.

        Done by itself before a paid call when Redis was restarted without its data, flushed, or rolled back to an
        older save. The team is written again with the cap and anchor this handle remembers and ``spent =
        used_now - anchor`` from the register's account (its ledger before the loss is gone; a ``restore`` row holds
        the total). A team that is there as this handle knows it is left alone; one that another member
        re-established, or began anew with an anchor counting at least as much, is adopted.

        Parameters
        ----------
        spent : int, optional
            Re-establish with this spending instead (e.g. when this handle has no account reader, or the team was
            never anchored); the anchor then becomes the account's ``used_credits`` minus ``spent``, if it can be
            read.

        Returns
        -------
        str
            What was done.

        Raises
        ------
        BudgetUnavailableError
            It cannot be done: Redis does not answer, no account reader is bound (:meth:`bind_account`), the account
            cannot be read, the team was never anchored, or the account's period changed since.
        """
        return self._reconciliation.restore(spent)

    def reconcile(self) -> TeamReconciliation:
        """Set the team's spending from the register's account, and settle its orphans, if the team is quiet.

        Reads the team's counter and live reservations, then the account, then — only if no reservation or
        settlement happened in between and no call is in flight — sets ``spent = used_now - anchor``, drops the
        orphans (their calls are then counted exactly as the register charged them) and clears what was unsure.
        Tried by itself when a reservation finds orphans (at most once a second per handle). A team that Redis
        lost is re-established first. A team without a cap has no reservations in flight to see: reconcile it when
        none of its calls runs.

        Returns
        -------
        TeamReconciliation
            Whether it was done, and what changed (a :class:`~regkit.errors.BudgetWarning` names any change of
            the team's spending).

        Raises
        ------
        BudgetUnavailableError
            Redis does not answer, or lost the team's data and it cannot be re-established.
        """
        return self._reconciliation.reconcile()

    # -- the ledger and display ----------------------------------------------------------------------
    def ledger(self) -> pd.DataFrame:
        """The team's settlements that charged credits, oldest first (about the last :data:`LEDGER_LENGTH`).

        Returns
        -------
        pandas.DataFrame
            Columns and dtypes:

            =======  ===================  ===================================================================
            who      str                  the member (``Client(budget_member=...)``, default ``user@host pid N``)
            call     str                  client method (``get_company``, ...); ``restore``: the team's total
                                          when it was re-established from the register's account (the rows
                                          before it were lost with Redis' data); ``reconcile``: a correction
                                          from the account (orphans charged, a charge counted twice, ...)
            path     str                  request path with query, e.g. ``/v1/company/ID?realtime=true``
            credits  int64                credits charged (or possibly charged: an attempt without an answer;
                                          a ``reconcile`` row may be negative)
            at       datetime64[us, UTC]  when it was settled (Redis' clock)
            =======  ===================  ===================================================================

            ``frame.attrs`` holds ``team`` and ``credits_spent`` (the team's total, trimmed entries included).

        Examples
        --------
        >>> client.budget.ledger().groupby("who")["credits"].sum()   # doctest: +SKIP
        """
        import pandas as pd

        rows = [
            {
                "who": fields[b"who"].decode(),
                "call": fields[b"call"].decode(),
                "path": fields[b"path"].decode(),
                "credits": int(fields[b"credits"]),
                "at": datetime.fromtimestamp(int(fields[b"at"]) / 1000, timezone.utc),
            }
            for _, fields in self._connection.ledger_entries()
        ]
        frame = pd.DataFrame.from_records(rows, columns=["who", "call", "path", "credits", "at"])
        frame = frame.astype(
            {"who": "str", "call": "str", "path": "str", "credits": "int64", "at": "datetime64[us, UTC]"}
        )
        frame.attrs["team"] = self.team
        frame.attrs["credits_spent"] = self.spent
        return frame

    def describe(self) -> str:
        """``team-a: 120 of 300 left`` (``team-a: 80 spent, no limit`` without a cap); never raises."""
        try:
            state = self._reconciliation.read_state(recover=False)
        except RegkitError:
            text = f"{self.team}: Redis unreachable"
        else:
            if state.status != 1:
                text = f"{self.team}: the team's data is gone from Redis (restore needed)"
            elif state.limit is None:
                text = f"{self.team}: {state.spent} spent, no limit"
            else:
                text = f"{self.team}: {state.limit - state.spent - state.held} of {state.limit} left"
        pending = self.pending
        return f"{text}, {pending} credits pending" if pending else text

    def __repr__(self) -> str:
        return f"<TeamBudget {self.team} at {self._connection.where}: {self.describe().split(': ', 1)[1]}>"

    def _repr_html_(self) -> str | None:
        """The summary Jupyter shows (``None``, the repr, when Redis does not answer or lost the team's data: a
        display never re-establishes anything)."""
        try:
            state = self._reconciliation.read_state(recover=False)
        except RegkitError:
            return None
        if state.status != 1:
            return None
        return budget_html(state.limit, state.spent, state.held, self.team)
