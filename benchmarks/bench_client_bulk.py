"""Bulk lookups against a slow register, and what the client adds to a cache hit.

Run: ``python benchmarks/bench_client_bulk.py [--companies 1000] [--sample 100] [--workers 16] [--limited 1000]
[--before REV] [--limited-only]``

1. Bulk vs sequential: a local register served over loopback HTTP with 50 ms added to every
   request — a ``LocalServer`` in its own process, as ``regkit serve --latency 50ms`` runs it, so
   the server's CPU does not compete with the client's for one GIL; rate limiting off so the
   measurement is of the client, not of the limiter.  ``get_companies`` fetches N companies with
   16 workers; a plain loop of ``get_company`` fetches a sample of other, uncached ids and is
   scaled to N (said in the output).  Two reference rows on the same 16 threads show where the
   time goes: plain ``requests`` (the machine's and server's ceiling) and a plain requests-cache
   session on SQLite (what caching itself costs, without regkit).
2. Cache hit: ``client.get_company`` on a cached id vs a bare ``requests_cache.CachedSession.get``
   of the same URL on the same kind of SQLite cache.  regkit reads the stored answer with requests-cache's
   ``get_response`` under its own key, in its compact format, instead of going through requests-cache's
   request pipeline, so a hit with validation, ledger row and record costs less than the bare session's.
3. Against a rate limit the client is not told: the same register (+50 ms) with ``regkit serve``'s default limit
   (50 requests per second per key, burst 50; ``--rate-limit``/``--rate-burst`` change it), ``get_companies`` of
   ``--limited`` other uncached ids with 16 workers: this checkout's client with its learned pace (the default)
   and without one (``RetryPolicy(pacing=False)``, deprecated: only each ``Retry-After`` is waited out), the same
   two of the client of an earlier commit (``--before REV``: its tree is unpacked and run, each client in a
   fresh process, against the same server in the same run), and as a reference plain requests behind a
   pyrate-limiter ``Limiter`` that is told the limit.  Printed: the rate achieved, as a share of the limit and
   of what the server allowed in that time (``burst + rate × seconds``), and the share of requests answered
   429.  Targets for the learned pace: ≥ 95 % of the allowed rate, ≤ 2 % answered 429.
   ``--limited-only`` runs this part alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from requests_cache import CachedSession

from regkit.client import Client, RetryPolicy
from regkit.local import Faults, LocalServer, open_local_register
from regkit.local.world.store import read_world


def _timed(fn, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def _serve(
    state: str, latency: float, urls: Any, stop: Any, rate: float | None = None, burst: int | None = None
) -> None:
    register = open_local_register(state_path=state, rate_limit=rate, rate_burst=burst, faults=Faults(latency=latency))
    with LocalServer(register.app) as server:
        urls.put(server.url)
        stop.wait()
    register.close()


@contextmanager
def served(state: Path, latency: float, rate: float | None = None, burst: int | None = None) -> Iterator[str]:
    """A local register with ``latency`` (and a rate limit per key, if ``rate``) on loopback, in a child process
    (like ``regkit serve``)."""
    ctx = multiprocessing.get_context("spawn")
    urls, stop = ctx.Queue(), ctx.Event()
    process = ctx.Process(target=_serve, args=(str(state), latency, urls, stop, rate, burst), daemon=True)
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
            bulk_client = Client(
                api_key="demo-paid", base_url=url, cache=work / f"bulk{run}.sqlite", max_workers=workers
            )
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
    return {
        "bulk_s": bulk,
        "bare_s": bare,
        "bare_cached_s": bare_cached,
        "sequential_sample_s": seq_sample,
        "sequential_scaled_s": sequential,
        "speedup": sequential / bulk,
    }


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
    return {
        "regkit_hit_us": regkit_hit * 1e6,
        "bare_hit_us": bare_hit * 1e6,
        "bare_json_us": bare_json * 1e6,
        "ratio": regkit_hit / bare_hit,
    }


def _client_row(url: str, ids: list[str], workers: int, cache: str, pacing: bool) -> dict[str, float]:
    """One ``get_companies(ids)`` in this process (run as ``--client-row`` in a child, see :func:`_in_child`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pacing=False is deprecated on the new tree
        policy = RetryPolicy(pacing=pacing)
    client = Client(api_key="demo-paid", base_url=url, cache=cache, max_workers=workers, retries=policy)
    seconds = _timed(lambda: client.get_companies(ids, progress=False))
    assert client.credits_spent == 10 * len(ids), client.credits_spent
    sent = client.requests_sent
    client.close()
    return {"seconds": seconds, "sent": sent}


def _in_child(tree: Path | None, url: str, ids: list[str], workers: int, cache: Path, pacing: bool) -> dict:
    """:func:`_client_row` in a fresh Python whose ``regkit`` is the one in ``tree`` (``None``: this checkout's), so
    an earlier commit's client runs beside this one's, against the same server, in the same run."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree if tree is not None else Path(__file__).resolve().parents[1])
    job = json.dumps({"url": url, "ids": ids, "workers": workers, "cache": str(cache), "pacing": pacing})
    done = subprocess.run(
        [sys.executable, __file__, "--client-row", job], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _told_a_limit(url: str, ids: list[str], workers: int, rate: float) -> dict[str, float]:
    """A reference: plain requests on the same threads behind a pyrate-limiter ``Limiter`` that is *told* the
    limit (what a library token bucket needs, and what the client is not given).  A 429 is sent again."""
    from pyrate_limiter import Duration, Limiter, Rate

    limiter = Limiter(Rate(int(rate), Duration.SECOND))
    session = requests.Session()
    session.headers["Authorization"] = "Bearer demo-paid"
    session.mount("http://", requests.adapters.HTTPAdapter(pool_maxsize=workers))
    sent = itertools.count()  # next() is atomic: one count per request, from any thread

    def fetch(cid: str) -> None:
        while True:
            limiter.try_acquire("register")
            answer = session.get(f"{url}/v1/company/{cid}")
            next(sent)
            if answer.status_code != 429:
                answer.raise_for_status()
                return

    with ThreadPoolExecutor(workers) as pool:
        seconds = _timed(lambda: list(pool.map(fetch, ids)))
    session.close()
    return {"seconds": seconds, "sent": next(sent)}


def against_a_rate_limit(
    ids: list[str], workers: int, work: Path, rate: float, burst: int, before: Path | None
) -> dict[str, dict]:
    """``get_companies(ids)`` against a register limited to ``rate`` requests per second (bucket of ``burst``), the
    client not told the limit: this checkout's client with its default pace and without learning one, the client
    of ``before`` (a checkout of an earlier commit) the same, and plain requests behind a library limiter told
    the limit.  Each client in a fresh process, on a fresh cache, after the server's bucket has filled up again;
    one server for all."""
    runs: list[tuple[str, Any]] = []
    for tree, side in ((before, "before"), (None, "after")):
        if side == "before" and tree is None:
            continue
        for pacing in (True, False):
            label = f"{side}: " + ("pacing on (default)" if pacing else "pacing off")
            runs.append((label, (tree, pacing)))
    if importlib.util.find_spec("pyrate_limiter") is not None:  # a test dependency's (schemathesis's), not regkit's
        runs.append(("reference: pyrate-limiter told the limit", None))
    found: dict[str, dict] = {}
    with served(work / "state-limited.sqlite", 0.05, rate, burst) as url:
        for n, (label, how) in enumerate(runs):
            time.sleep(burst / rate + 1)  # a full bucket for each run
            if how is None:
                row = _told_a_limit(url, ids, workers, rate)
            else:
                row = _in_child(how[0], url, ids, workers, work / f"limited-{n}.sqlite", how[1])
            seconds, sent = row["seconds"], row["sent"]
            found[label] = {
                "seconds": seconds,
                "sent": sent,
                "limited": sent - len(ids),
                "rate": len(ids) / seconds,
                "of_limit": len(ids) / seconds / rate,
                "allowed": len(ids) / (burst + rate * seconds),
            }
    return found


def _checkout(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` of this repository, unpacked into ``into`` (for ``--before``)."""
    repo = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(repo), "archive", rev], capture_output=True, check=True).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--hits", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=2, help="bulk runs; the best counts")
    parser.add_argument("--limited", type=int, default=1000, help="ids fetched against the rate limit (0: skip)")
    parser.add_argument("--rate-limit", type=float, default=50.0, help="requests per second per key")
    parser.add_argument("--rate-burst", type=int, default=50, help="requests the server's bucket holds")
    parser.add_argument("--before", help="a commit whose client runs beside this one's against the rate limit")
    parser.add_argument("--limited-only", action="store_true", help="only the rate-limited rows (part 3)")
    parser.add_argument("--client-row", help=argparse.SUPPRESS)  # internal: one client run in a child process
    args = parser.parse_args()
    if args.client_row:
        job = json.loads(args.client_row)
        print(json.dumps(_client_row(job["url"], job["ids"], job["workers"], job["cache"], job["pacing"])))
        return
    every = list(read_world().companies)
    ids, others = every[: args.companies], every[args.companies : args.companies + args.sample]
    start = args.companies + args.sample
    limited_ids = every[start : start + args.limited]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bulk = None if args.limited_only else bulk_vs_sequential(ids, others, args.workers, work, args.runs)
        hit = None if args.limited_only else cache_hit_cost(ids[0], work, args.hits)
        before = _checkout(args.before, work / "before") if args.before else None
        limited = (
            against_a_rate_limit(limited_ids, args.workers, work, args.rate_limit, args.rate_burst, before)
            if limited_ids
            else {}
        )
    if bulk is not None and hit is not None:
        _print_bulk(args, bulk, hit)
    if limited:
        _print_limited(args, limited, len(limited_ids))


def _print_bulk(args: argparse.Namespace, bulk: dict[str, float], hit: dict[str, float]) -> None:
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
        f"{bulk['sequential_scaled_s']:>11.2f}s{bulk['speedup']:>9.1f}×  (target ≥ 14×)"
    )
    print(f"{'cache hit: client.get_company':46}{hit['regkit_hit_us']:>10.0f}µs{hit['ratio']:>9.2f}×")
    print(f"{'cache hit: bare CachedSession.get':46}{hit['bare_hit_us']:>10.0f}µs{1:>10.2f}")
    print(
        f"{'cache hit: bare CachedSession.get().json()':46}{hit['bare_json_us']:>10.0f}µs"
        f"{hit['bare_json_us'] / hit['bare_hit_us']:>10.2f}"
    )


def _print_limited(args: argparse.Namespace, limited: dict[str, dict], count: int) -> None:
    print(
        f"\nagainst a rate limit of {args.rate_limit:g} requests/s (burst {args.rate_burst}) the client is not told, "
        f"+50 ms, {count} uncached ids, {args.workers} workers" + (f"; before = {args.before}" if args.before else "")
    )
    print(f"{'':44}{'time':>8}{'rate':>9}{'of limit':>10}{'of allowance':>14}{'429s':>6}{'of requests':>13}")
    for name, row in limited.items():
        print(
            f"{name:44}{row['seconds']:>7.1f}s{row['rate']:>7.1f}/s{row['of_limit']:>10.1%}{row['allowed']:>14.1%}"
            f"{row['limited']:>6}{row['limited'] / row['sent']:>13.1%}"
        )
    print(f"{'targets (pacing on)':44}{'':>8}{'':>9}{'≥ 95%':>10}{'':>14}{'':>6}{'≤ 2%':>13}")
    print("(of limit: the rate achieved / the limit; of allowance: companies fetched / what the server allowed in")
    print(" that time, its burst included — the pause after the first 429 costs a second's worth of it)")


if __name__ == "__main__":
    main()
