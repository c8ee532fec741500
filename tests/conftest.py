"""Fixtures every test of the suite gets.

One autouse fixture isolates each test from the developer's shell and files: the settings regkit
and the official client read from the environment are cleared, and the cache, the local register's
state and its credential key live in a fresh temporary directory — never in the user's directories.
Directory conftests add what their tests need on top (the world, clients, servers); none repeats this.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The settings regkit reads from the environment (see README, "Settings"); the official client's
#: ``OPENREGISTER_*`` variables are cleared by prefix.  The test suite's own switches
#: (``REGKIT_BROWSER_TESTS``, ``REGKIT_CHROMIUM``, ``REGKIT_BROWSER_ARTIFACTS``) are kept.
REGKIT_SETTINGS = (
    "REGKIT_API_KEY",
    "REGKIT_BASE_URL",
    "REGKIT_CACHE",
    "REGKIT_CACHE_DIR",
    "REGKIT_DATA_DIR",
    "REGKIT_LOCAL_STATE",
    "REGKIT_LOCAL_SECRET_KEY",
    "REGKIT_LEDGER",
    "REGKIT_WORLD_CACHE",
)


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test (autouse): no regkit or official-client settings from the shell; ``REGKIT_CACHE_DIR``,
    ``REGKIT_LEDGER``, ``REGKIT_LOCAL_STATE`` and a fresh ``REGKIT_LOCAL_SECRET_KEY`` point into a new temporary
    directory,
    which is returned (request ``isolated_env`` by name to use it)."""
    from cryptography.fernet import Fernet

    for name in [*REGKIT_SETTINGS, *(n for n in os.environ if n.startswith("OPENREGISTER_"))]:
        monkeypatch.delenv(name, raising=False)
    base = tmp_path_factory.mktemp("env")
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("REGKIT_LEDGER", str(base / "ledger" / "ledger.jsonl"))
    monkeypatch.setenv("REGKIT_LOCAL_STATE", str(base / "state.sqlite"))
    monkeypatch.setenv("REGKIT_LOCAL_SECRET_KEY", Fernet.generate_key().decode())
    # world stores are derived from the worlds by content: one directory for the whole session (and the
    # registers it starts in subprocesses), so the bundled world's store is built once per session
    monkeypatch.setenv("REGKIT_WORLD_CACHE", str(tmp_path_factory.getbasetemp() / "world-stores"))
    return base
