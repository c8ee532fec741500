"""Benchmark of the local register: start-up, company lookup and insolvency search at scale.

Run from the repository root::

    python benchmarks/bench_local_register.py            # 1,000,000 generated proceedings
    python benchmarks/bench_local_register.py --rows 200000 --lookups 500

Measures
- cold start of an in-process register on the bundled world (fresh interpreter);
- ``GET /v1/company/{id}`` p50/p95, in-process (adapter) and over loopback (``LocalServer``);
- ``POST /v1/search/insolvency`` with a text query and two filters over ``--rows`` synthetic proceedings,
  both on the index alone and end to end through the in-process adapter.

The proceedings are generated column-wise from the bundled reference lists (real name frequencies) and
fed to the same :func:`regkit.local.search.build.build_index` the register uses. The search's worst cases
(very common words, prefixes, filters alone, concurrency) are measured by ``benchmarks/bench_search.py``.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from regkit.local.models.catalog import load_catalog  # noqa: E402
from regkit.local.register import open_local_register  # noqa: E402
from regkit.local.search.index import InsolvencyIndex  # noqa: E402
from regkit.local.search.query import GROUND_BITS, fold  # noqa: E402
from regkit.local.server import LocalServer  # noqa: E402
from regkit.local.world.store import read_world  # noqa: E402
from regkit.schema.interface import INSOLVENCY_STATUSES  # noqa: E402

REFERENCE = ROOT / "data" / "reference"
SUFFIXES = ["GmbH", "GmbH & Co. KG", "UG (haftungsbeschränkt)", "AG", "e.K.", "KG", "OHG"]
TRADES = ["Bau", "Handel", "Logistik", "Immobilien", "Gastronomie", "Software", "Metallbau", "Elektro", "Transporte"]


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def timed(call: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def weighted_names(path: Path, limit: int) -> tuple[list[str], list[int]]:
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))[:limit]
    return [r["value"] for r in rows], [int(r["count"]) for r in rows]


def generate_rows(n: int, courts: list[str], seed: int = 1) -> Iterator[tuple]:
    """``n`` index rows (see :func:`regkit.local.search.build.record_row`), drawn column by column."""
    rng = random.Random(seed)
    last, last_w = weighted_names(REFERENCE / "officer_last_names.csv", 5000)
    first, first_w = weighted_names(REFERENCE / "officer_first_names.csv", 1500)
    cities, city_w = weighted_names(REFERENCE / "officer_cities.csv", 2000)
    fold_cache: dict[str, str] = {}

    def folded(text: str) -> str:
        value = fold_cache.get(text)
        if value is None:
            value = fold_cache[text] = fold(text)
        return value

    lasts = rng.choices(last, last_w, k=n)
    firsts = rng.choices(first, first_w, k=n)
    admins = rng.choices(last, last_w, k=n)
    court_pick = rng.choices(courts, k=n)
    city_pick = rng.choices(cities, city_w, k=n)
    statuses = rng.choices(INSOLVENCY_STATUSES, k=n)
    kinds = [rng.random() < 0.65 for _ in range(n)]  # legal person?
    days = [rng.randrange(0, 5000) for _ in range(n)]
    base = dt.date(2012, 1, 1).toordinal()
    grounds = list(GROUND_BITS)
    for i in range(n):
        legal = kinds[i]
        if legal:
            name = f"{lasts[i]} {TRADES[i % len(TRADES)]} {SUFFIXES[i % len(SUFFIXES)]}"
            name_fold = f"{folded(lasts[i])} {folded(TRADES[i % len(TRADES)])} {folded(SUFFIXES[i % len(SUFFIXES)])}"
        else:
            name = f"{firsts[i]} {lasts[i]}"
            name_fold = f"{folded(firsts[i])} {folded(lasts[i])}"
        opened = dt.date.fromordinal(base + days[i]).isoformat()
        last_event = dt.date.fromordinal(base + days[i] + 30 + i % 700).isoformat()
        case = f"{10 + i % 90} {'IN' if legal else 'IK'} {i % 9973}/{12 + days[i] // 365}"
        admin = f"Rechtsanwalt {admins[i]}"
        ground = grounds[i % 3]
        yield (
            i + 1,
            str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            name,
            "legal_person" if legal else "natural_person",
            "gmbh" if legal else None,
            case,
            court_pick[i],
            city_pick[i],
            statuses[i],
            int(statuses[i] in ("preliminary", "opened")),
            "regular_insolvency" if legal else "consumer_insolvency",
            "external_administration",
            f'["{ground}"]',
            admin,
            None,
            None,
            opened,
            None,
            last_event,
            None,
            folded(court_pick[i]),
            folded(city_pick[i]),
            GROUND_BITS[ground],
            name_fold,
            case.lower(),
            f"rechtsanwalt {folded(admins[i])}",
        )


def cold_start() -> float:
    """Seconds for a fresh interpreter to open an in-process register on the bundled world."""
    code = (
        "import time, tempfile, os; t = time.perf_counter(); "
        "from regkit.local import open_local_register; "
        "d = tempfile.mkdtemp(); open_local_register(state_path=os.path.join(d, 's.sqlite')); "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench_lookups(n: int, tmp: Path) -> dict[str, tuple[float, float]]:
    register = open_local_register(state_path=tmp / "lookups.sqlite", rate_limit=None)
    ids = list(register.context.catalog.world.companies)
    rng = random.Random(2)
    session = register.session("demo-paid")
    for company in ids[:50]:
        session.get(f"{register.base_url}/v1/company/{company}")
    results = {
        "company lookup, in-process": percentiles(
            timed(lambda: session.get(f"{register.base_url}/v1/company/{rng.choice(ids)}"), n)
        )
    }
    with LocalServer(register.app) as server:
        remote = requests.Session()
        remote.headers["Authorization"] = "Bearer demo-paid"
        results["company lookup, loopback"] = percentiles(
            timed(lambda: remote.get(f"{server.url}/v1/company/{rng.choice(ids)}"), max(n // 4, 50))
        )
    register.close()
    return results


def bench_search(rows: int, queries: int, tmp: Path) -> tuple[dict[str, tuple[float, float]], dict[str, float]]:
    world = read_world()
    courts = sorted({p["court"] for p in world.insolvencies.values()})
    started = time.perf_counter()
    InsolvencyIndex.build(tmp / "search.sqlite", generate_rows(rows, courts))
    build = time.perf_counter() - started
    index = InsolvencyIndex.open(tmp / "search.sqlite")
    count = index.size
    catalog = load_catalog(world)
    catalog._index = index  # serve the generated million instead of the world's proceedings
    register = open_local_register(world=world, state_path=tmp / "search-state.sqlite", rate_limit=None)
    session = register.session("demo-paid")
    last, weights = weighted_names(REFERENCE / "officer_last_names.csv", 300)
    rng = random.Random(3)

    def body() -> dict:
        return {
            "query": rng.choices(last, weights)[0],
            "filters": [
                {"field": "court", "value": rng.choice(courts)},
                {"field": "opened_at", "min": f"{rng.randrange(2012, 2024)}-01-01"},
            ],
        }

    from regkit.local.search.request import parse_search_request

    for _ in range(20):
        index.search(parse_search_request(body()))
    direct = timed(lambda: index.search(parse_search_request(body())), queries)
    url = f"{register.base_url}/v1/search/insolvency"
    through = timed(lambda: session.post(url, json=body()).raise_for_status(), queries)
    totals = [session.post(url, json=body()).json()["pagination"]["total_results"] for _ in range(50)]
    register.close()
    results = {
        f"search, index only ({count:,} rows)": percentiles(direct),
        f"search, in-process HTTP ({count:,} rows)": percentiles(through),
    }
    return results, {
        "build_seconds": build,
        "median_total_results": statistics.median(totals),
        "db_megabytes": (tmp / "search.sqlite").stat().st_size / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="generated proceedings (default 1,000,000)")
    parser.add_argument("--lookups", type=int, default=2000, help="company lookups to time in-process")
    parser.add_argument("--queries", type=int, default=500, help="searches to time")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        start = cold_start()
        lookups = bench_lookups(args.lookups, tmp)
        search, facts = bench_search(args.rows, args.queries, tmp)
    targets = {"company lookup, in-process": "p50 <= 2 ms"}
    print(f"\ncold start of an in-process register (bundled world): {start:.2f} s (target ~1.5 s)")
    print(
        f"search index: {args.rows:,} proceedings built in {facts['build_seconds']:.1f} s, "
        f"{facts['db_megabytes']:.0f} MB; median matches per query {facts['median_total_results']:.0f}\n"
    )
    print(f"{'measurement':<48} {'p50 ms':>8} {'p95 ms':>8}   target")
    for name, (p50, p95) in {**lookups, **search}.items():
        target = targets.get(name, "p95 <= 50 ms" if name.startswith("search") else "")
        print(f"{name:<48} {p50:>8.2f} {p95:>8.2f}   {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
