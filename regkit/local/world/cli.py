"""``regkit world build|import|index|export``: build a world directory from a seed and a size, import real register
data as one, build the store a world is served from, or write a whole world out as a dataset.

``world export FORMAT`` writes through the analysis layer (:mod:`regkit.frames`), which this layer may not import: the
formats are handlers of command modules above it, which the ``regkit`` command puts in :data:`EXPORTERS` before it
builds its parser (``regkit.cli`` takes each module's ``WORLD_EXPORTERS``: ``regkit.export_cli``'s ``parquet``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["add_commands", "EXPORTERS", "WorldExporter"]


class WorldExporter:
    """A format of ``regkit world export``: its help, how to add its arguments, and its handler (``args -> exit
    status``)."""

    def __init__(
        self,
        help: str,
        description: str,
        arguments: Callable[[argparse.ArgumentParser], None],
        handler: Callable[[argparse.Namespace], int],
    ):
        self.help, self.description, self.arguments, self.handler = help, description, arguments, handler


#: The formats of ``regkit world export``, by name; filled by ``regkit.cli`` from the command modules above this layer
#: before the ``regkit`` parser is built.
EXPORTERS: dict[str, WorldExporter] = {}

#: Where ``regkit world import offeneregister`` writes without ``--out`` (in the current directory).
_IMPORT_OUT = "offeneregister-world"


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``world build``, ``world import`` and ``world index`` on the ``regkit`` command."""
    from .build import DEFAULT_SEED, DEFAULT_SIZE

    world = subparsers.add_parser(
        "world", help="build a synthetic register world, or import real register data (OffeneRegister) as one"
    )
    actions = world.add_subparsers(dest="world_command", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="build a world directory (deterministic for a seed and size; records go to disk as they are built)",
    )
    build.add_argument(
        "--companies", type=int, default=DEFAULT_SIZE, help=f"number of companies (default {DEFAULT_SIZE})"
    )
    build.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    build.add_argument("--out", type=Path, required=True, help="directory to write (created if missing)")
    build.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="directory of the reference lists (default: those bundled with regkit)",
    )
    build.set_defaults(handler=_build)
    _add_import(actions)
    index = actions.add_parser(
        "index",
        help="build or check the store a world is served from (once; later opens are instant) and print where it is",
    )
    index.add_argument(
        "--data",
        type=Path,
        default=None,
        help="world directory (default: the world bundled with regkit; REGKIT_DATA_DIR overrides)",
    )
    index.set_defaults(handler=_index)
    _add_export(actions)


def _add_export(actions: argparse._SubParsersAction) -> None:
    """Register ``world export FORMAT`` with the formats in :data:`EXPORTERS` (none: no ``world export``)."""
    if not EXPORTERS:
        return
    export = actions.add_parser(
        "export", help="write a whole world out as a dataset, read straight from its store (no lookup, no credit)"
    )
    formats = export.add_subparsers(dest="world_format", metavar="FORMAT", required=True)
    for name, exporter in EXPORTERS.items():
        parser = formats.add_parser(name, help=exporter.help, description=exporter.description)
        exporter.arguments(parser)
        parser.set_defaults(handler=exporter.handler)


def _build(args: argparse.Namespace) -> int:
    from .build import build_world_to

    if args.companies < 50:
        print(f"regkit world build: --companies must be at least 50 (got {args.companies})", file=sys.stderr)
        return 2
    started = time.perf_counter()
    written = build_world_to(args.out, args.companies, args.seed, args.reference)
    print(
        f"wrote {written.companies} companies, {written.insolvencies} insolvency proceedings and "
        f"{len(written.meta['groups'])} groups to {written.directory} in {time.perf_counter() - started:.1f} s"
    )
    return 0


def _add_import(actions: argparse._SubParsersAction) -> None:
    """Register ``world import offeneregister`` (issue 24: real companies as a world)."""
    importing = actions.add_parser("import", help="import real register data as a world")
    sources = importing.add_subparsers(dest="import_source", metavar="SOURCE", required=True)
    offene = sources.add_parser(
        "offeneregister",
        help="the OffeneRegister bulk file (de_companies_ocdata.jsonl.bz2, CC BY 4.0) as a world directory",
    )
    offene.add_argument("file", type=Path, help="the bulk file, bz2 or plain JSON lines (a chunk of it will do)")
    offene.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"world directory to write (new or empty; default ./{_IMPORT_OUT}, said on stderr before it starts)",
    )
    offene.add_argument("--limit", type=int, default=None, help="read only the first N lines")
    offene.add_argument(
        "--strict", action="store_true", help="stop at the first bad line (nothing is written) instead of counting it"
    )
    offene.set_defaults(handler=_import_offeneregister)


def _import_offeneregister(args: argparse.Namespace) -> int:
    from regkit.errors import RegkitError, ValidationError

    from .offeneregister import import_offeneregister

    if args.out is None:  # a default directory is written where the user stands: say where, before it starts
        args.out = Path(_IMPORT_OUT).resolve()
        print(
            f"regkit world import offeneregister: no --out given: writing the world to {args.out}",
            file=sys.stderr,
            flush=True,
        )
    started = time.perf_counter()
    try:
        imported = import_offeneregister(
            args.file,
            args.out,
            limit=args.limit,
            strict=args.strict,
            progress=lambda n: print(f"  {n:,} lines read", file=sys.stderr, flush=True),
        )
    except ValidationError as error:
        print(f"regkit world import offeneregister: {error}", file=sys.stderr)
        return 2
    except RegkitError as error:  # no line could be imported, or a mapping process died: nothing was written
        print(f"regkit world import offeneregister: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    report = imported.report
    print(
        f"{report.summary()}; wrote {imported.directory} in {seconds:.1f} s ({report.lines / seconds:,.0f} lines/s: "
        f"world files {imported.world_seconds:.1f} s, store {imported.store_seconds:.1f} s)"
    )
    print(f"report: {imported.directory / 'import-report.json'}; data: OffeneRegister.de (OKF DE), CC BY 4.0")
    print(f"store: {imported.store}")
    return 0


def _index(args: argparse.Namespace) -> int:
    """``regkit world index [--data DIR]``: make sure the world's store is complete and current; say where."""
    from .world_store import StoredWorld, ensure_store

    started = time.perf_counter()
    try:
        store = ensure_store(args.data)
    except (FileNotFoundError, ValueError) as error:
        print(f"regkit world index: {error}", file=sys.stderr)
        return 2
    world = StoredWorld(store)
    print(
        f"world store of {len(world.companies)} companies and {len(world.insolvencies)} insolvency proceedings "
        f"ready in {time.perf_counter() - started:.1f} s: {store}"
    )
    return 0
