"""The world store against the JSON-lines loader: open time, memory, ``regkit.Client()``, lookups, build time.

Run from a checkout (or with regkit installed)::

    python benchmarks/bench_world_store.py                     # a 1,000,000-company world
    python benchmarks/bench_world_store.py --companies 200000  # smaller, quicker
    python benchmarks/bench_world_store.py --keep /tmp/big     # keep (and reuse) the big world directory

The big world repeats the bundled world's companies with shifted ids and register numbers (copy k adds
k × 1,000,000 to every register number, in the ids and in ``register_number``); persons, documents and
websites are the bundled world's, so repeated copies share them, and the realtime records, proceedings and
shareholdings are the bundled world's as they are. Every figure is measured in a fresh process (imports
included where the row says so) and printed beside its target (issue 24). The JSON-lines loader
(:func:`regkit.local.world.store.read_world`) is run on the bundled world, and on the big one only when it is at
most 50,000 companies (beyond, it would hold every record in memory: its figure is extrapolated and marked so).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from regkit.local.world.store import WORLD_FILES, default_data_dir  # noqa: E402

_ID_NUMBER = re.compile(r"(DE-(?:HRB|HRA|PR|GnR|VR)-[A-Z][0-9]{4}-)([0-9]+)")
_REGISTER_NUMBER = re.compile(r'("register_number":")([0-9]+)')
_SHIFT = 1_000_000


def _python(code: str, *args: str, **settings: str) -> dict:
    """Run ``code`` in a fresh interpreter (bytecode caching on, as for a user; ``settings`` added to its
    environment) and return the JSON it prints."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(settings, PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False, timeout=3600
    )
    if run.returncode != 0:
        raise SystemExit(f"measurement failed:\n{run.stderr}")
    return json.loads(run.stdout.strip().splitlines()[-1])


_RSS = """
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
"""

OPEN_JSONL = (
    _RSS
    + """
import json, sys, time
t = time.perf_counter()
from regkit.local.world.store import read_world
world = read_world(sys.argv[1])
print(json.dumps({"seconds": time.perf_counter() - t, "rss": rss_mb(), "companies": len(world.companies)}))
"""
)

OPEN_STORE = (
    _RSS
    + """
import json, sys, time
t = time.perf_counter()
from regkit.local.world.world_store import open_world
world = open_world(sys.argv[1])
print(json.dumps({"seconds": time.perf_counter() - t, "rss": rss_mb(), "companies": len(world.companies)}))
"""
)

CLIENT = """
import json, logging, sys, time
if sys.argv[2:] == ["without-redis"]:
    sys.modules["redis"] = None  # as in an install without the [redis] extra: `import redis` raises ImportError
logging.getLogger("regkit.notice").setLevel(logging.ERROR)
import regkit
before = None
if sys.argv[1] == "jsonl":
    from regkit.local.world.store import read_world
    t = time.perf_counter(); read_world(); before = time.perf_counter() - t
t, cpu = time.perf_counter(), time.process_time()
client = regkit.Client(cache=False)
seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
t = time.perf_counter()
client.get_company("DE-GnR-B1204-17572")
first = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "cpu": cpu, "read_world": before, "first_lookup": first}))
"""

LOOKUPS = (
    _RSS
    + """
import json, random, statistics, sys, time
from regkit.local.register import open_local_register
from regkit.local.world.store import read_world
directory, count, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
random.seed(7)
if mode == "dict":  # the JSON-lines world in memory: a dict lookup
    world = read_world(directory)
    ids = random.sample(sorted(world.companies), count)
    times = []
    for company_id in ids:
        t = time.perf_counter(); world.companies[company_id]; times.append(time.perf_counter() - t)
else:
    register = open_local_register(directory, extract_delay=0, rate_limit=None)
    world = register.context.catalog.world
    ids = [line.strip() for line in open(sys.argv[4])]
    session = register.session(register.default_api_key)
    times = []
    for company_id in ids[:count]:
        t = time.perf_counter()
        if mode == "store":
            world.companies[company_id]
        else:
            response = session.get(f"{register.base_url}/v1/company/{company_id}")
            assert response.status_code == 200, response.text
        times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({"p50": statistics.median(times) * 1000, "p95": times[int(len(times) * 0.95)] * 1000,
                  "rss": rss_mb()}))
"""
)

BUILD = """
import json, resource, sys, time
from pathlib import Path
from regkit.local.world.world_store import build_store
t = time.perf_counter()
build_store(Path(sys.argv[1]), Path(sys.argv[2]))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": time.perf_counter() - t, "peak": peak}))
"""


def make_big_world(source: Path, out: Path, companies: int) -> list[str]:
    """Write a world of ``companies`` companies to ``out`` by repeating ``source``'s; return a sample of its ids."""
    out.mkdir(parents=True, exist_ok=True)
    for name in WORLD_FILES:
        if name != "companies.jsonl.gz":
            shutil.copy2(source / name, out / name)
    with gzip.open(source / "companies.jsonl.gz", "rt", encoding="utf-8") as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    sample: list[str] = []
    written = 0
    with (out / "companies.jsonl.gz").open("wb") as raw, gzip.GzipFile("", "wb", 1, raw, mtime=0) as gz:
        copy = 0
        while written < companies:
            offset = copy * _SHIFT

            def shift(match: re.Match[str], offset: int = offset) -> str:
                return f"{match.group(1)}{int(match.group(2)) + offset}"

            for line in lines:
                if written == companies:
                    break
                text = line if copy == 0 else _REGISTER_NUMBER.sub(shift, _ID_NUMBER.sub(shift, line))
                gz.write(text.encode("utf-8") + b"\n")
                if written % max(1, companies // 2000) == 0:
                    sample.append(json.loads(text)["id"])
                written += 1
            copy += 1
    # written in copy order; the store keys by id, so the order of lines does not matter to it
    return sample


def row(what: str, before: str, after: str, target: str) -> None:
    print(f"  {what:<44} {before:>22} {after:>22} {target:>14}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=1_000_000)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--keep", type=Path, default=None, help="directory for the big world (kept and reused)")
    args = parser.parse_args()
    bundled = default_data_dir()
    load = os.getloadavg()
    print(f"bench_world_store: {args.companies:,} companies; {os.cpu_count()} cores; load average at start {load}")
    print("  (other engineers' tests share this machine: the figures are noisy; compare the rows of one run)")
    scratch = Path(tempfile.mkdtemp(prefix="bench-world-store-"))
    os.environ["REGKIT_WORLD_CACHE"] = str(scratch / "world-cache")
    os.environ["REGKIT_LOCAL_STATE"] = str(scratch / "state.sqlite")
    os.environ["REGKIT_CACHE_DIR"] = str(scratch / "cache")
    big = args.keep or scratch / "big"
    try:
        started = time.perf_counter()
        if (big / "store" / "store.json").is_file():
            sample = json.loads((big / "sample.json").read_text())
            print(f"  reusing the big world and its store in {big}")
            big_build = None
        else:
            sample = make_big_world(bundled, big, args.companies)
            (big / "sample.json").write_text(json.dumps(sample))
            print(f"  wrote the big world (repeated bundled companies) in {time.perf_counter() - started:.0f} s")
            big_build = _python(BUILD, str(big), str(big / "store"))
        ids_file = scratch / "ids.txt"
        ids_file.write_text("\n".join(sample[i % len(sample)] for i in range(args.lookups)))

        small_build = _python(BUILD, str(bundled), str(scratch / "bundled-store"))
        client_first = _python(CLIENT, "store", REGKIT_WORLD_CACHE=str(scratch / "first-use"))
        _python(OPEN_STORE, str(bundled))  # the bundled world's store in the world cache (first use)
        jsonl_small = _python(OPEN_JSONL, str(bundled))
        store_small = _python(OPEN_STORE, str(bundled))
        client_before = _python(CLIENT, "jsonl")
        client_after = _python(CLIENT, "store")
        client_plain = _python(CLIENT, "store", "without-redis")
        store_big = _python(OPEN_STORE, str(big))
        if args.companies <= 50_000:
            jsonl_big = _python(OPEN_JSONL, str(big))
            jsonl_big_text = f"{jsonl_big['seconds']:.2f} s, {jsonl_big['rss']:.0f} MB"
        else:
            factor = args.companies / jsonl_small["companies"]
            jsonl_big_text = f"~{jsonl_small['seconds'] * factor:.0f} s, ~{jsonl_small['rss'] * factor / 1024:.0f} GB*"
        dict_small = _python(LOOKUPS, str(bundled), str(min(args.lookups, 4000)), "dict")
        read_big = _python(LOOKUPS, str(big), str(args.lookups), "store", str(ids_file))
        http_big = _python(LOOKUPS, str(big), str(args.lookups), "http", str(ids_file))

        print()
        row("", "JSON-lines loader", "world store", "target")
        bundled_n = jsonl_small["companies"]
        row(
            f"open the bundled world ({bundled_n:,} companies)",
            f"{jsonl_small['seconds']:.2f} s",
            f"{store_small['seconds'] * 1000:.0f} ms",
            "",
        )
        row("  resident memory after open (RSS)", f"{jsonl_small['rss']:.0f} MB", f"{store_small['rss']:.0f} MB", "")
        row(
            "regkit.Client() after import regkit",
            f"{client_before['read_world'] + client_after['seconds']:.2f} s†",
            f"{client_after['seconds']:.2f} s (CPU {client_after['cpu']:.2f} s)",
            "<= 0.3 s",
        )
        row(
            "  without the [redis] extra (plain install)",
            "",
            f"{client_plain['seconds']:.2f} s (CPU {client_plain['cpu']:.2f} s)",
            "<= 0.3 s",
        )
        row(
            "  then its first company lookup§",
            "",
            f"{client_after['first_lookup']:.2f} s",
            "",
        )
        row("  the first one (the store built first)", "", f"{client_first['seconds']:.2f} s", "once")
        row(
            f"open the big world ({args.companies:,} companies)",
            jsonl_big_text.split(",")[0],
            f"{store_big['seconds'] * 1000:.0f} ms",
            "<= 1 s",
        )
        row(
            "  resident memory after open (RSS)",
            jsonl_big_text.split(",")[1].strip(),
            f"{store_big['rss']:.0f} MB",
            "<= 200 MB",
        )
        row(
            f"company record read p50 / p95 ({args.lookups:,})",
            f"{dict_small['p50'] * 1000:.1f} / {dict_small['p95'] * 1000:.1f} µs‡",
            f"{read_big['p50']:.2f} / {read_big['p95']:.2f} ms",
            "",
        )
        row(
            "GET /v1/company p50 / p95 (in-process HTTP)",
            "",
            f"{http_big['p50']:.2f} / {http_big['p95']:.2f} ms",
            "p50 <= 2 ms",
        )
        row("  resident memory after the lookups", "", f"{http_big['rss']:.0f} MB", "")
        row(
            f"store build: bundled world ({bundled_n:,})",
            "",
            f"{small_build['seconds']:.1f} s, {small_build['peak']:.0f} MB peak",
            "once",
        )
        if big_build is not None:
            size = (big / "store" / "records.sqlite").stat().st_size / 1e9
            row(
                f"store build: big world ({args.companies:,})",
                "",
                f"{big_build['seconds']:.0f} s, {big_build['peak']:.0f} MB peak",
                "<= 2 GB peak",
            )
            row("  store size on disk", "", f"{size:.1f} GB", "")
        print()
        print(
            "  † what Client() paid before the store: read_world() of the bundled world plus today's Client(), "
            "each in the same fresh process"
        )
        print("  ‡ a dict lookup in the JSON-lines world held in memory (bundled world; no HTTP)")
        print(
            "  § the in-process register builds its web application (Flask) on its first request: "
            "Client() does not import Flask"
        )
        if args.companies > 50_000:
            print(
                "  * not run: the JSON-lines loader would hold every record in memory; "
                "extrapolated from the bundled world"
            )
        print(f"  load average at end {os.getloadavg()}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
