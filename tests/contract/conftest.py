"""Fixtures of the contract test: ``regkit serve`` as a real subprocess, and the official client pointed at it.

The live service's official Python client (``openregister-sdk``, ``openregister.Openregister``) is the judge of
what the live service answers. These fixtures run the local register the way a user runs it — the ``regkit``
console script on a free loopback port with a throw-away state file and its own encryption key — and hand out
clients that validate every response strictly (``_strict_response_validation=True``) and never retry
(``max_retries=0``: the client would otherwise retry 409 and 429 and hide them).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

import httpx
import openregister
import pytest
from cryptography.fernet import Fernet

from regkit.local.world import read_world

#: Environment variables the official client reads at construction; cleared so that no user setting leaks in.
SDK_ENVIRONMENT = ("OPENREGISTER_API_KEY", "OPENREGISTER_BASE_URL", "OPENREGISTER_CUSTOM_HEADERS")
_BANNER = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")


def regkit_command() -> list[str]:
    """The ``regkit`` console script installed beside this Python (``python -m regkit.cli`` without one)."""
    for name in ("regkit", "regkit.exe"):
        script = Path(sys.executable).with_name(name)
        if script.is_file():
            return [str(script)]
    return [sys.executable, "-m", "regkit.cli"]


class ServedRegister:
    """One ``regkit serve`` process on loopback.

    Parameters
    ----------
    directory : Path
        Where its state file, key and output logs go (a test's temporary directory).
    options : str
        Extra ``regkit serve`` options, e.g. ``"--rate-limit", "1"``.
    timeout : float
        Seconds to wait for it to answer before giving up.
    """

    def __init__(self, directory: Path, *options: str, timeout: float = 60.0):
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.state_path = directory / "state.sqlite"
        self._stdout = (directory / "serve.out").open("w")
        self._stderr = (directory / "serve.err").open("w")
        environment = {k: v for k, v in os.environ.items() if k not in ("REGKIT_LOCAL_STATE", *SDK_ENVIRONMENT)}
        environment["REGKIT_LOCAL_SECRET_KEY"] = Fernet.generate_key().decode()  # no key file in the user's dirs
        command = [*regkit_command(), "serve", "--host", "127.0.0.1", "--port", "0", "--state", str(self.state_path),
                   *options]
        self.process = subprocess.Popen(command, stdout=self._stdout, stderr=self._stderr, env=environment)
        self._clients: list[openregister.Openregister] = []
        try:
            self.url = self._wait(timeout)
        except BaseException:
            self.stop()
            raise

    def _output(self) -> tuple[str, str]:
        return ((self.directory / "serve.out").read_text(errors="replace"),
                (self.directory / "serve.err").read_text(errors="replace"))

    def _wait(self, timeout: float) -> str:
        """Read the port from the banner, then wait until the server answers."""
        deadline = time.monotonic() + timeout
        url = None
        while True:
            if url is None:
                match = _BANNER.search(self._output()[0])
                url = match.group(1) if match else None
            if url is not None:
                try:
                    if httpx.get(f"{url}/v1/openapi.json", timeout=5).status_code == 200:
                        return url
                except httpx.TransportError:
                    pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                out, err = self._output()
                raise RuntimeError(f"regkit serve did not come up (exit {self.process.poll()}):\n{out}\n{err}")
            time.sleep(0.05)

    def client(self, api_key: str = "demo-paid") -> openregister.Openregister:
        """The official client on this server, validating strictly and never retrying (closed with the server)."""
        client = openregister.Openregister(api_key=api_key, base_url=self.url, _strict_response_validation=True,
                                           max_retries=0, timeout=60)
        self._clients.append(client)
        return client

    def stop(self) -> None:
        """Close the clients, stop the process (terminate, then kill) and close its logs."""
        for client in self._clients:
            client.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._stdout.close()
        self._stderr.close()


@pytest.fixture(scope="session")
def world():
    """The bundled world ``regkit serve`` serves, read once: to choose ids and to compare answers with."""
    return read_world()


@pytest.fixture(scope="module")
def register(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedRegister]:
    """A ``regkit serve`` shared by a test module: rate limit off (so every proceeding can be fetched), extracts
    finish after 300 ms. Tests on it use ``demo-paid`` unless they test a plan, and leave state (credentials,
    monitors) under names no other test uses; use :func:`start_register` for a register of your own."""
    served = ServedRegister(tmp_path_factory.mktemp("register"), "--rate-limit", "0", "--extract-delay", "300ms")
    yield served
    served.stop()


@pytest.fixture
def start_register(tmp_path: Path) -> Iterator[Callable[..., ServedRegister]]:
    """Factory ``start_register(*options)``: a fresh ``regkit serve`` (own state) for this test only.

    Use it when a test needs a clean state (the 11th credential set, the extract quota) or other options
    (``"--rate-limit", "1"``). Default options: ``--extract-delay 300ms``, the server's default rate limit.
    """
    started: list[ServedRegister] = []

    def start(*options: str) -> ServedRegister:
        served = ServedRegister(tmp_path / f"register-{len(started)}", "--extract-delay", "300ms", *options)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()
