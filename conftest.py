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
one worker: ``--dist loadfile`` (``pyproject.toml``) sends each file's tests to one worker. While nbval runs them,
every pyplot figure a cell leaves passes the figure checks (the plugin ``tests/nbval_figure_checks.py``).

How the files are shared out: ``-n auto`` starts one worker more than the machine has cores
(:func:`pytest_xdist_auto_num_workers`): many slow tests mostly wait — on notebook kernels, Chromium, servers,
retries' back-off — and a spare worker keeps the cores busy meanwhile (measured on two cores, see CONTRIBUTING.md).
The files with slow tests are handed out first, in collection order, and the quick ones after them
(``--no-loadscope-reorder`` keeps this order; pytest-xdist's own ordering, most tests first, left the long
single-test files to the end, one worker running them while the others idled).

"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))

from isolation_support import PROCESS, enter_process

#: nbval's run of each notebook also checks every figure its cells leave (tests/nbval_figure_checks.py).
pytest_plugins = ["nbval_figure_checks"]


def pytest_configure(config: pytest.Config) -> None:
    """Isolate this test process (see the module)."""
    config.stash[PROCESS] = enter_process()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Put the environment back and delete the process's scratch directory."""
    isolation = config.stash.get(PROCESS, None)
    if isolation is not None:
        isolation.leave()
        del config.stash[PROCESS]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The workers of ``-n auto``: one per core the process may use, and one more (``PYTEST_XDIST_AUTO_NUM_WORKERS``
    sets the number instead, as for pytest-xdist's own rule)."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if chosen.strip().isdigit():
        return int(chosen)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every notebook cell (an nbval item, collected from a ``.ipynb`` file) ``slow``; then put the files with
    slow tests first (each file's tests stay together and in their order)."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow_files)
