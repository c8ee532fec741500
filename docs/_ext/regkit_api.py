"""Keep the API reference complete: every public name is documented somewhere.

The pages under ``docs/api/`` list the names of each package by hand, grouped as a reader looks for them
(as pandas' reference does). This check makes a forgotten name a build warning — so, with ``-W``, an error:

* every name in ``__all__`` of a documented package must be documented under that package
  (``regkit.frames.history``), or — re-exported from another documented package — where it lives
  (``regkit.client.CacheError`` is ``regkit.errors.CacheError``);
* every name ``regkit`` exports must be documented under the subpackage it comes from (``regkit.Client`` is
  ``regkit.client.Client``) and listed on ``docs/api/regkit.rst``.
"""

from __future__ import annotations

import importlib
import types
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

#: The packages whose ``__all__`` the reference covers, each with its page.
PACKAGES = {
    "regkit.client": "api/client",
    "regkit.frames": "api/frames",
    "regkit.graph": "api/graph",
    "regkit.plot": "api/plot",
    "regkit.widgets": "api/widgets",
    "regkit.local": "api/local",
    "regkit.schema": "api/schema",
    "regkit.errors": "api/errors",
}


def _documented(env) -> set[str]:
    return set(env.get_domain("py").objects)


def check_coverage(app, env) -> None:
    documented = _documented(env)
    for package, page in PACKAGES.items():
        module = importlib.import_module(package)
        # a name re-exported from another documented package (regkit.client.CacheError is regkit.errors.CacheError)
        # counts as documented where it lives
        missing = [
            n
            for n in module.__all__
            if f"{package}.{n}" not in documented
            and f"{getattr(getattr(module, n), '__module__', '')}.{n}" not in documented
        ]
        if missing:
            logger.warning(
                "%s: not in the API reference (add them to docs/%s.rst): %s",
                package,
                page,
                ", ".join(missing),
                type="regkit",
                subtype="api",
            )
    import regkit

    missing = []
    for name in regkit.__all__:
        value = getattr(regkit, name)
        if name == "__version__" or isinstance(value, types.ModuleType):
            continue
        homes = [p for p in PACKAGES if getattr(importlib.import_module(p), name, None) is value]
        if not any(f"{p}.{name}" in documented for p in homes):
            missing.append(name)
    if missing:
        logger.warning(
            "regkit: exported but documented under no subpackage: %s",
            ", ".join(missing),
            type="regkit",
            subtype="api",
        )
    # and docs/api/regkit.rst lists every export (as ``~regkit.<subpackage>.<name>``)
    page = (Path(app.srcdir) / "api" / "regkit.rst").read_text(encoding="utf-8")
    unlisted = [
        name
        for name in regkit.__all__
        if name != "__version__"
        and not isinstance(getattr(regkit, name), types.ModuleType)
        and not any(f"~{p}.{name}\n" in page for p in PACKAGES)
    ]
    if unlisted:
        logger.warning(
            "regkit: exported but not listed in docs/api/regkit.rst: %s",
            ", ".join(unlisted),
            type="regkit",
            subtype="api",
        )


def setup(app):
    app.connect("env-check-consistency", check_coverage)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
