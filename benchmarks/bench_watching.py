"""What watching costs (issue 43), each figure beside its reference, in one run.

1. Diffing 10,000 pairs of company answers (the bundled world on its date and half a year on, then a year on) with
   ``regkit.schema.changes.diff_answers``, against ``json.loads`` of the same answers.
2. A watchlist of 1,000 companies of which 5 % changed (as webhook events mark them): ``refresh()`` — credits and
   time — against refetching all 1,000.
3. Webhook delivery: the register's sender posting queued messages to regkit's receiver over loopback HTTP
   (messages/s), and the receiver verifying and storing signed messages without HTTP (events/s).

    python benchmarks/bench_changes.py
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from pathlib import Path

import regkit
from regkit.client.webhook import Receiver
from regkit.local import LocalServer, open_local_register
from regkit.local.delivery import WebhookSender
from regkit.local.models.webhooks import queue_event, set_endpoint
from regkit.local.world import read_world
from regkit.local.world.continuation import Continuation


def watchlist(world: object, directory: Path) -> None:
    register = open_local_register(state_path=directory / "watch.sqlite", rate_limit=None)
    continuation = Continuation.of_world(world)
    events = continuation.events(continuation.as_of, continuation.as_of + dt.timedelta(days=60))
    shown = {
        "director_appointed",
        "director_left",
        "prokura_granted",
        "prokura_ended",
        "address_changed",
        "seat_moved",
        "name_changed",
        "liquidation",
    }  # the events the watched categories show
    touched = sorted({e.company_id for e in events if e.kind in shown})[:50]
    quiet = [c for c in sorted(world.companies) if c not in {e.company_id for e in events}][: 1000 - len(touched)]
    members = touched + quiet
    client = regkit.Client(adapter=register.adapter, cache=directory / "watch-cache.sqlite", quiet=True)
    watched = client.watchlist("bench", companies=members, categories=["basic", "representation"])
    watched.refresh(progress=False)
    register.advance(60)
    for company_id in touched:  # what the webhook receiver does for each event
        client.mark_stale(company_id)
    started = time.perf_counter()
    refresh = watched.refresh(progress=False)
    refreshed = time.perf_counter() - started
    for company_id in members:
        client.mark_stale(company_id)
    started = time.perf_counter()
    spent = client.credits_spent
    client.get_companies(members, progress=False)
    everything = time.perf_counter() - started
    all_credits = client.credits_spent - spent
    print(
        f"1. watchlist of {len(members):,}, {len(touched)} changed: refresh {refresh.credits:,} credits in "
        f"{refreshed:.2f} s ({len(refresh.refreshed)} refetched, {refresh.changes['entity_id'].nunique()} with changes)"
    )
    print(
        f"   refetching all {len(members):,}: {all_credits:,} credits in {everything:.2f} s; "
        f"refresh / all = {refresh.credits / all_credits:.3f} of the credits, {refreshed / everything:.2f} of the time"
    )
    client.close()
    register.close()


def delivery(directory: Path, count: int = 2_000) -> None:
    register = open_local_register(state_path=directory / "hooks.sqlite", rate_limit=None)
    key = register.default_api_key
    mounted: dict[str, Receiver] = {}
    with LocalServer(lambda environ, start: mounted["app"](environ, start)) as server:
        context = register.context  # the endpoint set without starting the register's sender: the one below is alone
        secret = set_endpoint(context.state, context.catalog, key, f"{server.url}/hooks", time.time())
        mounted["app"] = Receiver(secret, directory / "events.sqlite")
        change = {
            "category": "basic",
            "kind": "name_changed",
            "date": "2026-07-01",
            "field": "name",
            "before": "A GmbH",
            "after": "B GmbH",
            "detail": {},
        }
        from regkit.local.models.users import user_ref

        with register.context.state.transaction() as conn:
            for n in range(count):
                queue_event(
                    conn,
                    user_ref(key),
                    "company",
                    f"DE-HRB-B1234-{n}",
                    {"preferences": ["basic"], "update_frequency": "daily"},
                    (dt.date(2026, 7, 1), dt.date(2026, 7, 1)),
                    [change],
                    time.time(),
                )
        sender = WebhookSender(register.context.state, (5.0,), time.time)
        started = time.perf_counter()
        delivered = sender.deliver_due()
        assert delivered == count, (delivered, count)
        posted = time.perf_counter() - started
    print(
        f"2. {count:,} webhooks posted, signed, verified and stored over loopback: {posted:.2f} s, {count / posted:,.0f}/s"
    )
    register.close()


def main() -> None:
    world = read_world()
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        watchlist(world, directory)
        delivery(directory)


if __name__ == "__main__":
    main()
