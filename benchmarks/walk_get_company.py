"""Walk one ``Client.get_company(id)`` through the client and count the rooms it enters.

A room is a module of ``regkit.client``; entering it is a call from another module into it. The walk is printed as
the sequence of rooms, and per room how often it was entered, for a lookup the cache does not hold (sent to the
bundled local register in-process) and for the same lookup again (answered from the cache). Re-entering a room is
what the house's second step (issue 42) set out to remove: a call's cache lifetime and "may this answer be stored"
were worked out again from its URL (``transport/call.py`` entered 8 times, ``policy.py`` 4–5). Since then the caller
(``transport.call``) and the cache policy (``cache.policy``) are entered once on a hit and once on a miss; the rooms
entered more than once are entered for different steps — ``transport.operation`` is the operation itself (each of
its properties read is an entry), ``cache.store`` is read, then written (a miss reads twice: once before and once
as the one call in flight, so a call that just stored the answer is not paid again), ``transport.inflight`` claims
and settles the call, and ``arguments.validation`` checks each argument.

Run: ``python benchmarks/walk_get_company.py``.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from types import FrameType
from typing import Any

import regkit


def walk(client: Any, company_id: str) -> list[str]:
    """The rooms one ``get_company`` enters, in order."""
    rooms: list[str] = []

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        module = frame.f_globals.get("__name__", "")
        if event == "call" and module.startswith("regkit.client"):
            caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back is not None else ""
            if caller != module:
                rooms.append(module.removeprefix("regkit.client."))
        return None

    sys.setprofile(None)
    sys.settrace(tracer)
    try:
        client.get_company(company_id)
    finally:
        sys.settrace(None)
    return rooms


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        client = regkit.Client(cache=f"{home}/cache.sqlite", ledger_file=None, quiet=True)
        company_id = client.search_companies("GmbH", per_page=1).results[0]["company_id"]
        for label in ("a miss (sent to the local register)", "a hit (answered from the cache)"):
            rooms = walk(client, company_id)
            counts = Counter(rooms)
            print(f"get_company, {label}: {len(rooms)} entries into {len(counts)} rooms")
            print("  walk: " + " → ".join(rooms))
            for room, count in counts.most_common():
                print(f"  {count:3d}× {room}")
        client.close()


if __name__ == "__main__":
    main()
