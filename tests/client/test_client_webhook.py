"""The webhook receiver over real HTTP: Standard Webhooks signatures checked with the library that signs them,
at-least-once deliveries stored once, unknown bodies kept raw, and a receiver killed and restarted on its store
losing nothing (``regkit webhook listen``, a subprocess)."""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import requests
from standardwebhooks import Webhook
from waitress import create_server

import regkit.frames as rf
from regkit.client.webhook import EventStore, Receiver, read_events
from regkit.schema.changes import diff_answers

SECRET = "whsec_" + base64.b64encode(b"regkit-test-secret-0123456789ab").decode()


def _event(entity_id: str, number: int) -> dict[str, Any]:
    before = {"id": entity_id, "name": {"name": "Alpha GmbH", "start_date": "2001-01-01"}}
    after = {"id": entity_id, "name": {"name": f"Alpha {number} GmbH", "start_date": f"2027-01-0{number}"}}
    return {
        "id": f"evt_{number:04d}",
        "type": "company.changed",
        "created_at": f"2027-01-0{number}T00:00:00Z",
        "entity_type": "company",
        "entity_id": entity_id,
        "monitor": {"preferences": ["basic"], "update_frequency": "daily"},
        "period": {"from": f"2027-01-0{number}", "to": f"2027-01-0{number}"},
        "changes": diff_answers("get_company", before, after),
    }


def _post(url: str, body: bytes, message_id: str, *, secret: str = SECRET, sent: datetime | None = None) -> Any:
    sent = sent or datetime.now(timezone.utc)
    signature = Webhook(secret).sign(message_id, sent, body)
    headers = {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(sent.timestamp())),
        "webhook-signature": signature,
        "content-type": "application/json",
    }
    return requests.post(url, data=body, headers=headers, timeout=10)


@pytest.fixture
def receiving(tmp_path: Path) -> Iterator[tuple[str, Receiver]]:
    """A receiver on a free loopback port (waitress, as ``regkit webhook listen`` runs it)."""
    receiver = Receiver(SECRET, tmp_path / "events.sqlite")
    server: Any = create_server(receiver, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/", receiver
    server.close()
    thread.join(5)


def test_a_signed_event_is_stored_once_and_reads_back_as_its_changes(receiving: tuple[str, Receiver]) -> None:
    url, receiver = receiving
    event = _event("DE-HRB-B1234-1", 1)
    body = json.dumps(event).encode()
    assert _post(url, body, "msg_1").status_code == 200
    assert _post(url, body, "msg_1").status_code == 200  # sent again (its answer was lost): not stored twice
    assert receiver.store.counts() == {"events": 1, "unrecognised": 0} and receiver.duplicates == 1
    frame = read_events(receiver.store)
    assert frame[["webhook_id", "event_id", "entity_id", "kind", "before", "after"]].values.tolist() == [
        ["msg_1", "evt_0001", "DE-HRB-B1234-1", "name_changed", "Alpha GmbH", "Alpha 1 GmbH"]
    ]
    assert frame.drop(columns=list(frame.columns[:8])).equals(rf.changes_table(event["changes"]))
    assert str(frame["created_at"].dtype) == "datetime64[us, UTC]" and str(frame["period_to"].dtype) == "datetime64[us]"


def test_bad_signatures_and_stale_timestamps_are_refused_and_nothing_is_stored(receiving: tuple[str, Receiver]) -> None:
    url, receiver = receiving
    body = json.dumps(_event("DE-HRB-B1234-1", 2)).encode()
    other = "whsec_" + base64.b64encode(b"another-secret-of-32-bytes-long!").decode()
    assert _post(url, body, "msg_2", secret=other).status_code == 401
    stale = datetime.now(timezone.utc) - timedelta(minutes=10)
    assert _post(url, body, "msg_3", sent=stale).status_code == 401
    now = datetime.now(timezone.utc)
    signed_for_other_bytes = {
        "webhook-id": "msg_4",
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(SECRET).sign("msg_4", now, body),
    }
    tampered = requests.post(url, data=body.replace(b"Alpha 2", b"Omega 2"), headers=signed_for_other_bytes, timeout=10)
    assert tampered.status_code == 401
    assert requests.get(url, timeout=10).status_code == 405
    assert receiver.store.counts() == {"events": 0, "unrecognised": 0} and receiver.rejected == 3


def test_a_body_regkit_does_not_know_is_kept_raw_and_counted(receiving: tuple[str, Receiver]) -> None:
    url, receiver = receiving
    body = b'{"type": "company.updated", "data": {"id": "DE-HRB-B1234-1"}}'
    assert _post(url, body, "msg_5").status_code == 200
    assert receiver.store.counts() == {"events": 1, "unrecognised": 1}
    assert [row["body"] for row in receiver.store.rows()] == [body.decode()]
    assert read_events(receiver.store).empty


def test_an_event_marks_its_entity_s_cached_answers_stale(tmp_path: Path) -> None:
    from regkit import Client

    client = Client(cache=tmp_path / "cache.sqlite", ledger_file=None, quiet=True)  # the bundled register
    company_id = client.search_companies("GmbH", per_page=1).results[0]["company_id"]
    client.get_company(company_id)
    receiver = Receiver(
        SECRET, tmp_path / "events.sqlite", on_event=lambda event: client.mark_stale(event["entity_id"])
    )
    server: Any = create_server(receiver, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        body = json.dumps(_event(company_id, 3)).encode()
        assert _post(f"http://127.0.0.1:{server.effective_port}/", body, "msg_9").status_code == 200
    finally:
        server.close()
        thread.join(5)
    spent = client.credits_spent
    assert not client.get_company(company_id).meta.from_cache and client.credits_spent == spent + 10
    client.close()


def _listen(store: Path, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "regkit", "webhook", "listen", "--port", "0", "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    banner = process.stdout.readline()
    match = re.search(r"listening on (http://\S+/)", banner)
    assert match, banner + (process.stderr.read() if process.stderr else "")
    return process, match.group(1)


@pytest.mark.slow
def test_a_killed_receiver_restarted_on_its_store_loses_nothing_and_stores_nothing_twice(tmp_path: Path) -> None:
    store = tmp_path / "events.sqlite"
    env = {**os.environ, "REGKIT_WEBHOOK_SECRET": SECRET}
    process, url = _listen(store, env)
    bodies = {f"msg_{n}": json.dumps(_event("DE-HRB-B1234-1", n)).encode() for n in range(1, 5)}
    for message_id in ("msg_1", "msg_2"):
        assert _post(url, bodies[message_id], message_id).status_code == 200
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    process, url = _listen(store, env)  # the sender retries what it may not have had answered, and goes on
    for message_id in ("msg_2", "msg_3", "msg_4"):
        assert _post(url, bodies[message_id], message_id).status_code == 200
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert [row["webhook_id"] for row in EventStore(store).rows()] == ["msg_1", "msg_2", "msg_3", "msg_4"]
    assert "4 events stored" in err and "1 sent again" in err and SECRET not in err


def test_the_secret_is_never_taken_on_the_command_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REGKIT_WEBHOOK_SECRET"}
    run = subprocess.run(
        [sys.executable, "-m", "regkit", "webhook", "listen", "--port", "0", "--store", str(tmp_path / "e.sqlite")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 2 and "REGKIT_WEBHOOK_SECRET" in run.stderr and "--secret-file" in run.stderr
    secret_file = tmp_path / "secret"
    secret_file.write_text("not-a-secret\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "regkit",
            "webhook",
            "listen",
            "--port",
            "0",
            "--store",
            str(tmp_path / "e.sqlite"),
            "--secret-file",
            str(secret_file),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 2 and "must start with whsec_" in run.stderr
