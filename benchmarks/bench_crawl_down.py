"""Crawl the largest group of the bundled world down from its Organträger, and print what it reached and paid.

Against the bundled register in-process (its own state file, rate limit off so the wall time is the crawl's,
not the register's throttle), through ``regkit.Client`` with a fresh cache: the members ``world.json`` lists
for the group beside the members the crawl reached, the credits spent beside what is expected (10 per company
fetched + 10 per holdings call, each paid once), a second run on the same cache (0 credits), and the upward
crawl from the same company for comparison (what a crawl reached before holdings).

    python benchmarks/bench_crawl_down.py [--depth 6] [--group G017]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from regkit.client import Client
from regkit.graph import crawl
from regkit.local import open_local_register
from regkit.local.world import read_world


def _run(client: Any, top: str, depth: int, direction: str) -> tuple[Any, float]:
    started = time.perf_counter()
    G = crawl(client, top, depth=depth, direction=direction, progress=False)
    return G, time.perf_counter() - started


def _row(label: str, G: Any, seconds: float, client: Any, members: set[str]) -> dict[str, Any]:
    fetched = {n for n, d in G.nodes(data=True) if d.get("kind") == "company" and d.get("fetched")}
    ledger = client.ledger
    paid = ledger[ledger["source"] == "network"]
    companies = int((paid["call"] == "get_company").sum())
    holdings = int((paid["call"] == "get_holdings").sum())
    return {
        "run": label,
        "members listed": len(members),
        "members reached": len(members & fetched),
        "companies fetched": len(fetched),
        "holdings calls": int(G.graph["crawl"].endpoints.query("endpoint == 'holdings'")["calls"].sum()),
        "credits spent": client.credits_spent,
        "expected": 10 * companies + 10 * holdings,
        "levels": len(G.graph["crawl"].rows),
        "wall s": f"{seconds:.3f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--group", help="a group id of world.json (default: the largest group)")
    args = parser.parse_args()
    world = read_world()
    groups = world.meta["groups"]
    group = (
        next(g for g in groups if g["id"] == args.group)
        if args.group
        else max(groups, key=lambda g: (len(g["members"]), g["id"]))
    )
    top, members = group["organtraeger"], set(group["members"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        register = open_local_register(state_path=Path(tmp) / "state.sqlite", rate_limit=None)

        def make(name: str) -> Client:
            return Client(
                api_key=register.default_api_key,
                base_url=register.base_url,
                cache=Path(tmp) / name,
                adapter=register.adapter,
            )

        first = make("down.sqlite")
        G, seconds = _run(first, top, args.depth, "down")
        rows.append(_row("down, fresh cache", G, seconds, first, members))
        again = make("down.sqlite")
        H, seconds = _run(again, top, args.depth, "down")
        rows.append(_row("down, re-run (same cache)", H, seconds, again, members))
        up = make("up.sqlite")
        U, seconds = _run(up, top, args.depth, "up")
        rows.append(_row("up (records' links only)", U, seconds, up, members))
        for client in (first, again, up):
            client.close()
        register.close()
    print(
        f"group {group['id']} ({group['name']}), Organträger {top}, depth {args.depth}; bundled register "
        "in-process, rate limit off"
    )
    names = list(rows[0])
    widths = [max(len(n), *(len(str(r[n])) for r in rows)) for n in names]
    print("  ".join(n.rjust(w) for n, w in zip(names, widths)))
    for row in rows:
        print("  ".join(str(row[n]).rjust(w) for n, w in zip(names, widths)))


if __name__ == "__main__":
    main()
