"""Build regkit's wheel and print the figures the README gives about it: its size and the bundled world's share.

The README states no size of its own: it points here, so the figure is never older than the checkout. Run from a
clone (the wheel is built from the working tree, ``pip wheel --no-deps``, into a temporary directory):

    python benchmarks/bench_wheel.py [--keep DIR]

Prints the wheel's file size, and of the files inside it: everything under ``regkit/_data`` (the bundled world,
its reference lists and the OffeneRegister sample) uncompressed and as stored, and the package code.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000


def build(out: Path) -> Path:
    """The wheel of the checkout at ``ROOT``, built into ``out``."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (wheel,) = out.glob("regkit-*.whl")
    return wheel


def figures(wheel: Path) -> dict[str, float]:
    """Sizes in MB: the wheel file; the world (``regkit/_data``) and the rest, uncompressed and as stored."""
    with zipfile.ZipFile(wheel) as archive:
        members = archive.infolist()
    world = [m for m in members if m.filename.startswith("regkit/_data/")]
    rest = [m for m in members if not m.filename.startswith("regkit/_data/")]
    return {
        "wheel file": wheel.stat().st_size / MB,
        "world, stored": sum(m.compress_size for m in world) / MB,
        "world, unpacked": sum(m.file_size for m in world) / MB,
        "rest, stored": sum(m.compress_size for m in rest) / MB,
        "rest, unpacked": sum(m.file_size for m in rest) / MB,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="copy the built wheel into this directory")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        wheel = build(Path(tmp))
        seconds = time.perf_counter() - started
        print(f"{wheel.name} (built in {seconds:.1f} s, {time.strftime('%Y-%m-%d')})")
        for label, size in figures(wheel).items():
            print(f"  {label:<16} {size:6.2f} MB")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy2(wheel, args.keep / wheel.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
