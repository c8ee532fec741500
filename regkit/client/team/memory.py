"""What one handle of a team budget remembers: the team as it last saw it, the cap it last read, and the charges it
settled that Redis did not take yet — all under one lock, so that a restore replaces the team and releases its
pending charges in one step."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

from .model import KnownTeam, PendingCharge, TeamState

__all__ = ["LimitReading", "TeamMemory"]


@dataclass(frozen=True)
class LimitReading:
    """The team's cap as read at ``at`` (``time.monotonic()``)."""

    at: float
    limit: int | None


class TeamMemory:
    """What this handle remembers of its team, and its pending charges.

    Parameters
    ----------
    team : KnownTeam
        The team as this handle first found (or created) it in Redis.

    Attributes
    ----------
    limit_reading : LimitReading or None
        The cap as last read (``None``: to be read anew).
    """

    def __init__(self, team: KnownTeam) -> None:
        self._lock = threading.Lock()
        self._team = team
        self._pending: list[PendingCharge] = []
        self.limit_reading: LimitReading | None = LimitReading(time.monotonic(), team.limit)

    # -- the team ------------------------------------------------------------------------------------
    @property
    def team(self) -> KnownTeam:
        """The team as this handle knows it now (the object itself: :meth:`learn` updates it in place)."""
        return self._team

    def copy(self) -> KnownTeam:
        """A copy of the team as this handle knows it, read at one moment."""
        with self._lock:
            return replace(self._team)

    def remember_limit(self, limit: int | None) -> None:
        """Note the team's cap as read (or set) now."""
        self.limit_reading = LimitReading(time.monotonic(), limit)

    def set_limit(self, limit: int | None) -> None:
        """The team's cap is now ``limit``."""
        with self._lock:
            self._team.limit = limit

    def learn(self, state: TeamState) -> None:
        """Take what Redis says of the team this handle knows (ignored if this handle adopted another meanwhile)."""
        with self._lock:
            team = self._team
            if state.id != team.id:  # read before this handle adopted another identity
                return
            team.inc, team.limit, team.gen = state.inc, state.limit, max(team.gen, state.gen)
            team.used, team.reset, team.period = state.used, state.reset, state.period
            team.created = state.created or team.created
        self.remember_limit(state.limit)

    def adopt(self, state: TeamState) -> None:
        """Take the team in Redis (another identity) as this handle's."""
        with self._lock:
            self._team = KnownTeam(
                state.id, state.inc, state.limit, state.used, state.reset, state.period, state.created, state.gen
            )
        self.limit_reading = None

    def see_gen(self, gen: int) -> None:
        """Redis showed the team's counter at ``gen``."""
        with self._lock:
            self._team.gen = max(self._team.gen, gen)

    def anchor(self, used: int, reset: str, period: str) -> None:
        """Anchor the team at the account's ``used`` credits, if it was not anchored yet."""
        with self._lock:
            if self._team.used is None:
                self._team.used, self._team.reset, self._team.period = used, reset, period

    def restored(self, team: KnownTeam, released: list[PendingCharge]) -> None:
        """The team was re-established as ``team``; ``released`` (charges of 0) free its holds when recorded."""
        with self._lock:
            self._team = team
            self._pending[:0] = released
        self.limit_reading = None

    # -- pending charges -----------------------------------------------------------------------------
    @property
    def has_pending(self) -> bool:
        """Whether any charge of this handle is not yet recorded in Redis."""
        return bool(self._pending)

    @property
    def pending_credits(self) -> int:
        """Credits of the charges not yet recorded in Redis."""
        with self._lock:
            return sum(item.charged for item in self._pending)

    def add_pending(self, item: PendingCharge) -> None:
        """Keep ``item`` to be recorded later (after the others)."""
        with self._lock:
            self._pending.append(item)

    def is_pending(self, item: PendingCharge) -> bool:
        """Whether ``item`` itself is still pending."""
        with self._lock:
            return any(entry is item for entry in self._pending)

    def take_oldest_pending(self) -> PendingCharge | None:
        """Take the oldest pending charge to record it (``None``: none)."""
        with self._lock:
            return self._pending.pop(0) if self._pending else None

    def put_back_pending(self, item: PendingCharge) -> None:
        """Return ``item``, which could not be recorded, to the front."""
        with self._lock:
            self._pending.insert(0, item)

    def claim_pending(self) -> list[PendingCharge]:
        """Take every pending charge (a restore counts them in the account's total)."""
        with self._lock:
            claimed, self._pending = self._pending, []
        return claimed

    def unclaim_pending(self, claimed: list[PendingCharge]) -> None:
        """Return charges taken by :meth:`claim_pending` to the front."""
        with self._lock:
            self._pending[:0] = claimed
