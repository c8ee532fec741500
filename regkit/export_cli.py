"""The ``regkit export parquet DIR`` command: the cache written out as a Parquet dataset, 0 credits; and the
``parquet`` format of ``regkit world export`` (:data:`WORLD_EXPORTERS`): a whole world written out the same way.

A facade module: it opens the cache as the client does (:mod:`regkit.client.cache`) and hands it to the export
(:func:`regkit.frames.export.export_parquet`), which imports nothing of the client. ``regkit.cli`` calls
:func:`add_commands` on its subparsers. The command reads the cache only — the one a
``regkit.Client()`` uses, or the one ``--cache`` names — and sends nothing; it prints the tables written with
their rows. Errors print one line to stderr: exit status 2 for a refused argument or directory, 1 otherwise.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regkit.errors import RegkitError, ValidationError
from regkit.local.world.cli import WorldExporter

if TYPE_CHECKING:
    from requests_cache import BaseCache

__all__ = [
    "WORLD_EXPORTERS",
    "add_commands",
    "export_cache",
    "export_ftm_command",
    "export_parquet_command",
    "open_cache",
    "world_export_parquet_command",
]


def open_cache(where: str | None) -> BaseCache | None:
    """The requests-cache backend ``--cache`` names, or the one ``regkit.Client()`` uses when ``where`` is None.

    A path must exist (a file, or a directory holding ``http_cache.sqlite``): a mistyped path is an error, not a
    new, empty cache. A ``redis://`` URL is opened as the client opens it.
    """
    from regkit.client.cache.client_cache import CACHE_FILE, open_backend
    from regkit.client.core import Client

    if where is None:
        return open_backend(inspect.signature(Client).parameters["cache"].default)
    if "://" in where:
        return open_backend(where)
    path = Path(where).expanduser()
    file = path / CACHE_FILE if path.is_dir() else path
    if not file.is_file():
        raise ValidationError(
            f"--cache {where}: no cache there ({file} does not exist)",
            suggestion="name the cache file (or its directory) a client used: "
            "Client(cache=PATH), or REGKIT_CACHE_DIR; leave --cache out for the "
            "default cache",
        )
    return open_backend(file)


def export_cache(where: str | None, directory: str | os.PathLike[str], *, overwrite: bool = False) -> dict[str, Any]:
    """Export the cache ``where`` names (:func:`open_cache`) to ``directory``; the manifest.

    The cache is read through the client's :class:`~regkit.client.cache.client_cache.ClientCache`, and the answers the client
    marks user-scoped are left out, as ``client.export_parquet(directory)`` does
    (:func:`regkit.frames.export.export_parquet` for the rest).
    """
    from regkit.client.cache.client_cache import ClientCache
    from regkit.client.cache.policy import SCOPE_HEADER, CachePolicy
    from regkit.frames.export import export_parquet

    handle = ClientCache(open_cache(where), CachePolicy())
    try:
        return export_parquet(handle, directory, overwrite=overwrite, scope_header=SCOPE_HEADER)
    finally:
        handle.close()


def export_parquet_command(args: argparse.Namespace) -> int:
    """``regkit export parquet DIR [--overwrite] [--cache WHERE]``."""
    try:
        manifest = export_cache(args.cache, args.directory, overwrite=args.overwrite)
    except RegkitError as exc:
        print(f"regkit: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2 if isinstance(exc, ValidationError) else 1
    except ImportError as exc:
        print(f"regkit: error: {exc}", file=sys.stderr)
        return 1
    answers = sum(entry["exported"] for entry in manifest["sources"].values())
    print(f"exported {answers} cached answer(s) from {manifest['cache']['location']} to {args.directory}")
    width = max(len(name) for name in manifest["tables"])
    print(f"  {'table'.ljust(width)}  {'rows':>9}  files")
    for name, table in manifest["tables"].items():
        print(f"  {name.ljust(width)}  {table['rows']:>9,}  {len(table['files'])}")
    left = {reason: n for reason, n in manifest["left_out"].items() if n}
    if left:
        print("left out: " + ", ".join(f"{n} {reason.replace('_', ' ')}" for reason, n in left.items()))
    print(f"manifest: {Path(args.directory) / 'manifest.json'}")
    print("0 credits spent: the export read the cache only and sent nothing")
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``export`` (with the sub-command ``parquet``) on ``subparsers``."""
    export = subparsers.add_parser(
        "export", help="write the cache (or, as FtM, a world) out as a dataset (free: nothing is sent)"
    )
    formats = export.add_subparsers(dest="format", metavar="FORMAT", required=True)
    p = formats.add_parser(
        "parquet",
        help="every cached answer as Parquet tables with the frames' dtypes, and a manifest",
        description="Write every cached company, its histories, representatives, indicators and links, owners, "
        "holdings, persons, insolvency proceedings and events, and the results of cached searches as Parquet "
        "tables (one directory of part files each) with manifest.json. Reads the cache only: 0 credits.",
    )
    p.add_argument("directory", metavar="DIR", help="a new or empty directory (created if missing)")
    p.add_argument(
        "--overwrite", action="store_true", help="replace a previous export in DIR (refused if DIR holds anything else)"
    )
    p.add_argument(
        "--cache",
        metavar="WHERE",
        default=None,
        help="the cache to export: a SQLite file or its directory, or a redis:// URL (default: the "
        "cache regkit.Client() uses)",
    )
    p.set_defaults(handler=export_parquet_command)
    f = formats.add_parser(
        "ftm",
        help="the cache, or a whole world, as FollowTheMoney entities (JSON lines) for Aleph, Neo4j and Gephi",
        description="Write companies, persons, directorships, ownerships, successions (mergers, spin-offs), "
        "profit-transfer agreements and insolvency proceedings as FollowTheMoney entities, one per line: from the "
        "cache (default; nothing is sent) or from a world (--data). Load them with FtM's tools: ftm validate, ftm "
        "export-neo4j-bulk, ftm export-gexf. Needs followthemoney (Python >= 3.11): pip install followthemoney.",
    )
    f.add_argument("path", metavar="OUT", help="the file to write, e.g. register.ftm.json")
    where = f.add_mutually_exclusive_group()
    where.add_argument(
        "--data",
        metavar="WORLD",
        default=None,
        help="export this world instead of the cache: a world directory, or 'bundled' for the bundled world",
    )
    where.add_argument(
        "--cache",
        metavar="WHERE",
        default=None,
        help="the cache to export: a SQLite file or its directory, or a redis:// URL (default: the cache "
        "regkit.Client() uses)",
    )
    f.add_argument("--overwrite", action="store_true", help="replace OUT if it exists")
    f.set_defaults(handler=export_ftm_command)


def _failed(command: str, error: BaseException, target: str) -> int:
    """Say on stderr, in one line, why ``command`` wrote nothing at ``target``; the exit status: 130 after Ctrl-C, 2
    for a refused argument, 1 otherwise."""
    if isinstance(error, KeyboardInterrupt):
        print(f"{command}: stopped (Ctrl-C); nothing was written at {target}", file=sys.stderr)
        return 130
    print(f"{command}: {' '.join(str(error).split())}", file=sys.stderr)
    return 2 if isinstance(error, ValidationError) else 1


def export_ftm_command(args: argparse.Namespace) -> int:
    """``regkit export ftm OUT [--data WORLD | --cache WHERE] [--overwrite]``."""
    from regkit.frames.ftm_export import export_ftm

    handle = None
    try:
        if args.data is not None:
            if args.data != "bundled" and not Path(args.data).is_dir():
                raise ValidationError(
                    f"--data {args.data}: no such directory",
                    suggestion="name a world directory (regkit world build --out DIR, regkit world import "
                    "offeneregister FILE --out DIR), or 'bundled'",
                )
            summary = export_ftm(args.path, data=args.data, overwrite=args.overwrite)
        else:
            from regkit.client.cache.client_cache import ClientCache
            from regkit.client.cache.policy import CachePolicy

            handle = ClientCache(open_cache(args.cache), CachePolicy())
            summary = export_ftm(args.path, cache=handle, overwrite=args.overwrite)
    except (RegkitError, ImportError, FileNotFoundError, KeyboardInterrupt) as exc:
        return _failed("regkit export ftm", exc, args.path)
    finally:
        if handle is not None:
            handle.close()
    source = summary["source"]
    where = source.get("location") if source["kind"] == "cache" else source.get("source", "a synthetic world")
    total = sum(summary["entities"].values())
    print(
        f"wrote {total:,} FollowTheMoney entities from {sum(summary['answers'].values()):,} answers ({where}) to "
        f"{summary['path']} in {summary['seconds']:.1f} s"
    )
    for schema, count in summary["entities"].items():
        print(f"  {schema:<15} {count:>10,}")
    if summary["unreadable"]:
        print(f"left out: {summary['unreadable']} cached answer(s) that could not be read")
    if source.get("attribution"):
        print(f"licence: {source['attribution']}")
    print(
        f"next: ftm validate -i {args.path}; ftm export-neo4j-bulk -i {args.path} -o DIR; ftm export-gexf -i "
        f"{args.path} -o graph.gexf"
    )
    return 0


def _world_parquet_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "world",
        metavar="WORLD",
        help="the world directory (regkit world build / import offeneregister wrote it), or 'bundled' for the world "
        "bundled with regkit",
    )
    parser.add_argument("directory", metavar="DIR", help="a new or empty directory (created if missing)")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace a previous export in DIR (refused if DIR holds anything else)"
    )
    parser.add_argument("--workers", type=int, default=None, help="processes at once (default: one per core)")
    parser.add_argument(
        "--ids-per-part",
        type=int,
        default=None,
        help="answers whose rows go into one part file per table (default 100,000)",
    )


def world_export_parquet_command(args: argparse.Namespace) -> int:
    """``regkit world export parquet WORLD DIR [--overwrite] [--workers N] [--ids-per-part N]``."""
    from tqdm import tqdm

    from regkit.frames.world_export import IDS_PER_PART, export_world

    world = None if args.world == "bundled" else Path(args.world)
    if world is not None and not world.is_dir():
        print(
            f"regkit world export parquet: WORLD {args.world}: no such directory; name a world directory (regkit world "
            "build --out DIR, or regkit world import offeneregister FILE --out DIR), or 'bundled'",
            file=sys.stderr,
        )
        return 2
    bar = tqdm(unit=" answers", desc="exporting", file=sys.stderr, disable=None)
    try:
        manifest = export_world(
            args.directory,
            world,
            overwrite=args.overwrite,
            workers=args.workers,
            ids_per_part=IDS_PER_PART if args.ids_per_part is None else args.ids_per_part,
            progress=lambda kind, answers: bar.update(answers),
        )
    except RegkitError as exc:
        print(f"regkit world export parquet: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2 if isinstance(exc, ValidationError) else 1
    except (ImportError, FileNotFoundError) as exc:
        print(f"regkit world export parquet: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        bar.close()
        print(
            f"regkit world export parquet: stopped (Ctrl-C); nothing was written at {args.directory}", file=sys.stderr
        )
        return 130
    finally:
        bar.close()
    source = manifest["world"]
    what = "synthetic world" if source.get("synthetic") else f"world from {source.get('source', 'an unknown source')}"
    print(
        f"exported the {what} of {manifest['accounted']['companies']['store']:,} companies (as of "
        f"{source.get('as_of')}) to {args.directory} in {manifest['seconds']:.1f} s"
    )
    width = max(len(name) for name in manifest["tables"])
    print(f"  {'table'.ljust(width)}  {'rows':>11}  files")
    for name, table in manifest["tables"].items():
        print(f"  {name.ljust(width)}  {table['rows']:>11,}  {len(table['files'])}")
    for kind, left in manifest["left_out"].items():
        print(f"left out: {left['count']} {kind} answer(s) no table could hold (their ids are in the manifest)")
    print(f"manifest: {Path(args.directory) / 'manifest.json'}")
    if source.get("attribution"):
        print(f"licence: {source['attribution']}")
    return 0


#: The formats this module writes a whole world in (``regkit world export FORMAT``; see regkit.local.world.cli).
WORLD_EXPORTERS = {
    "parquet": WorldExporter(
        help="every company, person, shareholding and proceeding of a world as Parquet tables, and a manifest",
        description="Write a whole world — the bundled one, a built one, or the OffeneRegister file imported — as the "
        "Parquet tables of regkit export parquet (companies, their histories, representatives, owners, holdings, "
        "persons, proceedings and events; and statements, the filed reports' line items), read straight from the "
        "world's store in parallel: no lookup, no credit. Read it with DuckDB (regkit.frames.register_sql.connect), "
        "pandas, pyarrow or Dask.",
        arguments=_world_parquet_arguments,
        handler=world_export_parquet_command,
    )
}
