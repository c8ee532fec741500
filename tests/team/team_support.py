"""Helpers of the team tests: clients in child processes, the register's own credit count, the secret scan, and a
gate in front of the register that holds answers back (a call in flight, on purpose).

A child process runs one of the scripts below with ``python -c``; its parameters go in as JSON (``argv[1]``)
and its result comes back as the last line of its stdout, in JSON. The child inherits the test's isolated
environment (``REGKIT_CACHE_DIR`` and the rest point into the test's temporary directory).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests

__all__ = [
    "LOOKUP",
    "EXTRACT",
    "RESEARCH",
    "HANG",
    "child",
    "start_child",
    "start_together",
    "result_of",
    "used_credits",
    "stored_secrets",
    "AnswerGate",
    "answer_gate",
]

_PRELUDE = """
import json, sys
from regkit.client import BudgetExceededError, Client, RetryPolicy
p = json.loads(sys.argv[1])
client = Client(api_key=p["api_key"], base_url=p["base_url"], cache=p.get("cache", "memory"),
                budget=p.get("budget"), budget_scope=p.get("scope"), budget_member=p.get("member"),
                max_workers=p.get("workers", 4), timeout=p.get("timeout", 30),
                retries=RetryPolicy(retries=p.get("retries", 2), backoff=0.01, backoff_max=0.05))
"""

#: Look up ``ids`` in bulk (``errors``: raise or collect), then each of ``singles`` one by one.
LOOKUP = (
    _PRELUDE
    + """
refused, raised = 0, None
if p.get("wait"):  # start together with the other children: say ready, wait for the go
    print("ready", flush=True)
    sys.stdin.readline()
try:
    batch = client.get_companies(p["ids"], errors=p.get("errors", "raise"), progress=False)
    refused = sum(isinstance(e, BudgetExceededError) for e in batch.errors.values())
except BudgetExceededError as exc:
    raised = type(exc).__name__
for cid in p.get("singles", []):
    client.get_company(cid)
print(json.dumps({"spent": client.credits_spent, "saved": client.credits_saved, "sent": client.requests_sent,
                  "refused": refused, "raised": raised, "repr": repr(client)}))
"""
)

#: Order a sandbox extract, wait for it and read it again (from the cache); print its id.
EXTRACT = (
    _PRELUDE
    + """
order = client.order_extract(credential_name="sandbox")
client.wait_for_extract(order.id, timeout=30, poll=0.05)
again = client.get_extract(order.id)
print(json.dumps({"id": order.id, "from_cache": again.meta.from_cache, "repr": repr(client)}))
"""
)

#: What a notebook does with every kind of call, stored credentials included.
RESEARCH = (
    _PRELUDE
    + """
ids = p["ids"]
client.get_company(ids[0])
client.get_companies(ids, progress=False)
client.search_insolvencies(query="GmbH", per_page=20)
rows = list(client.iter_insolvencies(filters={"debtor_kind": "legal_person"}, per_page=50, limit=60))
client.get_insolvency(rows[0]["id"])
client.store_credentials(p["tr_user"], p["tr_password"], name="team")
order = client.order_extract(credential_name="sandbox")
client.wait_for_extract(order.id, timeout=30, poll=0.05)
client.get_extract(order.id)
client.get_credits()
client.list_monitors()
print(json.dumps({"spent": client.credits_spent, "repr": repr(client), "cache": repr(client.cache),
                  "budget": repr(client.budget), "location": client.cache.location(),
                  "info": json.dumps(client.cache.info())}))
"""
)

#: One lookup that never gets an answer (the base URL is a socket that never replies, or an :class:`AnswerGate`
#: that keeps it): the process holds its reservation until it is killed.  ``hold`` sets the team budget's hold.
HANG = (
    _PRELUDE
    + """
client.budget.hold = p["hold"]
print(json.dumps({"member": client.budget.member}), flush=True)
client.get_company(p["ids"][0])
"""
)


def _command(script: str, params: dict[str, Any]) -> list[str]:
    return [sys.executable, "-c", script, json.dumps(params)]


def child(script: str, timeout: float = 300, **params: Any) -> dict[str, Any]:
    """Run ``script`` in a child process with ``params`` and return its result (it must succeed)."""
    run = subprocess.run(
        _command(script, params), capture_output=True, text=True, timeout=timeout, env=dict(os.environ)
    )
    assert run.returncode == 0, f"child failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def start_child(script: str, **params: Any) -> subprocess.Popen[str]:
    """Start ``script`` in a child process with ``params``; read its result with :func:`result_of`."""
    return subprocess.Popen(
        _command(script, params),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )


def start_together(processes: list[subprocess.Popen[str]], timeout: float = 120) -> None:
    """Wait until every child started with ``wait=True`` says it is ready, then let them all go at once."""
    for process in processes:
        assert process.stdout is not None and process.stdin is not None
        line = process.stdout.readline()  # blocks until the child is ready (or ends)
        assert line.strip() == "ready", f"child not ready: {line!r} {process.stderr.read() if process.stderr else ''}"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()


def result_of(process: subprocess.Popen[str], timeout: float = 300) -> dict[str, Any]:
    """Wait for a child of :func:`start_child` and return its result (it must succeed)."""
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, f"child failed ({process.returncode}):\n{out}\n{err}"
    return dict(json.loads(out.strip().splitlines()[-1]))


def used_credits(base_url: str, api_key: str = "demo-paid") -> int:
    """Credits the register itself says ``api_key`` has used (``GET /v1/credits`` is free)."""
    answer = requests.get(f"{base_url}/v1/credits", headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    answer.raise_for_status()
    return int(answer.json()["used_credits"])


def stored_secrets(server: Any, secrets: list[str]) -> list[str]:
    """``key: secret`` for every Redis key whose name or contents hold one of ``secrets`` (raw bytes, in every
    database the server has keys in)."""
    found = []
    connection = server.connect()
    try:
        databases = [int(name[2:]) for name in connection.info("keyspace")]
    finally:
        connection.close()
    for db in databases:
        for key, _, parts in server.everything_stored(db):
            for secret in secrets:
                if any(secret.encode() in blob for blob in [key, *parts]):
                    found.append(f"db{db} {key!r}: {secret!r}")
    return found


_HOP_HEADERS = {
    "host",
    "connection",
    "content-length",
    "content-encoding",
    "transfer-encoding",
    "accept-encoding",
    "keep-alive",
    "date",
    "server",
}


class AnswerGate:
    """A loopback HTTP proxy in front of a register that holds back the answers to some requests.

    A request whose path starts with ``prefix`` is forwarded to the register, which answers and charges it (with
    ``forward=False`` it never reaches the register: nothing is charged), and its answer waits at the gate until
    :meth:`open` lets it through — or, if that never comes, until :meth:`close` drops it unanswered. So a test knows
    that a call is in flight, and charged, and can kill what it likes (Redis, the member's process) before the answer
    arrives. Every other request (``GET /v1/credits``, ...) passes straight through.

    Attributes
    ----------
    url : str
        The gate's base URL (``http://127.0.0.1:PORT``), to give a client instead of the register's.
    arrived : threading.Event
        Set when a held request reached the gate (after the register charged it, when forwarded).
    held : int
        How many requests were held so far.
    """

    def __init__(self, upstream: str, prefix: str = "/v1/company/", *, forward: bool = True) -> None:
        self.upstream, self.prefix, self.forward = upstream.rstrip("/"), prefix, forward
        self.arrived = threading.Event()
        self.held = 0
        self._opened = threading.Event()
        self._closed = False
        self._lock = threading.Lock()
        gate = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # the base class's name
                pass

            def _relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                held = self.path.startswith(gate.prefix)
                answer = None
                if not held or gate.forward:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_HEADERS}
                    answer = requests.request(
                        self.command, gate.upstream + self.path, headers=headers, data=body, timeout=120
                    )
                if held:
                    with gate._lock:
                        gate.held += 1
                    gate.arrived.set()
                    gate._opened.wait()
                if answer is None or gate._closed and held:
                    self.close_connection = True  # dropped: the client never gets an answer
                    return
                self.send_response(answer.status_code)
                for key, value in answer.headers.items():
                    if key.lower() not in _HOP_HEADERS:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _relay

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="answer-gate", daemon=True)
        self._thread.start()

    def open(self) -> None:
        """Let the held answers through (and every later one straight away)."""
        self._opened.set()

    def close(self) -> None:
        """Stop the gate; answers still held are dropped unanswered."""
        self._closed = True
        self._opened.set()
        self._server.shutdown()
        self._server.server_close()


@contextlib.contextmanager
def answer_gate(upstream: str, prefix: str = "/v1/company/", *, forward: bool = True) -> Iterator[AnswerGate]:
    """An :class:`AnswerGate` for the ``with`` block, closed when it ends."""
    gate = AnswerGate(upstream, prefix, forward=forward)
    try:
        yield gate
    finally:
        gate.close()
