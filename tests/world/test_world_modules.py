"""The generator's modules: one-way imports (no cycle, imports inside functions counted), the plan's data
types in a module that imports nothing else of regkit, every module documented and with ``__all__``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import networkx as nx
import pytest

import regkit.local.world as world_package

WORLD = Path(world_package.__file__).parent
MODULES = sorted(path.stem for path in WORLD.glob("*.py"))


def _tree(name: str) -> ast.Module:
    return ast.parse((WORLD / f"{name}.py").read_text(encoding="utf-8"))


def _imports(name: str) -> set[str]:
    """Modules of regkit that ``name`` imports, at any depth (``world.x`` for the generator's own)."""
    found = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            targets = [node.module] if node.module else [alias.name for alias in node.names]
            found.update(f"world.{target.split('.')[0]}" for target in targets)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("regkit"):
            found.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            found.add("regkit (relative, outside world)")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("regkit"))
    return found


def test_no_import_cycle_among_the_generators_modules():
    graph = nx.DiGraph()
    for name in MODULES:
        graph.add_node(f"world.{name}")
        graph.add_edges_from((f"world.{name}", target) for target in _imports(name) if target.startswith("world."))
    assert list(nx.simple_cycles(graph)) == []


@pytest.mark.parametrize("name", ["specs", "seeding"])
def test_the_plans_types_and_the_seeding_import_nothing_else_of_regkit(name):
    assert _imports(name) == set()


@pytest.mark.parametrize("name", MODULES)
def test_every_module_is_documented_and_exports_what_it_defines(name):
    tree = _tree(name)
    assert ast.get_docstring(tree), f"{name}.py has no docstring"
    module = importlib.import_module("regkit.local.world" if name == "__init__" else f"regkit.local.world.{name}")
    assert isinstance(getattr(module, "__all__", None), list), f"{name}.py has no __all__"
    for exported in module.__all__:
        assert hasattr(module, exported), f"{name}.__all__ names {exported!r}, which it does not define"
        value = getattr(module, exported)
        defined_in = getattr(value, "__module__", module.__name__)
        if name != "__init__" and callable(value) and isinstance(defined_in, str) and defined_in.startswith("regkit"):
            assert defined_in == module.__name__, f"{name}.__all__ re-exports {exported!r} from {defined_in}"
