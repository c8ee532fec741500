"""The in-process local register as one object: its application, and sessions mounted on it."""

from __future__ import annotations

import os
from typing import Any

import requests
from flask import Flask

from regkit.local.world.store import World

from .adapter import LOCAL_ORIGIN, LocalRegisterAdapter
from .app import create_app
from .config import Config
from .faults import Faults
from .models.backend import EXTENSION, RegisterContext

__all__ = ["LocalRegister", "open_local_register"]


class LocalRegister:
    """A local register application with an in-process adapter.

    Parameters
    ----------
    app : flask.Flask
        An application from :func:`regkit.local.app.create_app`.
    """

    #: Where the in-process register answers.
    base_url = LOCAL_ORIGIN

    def __init__(self, app: Flask):
        self.app = app
        self.adapter = LocalRegisterAdapter(app)

    @property
    def context(self) -> RegisterContext:
        """The world, state file and services of the application."""
        return self.app.extensions[EXTENSION]

    @property
    def api_keys(self) -> list[str]:
        """The API keys the world's users hold (``demo-paid``, ``demo-free``, ``demo-empty``)."""
        return list(self.context.catalog.users)

    @property
    def default_api_key(self) -> str:
        """The demo key for the embedded default: a paid plan with monitoring and the most credits."""
        catalog = self.context.catalog

        def rank(key: str) -> tuple[bool, bool, int]:
            user = catalog.users[key]
            plan_name = user.get("plan")
            plan = {} if plan_name is None else catalog.plans.get(plan_name, {})
            return bool(plan.get("paid")), bool(plan.get("monitoring")), int(user.get("included_credits", 0))

        return max(catalog.users, key=rank)

    def mount(self, session: requests.Session) -> requests.Session:
        """Route ``session``'s requests to :data:`LOCAL_ORIGIN` into this register; returns the session."""
        session.mount(f"{LOCAL_ORIGIN}/", self.adapter)
        return session

    def session(self, api_key: str | None = None) -> requests.Session:
        """A new :class:`requests.Session` mounted on this register, sending ``api_key`` as bearer token."""
        session = self.mount(requests.Session())
        if api_key is not None:
            session.headers["Authorization"] = f"Bearer {api_key}"
        return session

    def close(self) -> None:
        """Close the state file's connections."""
        self.context.state.close()

    def __enter__(self) -> LocalRegister:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<LocalRegister at {LOCAL_ORIGIN}, state {self.context.state.path}>"


def open_local_register(
    data_dir: str | os.PathLike[str] | None = None,
    state_path: str | os.PathLike[str] | None = None,
    *,
    world: World | None = None,
    faults: Faults | None = None,
    **config: Any,
) -> LocalRegister:
    """Create an in-process local register.

    Parameters
    ----------
    data_dir, state_path, world, faults
        As for :func:`regkit.local.app.create_app`.
    **config
        Fields of :class:`~regkit.local.config.Config` (``rate_limit``, ``extract_delay``, ...).

    Examples
    --------
    >>> register = open_local_register(state_path="/tmp/state.sqlite", extract_delay=0)  # doctest: +SKIP
    >>> session = register.session(register.default_api_key)                              # doctest: +SKIP
    >>> session.get(f"{register.base_url}/v1/credits").json()["remaining_credits"]        # doctest: +SKIP
    100000
    """
    app = create_app(world, data_dir=data_dir, state_path=state_path, config=Config(**config), faults=faults)
    return LocalRegister(app)
