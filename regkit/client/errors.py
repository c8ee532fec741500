"""Deprecated: the errors moved to :mod:`regkit.errors` (below every layer); this module re-exports them.

``regkit.client.errors.CacheError`` *is* ``regkit.errors.CacheError``, so ``except`` clauses keep working.
Import from ``regkit.errors`` (or ``regkit`` / ``regkit.client``, which re-export every name) instead; importing
this module warns with a ``DeprecationWarning`` at the importing line.
"""

from __future__ import annotations

import warnings

from regkit.errors import *  # noqa: F403  (the whole tree, unchanged)
from regkit.errors import __all__ as __all__

warnings.warn(
    "regkit.client.errors is deprecated: import the errors from regkit.errors (or regkit, regkit.client)",
    DeprecationWarning,
    stacklevel=2,  # the importing line: warnings skips importlib's own frames
)
