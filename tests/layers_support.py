"""The architecture checker behind ``tests/test_layers.py``: regkit's layers, read from the README, checked
statically (``ast``; nothing of regkit is imported).

Three parts:

* **The layering** — :func:`parse_layering` reads README.md's ``## Layout`` section: the fenced table
  (``regkit/<package>/  <label>: description``) and the flow sentence (``… → views (`regkit.widgets`, …) → …``).
* **The scan** — :func:`scan_tree` parses every ``regkit/**/*.py`` and collects every import as an
  :class:`ImportRef`: ``import`` / ``from … import`` at any depth, ``importlib.import_module(…)`` /
  ``__import__(…)``, and the lazy-export tables given to ``regkit._lazy.lazy_exports``.
* **The checks** — :func:`upward_imports`, :func:`import_cycles`, :func:`private_imports`,
  :func:`private_attribute_reaches`; each returns :class:`Finding`\\ s (``path:line  what``).

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

import networkx as nx

PACKAGE = "regkit"

#: The helper package ``__init__``s declare their lazy exports with (``regkit/_lazy.py``).
LAZY_HELPER = "lazy_exports"

#: Facade modules lower layers may import although the facade sits above everything, with why.  Each must be
#: a leaf — import nothing of regkit — so depending on it cannot lead upward (``test_layers`` asserts that).
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

#: Lazy upward imports that are the design, not a mistake: ``(importer, target package)`` with why.  Only
#: imports inside a function (or type-only ones) are sanctioned; a module-level import stays a finding.
SANCTIONED_LAZY_UPWARD = {
    ("regkit.client.frame_methods", "regkit.frames"): "record methods (record.history(...)) call their frames "
    "builder when asked, as edgartools' Company.to_dataframe() does; import regkit.client stays free of pandas "
    "(CONTRIBUTING.md, Layers)",
    ("regkit.client.export_methods", "regkit.frames"): "client.export_parquet(directory) imports "
    "regkit.frames.export when called, like the record methods; import regkit.client stays free of pandas and "
    "pyarrow",
}

FACADE = "facade"


class LayoutError(Exception):
    """README.md's Layout section could not be read as a layering."""


class ScanError(Exception):
    """A source file could not be analysed (syntax error, or a lazy-export table the checker cannot evaluate)."""


# --------------------------------------------------------------------------------------------------- the layering


@dataclass(frozen=True)
class Layering:
    """The layers, top to bottom: ``(label, packages)``; a package may import its own and lower layers."""

    layers: tuple[tuple[str, tuple[str, ...]], ...]

    def rank(self, package: str) -> int | None:
        """0 for the top layer, larger further down; ``None`` for a package in no layer."""
        for index, (_, packages) in enumerate(self.layers):
            if package in packages:
                return index
        return None

    def label(self, package: str) -> str:
        """The layer's label (``views``, ``client``, …) of ``package``."""
        rank = self.rank(package)
        return "?" if rank is None else self.layers[rank][0]

    @property
    def packages(self) -> set[str]:
        """Every package in a layer."""
        return {package for _, packages in self.layers for package in packages}

    def describe(self) -> str:
        """``views (widgets, plot) → analysis (frames, graph) → client → …``."""
        return " → ".join(
            label if packages == (label,) else f"{label} ({', '.join(packages)})" for label, packages in self.layers
        )


def layout_section(readme: str) -> str:
    """The text of the ``## Layout`` section (up to the next ``## `` heading)."""
    match = re.search(r"^## Layout[ \t]*\n(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    if match is None:
        raise LayoutError("README.md has no '## Layout' section")
    return match.group(1)


def parse_table(section: str, package: str = PACKAGE) -> dict[str, str]:
    """``{package: description}`` from the section's fenced block (``regkit/frames/   analysis: …``)."""
    block = re.search(r"^```[^\n]*\n(.*?)^```", section, flags=re.M | re.S)
    if block is None:
        raise LayoutError("the Layout section has no fenced block listing the packages")
    rows = {}
    for line in block.group(1).splitlines():
        row = re.match(rf"^{package}/(\w+)/?\s{{2,}}(\S.*)$", line.strip())
        if row:
            rows[row.group(1)] = row.group(2).strip()
    if not rows:
        raise LayoutError(f"the Layout section's fenced block lists no '{package}/<package>/  <description>' rows")
    return rows


def parse_flow(section: str, package: str = PACKAGE) -> list[tuple[str, tuple[str, ...]]]:
    """The flow sentence's layers, top to bottom, as ``(label, packages)``.

    The sentence is the paragraph with ``→``; each ``→``-separated part that names `` `regkit.x` `` packages is a
    layer, labelled by the word before its parenthesis (``views (`regkit.widgets`, …)``) or by its one package.
    """
    prose = re.sub(r"^```.*?^```", "", section, flags=re.M | re.S)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", prose) if "→" in p]
    if len(paragraphs) != 1:
        raise LayoutError(
            f"expected one paragraph with '→' (the data-flow sentence) in the Layout section, found {len(paragraphs)}"
        )
    sentence = paragraphs[0]
    if "downward" not in sentence:
        raise LayoutError(f"the flow sentence does not say which way is down ('downward'): {sentence!r}")
    layers = []
    for part in sentence.split("→"):
        names = tuple(re.findall(rf"`{package}\.(\w+)`", part))
        if not names:
            continue  # notebooks, HTTP
        labelled = re.search(r"([A-Za-z][\w-]*)\s*\(\s*`", part)  # views (`regkit.widgets`, …)
        label = labelled.group(1) if labelled else names[0]
        layers.append((label, names))
    if not layers:
        raise LayoutError(f"the flow sentence names no `{package}.<package>`: {sentence!r}")
    return layers


def parse_layering(readme: str, package: str = PACKAGE) -> Layering:
    """The layering README.md describes: the flow sentence's layers, then the table's shared packages below.

    Raises :class:`LayoutError` when the section is missing, the table and sentence disagree, or a package is
    in neither a layer of the sentence nor described as shared.
    """
    section = layout_section(readme)
    table = parse_table(section, package)
    layers = parse_flow(section, package)
    seen: dict[str, str] = {}
    for label, names in layers:
        for name in names:
            if name in seen:
                raise LayoutError(f"`{package}.{name}` is in two layers of the flow sentence: {seen[name]}, {label}")
            seen[name] = label
            if name not in table:
                raise LayoutError(f"the flow sentence names `{package}.{name}`, which the table does not list")
            described = re.match(r"([^:(]+):", table[name])
            if described and name != label and described.group(1).strip() != label:
                raise LayoutError(
                    f"the table calls {package}/{name}/ '{described.group(1).strip()}' but the flow "
                    f"sentence puts it in '{label}'"
                )
    rest = [name for name in table if name not in seen]
    unplaced = [name for name in rest if "share" not in table[name]]
    if unplaced:
        raise LayoutError(
            f"{', '.join(f'{package}/{n}/' for n in unplaced)}: in the table but in no layer of the "
            f"flow sentence, and not described as shared by the layers"
        )
    shared = [(name, (name,)) for name in rest]
    return Layering(tuple(layers) + tuple(shared))


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
    """One imported module (or one name of a ``from … import``).

    ``target`` is the module depended on: ``from P import name`` targets ``P.name`` when that is a module,
    else ``P`` (then ``source`` is ``P``).  ``partial``: only a prefix of the module is known (an f-string).
    """

    importer: str
    rel: str
    lineno: int
    target: str
    how: str  # "import", "from", "import_module", "__import__", "lazy export", "lazy submodule"
    source: str = ""  # P of ``from P import name``
    name: str | None = None  # the imported (or lazily exported) name
    bound: str | None = None  # the name it is bound to (``as``)
    in_function: bool = False
    type_only: bool = False
    partial: bool = False

    @property
    def where(self) -> str:
        return f"{self.rel}:{self.lineno}"

    @property
    def text(self) -> str:
        """How the import reads, resolved (``from regkit.client.core import Client (inside a function)``)."""
        if self.how == "import":
            text = f"import {self.target}"
        elif self.how == "from":
            text = f"from {self.source} import {self.name}"
        elif self.how == "lazy export":
            text = f"lazy export {self.name!r} → {self.target}"
        elif self.how == "lazy submodule":
            text = f"lazy submodule {self.name!r} → {self.target}"
        else:
            text = f"{self.how}({self.target + ('.…' if self.partial else '')!r})"
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


class _Unresolved(Exception):
    """An expression whose value is not known statically."""


class Located(str):
    """A string with the line it was written on (so a lazy-table entry is reported at its line)."""

    lineno: int

    def __new__(cls, value: str, lineno: int) -> Located:
        located = super().__new__(cls, value)
        located.lineno = lineno
        return located


_UNRESOLVED = object()


def static_value(node: ast.AST, env: Mapping[str, Any]) -> Any:
    """The value of a constant expression: literals, names bound in ``env``, f-strings, ``+``, ``d.items()``,
    and comprehensions over those — enough for the lazy-export tables.  Raises ``_Unresolved`` otherwise."""
    if isinstance(node, ast.Constant):
        return Located(node.value, node.lineno) if isinstance(node.value, str) else node.value
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items: list[Any] = []
        for element in node.elts:
            if isinstance(element, ast.Starred):
                items.extend(static_value(element.value, env))
            else:
                items.append(static_value(element, env))
        return {ast.Tuple: tuple, ast.List: list, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict):
        result: dict[Any, Any] = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                result.update(static_value(value, env))
            else:
                result[static_value(key, env)] = static_value(value, env)
        return result
    if isinstance(node, ast.Name):
        value = env.get(node.id, _UNRESOLVED)
        if value is _UNRESOLVED:
            raise _Unresolved(node.id)
        return value
    if isinstance(node, ast.JoinedStr):
        return _joined_str(node, env)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = static_value(node.left, env), static_value(node.right, env)
        joined = left + right
        return Located(joined, getattr(left, "lineno", node.lineno)) if isinstance(joined, str) else joined
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and not node.args
        and not node.keywords
        and node.func.attr in ("items", "keys", "values")
    ):
        mapping = static_value(node.func.value, env)
        if isinstance(mapping, dict):
            return list(getattr(mapping, node.func.attr)())
    if isinstance(node, (ast.DictComp, ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return _comprehension(node, env)
    raise _Unresolved(ast.unparse(node))


def _joined_str(node: ast.JoinedStr, env: Mapping[str, Any]) -> Located:
    """An f-string of known parts; its line is that of the last located part (the table entry)."""
    text, lineno = [], node.lineno
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            if part.conversion != -1 or part.format_spec is not None:
                raise _Unresolved(ast.unparse(node))
            value = static_value(part.value, env)
            lineno = getattr(value, "lineno", lineno) or lineno
            text.append(str(value))
        else:
            text.append(str(part.value))  # type: ignore[attr-defined]
    return Located("".join(text), lineno)


def _bind(target: ast.AST, value: Any, env: dict[str, Any]) -> None:
    """Assign ``value`` to a name or a tuple of names in ``env``."""
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, (ast.Tuple, ast.List)):
        values = tuple(value)
        if len(values) != len(target.elts):
            raise _Unresolved("unpacking")
        for element, item in zip(target.elts, values):
            _bind(element, item, env)
    else:
        raise _Unresolved(ast.unparse(target))


def _comprehension(node: ast.AST, env: Mapping[str, Any]) -> Any:
    """Evaluate a comprehension whose iterables and conditions are constant."""
    results: list[Any] = []

    def run(generators: list[ast.comprehension], scope: dict[str, Any]) -> None:
        if not generators:
            if isinstance(node, ast.DictComp):
                results.append((static_value(node.key, scope), static_value(node.value, scope)))
            else:
                results.append(static_value(node.elt, scope))  # type: ignore[attr-defined]
            return
        first, rest = generators[0], generators[1:]
        for item in static_value(first.iter, scope):
            inner = dict(scope)
            _bind(first.target, item, inner)
            if all(static_value(condition, inner) for condition in first.ifs):
                run(rest, inner)

    run(node.generators, dict(env))  # type: ignore[attr-defined]
    if isinstance(node, ast.DictComp):
        return dict(results)
    return set(results) if isinstance(node, ast.SetComp) else results


def module_constants(module: Module) -> dict[str, Any]:
    """Module-level names with a constant value, in statement order (``X = {…}``, ``X[k] = v``, ``X.update(…)``);
    names assigned anything else are bound to an unresolvable marker."""
    env: dict[str, Any] = {"__name__": module.name, "__package__": module.package}
    for statement in module.tree.body:
        try:
            if isinstance(statement, ast.Assign) and all(isinstance(t, ast.Name) for t in statement.targets):
                value = static_value(statement.value, env)
                for target in statement.targets:
                    env[target.id] = value  # type: ignore[attr-defined]
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value:
                env[statement.target.id] = static_value(statement.value, env)
            elif (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Subscript)
            ):
                target = statement.targets[0]
                container = static_value(target.value, env)
                container[static_value(target.slice, env)] = static_value(statement.value, env)
            elif (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Call)
                and isinstance(statement.value.func, ast.Attribute)
                and statement.value.func.attr == "update"
                and len(statement.value.args) == 1
            ):
                static_value(statement.value.func.value, env).update(static_value(statement.value.args[0], env))
            elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            env[name.id] = _UNRESOLVED
        except (_Unresolved, TypeError, AttributeError, KeyError):
            for target in statement.targets if isinstance(statement, ast.Assign) else []:
                if isinstance(target, ast.Name):
                    env[target.id] = _UNRESOLVED
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                env[statement.target.id] = _UNRESOLVED
    return env


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
    """Collects the :class:`ImportRef`\\ s of one module, tracking function depth, ``TYPE_CHECKING`` blocks and
    ``for name in <constant tuple>`` loops (whose name may be the argument of ``import_module``)."""

    def __init__(self, module: Module, modules: Mapping[str, Module]) -> None:
        self.module, self.modules = module, modules
        self.env = module_constants(module)
        self.depth = 0
        self.type_only = False
        self.loops: dict[str, list[str]] = {}
        self.refs: list[ImportRef] = []

    def ref(self, node: ast.AST, target: str, how: str, **extra: Any) -> None:
        lineno = extra.pop("lineno", None) or node.lineno  # type: ignore[attr-defined]
        self.refs.append(
            ImportRef(
                self.module.name,
                self.module.rel,
                lineno,
                target,
                how,
                in_function=self.depth > 0,
                type_only=self.type_only,
                **extra,
            )
        )

    # --- scopes
    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        self.visit(node.test)
        outer, self.type_only = self.type_only, True
        for statement in node.body:
            self.visit(statement)
        self.type_only = outer
        for statement in node.orelse:
            self.visit(statement)

    def visit_For(self, node: ast.For) -> None:
        values = None
        if isinstance(node.target, ast.Name):
            try:
                candidate = static_value(node.iter, self.env)
                if isinstance(candidate, (tuple, list)) and all(isinstance(v, str) for v in candidate):
                    values = list(candidate)
            except _Unresolved:
                pass
        if values is None:
            self.generic_visit(node)
            return
        name = node.target.id  # type: ignore[attr-defined]
        outer = self.loops.get(name)
        self.loops[name] = values
        self.generic_visit(node)
        if outer is None:
            del self.loops[name]
        else:
            self.loops[name] = outer

    # --- imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.ref(node, alias.name, "import", bound=alias.asname or alias.name.partition(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = _absolute(self.module, node.level, node.module)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            target = submodule if submodule in self.modules else source
            self.ref(node, target, "from", source=source, name=alias.name, bound=alias.asname or alias.name)

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        if name in ("import_module", "__import__") and node.args:
            for target, partial in self.dynamic_targets(node):
                self.ref(node, target, name, partial=partial)
        elif name == LAZY_HELPER:
            self.lazy_table(node)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        """A module ``__getattr__`` made by anything but the lazy helper is a mechanism the checker cannot see."""
        names = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if (
            "__getattr__" in names
            and self.depth == 0
            and not (isinstance(node.value, ast.Call) and _call_name(node.value) == LAZY_HELPER)
        ):
            raise ScanError(
                f"{self.module.rel}:{node.lineno}: module __getattr__ made by "
                f"{ast.unparse(node.value)!r}, which tests/layers_support.py does not understand; "
                f"teach scan_tree() the new lazy mechanism"
            )
        self.generic_visit(node)

    def dynamic_targets(self, node: ast.Call) -> list[tuple[str, bool]]:
        """The module names ``import_module``'s argument can have: a literal, a module constant, a loop variable
        over a constant tuple, or (``partial``) the constant dotted prefix of an f-string."""
        argument = node.args[0]
        if isinstance(argument, ast.Name) and argument.id in self.loops:
            names = self.loops[argument.id]
        else:
            try:
                value = static_value(argument, self.env)
            except _Unresolved:
                return self.prefix_target(argument)
            names = [value] if isinstance(value, str) else []
        package = self.module.package
        if len(node.args) > 1 and _call_name(node) == "import_module":
            try:
                package = str(static_value(node.args[1], self.env))
            except _Unresolved:
                pass
        targets = []
        for name in names:
            if name.startswith("."):
                level = len(name) - len(name.lstrip("."))
                parts = package.split(".")
                name = ".".join(parts[: len(parts) - (level - 1)] + ([name.lstrip(".")] if name.lstrip(".") else []))
            targets.append((name, False))
        return targets

    def prefix_target(self, argument: ast.expr) -> list[tuple[str, bool]]:
        """``f"regkit.frames.{module}"`` → ``regkit.frames`` (partial); nothing if no dotted prefix is constant."""
        if not isinstance(argument, ast.JoinedStr) or not argument.values:
            return []
        first = argument.values[0]
        if not isinstance(first, ast.Constant) or "." not in first.value:
            return []
        return [(first.value.rpartition(".")[0], True)]

    def lazy_table(self, node: ast.Call) -> None:
        """The modules a ``lazy_exports(package, exports, submodules)`` call imports on attribute access."""
        arguments = dict(zip(("package", "exports", "submodules"), node.args))
        arguments.update({k.arg: k.value for k in node.keywords if k.arg})
        try:
            package = str(static_value(arguments["package"], self.env))
            exports = static_value(arguments["exports"], self.env)
            submodules = static_value(arguments["submodules"], self.env) if "submodules" in arguments else ()
        except (_Unresolved, KeyError) as error:
            raise ScanError(
                f"{self.module.rel}:{node.lineno}: cannot evaluate the arguments of {LAZY_HELPER}(…) "
                f"statically (at {error}); extend static_value() in tests/layers_support.py"
            ) from error
        outer, self.depth = self.depth, self.depth + 1  # run on attribute access
        for name, home in dict(exports).items():
            self.ref(
                node, str(home), "lazy export", name=str(name), bound=str(name), lineno=getattr(home, "lineno", None)
            )
        for name in submodules:
            self.ref(
                node,
                f"{package}.{name}",
                "lazy submodule",
                name=str(name),
                bound=str(name),
                lineno=getattr(name, "lineno", None),
            )
        self.depth = outer


def module_imports(module: Module, modules: Mapping[str, Module]) -> list[ImportRef]:
    """Every import of ``module`` (static at any depth, dynamic, lazy-export tables)."""
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


def unlayered_packages(scan: Scan, layering: Layering, package: str = PACKAGE) -> list[str]:
    """Top-level packages of the tree that are in no layer of the README."""
    packages = {m.split(".")[1] for m in scan.modules if len(m.split(".")) > 1 and not is_facade(m, scan, package)}
    return sorted(packages - layering.packages)


def _rank(module: str, scan: Scan, layering: Layering, package: str = PACKAGE) -> int | None:
    """-1 for the facade (above everything), the layer's rank otherwise; ``None`` outside regkit or unlayered."""
    if module.split(".")[0] != package:
        return None
    if is_facade(module, scan, package):
        return -1
    return layering.rank(module.split(".")[1])


def _layer_name(module: str, scan: Scan, layering: Layering, package: str = PACKAGE) -> str:
    return FACADE if is_facade(module, scan, package) else layering.label(module.split(".")[1])


def upward_imports(scan: Scan, layering: Layering, *, type_only: bool, package: str = PACKAGE) -> list[Finding]:
    """Imports from a module to a higher layer (``type_only`` selects the ``TYPE_CHECKING`` ones, or all others).

    The facade may import anything; a lower layer may import a facade module only if it is listed in
    :data:`SHARED_FACADE_HELPERS`."""
    findings = []
    for ref in scan.refs:
        if ref.type_only != type_only:
            continue
        source_rank, target_rank = (
            _rank(ref.importer, scan, layering, package),
            _rank(ref.target, scan, layering, package),
        )
        if source_rank is None or target_rank is None or source_rank == -1 or target_rank >= source_rank:
            continue
        if target_rank == -1 and scan.known(ref.target) in SHARED_FACADE_HELPERS:
            continue
        if _sanctioned(ref):
            continue
        findings.append(
            Finding(
                ref.rel,
                ref.lineno,
                f"{ref.text}: {_layer_name(ref.importer, scan, layering)} "
                f"imports {_layer_name(ref.target, scan, layering)}, above it",
            )
        )
    return sorted(set(findings))


def _sanctioned(ref: ImportRef) -> bool:
    """Whether ``ref`` is a lazy (or type-only) import listed in :data:`SANCTIONED_LAZY_UPWARD`."""
    if not (ref.in_function or ref.type_only):
        return False
    return any(
        ref.importer == importer and (ref.target == target or ref.target.startswith(target + "."))
        for importer, target in SANCTIONED_LAZY_UPWARD
    )


def facade_helper_imports(scan: Scan, package: str = PACKAGE) -> list[Finding]:
    """Imports of regkit made by a :data:`SHARED_FACADE_HELPERS` module (each must be a leaf)."""
    return sorted(
        Finding(ref.rel, ref.lineno, f"{ref.text}: {ref.importer} must import nothing of {package}")
        for ref in scan.refs
        if ref.importer in SHARED_FACADE_HELPERS and ref.target.split(".")[0] == package
    )


def export_homes(scan: Scan) -> dict[str, dict[str, str]]:
    """Per package: name → module it is re-exported from (its ``__init__``'s module-level ``from X import name``
    and its lazy-export table)."""
    homes: dict[str, dict[str, str]] = defaultdict(dict)
    for ref in scan.refs:
        module = scan.modules.get(ref.importer)
        if module is None or not module.is_package or ref.type_only or ref.bound is None:
            continue
        if ref.how == "lazy export" or (ref.how == "from" and not ref.in_function):
            homes[ref.importer][ref.bound] = ref.target
    return homes


def _home(package: str, name: str, homes: Mapping[str, Mapping[str, str]], scan: Scan) -> str | None:
    """The module that defines ``name`` as seen from ``package``, following re-exports through packages."""
    seen = set()
    while package not in seen:
        seen.add(package)
        home = homes.get(package, {}).get(name)
        if home is None:
            return None
        if home not in homes or name not in homes[home]:
            return home
        package = home
    return None


def top_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds at module level: assignments, ``def``, ``class``, imports (``if``/``try`` blocks
    included)."""
    names = set()
    for statement in _scope_statements(tree.body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names.update(alias.asname or alias.name.partition(".")[0] for alias in statement.names)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def import_graph(scan: Scan, *, type_only: bool = True) -> nx.DiGraph:
    """Module → module edges of every import (lazy ones in; ``TYPE_CHECKING`` ones too unless ``type_only`` is
    false), each edge with its ``refs``.  A type-only cycle does not fail at import time, but it ties two modules
    to each other all the same: a reader (and mypy) cannot take one without the other.

    Re-export rule: a module importing a name from a package it lies in (``from regkit.graph import
    from_companies`` inside ``regkit.graph.crawler``) depends on the module that defines the name (found through
    the ``__init__``'s re-exports and lazy table), not on the ``__init__``; so ``__init__`` → submodule edges do
    not by themselves close cycles.  No implicit edge to parent packages; partial (f-string) targets and
    targets that are not modules of the tree are left out."""
    graph = nx.DiGraph()
    graph.add_nodes_from(scan.modules)
    homes = export_homes(scan)
    for ref in scan.refs:
        if (ref.type_only and not type_only) or ref.partial:
            continue
        target = ref.target
        if (
            ref.how == "from"
            and target == ref.source
            and ref.importer.startswith(ref.source + ".")
            and ref.name is not None
            and target in scan.modules
        ):
            home = _home(ref.source, ref.name, homes, scan)
            if home is None and ref.name not in top_level_names(scan.modules[target].tree):
                continue  # the package has no such name: the import itself fails
            target = home or target
        if target not in scan.modules:
            continue  # outside regkit, or a module that does not exist (the import itself fails)
        if target == ref.importer:
            continue
        if graph.has_edge(ref.importer, target):
            graph.edges[ref.importer, target]["refs"].append(ref)
        else:
            graph.add_edge(ref.importer, target, refs=[ref])
    return graph


@dataclass(frozen=True)
class Cycle:
    """A strongly connected set of modules, one cycle through them, and every import edge inside it."""

    modules: tuple[str, ...]
    path: tuple[str, ...]
    edges: tuple[Finding, ...]

    def __str__(self) -> str:
        lines = [f"{len(self.modules)} modules: {' → '.join(self.path)}", *(f"    {edge}" for edge in self.edges)]
        return "\n".join(lines)


def import_cycles(scan: Scan, *, type_only: bool = True) -> list[Cycle]:
    """Strongly connected components of :func:`import_graph` with more than one module."""
    graph = import_graph(scan, type_only=type_only)
    cycles = []
    for component in nx.strongly_connected_components(graph):
        if len(component) < 2:
            continue
        sub = graph.subgraph(component)
        start = min(component)
        path = [u for u, _ in nx.find_cycle(sub, source=start)]
        edges = sorted(
            Finding(ref.rel, ref.lineno, f"{ref.text}  [{u} → {v}]")
            for u, v, data in sub.edges(data=True)
            for ref in data["refs"]
        )
        cycles.append(Cycle(tuple(sorted(component)), (*path, path[0]), tuple(edges)))
    return sorted(cycles, key=lambda cycle: cycle.modules)


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
