"""Advancing the bundled world: a year of register events, folded day by day (issue 43).

Prints, in one run: the time to build the continuation, to fold 365 days (days/s, events generated), the peak
memory the fold adds (tracemalloc), beside reading every stored record once (the baseline any answer pays), and
a year of monitors' checks through ``regkit local advance``'s path (one daily monitor on each of 50 companies).

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
    continuation = Continuation(world.meta, world.companies, world.realtime, world.insolvencies, reference)
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
        register.close()


if __name__ == "__main__":
    main()
