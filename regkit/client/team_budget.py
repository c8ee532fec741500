"""A team's budget on Redis: one credit cap for every client of the team, in any process on any machine.

``Client(budget=300, budget_scope="redis://host:6379/0#team-a")`` makes the client's ``budget`` a
:class:`TeamBudget`: the interface of :class:`~regkit.client.budget.Budget` (the transport uses it unchanged),
with the state in Redis so that every client of ``team-a`` spends from one cap:

* **Atomic reservations.** Before a paid request is sent its price is reserved by a Lua script that, in one
  step, adds up the calls in flight and the team's settled spending, and either holds the price or refuses
  (:class:`~regkit.errors.BudgetExceededError`, nothing sent). Two processes that each want 300 credits
  under a 300-credit cap spend 300 together.
* **Settled with what was charged**, atomically with the team's spending, and appended to the team ledger (a
  Redis stream): :meth:`TeamBudget.ledger` says who spent what.
* **The register's account is the authoritative total.** One API key per team, spent only through regkit: the
  register's ``used_credits`` (``GET /v1/credits``, free) then counts exactly what the team spent. When the team
  begins, its first paid reservation anchors it: the account's ``used_credits`` (and ``period.reset_at``) at that
  moment are kept in Redis, and from then on the team's spending is ``used_now - anchor``. A client reads the
  account through the reader :class:`regkit.Client` binds (:meth:`TeamBudget.bind_account`).

**It fails closed.** No credit is spent that the cap has not seen:

* *Redis does not answer*: a paid call is not sent (:class:`~regkit.errors.BudgetUnavailableError` from
  :meth:`~TeamBudget.reserve`). Free calls go on.
* *Redis lost the team's data* (restarted without persistence, flushed, or rolled back to an older save): the
  team's hash is missing, holds another identity, or an older counter (``gen``) than a member has seen. It is never
  read as "no limit": a member that remembers the team re-establishes it before its next paid call — the same cap,
  and ``spent = used_now - anchor`` from the register's account (:meth:`TeamBudget.restore`; a
  :class:`~regkit.errors.BudgetWarning` says so, and the ledger gets a ``restore`` row of that total). When it
  cannot (no account reader, the register unreachable, a new billing period, a team never anchored) the error says
  why and what to do, e.g. ``restore(spent=N)``. A team created without a cap stays one: it is counted, never
  refused. The team's hash is written when the team is created, so "never had a cap" and "lost its data" differ.
* *Settling never loses a paid answer*: when Redis fails at that moment, :meth:`~TeamBudget.settle` issues a
  :class:`~regkit.errors.BudgetWarning`, keeps the charge pending in this handle and returns a short note;
  pending charges are recorded before this handle's next reservation (and by its background thread), and while
  any are pending and Redis still does not answer, paid calls are refused. Re-establishing the team from the
  account counts this handle's pending charges once (the account already has them).
* *A member killed mid-call*: each reservation lives :attr:`TeamBudget.hold` seconds (default 120), extended by
  the heartbeat of the process that holds it every third of that while the call runs. A reservation whose hold
  passed — its process stopped beating — is **not** freed: it becomes an *orphan*, still counted against the cap,
  since the register may have charged its call. Orphans are resolved by reconciling with the account
  (:meth:`TeamBudget.reconcile`, tried by a reservation that finds orphans, at most once a second per handle):
  read the team's counter ``gen`` and its live reservations (script 1), read the account, and — only if no
  reservation or settlement happened in between and no call is in flight (script 2) — set ``spent = used_now -
  anchor`` and drop the orphans.

  *The trade-off*: until a quiet moment lets the reconciliation run, an orphan's credits stay held even if its call
  was never charged — the team may be refused credits it still has, never granted credits it has not. A team
  that is never quiet (a reservation in flight at every moment) keeps its orphans held until the explicit
  :meth:`~TeamBudget.reconcile` finds such a moment. A reconciliation trusts that a dead member's request has been
  charged or dropped by the register once its hold passed (the register answers far sooner than ``hold``).
  Charges settled against a reservation from before a restore, or against an orphan a reconciliation already
  settled, may be in the account twice over: they are counted (the cap stays safe) and marked ``unsure``, and the
  next reconciliation, at a quiet moment, corrects the total.

What is not covered: a member that joins after Redis lost the team's data, while no member that remembers it runs,
begins the team anew (anchored at the account's total then). Run the team's Redis with persistence (AOF or RDB)
when members come and go.

Keys (all under one Redis Cluster hash slot, ``{team}``; nothing under ``regkit:*``, so ``regkit cache clear``
leaves them alone)::

    regkit-team:{team-a}:budget    hash: the team — id, incarnation, cap (absent: no cap), spent, gen, unsure,
                                   and its anchor (the account's used_credits, period.reset_at and period.type
                                   when the team began); written when the team is created
    regkit-team:{team-a}:holds     hash: reservation id -> credits held by a call in flight
    regkit-team:{team-a}:expiry    sorted set: reservation id -> when its hold ends (ms, Redis' clock)
    regkit-team:{team-a}:orphans   hash: reservation id -> credits of a call whose member stopped beating
    regkit-team:{team-a}:carried   set: reservations held again after a reconciliation settled them
    regkit-team:{team-a}:ledger    stream of settlements: who, call, path, credits, at

No API key, Redis password or request body is ever written there: reservation ids are random, the anchor holds
only numbers and a date, and the ledger holds the member's name, the client method, the request path and the
credits.

**The cap lives in Redis.** The first client that passes ``budget=N`` for a team sets the team's cap to ``N``;
a later client passing another ``N`` is refused (:class:`~regkit.errors.ValidationError`) until someone
changes the cap on purpose with :meth:`TeamBudget.set_limit`. A client without ``budget`` uses the team's cap if
it has one; a team without a cap counts and records spending but refuses nothing. Spending accumulates: for a
new period, use a new team name (``#team-a-2026-06``).
"""

from __future__ import annotations

import getpass
import logging
import os
import socket
import threading
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from regkit.errors import BudgetExceededError, BudgetUnavailableError, BudgetWarning, RegkitError, ValidationError

from .budget import Budget, Reservation
from .cache import connect_redis, redact_url
from .team_scripts import BEAT, CLAIM, RECONCILE, RESERVE, RESTORE, SET_LIMIT, SETTLE, STATE

if TYPE_CHECKING:  # pandas is imported when the ledger is asked for, not with the client
    import pandas as pd

__all__ = [
    "TeamBudget",
    "TeamReservation",
    "TeamReconciliation",
    "DEFAULT_HOLD_SECONDS",
    "LEDGER_LENGTH",
    "default_member",
]

logger = logging.getLogger(__name__)

#: Seconds a reservation lives without a heartbeat (then it is an orphan: still held until reconciled).
DEFAULT_HOLD_SECONDS = 120.0
#: About how many settlements the team ledger keeps (older ones are trimmed: ``XADD MAXLEN ~``).
LEDGER_LENGTH = 100_000
_LIMIT_REFRESH = 1.0  # seconds a read of the team's cap is reused (the reservation script always reads it anew)
_RECONCILE_AGAIN = 1.0  # seconds before a reservation tries again to reconcile, after the team was busy
_ACCOUNT_AGAIN = 30.0  # ... after the account could not be read or did not fit the anchor
_KEYS = ("budget", "holds", "expiry", "orphans", "carried", "ledger")  # the scripts' KEYS, in this order
_RESTORE_HINT = (
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
class _Team:
    """What this handle remembers of its team: enough to know it again, and to re-establish it."""

    id: str
    inc: str
    limit: int | None
    used: int | None = None  # the anchor: the account's used_credits when the team began
    reset: str = ""
    period: str = ""
    created: str = ""
    gen: int = 0  # the highest counter seen (Redis showing a lower one rolled back)


@dataclass(frozen=True, eq=False)
class _Pending:
    """A settlement Redis did not take: recorded before the next reservation."""

    rid: str
    charged: int
    call: str
    path: str
    inc: str


@dataclass(frozen=True)
class _Account:
    used: int
    reset: str
    period: str


@dataclass(frozen=True)
class _State:
    """The reply of the STATE and RESERVE scripts."""

    status: int  # 1 as known, 0 refused, 2 reconcile first, -1 gone, -2 another team, -3 rolled back
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
    def of(cls, reply: list[Any]) -> _State:
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


class TeamBudget(Budget):
    """Credits a team may still spend, shared through Redis by all its clients (see the module docstring).

    A :class:`~regkit.client.budget.Budget` whose state is the team's in Redis. Usually made by :class:`regkit.Client` from ``budget_scope``; ``client.budget`` is then this object.

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
        try:
            import redis  # noqa: F401
            from redis.backoff import ExponentialBackoff
            from redis.retry import Retry
        except ImportError as exc:
            raise ImportError(f"a team budget ({redact_url(url)}) needs the redis package: pip install redis") from exc
        self.team = team
        self.member = member or default_member()
        self.hold = hold
        self._where = redact_url(url)
        self._connection = connect_redis(url, what=f"budget_scope (team {team})")
        # A Redis that went away is known within a fraction of a second (and a restarted one is reconnected to).
        self._connection.set_retry(Retry(ExponentialBackoff(cap=0.25, base=0.02), 2))
        prefix = f"regkit-team:{{{team}}}:"
        self._keys = {name: prefix + name for name in _KEYS}
        self._key_list = [self._keys[name] for name in _KEYS]
        sources = {
            "state": STATE,
            "reserve": RESERVE,
            "settle": SETTLE,
            "beat": BEAT,
            "claim": CLAIM,
            "set_limit": SET_LIMIT,
            "reconcile": RECONCILE,
            "restore": RESTORE,
        }
        self._scripts = {name: self._connection.register_script(source) for name, source in sources.items()}
        self._lock = threading.Lock()  # what this handle remembers, and its pending charges
        self._beat_lock = threading.Lock()  # its calls in flight, against the heartbeat
        self._recover_lock = threading.RLock()  # one restore or reconciliation at a time
        self._local = threading.local()
        self._live: dict[str, int] = {}
        self._pending: list[_Pending] = []
        self._beating = False
        self._account: Callable[[], dict[str, Any]] | None = None
        self._next_reconcile = 0.0
        self._limit_read: tuple[float, int | None] | None = None
        self._team = self._claim(limit)

    def bind_account(self, read: Callable[[], dict[str, Any]]) -> None:
        """Give the budget a way to read the register's account (``GET /v1/credits`` as a dict: ``used_credits``,
        ``remaining_credits``, ``period``...): made by :class:`regkit.Client`, free and never cached.

        The budget reads it to anchor a new team, to re-establish a team whose Redis lost its data
        (:meth:`restore`) and to settle the reservations of members that stopped mid-call (:meth:`reconcile`).
        Without it those fail closed."""
        self._account = read

    # -- the cap -------------------------------------------------------------------------------------
    def _claim(self, limit: int | None) -> _Team:
        """Create the team if it does not exist, or learn it; set or check its cap."""
        args = ["" if limit is None else limit, uuid.uuid4().hex, uuid.uuid4().hex]
        reply = self._call("claim", 1, args)
        _, tid, inc, stored, gen, used, reset, period, created = (
            x.decode() if isinstance(x, bytes) else x for x in reply
        )
        cap = None if int(stored) < 0 else int(stored)
        if limit is not None and cap != limit:
            raise ValidationError(
                f"budget={limit}, but the budget of team {self.team} in Redis ({self._where}) is {cap}",
                suggestion=f"pass budget={cap} or leave budget out to use the team's; to change the team's "
                f"budget for everyone call client.budget.set_limit({limit})",
            )
        self._limit_read = (time.monotonic(), cap)
        return _Team(
            str(tid), str(inc), cap, None if used == "" else int(used), str(reset), str(period), str(created), int(gen)
        )

    @property
    def limit(self) -> int | None:
        """The team's cap in Redis (``None``: no cap), re-read at most once a second; every reservation checks the
        cap stored at that moment. Assigning it sets the team's cap for everyone (:meth:`set_limit`).

        When Redis does not answer or lost the team's data, this is the cap this handle last knew — never ``None``
        for a team that had one (its next reservation then stops, or re-establishes the team)."""
        import redis

        read = self._limit_read
        if read is not None and time.monotonic() - read[0] < _LIMIT_REFRESH:
            return read[1]
        try:
            tid, value = self._connection.hmget(self._keys["budget"], "id", "limit")
        except redis.RedisError:
            limit = self._team.limit
        else:
            if tid is not None and tid.decode() == self._team.id:
                limit = None if value is None else int(value)
                with self._lock:
                    self._team.limit = limit
            else:  # gone or replaced: the cap this handle knows
                limit = self._team.limit
        self._limit_read = (time.monotonic(), limit)
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
            args = [self._team.id, "" if limit is None else limit]
            if int(self._call("set_limit", 1, args)) == 1:
                break
            self._recover()
        else:
            raise self._unsettled()
        with self._lock:
            self._team.limit = limit
        self._limit_read = (time.monotonic(), limit)
        logger.info("team %s: budget set to %s by %s", self.team, "no limit" if limit is None else limit, self.member)

    # -- what is left --------------------------------------------------------------------------------
    def _state(self, *, recover: bool = True) -> _State:
        """The team in Redis, read in one step; with ``recover``, a team that Redis lost is re-established first."""
        for _ in range(3):
            team = self._team
            state = _State.of(self._call("state", 4, [team.id, team.gen]))
            if state.status == 1:
                self._learn(state)
                return state
            if not recover:
                return state
            self._recover()
        raise self._unsettled()

    def _read_state(self) -> tuple[int, int, int | None]:
        state = self._state()
        return state.spent, state.live + state.orphaned, state.limit

    def snapshot(self) -> tuple[int, int, int | None]:
        """``(spent, held, limit)`` of the whole team, read from Redis in one step, so they agree (``held``
        includes orphans)."""
        return self._read_state()

    @property
    def spent(self) -> int:
        """Credits the whole team has settled so far (charged, or possibly charged)."""
        return self._state().spent

    @property
    def held(self) -> int:
        """Credits held right now by calls in flight in every process of the team, and by orphans (calls of
        members that stopped mid-call, until :meth:`reconcile` settles them)."""
        state = self._state()
        return state.live + state.orphaned

    @property
    def orphaned(self) -> int:
        """Credits held by orphans: reservations whose member stopped beating mid-call (part of :attr:`held`)."""
        return self._state().orphaned

    @property
    def pending(self) -> int:
        """Credits this handle settled while Redis did not take them, not yet recorded in the team's budget."""
        with self._lock:
            return sum(item.charged for item in self._pending)

    @property
    def remaining(self) -> int | None:
        """Credits left to the team after settled and reserved spending (``None`` without a cap)."""
        spent, held, limit = self._read_state()
        return None if limit is None else limit - spent - held

    def check(self, needed: int, *, what: str = "this call", **context: object) -> None:
        """Raise :class:`BudgetExceededError` if ``needed`` credits would cross the team's cap now."""
        remaining = self.remaining
        if remaining is not None and needed > remaining:
            raise self.exceeded(needed, what=what, **context)

    def exceeded(self, needed: int, *, what: str = "this call", **context: object) -> BudgetExceededError:
        """The error for a call needing ``needed`` credits that the team's budget does not cover."""
        state = self._state()
        held = state.live + state.orphaned
        remaining = 0 if state.limit is None else max(0, state.limit - state.spent - held)
        return self._exceeded(needed, what, remaining, state.spent, held, state.limit, context, state.orphaned)

    def _exceeded(
        self,
        needed: int,
        what: str,
        remaining: int,
        spent: int,
        held: int,
        limit: int | None,
        context: dict[str, Any],
        orphaned: int = 0,
    ) -> BudgetExceededError:
        orphans = (
            f", {orphaned} of them by calls of members that stopped mid-call, until client.budget.reconcile() "
            "settles them with the register's account"
            if orphaned
            else ""
        )
        return BudgetExceededError(
            f"{what} needs up to {needed} credits but only {remaining} of the budget of team {self.team} ({limit}) are "
            f"left ({spent} spent by the team, {held} held by calls in flight{orphans}); nothing was sent",
            needed=needed,
            remaining=remaining,
            suggestion="ask for less, or raise the team's budget for everyone (client.budget.set_limit(...)); "
            "client.budget.ledger() shows who spent what",
            **context,
        )

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
        reservation, refused = self._try(credits, what, context)
        if reservation is None:
            assert refused is not None
            remaining, spent, held, limit, orphaned = refused
            raise self._exceeded(credits, what, remaining, spent, held, limit, context, orphaned)
        return reservation

    def try_reserve(self, credits: int) -> TeamReservation | None:
        """Hold ``credits`` for one attempt, or return ``None`` if they would cross the team's cap (and raise
        :class:`BudgetUnavailableError` as :meth:`reserve` does)."""
        return self._try(credits, "", {})[0]

    def _try(
        self, credits: int, what: str, context: dict[str, Any]
    ) -> tuple[TeamReservation | None, tuple[int, int, int, int, int] | None]:
        call, path = what.split(" (", 1)[0], str(context.get("path") or "")
        if credits <= 0:  # a free attempt (or a team without a cap): never refused
            if not getattr(self._local, "recovering", False):
                self._quietly(path)
            return TeamReservation(0, None, call, path, self._team.inc), None
        self._record_pending()
        want = self._account is not None and time.monotonic() >= self._next_reconcile
        hold_ms = int(self.hold * 1000)
        for _ in range(4):
            rid, team = uuid.uuid4().hex, self._team
            args = [team.id, team.gen, rid, credits, hold_ms, int(want)]
            state = _State.of(self._call("reserve", 4, args))
            if state.status in (0, 1, 2):
                self._learn(state)
            if state.status == 1:
                with self._beat_lock:
                    self._live[rid] = credits
                self._ensure_heartbeat()
                return TeamReservation(credits, rid, call, path, state.inc), None
            if state.status == 0:
                limit = state.limit or 0
                held = state.live + state.orphaned
                return None, (max(0, limit - state.spent - held), state.spent, held, limit, state.orphaned)
            if state.status == 2:  # orphans, unsure credits or no anchor, and nothing in flight: reconcile first
                want = False
                self._auto_reconcile()
                continue
            self._recover()
        raise self._unsettled()

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
        import redis

        rid = getattr(reservation, "id", None)
        if rid is not None:
            with self._beat_lock:
                self._live.pop(rid, None)
        if rid is None and not charged:
            return None
        item = _Pending(
            rid or "",
            int(charged),
            getattr(reservation, "call", ""),
            getattr(reservation, "path", ""),
            getattr(reservation, "incarnation", "") or self._team.inc,
        )
        try:
            reply = self._settle_one(item)
        except redis.RedisError as exc:
            return self._left_pending(
                item, f"Redis ({self._where}) does not answer ({type(exc).__name__})", "Redis unreachable"
            )
        if int(reply[0]) == 1:
            self._seen_gen(int(reply[3]))
            return None
        # Redis answers without the team's data: re-established from the account, which has counted this charge.
        with self._lock:
            self._pending.append(item)
        if self._account is not None and not getattr(self._local, "recovering", False):
            try:
                self._recover()
                self._flush()
            except Exception as exc:  # noqa: BLE001 — a settlement never raises: the charge stays pending
                logger.info("team %s: not re-established at settlement (%s)", self.team, type(exc).__name__)
        with self._lock:
            if not any(entry is item for entry in self._pending):
                return None  # recorded: in the re-established total
        return self._left_pending(
            item, f"Redis ({self._where}) lost the team's data", "Redis lost the team's data", queued=True
        )

    def _settle_one(self, item: _Pending) -> Any:
        args = [item.rid, item.charged, self.member, item.call, item.path, LEDGER_LENGTH, item.inc]
        return self._run("settle", 6, args)

    def _left_pending(self, item: _Pending, detail: str, short: str, *, queued: bool = False) -> str:
        if not queued:
            with self._lock:
                self._pending.append(item)
        total = self.pending
        self._ensure_heartbeat()  # records the pending charges in the background too
        if item.charged:
            until = "" if self._team.limit is None else ", and paid calls are refused until then"
            warnings.warn(
                f"team {self.team}: the team's budget was not updated: {detail}; {item.charged} credits charged for "
                f"{item.call or 'a call'} are pending ({total} in all). The answer was returned and is in this "
                f"client's ledger; the charge is recorded in the team's budget when Redis answers again{until}",
                BudgetWarning,
                stacklevel=3,
            )
        logger.warning("team %s: %d credits pending (%s)", self.team, total, short)
        return f"team budget not updated: {short}; {total} credits pending"

    def _flush(self) -> bool:
        """Record the pending charges in Redis, oldest first: ``True`` when none is left, ``False`` when the team is
        gone from Redis (they stay pending). Raises ``redis.RedisError`` (the charge stays pending)."""
        while True:
            with self._lock:
                if not self._pending:
                    return True
                item = self._pending.pop(0)
            try:
                reply = self._settle_one(item)
            except BaseException:
                with self._lock:
                    self._pending.insert(0, item)
                raise
            if int(reply[0]) != 1:
                with self._lock:
                    self._pending.insert(0, item)
                return False
            self._seen_gen(int(reply[3]))
            if item.charged:
                logger.info("team %s: %d pending credits recorded", self.team, item.charged)

    def _quietly(self, path: str) -> None:
        """Before a free attempt (or any attempt of a team without a cap), without ever refusing it: record the
        pending charges if Redis takes them, and anchor a team that is not yet anchored (not before a read of the
        account itself: that is the read the anchor is made with)."""
        import redis

        if self._pending:
            try:
                self._flush()
            except redis.RedisError:
                pass
        if (
            self._team.used is None
            and self._account is not None
            and path != "/v1/credits"
            and time.monotonic() >= self._next_reconcile
        ):
            self._auto_reconcile()

    def _record_pending(self) -> None:
        """Before a reservation: record this handle's pending charges, or raise :class:`BudgetUnavailableError`."""
        import redis

        for _ in range(3):
            if not self._pending:
                return
            try:
                if self._flush():
                    return
            except redis.RedisError as exc:
                raise BudgetUnavailableError(
                    f"{self.pending} credits this client was charged are not yet recorded in the budget of team "
                    f"{self.team}, and Redis ({self._where}) does not answer ({type(exc).__name__}); nothing was sent",
                    suggestion="start or reconnect the team's Redis: the pending charges are recorded, and paid "
                    "calls go on, as soon as it answers",
                ) from None
            self._recover()
        raise self._unsettled()

    # -- the heartbeat -------------------------------------------------------------------------------
    def _ensure_heartbeat(self) -> None:
        with self._beat_lock:
            if self._beating:
                return
            self._beating = True
        threading.Thread(target=self._heartbeat, name=f"regkit-team-{self.team}", daemon=True).start()

    def _heartbeat(self) -> None:
        """Every ``hold / 3`` seconds: extend this process's live reservations (holding again any that expired or
        were lost) and record its pending charges; end when there are neither."""
        while True:
            time.sleep(max(0.05, self.hold / 3))
            with self._beat_lock:  # a settlement waits for the beat, so that it never holds a settled reservation
                live = dict(self._live)
                if not live and not self._pending:
                    self._beating = False
                    return
                if live:
                    self._beat(live)
            if self._pending:
                try:
                    self._flush()
                except Exception:  # noqa: BLE001 — tried again at the next beat and before the next reservation
                    pass

    def _beat(self, live: dict[str, int]) -> None:
        args: list[Any] = [int(self.hold * 1000)]
        for rid, credits in live.items():
            args += [rid, credits]
        try:
            alive, again = (int(x) for x in self._run("beat", 5, args))
        except Exception as exc:  # noqa: BLE001 — a missed beat is logged; the next one tries again
            logger.warning(
                "team %s: heartbeat failed (%s); reservations become orphans after %.0f s without one",
                self.team,
                type(exc).__name__,
                self.hold,
            )
            return
        if alive < 0:
            logger.warning(
                "team %s: the team's data is gone from Redis; %d call(s) of this process in flight are "
                "held again once it is re-established",
                self.team,
                len(live),
            )
        elif again:
            logger.warning(
                "team %s: %d reservation(s) of this process had expired or were lost and are held again (hold=%.0f s)",
                self.team,
                again,
                self.hold,
            )

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
        if spent is not None and (not isinstance(spent, int) or isinstance(spent, bool) or spent < 0):
            raise ValidationError(
                f"spent must be a whole number of credits (>= 0), not {spent!r}",
                suggestion="e.g. client.budget.restore(spent=1200)",
            )
        with self._recover_lock:
            team = self._team
            state = _State.of(self._call("state", 4, [team.id, team.gen]))
            if state.status == 1:
                self._learn(state)
                return f"team {self.team}: its data is in Redis; nothing to restore"
            return self._restore(spent)

    def _recover(self) -> None:
        """The team in Redis is gone, another or rolled back: re-establish it, or adopt the one there; raise
        :class:`BudgetUnavailableError` if that cannot be done."""
        with self._recover_lock:
            team = self._team
            state = _State.of(self._call("state", 4, [team.id, team.gen]))
            if state.status == 1:  # another thread of this handle did it meanwhile
                self._learn(state)
                return
            if state.status == -2 and self._team.used is None and (state.limit is not None or self._team.limit is None):
                self._adopt(state)  # this handle knows no more than the team in Redis, which is as strict
                return
            self._restore(None)

    def _restore(self, spent: int | None) -> str:
        with self._lock:
            team = replace(self._team)
        if spent is None and self._account is None:
            raise self._cannot(
                "this TeamBudget has no reader of the register's account to re-establish the team's spending from",
                "use a regkit.Client(budget_scope=...), which binds one, or "
                "client.budget.bind_account(reader); " + _RESTORE_HINT,
            )
        if spent is None and team.used is None:
            raise self._cannot(
                "the team was never anchored to the register's account (its first paid call could not read it)",
                _RESTORE_HINT,
            )
        claimed = self._claim_pending()  # charged before the account is read below: the account counts them
        self._local.recovering = True
        try:
            account = None if self._account is None else self._read_account()
            if spent is None:
                assert account is not None and team.used is not None
                moved = _moved(team, account)
                if moved:
                    raise self._cannot(moved, "use a new team name for the new period, or " + _RESTORE_HINT)
                anchor: int | None = team.used
                restored, reset, period = account.used - team.used, team.reset, team.period
            else:
                anchor = None if account is None else account.used - spent
                restored = spent
                reset, period = (account.reset, account.period) if account is not None else ("", "")
            inc = uuid.uuid4().hex
            with self._beat_lock:
                live = dict(self._live)
            args: list[Any] = [
                team.id,
                inc,
                "" if team.limit is None else team.limit,
                "" if anchor is None else anchor,
                reset,
                period,
                restored,
                self.member,
                LEDGER_LENGTH,
                team.gen,
                team.created,
                int(self.hold * 1000),
            ]
            for rid, credits in live.items():
                args += [rid, credits]
            code, gen = (int(x) for x in self._call("restore", 6, args))
        except BaseException:
            self._unclaim(claimed)
            raise
        finally:
            self._local.recovering = False
        if code == 1:
            with self._lock:
                self._team = _Team(team.id, inc, team.limit, anchor, reset, period, team.created, gen)
                # their charges are in the restored total; their holds, if Redis still has them, are released
                self._pending[:0] = [_Pending(p.rid, 0, p.call, p.path, p.inc) for p in claimed if p.rid]
            self._limit_read = None
            how = (
                f"the register's account ({account.used} credits used now, {anchor} when the team began)"
                if spent is None and account is not None
                else "the spending given"
            )
            note = (
                f"team {self.team}: re-established in Redis after it lost or rolled back the team's data: "
                f"{restored} credits spent, from {how}; cap {team.limit if team.limit is not None else 'none'}; "
                "the team's ledger before the loss is gone (a 'restore' row holds the total)"
            )
            logger.warning(note)
            warnings.warn(note, BudgetWarning, stacklevel=4)
            return note
        self._unclaim(claimed)  # recorded by the next reservation, marked unsure: another member's account read
        state = _State.of(self._call("state", 4, [team.id, team.gen]))
        if state.status == -2 and state.id:
            self._adopt(state)
            return f"team {self.team}: another member re-established the team (or began it first); this budget uses it"
        if state.status == 1:
            self._learn(state)
        return f"team {self.team}: its data is in Redis; nothing to restore"

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
        with self._recover_lock:
            return self._reconcile(auto=False)[0]

    def _auto_reconcile(self) -> None:
        with self._recover_lock:
            if time.monotonic() < self._next_reconcile:
                return  # another thread of this handle just tried
            try:
                _, again = self._reconcile(auto=True)
            except RegkitError:  # Redis does not answer: the reservation says so, a free attempt goes on
                again = _RECONCILE_AGAIN
            self._next_reconcile = time.monotonic() + again

    def _reconcile(self, *, auto: bool) -> tuple[TeamReconciliation, float]:
        """The reconciliation and, when it was not done, how long a reservation waits before trying again."""
        state = self._state(recover=not auto)
        if state.status != 1:
            return TeamReconciliation(False, f"team {self.team}: the team's data is gone from Redis"), 0.0
        if auto and state.used is not None and not state.orphaned and not state.unsure:
            return TeamReconciliation(False, f"team {self.team}: nothing to reconcile", state.spent, state.spent), 0.0
        if self._account is None:
            return TeamReconciliation(
                False,
                f"team {self.team}: no reader of the register's account is bound (client.budget.bind_account)",
                state.spent,
                state.spent,
            ), 3600.0
        if state.calls:
            orphans = f"; its orphans stay held ({state.orphaned} credits)" if state.orphaned else ""
            return TeamReconciliation(
                False,
                f"team {self.team}: {state.calls} call(s) in flight; reconciled when none is{orphans}",
                state.spent,
                state.spent,
            ), _RECONCILE_AGAIN
        try:
            account = self._read_account()
        except BudgetUnavailableError as exc:
            return TeamReconciliation(False, exc.message, state.spent, state.spent), _ACCOUNT_AGAIN
        if state.used is not None:
            moved = _moved(self._team, account)
            if moved:
                return TeamReconciliation(False, f"team {self.team}: {moved}", state.spent, state.spent), _ACCOUNT_AGAIN
        args = [state.id, state.gen, state.inc, account.used, account.reset, account.period, self.member, LEDGER_LENGTH]
        reply = [int(x) for x in self._call("reconcile", 6, args)]
        if reply[0] != 1:
            return TeamReconciliation(
                False, f"team {self.team}: a call started or settled meanwhile; try again", state.spent, state.spent
            ), _RECONCILE_AGAIN
        _, before, after, released, anchor = reply
        with self._lock:
            if self._team.used is None:
                self._team.used, self._team.reset, self._team.period = anchor, account.reset, account.period
        if state.used is None:
            note = (
                f"team {self.team}: anchored to the register's account ({account.used} credits used now; "
                f"{after} spent by the team)"
            )
        else:
            note = (
                f"team {self.team}: reconciled with the register's account ({account.used} credits used now, "
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
            warnings.warn(note, BudgetWarning, stacklevel=4)
        return TeamReconciliation(True, note, before, after, released), 0.0

    def _read_account(self) -> _Account:
        read = self._account
        assert read is not None
        try:
            raw = read()
        except Exception as exc:  # noqa: BLE001 — whatever the reader raises, the budget fails closed
            detail = f": {exc.message}" if isinstance(exc, RegkitError) else ""
            raise BudgetUnavailableError(
                f"the register's account (GET /v1/credits), from which the budget of team {self.team} is "
                f"re-established and reconciled, could not be read ({type(exc).__name__}{detail})",
                suggestion="check that the register is reachable and the API key valid; the next paid call tries "
                "again (or call client.budget.restore())",
            ) from None
        try:
            period = raw.get("period") or {}
            return _Account(int(raw["used_credits"]), str(period.get("reset_at") or ""), str(period.get("type") or ""))
        except (AttributeError, KeyError, TypeError, ValueError):
            raise BudgetUnavailableError(
                f"the register's account has no used_credits to re-establish or reconcile the budget of team "
                f"{self.team} from",
                suggestion=_RESTORE_HINT,
            ) from None

    def _claim_pending(self) -> list[_Pending]:
        with self._lock:
            claimed, self._pending = self._pending, []
        return claimed

    def _unclaim(self, claimed: list[_Pending]) -> None:
        with self._lock:
            self._pending[:0] = claimed

    def _learn(self, state: _State) -> None:
        with self._lock:
            team = self._team
            if state.id != team.id:  # read before this handle adopted another identity
                return
            team.inc, team.limit, team.gen = state.inc, state.limit, max(team.gen, state.gen)
            team.used, team.reset, team.period = state.used, state.reset, state.period
            team.created = state.created or team.created
        self._limit_read = (time.monotonic(), state.limit)

    def _adopt(self, state: _State) -> None:
        """Take the team in Redis (another identity) as this handle's."""
        with self._lock:
            self._team = _Team(
                state.id, state.inc, state.limit, state.used, state.reset, state.period, state.created, state.gen
            )
        self._limit_read = None
        logger.info("team %s: this budget uses the team as it is in Redis now", self.team)

    def _seen_gen(self, gen: int) -> None:
        with self._lock:
            self._team.gen = max(self._team.gen, gen)

    def _cannot(self, reason: str, suggestion: str) -> BudgetUnavailableError:
        return BudgetUnavailableError(
            f"the budget of team {self.team} is gone from Redis ({self._where}) — restarted without its data, "
            f"flushed, or rolled back to an older save — and cannot be re-established: {reason}; nothing was sent",
            suggestion=suggestion,
        )

    def _unsettled(self) -> BudgetUnavailableError:
        return BudgetUnavailableError(
            f"the budget of team {self.team} in Redis ({self._where}) kept changing while it was re-established; "
            "nothing was sent",
            suggestion="try again; if it persists, check which clients write the team's keys",
        )

    # -- the ledger ----------------------------------------------------------------------------------
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

        entries = self._redis(lambda: self._connection.xrange(self._keys["ledger"]))
        rows = [
            {
                "who": fields[b"who"].decode(),
                "call": fields[b"call"].decode(),
                "path": fields[b"path"].decode(),
                "credits": int(fields[b"credits"]),
                "at": datetime.fromtimestamp(int(fields[b"at"]) / 1000, timezone.utc),
            }
            for _, fields in entries
        ]
        frame = pd.DataFrame.from_records(rows, columns=["who", "call", "path", "credits", "at"])
        frame = frame.astype(
            {"who": "str", "call": "str", "path": "str", "credits": "int64", "at": "datetime64[us, UTC]"}
        )
        frame.attrs["team"] = self.team
        frame.attrs["credits_spent"] = self.spent
        return frame

    # -- Redis ---------------------------------------------------------------------------------------
    def _run(self, script: str, keys: int, args: list[Any]) -> Any:
        """Run one of the team's scripts with its first ``keys`` keys (raises ``redis.RedisError``)."""
        return self._scripts[script](keys=self._key_list[:keys], args=args)

    def _call(self, script: str, keys: int, args: list[Any]) -> Any:
        """:meth:`_run`, a Redis error becoming a :class:`BudgetUnavailableError`."""
        return self._redis(lambda: self._run(script, keys, args))

    def _redis(self, operation: Any) -> Any:
        """Run ``operation`` on Redis; a Redis error becomes a :class:`BudgetUnavailableError` that names the team
        and the URL without its password."""
        import redis

        try:
            return operation()
        except redis.RedisError as exc:
            raise BudgetUnavailableError(
                f"the budget of team {self.team} in Redis ({self._where}) could not be read or written "
                f"({type(exc).__name__}); no paid call is sent until it answers",
                suggestion="check that Redis is running and reachable, then try again",
            ) from None

    def describe(self) -> str:
        """``team-a: 120 of 300 left`` (``team-a: 80 spent, no limit`` without a cap); never raises."""
        try:
            state = self._state(recover=False)
        except RegkitError:
            text = f"{self.team}: Redis unreachable"
        else:
            if state.status != 1:
                text = f"{self.team}: the team's data is gone from Redis (restore needed)"
            elif state.limit is None:
                text = f"{self.team}: {state.spent} spent, no limit"
            else:
                text = f"{self.team}: {state.limit - state.spent - state.live - state.orphaned} of {state.limit} left"
        pending = self.pending
        return f"{text}, {pending} credits pending" if pending else text

    def __repr__(self) -> str:
        return f"<TeamBudget {self.team} at {self._where}: {self.describe().split(': ', 1)[1]}>"

    def _repr_html_(self) -> str | None:
        """The summary Jupyter shows (``None``, the repr, when Redis does not answer or lost the team's data: a
        display never re-establishes anything)."""
        from .batch_html import budget_html

        try:
            state = self._state(recover=False)
        except RegkitError:
            return None
        if state.status != 1:
            return None
        return budget_html(state.limit, state.spent, state.live + state.orphaned, self.team)


def _moved(team: _Team, account: _Account) -> str | None:
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
