"""Helpers of the OffeneRegister import tests: the committed sample, files written from it, the CLI as a process."""

from __future__ import annotations

import bz2
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from regkit.local.world.store import bundled_data_dirs

ROOT = Path(__file__).resolve().parents[2]


def sample_path() -> Path:
    """The committed sample (``data/offeneregister/sample.jsonl.bz2``, shipped as ``regkit/_data/...``)."""
    installed, checkout = bundled_data_dirs()
    for base in (installed, checkout):
        path = base / "offeneregister" / "sample.jsonl.bz2"
        if path.is_file():
            return path
    raise FileNotFoundError("the OffeneRegister sample is missing from data/offeneregister/")


def sample_lines() -> list[bytes]:
    """The sample's lines, without their newlines."""
    with bz2.open(sample_path(), "rb") as handle:
        return [line.rstrip(b"\n") for line in handle if line.strip()]


def sample_records() -> list[dict[str, Any]]:
    """The sample's records, parsed here (not by the importer)."""
    return [json.loads(line) for line in sample_lines()]


def write_lines(path: Path, lines: list[bytes], *, compress: bool = True) -> Path:
    """Write ``lines`` as a JSON-lines file, bz2-compressed unless ``compress`` is false."""
    data = b"".join(line + b"\n" for line in lines)
    path.write_bytes(bz2.compress(data) if compress else data)
    return path


def shifted(records: list[dict[str, Any]], times: int) -> list[bytes]:
    """``records`` repeated ``times`` times, register numbers shifted by 10,000,000 per repetition (new ids)."""
    lines = []
    for round_ in range(times):
        for record in records:
            copy = json.loads(json.dumps(record))
            attributes = copy["all_attributes"]
            attributes["_registerNummer"] = str(int(attributes["_registerNummer"]) + round_ * 10_000_000)
            lines.append(json.dumps(copy, ensure_ascii=False).encode())
    return lines


def import_command(*arguments: str) -> list[str]:
    """``regkit world import offeneregister ARGUMENTS`` as a command line for this Python."""
    return [sys.executable, "-m", "regkit", "world", "import", "offeneregister", *arguments]


def run_import(*arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the import as a user does, in a process of its own."""
    return subprocess.run(import_command(*arguments), capture_output=True, text=True, timeout=timeout, cwd=ROOT)
