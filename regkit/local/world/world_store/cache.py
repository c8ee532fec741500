"""Where a world's store lives, and finding it: the world's own ``store/``, or the world cache directory.

:func:`ensure_store` returns a complete store made from the world's current files, building one first where
there is none (or it is stale or damaged): ``DIR/store/`` for a world directory the user can write; for the
bundled world and read-only directories, ``<world cache>/<sha256 of the source files>/`` in
:func:`world_cache_dir`, with a small pointer file per world path (``paths/``) that remembers the sha256 of the
files last seen, so an unchanged world is not hashed again. Builds are put in place atomically
(:mod:`~regkit.local.world.world_store.placement`), so processes that race to build one store — into the world
directory or into one (empty) cache directory — all end with the same good store.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..disk_space import disk_full, room, sqlite_temporary_directory
from ..store import World, bundled_data_dirs, default_data_dir, require_world_files, write_world
from .build import build_store
from .layout import MANIFEST, StoreError, check_store, source_digest, source_stamps, write_json_atomically
from .read import StoredWorld

__all__ = ["world_cache_dir", "ensure_store", "open_world", "store_for_world"]

logger = logging.getLogger("regkit.local.world_store")  # the name log configurations know the store by


def world_cache_dir() -> Path:
    """Where stores of worlds that cannot hold their own are built: ``REGKIT_WORLD_CACHE`` if set, else
    ``worlds/`` in the user cache directory (``platformdirs``)."""
    env = os.environ.get("REGKIT_WORLD_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("regkit")) / "worlds"


def _matches(manifest: dict[str, Any], stamps: list[list[Any]], data_dir: Path, digest: list[str]) -> bool:
    """Whether a store's manifest was made from the files now in ``data_dir``: the stamps, else the sha256
    (computed once, kept in ``digest``)."""
    source = manifest.get("source", {})
    if source.get("files") == stamps:
        return True
    if not digest:
        digest.append(source_digest(data_dir))
    return bool(source.get("sha256") == digest[0])


def _writable(directory: Path) -> bool:
    return os.access(directory, os.W_OK | os.X_OK)


def ensure_store(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The directory of a complete store of the world in ``data_dir`` (default: the bundled one), built first
    where there is none, or where it was made from other files or is damaged (see :mod:`~regkit.local.world.world_store.cache` for where).

    Raises
    ------
    FileNotFoundError
        ``data_dir`` is not a world.
    RegkitError
        A disk ran full while the store was built (the message gives the room left and how to move the store).
    """
    directory = (Path(data_dir) if data_dir is not None else default_data_dir()).resolve()
    require_world_files(directory)
    stamps = source_stamps(directory)
    digest: list[str] = []
    local = directory / "store"
    if local.exists():
        try:
            manifest = check_store(local)
            if _matches(manifest, stamps, directory, digest):
                if manifest["source"]["files"] != stamps and _writable(local):
                    write_json_atomically(
                        local / MANIFEST, {**manifest, "source": {**manifest["source"], "files": stamps}}
                    )
                return local
            logger.info("The world store %s was made from other files: rebuilding it", local)
        except StoreError as exc:
            logger.warning("Not using the world store %s: %s; rebuilding it", local, exc)
    bundled = directory in {d.resolve() for d in bundled_data_dirs()}
    if not bundled and _writable(directory):
        return _timed_build(directory, local, digest)
    return _cached_store(directory, stamps, digest)


def _timed_build(directory: Path, target: Path, digest: list[str]) -> Path:
    started = time.perf_counter()
    try:
        built = build_store(directory, target, digest=digest[0] if digest else None)
    except Exception as exc:
        if not disk_full(exc):
            raise
        from regkit.errors import RegkitError

        temporary, variable = sqlite_temporary_directory()
        cached = target.parent.resolve() == world_cache_dir().resolve()
        move = "set REGKIT_WORLD_CACHE to a directory with more room" if cached else "free space there"
        raise RegkitError(
            f"a disk ran full while building the store of the world {directory} in {target} ({exc}); nothing was "
            "left there",
            suggestion=f"{move} ({room(target.parent)}; a store takes a few times the size of the world's files, "
            f"{sum(size for _, size, _ in source_stamps(directory)) / 1e6:,.1f} MB here), and for temporary files {room(temporary)} (set {variable} to "
            "move them)",
        ) from exc
    logger.info("World store for %s ready in %.1f s", directory, time.perf_counter() - started)
    return built


def _cached_store(directory: Path, stamps: list[list[Any]], digest: list[str]) -> Path:
    """The store of a world that cannot hold its own, in :func:`world_cache_dir` keyed by its sha256; a small
    pointer file per world path remembers the sha256 of the stamps last seen, so an unchanged world is not hashed
    again."""
    cache = world_cache_dir()
    pointer = cache / "paths" / f"{hashlib.sha256(str(directory).encode()).hexdigest()[:32]}.json"
    if not digest:
        try:
            known = json.loads(pointer.read_text(encoding="utf-8"))
            if known.get("files") == stamps:
                digest.append(str(known["sha256"]))
        except (OSError, ValueError, KeyError):
            pass
    if not digest:
        digest.append(source_digest(directory))
    store = cache / digest[0][:32]
    try:
        check_store(store)
        found = True
    except StoreError as exc:
        if store.exists():
            logger.warning("Not using the world store %s: %s; rebuilding it", store, exc)
        found = False
    if not found:
        _timed_build(directory, store, digest)
    pointer.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(pointer, {"world": str(directory), "files": stamps, "sha256": digest[0]})
    return store


def open_world(data_dir: str | os.PathLike[str] | None = None) -> StoredWorld:
    """Open the world in ``data_dir`` (default: the bundled one) from its store, building the store first where
    needed (:func:`ensure_store`)."""
    return StoredWorld(ensure_store(data_dir))


_TEMPORARY: list[Path] = []
_TEMPORARY_LOCK = threading.Lock()


def _remove_temporary() -> None:
    for path in _TEMPORARY:
        shutil.rmtree(path, ignore_errors=True)


def store_for_world(world: World) -> Path:
    """A store of an in-memory ``world`` in a temporary directory, removed when the process exits.

    The world is written as a world directory first and built like any other, so a world object and a
    directory are served by the same code.
    """
    with _TEMPORARY_LOCK:
        if not _TEMPORARY:
            atexit.register(_remove_temporary)
        directory = Path(tempfile.mkdtemp(prefix="regkit-world-"))
        _TEMPORARY.append(directory)
    source = write_world(world, directory / "world")
    return build_store(source, directory / "store")
