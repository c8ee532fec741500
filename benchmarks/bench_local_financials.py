"""Benchmark of the financial statements the local register derives on demand (the world's ``statements`` stage).

Run from the repository root::

    python benchmarks/bench_local_financials.py
    python benchmarks/bench_local_financials.py --lookups 300

Measures
- deriving every company's reports from its record (:func:`regkit.local.world.statements.company_financials`, the
  work a data file would have saved): total, and per company p50/p95/max, with the largest answer's size;
- ``GET /v1/company/{id}/financials`` p50/p95 in-process (adapter) beside ``GET /v1/company/{id}`` of the same
  companies, so the price of deriving on demand is seen next to a plain lookup.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from regkit.local.models.financials import financials_of  # noqa: E402
from regkit.local.register import open_local_register  # noqa: E402


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95)], ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lookups", type=int, default=500, help="companies looked up over the adapter")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        register = open_local_register(
            state_path=Path(directory) / "state.sqlite", key_path=Path(directory) / "key", rate_limit=None
        )
        context = register.context
        companies = [r for r in context.catalog.world.companies.values() if r.get("indicators")]
        financials_of(context, companies[0])  # the groups, once per catalog
        times, largest = [], 0
        started = time.perf_counter()
        for record in companies:
            t0 = time.perf_counter()
            answer = financials_of(context, record)
            times.append((time.perf_counter() - t0) * 1000)
            largest = max(largest, len(json.dumps(answer)))
        total = time.perf_counter() - started
        p50, p95, worst = percentiles(times)
        reports = sum(len(r["indicators"]) for r in companies)
        print(f"derive: {len(companies)} companies, {reports} own reports in {total:.1f} s")
        print(
            f"        per company p50 {p50:.1f} ms  p95 {p95:.1f} ms  max {worst:.1f} ms; largest answer {largest:,} bytes"
        )

        session = register.session("demo-paid")
        sample = [r["id"] for r in companies[:: max(1, len(companies) // args.lookups)]][: args.lookups]
        for path, label in (("/v1/company/{}", "company   "), ("/v1/company/{}/financials", "financials")):
            took = []
            for company_id in sample:
                t0 = time.perf_counter()
                response = session.get(register.base_url + path.format(company_id))
                took.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200, response.text
            p50, p95, worst = percentiles(took)
            print(f"GET {label} in-process: p50 {p50:.1f} ms  p95 {p95:.1f} ms  max {worst:.1f} ms ({len(sample)} ids)")
        register.close()


if __name__ == "__main__":
    main()
