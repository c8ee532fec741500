"""The test suite's own layout: every directory can be collected in one pytest run with any other.

The test directories are not packages, so pytest (``--import-mode=prepend``, the default) imports each
``conftest.py`` as the module ``conftest`` and each test or support module by its bare file name, with its
directory put first on ``sys.path``. Two consequences, each checked here:

- ``from conftest import ...`` gets whichever ``conftest`` was imported last. ``pytest tests`` loads a directory's
  conftest just before that directory's modules, so the import happened to work there; ``pytest tests/client
  tests/frames`` loads both conftests first (pytest's "initial conftests" of every argument), and the client tests
  got the frames conftest. Helpers are shared through fixtures, or through a ``*_support.py`` module.
- Two Python files of the same name in two test directories are one module to Python: the second one imported
  is the first one. Every file name (``conftest.py`` apart) is unique across ``tests/``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_imports_a_conftest() -> None:
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "conftest":
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}")
            elif isinstance(node, ast.Import) and any(alias.name == "conftest" for alias in node.names):
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert offenders == [], f"use a fixture (or a *_support.py module) instead of importing a conftest: {offenders}"


def test_module_names_are_unique_across_the_test_directories() -> None:
    where: defaultdict[str, list[str]] = defaultdict(list)
    for path in _python_files():
        if path.name not in ("conftest.py", "__init__.py"):
            where[path.stem].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert clashes == {}, f"these files would be one module in a pytest run (rename one): {clashes}"
