"""Fair under load: one key's flood of expensive searches against another key's lookups.

Run from the repository root::

    python benchmarks/bench_fairness.py                    # 0 and 32 hostile threads, bound off and on
    python benchmarks/bench_fairness.py --seconds 20 --hostile 0 8 32 --hostile-keys 1 2 4

A real ``regkit serve`` (a subprocess, over loopback HTTP, its default 16 worker threads and rate limit) serves a
copy of the bundled world whose ``world.json`` gives the benchmark's API users enough credits for a long run
(``bench-hostile-1`` ... and ``bench-other``; the copy lives in a temporary directory). N hostile threads send
company searches back to back: 32 filters of 100 one-letter ``address`` keywords, the dearest search the
interface accepts; on a 429 a thread waits the ``Retry-After`` it was given (as regkit's client and the official
client do), then sends again. The threads use one API key, or are spread over several (``--hostile-keys``: the
worker pool is shared by all keys). After ``--warmup`` seconds of that, the other key sends company lookups
(``GET /v1/company/{id}``) one after another, 20 ms apart, for ``--seconds``; their latencies are recorded.

Printed, one row per server setting, hostile thread count and hostile key count: the other key's lookup p50,
p95 and max, its answers (200/429), the hostile keys' answers (200 and 429), beside the target (p95 <= 50 ms
with 32 hostile threads on one key). "before" is ``regkit serve`` with the per-key bound off
(``--key-concurrency 0 --key-work 0 --total-work 0``: the server as it was); "after" is its default bound. The machine may be
shared: the load average is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_P95_MS = 50.0
#: (label, ``regkit serve`` options): today's server with the bound off, as it was, and with its default bound.
SETTINGS = (
    ("before (bound off)", "--key-concurrency 0 --key-work 0 --total-work 0"),
    ("after (default bound)", ""),
)
OTHER_KEY = "bench-other"
#: The hostile keys: ``bench-hostile-1`` ... (``--hostile-keys`` of them share the hostile threads).
MAX_HOSTILE_KEYS = 8
HOSTILE_KEYS = [f"bench-hostile-{n}" for n in range(1, MAX_HOSTILE_KEYS + 1)]
#: 32 filters of 100 one-letter keywords each: the interface's largest company search.
HOSTILE_BODY = {
    "filters": [{"field": "address", "keywords": list((string.ascii_lowercase * 4)[:100])} for _ in range(32)]
}
_BANNER = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")


def world_copy(directory: Path) -> Path:
    """The bundled world copied into ``directory``, with the two benchmark users added to its ``world.json``."""
    from regkit.local.world.store import default_data_dir

    source = default_data_dir()
    target = directory / "world"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("reference"))
    meta_path = target / "world.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    for key in (*HOSTILE_KEYS, OTHER_KEY):
        meta["users"].append({"api_key": key, "plan": "pro", "included_credits": 10**9, "period": "billing_cycle"})
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    return target


def regkit_command() -> list[str]:
    """The ``regkit`` console script beside this Python, else ``python -m regkit.cli``."""
    script = Path(sys.executable).with_name("regkit")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "regkit.cli"]


@contextmanager
def served(world: Path, directory: Path, *options: str) -> Iterator[str]:
    """``regkit serve`` on a free loopback port over ``world``; yields its URL."""
    from cryptography.fernet import Fernet

    directory.mkdir(parents=True, exist_ok=True)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("REGKIT_", "OPENREGISTER_"))}
    environment["REGKIT_LOCAL_SECRET_KEY"] = Fernet.generate_key().decode()
    environment["PYTHONPATH"] = str(ROOT)
    command = [
        *regkit_command(),
        "serve",
        "--port",
        "0",
        "--data",
        str(world),
        "--state",
        str(directory / "state.sqlite"),
        *options,
    ]
    out = directory / "serve.out"
    with out.open("w") as handle:
        process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=environment)
    try:
        deadline = time.monotonic() + 120
        while True:
            match = _BANNER.search(out.read_text(errors="replace"))
            if match:
                url = match.group(1)
                try:
                    if requests.get(f"{url}/v1/openapi.json", timeout=5).ok:
                        break
                except requests.RequestException:
                    pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"regkit serve did not come up:\n{out.read_text(errors='replace')}")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def company_ids(world: Path, count: int) -> list[str]:
    """The first ``count`` company ids of the world."""
    from regkit.local.world.store import read_world

    return list(read_world(world).companies)[:count]


class Hostile:
    """``threads`` threads sending the largest company search until stopped, spread over ``keys`` API keys."""

    def __init__(self, url: str, threads: int, keys: int = 1):
        self.url, self.statuses = url, Counter[int]()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, args=(HOSTILE_KEYS[n % keys],), daemon=True) for n in range(threads)
        ]

    def _run(self, key: str) -> None:
        with requests.Session() as session:
            session.headers["Authorization"] = f"Bearer {key}"
            while not self._stop.is_set():
                try:
                    answer = session.post(f"{self.url}/v1/search/company", json=HOSTILE_BODY, timeout=120)
                except requests.RequestException:
                    continue
                with self._lock:
                    self.statuses[answer.status_code] += 1
                if answer.status_code == 429:
                    self._stop.wait(float(answer.headers.get("Retry-After", "1")))

    def __enter__(self) -> Hostile:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=130)


def lookups(url: str, ids: Sequence[str], seconds: float) -> tuple[list[float], Counter[int]]:
    """The other key's company lookups for ``seconds``: their latencies in seconds, and their statuses."""
    latencies: list[float] = []
    statuses = Counter[int]()
    with requests.Session() as session:
        session.headers["Authorization"] = f"Bearer {OTHER_KEY}"
        deadline = time.monotonic() + seconds
        index = 0
        while time.monotonic() < deadline:
            started = time.perf_counter()
            answer = session.get(f"{url}/v1/company/{ids[index % len(ids)]}", timeout=120)
            latencies.append(time.perf_counter() - started)
            statuses[answer.status_code] += 1
            index += 1
            time.sleep(0.02)
    return latencies, statuses


def percentile(samples: Sequence[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="lookup time per row (default 15)")
    parser.add_argument("--warmup", type=float, default=3.0, help="hostile time before lookups start (default 3)")
    parser.add_argument("--hostile", type=int, nargs="+", default=[0, 32], help="hostile thread counts (0 32)")
    parser.add_argument(
        "--hostile-keys",
        type=int,
        nargs="+",
        default=[1, 4],
        help=f"API keys the hostile threads are spread over (1 4; at most {MAX_HOSTILE_KEYS})",
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=None,
        metavar="LABEL=OPTIONS",
        help="a server setting to measure instead of before/after, e.g. 'tight=--key-work 200ms' (repeatable)",
    )
    args = parser.parse_args(argv)
    if not all(1 <= k <= MAX_HOSTILE_KEYS for k in args.hostile_keys):
        parser.error(f"--hostile-keys takes 1 to {MAX_HOSTILE_KEYS}")
    settings = [s.split("=", 1) for s in args.setting] if args.setting else [list(x) for x in SETTINGS]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(
        f"target: the other key's lookup p95 <= {TARGET_P95_MS:g} ms with 32 hostile threads on one key "
        f"(lookups 20 ms apart for {args.seconds:g} s, after {args.warmup:g} s of hostile load)"
    )
    print(
        f"{'server':<22} {'hostile':>7} {'keys':>4} {'lookups':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
        f"{'other 200/429':>13} {'hostile 200':>11} {'hostile 429':>11} {'target':>8}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-fairness-") as scratch:
        world = world_copy(Path(scratch))
        ids = company_ids(world, 200)
        for number, (label, options) in enumerate(settings):
            with served(world, Path(scratch) / f"serve-{number}", *options.split()) as url:
                for threads in args.hostile:
                    for keys in args.hostile_keys if threads else [1]:
                        with Hostile(url, threads, keys) as hostile:
                            time.sleep(args.warmup if threads else 0)
                            latencies, statuses = lookups(url, ids, args.seconds)
                        ms = [x * 1000 for x in latencies]
                        p95 = percentile(ms, 0.95)
                        verdict = "-" if threads != 32 or keys != 1 else ("met" if p95 <= TARGET_P95_MS else "missed")
                        print(
                            f"{label:<22} {threads:>7} {keys:>4} {len(ms):>7} {statistics.median(ms):>8.1f} "
                            f"{p95:>8.1f} {max(ms):>8.1f} {statuses[200]:>6}/{statuses[429]:<6} "
                            f"{hostile.statuses[200]:>11} {hostile.statuses[429]:>11} {verdict:>8}",
                            flush=True,
                        )


if __name__ == "__main__":
    main()
