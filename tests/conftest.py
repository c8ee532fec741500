"""Fixtures every test of the suite gets.

One autouse fixture isolates each test from the developer's shell and files: the settings regkit
and the official client read from the environment are cleared, and the cache, the ledger, the local register's
state and its credential key live in a fresh temporary directory — never in the user's directories.
The test process itself was isolated when it started (the root ``conftest.py``): its world stores are shared
by its tests. Directory conftests add what their tests need on top (the world, clients, servers); none repeats this.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from isolation_support import PROCESS, shell_settings


@pytest.fixture(autouse=True)
def isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Path:
    """Every test (autouse): no regkit or official-client settings from the shell; ``REGKIT_CACHE_DIR``,
    ``REGKIT_LEDGER``, ``REGKIT_LOCAL_STATE`` and a fresh ``REGKIT_LOCAL_SECRET_KEY`` point into a new temporary
    directory, which is returned (request ``isolated_env`` by name to use it). ``REGKIT_WORLD_CACHE`` is the test
    process's (one per pytest-xdist worker), so the bundled world's store is built once per process and shared by
    its tests and the registers they start in subprocesses."""
    from cryptography.fernet import Fernet

    for name in shell_settings(os.environ):
        monkeypatch.delenv(name, raising=False)
    base = tmp_path_factory.mktemp("env")
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("REGKIT_LEDGER", str(base / "ledger" / "ledger.jsonl"))
    monkeypatch.setenv("REGKIT_LOCAL_STATE", str(base / "state.sqlite"))
    monkeypatch.setenv("REGKIT_LOCAL_SECRET_KEY", Fernet.generate_key().decode())
    monkeypatch.setenv("REGKIT_WORLD_CACHE", str(pytestconfig.stash[PROCESS].world_stores))
    return base
