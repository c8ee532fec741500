"""Running ``regkit`` client commands for the CLI tests: in-process against a test register (:func:`cli_runner`), or
as the ``regkit`` command in its own process on the bundled register (:func:`regkit_run`, :func:`shell_env`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import regkit.client.transport.target as target
from regkit.client.cli import commands as cli

__all__ = ["cli_runner", "regkit_run", "shell_env"]


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


def shell_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a shell without any ``REGKIT_*`` or ``OPENREGISTER_*`` setting, with the cache and the
    bundled register's state in ``tmp_path``; ``extra`` added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REGKIT_", "OPENREGISTER_"))}
    env.update(
        {"REGKIT_CACHE_DIR": str(tmp_path / "cache"), "REGKIT_LOCAL_STATE": str(tmp_path / "state.sqlite"), **extra}
    )
    return env


def regkit_run(*argv: str, env: dict[str, str], **options: Any) -> subprocess.CompletedProcess[str]:
    """``regkit <argv>`` in its own process (``python -m regkit``), its output captured as text; ``options`` go to
    :func:`subprocess.run` (``cwd=``)."""
    return subprocess.run(
        [sys.executable, "-m", "regkit", *argv], capture_output=True, text=True, timeout=300, env=env, **options
    )
