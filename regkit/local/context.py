"""The local register's backend, opened: its world's catalog, its state file, the URL signer, the vault and the
rate limiters — everything a request needs except the web application, which :func:`regkit.local.app.create_app`
builds around it.

Kept apart from the application so that opening a register (and finding out at once that its state file cannot be
used) does not import Flask: the in-process register of ``regkit.Client()`` builds its application on the first
request it serves.
"""

from __future__ import annotations

import logging
import os

from regkit.local.world.store import World

from .config import Config, default_state_path
from .models.backend import RegisterContext
from .models.catalog import load_catalog
from .models.state import StateDB
from .ratelimit import RateLimiter, WorkBound
from .signing import UrlSigner
from .vault import Vault

__all__ = ["open_context"]

logger = logging.getLogger("regkit.local.app")


def open_context(
    world: World | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    state_path: str | os.PathLike[str] | None = None,
    config: Config | None = None,
) -> RegisterContext:
    """Open a register's backend: the world's catalog, the state file, the signer, vault and rate limiters.

    Parameters
    ----------
    world : World, optional
        The world to serve; default: opened from ``data_dir`` (its store, built on first use).
    data_dir : str or Path, optional
        A world directory; default the bundled ``data/`` (``REGKIT_DATA_DIR`` overrides).
    state_path : str or Path, optional
        The SQLite state file; default ``REGKIT_LOCAL_STATE`` or ``<user data dir>/local-register.sqlite``.
    config : Config, optional
        Rate limit, extract delay, secret key, clock, ...

    Returns
    -------
    RegisterContext
        What :func:`regkit.local.app.create_app` serves.
    """
    config = config or Config()
    catalog = load_catalog(world, data_dir)
    state = StateDB(state_path if state_path is not None else default_state_path())
    logger.info(
        "Local register ready: %d companies, %d proceedings, state %s",
        len(catalog.world.companies),
        len(catalog.world.insolvencies),
        state.path,
    )
    return RegisterContext(
        catalog=catalog,
        state=state,
        config=config,
        signer=UrlSigner(bytes.fromhex(state.meta("signing_secret") or ""), ttl=config.url_ttl, clock=config.clock),
        vault=Vault(state.path, config.secret_key, config.key_path),
        limiter=RateLimiter(config.rate_limit, config.rate_burst) if config.rate_limit else None,
        auth_throttle=(
            RateLimiter(config.auth_failure_limit / config.auth_failure_window, config.auth_failure_limit)
            if config.auth_failure_limit
            else None
        ),
        work_bound=WorkBound(config.key_concurrency, config.key_work, config.total_work)
        if config.key_concurrency or config.key_work or config.total_work
        else None,
    )
