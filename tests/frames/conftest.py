"""Fixtures of the frames tests.

Unit and property tests use payloads directly (the bundled world's records, the fictional example, and
Hypothesis-generated CompanyV1 dicts); only ``test_frames_client.py`` goes through ``regkit.Client``.
"""

from __future__ import annotations

import pytest

from regkit.frames import example_company
from regkit.local.world import read_world


@pytest.fixture(scope="session")
def world():
    """The bundled world (``data/``), read once per session: use it for facts its data files fix."""
    return read_world()


@pytest.fixture(scope="session")
def companies(world):
    """All 5,000 world companies as a list of CompanyV1 dicts (read-only: never mutate them)."""
    return list(world.companies.values())


@pytest.fixture()
def company():
    """A fresh copy of the small fictional example payload (safe to modify)."""
    return example_company()


@pytest.fixture()
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """For tests that build a ``regkit.Client``: no REGKIT_* settings from the shell; cache and local-register
    state in a temporary directory, so credits spent never touch the user's files."""
    for name in ("REGKIT_API_KEY", "REGKIT_BASE_URL", "REGKIT_CACHE_DIR", "REGKIT_LOCAL_STATE",
                 "OPENREGISTER_API_KEY", "OPENREGISTER_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("REGKIT_LOCAL_STATE", str(tmp_path / "state.sqlite"))
    return tmp_path
