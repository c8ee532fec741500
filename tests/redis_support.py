"""A real ``redis-server`` on a free loopback port, for the tests of the shared cache and the team budget.

:class:`RedisServer` runs the Debian ``redis-server`` binary with no persistence (``--save ''
--appendonly no``) in a test's temporary directory, optionally with a password (``requirepass``, written to a
config file in that directory rather than onto the command line), waits until it answers ``PING`` and stops it
(terminate, then kill). For the fault tests it can be killed (``kill -9``: its data is gone), stopped gracefully
with or without saving, and restarted on the same port, empty or with what it saved. :func:`redis_server` is the
same as a context manager. :func:`require_redis_server` skips a test when the binary or the ``redis`` package is
missing — but fails it when ``CI=true``: in CI the Redis tests must run. Import it as ``from redis_support import
...`` after putting ``tests/`` on ``sys.path`` (as ``tests/team/conftest.py`` does).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import stop_process

__all__ = ["RedisServer", "redis_server", "require_redis_server", "REDIS_MISSING"]

#: Why a Redis test was skipped (outside CI).
REDIS_MISSING = "redis-server not installed: apt-get install redis-server"
_PACKAGE_MISSING = "the redis package is not installed: pip install -e '.[test]' (or pip install 'redis>=5')"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def _unavailable(reason: str) -> None:
    if _in_ci():
        pytest.fail(f"{reason} — CI=true, so the Redis tests must run, not be skipped", pytrace=False)
    pytest.skip(reason)


def require_redis_server() -> str:
    """The path of ``redis-server``; skip the test without it or without the ``redis`` package (fail if
    ``CI`` is ``true``)."""
    path = shutil.which("redis-server")
    if path is None:
        _unavailable(REDIS_MISSING)
    try:
        import redis  # noqa: F401
    except ImportError:
        _unavailable(_PACKAGE_MISSING)
    assert path is not None
    return path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process on a free loopback port.

    Parameters
    ----------
    directory : Path
        Its working directory (``--dir``), config file and log file (a test's temporary directory).
    password : str, optional
        ``requirepass``: clients must authenticate (``redis://:PASSWORD@127.0.0.1:PORT/0``).
    timeout : float
        Seconds to wait for it to answer ``PING`` before giving up (:class:`RuntimeError`, with its log).

    Attributes
    ----------
    port : int
        The loopback port it listens on.
    password : str or None
        Its password.
    process : subprocess.Popen
        The running process.
    """

    def __init__(self, directory: Path, password: str | None = None, timeout: float = 30.0) -> None:
        self.binary = require_redis_server()
        directory.mkdir(parents=True, exist_ok=True)
        self.directory, self.password = directory, password
        self.log_file = directory / "redis.log"
        config = directory / "redis.conf"
        config.write_text(f"requirepass {password}\n" if password else "")
        config.chmod(0o600)
        self.config, self.timeout = config, timeout
        for attempt in range(3):  # the free port may be taken between finding it and binding it
            self.port = _free_port()
            try:
                self._start()
                return
            except RuntimeError:
                self.stop()
                if attempt == 2:
                    raise

    @property
    def dump_file(self) -> Path:
        """Where ``SAVE`` (and ``SHUTDOWN SAVE``) write the data, and where a start loads it from (``dump.rdb``)."""
        return self.directory / "dump.rdb"

    def _start(self) -> None:
        command = [
            self.binary,
            str(self.config),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.directory),
            "--logfile",
            str(self.log_file),
            "--daemonize",
            "no",
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait(self.timeout)

    @property
    def running(self) -> bool:
        """Whether the process runs."""
        return self.process.poll() is None

    def kill(self) -> None:
        """``kill -9`` the server (no chance to save: what it held in memory is gone) and wait until it is dead."""
        if self.running:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def save(self) -> None:
        """``SAVE``: write everything to :attr:`dump_file` now (a later :meth:`restart` with ``keep_data`` loads
        this point in time)."""
        connection = self.connect()
        try:
            connection.save()
        finally:
            connection.close()

    def shutdown(self, *, save: bool) -> None:
        """A graceful stop: ``SHUTDOWN SAVE`` (the data is written to :attr:`dump_file` and comes back with
        :meth:`restart` ``(keep_data=True)``) or ``SHUTDOWN NOSAVE`` (the data is gone)."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        connection = self.connect()
        connection.set_retry(Retry(NoBackoff(), 0))  # the server going away is the point: no reconnecting
        try:
            connection.shutdown(save=save, nosave=not save)
        except redis.ConnectionError:
            pass  # the server closed the connection as it went down
        finally:
            connection.close()
        self.process.wait(timeout=30)

    def restart(self, *, keep_data: bool = False) -> None:
        """Start the stopped server again on the same port (clients reconnect) with the same password. Without
        ``keep_data`` its dump file is deleted first, so it starts empty, as a server without persistence does;
        with it, it loads what was last saved (:meth:`save`, :meth:`shutdown` ``(save=True)``)."""
        assert not self.running, "restart() a server that was stopped (kill() or shutdown())"
        if not keep_data:
            self.dump_file.unlink(missing_ok=True)
        deadline = time.monotonic() + 30
        while True:  # the port is free again at once (Redis binds with SO_REUSEADDR); retry briefly if not
            try:
                self._start()
                return
            except RuntimeError:
                stop_process(self.process)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    @property
    def url(self) -> str:
        """``redis://[:PASSWORD@]127.0.0.1:PORT/0``."""
        return self.url_for(0)

    def url_for(self, db: int) -> str:
        """The URL of database ``db`` (with the password, if any)."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/{db}"

    def connect(self, db: int = 0) -> Any:
        """A ``redis.Redis`` connection to database ``db`` (raw bytes, no decoding)."""
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, db=db, password=self.password, socket_timeout=10)

    def _wait(self, timeout: float) -> None:
        import redis

        deadline = time.monotonic() + timeout
        connection = self.connect()
        try:
            while True:
                try:
                    if connection.ping():
                        return
                except redis.RedisError:
                    pass
                if self.process.poll() is not None or time.monotonic() > deadline:
                    log = self.log_file.read_text(errors="replace") if self.log_file.exists() else ""
                    raise RuntimeError(f"redis-server did not come up (exit {self.process.poll()}):\n{log}")
                time.sleep(0.05)
        finally:
            connection.close()

    def everything_stored(self, db: int = 0) -> list[tuple[bytes, bytes, list[bytes]]]:
        """Every key of database ``db`` with its type and raw contents: a string's bytes, a hash's fields and
        values, a set's or sorted set's members (and scores), a list's items, a stream's entries' fields and
        values — to search for what must never be stored."""
        connection = self.connect(db)
        found: list[tuple[bytes, bytes, list[bytes]]] = []
        try:
            for key in connection.scan_iter(count=500):
                kind = connection.type(key)
                parts: list[bytes] = []
                if kind == b"string":
                    parts = [connection.get(key) or b""]
                elif kind == b"hash":
                    parts = [x for pair in connection.hgetall(key).items() for x in pair]
                elif kind == b"set":
                    parts = list(connection.smembers(key))
                elif kind == b"zset":
                    parts = [
                        x for m, s in connection.zrange(key, 0, -1, withscores=True) for x in (m, repr(s).encode())
                    ]
                elif kind == b"list":
                    parts = list(connection.lrange(key, 0, -1))
                elif kind == b"stream":
                    for entry_id, fields in connection.xrange(key):
                        parts.append(entry_id)
                        parts.extend(x for pair in fields.items() for x in pair)
                found.append((key, kind, parts))
        finally:
            connection.close()
        return found

    def flush(self) -> None:
        """Delete everything in every database."""
        connection = self.connect()
        try:
            connection.flushall()
        finally:
            connection.close()

    def stop(self) -> None:
        """Stop the process (terminate; kill it if it does not end within 10 s)."""
        stop_process(self.process)


@contextlib.contextmanager
def redis_server(directory: Path, password: str | None = None, timeout: float = 30.0) -> Iterator[RedisServer]:
    """A :class:`RedisServer` for the ``with`` block, stopped when it ends.

    Examples
    --------
    >>> with redis_server(tmp_path / "redis", password="s3cret") as server:   # doctest: +SKIP
    ...     Client(cache=server.url)
    """
    server = RedisServer(directory, password=password, timeout=timeout)
    try:
        yield server
    finally:
        server.stop()
