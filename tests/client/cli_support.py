"""Running ``regkit`` client commands in-process against a test register (for the CLI tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import regkit.client.target as target
from regkit.client import cli

__all__ = ["cli_runner"]


def cli_runner(
    register: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> Callable[..., tuple[int, str, str]]:
    """``invoke(*argv) -> (status, stdout, stderr)`` running ``regkit <argv>`` on ``register`` in-process.

    The one-time notice about the bundled register counts as said, so stderr holds only what the command
    itself printed."""
    monkeypatch.setattr(target, "_local_adapter", lambda: register.adapter)
    monkeypatch.setattr(target, "_announced", {target.LocalWorld().notice()})  # the test register is synthetic

    def invoke(*argv: str) -> tuple[int, str, str]:
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return invoke
