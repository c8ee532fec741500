"""What a team budget knows and answers: the team as a handle remembers it, the team's state in Redis, a reservation,
a refusal, a reconciliation, a charge not yet recorded, a reading of the register's account.

The role classes of :mod:`regkit.client.team` pass these between them; :class:`TeamReservation` and
:class:`TeamReconciliation` are what :class:`~regkit.client.team.budget.TeamBudget` hands out.
"""

from __future__ import annotations

import getpass
import os
import socket
from dataclasses import dataclass
from typing import Any, Protocol

from regkit.errors import BudgetExceededError

from ..budget.limit import Reservation

__all__ = [
    "DEFAULT_HOLD_SECONDS",
    "LEDGER_LENGTH",
    "RESTORE_HINT",
    "AccountReading",
    "HandleSettings",
    "KnownTeam",
    "PendingCharge",
    "Refusal",
    "TeamReconciliation",
    "TeamReservation",
    "TeamState",
    "account_moved",
    "default_member",
]

#: Seconds a reservation lives without a heartbeat (then it is an orphan: still held until reconciled).
DEFAULT_HOLD_SECONDS = 120.0
#: About how many settlements the team ledger keeps (older ones are trimmed: ``XADD MAXLEN ~``).
LEDGER_LENGTH = 100_000
#: What to do by hand when a team cannot be re-established from the register's account.
RESTORE_HINT = (
    "client.budget.restore(spent=N) re-establishes it by hand with the team's spending N (e.g. the "
    "account's used_credits now minus what they were when the team began)"
)


def default_member() -> str:
    """Who this process is in the team ledger: ``user@host pid N``."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (e.g. in a container)
        user = f"uid{os.getuid()}" if hasattr(os, "getuid") else "unknown"
    return f"{user}@{socket.gethostname()} pid {os.getpid()}"


class HandleSettings(Protocol):
    """Who spends and how long a reservation lives: read anew at each use (both are settable on a ``TeamBudget``)."""

    @property
    def member(self) -> str:
        """Who this client is in the team ledger."""
        ...

    @property
    def hold(self) -> float:
        """Seconds a reservation lives without a heartbeat."""
        ...


@dataclass(frozen=True)
class TeamReservation(Reservation):
    """Credits held in the team's budget for one attempt.

    Attributes
    ----------
    credits : int
        Credits held.
    id : str or None
        The reservation's random id in Redis (``None``: nothing held there — a free attempt, or no cap).
    call, path : str
        What the credits are for (the client method and the request path), for the team ledger.
    incarnation : str
        The team's incarnation when the credits were held (a restore starts a new one; a settlement against an
        older one is counted but marked unsure).
    """

    id: str | None = None
    call: str = ""
    path: str = ""
    incarnation: str = ""


@dataclass(frozen=True)
class TeamReconciliation:
    """What :meth:`TeamBudget.reconcile` did.

    Attributes
    ----------
    done : bool
        Whether the team's spending was set from the register's account (``False``: nothing changed, see ``note``).
    note : str
        What happened, in one sentence (also ``str()``).
    spent_before, spent : int or None
        The team's spending before and after (``None`` when it was not read).
    released : int
        Credits that were held by orphans (reservations of members that stopped mid-call) and no longer are.
    """

    done: bool
    note: str
    spent_before: int | None = None
    spent: int | None = None
    released: int = 0

    def __str__(self) -> str:
        return self.note


@dataclass
class KnownTeam:
    """What a handle remembers of its team: enough to know it again, and to re-establish it.

    Attributes
    ----------
    id, inc : str
        The team's random identity, and its incarnation (a new one each time it is re-established).
    limit : int or None
        The team's cap (``None``: no cap).
    used, reset, period
        The anchor: the account's ``used_credits``, ``period.reset_at`` and ``period.type`` when the team began
        (``used`` ``None``: never anchored).
    created : str
        When the team was created (ms on Redis' clock).
    gen : int
        The highest counter seen (Redis showing a lower one rolled back).
    """

    id: str
    inc: str
    limit: int | None
    used: int | None = None
    reset: str = ""
    period: str = ""
    created: str = ""
    gen: int = 0


@dataclass(frozen=True, eq=False)
class PendingCharge:
    """A settlement Redis did not take: recorded before the next reservation (compared by identity)."""

    rid: str
    charged: int
    call: str
    path: str
    inc: str


@dataclass(frozen=True)
class AccountReading:
    """The register's account at one moment: ``used_credits``, ``period.reset_at`` and ``period.type``."""

    used: int
    reset: str
    period: str


@dataclass(frozen=True)
class Refusal:
    """Why the team's budget does not cover a call: the numbers its :class:`BudgetExceededError` names."""

    remaining: int
    spent: int
    held: int
    limit: int | None
    orphaned: int = 0

    def error(self, team: str, needed: int, what: str, context: dict[str, Any]) -> BudgetExceededError:
        """The error for a call needing ``needed`` credits (``what``, with ``context``) in the budget of ``team``."""
        orphans = (
            f", {self.orphaned} of them by calls of members that stopped mid-call, until client.budget.reconcile() "
            "settles them with the register's account"
            if self.orphaned
            else ""
        )
        return BudgetExceededError(
            f"{what} needs up to {needed} credits but only {self.remaining} of the budget of team {team} "
            f"({self.limit}) are left ({self.spent} spent by the team, {self.held} held by calls in flight{orphans}); "
            "nothing was sent",
            needed=needed,
            remaining=self.remaining,
            suggestion="ask for less, or raise the team's budget for everyone (client.budget.set_limit(...)); "
            "client.budget.ledger() shows who spent what",
            **context,
        )


@dataclass(frozen=True)
class TeamState:
    """The reply of the STATE and RESERVE scripts.

    ``status``: 1 as known, 0 refused, 2 reconcile first, -1 gone, -2 another team, -3 rolled back.
    """

    status: int
    spent: int
    live: int
    orphaned: int
    limit: int | None
    calls: int
    gen: int
    unsure: int
    inc: str
    used: int | None
    reset: str
    period: str
    id: str
    created: str

    @classmethod
    def of(cls, reply: list[Any]) -> TeamState:
        """Read a script's reply (bytes or numbers, in the order of the fields)."""
        r = [x.decode() if isinstance(x, bytes) else x for x in reply]
        return cls(
            int(r[0]),
            int(r[1]),
            int(r[2]),
            int(r[3]),
            None if int(r[4]) < 0 else int(r[4]),
            int(r[5]),
            int(r[6]),
            int(r[7]),
            str(r[8]),
            None if r[9] == "" else int(r[9]),
            str(r[10]),
            str(r[11]),
            str(r[12]),
            str(r[13]),
        )

    @property
    def held(self) -> int:
        """Credits held by calls in flight and by orphans."""
        return self.live + self.orphaned


def account_moved(team: KnownTeam, account: AccountReading) -> str | None:
    """Why the account no longer continues the team's anchor (a new period), or ``None``."""
    assert team.used is not None
    if team.period and account.period and team.period != account.period:
        return f"the register's account changed its period ({team.period} to {account.period}) since the team began"
    if account.period == "billing_cycle" and team.reset and account.reset and team.reset != account.reset:
        return (
            f"the register's billing period changed since the team began (it reset at {team.reset}; now "
            f"{account.reset})"
        )
    if account.used < team.used:
        return (
            f"the register's account counts {account.used} credits used, fewer than the {team.used} when the "
            "team began (a new period)"
        )
    return None
