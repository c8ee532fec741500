"""Fixtures of the team tests: a real ``redis-server`` and ``regkit serve``, both on loopback.

The Redis server has a password, so that every test shows it is stored nowhere; it is emptied before each test
(``redis``). Without ``redis-server`` (Debian package ``redis-server``) or the ``redis`` package these tests are
skipped — and fail when ``CI=true`` (see ``tests/redis_support.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redis_support import RedisServer
from serve_support import ServedRegister, served_register

#: The Redis server's password (``requirepass``): it must appear in no key, value, message or repr.
REDIS_PASSWORD = "Redis-pa55-7f3c9e1d"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One ``redis-server`` with a password for the whole session (empty it with :func:`redis`)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"), password=REDIS_PASSWORD)
    yield server
    server.stop()


@pytest.fixture
def redis(redis_server: RedisServer) -> RedisServer:
    """The session's Redis server, emptied for this test."""
    redis_server.flush()
    return redis_server


@pytest.fixture
def killable_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A ``redis-server`` of this test alone (with the password), to kill, stop and restart on its port (no
    persistence: after ``kill()`` its data is gone)."""
    server = RedisServer(tmp_path / "redis", password=REDIS_PASSWORD)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedRegister]:
    """``regkit serve`` for a test module: no rate limit, extracts finish at once."""
    with served_register(tmp_path_factory.mktemp("serve"), "--rate-limit", "0", "--extract-delay", "0") as server:
        yield server


@pytest.fixture(scope="session")
def world() -> Any:
    """The bundled world the register serves (read once): to choose company ids."""
    from regkit.local.world.store import read_world

    return read_world()
