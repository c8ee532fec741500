"""What every test process of the suite does first, for ``tests/`` and the notebooks under ``notebooks/`` alike.

The suite runs in parallel (pytest-xdist, ``-n auto`` in ``pyproject.toml``; ``-n 0`` runs it in one process).
Each test process — each worker, or the one process of a serial run — is isolated when it starts
(``tests/isolation_support.py``): the shell's ``REGKIT_*`` and ``OPENREGISTER_*`` settings are cleared and regkit's
cache, ledger, local register state, credentials key and world stores point into a scratch directory of that
process, deleted when it ends. What runs outside any test's fixtures is covered so: the notebooks' kernels (nbval
starts them itself), servers of module- or session-scoped fixtures and their subprocesses; no process writes to
the user's directories or to another worker's files. ``tests/conftest.py`` gives every test its own directories
on top.

The notebooks are the slow tier's: every cell nbval collects is marked ``slow``, so the fast tier
(``pytest -m "not slow"``) leaves them out. A notebook's cells run in order in one kernel, so they must stay on
one worker: ``--dist loadfile`` (``pyproject.toml``) sends each file's tests to one worker.

"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))

from isolation_support import PROCESS, enter_process


def pytest_configure(config: pytest.Config) -> None:
    """Isolate this test process (see the module)."""
    config.stash[PROCESS] = enter_process()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Put the environment back and delete the process's scratch directory."""
    isolation = config.stash.get(PROCESS, None)
    if isolation is not None:
        isolation.leave()
        del config.stash[PROCESS]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every notebook cell (an nbval item, collected from a ``.ipynb`` file) ``slow``."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
