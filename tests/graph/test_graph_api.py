"""The shape of the package: public names, module size, layering, and docstring examples that run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import types
from pathlib import Path

import matplotlib
import pytest

import regkit.graph

GRAPH_DIR = Path(regkit.graph.__file__).parent
PLOT_DIR = GRAPH_DIR.parent / "plot"
MODULES = (
    ["regkit.graph"]
    + sorted(f"regkit.graph.{m.name}" for m in pkgutil.iter_modules([str(GRAPH_DIR)]))
    + ["regkit.plot.group", "regkit.plot"]
)


def test_all_lists_the_public_names() -> None:
    public = {
        name
        for name, value in vars(regkit.graph).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    } - {"annotations"}
    assert set(regkit.graph.__all__) == public


@pytest.mark.parametrize("name", MODULES)
def test_every_module_declares_all(name: str) -> None:
    # No line-count goal (issue 22 dropped it): a module is split where a second concern lives in it.
    module = importlib.import_module(name)
    assert isinstance(module.__all__, list) and all(hasattr(module, n) for n in module.__all__)


def test_the_graph_layer_imports_nothing_above_it() -> None:
    for path in GRAPH_DIR.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+regkit\.(plot|widgets)", source, re.M), path.name


def test_plot_package_is_a_name_to_module_map() -> None:
    import regkit.plot

    assert regkit.plot._EXPORTS["group"] == "regkit.plot.group"
    assert all(isinstance(v, str) and v.startswith("regkit.plot.") for v in regkit.plot._EXPORTS.values())
    assert sorted(regkit.plot.__all__) == sorted(regkit.plot._EXPORTS)
    with pytest.raises(AttributeError):
        regkit.plot.no_such_plot  # noqa: B018


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    matplotlib.use("Agg")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0
