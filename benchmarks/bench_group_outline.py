"""Time the group drawing's outline planning (``regkit.plot.group_outline.plan_outline``) as groups grow, and on
the shapes that could make it quadratic: one parent of very many subsidiaries (a star), a chain of subsidiaries
each under the one before (deep), and the whole bundled-size world's graph at once.

For each shape and size it prints the best of ``--repeat`` wall-clock times and the time per 1,000 nodes next
to the smallest size's: a linear planner keeps that ratio near 1 as the size grows tenfold, a quadratic one
multiplies it by about ten. The graphs are built in memory and are not timed; the garbage collector is off while
the planner runs (see ``_best``).

    python benchmarks/bench_group_outline.py [--sizes 1000 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

import networkx as nx


def _star(size: int) -> nx.MultiDiGraph:
    H = nx.MultiDiGraph()
    H.add_node("top", kind="company", name="Top AG")
    for i in range(size - 1):
        H.add_node(f"c{i}", kind="company", name=f"Tochter {i:06d} GmbH")
        H.add_edge("top", f"c{i}", relation="ownership", share=1.0, relation_type="shareholder")
    return H


def _chain(size: int) -> nx.MultiDiGraph:
    H = nx.MultiDiGraph()
    H.add_node("c0", kind="company", name="Ebene 0 AG")
    for i in range(1, size):
        H.add_node(f"c{i}", kind="company", name=f"Ebene {i} GmbH")
        H.add_edge(f"c{i - 1}", f"c{i}", relation="ownership", share=0.51, relation_type="shareholder")
    return H


def _world(size: int) -> nx.MultiDiGraph:
    from regkit.graph import from_companies
    from regkit.local.world import build_world

    world = build_world(size)
    return from_companies(list(world.companies.values()))


def _best(repeat: int, plan: Any, H: nx.MultiDiGraph, labels: dict[Any, str]) -> tuple[float, int]:
    times, rows = [], 0
    for _ in range(repeat):
        gc.collect()
        gc.disable()  # CPython's full collections grow with every live object: they would hide the planner's own
        try:  # growth (measured: 3.6x per node from 4k to 41k nodes with the collector on, 0.85x with it off)
            started = time.perf_counter()
            outline = plan(H, labels)
            times.append(time.perf_counter() - started)
        finally:
            gc.enable()
        rows = len(outline.rows)
    return min(times), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from regkit.plot.group_outline import plan_outline

    print(f"{'shape':<8}{'nodes':>9}{'rows':>9}{'best s':>10}{'ms per 1k nodes':>17}{'vs smallest':>13}")
    for shape, build in (("star", _star), ("chain", _chain), ("world", _world)):
        first = None
        for size in args.sizes:
            H = build(size)
            labels = {n: str(H.nodes[n].get("name") or n) for n in H}
            seconds, rows = _best(args.repeat, plan_outline, H, labels)
            per_1k = seconds / H.number_of_nodes() * 1000 * 1000
            first = first or per_1k
            print(
                f"{shape:<8}{H.number_of_nodes():>9,}{rows:>9,}{seconds:>10.3f}{per_1k:>17.2f}{per_1k / first:>12.2f}x"
            )


if __name__ == "__main__":
    main()
