"""Fixtures of the MCP server's tests: ``regkit mcp`` as a real subprocess, and anyio's asyncio backend."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture
def anyio_backend() -> str:
    """The MCP SDK runs on anyio; these tests on its asyncio backend."""
    return "asyncio"
