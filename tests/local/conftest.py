"""Fixtures for the local register's tests.

Integration tests talk to the register through ``requests`` only: in-process through
:class:`~regkit.local.adapter.LocalRegisterAdapter`, or over loopback through
:class:`~regkit.local.server.LocalServer`. Every response they receive is checked against the OpenAPI
description by a response hook (``tests/openapi_check.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from local_support import Clock, RegisterSession, WorldIds, session_for  # noqa: E402

from regkit.local.adapter import LOCAL_ORIGIN  # noqa: E402
from regkit.local.catalog import load_catalog  # noqa: E402
from regkit.local.register import LocalRegister, open_local_register  # noqa: E402
from regkit.local.server import LocalServer  # noqa: E402

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
def make_register(tmp_path: Path, clock: Clock) -> Iterator[Callable[..., LocalRegister]]:
    """Factory for in-process registers on the bundled world with a fresh state file in ``tmp_path``.

    Keyword arguments go to :func:`open_local_register` (``extract_delay``, ``rate_limit``, ``faults``, ...).
    Defaults: the test's :func:`clock`, no rate limit, a 5 s extract delay, the key file in its own
    directory. Call it again with the same ``state_path`` to simulate a restart.
    """
    opened: list[LocalRegister] = []

    def make(**kwargs: object) -> LocalRegister:
        options = {"state_path": tmp_path / "state" / "register.sqlite", "key_path": tmp_path / "keys" / "local.key",
                   "clock": clock, "rate_limit": None, "extract_delay": 5.0, "realtime_latency": 0.0, **kwargs}
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


class Served:
    """One ``regkit serve`` subprocess on a free loopback port, with its own state file, key and log file.

    Attributes: ``url`` (from the banner), ``log_file`` (its ``--log-file``), ``out`` / ``err`` (files its
    stdout and stderr go to), ``state_path``.
    """

    def __init__(self, directory: Path, *options: str, timeout: float = 60.0):
        import os
        import re
        import subprocess
        import time

        import requests
        from cryptography.fernet import Fernet

        directory.mkdir(parents=True, exist_ok=True)
        self.state_path, self.log_file = directory / "state.sqlite", directory / "serve.log"
        self.out, self.err = directory / "serve.out", directory / "serve.err"
        environment = {**os.environ, "REGKIT_LOCAL_SECRET_KEY": Fernet.generate_key().decode()}
        environment.pop("REGKIT_LOCAL_STATE", None)
        command = [sys.executable, "-m", "regkit.cli", "serve", "--host", "127.0.0.1", "--port", "0",
                   "--state", str(self.state_path), "--log-file", str(self.log_file), *options]
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, env=environment)
        deadline, self.url = time.monotonic() + timeout, None
        try:
            while True:  # bounded: the deadline, or the process ending
                match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.out.read_text())
                if match:
                    try:
                        if requests.get(f"{match.group(1)}/v1/openapi.json", timeout=5).status_code == 200:
                            self.url = match.group(1)
                            break
                    except requests.exceptions.ConnectionError:
                        pass
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"regkit serve did not come up:\n{self.out.read_text()}\n{self.err.read_text()}")
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Terminate the process (kill it if it does not end within 10 s)."""
        import subprocess

        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def everything_written(self) -> str:
        """Its stdout, stderr and log file together (to search for what must never be written)."""
        return "\n".join(p.read_text(errors="replace") for p in (self.out, self.err, self.log_file) if p.exists())


@pytest.fixture
def regkit_serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Factory ``regkit_serve(*options)``: a real ``regkit serve`` subprocess (stopped after the test)."""
    started: list[Served] = []

    def start(*options: str) -> Served:
        served = Served(tmp_path / f"serve-{len(started)}", *options)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()
