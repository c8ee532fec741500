"""Import requests-cache without the Redis client it would import eagerly, so ``regkit.Client()`` starts quickly.

requests-cache imports the driver of every backend that is installed when it is first imported; with ``redis``
installed (regkit's ``[redis]`` extra) that is the Redis client and asyncio, about a fifth of what
``regkit.Client()`` spends importing. regkit imports requests-cache once here, with ``redis`` hidden for the
duration of that import only: requests-cache then leaves its top-level ``RedisCache`` a placeholder, and a Redis
cache (``Client(cache="redis://…")``) imports ``requests_cache.backends.redis`` itself when it is opened
(:func:`regkit.client.cache.open_backend`). Nothing changes when requests-cache or redis was imported before
regkit.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["import_requests_cache"]


class _HideRedis(importlib.abc.MetaPathFinder):
    """A finder that makes ``import redis`` fail (ModuleNotFoundError) while it is installed."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if name == "redis" or name.startswith("redis."):
            raise ModuleNotFoundError(f"{name} is imported when a Redis cache is opened", name=name)
        return None


def import_requests_cache() -> ModuleType:
    """``requests_cache``, imported without ``redis`` unless either is imported already."""
    if "requests_cache" in sys.modules or "redis" in sys.modules:
        import requests_cache

        return requests_cache
    finder = _HideRedis()
    sys.meta_path.insert(0, finder)
    try:
        import requests_cache
    finally:
        sys.meta_path.remove(finder)
    return requests_cache


import_requests_cache()
