"""Fixtures for the local register's tests.

Integration tests talk to the register through ``requests`` only: in-process through
:class:`~regkit.local.adapter.LocalRegisterAdapter`, or over loopback through
:class:`~regkit.local.server.LocalServer`. Every response they receive is checked against the OpenAPI
description by a response hook (``tests/openapi_check.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from local_support import Clock, RegisterSession, WorldIds, session_for
from serve_support import ServedRegister

from regkit.local.adapter import LOCAL_ORIGIN
from regkit.local.models.catalog import load_catalog
from regkit.local.register import LocalRegister, open_local_register
from regkit.local.server import LocalServer


@pytest.fixture(scope="session")
def catalog():
    """The bundled world with its lookups, read once for the whole session (read-only: do not mutate)."""
    return load_catalog()


@pytest.fixture(scope="session")
def ids(catalog) -> WorldIds:
    """Ids of the bundled world with a given role (unique Transparenzregister match, pending change, ...)."""
    return WorldIds(catalog)


@pytest.fixture
def clock() -> Clock:
    """A controllable clock; pass it to a register to move time (extract delays, URL expiry, quotas)."""
    return Clock()


@pytest.fixture
def make_register(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., LocalRegister]]:
    """Factory for in-process registers on the bundled world with a fresh state file in ``tmp_path``.

    Keyword arguments go to :func:`open_local_register` (``extract_delay``, ``rate_limit``, ``faults``, ...).
    Defaults: the test's :func:`clock`, no rate limit, a 5 s extract delay, the key file in its own
    directory (``REGKIT_LOCAL_SECRET_KEY``, which the suite's isolation sets, is cleared so that the key file
    is what these registers use). Call it again with the same ``state_path`` to simulate a restart.
    """
    monkeypatch.delenv("REGKIT_LOCAL_SECRET_KEY", raising=False)
    opened: list[LocalRegister] = []

    def make(**kwargs: object) -> LocalRegister:
        options = {
            "state_path": tmp_path / "state" / "register.sqlite",
            "key_path": tmp_path / "keys" / "local.key",
            "clock": clock,
            "rate_limit": None,
            "extract_delay": 5.0,
            "realtime_latency": 0.0,
            **kwargs,
        }
        register = open_local_register(**options)
        opened.append(register)
        return register

    yield make
    for register in opened:
        register.close()


@pytest.fixture
def register(make_register: Callable[..., LocalRegister]) -> LocalRegister:
    """An in-process register with default test settings (see :func:`make_register`)."""
    return make_register()


@pytest.fixture
def api(register: LocalRegister) -> Callable[..., RegisterSession]:
    """Factory ``api(key="demo-paid", conform=True)``: a session on :func:`register` sending ``key`` as bearer token.

    Relative URLs (``/v1/...``) go to the register.

    With ``conform`` every response is validated against the OpenAPI description; pass ``conform=False``
    only for requests outside the interface (unknown routes, wrong methods). ``key=None`` sends no token.
    """
    return session_factory(register)


def session_factory(register: LocalRegister, base_url: str = LOCAL_ORIGIN) -> Callable[..., RegisterSession]:
    """Build an ``api``-style factory for ``register`` (in-process) or a server at ``base_url``."""

    def make(key: str | None = "demo-paid", conform: bool = True) -> RegisterSession:
        return session_for(register, key, base_url=base_url, conform=conform)

    return make


@pytest.fixture
def server(register: LocalRegister) -> Iterator[LocalServer]:
    """:func:`register`'s application served over loopback on a free port (stopped after the test)."""
    with LocalServer(register.app) as running:
        yield running


@pytest.fixture
def remote(server: LocalServer, register: LocalRegister) -> Callable[..., RegisterSession]:
    """Like :func:`api`, but the sessions go over real HTTP to :func:`server`."""
    return session_factory(register, server.url)


@pytest.fixture
def regkit_serve(tmp_path: Path) -> Iterator[Callable[..., ServedRegister]]:
    """Factory ``regkit_serve(*options)``: a real ``regkit serve`` subprocess (stopped after the test), with its
    own state file, key and log file (:class:`serve_support.ServedRegister`)."""
    started: list[ServedRegister] = []

    def start(*options: str) -> ServedRegister:
        served = ServedRegister(tmp_path / f"serve-{len(started)}", *options)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()
