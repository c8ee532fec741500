"""Time ``regkit.graph`` on generated worlds of several sizes and print the numbers side by side.

Target (issue "corporate group structures"): ``from_companies`` over 100,000 companies in ≤ 5 s.
Each size runs in a fresh subprocess (its own peak memory); the world is generated in memory with
``build_world(size)`` (about 30 s for 100,000) and is not part of the timings. Each step is run
``--repeat`` times and the best time is reported (wall clock; for ``from_companies`` also CPU time,
which other processes on the machine do not inflate).

    python benchmarks/bench_graph.py [--sizes 5000 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import gc, json, resource, sys, time
from regkit.local.world import build_world
from regkit.graph import as_of, from_companies, interlocks, organkreis, to_edgelist, ultimate_parent

size, repeat = int(sys.argv[1]), int(sys.argv[2])
started = time.perf_counter()
world = build_world(size)
build_s = time.perf_counter() - started
companies = list(world.companies.values())
tops = [g["organtraeger"] for g in world.meta["groups"]]
rss_world = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


cpu = {}


def best(step, name=None):
    times, cpus = [], []
    for _ in range(repeat):
        gc.collect()
        t, c = time.perf_counter(), time.process_time()
        value = step()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    if name:
        cpu[name] = min(cpus)
    return min(times), value


build, G = best(lambda: from_companies(companies), "from_companies")
rss_graph = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
locks_s, locks = best(lambda: interlocks(G))
parents_s, _ = best(lambda: [ultimate_parent(G, c["id"]) for c in companies])
kreis_s, _ = best(lambda: [organkreis(G, top) for top in tops])
as_of_s, _ = best(lambda: as_of(G, "2015-01-01"))
edges_s, _ = best(lambda: to_edgelist(G))
print(json.dumps({
    "size": size, "world_s": build_s, "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
    "from_companies_s": build, "from_companies_cpu_s": cpu["from_companies"],
    "interlocks_s": locks_s, "interlock_rows": len(locks),
    "ultimate_parent_all_s": parents_s, "organkreis_groups_s": kreis_s, "groups": len(tops), "as_of_s": as_of_s,
    "to_edgelist_s": edges_s, "graph_mib": (rss_graph - rss_world) / 1024,
}))
"""

COLUMNS = [
    ("companies", "size", "{:,}"),
    ("nodes", "nodes", "{:,}"),
    ("edges", "edges", "{:,}"),
    ("from_companies s", "from_companies_s", "{:.2f}"),
    ("from_companies CPU s", "from_companies_cpu_s", "{:.2f}"),
    ("interlocks s", "interlocks_s", "{:.2f}"),
    ("interlock rows", "interlock_rows", "{:,}"),
    ("ultimate_parent ×all s", "ultimate_parent_all_s", "{:.2f}"),
    ("organkreis ×groups s", "organkreis_groups_s", "{:.3f}"),
    ("as_of s", "as_of_s", "{:.2f}"),
    ("to_edgelist s", "to_edgelist_s", "{:.2f}"),
    ("graph MiB (peak Δ)", "graph_mib", "{:.0f}"),
    ("world build s", "world_s", "{:.1f}"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        result = subprocess.run(
            [sys.executable, "-c", _CHILD, str(size), str(args.repeat)], capture_output=True, text=True, check=True
        )
        rows.append(json.loads(result.stdout))
    width = max(len(label) for label, *_ in COLUMNS)
    print(f"{'':<{width}} " + " ".join(f"{row['size']:>12,}" for row in rows))
    for label, key, fmt in COLUMNS[1:]:
        print(f"{label:<{width}} " + " ".join(f"{fmt.format(row[key]):>12}" for row in rows))
    largest = rows[-1]
    scale = largest["size"] / rows[0]["size"] if len(rows) > 1 else 1
    ratio = largest["from_companies_s"] / rows[0]["from_companies_s"] if len(rows) > 1 else 1
    print(
        f"target: from_companies over 100,000 companies ≤ 5 s → {largest['from_companies_s']:.2f} s for "
        f"{largest['size']:,} ({largest['from_companies_s'] / 5:.2f} of the budget); ×{scale:.0f} companies "
        f"took ×{ratio:.1f} the time"
    )


if __name__ == "__main__":
    main()
