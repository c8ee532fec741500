"""regkit uses requests-cache through its public API only (issue 21): a test that fails on any use of a name
requests-cache does not export, an ``_``-attribute of one of its objects, a ``__class__`` assignment, or SQL or
pickle on its storage — anywhere in the package.  The next release of requests-cache may change everything else.

Its public names are those of the top-level package (``from requests_cache import *`` gives them: the union of its
modules' ``__all__``); submodules are implementation.  The local register (``regkit/local``) keeps its own SQLite
state with SQL of its own and is not a user of requests-cache; it is scanned for requests-cache names too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import requests_cache

PACKAGE = Path(__file__).resolve().parents[1] / "regkit"
PUBLIC = {name for name in dir(requests_cache) if not name.startswith("_")}
#: Modules that hold requests-cache objects (backends, responses, storages): no ``_``-attribute of anything but
#: regkit's own ``self`` may be touched there.
HOLDERS = (
    "client/cache/client_cache.py",
    "client/cache/store.py",
    "client/cache/format.py",
    "client/transport/call.py",
    "client/cache/keys.py",
    "client/transport/session.py",
    "client/cache/policy.py",
    "frames/export.py",
)
SQL_WORDS = ("SELECT ", "INSERT ", "DELETE FROM", "UPDATE ", "PRAGMA ", "CREATE TABLE")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _module_itself(target: ast.Attribute) -> bool:
    """``sys.modules[__name__].__class__ = ...``: Python's documented way to give a module a class (3.5+)."""
    value = target.value
    return isinstance(value, ast.Subscript) and ast.unparse(value.value) == "sys.modules"


@pytest.mark.slow
def test_only_requests_cache_public_names_are_imported() -> None:
    found: list[str] = []
    for path in _modules():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "requests_cache":
                if node.module != "requests_cache":
                    found.append(f"{path.relative_to(PACKAGE)}: from {node.module} import ...")
                found += [f"{path.relative_to(PACKAGE)}: {a.name}" for a in node.names if a.name not in PUBLIC]
            elif isinstance(node, ast.Import):
                found += [
                    f"{path.relative_to(PACKAGE)}: import {a.name}"
                    for a in node.names
                    if a.name.startswith("requests_cache.")
                ]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "requests_cache" and node.attr not in PUBLIC:
                    found.append(f"{path.relative_to(PACKAGE)}: requests_cache.{node.attr}")
    assert found == []


def test_no_private_member_of_another_object_is_touched_where_requests_cache_objects_live() -> None:
    found: list[str] = []
    for relative in HOLDERS:
        for node in ast.walk(_tree(PACKAGE / relative)):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                    found.append(f"{relative}:{node.lineno}: .{node.attr}")
    assert found == []


def test_no_class_is_swapped_and_no_storage_is_read_behind_requests_cache() -> None:
    swapped, sql, pickled = [], [], []
    for path in _modules():
        relative = str(path.relative_to(PACKAGE))
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                swapped += [
                    f"{relative}:{node.lineno}"
                    for t in targets
                    if isinstance(t, ast.Attribute) and t.attr == "__class__" and not _module_itself(t)
                ]
            if relative.startswith("local/"):
                continue  # the local register's own state
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if any(word in node.value.upper() for word in SQL_WORDS) and "responses" in node.value.lower():
                    sql.append(f"{relative}:{node.lineno}")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                pickled += [f"{relative}:{node.lineno}" for n in names if n and n.split(".")[0] in ("pickle", "dill")]
    assert (swapped, sql, pickled) == ([], [], [])


def test_the_rule_would_catch_what_it_is_for() -> None:
    """The checks above are not vacuous: each finds the pattern it forbids in a sample."""
    sample = ast.parse(
        "from requests_cache.backends.sqlite import SQLiteDict\n"
        "table.__class__ = SerialSQLiteDict\n"
        "with backend.responses._lock: pass\n"
        "rows = con.execute('SELECT key, value FROM responses')\n"
        "import pickle\n"
    )
    imports = [n for n in ast.walk(sample) if isinstance(n, ast.ImportFrom)]
    privates = [n for n in ast.walk(sample) if isinstance(n, ast.Attribute) and n.attr == "_lock"]
    swaps = [
        n for n in ast.walk(sample) if isinstance(n, ast.Assign) and getattr(n.targets[0], "attr", "") == "__class__"
    ]
    queries = [n for n in ast.walk(sample) if isinstance(n, ast.Constant) and "SELECT " in str(n.value)]
    assert imports[0].module != "requests_cache" and privates and swaps and queries
    assert "SQLiteDict" in PUBLIC and "_lock" not in PUBLIC  # public names are the package's exports
