"""Advancing the bundled world: a year of register events, folded day by day (issue 43).

Prints, in one run: the time to build the continuation, to fold 365 days (days/s, events generated), the peak
memory the fold adds (tracemalloc), beside reading every stored record once (the baseline any answer pays), and
a year of monitors' checks through ``regkit local advance``'s path (one daily monitor on each of 50 companies),
and the first company, person and insolvency search a year on (each builds its index of the day's records) beside
the same searches on the world's date (the store's index files) and a second search a year on.

    python benchmarks/bench_continuation.py
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
import tracemalloc
from pathlib import Path

from regkit.local.register import open_local_register
from regkit.local.world import read_world
from regkit.local.world.continuation import Continuation
from regkit.local.world.reference import load_reference
from regkit.local.world.store import default_reference_dir


def main() -> None:
    started = time.perf_counter()
    world = read_world()
    read = time.perf_counter() - started
    reference = load_reference(default_reference_dir())
    tracemalloc.start()
    started = time.perf_counter()
    continuation = Continuation.of_world(world, reference)
    built = time.perf_counter() - started
    started = time.perf_counter()
    end = continuation.as_of + dt.timedelta(days=365)
    continuation.fold_to(end)
    folded = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    events = continuation.events(continuation.as_of, end)
    print(f"reading the stored world (read_world, {len(world.companies)} companies): {read:.2f} s")
    print(f"continuation built: {built:.2f} s")
    print(
        f"a year folded: {folded:.2f} s, {365 / folded:.0f} days/s, {len(events)} events, "
        f"{len(continuation.changed(end))} companies changed; peak {peak / 2**20:.0f} MiB over the stored world"
    )
    with tempfile.TemporaryDirectory() as directory:
        register = open_local_register(state_path=Path(directory) / "state.sqlite", rate_limit=None)
        session = register.session(register.default_api_key)
        for company_id in list(world.companies)[::100]:
            body = {
                "entity_type": "company",
                "entity_id": company_id,
                "preferences": ["basic", "representation", "financials"],
                "update_frequency": "daily",
            }
            session.post(f"{register.base_url}/v1/monitor", json=body).raise_for_status()
        started = time.perf_counter()
        register.advance(365)
        checked = time.perf_counter() - started
        print(
            f"a year of 50 daily monitors' checks (one advance): {checked:.2f} s, "
            f"{len(register.deliveries(register.default_api_key))} events queued"
        )
        on_the_date = open_local_register(state_path=Path(directory) / "date.sqlite", rate_limit=None)
        searches = {
            "company": ("/v1/search/company", {"query": {"value": "Handel GmbH"}}),
            "person": ("/v1/search/person", {"query": {"value": "Müller"}}),
            "insolvency": ("/v1/search/insolvency", {"query": {"value": "GmbH"}}),
        }
        print("searches (s): kind, on the world's date (index files), first a year on (builds the day's index), again")
        for kind, (path, body) in searches.items():
            times = []
            for target in (on_the_date, register, register):
                started = time.perf_counter()
                answer = target.session(target.default_api_key).post(f"{target.base_url}{path}", json=body)
                answer.raise_for_status()
                times.append(time.perf_counter() - started)
            print(
                f"  {kind:<10} {times[0]:8.3f} {times[1]:8.3f} {times[2]:8.3f}  (first a year on: {times[1] / times[0]:.0f}x)"
            )
        on_the_date.close()
        register.close()


if __name__ == "__main__":
    main()
