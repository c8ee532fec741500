"""Fixtures of the frames tests.

Unit and property tests use payloads directly (the bundled world's records, the fictional example, and
Hypothesis-generated CompanyV1 dicts); only ``test_frames_client.py`` and ``test_frames_shares.py`` (each share
frame against its raw answer) go through ``regkit.Client``.
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
def world_companies(world):
    """All 5,000 world companies as a list of CompanyV1 dicts (read-only: never mutate them)."""
    return list(world.companies.values())


@pytest.fixture()
def company():
    """A fresh copy of the small fictional example payload (safe to modify)."""
    return example_company()
