"""The backend of one local register application: its world, its state file and the services its models use.

Every model function takes it as its first argument (``context``); the application keeps it in
``app.extensions[EXTENSION]``, and :attr:`regkit.local.register.LocalRegister.context` hands it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config
from ..ratelimit import RateLimiter, WorkBound
from ..signing import UrlSigner
from ..vault import Vault
from .catalog import Catalog
from .state import StateDB

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

    def now(self) -> float:
        """The register's current Unix time (the configured clock)."""
        return self.config.clock()
