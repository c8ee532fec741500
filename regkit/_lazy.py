"""Re-exports for package ``__init__`` modules: lazy (PEP 562), so ``import regkit`` stays fast, and explained.

A package lists where each public name lives; the name's module is imported on first access and the value cached in
the package's namespace. A package that defines functions has them wrapped where it exports them (``wrap=``, given
:func:`regkit.errors.explain_arguments`: a mistyped keyword or a missing argument is an ``ArgumentError`` that says
what to pass). ``dir(package)`` lists its public names only. Imports nothing of regkit (the layers may import it).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from types import FunctionType
from typing import Any

__all__ = ["lazy_exports", "wrap_exports"]

#: Wraps an exported value (a function; anything else it returns as it is).
Wrap = Callable[[Any], Any]


def lazy_exports(
    package: str, exports: Mapping[str, str], submodules: Iterable[str] = (), *, wrap: Wrap | None = None
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """Return ``__all__``, ``__getattr__`` and ``__dir__`` for ``package``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : mapping of str to str
        Public name → module that defines it.
    submodules : iterable of str
        Subpackages reachable as attributes without importing them first (``regkit.graph``).
    wrap : callable, optional
        Applied to each exported function on first access (:func:`regkit.errors.explain_arguments`, by a package
        exporting the functions its own modules define; a package re-exporting another package's names passes them
        as they are, so ``regkit.crawl is regkit.graph.crawl``).
    """
    submodules = tuple(submodules)
    names = sorted({*exports, *submodules})

    def __getattr__(name: str) -> Any:
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        home = exports.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        if wrap is not None:
            value = _wrapped(wrap, value, package)
        vars(sys.modules[package])[name] = value  # cached: later lookups do not come here
        return value

    def __dir__() -> list[str]:
        return _public(package, names)

    return names, __getattr__, __dir__


def wrap_exports(package: str, wrap: Wrap) -> None:
    """Apply ``wrap`` to every name in ``__all__`` of ``package``, an ``__init__`` that imports its names eagerly,
    in its namespace (as ``lazy_exports(..., wrap=)`` does on first access)."""
    namespace = vars(sys.modules[package])
    for name in namespace["__all__"]:
        namespace[name] = _wrapped(wrap, namespace[name], package)


def _wrapped(wrap: Wrap, value: Any, package: str) -> Any:
    """``wrap(value)`` for a function (a class is wrapped where it is defined, not changed by a package exporting it).

    The wrapper also takes the function's place in its own module, so that ``module.name`` is what the package
    exports: pickle finds it by reference (``regkit.frames.histories.history``), doctest runs its examples once, in
    that module, and ``regkit.frames.history is regkit.frames.histories.history`` stays true."""
    if not isinstance(value, FunctionType):
        return value
    function: FunctionType = value
    wrapped = wrap(function)
    home = sys.modules.get(function.__module__)
    if wrapped is not function and home is not None and vars(home).get(function.__name__) is function:
        setattr(home, function.__name__, wrapped)
    return wrapped


def _public(package: str, names: Iterable[str]) -> list[str]:
    """The package's public names: its exports, its ``__all__``, and the submodules imported so far."""
    namespace = vars(sys.modules[package])
    imported = {
        name
        for name, value in namespace.items()
        if not name.startswith("_") and getattr(value, "__name__", None) == f"{package}.{name}"
    }
    return sorted({*names, *namespace.get("__all__", ()), *imported})
