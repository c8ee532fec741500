"""regkit's architecture, kept honest: the layers are import-linter contracts; this checks what they cannot say.

The layers — views (``regkit.widgets``, ``regkit.plot``) → analysis (``regkit.frames``, ``regkit.graph``) → the
client → the local register → the shared vocabulary (``regkit.schema``, ``regkit.errors``) — and their exceptions
are contracts in ``pyproject.toml`` (``[tool.importlinter]``), checked by ``lint-imports`` (CONTRIBUTING.md,
"Layers"). import-linter counts every import statement, at module level, inside functions and under
``if TYPE_CHECKING:``.  :func:`test_the_contracts_hold` runs it, so ``pytest`` alone catches a broken layer, and
README.md's ``## Layout`` picture must draw the packages of the layers contract, top to bottom.

What import-linter cannot see or say stays here (``tests/layers_support.py`` reads the source with ``ast``):

1. **The exceptions stay lazy.**  Every import a contract's ``ignore_imports`` lets pass (a record's frame methods
   importing their builder from ``regkit.frames``, the crawl naming the client's protocols) is inside a function
   or under ``if TYPE_CHECKING:``; import-linter cannot tell those from a module-level import.
2. **Every import is one lint-imports sees.**  Below the facade no module calls ``importlib.import_module`` or
   ``__import__`` but with a literal module outside regkit.  The lazy re-export tables (``regkit/__init__.py`` and
   the package ``__init__``\\ s built with ``regkit._lazy.lazy_exports``) are imports on attribute access: every
   name resolves, a package's table points into the package itself at the module that defines the name, and the
   facade's table at a public package that exports it.
3. **No reach into another package's private names** ("package" = top-level package: ``regkit.client``
   includes ``regkit.client.transport``; the facade is one package).  Private = one leading underscore;
   ``__dunder__`` and ``_sunder_`` names (``_repr_html_``, enum's ``_value_``) are protocols, not private.

   a. ``from regkit.x… import _name``, ``import regkit.x._mod`` (also lazily), ``regkit.x._name`` in code, from
      another top-level package (``regkit._lazy``, the helper every package is built on, apart).
   b. ``expr._name`` where ``expr`` is not ``self`` / ``cls`` / ``super()`` and no module of the accessing
      module's top-level package defines ``_name``: then it belongs to someone else (``client._caller`` in
      ``regkit.widgets``, networkx's ``graph._node``).  Allowed regardless: ``layers_support.PRIVATE_ALLOWLIST``.

4. **Inside ``regkit.client``, modules talk through public names** (no ``from .x import _name``, no
   ``obj._name`` the accessing module does not define), and **``Client`` is one class** (at most one regkit base
   class, and no class of the package declares members under ``if TYPE_CHECKING:`` — the mark of a mixin).

5. The checker is tested on small trees written to ``tmp_path`` (each rule caught, a clean tree clean), so the
   checks cannot pass by finding nothing.

Failures list every offence as ``path:line  what`` and say what to do.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import subprocess
import sys
import textwrap
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import layers_support as layers
import pytest
from layers_support import Finding, ScanError

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------- the real tree


@functools.cache
def root_scan() -> layers.Scan:
    """The scan of regkit/ (once per run: the lazy-table test is parametrized by it too)."""
    return layers.scan_tree(ROOT)


@pytest.fixture(scope="module")
def scan() -> layers.Scan:
    try:
        return root_scan()
    except ScanError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="module")
def contracts() -> dict[str, dict[str, Any]]:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    return layers.contracts(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")))


def fail_with(findings: list[Finding] | list[str], problem: str, todo: str) -> None:
    """Fail listing every finding, with what the problem is and what to do."""
    if findings:
        listing = "\n".join(f"  {finding}" for finding in findings)
        pytest.fail(f"{len(findings)} {problem}:\n{listing}\n\nWhat to do: {todo}", pytrace=False)


def test_the_contracts_hold() -> None:
    pytest.importorskip("importlinter", reason="import-linter (the dev extra) runs the layer contracts")
    run = [
        sys.executable,
        "-c",
        "import sys, importlinter.cli as c; sys.exit(c.lint_imports(no_cache=True, no_logo=True))",
    ]
    result = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        pytest.fail(
            f"lint-imports: a layer contract of pyproject.toml is broken\n{result.stdout}{result.stderr}\n"
            "What to do: make the dependency point downward (move the shared code into the lower layer, or have "
            "the lower layer take an object or a callable); break a cycle by moving what both sides need into a "
            "module both can import. An exception is an ignore_imports entry with its reason, lazy or type-only.",
            pytrace=False,
        )


def test_readme_layout_draws_the_contract_layers(contracts: dict[str, dict[str, Any]], scan: layers.Scan) -> None:
    layers_contract = contracts["layers"]
    [container] = layers_contract["containers"]
    ranks = {
        tail: rank
        for rank, layer in enumerate(layers.contract_layers(layers_contract))
        for tail, optional in layer
        if not optional or f"{container}.{tail}" in scan.modules
    }
    drawn = layers.readme_packages((ROOT / "README.md").read_text(encoding="utf-8"), container)
    contract = sorted(ranks, key=lambda tail: (ranks[tail], tail))
    if sorted(drawn) != sorted(contract) or [ranks[tail] for tail in drawn] != sorted(ranks[tail] for tail in drawn):
        pytest.fail(
            f"README.md's Layout draws {', '.join(drawn)}; the layers contract in pyproject.toml lists "
            f"{', '.join(contract)}.\nWhat to do: draw each package of the contract in the Layout picture "
            f"('{container}/<package>/  <what it is>'), top to bottom as the contract lists its layers.",
            pytrace=False,
        )


def test_ignored_imports_are_lazy_or_type_only(contracts: dict[str, dict[str, Any]], scan: layers.Scan) -> None:
    fail_with(
        layers.eager_ignored_imports(scan, layers.ignored_imports(contracts)),
        "import(s) a contract lets pass that run when their module is imported",
        "import inside the method that needs it (or under `if TYPE_CHECKING:` for an annotation); an exception "
        "to the layers is lazy, so importing the lower layer does not import the upper one.",
    )


def test_every_import_is_one_lint_imports_sees(scan: layers.Scan) -> None:
    fail_with(
        layers.dynamic_imports(scan),
        "import(s) of regkit that lint-imports cannot see",
        "use an import statement (inside a function if it must be lazy), or a package's lazy table.",
    )


def lazy_table(package: ModuleType) -> tuple[dict[str, str], tuple[str, ...]]:
    """The ``exports`` and ``submodules`` a package gave ``lazy_exports`` (the closure of its ``__getattr__``)."""
    captured = inspect.getclosurevars(package.__getattr__).nonlocals
    return dict(captured["exports"]), tuple(captured["submodules"])


@pytest.mark.parametrize("name", layers.lazy_export_packages(root_scan()))
def test_lazy_tables_point_at_their_homes(name: str) -> None:
    package = importlib.import_module(name)
    exports, submodules = lazy_table(package)
    problems = [
        f"{name}.{sub}: no such module" for sub in submodules if importlib.util.find_spec(f"{name}.{sub}") is None
    ]
    for export, home in sorted(exports.items()):
        try:
            module = importlib.import_module(home)
        except ImportError as error:
            problems.append(f"{name}.{export} → {home}, which cannot be imported: {error}")
            continue
        if not hasattr(module, export):
            problems.append(f"{name}.{export} → {home}, which has no {export}")
        elif name == layers.PACKAGE:  # the facade: a public package that exports the name
            if any(part.startswith("_") for part in home.split(".")) or export not in getattr(module, "__all__", ()):
                problems.append(f"{name}.{export} → {home}, which does not export it publicly (__all__)")
        elif not home.startswith(f"{name}."):
            problems.append(f"{name}.{export} → {home}: outside {name}, an import lint-imports does not see")
        else:
            value = getattr(module, export)
            defined = getattr(value, "__module__", home)
            # a name defined in regkit.schema (below every layer) may be exported by the module of the package that
            # names it in __all__ (regkit.frames.identity: the identity rule the local register shares)
            shared = defined.startswith("regkit.schema.") and export in getattr(module, "__all__", ())
            if isinstance(value, (type, FunctionType)) and defined != home and not shared:
                problems.append(f"{name}.{export} → {home}, but it is defined in {defined}")
    fail_with(
        problems,
        f"entry(ies) of {name}'s lazy table that do not point at their home",
        "point each name at the module that defines it (the facade: at the public package that exports it).",
    )


def test_no_private_reach_between_client_modules(scan: layers.Scan) -> None:
    fail_with(
        layers.private_reaches_within(scan, "regkit.client"),
        "private name(s) one module of regkit.client takes from another",
        "give the collaborator a public method (the name stays out of __all__ if it is not API), or pass the "
        "value in: modules of the client talk through public names only.",
    )


def test_client_is_one_class(scan: layers.Scan) -> None:
    home = importlib.import_module("regkit.client").Client.__module__
    bases, problems = layers.class_shape(scan, home, "Client")
    fail_with(
        problems,
        f"regkit.client.Client ({home}, bases: {', '.join(bases) or 'none'}) is not one class",
        "define every public method on Client itself (delegating to per-resource functions or collaborators it "
        "owns); no mixins, no class declaring members another class provides.",
    )


def test_no_private_imports_across_packages(scan: layers.Scan) -> None:
    fail_with(
        layers.private_imports(scan),
        "import(s) of another top-level package's private module or name",
        "import a public name instead: make it public (drop the underscore, add it to __all__) in the "
        "owning package, or move the code that needs it into that package.",
    )


def test_no_private_attribute_reach(scan: layers.Scan) -> None:
    fail_with(
        layers.private_attribute_reaches(scan),
        "access(es) to private attributes that the accessing package does not define",
        "use or add a public method/property in the owning package (or a public API of the library); "
        "only if there is truly none, add '<module>._name' with its reason to PRIVATE_ALLOWLIST in "
        "tests/layers_support.py.",
    )


# ----------------------------------------------------------------------------------- the checker, on small trees

CLEAN = {
    "regkit/__init__.py": """
        from ._lazy import lazy_exports
        __all__, __getattr__, __dir__ = lazy_exports(__name__, {"Client": "regkit.client"})
    """,
    "regkit/_lazy.py": """
        import importlib
        def lazy_exports(package, exports, submodules=()):
            return [], importlib.import_module, list
    """,
    "regkit/cli.py": """
        import importlib
        def main(name):
            return importlib.import_module(name)
    """,
    "regkit/widgets/explorer.py": """
        import regkit.frames
        from regkit.client import Client
        class Explorer:
            def __init__(self, client: Client):
                self._client = client
            def load(self):
                return self._client.get(), self._repr_html_()
            def _repr_html_(self):
                return ""
    """,
    "regkit/frames/histories.py": """
        import importlib
        from regkit.schema import STATUSES
        def history(record):
            return importlib.import_module("pyarrow"), record._replace(x=1), STATUSES
    """,
    "regkit/frames/_card.py": "def _row(record):\n    return record\n",
    "regkit/graph/crawl.py": """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from regkit.client import Client
        def crawl(client: "Client"):
            return client.get()
    """,
    "regkit/client/__init__.py": "from .core import Client\n",
    "regkit/client/core.py": """
        import argparse
        from regkit.schema import STATUSES
        from .transport import call as _call
        class Client:
            _cache_key = None
            def __init__(self):
                self._caller = _call.Caller()
            def get(self, other=None):
                if other is not None:
                    return other._caller
                return STATUSES
            def history(self):
                from regkit.frames.histories import history
                return history(self)
        def add_commands(subparsers: argparse._SubParsersAction) -> None:
            pass
    """,
    "regkit/client/transport/__init__.py": "",
    "regkit/client/transport/call.py": "class Caller:\n    pass\n",
    "regkit/schema/__init__.py": "STATUSES = ('ACTIVE',)\n",
}

#: The ignore_imports of a contract over CLEAN, as read from pyproject.toml.
IGNORED = [("layers", "regkit.client.core", "regkit.frames.*"), ("graph", "regkit.graph.**", "regkit.client")]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (path → source, dedented) under ``root``; return ``root``."""
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def check(tmp_path: Path, changes: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Every check's findings on the clean tree with ``changes`` applied."""
    scan = layers.scan_tree(write_tree(tmp_path, {**CLEAN, **(changes or {})}))
    return {
        "eager_ignored": [str(f) for f in layers.eager_ignored_imports(scan, IGNORED)],
        "dynamic": [str(f) for f in layers.dynamic_imports(scan)],
        "private_imports": [str(f) for f in layers.private_imports(scan)],
        "private_attributes": [str(f) for f in layers.private_attribute_reaches(scan)],
        "client_private": [str(f) for f in layers.private_reaches_within(scan, "regkit.client")],
    }


def only(findings: dict[str, list[str]], kind: str) -> list[str]:
    """The findings of ``kind``, asserting every other check found nothing."""
    others = {k: v for k, v in findings.items() if k != kind and v}
    assert not others, others
    return findings[kind]


def test_clean_tree_is_clean(tmp_path: Path) -> None:
    findings = check(tmp_path)
    assert not any(findings.values()), findings
    scan = layers.scan_tree(tmp_path)
    # … and clean because everything was seen, not because nothing was:
    seen = {(ref.importer, ref.target, ref.in_function, ref.type_only) for ref in scan.refs}
    assert ("regkit.client.core", "regkit.frames.histories", True, False) in seen
    assert ("regkit.graph.crawl", "regkit.client", False, True) in seen
    assert layers.lazy_export_packages(scan) == ["regkit"]


def test_eager_ignored_import_is_caught(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/client/core.py": "from regkit.frames.histories import history\n",
                "regkit/graph/crawl.py": "from regkit.client import Client\n",
            },
        ),
        "eager_ignored",
    )
    assert found == [
        "regkit/client/core.py:1  from regkit.frames.histories import history: contract 'layers' ignores "
        "regkit.client.core -> regkit.frames.*, which must stay lazy (inside a function) or type-only (under if "
        "TYPE_CHECKING:)",
        "regkit/graph/crawl.py:1  from regkit.client import Client: contract 'graph' ignores regkit.graph.** -> "
        "regkit.client, which must stay lazy (inside a function) or type-only (under if TYPE_CHECKING:)",
    ]


def test_dynamic_imports_of_regkit_below_the_facade_are_caught(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/client/retry.py": """
        import importlib
        _FRAMES = "regkit.frames"
        def later(name):
            return importlib.import_module(_FRAMES), __import__("regkit.graph"), importlib.import_module(name)
    """
            },
        ),
        "dynamic",
    )
    assert [finding.split(": ")[0] for finding in found] == [
        "regkit/client/retry.py:5  __import__('regkit.graph')",
        "regkit/client/retry.py:5  importlib.import_module(_FRAMES)",
        "regkit/client/retry.py:5  importlib.import_module(name)",
    ]


def test_contracts_and_readme_are_read() -> None:
    contract = {"layers": ["widgets : plot", "client", "local | (common)", "errors"]}
    assert layers.contract_layers(contract) == [
        [("widgets", False), ("plot", False)],
        [("client", False)],
        [("local", False), ("common", True)],
        [("errors", False)],
    ]
    assert layers.ignored_imports({"c": {"ignore_imports": ["a.b -> a.c.*"]}, "d": {}}) == [("c", "a.b", "a.c.*")]
    assert layers.expression_pattern("regkit.graph.**").match("regkit.graph.a.b")
    assert not layers.expression_pattern("regkit.frames.*").match("regkit.frames.a.b")
    readme = "# x\n\n## Layout\n\n```\nregkit/plot/     views\nregkit/errors.py errors\nregkit/*.py  the facade\n```\n"
    assert layers.readme_packages(readme) == ["plot", "errors"]
    assert layers.readme_packages(readme.replace("## Layout", "## Files")) == []


def test_private_imports_across_packages_are_caught(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/graph/build.py": "from regkit.frames._card import _row\nfrom regkit.frames import _card\n",
                "regkit/widgets/render.py": "import regkit.client.core\nX = regkit.client.core._private\n",
            },
        ),
        "private_imports",
    )
    assert found == [
        "regkit/graph/build.py:1  from regkit.frames._card import _row: _card, _row is private to regkit.frames",
        "regkit/graph/build.py:2  from regkit.frames import _card: _card is private to regkit.frames",
        "regkit/widgets/render.py:2  regkit.client.core._private: _private is private to regkit.client",
    ]


def test_private_attribute_reach_is_caught(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/widgets/render.py": """
        import os
        def render(client, graph):
            os._exit(0)
            return client._caller.session, graph._node, super()._ok, client._cache_key
    """
            },
        ),
        "private_attributes",
    )
    assert found == [
        "regkit/widgets/render.py:4  os._exit: _exit is not defined in regkit.widgets, so it is another package's "
        "private name",
        "regkit/widgets/render.py:5  client._cache_key: _cache_key is not defined in regkit.widgets, so it is "
        "another package's private name",
        "regkit/widgets/render.py:5  client._caller: _caller is not defined in regkit.widgets, so it is another "
        "package's private name",
        "regkit/widgets/render.py:5  graph._node: _node is not defined in regkit.widgets, so it is another "
        "package's private name",
    ]


def test_a_private_allowlisted_in_one_module_is_a_finding_elsewhere(tmp_path: Path) -> None:
    use = "def fill(graph, nodes):\n    graph._node.update(nodes)\n"
    assert not any(check(tmp_path / "a", {"regkit/graph/builder.py": use}).values())
    assert only(check(tmp_path / "b", {"regkit/graph/crawl.py": use}), "private_attributes") == [
        "regkit/graph/crawl.py:2  graph._node: _node is not defined in regkit.graph, so it is another package's "
        "private name"
    ]


def test_private_names_of_the_own_package_are_no_reach_across_packages(tmp_path: Path) -> None:
    # transport reads client._caller and client._cache_key (both defined in regkit.client): not another package's
    # private names — but, inside regkit.client, another module's: the client's own rule catches them.
    findings = check(
        tmp_path,
        {
            "regkit/client/transport/call.py": """
        class Caller:
            def merge(self, client):
                return client._caller, client._cache_key
    """
        },
    )
    assert only(findings, "client_private") == [
        "regkit/client/transport/call.py:4  client._cache_key: _cache_key is not defined in regkit.client.transport.call",
        "regkit/client/transport/call.py:4  client._caller: _caller is not defined in regkit.client.transport.call",
    ]


def test_private_reach_between_client_modules_is_caught(tmp_path: Path) -> None:
    tree = {
        **CLEAN,
        "regkit/client/bulk.py": """
            from regkit.client.core import _price
            from . import _impl
            class Bulk:
                def __init__(self, client):
                    self._client = client
                def run(self):
                    return self._client._caller(), _price, _impl.helper(), self._own()
                def _own(self):
                    return 1
        """,
        "regkit/client/_impl.py": """
            def helper():
                return 1
        """,
    }
    write_tree(tmp_path, tree)
    found = [str(f) for f in layers.private_reaches_within(layers.scan_tree(tmp_path), "regkit.client")]
    assert len(found) == 2, found
    assert "_price is private to regkit.client.core" in found[0]
    assert "self._client._caller: _caller is not defined in regkit.client.bulk" in found[1]


def test_client_of_mixins_is_caught(tmp_path: Path) -> None:
    tree = {
        **CLEAN,
        "regkit/client/core.py": """
            from typing import TYPE_CHECKING
            from .searching import SearchMethods
            class Base:
                pass
            class Client(SearchMethods, Base):
                def get(self):
                    return {}
        """,
        "regkit/client/searching.py": """
            from typing import TYPE_CHECKING
            class SearchMethods:
                if TYPE_CHECKING:
                    def get(self): ...
                def search(self):
                    return self.get()
        """,
    }
    write_tree(tmp_path, tree)
    scan = layers.scan_tree(tmp_path)
    bases, problems = layers.class_shape(scan, "regkit.client.core", "Client")
    assert bases == ["SearchMethods", "Base"]
    assert problems[0] == "Client has 2 regkit base classes: SearchMethods, Base"
    assert problems[1].endswith("class SearchMethods declares members under TYPE_CHECKING")
    clean = layers.scan_tree(write_tree(tmp_path / "clean", CLEAN))
    assert layers.class_shape(clean, "regkit.client.core", "Client") == ([], [])
    assert layers.private_reaches_within(clean, "regkit.client") == []
