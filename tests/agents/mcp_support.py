"""``regkit mcp`` as its users start it: a subprocess spoken to by the MCP SDK's own client, over stdio or HTTP.

:func:`stdio_session` starts ``regkit mcp`` (the console script beside this Python) through the SDK's
``stdio_client`` — which ends the process when the session ends — and yields an initialized ``ClientSession``;
:class:`HttpServer` runs ``regkit mcp --http`` on a free loopback port. Every server gets its own state file, an
empty cache directory and a fresh credentials key, and no key from the caller's shell unless one is given.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet
from serve_support import regkit_command, stop_process

__all__ = ["HttpServer", "answer_of", "free_port", "server_environment", "stdio_session"]


def server_environment(directory: Path, **extra: str) -> dict[str, str]:
    """The server's environment: the caller's without any key, base URL or state file, caches and data in
    ``directory``, plus ``extra``."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REGKIT_API_KEY", "REGKIT_BASE_URL", "REGKIT_LOCAL_STATE", "REGKIT_CACHE"}
        and not key.startswith("OPENREGISTER_")
    }
    environment.update(
        REGKIT_CACHE_DIR=str(directory / "cache"),
        REGKIT_LOCAL_SECRET_KEY=Fernet.generate_key().decode(),
        REGKIT_LOCAL_STATE=str(directory / "state.sqlite"),
        **extra,
    )
    return environment


@contextlib.asynccontextmanager
async def stdio_session(directory: Path, *options: str, env: Mapping[str, str] | None = None) -> AsyncIterator[Any]:
    """An initialized MCP ``ClientSession`` on ``regkit mcp OPTIONS`` over stdio (its stderr in
    ``directory / "mcp.err"``)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    command = regkit_command()
    parameters = StdioServerParameters(
        command=command[0], args=[*command[1:], "mcp", *options], env=dict(env or server_environment(directory))
    )
    with (directory / "mcp.err").open("w") as errors:
        async with stdio_client(parameters, errlog=errors) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


def answer_of(result: Any) -> dict[str, Any]:
    """A tool result's one text block, read as the JSON object it is."""
    [block] = result.content
    return json.loads(block.text)


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class HttpServer:
    """``regkit mcp --http --port P OPTIONS`` as a subprocess, waited for until it accepts connections.

    Attributes
    ----------
    url : str
        ``http://127.0.0.1:P/mcp``.
    process : subprocess.Popen
        The server (its stderr in ``directory / "mcp-http.err"``).
    """

    def __init__(self, directory: Path, *options: str, env: Mapping[str, str] | None = None, timeout: float = 60):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.err = directory / "mcp-http.err"
        command = [*regkit_command(), "mcp", "--http", "--port", str(self.port), *options]
        with self.err.open("w") as errors:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                env=dict(env or server_environment(directory)),
            )
        deadline = time.monotonic() + timeout
        while not self._accepts():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"regkit mcp --http did not come up:\n{self.err.read_text()}")
            time.sleep(0.1)

    def _accepts(self) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def stop(self) -> None:
        """Stop it (terminate, then kill)."""
        stop_process(self.process)
