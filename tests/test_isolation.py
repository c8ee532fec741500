"""The suite's autouse isolation (``tests/conftest.py``) holds even when the shell sets regkit's variables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

POLLUTED = {
    "REGKIT_API_KEY": "sk-from-the-shell",
    "REGKIT_BASE_URL": "https://example.invalid",
    "REGKIT_DATA_DIR": "/nonexistent",
    "REGKIT_CACHE": "redis://example.invalid:6379/0",
    "OPENREGISTER_API_KEY": "sk-sdk",
    "OPENREGISTER_CUSTOM_HEADERS": "x=1",
}


def test_no_setting_of_the_shell_reaches_a_test(isolated_env: Path) -> None:
    settings = (
        "REGKIT_API_KEY",
        "REGKIT_BASE_URL",
        "REGKIT_DATA_DIR",
        "REGKIT_CACHE_DIR",
        "REGKIT_CACHE",
        "REGKIT_LOCAL_STATE",
        "REGKIT_LOCAL_SECRET_KEY",
    )  # what regkit reads (README, "Settings")
    leaked = {n: os.environ[n] for n in os.environ if n in settings or n.startswith("OPENREGISTER_")}
    assert leaked == {
        "REGKIT_CACHE_DIR": str(isolated_env / "cache"),
        "REGKIT_LOCAL_STATE": str(isolated_env / "state.sqlite"),
        "REGKIT_LOCAL_SECRET_KEY": leaked.get("REGKIT_LOCAL_SECRET_KEY"),
    }
    assert len(leaked["REGKIT_LOCAL_SECRET_KEY"]) == 44  # a fresh Fernet key


def test_a_polluted_shell_is_cleared_for_every_test(tmp_path: Path) -> None:
    here = Path(__file__)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            f"{here}::test_no_setting_of_the_shell_reaches_a_test",
        ],
        env={**os.environ, **POLLUTED},
        cwd=here.parents[1],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
