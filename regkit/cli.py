"""The ``regkit`` command: world building, the local register, and client commands.

Each layer registers its own sub-commands (``add_commands(subparsers)``); this module only assembles them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

__all__ = ["main", "build_parser"]

#: Modules that contribute sub-commands, in the order they appear in ``regkit --help``.
_COMMAND_MODULES = ("regkit.local.world.cli", "regkit.local.cli", "regkit.client.cli")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every layer's sub-commands."""
    parser = argparse.ArgumentParser(prog="regkit", description="German company register research toolkit.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name is None or not name.startswith(error.name):
                raise  # a missing dependency inside the module, not a missing layer
            continue
        module.add_commands(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    return int(handler(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
