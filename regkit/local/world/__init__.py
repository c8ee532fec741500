"""The bundled world: a synthetic, internally consistent German corporate register (see ``data/README.md``)."""

from .build import AS_OF, DEFAULT_SEED, DEFAULT_SIZE, build_world
from .store import World, default_data_dir, read_world, write_world

__all__ = ["AS_OF", "DEFAULT_SEED", "DEFAULT_SIZE", "World", "build_world", "default_data_dir", "read_world", "write_world"]
