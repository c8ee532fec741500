"""Build every ``regkit.frames`` frame for 10,000 fetched companies, beside a bare ``json.loads`` of them.

Target (issue "frames"): all company frames together in at most 2× the time ``json.loads`` takes for the same
payloads; ``panel`` for 10,000 companies over 12 years reported beside it.

    python benchmarks/bench_frames.py                  # the bundled world's 5,000 records, twice
    python benchmarks/bench_frames.py --build 10000    # a fresh 10,000-company world (distinct companies)

Each timing is the best of ``--repeat`` runs, after a ``gc.collect()``, with the garbage collector as users have
it (enabled).
"""

from __future__ import annotations

import argparse
import functools
import gc
import gzip
import json
import time
from collections.abc import Callable
from typing import Any

import regkit.frames as rf
from regkit.local.world import build_world, default_data_dir, read_world

FIELDS = ("names", "addresses", "purposes", "capitals", "registers")


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The shortest wall time of ``repeat`` runs and the last result."""
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def payload_lines(args: argparse.Namespace) -> tuple[list[str], list[dict]]:
    """The JSON text of each company (what the client receives) and the insolvency proceedings."""
    if args.build:
        world = build_world(args.build)
        lines = [json.dumps(c, ensure_ascii=False) for c in world.companies.values()]
        return lines, list(world.insolvencies.values())
    with gzip.open(default_data_dir() / "companies.jsonl.gz", "rt", encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    return lines * (args.companies // len(lines)) + lines[: args.companies % len(lines)], list(
        read_world().insolvencies.values()
    )


def company_frames(companies: list[dict]) -> dict[str, Callable[[], Any]]:
    """Every per-company frame of the issue, each over all companies at once."""
    jobs: dict[str, Callable[[], Any]] = {f"history({f})": functools.partial(rf.history, companies, f) for f in FIELDS}
    jobs.update(
        {
            "representatives": lambda: rf.representatives(companies),
            "indicators (EUR, wide)": lambda: rf.indicators(companies),
            "links": lambda: rf.links(companies),
            "documents": lambda: rf.documents(companies),
            "insolvency_summaries": lambda: rf.insolvency_summaries(companies),
            "industry_codes": lambda: rf.industry_codes(companies),
            "contact": lambda: rf.contact(companies),
            "companies": lambda: rf.companies(companies),
        }
    )
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=10_000, help="with the bundled world: how many records")
    parser.add_argument("--build", type=int, default=0, help="build a fresh world of this size instead")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    lines, proceedings = payload_lines(args)
    loads, companies = best(lambda: [json.loads(line) for line in lines], args.repeat)
    print(
        f"{len(companies):,} companies, {sum(map(len, lines)) / 1e6:.1f} MB of JSON; "
        f"json.loads: {loads:.3f} s (best of {args.repeat})\n"
    )
    print(f"{'frame':<28}{'rows':>10}{'seconds':>10}{'× loads':>9}")
    total = 0.0
    for name, job in company_frames(companies).items():
        seconds, frame = best(job, args.repeat)
        total += seconds
        print(f"{name:<28}{len(frame):>10,}{seconds:>10.3f}{seconds / loads:>9.2f}")
    verdict = "meets" if total <= 2 * loads else "MISSES"
    print(f"{'all company frames':<28}{'':>10}{total:>10.3f}{total / loads:>9.2f}   {verdict} the 2× target\n")

    indicator_frame = rf.indicators(companies)
    extra = {
        "ratios(indicators)": lambda: rf.ratios(indicator_frame),
        "indicators (long)": lambda: rf.indicators(companies, wide=False),
        "panel (12 years)": lambda: rf.panel(companies, years=range(2013, 2025)),
        "as_of × companies (loop)": lambda: [rf.as_of(c, "2015-06-30") for c in companies],
        "insolvency_results": lambda: rf.insolvency_results(proceedings),
        "events (all proceedings)": lambda: rf.events(proceedings),
    }
    for name, job in extra.items():
        seconds, frame = best(job, args.repeat)
        print(f"{name:<28}{len(frame):>10,}{seconds:>10.3f}{seconds / loads:>9.2f}")


if __name__ == "__main__":
    main()
