"""The bundled world: a synthetic, internally consistent German corporate register (see ``data/README.md``).

Reading a world is cheap to import; the generator (``build_world`` in memory, ``build_world_to`` straight to a
directory) is imported only when used.
"""

from __future__ import annotations

from typing import Any

from .store import World, default_data_dir, read_world, write_world

__all__ = [
    "AS_OF",
    "DEFAULT_SEED",
    "DEFAULT_SIZE",
    "World",
    "build_world",
    "build_world_to",
    "default_data_dir",
    "read_world",
    "write_world",
]

_GENERATOR_NAMES = {"AS_OF", "DEFAULT_SEED", "DEFAULT_SIZE", "build_world", "build_world_to"}


def __getattr__(name: str) -> Any:
    if name in _GENERATOR_NAMES:
        from . import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
