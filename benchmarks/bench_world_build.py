"""Build worlds of several sizes and print time and peak memory side by side, streamed and in memory.

Targets (issue 14, "The world generator's memory"): a 100,000-company world streamed to disk
(``build_world_to``, what ``regkit world build`` runs) peaks at ≤ 1 GB, and a 1,000,000-company world builds
on two cores in ≤ 20 minutes (its peak is printed). The earlier target still holds: 100,000 companies in
under 2 minutes. Each build runs in a fresh subprocess, so that its peak resident memory is its own; sizes up
to 100,000 are also built in memory (``build_world`` + ``write_world``, how every world was built before) for
comparison. The whole run takes about 10 minutes, 7 of them for the million companies, which also need about
9 GB of disk while they are built (the records wait in a temporary file to be written in id order);
``--sizes 5000 100000`` leaves them out.

    python benchmarks/bench_world_build.py [--sizes 5000 100000 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, resource, sys, time
from regkit.local.world import build_world, build_world_to, write_world
mode, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
started = time.perf_counter()
if mode == "streamed":
    written = build_world_to(out, size)
    proceedings, groups = written.insolvencies, len(written.meta["groups"])
else:
    world = build_world(size)
    write_world(world, out)
    proceedings, groups = len(world.insolvencies), len(world.meta["groups"])
total = time.perf_counter() - started
peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"mode": mode, "size": size, "total_s": total, "peak_mib": peak_mib, "proceedings": proceedings,
                  "groups": groups}))
"""
#: Largest size also built in memory (a million companies would need about 20 GB that way).
IN_MEMORY_UP_TO = 100_000
TARGET_PEAK_MIB = {100_000: 1024}
TARGET_TOTAL_S = {100_000: 120, 1_000_000: 1200}


def _run(mode: str, size: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-world-") as out:
        result = subprocess.run(
            [sys.executable, "-c", _CHILD, mode, str(size), out], capture_output=True, text=True, check=True
        )
    return json.loads(result.stdout)


def _targets(rows: list[dict]) -> list[str]:
    """One line per size with a target: the streamed build against it."""
    lines = []
    for row in rows:
        size = row["size"]
        if row["mode"] != "streamed" or size not in TARGET_TOTAL_S:
            continue
        parts = [
            f"total ≤ {TARGET_TOTAL_S[size]} s: {row['total_s']:.1f} s ({row['total_s'] / TARGET_TOTAL_S[size]:.2f})"
        ]
        if size in TARGET_PEAK_MIB:
            budget = TARGET_PEAK_MIB[size]
            parts.append(f"peak ≤ {budget} MiB: {row['peak_mib']:.0f} MiB ({row['peak_mib'] / budget:.2f})")
        else:
            parts.append(f"peak {row['peak_mib']:.0f} MiB (reported)")
        lines.append(f"target for {size:,} streamed: " + "; ".join(parts))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 100_000, 1_000_000])
    args = parser.parse_args()
    sizes = sorted(set(args.sizes))
    rows = []
    for size in sizes:
        if size <= IN_MEMORY_UP_TO:
            rows.append(_run("in memory", size))
        rows.append(_run("streamed", size))
    print(
        f"{'companies':>10}  {'build':<10} {'total s':>8} {'peak MiB':>9} {'s/1k cos':>9} {'proceedings':>12} {'groups':>7}"
    )
    for row in rows:
        print(
            f"{row['size']:>10,}  {row['mode']:<10} {row['total_s']:>8.1f} {row['peak_mib']:>9.0f} "
            f"{row['total_s'] / row['size'] * 1000:>9.3f} {row['proceedings']:>12,} {row['groups']:>7,}"
        )
    for line in _targets(rows):
        print(line)


if __name__ == "__main__":
    main()
