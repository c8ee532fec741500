"""Stop means stop: an interrupt during a call that sends many requests costs nothing more (issue 40).

Every test runs ``regkit serve`` with 300 ms latency on loopback — the register a user points a script at — and
reads the register's *own* count of charged credits (``GET /v1/credits``, free) right after the interrupt and again
seconds later: the two are equal up to the requests that were already in flight (at most the client's worker
count), whatever was still queued. Then the same call again pays exactly for what is missing: nothing twice.

* A real ``SIGINT`` to a real script (the child is started with SIGINT at its default disposition: a process
  started in the background by a non-interactive shell ignores SIGINT, and a test of such a child proves nothing).
* ``_thread.interrupt_main()`` in-process — what a notebook kernel's "interrupt" does to the main thread —
  during a bulk lookup, a paged search and a crawl.
"""

from __future__ import annotations

import _thread
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serve_support import ServedRegister

import regkit
from regkit.errors import Interrupted

pytestmark = [pytest.mark.serve, pytest.mark.slow]

PRICE = 10
WORKERS = 8
#: What may still arrive after the interrupt: the requests in flight, one per worker (and one page or holdings call).
IN_FLIGHT = WORKERS * PRICE


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedRegister]:
    """``regkit serve`` with 300 ms latency per request and no rate limit: 400 lookups take about 15 s."""
    server = ServedRegister(tmp_path / "serve", "--latency", "300ms", "--rate-limit", "0")
    try:
        yield server
    finally:
        server.stop()


def _charged(url: str) -> int:
    """The register's own count of credits charged to ``demo-paid`` (free; never through the client's cache)."""
    answer = requests.get(f"{url}/v1/credits", headers={"Authorization": "Bearer demo-paid"}, timeout=30)
    answer.raise_for_status()
    return int(answer.json()["used_credits"])


def _ids(world: Any, n: int) -> list[str]:
    return list(world.companies)[:n]


def _interrupt_main_when(condition: Callable[[], bool], fired: threading.Event) -> threading.Thread:
    """A thread that interrupts the main thread (as a kernel's interrupt does) once ``condition()`` holds."""

    def watch() -> None:
        deadline = time.monotonic() + 60
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.02)
        fired.set()
        _thread.interrupt_main()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def _absorb_a_late_interrupt(fired: threading.Event) -> None:
    """Wait until the watcher has fired; an interrupt that lands after the call ended is caught here, not by
    pytest."""
    try:
        fired.wait(60)
        time.sleep(0.2)
    except KeyboardInterrupt:
        pytest.fail("the interrupt arrived after the call had ended: the call was too fast to interrupt")


SCRIPT = textwrap.dedent(
    """
    import json, sys
    import regkit

    ids = json.loads(open(sys.argv[1]).read())
    client = regkit.Client(api_key="demo-paid", base_url=sys.argv[2], cache=sys.argv[3], ledger_file=None)
    print("started", flush=True)
    batch = client.get_companies(ids, progress=False)   # no try/except: as a user's script
    print("finished", len(batch), flush=True)
    """
)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # then Python installs its KeyboardInterrupt handler


def test_sigint_to_a_script_stops_the_spending_and_a_rerun_pays_only_the_rest(
    served: ServedRegister, world: Any, tmp_path: Path
) -> None:
    ids = _ids(world, 400)
    (tmp_path / "ids.json").write_text(json.dumps(ids))
    (tmp_path / "script.py").write_text(SCRIPT)
    cache = tmp_path / "cache.sqlite"
    before = _charged(served.url)
    child = subprocess.Popen(
        [sys.executable, str(tmp_path / "script.py"), str(tmp_path / "ids.json"), served.url, str(cache)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
        env={**os.environ, "REGKIT_QUIET": "1"},
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "started"
        while _charged(served.url) - before < 30 * PRICE:  # about a second into the lookups
            time.sleep(0.1)
        child.send_signal(signal.SIGINT)
        at_interrupt = _charged(served.url)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    time.sleep(2)
    later = _charged(served.url)
    assert child.returncode != 0 and "finished" not in out
    assert later - at_interrupt <= IN_FLIGHT, (at_interrupt - before, later - before)  # nothing queued was sent
    assert later - before < len(ids) * PRICE / 2
    message = err.strip().splitlines()[-1]
    assert message.startswith("regkit.errors.Interrupted: get_companies interrupted: nothing more was sent;"), err
    found = re.search(r"(\d+) paid answers arrived \((\d+) credits\)", message)
    assert found is not None, message
    answers, credits = int(found.group(1)), int(found.group(2))
    assert credits == answers * PRICE and at_interrupt - before - IN_FLIGHT <= credits <= later - before
    assert "run the same call again to resume" in message
    assert "concurrent.futures" not in err  # the interrupt is regkit's, not a bare one from the thread pool

    # The same call again: every answer that arrived (also those in flight at the interrupt) is cached.
    client = regkit.Client(api_key="demo-paid", base_url=served.url, cache=str(cache), ledger_file=None, quiet=True)
    try:
        again = client.get_companies(ids, progress=False)
    finally:
        client.close()
    assert len(again.ok) == len(ids)
    assert _charged(served.url) - before == len(ids) * PRICE  # each company paid exactly once, across both runs
    assert client.credits_spent == len(ids) * PRICE - (later - before)


def _client(served: ServedRegister, tmp_path: Path) -> regkit.Client:
    return regkit.Client(
        api_key="demo-paid", base_url=served.url, cache=str(tmp_path / "cache.sqlite"), ledger_file=None, quiet=True
    )


def test_a_kernel_interrupt_stops_a_bulk_lookup(served: ServedRegister, world: Any, tmp_path: Path) -> None:
    ids = _ids(world, 400)
    client = _client(served, tmp_path)
    before = _charged(served.url)
    fired = threading.Event()
    _interrupt_main_when(lambda: client.credits_spent >= 30 * PRICE, fired)
    with pytest.raises(Interrupted) as caught:
        client.get_companies(ids, progress=False)
    at_interrupt = _charged(served.url)
    _absorb_a_late_interrupt(fired)
    time.sleep(2)
    later = _charged(served.url)
    assert later - at_interrupt <= IN_FLIGHT, (at_interrupt - before, later - before)
    assert caught.value.call == "get_companies" and caught.value.credits == caught.value.answers * PRICE
    assert caught.value.answers >= 30 and caught.value.credits <= later - before
    assert client.credits_spent == later - before  # every answer that arrived is in the ledger, in flight or not
    paid = client.ledger.query("source == 'network' and status == 200")
    assert len(paid) == (later - before) // PRICE and all(
        client.is_cached(path.rsplit("/", 1)[1]) for path in paid.path
    )
    spent = client.credits_spent
    assert len(client.get_companies(ids, progress=False).ok) == len(ids)
    assert client.credits_spent - spent == len(ids) * PRICE - (later - before)  # the rest, and only the rest
    client.close()


def test_a_kernel_interrupt_stops_a_paged_search(served: ServedRegister, tmp_path: Path) -> None:
    client = _client(served, tmp_path)
    before = _charged(served.url)
    fired = threading.Event()
    _interrupt_main_when(lambda: client.credits_spent >= 5 * PRICE, fired)
    with pytest.raises(Interrupted) as caught:
        client.search_all_companies("gmbh", limit=200, per_page=1, progress=False)  # 200 pages, one at a time
    at_interrupt = _charged(served.url)
    _absorb_a_late_interrupt(fired)
    time.sleep(1)
    later = _charged(served.url)
    assert later - at_interrupt <= PRICE  # at most the page that was out
    assert caught.value.call == "search_all_companies" and caught.value.answers >= 5
    assert client.credits_spent == later - before  # the page that was out is cached and in the ledger too
    client.close()


def test_a_kernel_interrupt_stops_a_crawl(served: ServedRegister, tmp_path: Path) -> None:
    client = _client(served, tmp_path)
    before = _charged(served.url)
    fired = threading.Event()
    # Level 1 of Waldstein's group: 21 companies (bulk), then their holdings one by one on the main thread's behalf.
    _interrupt_main_when(lambda: client.credits_spent >= 25 * PRICE, fired)
    with pytest.raises(Interrupted) as caught:
        regkit.crawl(client, "DE-HRB-X1517-62135KI", depth=6, direction="down", progress=False)
    at_interrupt = _charged(served.url)
    _absorb_a_late_interrupt(fired)
    time.sleep(1)
    later = _charged(served.url)
    assert later - at_interrupt <= IN_FLIGHT
    assert caught.value.call == "crawl" and caught.value.credits == caught.value.answers * PRICE
    assert "crawl interrupted: nothing more was sent" in str(caught.value)
    assert client.credits_spent == later - before
    spent = client.credits_spent
    G = regkit.crawl(client, "DE-HRB-X1517-62135KI", depth=6, direction="down", progress=False)
    assert client.credits_spent - spent == G.graph["crawl"].spent_credits
    assert client.credits_spent == 2 * 24 * PRICE  # the whole group (24 companies and their holdings), paid once
    client.close()


KERNEL_CODE = """
import json, regkit
client = regkit.Client(api_key="demo-paid", base_url={url!r}, cache={cache!r}, ledger_file=None, quiet=True)
ids = json.loads(open({ids!r}).read())
batch = client.get_companies(ids, progress=False)
"""


def test_interrupting_a_real_kernel_stops_the_spending(served: ServedRegister, world: Any, tmp_path: Path) -> None:
    """The notebook case end to end: an IPython kernel (a process of its own) runs the call, and "interrupt the
    kernel" (``KernelManager.interrupt_kernel``: SIGINT to the kernel process, as JupyterLab's ■ does) stops it."""
    from jupyter_client.manager import start_new_kernel

    ids = _ids(world, 400)
    (tmp_path / "ids.json").write_text(json.dumps(ids))
    code = KERNEL_CODE.format(url=served.url, cache=str(tmp_path / "cache.sqlite"), ids=str(tmp_path / "ids.json"))
    before = _charged(served.url)
    manager, kernel = start_new_kernel(kernel_name="python3", env={**os.environ, "REGKIT_QUIET": "1"})
    try:
        message_id = kernel.execute(code)
        while _charged(served.url) - before < 30 * PRICE:
            time.sleep(0.1)
        manager.interrupt_kernel()
        at_interrupt = _charged(served.url)
        reply = kernel.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != message_id:
            reply = kernel.get_shell_msg(timeout=30)
        time.sleep(2)
        later = _charged(served.url)
        content = reply["content"]
        assert content["status"] == "error" and content["ename"] == "Interrupted", content
        assert "get_companies interrupted: nothing more was sent" in content["evalue"]
        assert later - at_interrupt <= IN_FLIGHT, (at_interrupt - before, later - before)
        assert later - before < len(ids) * PRICE / 2
        # The kernel lives on, and the same call again pays only for the rest.
        kernel.execute_interactive("batch = client.get_companies(ids, progress=False)", timeout=120)
        assert _charged(served.url) - before == len(ids) * PRICE
    finally:
        kernel.stop_channels()
        manager.shutdown_kernel(now=True)
