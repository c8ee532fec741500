"""Build worlds of several sizes and print time and peak memory side by side.

Target (issue "Foundation and the bundled world"): a 100,000-company world in under 2 minutes and 2 GB.
Each size is built in a fresh subprocess so that its peak resident memory is its own.

    python benchmarks/bench_world_build.py [--sizes 5000 100000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, resource, sys, time
from regkit.local.world import build_world, write_world
size, out = int(sys.argv[1]), sys.argv[2]
started = time.perf_counter()
world = build_world(size)
built = time.perf_counter()
write_world(world, out)
done = time.perf_counter()
peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"size": size, "build_s": built - started, "write_s": done - built, "total_s": done - started,
                  "peak_mib": peak_kib / 1024, "proceedings": len(world.insolvencies), "groups": len(world.meta["groups"])}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 100_000])
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as out:
            result = subprocess.run(
                [sys.executable, "-c", _CHILD, str(size), out], capture_output=True, text=True, check=True
            )
        rows.append(json.loads(result.stdout))
    print(
        f"{'companies':>10} {'build s':>8} {'write s':>8} {'total s':>8} {'peak MiB':>9} {'s/1k cos':>9} {'proceedings':>12} {'groups':>7}"
    )
    for row in rows:
        print(
            f"{row['size']:>10,} {row['build_s']:>8.1f} {row['write_s']:>8.1f} {row['total_s']:>8.1f} {row['peak_mib']:>9.0f} "
            f"{row['total_s'] / row['size'] * 1000:>9.3f} {row['proceedings']:>12,} {row['groups']:>7}"
        )
    largest = rows[-1]
    print(
        f"target for 100,000: total ≤ 120 s and peak ≤ 2048 MiB → largest run: {largest['total_s']:.1f} s "
        f"({largest['total_s'] / 120:.2f} of the time budget), {largest['peak_mib']:.0f} MiB "
        f"({largest['peak_mib'] / 2048:.2f} of the memory budget)"
    )


if __name__ == "__main__":
    main()
