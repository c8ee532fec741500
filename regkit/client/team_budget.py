"""A team's budget on Redis: one credit cap for every client of the team, in any process on any machine.

``Client(budget=300, budget_scope="redis://host:6379/0#team-a")`` makes the client's ``budget`` a
:class:`TeamBudget`: the interface of :class:`~regkit.client.budget.Budget` (the transport uses it unchanged),
with the state in Redis so that every client of ``team-a`` spends from one cap:

* **Atomic reservations.** Before a paid request is sent its price is reserved by a Lua script that, in one
  step, drops expired reservations, adds up the live ones and the team's settled spending, and either holds
  the price or refuses (:class:`~regkit.client.errors.BudgetExceededError`, nothing sent). Two processes that
  each want 300 credits under a 300-credit cap spend 300 together.
* **Crash-safe.** A reservation lives :attr:`TeamBudget.hold` seconds (default 120); a heartbeat thread of the
  process that holds it extends it every third of that while the call runs. A process that dies mid-call stops
  beating, and its credits are free again once the hold passes.
* **Settled with what was charged**, atomically with the team's spending, and appended to the team ledger (a
  Redis stream): :meth:`TeamBudget.ledger` says who spent what.

Keys (all under one Redis Cluster hash slot, ``{team}``; nothing under ``regkit:*``, so ``regkit cache clear``
leaves them alone)::

    regkit-team:{team-a}:limit     the team's cap (absent: no cap)
    regkit-team:{team-a}:spent     credits settled so far
    regkit-team:{team-a}:holds     hash: reservation id -> credits held
    regkit-team:{team-a}:expiry    sorted set: reservation id -> when it expires (ms, Redis' clock)
    regkit-team:{team-a}:ledger    stream of settlements: who, call, path, credits, at

No API key, Redis password or request body is ever written there: reservation ids are random, and the ledger
holds the member's name, the client method, the request path and the credits.

**The cap lives in Redis.** The first client that passes ``budget=N`` for a team sets the team's cap to ``N``;
a later client passing another ``N`` is refused (:class:`~regkit.client.errors.ValidationError`) until someone
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
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from .budget import Budget, Reservation
from .cache import connect_redis, redact_url
from .errors import BudgetExceededError, TransportError, ValidationError
from .team_scripts import BEAT, CLAIM, RESERVE, SETTLE, STATE

if TYPE_CHECKING:  # pandas is imported when the ledger is asked for, not with the client
    import pandas as pd

__all__ = ["TeamBudget", "TeamReservation", "DEFAULT_HOLD_SECONDS", "LEDGER_LENGTH", "default_member"]

logger = logging.getLogger(__name__)

#: Seconds a reservation lives without a heartbeat (a crashed process's credits are free again after it).
DEFAULT_HOLD_SECONDS = 120.0
#: About how many settlements the team ledger keeps (older ones are trimmed: ``XADD MAXLEN ~``).
LEDGER_LENGTH = 100_000
_LIMIT_REFRESH = 1.0  # seconds a read of the team's cap is reused (the reservation script always reads it anew)


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
    """

    id: str | None = None
    call: str = ""
    path: str = ""


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
        team's cap, if it has one (else spending is counted and recorded, never refused).
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
        seconds while its call runs). After a crash, its credits are free again at the latest ``hold`` seconds
        after the last beat. Settable (e.g. short in tests); a call must never pause longer than ``hold``
        between beats, which a live process's heartbeat thread guarantees.

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

    def __init__(self, url: str, team: str, limit: int | None = None, *, member: str | None = None,
                 hold: float = DEFAULT_HOLD_SECONDS) -> None:  # fmt: skip
        try:
            import redis  # noqa: F401
        except ImportError as exc:
            raise ImportError(f"a team budget ({redact_url(url)}) needs the redis package: pip install redis") from exc
        self.team = team
        self.member = member or default_member()
        self.hold = hold
        self._where = redact_url(url)
        self._connection = connect_redis(url, what=f"budget_scope (team {team})")
        prefix = f"regkit-team:{{{team}}}:"
        self._keys = {name: prefix + name for name in ("limit", "spent", "holds", "expiry", "ledger")}
        self._reserve = self._connection.register_script(RESERVE)
        self._state = self._connection.register_script(STATE)
        self._settle = self._connection.register_script(SETTLE)
        self._beat = self._connection.register_script(BEAT)
        self._lock = threading.Lock()
        self._live: dict[str, None] = {}
        self._beating = False
        self._limit_read: tuple[float, int | None] | None = None
        if limit is not None:
            self._claim(limit)

    def bind_account(self, read: Any) -> None:
        """Give the budget a way to read the register's account (``GET /v1/credits`` as a dict: ``used_credits``,
        ``remaining_credits``, ``period``...): made by :class:`regkit.Client`, free and never cached."""
        self._account = read

    # -- the cap -------------------------------------------------------------------------------------
    def _claim(self, limit: int) -> None:
        stored = int(
            self._redis(lambda: self._connection.register_script(CLAIM)(keys=[self._keys["limit"]], args=[limit]))
        )
        if stored != limit:
            raise ValidationError(
                f"budget={limit}, but the budget of team {self.team} in Redis ({self._where}) is {stored}",
                suggestion=f"pass budget={stored} or leave budget out to use the team's; to change the team's "
                           f"budget for everyone call client.budget.set_limit({limit})",
            )  # fmt: skip
        self._limit_read = (time.monotonic(), limit)

    @property
    def limit(self) -> int | None:
        """The team's cap in Redis (``None``: no cap), re-read at most once a second; every reservation checks the
        cap stored at that moment. Assigning it sets the team's cap for everyone (:meth:`set_limit`)."""
        read = self._limit_read
        if read is not None and time.monotonic() - read[0] < _LIMIT_REFRESH:
            return read[1]
        value = self._redis(lambda: self._connection.get(self._keys["limit"]))
        limit = None if value is None else int(value)
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
        """
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise ValidationError(f"limit must be a whole number of credits (>= 0) or None, not {limit!r}",
                                  suggestion="e.g. client.budget.set_limit(5000)")  # fmt: skip
        key = self._keys["limit"]
        self._redis(lambda: self._connection.delete(key) if limit is None else self._connection.set(key, limit))
        self._limit_read = (time.monotonic(), limit)
        logger.info("team %s: budget set to %s by %s", self.team, "no limit" if limit is None else limit, self.member)

    # -- what is left --------------------------------------------------------------------------------
    def _read_state(self) -> tuple[int, int, int | None]:
        spent, held, limit = self._redis(lambda: self._state(keys=self._state_keys()))
        limit = None if int(limit) < 0 else int(limit)
        self._limit_read = (time.monotonic(), limit)
        return int(spent), int(held), limit

    def _state_keys(self) -> list[str]:
        return [self._keys[name] for name in ("limit", "spent", "holds", "expiry")]

    def snapshot(self) -> tuple[int, int, int | None]:
        """``(spent, held, limit)`` of the whole team, read from Redis in one step, so they agree."""
        return self._read_state()

    @property
    def spent(self) -> int:
        """Credits the whole team has settled so far (charged, or possibly charged)."""
        value = self._redis(lambda: self._connection.get(self._keys["spent"]))
        return int(value or 0)

    @property
    def held(self) -> int:
        """Credits held right now by calls in flight, in every process of the team."""
        return self._read_state()[1]

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
        spent, held, limit = self._read_state()
        remaining = 0 if limit is None else max(0, limit - spent - held)
        return self._exceeded(needed, what, remaining, spent, held, limit, context)

    def _exceeded(self, needed: int, what: str, remaining: int, spent: int, held: int, limit: int | None,
                  context: dict[str, Any]) -> BudgetExceededError:  # fmt: skip
        return BudgetExceededError(
            f"{what} needs up to {needed} credits but only {remaining} of the budget of team {self.team} ({limit}) are "
            f"left ({spent} spent by the team, {held} held by calls in flight); nothing was sent",
            needed=needed,
            remaining=remaining,
            suggestion="ask for less, or raise the team's budget for everyone (client.budget.set_limit(...)); "
                       "client.budget.ledger() shows who spent what",
            **context,
        )  # fmt: skip

    # -- reserve and settle --------------------------------------------------------------------------
    def reserve(self, credits: int, *, what: str = "this call", **context: object) -> TeamReservation:
        """Hold ``credits`` in the team's budget for one attempt, or raise :class:`BudgetExceededError`."""
        reservation, refused = self._try(credits, what, context)
        if reservation is None:
            assert refused is not None
            raise self._exceeded(credits, what, *refused, context)
        return reservation

    def try_reserve(self, credits: int) -> TeamReservation | None:
        """Hold ``credits`` for one attempt, or return ``None`` if they would cross the team's cap."""
        return self._try(credits, "", {})[0]

    def _try(self, credits: int, what: str, context: dict[str, Any]
             ) -> tuple[TeamReservation | None, tuple[int, int, int, int] | None]:  # fmt: skip
        call, path = what.split(" (", 1)[0], str(context.get("path") or "")
        if credits <= 0:
            return TeamReservation(0, None, call, path), None  # nothing to hold (a free attempt, or no cap)
        rid = uuid.uuid4().hex
        held, spent, holding, limit = self._redis(
            lambda: self._reserve(keys=self._state_keys(), args=[rid, credits, int(self.hold * 1000)])
        )
        if not int(held):
            limit = int(limit)
            return None, (max(0, limit - int(spent) - int(holding)), int(spent), int(holding), limit)
        with self._lock:
            self._live[rid] = None
            if not self._beating:
                self._beating = True
                threading.Thread(target=self._heartbeat, name=f"regkit-team-{self.team}", daemon=True).start()
        return TeamReservation(credits, rid, call, path), None

    def settle(self, reservation: Reservation, charged: int) -> None:
        """Release ``reservation`` and add ``charged`` credits to the team's spending (and, if any, to the team
        ledger), in one step."""
        rid = getattr(reservation, "id", None)
        if rid is not None:
            with self._lock:
                self._live.pop(rid, None)
        if rid is None and not charged:
            return
        args = [rid or "", charged, self.member, getattr(reservation, "call", ""), getattr(reservation, "path", ""),
                LEDGER_LENGTH]  # fmt: skip
        keys = [self._keys[name] for name in ("spent", "holds", "expiry", "ledger")]
        self._redis(lambda: self._settle(keys=keys, args=args), charged=charged)

    def _heartbeat(self) -> None:
        """Extend this process's live reservations every ``hold / 3`` seconds; end when none is left."""
        while True:
            time.sleep(max(0.05, self.hold / 3))
            with self._lock:
                ids = list(self._live)
                if not ids:
                    self._beating = False
                    return
            try:
                alive = self._beat(keys=[self._keys["holds"], self._keys["expiry"]], args=[int(self.hold * 1000), *ids])
            except Exception as exc:  # noqa: BLE001 — a missed beat is logged; the next one tries again
                logger.warning("team %s: heartbeat failed (%s); reservations expire after %.0f s without one",
                               self.team, type(exc).__name__, self.hold)  # fmt: skip
                continue
            if int(alive) < len(ids):
                logger.warning("team %s: %d reservation(s) of this process expired before their call ended "
                               "(hold=%.0f s); the team's cap may be crossed by them", self.team,
                               len(ids) - int(alive), self.hold)  # fmt: skip

    # -- the ledger ----------------------------------------------------------------------------------
    def ledger(self) -> pd.DataFrame:
        """The team's settlements that charged credits, oldest first (about the last :data:`LEDGER_LENGTH`).

        Returns
        -------
        pandas.DataFrame
            Columns and dtypes:

            =======  ===================  ===================================================================
            who      str                  the member (``Client(budget_member=...)``, default ``user@host pid N``)
            call     str                  client method (``get_company``, ...)
            path     str                  request path with query, e.g. ``/v1/company/ID?realtime=true``
            credits  int64                credits charged (or possibly charged: an attempt without an answer)
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
        frame = frame.astype({"who": "str", "call": "str", "path": "str", "credits": "int64",
                              "at": "datetime64[us, UTC]"})  # fmt: skip
        frame.attrs["team"] = self.team
        frame.attrs["credits_spent"] = self.spent
        return frame

    # -- Redis ---------------------------------------------------------------------------------------
    def _redis(self, operation: Any, charged: int = 0) -> Any:
        """Run ``operation`` on Redis; a Redis error becomes a :class:`TransportError` that names the team and
        the URL without its password."""
        import redis

        try:
            return operation()
        except redis.RedisError as exc:
            after = (f"; the call was sent and charged {charged} credits that the team's spending does not show"
                     if charged else "; nothing was sent")  # fmt: skip
            raise TransportError(
                f"the budget of team {self.team} in Redis ({self._where}) could not be read or written "
                f"({type(exc).__name__}){after}",
                suggestion="check that Redis is running and reachable, then try again",
            ) from None

    def describe(self) -> str:
        """``team-a: 120 of 300 left`` (``team-a: 80 spent, no limit`` without a cap); never raises."""
        try:
            spent, held, limit = self._read_state()
        except TransportError:
            return f"{self.team}: Redis unreachable"
        if limit is None:
            return f"{self.team}: {spent} spent, no limit"
        return f"{self.team}: {limit - spent - held} of {limit} left"

    def __repr__(self) -> str:
        return f"<TeamBudget {self.team} at {self._where}: {self.describe().split(': ', 1)[1]}>"
