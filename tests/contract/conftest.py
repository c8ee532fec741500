"""Fixtures of the contract test: ``regkit serve`` as a real subprocess, and the official client pointed at it.

The live service's official Python client (``openregister-sdk``, ``openregister.Openregister``) is the judge of
what the live service answers. These fixtures run the local register the way a user runs it — the ``regkit``
console script on a free loopback port with a throw-away state file and its own encryption key — and hand out
clients that validate every response strictly (``_strict_response_validation=True``) and never retry
(``max_retries=0``: the client would otherwise retry 409 and 429 and hide them).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serve_support import ServedRegister, served_register

from regkit.local.world import read_world

#: Environment variables the official client reads at construction; cleared so that no user setting leaks in.


@pytest.fixture(scope="session")
def world():
    """The bundled world ``regkit serve`` serves, read once: to choose ids and to compare answers with."""
    return read_world()


@pytest.fixture(scope="module")
def register(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedRegister]:
    """A ``regkit serve`` shared by a test module: rate limit off (so every proceeding can be fetched), extracts
    finish after 300 ms. Tests on it use ``demo-paid`` unless they test a plan, and leave state (credentials,
    monitors) under names no other test uses; use :func:`start_register` for a register of your own."""
    with served_register(
        tmp_path_factory.mktemp("register"), "--rate-limit", "0", "--extract-delay", "300ms"
    ) as served:
        yield served


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
