"""The checks behind ``tests/test_layers.py`` that import-linter cannot make, on the source (``ast``; nothing of
regkit is imported here).

The layers themselves are import-linter contracts in ``pyproject.toml`` (``[tool.importlinter]``, run by
``lint-imports``). This module holds the rest:

* **The contracts, read** — :func:`contracts`, :func:`contract_layers`, :func:`ignored_imports`, and the packages
  README.md's ``## Layout`` picture draws (:func:`readme_packages`), so a test can hold the picture to the contracts.
* **The scan** — :func:`scan_tree` parses every ``regkit/**/*.py`` and collects its ``import`` / ``from … import``
  statements as :class:`ImportRef`\\ s, each marked inside a function or under ``if TYPE_CHECKING:``.
* **The checks** — imports a contract ignores that are not lazy (:func:`eager_ignored_imports`), imports
  import-linter cannot see (:func:`dynamic_imports`), private names taken from another package
  (:func:`private_imports`, :func:`private_attribute_reaches`) or from another module of ``regkit.client``
  (:func:`private_reaches_within`), and the shape of ``Client`` (:func:`class_shape`). Each returns
  :class:`Finding`\\ s (``path:line  what``).

The rules themselves are documented in ``tests/test_layers.py``.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = "regkit"

#: The helper package ``__init__``s declare their lazy exports with (``regkit/_lazy.py``).
LAZY_HELPER = "lazy_exports"

#: Modules directly in ``regkit/`` that every layer may import, with why; a contract keeps each a leaf (it imports
#: nothing of regkit), so their names are no reach into another package's private ones.
SHARED_FACADE_HELPERS = {
    "regkit._lazy": "the lazy-export helper every package __init__ is built on (standard library only)",
    "regkit.errors": "the error and warning tree every layer raises (standard library only)",
}

#: Private attributes of foreign code that may be used anyway: ``"*._name"`` (on any object) or
#: ``"module._name"`` (on that module), with why.  Keep it short; every entry needs a reason.
PRIVATE_ALLOWLIST = {
    "*._replace": "namedtuple API: documented and public, underscored only to avoid clashing with fields",
    "*._asdict": "namedtuple API: documented and public",
    "*._fields": "namedtuple API: documented and public",
    "*._make": "namedtuple API: documented and public",
    "*._field_defaults": "namedtuple API: documented and public",
    "argparse._SubParsersAction": "the type add_subparsers() returns has no public name (used in annotations)",
    # networkx documents its graph classes' dicts (_node, _succ, _pred) for subclassing; filling them at once
    # instead of add_nodes_from/add_edges_from takes 0.4 ms instead of 160 ms for the 5,000-company world, and
    # keeps from_companies over 100,000 companies within its 5 s target (benchmarks/bench_graph.py).  The
    # public path stays as the fallback for any other graph class.
    "regkit.graph.builder:graph._node": "networkx fast path (see above)",
    "regkit.graph.builder:graph._succ": "networkx fast path (see above)",
    "regkit.graph.builder:graph._pred": "networkx fast path (see above)",
    # waitress has no public way to run its loop one poll at a time or to close every channel on stop; the
    # local register's server needs both to stop cleanly (webtest's StopableWSGIServer does the same).
    "regkit.local.server:server._map": "waitress's socket map (no public stop)",
}


class ScanError(Exception):
    """A source file could not be analysed (a syntax error, a relative import beyond the package)."""


# --------------------------------------------------------------------------------------------------- the contracts


def contracts(pyproject: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The import-linter contracts of ``pyproject.toml`` (parsed), by ``id``."""
    return {contract["id"]: contract for contract in pyproject["tool"]["importlinter"]["contracts"]}


def contract_layers(contract: Mapping[str, Any]) -> list[list[tuple[str, bool]]]:
    """A layers contract's layers, top to bottom: each a list of ``(module tail, optional)``.

    ``"widgets : plot"`` and ``"local | (common)"`` are layers of two (``(name)``: optional, it need not exist).
    """
    layers = []
    for layer in contract["layers"]:
        tails = [tail.strip() for tail in re.split(r"[|:]", layer)]
        layers.append([(tail.strip("()"), tail.startswith("(")) for tail in tails])
    return layers


def ignored_imports(contracts: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str, str]]:
    """``(contract id, importer expression, imported expression)`` of every ``ignore_imports`` entry."""
    ignored = []
    for contract_id, contract in contracts.items():
        for expression in contract.get("ignore_imports", []):
            importer, _, imported = expression.partition("->")
            ignored.append((contract_id, importer.strip(), imported.strip()))
    return ignored


def expression_pattern(expression: str) -> re.Pattern[str]:
    """An import-linter module expression as a regular expression: ``*`` one module name, ``**`` one or more."""
    parts = [{"*": r"[^.]+", "**": r"[^.]+(?:\.[^.]+)*"}.get(part, re.escape(part)) for part in expression.split(".")]
    return re.compile(r"\.".join(parts) + r"\Z")


def readme_packages(readme: str, package: str = PACKAGE) -> list[str]:
    """The packages README.md's ``## Layout`` picture draws, in its order (``regkit/frames/`` → ``frames``,
    ``regkit/errors.py`` → ``errors``; the facade row ``regkit/*.py`` is no package)."""
    section = re.search(r"^## Layout[ \t]*\n(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    block = re.search(r"^```[^\n]*\n(.*?)^```", section.group(1) if section else "", flags=re.M | re.S)
    if block is None:
        return []
    return re.findall(rf"^{package}/(\w+)(?:/|\.py)\s", block.group(1), flags=re.M)


# ------------------------------------------------------------------------------------------------------- the scan


@dataclass(frozen=True)
class Module:
    """One source file: dotted name, path relative to the root, and its syntax tree."""

    name: str
    rel: str
    is_package: bool
    tree: ast.Module = field(repr=False, compare=False)

    @property
    def package(self) -> str:
        """The package relative imports start from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class ImportRef:
    """One imported module (or one name of a ``from … import``), as import-linter counts it.

    ``target`` is the module depended on: ``from P import name`` targets ``P.name`` when that is a module,
    else ``P`` (then ``source`` is ``P``).
    """

    importer: str
    rel: str
    lineno: int
    target: str
    how: str  # "import" or "from"
    source: str = ""  # P of ``from P import name``
    name: str | None = None  # the imported name
    bound: str | None = None  # the name it is bound to (``as``)
    in_function: bool = False
    type_only: bool = False

    @property
    def text(self) -> str:
        """How the import reads, resolved (``from regkit.client.core import Client (inside a function)``)."""
        text = f"import {self.target}" if self.how == "import" else f"from {self.source} import {self.name}"
        flags = [
            flag for flag, on in (("inside a function", self.in_function), ("TYPE_CHECKING", self.type_only)) if on
        ]
        return f"{text} ({', '.join(flags)})" if flags else text


@dataclass
class Scan:
    """Every module of the tree and every import in it."""

    root: Path
    modules: dict[str, Module]
    refs: list[ImportRef]

    def known(self, target: str) -> str | None:
        """The module of the tree ``target`` is or lies in (``regkit.a.b.NAME`` → ``regkit.a.b``), if any."""
        parts = target.split(".")
        while parts:
            name = ".".join(parts)
            if name in self.modules:
                return name
            parts.pop()
        return None


def load_modules(root: Path, package: str = PACKAGE) -> dict[str, Module]:
    """Parse every ``<root>/<package>/**/*.py`` (``__pycache__`` skipped)."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root).as_posix()
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        except SyntaxError as error:
            raise ScanError(f"{rel}:{error.lineno}: cannot parse: {error.msg}") from error
        modules[".".join(parts)] = Module(".".join(parts), rel, is_package, tree)
    if not modules:
        raise ScanError(f"no Python files under {root / package}")
    return modules


def scan_tree(root: Path, package: str = PACKAGE) -> Scan:
    """Load the tree and collect the imports of every module."""
    modules = load_modules(root, package)
    refs = [ref for module in modules.values() for ref in module_imports(module, modules)]
    return Scan(root, modules, refs)


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _call_name(call: ast.Call) -> str:
    """``import_module`` for ``importlib.import_module(…)`` or ``import_module(…)``; the called name."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _absolute(module: Module, level: int, name: str | None) -> str:
    """The absolute module of a relative import ``from <level dots><name> import …``."""
    if level == 0:
        return name or ""
    parts = module.package.split(".")
    if level - 1 >= len(parts):
        raise ScanError(f"{module.rel}: relative import beyond the top-level package")
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([name] if name else []))


class _ImportCollector(ast.NodeVisitor):
    """Collects the :class:`ImportRef`\\ s of one module, tracking function depth and ``TYPE_CHECKING`` blocks."""

    def __init__(self, module: Module, modules: Mapping[str, Module]) -> None:
        self.module, self.modules = module, modules
        self.depth = 0
        self.type_only = False
        self.refs: list[ImportRef] = []

    def ref(self, node: ast.stmt, target: str, how: str, **extra: Any) -> None:
        self.refs.append(
            ImportRef(
                self.module.name,
                self.module.rel,
                node.lineno,
                target,
                how,
                in_function=self.depth > 0,
                type_only=self.type_only,
                **extra,
            )
        )

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        outer, self.type_only = self.type_only, True
        for statement in node.body:
            self.visit(statement)
        self.type_only = outer
        for statement in node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.ref(node, alias.name, "import", bound=alias.asname or alias.name.partition(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = _absolute(self.module, node.level, node.module)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            target = submodule if submodule in self.modules else source
            self.ref(node, target, "from", source=source, name=alias.name, bound=alias.asname or alias.name)


def module_imports(module: Module, modules: Mapping[str, Module]) -> list[ImportRef]:
    """Every ``import`` / ``from … import`` statement of ``module``, at any depth."""
    collector = _ImportCollector(module, modules)
    collector.visit(module.tree)
    return collector.refs


# ----------------------------------------------------------------------------------------------------- the checks


@dataclass(frozen=True, order=True)
class Finding:
    """``path:line  what``."""

    rel: str
    lineno: int
    what: str

    def __str__(self) -> str:
        return f"{self.rel}:{self.lineno}  {self.what}"


def is_facade(module: str, scan: Scan, package: str = PACKAGE) -> bool:
    """A top-level module of regkit (``regkit``, ``regkit.cli``, ``regkit._lazy``, ``regkit.__main__``): the
    package's ``__init__`` or a module directly in it, not a subpackage."""
    parts = module.split(".")
    if parts[0] != package:
        return False
    top = scan.modules.get(".".join(parts[:2]))
    return len(parts) == 1 or (top is not None and not top.is_package)


def group_of(module: str, scan: Scan, package: str = PACKAGE) -> str:
    """The top-level package a module belongs to (``regkit.client`` for ``regkit.client.transport.call``);
    ``regkit`` for the facade."""
    parts = module.split(".")
    return package if is_facade(module, scan, package) else ".".join(parts[:2])


def eager_ignored_imports(scan: Scan, ignored: Iterable[tuple[str, str, str]]) -> list[Finding]:
    """Imports an ``ignore_imports`` entry of a contract lets pass that run when their module is imported: not inside
    a function and not under ``if TYPE_CHECKING:``.  A contract's exceptions are lazy (a record's frame methods)
    or type-only (the crawl's client protocols); import-linter cannot tell those from a module-level import."""
    findings = []
    for contract_id, importer, imported in ignored:
        importer_pattern, imported_pattern = expression_pattern(importer), expression_pattern(imported)
        for ref in scan.refs:
            if ref.in_function or ref.type_only:
                continue
            if importer_pattern.match(ref.importer) and imported_pattern.match(ref.target):
                findings.append(
                    Finding(
                        ref.rel,
                        ref.lineno,
                        f"{ref.text}: contract {contract_id!r} ignores {importer} -> {imported}, which must stay "
                        f"lazy (inside a function) or type-only (under if TYPE_CHECKING:)",
                    )
                )
    return sorted(set(findings))


def dynamic_imports(scan: Scan, package: str = PACKAGE) -> list[Finding]:
    """``importlib.import_module(…)`` / ``__import__(…)`` in a module of the layers, unless its argument is a
    literal naming a module outside regkit (``"pyarrow"``): import-linter sees import statements only, so an
    import of regkit made any other way would pass every contract.  The facade (``regkit/*.py``: ``cli``'s
    commands, ``_lazy``'s tables, which ``test_layers`` checks at run time) may."""
    findings = []
    for module in scan.modules.values():
        if is_facade(module.name, scan, package) and module.name != f"{package}.errors":
            continue
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.Call) or _call_name(node) not in ("import_module", "__import__"):
                continue
            argument = node.args[0] if node.args else None
            if isinstance(argument, ast.Constant) and str(argument.value).split(".")[0] not in ("", package):
                continue  # a module outside regkit, named literally
            findings.append(
                Finding(
                    module.rel,
                    node.lineno,
                    f"{ast.unparse(node)}: an import lint-imports cannot see (use an import statement, "
                    f"inside a function if it must be lazy)",
                )
            )
    return sorted(findings)


def lazy_export_packages(scan: Scan) -> list[str]:
    """The packages whose ``__init__`` declares its names with :data:`LAZY_HELPER`: imports on attribute access
    that lint-imports does not see (``test_layers`` checks the tables at run time)."""
    return sorted(
        module.name
        for module in scan.modules.values()
        if module.is_package
        and any(isinstance(node, ast.Call) and _call_name(node) == LAZY_HELPER for node in ast.walk(module.tree))
    )


def _is_private(name: str) -> bool:
    """``_name``: one leading underscore; not ``__dunder__`` and not ``_sunder_`` (``_repr_html_``, enum's
    ``_value_``: protocols other code is meant to call)."""
    return name.startswith("_") and not name.startswith("__") and not (name.endswith("_") and len(name) > 2)


def private_imports(scan: Scan, package: str = PACKAGE) -> list[Finding]:
    """(a) ``from regkit.x… import _name`` / ``import regkit.x._mod`` (also lazily) and ``regkit.x._name``
    attribute paths, from a module of another top-level package."""
    findings = []
    for ref in scan.refs:
        if ref.target.split(".")[0] != package or scan.known(ref.target) in SHARED_FACADE_HELPERS:
            continue
        if group_of(ref.importer, scan, package) == group_of(ref.target, scan, package):
            continue
        path = ref.target.split(".")[1:] + ([ref.name] if ref.name and ref.target == ref.source else [])
        private = [part for part in path if _is_private(part)]
        if private:
            findings.append(
                Finding(
                    ref.rel,
                    ref.lineno,
                    f"{ref.text}: {', '.join(private)} is private to {group_of(ref.target, scan, package)}",
                )
            )
    for module in scan.modules.values():
        inner = {id(node.value) for node in ast.walk(module.tree) if isinstance(node, ast.Attribute)}
        for node in ast.walk(module.tree):
            dotted = _dotted(node) if isinstance(node, ast.Attribute) and id(node) not in inner else None
            if not dotted or dotted.split(".")[0] != package:
                continue
            private = [part for part in dotted.split(".")[1:] if _is_private(part)]
            owner = group_of(scan.known(dotted) or dotted, scan, package)
            if private and owner != group_of(module.name, scan, package):
                findings.append(
                    Finding(module.rel, node.lineno, f"{dotted}: {', '.join(private)} is private to {owner}")
                )
    return sorted(set(findings))


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else ``None``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def defined_names(tree: ast.Module) -> set[str]:
    """Names a module defines: functions and classes (any depth), module globals, class attributes (dataclass
    fields included), ``self.x = …`` / ``cls.x = …``, parameters, ``__slots__`` entries and
    ``setattr(obj, "x", …)`` / ``object.__setattr__(self, "x", …)`` names."""
    names: set[str] = set()

    def assigned(targets: Iterable[ast.AST]) -> Iterator[str]:
        """Names bound by assignment targets (``x``, ``x, y``)."""
        for target in targets:
            yield from (node.id for node in ast.walk(target) if isinstance(node, ast.Name))

    def targets_of(statement: ast.AST) -> list[ast.AST]:
        if isinstance(statement, ast.Assign):
            return list(statement.targets)
        if isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            return [statement.target]
        return []

    for statement in _scope_statements(tree.body):  # module globals
        names.update(assigned(targets_of(statement)))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for statement in _scope_statements(node.body):
                names.update(assigned(targets_of(statement)))
                if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets_of(statement)):
                    names.update(
                        c.value for c in ast.walk(statement) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                    )
        if isinstance(node, ast.arguments):
            names.update(
                a.arg
                for a in [*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg]
                if a is not None
            )
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)  # self._x = … (also in tuples, for-targets, with … as)
        if isinstance(node, ast.Global):
            names.update(node.names)
        if (
            isinstance(node, ast.Call)
            and _call_name(node) in ("setattr", "__setattr__")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            names.add(node.args[1].value)
    return names


def _scope_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a scope, looking into ``if``/``try``/``with``/``for`` blocks but not into functions or
    classes."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for block in ("body", "orelse", "finalbody"):
            yield from _scope_statements(getattr(statement, block, []) or [])
        for handler in getattr(statement, "handlers", []) or []:
            yield from _scope_statements(handler.body)


def _allowed(expr: str, name: str, module: str = "") -> bool:
    """Whether ``<expr>.<name>`` is in :data:`PRIVATE_ALLOWLIST` (anywhere, or in ``module``)."""
    return any(key in PRIVATE_ALLOWLIST for key in (f"*.{name}", f"{expr}.{name}", f"{module}:{expr}.{name}"))


def foreign_private_attributes(module: Module, package: str = PACKAGE) -> Iterator[tuple[ast.Attribute, str]]:
    """``(node, expr)`` of every ``expr._name`` in ``module`` whose ``expr`` is not ``self``/``cls``/``super()`` and
    is not a ``regkit.x._name`` path (those are imports, see :func:`private_imports`), nor allowlisted."""
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Attribute) or not _is_private(node.attr):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        if (_dotted(node) or "").split(".")[0] == package:
            continue
        expr = ast.unparse(owner)
        if not _allowed(expr, node.attr, module.name):
            yield node, expr


def private_attribute_reaches(scan: Scan, package: str = PACKAGE) -> list[Finding]:
    """(b) ``expr._name`` where ``expr`` is not ``self``/``cls``/``super()`` and no module of the accessing
    module's top-level package defines ``_name`` (see :func:`defined_names`), unless allowlisted.  Paths
    ``regkit.x._name`` are left to :func:`private_imports`."""
    defined: dict[str, set[str]] = defaultdict(set)
    for module in scan.modules.values():
        defined[group_of(module.name, scan, package)] |= defined_names(module.tree)
    findings = []
    for module in scan.modules.values():
        group = group_of(module.name, scan, package)
        for node, expr in foreign_private_attributes(module, package):
            if node.attr in defined[group]:
                continue
            shown = expr if len(expr) <= 40 else expr[:37] + "..."
            findings.append(
                Finding(
                    module.rel,
                    node.lineno,
                    f"{shown}.{node.attr}: {node.attr} is not defined in "
                    f"{group}, so it is another package's private name",
                )
            )
    return sorted(set(findings))


def private_reaches_within(scan: Scan, group: str) -> list[Finding]:
    """Private names one module of ``group`` (a top-level package, ``regkit.client``) takes from another module of
    it: ``from .x import _name``, ``x._name`` on an imported module, and ``expr._name`` where ``expr`` is not
    ``self``/``cls``/``super()`` and the accessing module does not define ``_name`` itself.  Importing a private
    *module* of the package (``from . import _impl``) is allowed: that is what the underscore is for.  Within a
    package, modules talk through each other's public names, so a reader can follow a call without knowing
    another module's internals (issue 22: bulk calling ``client._caller``)."""
    findings = []
    for module in scan.modules.values():
        if group_of(module.name, scan) != group:
            continue
        own = defined_names(module.tree)
        for ref in scan.refs:
            if ref.importer != module.name or ref.name is None or ref.target != ref.source:
                continue
            if group_of(ref.target, scan) == group and _is_private(ref.name) and ref.target != module.name:
                if f"{ref.target}.{ref.name}" in scan.modules:
                    continue  # a private module of the package
                findings.append(Finding(module.rel, ref.lineno, f"{ref.text}: {ref.name} is private to {ref.target}"))
        for node, expr in foreign_private_attributes(module):
            if node.attr in own:
                continue
            shown = expr if len(expr) <= 40 else expr[:37] + "..."
            findings.append(
                Finding(module.rel, node.lineno, f"{shown}.{node.attr}: {node.attr} is not defined in {module.name}")
            )
    return sorted(set(findings))


def class_shape(scan: Scan, module_name: str, class_name: str) -> tuple[list[str], list[str]]:
    """``(bases, problems)`` of class ``class_name`` in ``module_name``: its base expressions, and each base that
    is a regkit class (imported from regkit or defined in the package) listed as a problem when there is more
    than one; plus every class of the same top-level package whose body declares members under
    ``if TYPE_CHECKING:`` (a mixin announcing what it expects of the class it is mixed into)."""
    module = scan.modules[module_name]
    group = group_of(module_name, scan)
    imported = {
        (ref.bound or ref.name): ref.target
        for ref in scan.refs
        if ref.importer == module_name and ref.target.split(".")[0] == PACKAGE and (ref.bound or ref.name)
    }
    local_classes = {node.name for node in ast.walk(module.tree) if isinstance(node, ast.ClassDef)}
    problems: list[str] = []
    bases: list[str] = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            bases = [ast.unparse(base) for base in node.bases]
    regkit_bases = [b for b in bases if b.split(".")[0] in imported or b in local_classes]
    if len(regkit_bases) > 1:
        problems.append(f"{class_name} has {len(regkit_bases)} regkit base classes: {', '.join(regkit_bases)}")
    for other in scan.modules.values():
        if group_of(other.name, scan) != group:
            continue
        for node in ast.walk(other.tree):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(stmt, ast.If) and _is_type_checking(stmt.test) for stmt in node.body
            ):
                problems.append(f"{other.rel}:{node.lineno} class {node.name} declares members under TYPE_CHECKING")
    return bases, problems
