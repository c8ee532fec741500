"""Fixtures for the bundled world's tests."""

from __future__ import annotations

import csv

import pytest

from regkit.local.world import default_data_dir, read_world

DATA = default_data_dir()


@pytest.fixture(scope="session")
def world():
    """The bundled world in ``data/`` as read by the local register (read once per session)."""
    return read_world(DATA)


@pytest.fixture(scope="session")
def reference_table():
    """A reader for the bundled reference lists: ``reference_table("wz2025")`` → list of row dicts."""

    def read(name: str) -> list[dict[str, str]]:
        with (DATA / "reference" / f"{name}.csv").open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))

    return read
