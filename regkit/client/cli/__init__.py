"""The client's command-line commands (:mod:`~regkit.client.cli.commands`) and how they print records and frames
in a terminal (:mod:`~regkit.client.cli.format`); ``regkit.cli`` calls :func:`add_commands` on its subparsers."""

from .commands import add_commands, main

__all__ = ["add_commands", "main"]
