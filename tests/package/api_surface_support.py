"""regkit's public surface as data: every name the public packages export (their ``__all__``), with its kind and
signature, and for a class its public members with theirs.

``tests/package/public_api_main.json`` is this description of ``main`` when issue 42 (the client cut by resource)
started, written by ``python tests/package/api_surface_support.py > tests/package/public_api_main.json`` at aaaa28b;
``test_public_api.py`` compares the current surface with it.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import warnings
from typing import Any

PACKAGES = (
    "regkit",
    "regkit.client",
    "regkit.frames",
    "regkit.graph",
    "regkit.plot",
    "regkit.widgets",
    "regkit.local",
    "regkit.schema",
    "regkit.errors",
)


def _signature(obj: Any) -> str | None:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return None


def describe(obj: Any) -> dict[str, Any]:
    """Kind and signature of one exported value; a class's public members (methods with their signatures)."""
    if inspect.isclass(obj):
        members = {}
        for name, value in inspect.getmembers(obj):
            if name.startswith("_") and name != "__init__":
                continue
            raw = inspect.getattr_static(obj, name, None)
            if isinstance(raw, property):
                members[name] = "property"
            elif isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(value) or inspect.ismethod(value):
                members[name] = "def" + (_signature(value) or "")
            elif callable(value):
                members[name] = "callable"
            else:
                members[name] = "attribute"
        return {"kind": "class", "signature": _signature(obj), "members": members}
    if callable(obj):
        return {"kind": "callable", "signature": _signature(obj)}
    if inspect.ismodule(obj):
        return {"kind": "module"}
    return {"kind": type(obj).__name__}


def surface() -> dict[str, dict[str, Any]]:
    """``"package.name"`` → :func:`describe` of it, for every public package's ``__all__``."""
    described = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for package in PACKAGES:
            module = importlib.import_module(package)
            for name in sorted(getattr(module, "__all__", [])):
                described[f"{package}.{name}"] = describe(getattr(module, name))
    return described


if __name__ == "__main__":
    json.dump(surface(), sys.stdout, indent=1, sort_keys=True)
