"""Re-running on a warm cache: every company of the bundled world from the cache vs a bare ``json.loads``.

Run: ``python benchmarks/bench_cached_rerun.py [--companies 5000] [--repeat 3]``

A notebook that touched 5,000 companies should re-run in about the time it takes to parse them.  The local
register (in-process, rate limit off) fills a SQLite cache — the default backend — with the first N companies
of the bundled world (all 5,000 by default); then, in this one process, side by side:

* ``json.loads`` of the same N stored answers (the bodies as the cache holds them): the baseline;
* ``client.get_companies(ids)`` (bulk, progress bar on, as by default) in a **fresh** ``Client`` on the same
  cache file — a new object, as after a notebook restart — and once more in the same client;
* a loop of ``client.get_company(id)``, in a fresh client and once more in the same client.

Each row is measured ``--repeat`` times, interleaved (the machine is shared); the best run counts.  Every
re-run is checked: nothing sent, N ledger rows from the cache, N × 10 credits saved.  Target: each re-run
≤ 2× the baseline.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from regkit.client import Client
from regkit.local import open_local_register
from regkit.local.world.store import read_world

TARGET = 2.0


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()  # every row starts from the same heap
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _checked(client: Client, rows: int, ids: list[str]) -> None:
    """Everything came from the cache: nothing sent, one cache row per company, every lookup's price saved."""
    ledger = client._ledger.rows()[-len(ids) :]
    assert client.requests_sent == 0, f"{client.requests_sent} requests sent on a warm cache"
    assert len(client._ledger) == rows and all(row.source == "cache" for row in ledger)
    assert client.credits_saved == 10 * rows and client.credits_spent == 0


def one_round(client: Callable[[], Client], ids: list[str], bodies: list[bytes]) -> dict[str, float]:
    """One measurement of each row; ``client()`` makes a fresh client on the filled cache."""
    times: dict[str, float] = {}
    times["json"], parsed = _timed(lambda: [json.loads(body) for body in bodies])
    assert len(parsed) == len(ids)
    del parsed
    made: list[Client] = []

    def fresh() -> Client:  # made inside the timing: a restart pays for it
        made.append(client())
        return made[-1]

    times["bulk_fresh"], batch = _timed(lambda: fresh().get_companies(ids))  # progress bar on, as by default
    bulk = made[-1]
    _checked(bulk, len(ids), ids)
    del batch
    times["bulk_same"], batch = _timed(lambda: bulk.get_companies(ids))
    _checked(bulk, 2 * len(ids), ids)
    del batch
    times["loop_fresh"], records = _timed(lambda: [each.get_company(cid) for each in [fresh()] for cid in ids])
    loop = made[-1]
    _checked(loop, len(ids), ids)
    del records
    times["loop_same"], records = _timed(lambda: [loop.get_company(cid) for cid in ids])
    _checked(loop, 2 * len(ids), ids)
    del records
    for each in made:
        each.close()
    return times


def measure(ids: list[str], work: Path, repeat: int) -> dict[str, float]:
    register = open_local_register(state_path=work / "state.sqlite", rate_limit=None)
    cache = work / "http_cache.sqlite"

    def client() -> Client:
        return Client(api_key="demo-paid", base_url=register.base_url, adapter=register.adapter, cache=cache)

    filling = client()
    fill_s, _ = _timed(lambda: filling.get_companies(ids, progress=False))
    assert filling.requests_sent == len(ids)
    keys = [filling._caller.cache_key(filling._company_op(cid, False, False)) for cid in ids]
    stored = filling.cache.read(keys)
    bodies = [stored[key].body for key in keys]
    filling.close()

    best: dict[str, float] = {"fill": fill_s}
    for _ in range(repeat):
        for name, seconds in one_round(client, ids, bodies).items():
            best[name] = min(best.get(name, float("inf")), seconds)
    register.close()
    best["body_kb"] = sum(map(len, bodies)) / len(bodies) / 1024
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the best counts")
    args = parser.parse_args()
    ids = list(read_world().companies)[: args.companies]
    with tempfile.TemporaryDirectory() as tmp:
        best = measure(ids, Path(tmp), args.repeat)
    n = len(ids)
    print(
        f"{n} cached companies (answers of {best['body_kb']:.1f} KB on average), SQLite cache, local register "
        f"in-process; best of {args.repeat}; filling the cache took {best['fill']:.1f} s"
    )
    print(f"{'':52}{'time':>9}{'per company':>13}{'ratio':>8}")
    rows = [
        ("json.loads of the stored answers (baseline)", "json"),
        ("get_companies(ids), fresh client", "bulk_fresh"),
        ("get_companies(ids), same client again", "bulk_same"),
        ("get_company(id) loop, fresh client", "loop_fresh"),
        ("get_company(id) loop, same client again", "loop_same"),
    ]
    for label, name in rows:
        seconds = best[name]
        ratio = seconds / best["json"]
        mark = "" if name == "json" else ("  ok" if ratio <= TARGET else "  ABOVE TARGET")
        print(f"{label:52}{seconds:>8.2f}s{seconds / n * 1e6:>10.0f} µs{ratio:>7.2f}×{mark}")
    print(f"target: every re-run ≤ {TARGET:g}× the baseline")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
