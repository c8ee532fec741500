"""The ``regkit`` command: world building and import, the local register, and client commands.

Each layer registers its own sub-commands (``add_commands(subparsers)``); this module only assembles them.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
from collections.abc import Sequence

__all__ = ["main", "build_parser", "version_text"]

#: Modules that contribute sub-commands, in the order they appear in ``regkit --help``.
_COMMAND_MODULES = (
    "regkit.local.world.cli",
    "regkit.local.cli",
    "regkit.client.cli",
    "regkit.export_cli",
    "regkit.agents.cli",
)


def version_text() -> str:
    """``regkit <version>`` as installed (the distribution's metadata, so it matches the wheel)."""
    try:
        return f"regkit {importlib.metadata.version('regkit')}"
    except importlib.metadata.PackageNotFoundError:
        return "regkit (version unknown: not installed; run `pip install -e .` in the checkout)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every layer's sub-commands."""
    parser = argparse.ArgumentParser(
        prog="regkit",
        description="German company register research toolkit.",
        epilog="Every command that can spend credits prints what it spent on stderr when it is done "
        "(regkit: 10 credits spent; ...); -q or REGKIT_QUIET=1 leaves that line out.",
    )
    # Not action="version": that prints and exits as soon as it is read, so `regkit --version extra` would pass.
    parser.add_argument("--version", action="store_true", help="print regkit's version and exit")
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="do not print the credits a command spent (also --quiet after the command, or REGKIT_QUIET=1)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = []
    for name in _COMMAND_MODULES:
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as error:
            if error.name is None or not name.startswith(error.name):
                raise  # a missing dependency inside the module, not a missing layer
    # `regkit world export FORMAT`: the world's commands (the local layer) list formats written by the layers above
    world = next((m for m in modules if m.__name__ == "regkit.local.world.cli"), None)
    if world is not None:
        for module in modules:
            world.EXPORTERS.update(getattr(module, "WORLD_EXPORTERS", {}))
    for module in modules:
        module.add_commands(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        if args.command is not None:
            parser.error(f"--version takes no command (got {args.command!r}): run regkit --version alone")
        print(version_text())
        parser.exit(0)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except FileNotFoundError as error:
        # A missing world, reference list or input file: its message says what to do; no traceback.
        print(f"regkit {args.command}: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`regkit credits | head -1`): not an error of ours; say nothing more.
        sys.stderr.close()
        return 0
    except OSError as error:
        # A path that cannot be written or read (an --out that is a file, a full disk): one line, no traceback.
        where = f" ({error.filename})" if error.filename else ""
        print(f"regkit {args.command}: {error.strerror or error}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
