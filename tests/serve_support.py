"""``regkit serve`` as a real subprocess, for the tests that need the register the way a user runs it.

One definition for ``tests/local`` (``regkit_serve``) and ``tests/contract`` (``register``,
``start_register``): :class:`ServedRegister` runs the ``regkit`` console script (``python -m regkit.cli``
without one) on a free loopback port with its own state file, log file and a fresh credentials key, reads the
port from its banner, waits until it answers, and stops it (terminate, then kill); :func:`served_register` is
the same as a context manager. Import it as ``from serve_support import ...`` after putting ``tests/`` on
``sys.path`` (as ``tests/local/conftest.py`` does).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests
from cryptography.fernet import Fernet

__all__ = ["ServedRegister", "served_register", "regkit_command", "stop_process"]

_BANNER = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")


def regkit_command() -> list[str]:
    """The ``regkit`` console script installed beside this Python (``python -m regkit.cli`` without one)."""
    for name in ("regkit", "regkit.exe"):
        script = Path(sys.executable).with_name(name)
        if script.is_file():
            return [str(script)]
    return [sys.executable, "-m", "regkit.cli"]


def _environment() -> dict[str, str]:
    """The process environment for the server: no state file or official-client setting from the caller's
    shell, and its own credentials key (so no key file is written to the user's directories)."""
    environment = {
        k: v for k, v in os.environ.items() if k != "REGKIT_LOCAL_STATE" and not k.startswith("OPENREGISTER_")
    }
    environment["REGKIT_LOCAL_SECRET_KEY"] = Fernet.generate_key().decode()
    return environment


class ServedRegister:
    """One ``regkit serve`` process on a free loopback port.

    Parameters
    ----------
    directory : Path
        Where its state file, log file and captured output go (a test's temporary directory).
    options : str
        Extra ``regkit serve`` options, e.g. ``"--rate-limit", "1"``.
    timeout : float
        Seconds to wait for it to answer before giving up (:class:`RuntimeError`, with its output).

    Attributes
    ----------
    url : str
        ``http://127.0.0.1:<port>``, from the banner.
    state_path, log_file, out, err : Path
        Its ``--state``, its ``--log-file``, and the files its stdout and stderr go to.
    process : subprocess.Popen
        The running process.
    """

    def __init__(self, directory: Path, *options: str, timeout: float = 60.0):
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.state_path, self.log_file = directory / "state.sqlite", directory / "serve.log"
        self.out, self.err = directory / "serve.out", directory / "serve.err"
        self._clients: list[Any] = []
        command = [
            *regkit_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--state",
            str(self.state_path),
            "--log-file",
            str(self.log_file),
            *options,
        ]
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, env=_environment())
        try:
            self.url = self._wait(timeout)
        except BaseException:
            self.stop()
            raise

    def output(self) -> tuple[str, str]:
        """What it has written to stdout and stderr so far."""
        return self.out.read_text(errors="replace"), self.err.read_text(errors="replace")

    def _wait(self, timeout: float) -> str:
        """Read the port from the banner, then wait until the server answers (bounded by ``timeout`` and by the
        process ending)."""
        deadline = time.monotonic() + timeout
        url = None
        while True:
            if url is None:
                match = _BANNER.search(self.output()[0])
                url = match.group(1) if match else None
            if url is not None:
                try:
                    if requests.get(f"{url}/v1/openapi.json", timeout=5).status_code == 200:
                        return url
                except requests.exceptions.RequestException:
                    pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                out, err = self.output()
                raise RuntimeError(f"regkit serve did not come up (exit {self.process.poll()}):\n{out}\n{err}")
            time.sleep(0.05)

    def client(self, api_key: str = "demo-paid") -> Any:
        """The official client (``openregister.Openregister``) on this server, validating strictly and never
        retrying (``max_retries=0``: it would otherwise retry 409 and 429 and hide them); closed with the server."""
        import openregister

        client = openregister.Openregister(
            api_key=api_key, base_url=self.url, _strict_response_validation=True, max_retries=0, timeout=60
        )
        self._clients.append(client)
        return client

    def everything_written(self) -> str:
        """Its stdout, stderr and log file together (to search for what must never be written)."""
        return "\n".join(p.read_text(errors="replace") for p in (self.out, self.err, self.log_file) if p.exists())

    def stop(self) -> None:
        """Close its official clients and stop the process (terminate; kill it if it does not end within 10 s)."""
        for client in self._clients:
            client.close()
        self._clients.clear()
        stop_process(self.process)


def stop_process(process: subprocess.Popen[Any]) -> None:
    """Stop a server process started by a test: terminate it, and kill it if it does not end within 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def served_register(directory: Path, *options: str, timeout: float = 60.0) -> Iterator[ServedRegister]:
    """A :class:`ServedRegister` for the ``with`` block, stopped when it ends.

    Examples
    --------
    >>> with served_register(tmp_path / "serve", "--rate-limit", "0") as served:   # doctest: +SKIP
    ...     requests.get(f"{served.url}/v1/openapi.json")
    """
    served = ServedRegister(directory, *options, timeout=timeout)
    try:
        yield served
    finally:
        served.stop()
