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

The longest files start first. Workers take files in the order they are collected, so a long file collected
late ends the run alone on one worker while the others idle (the whole-world shareholder-list check, about three
minutes, started ten minutes in). Files are sorted by their expected time — a ``slow`` test counts
:data:`SLOW_SECONDS` (or the ``seconds=`` its mark gives), any other :data:`FAST_SECONDS` — longest first; a
file's own tests keep their order, and files of equal weight keep theirs. Only the order changes: every test
still runs, and ``-n 0`` runs them in the same order.
"""

from __future__ import annotations

import sys
from collections import defaultdict
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


#: The seconds a test marked ``slow`` without ``seconds=`` is expected to take, any other test, and a notebook's cell
#: (two cores).
SLOW_SECONDS, FAST_SECONDS, NOTEBOOK_CELL_SECONDS = 2.0, 0.02, 0.3


def expected_seconds(item: pytest.Item) -> float:
    """How long ``item`` is expected to take: its ``slow`` mark's ``seconds=``, :data:`SLOW_SECONDS` for another
    slow test, :data:`FAST_SECONDS` for the rest."""
    mark = item.get_closest_marker("slow")
    if mark is None:
        return FAST_SECONDS
    return float(mark.kwargs.get("seconds", SLOW_SECONDS))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every notebook cell (an nbval item, collected from a ``.ipynb`` file) ``slow``; then order the files
    longest first (see the module)."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow(seconds=NOTEBOOK_CELL_SECONDS))
    by_file: dict[Path, list[pytest.Item]] = defaultdict(list)
    for item in items:
        by_file[item.path].append(item)
    weight = {path: sum(expected_seconds(item) for item in tests) for path, tests in by_file.items()}
    items[:] = [item for path in sorted(by_file, key=lambda path: -weight[path]) for item in by_file[path]]
