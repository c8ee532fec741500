"""A team's keys and scripts on one Redis: the scripts run with the team's keys, and a Redis that does not answer
becomes a :class:`~regkit.errors.BudgetUnavailableError` that names the team and the URL without its password.

Keys (all under one Redis Cluster hash slot, ``{team}``): see :mod:`regkit.client.team`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from regkit.errors import BudgetUnavailableError, ValidationError

from ..cache.client_cache import connect_redis, redact_url
from .model import KnownTeam
from .scripts import BEAT, CLAIM, RECONCILE, RESERVE, RESTORE, SET_LIMIT, SETTLE, STATE

__all__ = ["KEYS", "TeamConnection"]

#: The team's keys, in the order the scripts take them as ``KEYS``.
KEYS = ("budget", "holds", "expiry", "orphans", "carried", "ledger")

_SCRIPTS = {
    "state": STATE,
    "reserve": RESERVE,
    "settle": SETTLE,
    "beat": BEAT,
    "claim": CLAIM,
    "set_limit": SET_LIMIT,
    "reconcile": RECONCILE,
    "restore": RESTORE,
}

T = TypeVar("T")


class TeamConnection:
    """The Redis of one team: its keys, its scripts, and what a failure says.

    Parameters
    ----------
    url : str
        The Redis URL (``redis://``, ``rediss://`` or ``unix://``), without ``#team``.
    team : str
        The team's name.

    Attributes
    ----------
    team : str
        The team's name.
    where : str
        The Redis URL without its password (for messages).

    Raises
    ------
    ValidationError
        Redis does not answer.
    ImportError
        The ``redis`` package is not installed.
    """

    def __init__(self, url: str, team: str) -> None:
        try:
            import redis  # noqa: F401
            from redis.backoff import ExponentialBackoff
            from redis.retry import Retry
        except ImportError as exc:
            raise ImportError(f"a team budget ({redact_url(url)}) needs the redis package: pip install redis") from exc
        self.team = team
        self.where = redact_url(url)
        self._connection = connect_redis(url, what=f"budget_scope (team {team})")
        # A Redis that went away is known within a fraction of a second (and a restarted one is reconnected to).
        self._connection.set_retry(Retry(ExponentialBackoff(cap=0.25, base=0.02), 2))
        prefix = f"regkit-team:{{{team}}}:"
        self._keys = {name: prefix + name for name in KEYS}
        self._key_list = [self._keys[name] for name in KEYS]
        self._scripts = {name: self._connection.register_script(source) for name, source in _SCRIPTS.items()}

    def run(self, script: str, keys: int, args: list[Any]) -> Any:
        """Run one of the team's scripts with its first ``keys`` keys (raises ``redis.RedisError``)."""
        return self._scripts[script](keys=self._key_list[:keys], args=args)

    def call(self, script: str, keys: int, args: list[Any]) -> Any:
        """:meth:`run`, a Redis error becoming a :class:`BudgetUnavailableError`."""
        return self.guarded(lambda: self.run(script, keys, args))

    def guarded(self, operation: Callable[[], T]) -> T:
        """Run ``operation`` on Redis; a Redis error becomes a :class:`BudgetUnavailableError` that names the team
        and the URL without its password."""
        import redis

        try:
            return operation()
        except redis.RedisError as exc:
            raise BudgetUnavailableError(
                f"the budget of team {self.team} in Redis ({self.where}) could not be read or written "
                f"({type(exc).__name__}); no paid call is sent until it answers",
                suggestion="check that Redis is running and reachable, then try again",
            ) from None

    def unsettled(self) -> BudgetUnavailableError:
        """The error when the team kept changing while it was re-established."""
        return BudgetUnavailableError(
            f"the budget of team {self.team} in Redis ({self.where}) kept changing while it was re-established; "
            "nothing was sent",
            suggestion="try again; if it persists, check which clients write the team's keys",
        )

    def claim(self, limit: int | None) -> KnownTeam:
        """Create the team if it does not exist, or learn it; set or check its cap.

        Raises
        ------
        ValidationError
            ``limit`` differs from the cap the team already has.
        BudgetUnavailableError
            Redis does not answer.
        """
        args = ["" if limit is None else limit, uuid.uuid4().hex, uuid.uuid4().hex]
        reply = self.call("claim", 1, args)
        _, tid, inc, stored, gen, used, reset, period, created = (
            x.decode() if isinstance(x, bytes) else x for x in reply
        )
        cap = None if int(stored) < 0 else int(stored)
        if limit is not None and cap != limit:
            raise ValidationError(
                f"budget={limit}, but the budget of team {self.team} in Redis ({self.where}) is {cap}",
                suggestion=f"pass budget={cap} or leave budget out to use the team's; to change the team's "
                f"budget for everyone call client.budget.set_limit({limit})",
            )
        return KnownTeam(
            str(tid), str(inc), cap, None if used == "" else int(used), str(reset), str(period), str(created), int(gen)
        )

    def stored_cap(self) -> tuple[str | None, int | None]:
        """The identity of the team in Redis (``None``: gone) and its cap (``None``: none); raises
        ``redis.RedisError``."""
        tid, value = self._connection.hmget(self._keys["budget"], "id", "limit")
        return (None if tid is None else tid.decode()), (None if value is None else int(value))

    def ledger_entries(self) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """The team ledger's entries, oldest first (raises :class:`BudgetUnavailableError`)."""
        entries: list[tuple[bytes, dict[bytes, bytes]]] = self.guarded(
            lambda: self._connection.xrange(self._keys["ledger"])
        )
        return entries
