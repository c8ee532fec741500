"""regkit's architecture, kept honest: the layers README.md describes, checked on the source (statically).

The layers come from README.md's ``## Layout`` section, so changing the README changes this test:

* the flow sentence (``notebooks → views (`regkit.widgets`, `regkit.plot`) → analysis (…) → `regkit.client` →
  HTTP → live service or `regkit.local` …``) gives the layers top to bottom — each ``→`` part naming
  `` `regkit.x` `` packages is one layer, labelled by the word before its parenthesis (or by its one package);
* the fenced table (``regkit/frames/   analysis: …``) must agree with the labels, and a package it lists that the
  sentence does not (``regkit/schema/``: "the constants both sides share") must be described as shared: it goes
  below every layer.  Today: views (widgets, plot) → analysis (frames, graph) → client → local → schema.

The facade — the modules directly in ``regkit/`` (``__init__``, ``cli``, ``export_cli``, ``__main__``, ``_lazy``) — sits above
everything and may import anything.  Nothing may import it from below (``from regkit import Client`` in a layer
would be an upward import through the lazy table) except the helpers of ``layers_support.SHARED_FACADE_HELPERS``:
``regkit._lazy``, the helper every package ``__init__`` declares its lazy exports with, and ``regkit.errors``, the
error tree every layer raises; each must stay a leaf (it imports nothing of regkit, asserted below), so depending
on it cannot lead upward.

What counts as an import (``layers_support.scan_tree``): ``import`` / ``from … import`` at any depth (in
functions too; relative ones resolved; ``from P import name`` is an import of ``P.name`` when that is a module),
``importlib.import_module(…)`` / ``__import__(…)`` whose argument is a literal, a module constant, a loop
variable over a constant tuple, or an f-string (then its constant dotted prefix: ``f"regkit.frames.{m}"`` →
``regkit.frames``), and the lazy-export tables: the arguments of ``lazy_exports(package, exports,
submodules)`` are evaluated statically (``{name: f"regkit.frames.{home}" for name, home in _EXPORTS.items()}``
too), each entry being an import of its module at attribute-access time.  A module ``__getattr__`` made any other
way stops the scan with a message, so a new lazy mechanism cannot slip past.

Rules
-----
1. **No upward import.**  A module may import its own layer (frames ↔ graph, widgets ↔ plot) and lower ones.
   Lazy imports (in functions, ``import_module``, lazy tables) count: they are imports all the same.
   ``if TYPE_CHECKING:`` imports obey the same rule but are a test of their own
   (``test_no_upward_type_only_import``), so a failure says which kind it is: a type-only upward import does
   not run, but still ties the lower layer's code to the upper one's (its annotations name the upper layer).
2. **No import cycle between modules.**  Graph: module → module for every import that runs (lazy ones
   included — a function-level import hides a cycle, it does not remove it — and ``TYPE_CHECKING`` ones too:
   they never run, but two modules that name each other's types cannot be read, typed or moved apart).  Importing a package is
   importing its ``__init__``; no implicit edge to parent packages (else every submodule would form a
   cycle with its package's ``__init__``).  Re-export rule: a module importing a name *from a package it lies
   in* (``from regkit.graph import from_companies`` inside ``regkit.graph.crawler``) depends on the module the
   ``__init__`` re-exports the name from (its ``from .x import name`` or lazy table), not on the ``__init__``
   — so ``__init__`` → submodule re-export edges do not by themselves make a cycle with a submodule that takes
   a sibling's name through the package.  A name defined in the ``__init__`` itself, or a bare ``import P``,
   stays an edge to the ``__init__`` (a real cycle if the ``__init__`` imports the importer).  Imports of a
   package from *outside* it stay edges to its ``__init__``, since Python runs it.  Imports that cannot
   succeed (a module that does not exist, a name its package binds nowhere) and f-string ``import_module``
   targets (only a prefix is known) make no edge.  A strongly connected component of more than one module is a
   failure, listed with one cycle through it and every import inside.
3. **No reach into another package's private names** ("package" = top-level package: ``regkit.client``
   includes ``regkit.client.transport``, ``regkit.local`` includes ``regkit.local.world``; the facade is one
   package).  Private = one leading underscore; ``__dunder__`` and ``_sunder_`` names (``_repr_html_``, the
   IPython display protocol; enum's ``_value_``) are protocols, not private.

   a. ``from regkit.x… import _name``, ``import regkit.x._mod`` (also lazily), ``regkit.x._name`` in code, from
      another top-level package.
   b. ``expr._name`` where ``expr`` is not ``self`` / ``cls`` / ``super()`` and no module of the accessing
      module's top-level package defines ``_name`` (function, class, module global, class attribute or
      dataclass field, ``self._name = …``, parameter, ``__slots__`` entry, ``setattr(obj, "_name", …)``):
      then it belongs to someone else (``client._caller`` in ``regkit.widgets``, networkx's ``graph._node``).
      Allowed regardless: ``layers_support.PRIVATE_ALLOWLIST`` — namedtuple's ``_replace`` / ``_asdict`` /
      ``_fields`` / ``_make`` / ``_field_defaults`` (documented public API) and ``argparse._SubParsersAction``
      (the type ``add_subparsers()`` returns has no public name).

4. **Inside ``regkit.client``, modules talk through public names** (``test_no_private_reach_between_client_modules``:
   no ``from .x import _name``, no ``obj._name`` the accessing module does not define), and **``Client`` is one
   class** (``test_client_is_one_class``: at most one regkit base class, and no class of the package declares
   members under ``if TYPE_CHECKING:`` — the mark of a mixin expecting its host's members).

5. The checker is tested on small trees written to ``tmp_path`` (each rule caught, a clean tree clean), so the
   checks cannot pass by finding nothing.

Failures list every offence as ``path:line  what`` and say what to do.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import layers_support as layers
import pytest
from layers_support import Finding, Layering, LayoutError, ScanError

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------- the real tree


@pytest.fixture(scope="module")
def layering() -> Layering:
    try:
        return layers.parse_layering((ROOT / "README.md").read_text(encoding="utf-8"))
    except LayoutError as error:
        pytest.fail(
            f"README.md's '## Layout' section cannot be read as a layering: {error}.\n"
            f"tests/layers_support.py:parse_layering expects the fenced table of 'regkit/<package>/  "
            f"<label>: …' rows and one sentence 'notebooks → views (`regkit.widgets`, …) → … → "
            f"`regkit.local`'; fix the README or the parser.",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def scan() -> layers.Scan:
    try:
        return layers.scan_tree(ROOT)
    except ScanError as error:
        pytest.fail(str(error), pytrace=False)


def fail_with(findings: list[Finding] | list[str], problem: str, todo: str) -> None:
    """Fail listing every finding, with what the problem is and what to do."""
    if findings:
        listing = "\n".join(f"  {finding}" for finding in findings)
        pytest.fail(f"{len(findings)} {problem}:\n{listing}\n\nWhat to do: {todo}", pytrace=False)


def test_readme_layering_is_read(layering: Layering) -> None:
    assert len(layering.layers) >= 2, layering.describe()
    assert all(packages for _, packages in layering.layers)


def test_every_package_has_a_layer(scan: layers.Scan, layering: Layering) -> None:
    fail_with(
        layers.unlayered_packages(scan, layering),
        f"package(s) of regkit in no layer of README.md's Layout ({layering.describe()})",
        "add the package to the Layout table and to the flow sentence (or describe it as shared).",
    )


def test_no_upward_import(scan: layers.Scan, layering: Layering) -> None:
    fail_with(
        layers.upward_imports(scan, layering, type_only=False),
        f"upward import(s) — the layers are {layering.describe()} (facade above all)",
        "make the dependency point downward: move the shared code into the lower layer, or invert it "
        "(the lower layer defines a hook or takes a callable/object, the upper layer supplies it). "
        "Importing inside a function or through import_module does not make an upward import acceptable.",
    )


def test_no_upward_type_only_import(scan: layers.Scan, layering: Layering) -> None:
    fail_with(
        layers.upward_imports(scan, layering, type_only=True),
        f"upward import(s) under `if TYPE_CHECKING:` — the layers are {layering.describe()}",
        "the lower layer should not name the upper layer's types: annotate with a Protocol or a type "
        "defined in the lower layer (or Any), or move the type down.",
    )


def test_no_import_cycles(scan: layers.Scan) -> None:
    cycles = layers.import_cycles(scan)
    fail_with(
        [str(cycle) for cycle in cycles],
        "import cycle(s) between modules (lazy and TYPE_CHECKING imports counted)",
        "break each cycle: move what both sides need into a module both can import, or have one side "
        "receive the object instead of importing its module. A submodule should import its siblings "
        "directly (from .x import name), not through a name defined in its package's __init__.",
    )


def test_no_private_reach_between_client_modules(scan: layers.Scan) -> None:
    fail_with(
        layers.private_reaches_within(scan, "regkit.client"),
        "private name(s) one module of regkit.client takes from another",
        "give the collaborator a public method (the name stays out of __all__ if it is not API), or pass the "
        "value in: modules of the client talk through public names only.",
    )


def test_client_is_one_class(scan: layers.Scan) -> None:
    home = layers.export_homes(scan)["regkit.client"]["Client"]
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


def test_shared_facade_helpers_are_leaves(scan: layers.Scan) -> None:
    missing = sorted(set(layers.SHARED_FACADE_HELPERS) - set(scan.modules))
    assert not missing, f"SHARED_FACADE_HELPERS names modules that do not exist: {missing}"
    defines = layers.defined_names(scan.modules["regkit._lazy"].tree)
    assert layers.LAZY_HELPER in defines, (
        f"regkit/_lazy.py no longer defines {layers.LAZY_HELPER}; update "
        f"LAZY_HELPER and the lazy-table scan in tests/layers_support.py"
    )
    fail_with(
        layers.facade_helper_imports(scan),
        "import(s) of regkit in a facade helper the layers may import",
        "keep the facade helpers (regkit._lazy, regkit.errors) free of regkit imports (standard library only), "
        "or stop importing them from below.",
    )


# ----------------------------------------------------------------------------------- the checker, on small trees

README = """\
# regkit

## Layout

```
regkit/widgets/  views: explorers
regkit/frames/   analysis: frames
regkit/graph/    analysis: graphs
regkit/client/   the interface: one method per endpoint
regkit/local/    the local register
regkit/schema/   the constants both sides share
docs/            the docs
```

Data flows downward — notebooks → views (`regkit.widgets`) → analysis (`regkit.frames`,
`regkit.graph`) → `regkit.client` → HTTP → live service or `regkit.local` — and nothing imports upward.

## Next
"""

CLEAN = {
    "regkit/__init__.py": """
        from ._lazy import lazy_exports
        _EXPORTS = {name: "regkit.client" for name in ("Client",)}
        _EXPORTS["crawl"] = "regkit.graph"
        __all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, ("frames", "widgets"))
    """,
    "regkit/_lazy.py": """
        import importlib
        def lazy_exports(package, exports, submodules=()):
            return [], importlib.import_module, list
    """,
    "regkit/cli.py": """
        import importlib
        _COMMANDS = ("regkit.local.cli", "regkit.client.cli")
        def main():
            for name in _COMMANDS:
                importlib.import_module(name)
    """,
    "regkit/widgets/__init__.py": """
        from regkit._lazy import lazy_exports
        _EXPORTS = {"Explorer": "regkit.widgets.explorer"}
        __all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
    """,
    "regkit/widgets/explorer.py": """
        import regkit.frames
        from regkit.client import Client
        class Explorer:
            def __init__(self, client: Client):
                self._client = client
            def load(self):
                from regkit.graph import build
                return self._client.get(), build.from_records([]), self._repr_html_()
            def _repr_html_(self):
                return ""
    """,
    "regkit/frames/__init__.py": """
        from regkit._lazy import lazy_exports
        _EXPORTS = {"history": "histories", "card": "_card", "panel": "panels"}
        __all__, __getattr__, __dir__ = lazy_exports(__name__, {n: f"regkit.frames.{m}" for n, m in _EXPORTS.items()})
    """,
    "regkit/frames/histories.py": """
        import importlib
        from regkit.graph.build import from_records
        from regkit.schema import STATUSES
        def history(record):
            card = importlib.import_module("regkit.frames._card")
            return card, from_records, STATUSES
    """,
    "regkit/frames/panels.py": """
        from regkit.frames import history
        def panel(record):
            return history(record)
    """,
    "regkit/frames/_card.py": """
        def _row(record):
            return record._replace(x=1)
    """,
    "regkit/graph/__init__.py": """
        from .build import from_records
        from .crawl import crawl
    """,
    "regkit/graph/build.py": """
        def from_records(records):
            return records
    """,
    "regkit/graph/crawl.py": """
        from typing import TYPE_CHECKING
        from regkit.graph import from_records
        if TYPE_CHECKING:
            from regkit.client import Client
        def crawl(client: "Client"):
            return from_records(client.get())
    """,
    "regkit/client/__init__.py": """
        from .core import Client
    """,
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
        def add_commands(subparsers: argparse._SubParsersAction) -> None:
            pass
    """,
    "regkit/client/transport/__init__.py": "",
    "regkit/client/transport/call.py": """
        from regkit.local import adapter
        class Caller:
            pass
    """,
    "regkit/local/__init__.py": "",
    "regkit/local/adapter.py": """
        from regkit.schema import STATUSES
        from regkit.local.world import _seed
    """,
    "regkit/local/world/__init__.py": """
        def __getattr__(name):
            from . import _seed
            return getattr(_seed, name)
    """,
    "regkit/local/world/_seed.py": "SEED = 1\n",
    "regkit/schema/__init__.py": "STATUSES = ('ACTIVE',)\n",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (path → source, dedented) under ``root``; return ``root``."""
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def check(tmp_path: Path, changes: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Every check's findings on the clean tree with ``changes`` applied (``""`` deletes nothing: empty file)."""
    scan = layers.scan_tree(write_tree(tmp_path, {**CLEAN, **(changes or {})}))
    layering = layers.parse_layering(README)
    return {
        "unlayered": layers.unlayered_packages(scan, layering),
        "upward": [str(f) for f in layers.upward_imports(scan, layering, type_only=False)],
        "upward_type_only": [str(f) for f in layers.upward_imports(scan, layering, type_only=True)],
        "cycles": [str(c) for c in layers.import_cycles(scan)],
        "private_imports": [str(f) for f in layers.private_imports(scan)],
        "private_attributes": [str(f) for f in layers.private_attribute_reaches(scan)],
        "facade_helpers": [str(f) for f in layers.facade_helper_imports(scan)],
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
    seen = {(ref.importer, ref.target, ref.how) for ref in scan.refs}
    assert ("regkit.frames", "regkit.frames.histories", "lazy export") in seen
    assert ("regkit.frames.histories", "regkit.frames._card", "import_module") in seen
    assert ("regkit.cli", "regkit.client.cli", "import_module") in seen
    assert ("regkit", "regkit.frames", "lazy submodule") in seen
    assert ("regkit.widgets.explorer", "regkit.graph.build", "from") in seen  # in a function
    assert ("regkit.graph.crawl", "regkit.client", "from") in seen  # type-only
    # the re-export rule: frames.panels takes `history` through its package, whose lazy table leads to histories
    assert ("regkit.frames.panels", "regkit.frames.histories") in layers.import_graph(scan).edges
    assert ("regkit.frames.panels", "regkit.frames") not in layers.import_graph(scan).edges


def test_upward_import_is_caught(tmp_path: Path) -> None:
    found = only(
        check(tmp_path, {"regkit/schema/__init__.py": "from regkit.graph.build import from_records\n"}), "upward"
    )
    assert found == [
        "regkit/schema/__init__.py:1  from regkit.graph.build import from_records: schema imports analysis, above it"
    ]


def test_relative_upward_import_is_caught(tmp_path: Path) -> None:
    found = check(tmp_path, {"regkit/client/retry.py": "from .. import widgets\n"})["upward"]
    assert found == ["regkit/client/retry.py:1  from regkit import widgets: client imports views, above it"]


def test_lazy_upward_imports_are_caught(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/client/retry.py": """
        import importlib
        _FRAMES = "regkit.frames"
        def later():
            import regkit.widgets.explorer
            return importlib.import_module(_FRAMES), __import__("regkit.graph.build")
        def prefix(name):
            return importlib.import_module(f"regkit.widgets.{name}")
    """
            },
        ),
        "upward",
    )
    assert found == [
        "regkit/client/retry.py:5  import regkit.widgets.explorer (inside a function): client imports views, above it",
        "regkit/client/retry.py:6  __import__('regkit.graph.build') (inside a function): client imports analysis, above it",
        "regkit/client/retry.py:6  import_module('regkit.frames') (inside a function): client imports analysis, above it",
        "regkit/client/retry.py:8  import_module('regkit.widgets.…') (inside a function): client imports views, "
        "above it",
    ]


def test_lazy_table_upward_is_caught(tmp_path: Path) -> None:
    found = check(
        tmp_path,
        {
            "regkit/client/__init__.py": """
        from regkit._lazy import lazy_exports
        _HOMES = {"Client": "regkit.client.core"}
        _HOMES.update({"Explorer": "regkit.widgets.explorer"})
        __all__, __getattr__, __dir__ = lazy_exports(__name__, _HOMES)
    """
        },
    )["upward"]
    assert found == [
        "regkit/client/__init__.py:4  lazy export 'Explorer' → regkit.widgets.explorer (inside a "
        "function): client imports views, above it"
    ]


def test_importing_the_facade_from_below_is_upward(tmp_path: Path) -> None:
    found = check(tmp_path, {"regkit/graph/build.py": "from regkit import Client\n"})["upward"]
    assert found == ["regkit/graph/build.py:1  from regkit import Client: analysis imports facade, above it"]


def test_type_only_upward_import_is_reported_apart(tmp_path: Path) -> None:
    found = only(
        check(
            tmp_path,
            {
                "regkit/client/retry.py": """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from regkit.frames.histories import history
        else:
            history = None
    """
            },
        ),
        "upward_type_only",
    )
    assert found == [
        "regkit/client/retry.py:4  from regkit.frames.histories import history (TYPE_CHECKING): "
        "client imports analysis, above it"
    ]


def test_cycle_through_a_lazy_import_is_caught(tmp_path: Path) -> None:
    findings = check(
        tmp_path,
        {
            "regkit/graph/build.py": """
        def from_records(records):
            from regkit.frames import histories
            return records
    """
        },
    )
    [cycle] = only(findings, "cycles")
    assert cycle.splitlines()[0] == (
        "2 modules: regkit.frames.histories → regkit.graph.build → regkit.frames.histories"
    )
    assert "regkit/graph/build.py:3  from regkit.frames import histories (inside a function)" in cycle
    assert "regkit/frames/histories.py:3  from regkit.graph.build import from_records" in cycle


def test_type_only_imports_make_a_cycle_too(tmp_path: Path) -> None:
    findings = check(
        tmp_path,
        {
            "regkit/graph/build.py": """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from regkit.frames.histories import history
    """
        },
    )
    [cycle] = only(findings, "cycles")
    assert cycle.splitlines()[0] == "2 modules: regkit.frames.histories → regkit.graph.build → regkit.frames.histories"
    assert "(TYPE_CHECKING)" in cycle


def test_reexports_alone_make_no_cycle_but_names_of_the_init_do(tmp_path: Path) -> None:
    # regkit.graph.crawl takes from_records through its package, whose __init__ imports crawl: no cycle (CLEAN).
    # A name the __init__ itself defines is a real cycle:
    findings = check(
        tmp_path,
        {
            "regkit/graph/__init__.py": "from .build import from_records\nfrom .crawl import crawl\nLIMIT = 3\n",
            "regkit/graph/crawl.py": "from regkit.graph import LIMIT\ndef crawl(client):\n    return LIMIT\n",
        },
    )
    [cycle] = only(findings, "cycles")
    assert cycle.splitlines()[0] == "2 modules: regkit.graph → regkit.graph.crawl → regkit.graph"


def test_imports_that_cannot_succeed_make_no_edge(tmp_path: Path) -> None:
    findings = check(
        tmp_path,
        {
            "regkit/graph/crawl.py": "from regkit.graph import missing\nfrom regkit.graph.gone import x\n",
        },
    )
    assert not any(findings.values()), findings


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


def test_only_the_sanctioned_lazy_upward_import_passes(tmp_path: Path) -> None:
    lazy = """
        def history(self, field):
            from regkit.frames.histories import history
            return history(self, field)
    """
    assert not any(check(tmp_path / "a", {"regkit/client/frame_methods.py": lazy}).values())
    eager = "from regkit.frames.histories import history\n"
    assert only(check(tmp_path / "b", {"regkit/client/frame_methods.py": eager}), "upward") == [
        "regkit/client/frame_methods.py:1  from regkit.frames.histories import history: client imports analysis, "
        "above it"
    ]
    elsewhere = only(check(tmp_path / "c", {"regkit/client/records.py": lazy}), "upward")
    assert elsewhere == [
        "regkit/client/records.py:3  from regkit.frames.histories import history (inside a function): "
        "client imports analysis, above it"
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


def test_type_only_cycle_is_caught(tmp_path: Path) -> None:
    tree = {
        **CLEAN,
        "regkit/graph/build.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from regkit.graph.crawl import crawl
            def from_records(records):
                return records
        """,
    }
    write_tree(tmp_path, tree)
    scan = layers.scan_tree(tmp_path)
    assert layers.import_cycles(scan, type_only=False) == []
    (cycle,) = layers.import_cycles(scan)
    assert cycle.modules == ("regkit.graph.build", "regkit.graph.crawl")


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


def test_facade_helper_must_stay_a_leaf(tmp_path: Path) -> None:
    found = check(
        tmp_path,
        {
            "regkit/_lazy.py": "from regkit.schema import STATUSES\n"
            "def lazy_exports(package, exports, submodules=()):\n"
            "    return [], None, None\n"
        },
    )["facade_helpers"]
    assert found == [
        "regkit/_lazy.py:1  from regkit.schema import STATUSES: regkit._lazy must import nothing of regkit"
    ]


def test_unknown_lazy_mechanism_stops_the_scan(tmp_path: Path) -> None:
    write_tree(tmp_path, {**CLEAN, "regkit/plot.py": "__getattr__ = make_lazy({'x': 'regkit.widgets'})\n"})
    with pytest.raises(ScanError, match=r"regkit/plot.py:1: module __getattr__ made by"):
        layers.scan_tree(tmp_path)


def test_unevaluable_lazy_table_stops_the_scan(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **CLEAN,
            "regkit/widgets/__init__.py": """
        from regkit._lazy import lazy_exports
        __all__, __getattr__, __dir__ = lazy_exports(__name__, load_table())
    """,
        },
    )
    with pytest.raises(ScanError, match=r"regkit/widgets/__init__.py:3: cannot evaluate the arguments of lazy_exports"):
        layers.scan_tree(tmp_path)


def test_unlayered_package_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, {"regkit/extras/__init__.py": ""})["unlayered"] == ["extras"]


def test_layering_follows_the_readme() -> None:
    layering = layers.parse_layering(README)
    assert layering.describe() == "views (widgets) → analysis (frames, graph) → client → local → schema"
    swapped = README.replace(
        "views (`regkit.widgets`) → analysis (`regkit.frames`,\n`regkit.graph`)",
        "analysis (`regkit.frames`,\n`regkit.graph`) → views (`regkit.widgets`)",
    )
    assert swapped != README
    assert layers.parse_layering(swapped).describe() == (
        "analysis (frames, graph) → views (widgets) → client → local → schema"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("## Layout", "## Files", "no '## Layout' section"),
        ("```\nregkit/widgets/", "regkit/widgets/", "no fenced block"),
        (
            "regkit/schema/   the constants both sides share",
            "regkit/schema/   the constants",
            "not described as shared",
        ),
        ("regkit/frames/   analysis:", "regkit/frames/   views:", "calls regkit/frames/ 'views'"),
        (" → `regkit.client`", "", "regkit/client/: in the table but in no layer"),
        ("`regkit.widgets`)", "`regkit.widgets`, `regkit.plot`)", "`regkit.plot`, which the table does not list"),
        ("Data flows downward — notebooks", "Data — notebooks", "does not say which way is down"),
    ],
)
def test_unreadable_layout_fails_clearly(old: str, new: str, message: str) -> None:
    assert old in README
    with pytest.raises(LayoutError, match=message):
        layers.parse_layering(README.replace(old, new, 1))
