"""A pytest plugin: while nbval runs a notebook, every pyplot figure a cell leaves passes the figure checks
(``tests/views/figure_checks_support.py``: a source line below the axes, one language of labels, text at least
9 pt on screen in a 968 px JupyterLab cell, a zero line under negative values, amount axes from zero with their
unit). A cell whose figure fails them fails, with the problems, beside nbval's own comparison of its outputs.

How: nbval starts a notebook's kernel when the notebook's first cell is set up, and the kernel takes the
environment of that moment. For that moment only, this plugin points ``IPYTHONDIR`` at a directory of its own
whose startup file (IPython's ``profile_default/startup``) registers a ``post_execute`` callback, and names the
notebook's report file in ``REGKIT_FIGURE_CHECKS_REPORT``. The callback runs ahead of the inline backend's, which
shows and closes the cell's figures; it checks a copy of each (pickled and unpickled: drawing the figure itself
would change what is then shown and stored) and appends one JSON line per figure to the report. After each cell
the plugin reads the lines that cell added. Other kernels the tests start (JupyterLab's, the interrupt tests') are
not touched. Figures an explorer renders itself (``regkit.widgets``) are widgets' images, checked by the browser
tests.

The notebooks are run once, by nbval: the checks cost only the checking (about 5 s over the 13 notebooks, against
some 70 s of a worker's time for the second run of every notebook they had before). The root ``conftest.py`` loads the plugin;
``pytest -p nbval_figure_checks --nbval …`` loads it elsewhere (with ``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: The variable that names, in a notebook's kernel, the file its figures' problems are appended to.
REPORT_VARIABLE = "REGKIT_FIGURE_CHECKS_REPORT"

_DIRECTORY = pytest.StashKey[Path]()

_STARTUP = """
# regkit's test suite (tests/nbval_figure_checks.py): check each pyplot figure a cell leaves, before Jupyter shows it.
import json as _regkit_json
import os as _regkit_os
import sys as _regkit_sys

from IPython import get_ipython as _regkit_get_ipython


def _regkit_check_figures(*_args, _path=_regkit_os.environ.get({variable!r})):
    # post_execute, ahead of the inline backend's: each figure the cell leaves, checked on a copy (drawing the
    # figure itself would start the shown drawing's constrained layout from the checks' one, which moves the
    # stored SVG's width by a millionth of a point)
    if not _path or "matplotlib" not in _regkit_sys.modules:
        return
    import matplotlib.pyplot as plt

    numbers = plt.get_fignums()
    if not numbers:
        return
    import pickle
    import warnings

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if {support_dir!r} not in _regkit_sys.path:
        _regkit_sys.path.insert(0, {support_dir!r})
    import figure_checks_support as _checks

    active = plt.gcf().number
    with open(_path, "a", encoding="utf-8") as _out:
        for number in numbers:
            try:
                copy = pickle.loads(pickle.dumps(plt.figure(number)))
                plt.close(copy)  # unpickled into pyplot's figures: out again before anything shows it
                FigureCanvasAgg(copy)
                with warnings.catch_warnings():  # the checks' drawing writes nothing into the cell's output
                    warnings.simplefilter("ignore")
                    _problems = _checks.figure_problems(copy)
            except Exception as _error:  # a check that cannot run is a problem too
                _problems = [f"the checks failed: {{_error!r}}"]
            _out.write(_regkit_json.dumps({{"figure": number, "problems": _problems}}) + "\\n")
    plt.figure(active)


_regkit_get_ipython().events.callbacks["post_execute"].insert(0, _regkit_check_figures)
"""


def _is_notebook_cell(item: pytest.Item) -> bool:
    return item.path.suffix == ".ipynb"


def _report(item: pytest.Item) -> Path:
    """The report file of ``item``'s notebook (one per notebook file of this process)."""
    return item.config.stash[_DIRECTORY] / "reports" / f"{item.path.stem}-{abs(hash(str(item.path))):x}.jsonl"


def pytest_configure(config: pytest.Config) -> None:
    """Write the kernels' IPython directory with its startup file (into a scratch directory of this process)."""
    directory = Path(tempfile.mkdtemp(prefix="regkit-figure-checks-"))
    startup = directory / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (directory / "reports").mkdir()
    support_dir = str(Path(__file__).resolve().parent / "views")
    (startup / "00-regkit-figure-checks.py").write_text(
        _STARTUP.format(variable=REPORT_VARIABLE, support_dir=support_dir), encoding="utf-8"
    )
    config.stash[_DIRECTORY] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    directory = config.stash.get(_DIRECTORY, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def _kernel_environment(directory: Path, report: Path) -> Iterator[None]:
    """``IPYTHONDIR`` and the report's variable set while a kernel may be started, then put back."""
    values = {"IPYTHONDIR": str(directory / "ipython"), REPORT_VARIABLE: str(report)}
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    """Set up a notebook's cell with the kernels' environment (nbval starts the kernel at its first cell)."""
    if not _is_notebook_cell(item):
        return (yield)
    with _kernel_environment(item.config.stash[_DIRECTORY], _report(item)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Run a notebook's cell (nbval), then fail it if a figure it left fails the figure checks."""
    if not _is_notebook_cell(item):
        return (yield)
    report = _report(item)
    start = report.stat().st_size if report.exists() else 0
    result = yield
    if report.exists():
        with report.open("rb") as lines:
            lines.seek(start)
            found = [json.loads(line) for line in lines.read().decode("utf-8").splitlines() if line.strip()]
        failing = [f"figure {f['figure']}: {'; '.join(f['problems'])}" for f in found if f["problems"]]
        if failing:
            pytest.fail("a figure of this cell fails the figure checks:\n" + "\n".join(failing), pytrace=False)
    return result
