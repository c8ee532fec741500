"""The backend of one local register application: its world, its state file and the services its models use.

Every model function takes it as its first argument (``context``); the application keeps it in
``app.extensions[EXTENSION]``, and :attr:`regkit.local.register.LocalRegister.context` hands it out.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ..config import Config
from ..ratelimit import RateLimiter, WorkBound
from ..signing import UrlSigner
from ..vault import Vault
from .catalog import Catalog
from .clock import RegisterClock
from .state import StateDB
from .world_day import WorldDay

__all__ = ["RegisterContext", "EXTENSION"]

#: Where an application keeps its :class:`RegisterContext` (``app.extensions[EXTENSION]``).
EXTENSION = "regkit.local"


@dataclass
class RegisterContext:
    """The world, the state file and the services of one local register application."""

    catalog: Catalog
    state: StateDB
    config: Config
    signer: UrlSigner
    vault: Vault
    limiter: RateLimiter | None
    auth_throttle: RateLimiter | None = None
    work_bound: WorkBound | None = None
    #: The register's today (:mod:`regkit.local.models.clock`), kept in the state file.
    clock: RegisterClock = field(init=False)

    _day: WorldDay | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.clock = RegisterClock(self.state, self.catalog.meta)

    def now(self) -> float:
        """The register's current Unix time (the configured clock)."""
        return self.config.clock()

    def today(self) -> dt.date:
        """The register's today: the world's ``as_of`` until the register is advanced (an advance by another
        process on the same state file is seen within :data:`~regkit.local.models.clock.NOTICE_SECONDS`)."""
        return self.clock.today()

    def world_day(self) -> WorldDay:
        """The world as the register serves it today (:mod:`regkit.local.models.world_day`): past the world's
        ``as_of``, the records the continuation's events left."""
        day = self.today()
        current = self._day
        if current is None or current.day != day:
            current = self._day = WorldDay(self.catalog, day)
        return current
