"""Putting a built store in place: a building directory beside the target, renamed into place when complete.

A store is built in a directory of its own beside its target (:func:`building_directory`, named after the
building process and unique), then renamed into place in one step (:func:`put_in_place`): a reader sees no store
or a complete one, an interrupted build leaves nothing that would be used, and two processes that build the same
store at once (two test workers opening the bundled world for the first time) both end with a good one — the
second finds the first one's store in place and keeps it. A store already there that is not the same is set
aside and removed, and what interrupted builds left beside a target is removed before the next build
(:func:`remove_abandoned`).
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from .layout import StoreError, check_store

__all__ = ["building_directory", "remove_abandoned", "put_in_place"]


def building_directory(target: Path) -> Path:
    """A new, unique directory beside ``target`` for this process to build its store in (not yet created): its
    name holds this process's id, so that :func:`remove_abandoned` can tell a live build from an abandoned one."""
    return target.parent / f".{target.name}.building-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def remove_abandoned(target: Path) -> None:
    """Remove what interrupted builds of ``target`` left beside it: temporary directories of processes that are
    gone, and stores set aside by a replacement."""
    for path in target.parent.glob(f".{target.name}.*"):
        kind, _, rest = path.name[len(target.name) + 2 :].partition("-")
        if kind == "building":
            try:
                os.kill(int(rest.split("-")[0]), 0)
                continue  # its process is still building
            except (ValueError, ProcessLookupError):
                pass
            except PermissionError:
                continue  # another user's live process
        elif kind != "old":
            continue
        shutil.rmtree(path, ignore_errors=True)


def put_in_place(building: Path, target: Path, digest: str) -> None:
    """Rename the complete store ``building`` to ``target``; a store already there is replaced unless another
    process has just put a good store of the same source (sha256 ``digest``) there.

    Raises
    ------
    StoreError
        The store could not be put in place after a few tries (other processes kept replacing it).
    """
    for _ in range(5):
        try:
            os.rename(building, target)  # atomic; fails when target is a non-empty directory
            return
        except OSError:
            if not target.exists():
                continue
        try:
            if check_store(target)["source"]["sha256"] == digest:
                return  # another process finished the same store first: keep it, drop ours
        except StoreError:
            pass
        aside = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(target, aside)
        except OSError:
            continue
        shutil.rmtree(aside, ignore_errors=True)  # open readers keep their file: POSIX unlinks lazily
    raise StoreError(f"Could not put the world store in place at {target}; remove it and retry.")
