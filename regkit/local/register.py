"""The in-process local register as one object: its application, and sessions mounted on it."""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import requests

from regkit.local.world.store import World

from .adapter import LOCAL_ORIGIN, LocalRegisterAdapter
from .config import Config
from .context import open_context
from .delivery import WebhookSender
from .faults import Faults
from .models.backend import EXTENSION, RegisterContext
from .models.monitor_checks import advance_register
from .models.webhooks import deliveries, set_endpoint

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["DeferredApplication", "LocalRegister", "open_local_register"]


class DeferredApplication:
    """The register's WSGI application, built (Flask imported, routes added) when it serves its first request.

    Opening an in-process register — what ``regkit.Client()`` does — then costs the backend alone (catalog and
    state file), and a client that never sends a request never imports Flask. ``extensions`` holds the context
    under the key Flask's ``app.extensions`` holds it, so the adapter's users read it the same way before and after.

    Parameters
    ----------
    context : RegisterContext
        The opened backend (:func:`regkit.local.context.open_context`).
    faults : Faults, optional
        Faults to inject in front of the application.
    """

    def __init__(self, context: RegisterContext, faults: Faults | None = None):
        self.extensions: dict[str, Any] = {EXTENSION: context}
        self._faults = faults
        self._app: Flask | None = None
        self._lock = threading.Lock()

    @property
    def app(self) -> Flask:
        """The Flask application, built on first use."""
        if self._app is None:
            with self._lock:
                if self._app is None:
                    from .app import create_app

                    self._app = create_app(context=self.extensions[EXTENSION], faults=self._faults)
        return self._app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return self.app(environ, start_response)


class LocalRegister:
    """A local register application with an in-process adapter.

    Parameters
    ----------
    app : flask.Flask or DeferredApplication
        An application from :func:`regkit.local.app.create_app`, or one built on its first request.
    """

    #: Where the in-process register answers.
    base_url = LOCAL_ORIGIN

    def __init__(self, app: Flask | DeferredApplication):
        self._application = app
        self.adapter = LocalRegisterAdapter(app)
        self._sender: WebhookSender | None = None

    @property
    def app(self) -> Flask:
        """The Flask application (built now if it has not served a request yet)."""
        application = self._application
        return application.app if isinstance(application, DeferredApplication) else application

    @property
    def context(self) -> RegisterContext:
        """The world, state file and services of the application."""
        return self._application.extensions[EXTENSION]

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

    @property
    def today(self) -> dt.date:
        """The register's today: the world's ``as_of`` until it is advanced (kept in the state file)."""
        return self.context.today()

    def advance(self, days: int) -> dt.date:
        """Move the register's today ``days`` days forward (at least 1; it never moves back); return the new today.

        The same as ``regkit local advance --days N`` on the register's state file: each day's register events, the
        due monitors' checks and charges; the events are posted to their keys' webhook endpoints once before this
        returns (retries follow on the register's sender thread). An imported world does not
        live on: advancing it raises :class:`~regkit.local.exceptions.OperatorError` (a ``ValueError``), as does
        a ``days`` that is not a whole number of at least 1.
        """
        context = self.context
        day = advance_register(context.clock, context.catalog, days, context.now())
        self.start_webhooks()
        assert self._sender is not None
        self._sender.deliver_due()  # each event's first try before this returns; retries on the sender's thread
        return day

    def set_webhook(self, api_key: str, url: str) -> str:
        """Send ``api_key``'s monitor events to ``url`` (``regkit local webhook set``); return the endpoint's new
        ``whsec_`` secret. Raises :class:`~regkit.local.exceptions.OperatorError` for an unknown key or a URL
        that may not receive webhooks (``http://`` only to loopback and private hosts)."""
        context = self.context
        secret = set_endpoint(context.state, context.catalog, api_key, url, context.now())
        self.start_webhooks()
        return secret

    def deliveries(self, api_key: str) -> list[dict[str, Any]]:
        """``api_key``'s webhook messages, oldest first (``regkit local webhook deliveries``): ``webhook_id``,
        ``event_id``, ``entity_id``, ``status``, ``tries``, ``last_error``."""
        return deliveries(self.context.state, self.context.catalog, api_key)

    def start_webhooks(self) -> None:
        """Start delivering this state file's webhook messages in a daemon thread (advancing or setting an
        endpoint starts it)."""
        if self._sender is None:
            config = self.context.config
            self._sender = WebhookSender(self.context.state, config.webhook_retry_delays, config.clock)
            self._sender.start()

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
        """Stop delivering webhooks and close the state file's connections."""
        if self._sender is not None:
            self._sender.stop()
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
    context = open_context(world, data_dir=data_dir, state_path=state_path, config=Config(**config))
    return LocalRegister(DeferredApplication(context, faults))
