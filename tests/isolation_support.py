"""The settings the test suite keeps away from the tests, and where a test process keeps regkit's files instead.

Two layers use it. The repository's root ``conftest.py`` isolates each test *process* — the one process of a serial
run (``-n 0``) or each pytest-xdist worker — when it starts (:func:`enter_process`): the shell's regkit and
official-client settings are cleared and regkit's cache, ledger, local register state, credentials key and world
stores point into a scratch directory of that process. That covers what runs outside any test's fixtures: the
notebooks' kernels (nbval starts them itself), module- and session-scoped servers and their subprocesses.
``tests/conftest.py`` then gives every test directories of its own on top (its autouse ``isolated_env``).
Import as ``from isolation_support import ...`` after putting ``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import MutableMapping
from pathlib import Path

import pytest

__all__ = [
    "REGKIT_SETTINGS",
    "WORLD_STORES",
    "PROCESS",
    "ProcessIsolation",
    "enter_process",
    "shell_settings",
    "worker_name",
]

#: The settings regkit reads from the environment (see README, "Settings"); the official client's
#: ``OPENREGISTER_*`` variables are cleared by prefix (:func:`shell_settings`). The test suite's own switches
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

#: The directory, inside a process's scratch directory, where its world stores are built (``REGKIT_WORLD_CACHE``):
#: the bundled world's store is built once per test process (about two seconds) and shared by all its tests,
#: the registers they start and the notebooks' kernels; two workers never build into one directory.
WORLD_STORES = "world-stores"


def worker_name() -> str:
    """This process's pytest-xdist worker id (``gw0``, ``gw1``, ...), or ``main`` when the tests run in one process."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def shell_settings(environ: MutableMapping[str, str]) -> list[str]:
    """The names in ``environ`` that a test must not inherit: :data:`REGKIT_SETTINGS` and ``OPENREGISTER_*``."""
    return [name for name in environ if name in REGKIT_SETTINGS or name.startswith("OPENREGISTER_")]


class ProcessIsolation:
    """A test process's scratch directory and the environment it set (see :func:`enter_process`).

    Attributes
    ----------
    directory : Path
        The scratch directory (``regkit-tests-<worker>-*`` in the system's temporary directory).
    world_stores : Path
        ``REGKIT_WORLD_CACHE`` of the process: where its world stores are built.
    """

    def __init__(self, directory: Path, replaced: dict[str, str | None]) -> None:
        self.directory = directory
        self.world_stores = directory / WORLD_STORES
        self._replaced = replaced

    def leave(self) -> None:
        """Put the environment back as it was and delete the scratch directory."""
        for name, value in self._replaced.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(self.directory, ignore_errors=True)


#: Where the root ``conftest.py`` keeps this process's :class:`ProcessIsolation` (``config.stash[PROCESS]``).
PROCESS = pytest.StashKey[ProcessIsolation]()


def enter_process() -> ProcessIsolation:
    """Isolate this process: clear the shell's settings (:func:`shell_settings`) and point ``REGKIT_CACHE_DIR``,
    ``REGKIT_LEDGER``, ``REGKIT_LOCAL_STATE``, ``REGKIT_WORLD_CACHE`` and a fresh ``REGKIT_LOCAL_SECRET_KEY`` into a
    new scratch directory of this process (named after :func:`worker_name`); :meth:`ProcessIsolation.leave` undoes it.
    """
    from cryptography.fernet import Fernet

    directory = Path(tempfile.mkdtemp(prefix=f"regkit-tests-{worker_name()}-"))
    values = {
        "REGKIT_CACHE_DIR": str(directory / "cache"),
        "REGKIT_LEDGER": str(directory / "ledger" / "ledger.jsonl"),
        "REGKIT_LOCAL_STATE": str(directory / "state.sqlite"),
        "REGKIT_LOCAL_SECRET_KEY": Fernet.generate_key().decode(),
        "REGKIT_WORLD_CACHE": str(directory / WORLD_STORES),
    }
    replaced: dict[str, str | None] = {name: os.environ.get(name) for name in [*shell_settings(os.environ), *values]}
    for name in shell_settings(os.environ):
        del os.environ[name]
    os.environ.update(values)
    return ProcessIsolation(directory, replaced)
