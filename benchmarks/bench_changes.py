"""What changed, measured: diffing answer pairs against parsing them, and the webhook receiver's verified events/s.

Run: ``python benchmarks/bench_changes.py [--pairs 10000] [--events 2000] [--repeat 3]``

Side by side, in one process:

* **Diffs.** ``--pairs`` company records of the bundled world (repeated when it has fewer), each paired with a copy
  edited the way the register changes a company — every 20th renamed, every 20th (another) with its first
  director leaving, every 50th moved to another city, the rest unchanged but for new presigned URLs. The baseline
  is ``json.loads`` of both answers of every pair (what reading two stored versions costs anyway); the row is
  ``regkit.schema.changes.diff_answers`` of the parsed pairs. Target: diffing costs no more than parsing.
* **Receiver.** ``--events`` signed events (Standard Webhooks, ``standardwebhooks``) sent to
  ``regkit.client.webhook.Receiver`` — once straight into the WSGI application, once over loopback HTTP
  (waitress, one connection, as a sender retries one by one) — each verified, checked, and committed to its SQLite
  store before it is answered. Printed: events/s, and the signature check alone for comparison.

Each row is measured ``--repeat`` times, interleaved; the best run counts. Reference rows are printed beside the
measured ones so the ratios read on any machine.
"""

from __future__ import annotations

import argparse
import base64
import copy
import io
import json
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SECRET = "whsec_" + base64.b64encode(b"bench-secret-bench-secret-bench!").decode()


def _pairs(count: int) -> list[tuple[bytes, bytes]]:
    from regkit.local.world.store import read_world

    companies = list(read_world().companies.values())
    pairs = []
    for n in range(count):
        before = companies[n % len(companies)]
        after = copy.deepcopy(before)
        after["sources"] = [{"document_url": f"https://example.test/{n}", "expires_at": "2030-01-01T00:00:00Z"}]
        if n % 20 == 0 and after.get("name"):
            after["name"] = {**after["name"], "name": after["name"]["name"] + " Neu", "start_date": "2027-01-01"}
        if n % 20 == 10:
            for entry in after.get("representation") or []:
                if not entry.get("end_date"):
                    entry["end_date"] = "2027-01-02"
                    break
        if n % 50 == 5 and after.get("address"):
            after["address"] = {**after["address"], "city": "Leipzig", "start_date": "2027-01-03"}
        pairs.append((json.dumps(before).encode(), json.dumps(after).encode()))
    return pairs


def _best(runs: list[float]) -> float:
    return min(runs)


def _timed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _signed(events: int) -> list[tuple[dict[str, str], bytes]]:
    from standardwebhooks import Webhook

    from regkit.schema.changes import diff_answers

    hook = Webhook(SECRET)
    before = {"id": "DE-HRB-B1234-1", "name": {"name": "Alpha GmbH", "start_date": "2001-01-01"}}
    after = {"id": "DE-HRB-B1234-1", "name": {"name": "Beta GmbH", "start_date": "2027-01-01"}}
    changes = diff_answers("get_company", before, after)
    now = datetime.now(timezone.utc)
    signed = []
    for n in range(events):
        body = json.dumps(
            {
                "id": f"evt_{n}",
                "type": "company.changed",
                "created_at": "2027-01-01T00:00:00Z",
                "entity_type": "company",
                "entity_id": "DE-HRB-B1234-1",
                "monitor": {"preferences": ["basic"], "update_frequency": "daily"},
                "period": {"from": "2027-01-01", "to": "2027-01-01"},
                "changes": changes,
            }
        ).encode()
        headers = {
            "webhook-id": f"msg_{n}",
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": hook.sign(f"msg_{n}", now, body),
        }
        signed.append((headers, body))
    return signed


def _wsgi(receiver: Any, signed: list[tuple[dict[str, str], bytes]]) -> None:
    statuses: list[str] = []
    for headers, body in signed:
        environ = {
            "REQUEST_METHOD": "POST",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
        }
        receiver(environ, lambda status, headers, *rest: statuses.append(status))
    assert all(status.startswith("200") for status in statuses), statuses[:3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import requests
    from standardwebhooks import Webhook
    from waitress import create_server

    from regkit.client.webhook import Receiver
    from regkit.schema.changes import diff_answers

    pairs = _pairs(args.pairs)
    parsed = [(json.loads(a), json.loads(b)) for a, b in pairs]
    found = sum(len(diff_answers("get_company", a, b)) for a, b in parsed)
    parse, diff = [], []
    for _ in range(args.repeat):
        parse.append(_timed(lambda: [(json.loads(a), json.loads(b)) for a, b in pairs]))
        diff.append(_timed(lambda: [diff_answers("get_company", a, b) for a, b in parsed]))
    print(f"diffs: {args.pairs} company answer pairs, {found} changes found")
    print(f"  json.loads of both answers (reference)  {_best(parse) * 1000:8.1f} ms")
    print(
        f"  diff_answers of the parsed pairs        {_best(diff) * 1000:8.1f} ms   "
        f"{_best(diff) / _best(parse):.2f}× the parse"
    )

    signed = _signed(args.events)
    hook = Webhook(SECRET)
    verify, wsgi, http = [], [], []
    for _ in range(args.repeat):
        verify.append(_timed(lambda: [hook.verify(body, headers, json_parse=False) for headers, body in signed]))
        with tempfile.TemporaryDirectory() as scratch:
            receiver = Receiver(SECRET, Path(scratch) / "events.sqlite")
            wsgi.append(_timed(lambda r=receiver: _wsgi(r, signed)))
            assert receiver.store.counts()["events"] == args.events
        with tempfile.TemporaryDirectory() as scratch:
            receiver = Receiver(SECRET, Path(scratch) / "events.sqlite")
            server: Any = create_server(receiver, host="127.0.0.1", port=0, threads=4)
            thread = threading.Thread(target=server.run, daemon=True)
            thread.start()
            url = f"http://127.0.0.1:{server.effective_port}/"
            with requests.Session() as session:
                http.append(
                    _timed(
                        lambda u=url, s=session: [s.post(u, data=b, headers=h).raise_for_status() for h, b in signed]
                    )
                )
            server.close()
            thread.join(5)
            assert receiver.store.counts()["events"] == args.events
    n = args.events
    print(f"receiver: {n} signed events, each verified and committed before its answer")
    print(f"  the signature check alone (reference)   {n / _best(verify):10.0f} events/s")
    print(f"  Receiver as a WSGI application           {n / _best(wsgi):10.0f} events/s")
    print(f"  Receiver over loopback HTTP (waitress)   {n / _best(http):10.0f} events/s")


if __name__ == "__main__":
    main()
