"""Benchmark of the local register's company search and autocomplete over a million companies.

Run from the repository root::

    python benchmarks/bench_company_search.py                 # 1,000,000 generated companies
    python benchmarks/bench_company_search.py --companies 200000 --queries 300

The companies are the bundled world's 5,000, varied: new ids and register numbers, names recombined with
surnames of the reference lists (real frequencies), cities and postcodes from the reference lists, a former
name for about one in six. They go through the same :func:`regkit.local.search.company_rows.company_row` and
:class:`regkit.local.search.company_index.CompanyIndex` the register uses. Measured, index only and end to
end through the in-process register: free text (surnames, surname + trade, prefixes, very common words,
cities, register numbers), filters alone (one to three of the served fields), text and filters together, and
autocomplete (the first 2 to 15 characters of names).
"""

from __future__ import annotations

import argparse
import copy
import csv
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from regkit.local.models.catalog import load_catalog  # noqa: E402
from regkit.local.register import open_local_register  # noqa: E402
from regkit.local.search.company_index import CompanyIndex  # noqa: E402
from regkit.local.search.company_request import parse_company_search  # noqa: E402
from regkit.local.search.company_rows import CompanyRow, company_row, wz_parents  # noqa: E402
from regkit.local.world.store import read_world  # noqa: E402

REFERENCE = ROOT / "data" / "reference"
TARGETS = {"text": 50.0, "filters": 50.0, "text + filters": 50.0, "autocomplete": 20.0}


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000, ordered[-1] * 1000


def timed(call: Callable[[Any], object], inputs: list[Any]) -> list[float]:
    """Seconds of ``call(x)`` for each input."""
    out = []
    for item in inputs:
        started = time.perf_counter()
        call(item)
        out.append(time.perf_counter() - started)
    return out


def weighted(path: Path, limit: int) -> tuple[list[str], list[int]]:
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))[:limit]
    return [r["value"] for r in rows], [int(r["count"]) for r in rows]


def places() -> list[tuple[str, str]]:
    """``(postcode, place)`` of the reference postcode list."""
    with (REFERENCE / "postcodes.csv").open(encoding="utf-8") as handle:
        return [(r["plz"], r["ort"]) for r in csv.DictReader(handle)]


class Generator:
    """Varies the world's companies into as many as wanted, deterministically."""

    def __init__(self, world: Any, seed: int = 1):
        self.rng = random.Random(seed)
        self.bases = list(world.companies.values())
        self.surnames, self.surname_weights = weighted(REFERENCE / "officer_last_names.csv", 5000)
        self.surname_cumulative = list(itertools.accumulate(self.surname_weights))
        self.places = places()
        self.open_cases = {
            p["company_id"] for p in world.insolvencies.values() if p.get("company_id") and p.get("has_open_insolvency")
        }
        self.parents = wz_parents()

    def name(self, base: dict[str, Any]) -> str:
        words = base["name"]["name"].split()
        if len(words) > 1 and self.rng.random() < 0.7:
            words[0] = self.rng.choices(self.surnames, cum_weights=self.surname_cumulative)[0]
        return " ".join(words)

    def record(self, i: int) -> dict[str, Any]:
        base = self.bases[i % len(self.bases)]
        record = copy.copy(base)
        number = str(100000 + i)
        court_code = base["id"].split("-")[2]
        register_type = base["register"]["register_type"]
        company_id = f"DE-{register_type}-{court_code}-{number}"
        record["id"] = company_id
        record["register"] = {**base["register"], "company_id": company_id, "register_number": number}
        name = self.name(base)
        record["name"] = {**base["name"], "name": name}
        names = [record["name"]]
        if self.rng.random() < 0.17:
            names.insert(0, {**base["name"], "name": self.name(self.bases[self.rng.randrange(len(self.bases))])})
        record["names"] = names
        postcode, place = self.places[self.rng.randrange(len(self.places))]
        address = dict(base["address"])
        street = address.get("street")
        if street:
            address["street"] = f"{street.rsplit(' ', 1)[0]} {self.rng.randrange(1, 200)}"
        address.update(city=place, postal_code=postcode)
        address["formatted_value"] = ", ".join(p for p in (address.get("street"), f"{postcode} {place}") if p)
        record["address"] = address
        return record

    def rows(self, n: int) -> Iterator[CompanyRow]:
        for i in range(n):
            record = self.record(i)
            yield company_row(record, open_insolvency=record["id"] in self.open_cases, parents=self.parents)


class Queries:
    """Random bodies of each kind, drawn from what the generated companies hold."""

    def __init__(self, world: Any, generator: Generator, n: int, seed: int = 3):
        self.rng = random.Random(seed)
        self.generator = generator
        self.n = n
        bases = generator.bases
        self.trades = sorted({w for c in bases for w in c["name"]["name"].split()[1:2] if w.isalpha() and len(w) > 3})
        self.courts = sorted({c["register"]["register_court"] for c in bases})
        self.cities, self.city_weights = weighted(REFERENCE / "officer_cities.csv", 300)
        self.streets = sorted({c["address"]["street"].rsplit(" ", 1)[0] for c in bases if c["address"].get("street")})
        self.sections = sorted({p for p in generator.parents if len(p) <= 2})

    def surname(self) -> str:
        return self.rng.choices(self.generator.surnames[:500], self.generator.surname_weights[:500])[0]

    def text(self) -> str:
        kind = self.rng.randrange(7)
        if kind == 0:
            return self.surname()
        if kind == 1:
            return f"{self.surname()} {self.rng.choice(self.trades)}"
        if kind == 2:
            return self.surname()[: self.rng.randrange(3, 7)]
        if kind == 3:
            return self.rng.choice(["GmbH", "KG", "Handel", "Service", "GmbH & Co. KG", "Holding"])
        if kind == 4:
            return self.rng.choices(self.cities, self.city_weights)[0]
        if kind == 5:
            return str(100000 + self.rng.randrange(self.n))
        return f"{self.rng.choice(self.trades)} {self.rng.choice(['gmbh', 'kg', 'ag'])}"

    def filter(self, kinds: tuple[int, ...] = tuple(range(12))) -> dict[str, Any]:
        kind = self.rng.choice(kinds)
        year = self.rng.randrange(1960, 2024)
        return [
            lambda: {"field": "status", "value": self.rng.choice(["active", "liquidation", "inactive"])},
            lambda: {"field": "legal_form", "values": self.rng.sample(["gmbh", "kg", "ag", "ug", "ek"], 2)},
            lambda: {"field": "city", "value": self.rng.choices(self.cities, self.city_weights)[0]},
            lambda: {"field": "register_court", "value": self.rng.choice(self.courts)},
            lambda: {"field": "incorporated_at", "min": f"{year}-01-01", "max": f"{year + 5}-12-31"},
            lambda: {"field": "capital_amount", "min": str(self.rng.choice([25000, 50000, 100000, 1000000]))},
            lambda: {"field": "industry_codes", "value": self.rng.choice(self.sections)},
            lambda: {"field": "revenue", "min": str(self.rng.choice([100000, 1000000, 10000000]))},
            lambda: {"field": "has_open_insolvency", "value": "true"},
            lambda: {"field": "purpose", "keywords": [self.rng.choice(["software", "handel", "beratung", "bau"])]},
            lambda: {"field": "address", "keywords": [self.rng.choice(self.streets)]},
            lambda: {"field": "zip", "keywords": [str(self.rng.randrange(10, 99))]},
        ][kind]()

    def body(self, kind: str) -> dict[str, Any]:
        pagination = {"page": 1 if self.rng.random() < 0.8 else self.rng.randrange(2, 20), "per_page": 10}
        if kind == "text":
            return {"query": {"value": self.text()}, "pagination": pagination}
        if kind == "filters":
            return {"filters": [self.filter() for _ in range(self.rng.randrange(1, 4))], "pagination": pagination}
        broad = (0, 1, 4, 5, 6, 7, 9)  # status, legal form, incorporation, capital, industry, revenue, purpose
        filters = [self.filter(broad) for _ in range(self.rng.randrange(1, 3))]
        return {"query": self.text(), "filters": filters, "pagination": pagination}

    def prefix(self) -> str:
        name = self.generator.name(self.rng.choice(self.generator.bases))
        return name[: self.rng.randrange(2, 16)].strip() or name[:2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=1_000_000, help="generated companies (default 1,000,000)")
    parser.add_argument("--queries", type=int, default=500, help="requests to time per kind")
    args = parser.parse_args(argv)
    world = read_world()
    generator = Generator(world)
    started = time.perf_counter()
    rows = list(generator.rows(args.companies))
    generated = time.perf_counter() - started
    started = time.perf_counter()
    index = CompanyIndex.in_memory(rows, dense_min=1000)
    built = time.perf_counter() - started
    del rows
    queries = Queries(world, generator, args.companies)
    results: dict[str, tuple[float, float, float]] = {}
    totals: dict[str, list[int]] = {}
    for kind in ("text", "filters", "text + filters"):
        bodies = [parse_company_search(queries.body(kind)) for _ in range(args.queries)]
        for body in bodies[:20]:
            index.search(body)
        results[f"{kind}, index"] = percentiles(timed(index.search, bodies))
        totals[kind] = [index.search(b)[1] for b in bodies[:100]]
    prefixes = [queries.prefix() for _ in range(args.queries)]
    results["autocomplete, index"] = percentiles(timed(lambda prefix: index.autocomplete(prefix, 10), prefixes))

    with tempfile.TemporaryDirectory() as directory:
        catalog = load_catalog(world)
        catalog._company_index = index  # serve the generated companies instead of the world's
        register = open_local_register(world=world, state_path=Path(directory) / "state.sqlite", rate_limit=None)
        session = register.session("demo-paid")
        search_url = f"{register.base_url}/v1/search/company"
        complete_url = f"{register.base_url}/v1/autocomplete/company"
        for kind in ("text", "filters", "text + filters"):
            bodies = [queries.body(kind) for _ in range(args.queries)]
            results[f"{kind}, in-process HTTP"] = percentiles(
                timed(lambda body: session.post(search_url, json=body).raise_for_status(), bodies)
            )
        results["autocomplete, in-process HTTP"] = percentiles(
            timed(lambda prefix: session.get(complete_url, params={"query": prefix}).raise_for_status(), prefixes)
        )
        register.close()

    print(
        f"\ncompany index: {index.size:,} companies generated in {generated:.1f} s, indexed in {built:.1f} s, "
        f"{len(index.terms.bitmaps)} words and prefixes with bitmaps"
    )
    for kind, found in totals.items():
        print(f"  median matches per {kind} query: {statistics.median(found):,.0f}")
    print(f"\n{'measurement':<34} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}   target (p95)")
    for name, (p50, p95, worst) in results.items():
        target = TARGETS[name.split(",")[0]]
        verdict = "ok" if p95 <= target else "MISSED"
        print(f"{name:<34} {p50:>8.2f} {p95:>8.2f} {worst:>8.2f}   <= {target:.0f} ms  {verdict}")
    index.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
