"""Bulk lookups against a slow register, and what the client adds to a cache hit.

Run: ``python benchmarks/bench_client_bulk.py [--companies 1000] [--sample 100] [--workers 16]``

1. Bulk vs sequential: a local register served over loopback HTTP with 50 ms added to every
   request — a ``LocalServer`` in its own process, as ``regkit serve --latency 50ms`` runs it, so
   the server's CPU does not compete with the client's for one GIL; rate limiting off so the
   measurement is of the client, not of the limiter.  ``get_companies`` fetches N companies with
   16 workers; a plain loop of ``get_company`` fetches a sample of other, uncached ids and is
   scaled to N (said in the output).  Two reference rows on the same 16 threads show where the
   time goes: plain ``requests`` (the machine's and server's ceiling) and a plain requests-cache
   session on SQLite (what caching itself costs, without regkit).
2. Cache hit: ``client.get_company`` on a cached id vs a bare ``requests_cache.CachedSession.get``
   of the same URL on the same kind of SQLite cache (what regkit adds: validation, the in-flight
   map, budget, ledger row, record).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from requests_cache import CachedSession

from regkit.client import Client
from regkit.local import Faults, LocalServer, open_local_register
from regkit.local.world.store import read_world


def _timed(fn, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def _serve(state: str, latency: float, urls: Any, stop: Any) -> None:
    register = open_local_register(state_path=state, rate_limit=None, faults=Faults(latency=latency))
    with LocalServer(register.app) as server:
        urls.put(server.url)
        stop.wait()
    register.close()


@contextmanager
def served(state: Path, latency: float) -> Iterator[str]:
    """A local register with ``latency`` on loopback, in a child process (like ``regkit serve``)."""
    ctx = multiprocessing.get_context("spawn")
    urls, stop = ctx.Queue(), ctx.Event()
    process = ctx.Process(target=_serve, args=(str(state), latency, urls, stop), daemon=True)
    process.start()
    try:
        yield urls.get(timeout=60)
    finally:
        stop.set()
        process.join(timeout=10)


def _bare_threads(url: str, ids: list[str], workers: int, cache: Path | None = None) -> float:
    """The ceiling of this machine and server: plain requests (or a plain requests-cache session on
    SQLite, when ``cache`` is given) on the same threads, without the client."""
    if cache is None:
        session = requests.Session()
    else:
        session = CachedSession(cache, backend="sqlite", allowable_codes=(200,), wal=True)
    session.headers["Authorization"] = "Bearer demo-paid"
    session.mount("http://", requests.adapters.HTTPAdapter(pool_maxsize=workers))
    with ThreadPoolExecutor(workers) as pool:
        return _timed(lambda: list(pool.map(lambda cid: session.get(f"{url}/v1/company/{cid}").json(), ids)))


def bulk_vs_sequential(ids: list[str], others: list[str], workers: int, work: Path, runs: int) -> dict[str, float]:
    with served(work / "state.sqlite", 0.05) as url:
        bulk = float("inf")
        for run in range(runs):  # best of `runs`, each on a fresh cache (so every id is fetched and paid)
            bulk_client = Client(api_key="demo-paid", base_url=url, cache=work / f"bulk{run}.sqlite",
                                 max_workers=workers)  # fmt: skip
            bulk = min(bulk, _timed(lambda c=bulk_client: c.get_companies(ids, progress=False)))
            assert bulk_client.credits_spent == 10 * len(ids) and bulk_client.requests_sent == len(ids)
            bulk_client.close()
        bare = min(_bare_threads(url, ids, workers) for _ in range(runs))
        bare_cached = min(_bare_threads(url, ids, workers, work / f"bare{run}.sqlite") for run in range(runs))
        seq_client = Client(api_key="demo-paid", base_url=url, cache=work / "seq.sqlite")
        seq_sample = _timed(lambda: [seq_client.get_company(cid) for cid in others])
        seq_client.close()
    sample = len(others)
    sequential = seq_sample * len(ids) / sample
    return {"bulk_s": bulk, "bare_s": bare, "bare_cached_s": bare_cached, "sequential_sample_s": seq_sample,
            "sequential_scaled_s": sequential,
            "speedup": sequential / bulk}  # fmt: skip


def cache_hit_cost(cid: str, work: Path, calls: int) -> dict[str, float]:
    register = open_local_register(state_path=work / "state-hit.sqlite", rate_limit=None)
    client = Client(base_url=register.base_url, adapter=register.adapter, cache=work / "hit.sqlite")
    client.get_company(cid)
    bare = CachedSession(work / "bare.sqlite", backend="sqlite", allowable_codes=(200,), wal=True)
    register.mount(bare)
    bare.headers["Authorization"] = "Bearer demo-paid"
    url = f"{register.base_url}/v1/company/{cid}"
    bare.get(url)
    assert client.get_company(cid).meta.from_cache and bare.get(url).from_cache
    regkit_hit = statistics.median(_timed(lambda: client.get_company(cid), calls // 10) for _ in range(10))
    bare_hit = statistics.median(_timed(lambda: bare.get(url), calls // 10) for _ in range(10))
    bare_json = statistics.median(_timed(lambda: bare.get(url).json(), calls // 10) for _ in range(10))
    client.close()
    bare.close()
    register.close()
    return {"regkit_hit_us": regkit_hit * 1e6, "bare_hit_us": bare_hit * 1e6, "bare_json_us": bare_json * 1e6,
            "ratio": regkit_hit / bare_hit}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--hits", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=2, help="bulk runs; the best counts")
    args = parser.parse_args()
    every = list(read_world().companies)
    ids, others = every[: args.companies], every[args.companies : args.companies + args.sample]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bulk = bulk_vs_sequential(ids, others, args.workers, work, args.runs)
        hit = cache_hit_cost(ids[0], work, args.hits)
    print(
        f"register: LocalServer in a child process, loopback HTTP, +50 ms per request, rate limit off; "
        f"{args.companies} companies"
    )
    print(f"{'':46}{'time':>12}{'ratio':>10}")
    print(
        f"{'get_companies, ' + str(args.workers) + ' workers (best of ' + str(args.runs) + ')':46}"
        f"{bulk['bulk_s']:>11.2f}s{1:>10.1f}"
    )
    print(
        f"{'  ceiling: bare requests, same threads':46}{bulk['bare_s']:>11.2f}s"
        f"{bulk['sequential_scaled_s'] / bulk['bare_s']:>9.1f}×  (no cache, no client)"
    )
    print(
        f"{'  bare requests-cache (SQLite), same threads':46}{bulk['bare_cached_s']:>11.2f}s"
        f"{bulk['sequential_scaled_s'] / bulk['bare_cached_s']:>9.1f}×  (cache, no client)"
    )
    print(
        f"{'get_company loop (' + str(args.sample) + ' ids, scaled ×' + str(args.companies // args.sample) + ')':46}"
        f"{bulk['sequential_scaled_s']:>11.2f}s{bulk['speedup']:>9.1f}×  (target ≥ 12×)"
    )
    print(f"{'cache hit: client.get_company':46}{hit['regkit_hit_us']:>10.0f}µs{hit['ratio']:>9.2f}×")
    print(f"{'cache hit: bare CachedSession.get':46}{hit['bare_hit_us']:>10.0f}µs{1:>10.2f}")
    print(
        f"{'cache hit: bare CachedSession.get().json()':46}{hit['bare_json_us']:>10.0f}µs"
        f"{hit['bare_json_us'] / hit['bare_hit_us']:>10.2f}"
    )


if __name__ == "__main__":
    main()
