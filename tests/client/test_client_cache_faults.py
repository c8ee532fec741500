"""The cache under faults, on real filesystems: a full disk, a disk that turns read-only under a running client, a
read-only file, a damaged file.  Every paid answer is returned and in the ledger; what could not be kept is said
(``CacheWriteWarning``, ``cache.info()["unstored"]``, the ledger's ``note``); what cannot be read stops paid calls
before anything is sent (``CacheError``) unless ``uncached_ok=True``."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import warnings
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fs_support import fill, remount, tmpfs
from serve_support import served_register

from regkit.client import CacheError, CacheWriteWarning, Client, RegkitWarning
from regkit.client.budget.ledger import read_ledger
from regkit.client.cache.client_cache import repair
from regkit.client.lookups import lookup_op


@pytest.fixture(scope="module")
def served_register_url(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``regkit serve`` on loopback for this module (no rate limit): its URL."""
    with served_register(tmp_path_factory.mktemp("serve"), "--rate-limit", "0") as server:
        yield server.url


def _used(client: Client) -> int:
    """What the register has charged this key so far (free, never cached)."""
    return int(client.get_credits().raw["used_credits"])


def _notes(client: Client) -> list[str]:
    return [n for n in client.ledger["note"].dropna()]


def test_a_full_disk_keeps_every_paid_answer_and_says_so(inprocess: Any, world: Any, tmp_path: Path) -> None:
    ids = list(world.companies)[:40]
    with tmpfs(tmp_path / "disk", size="4m") as disk:
        client = inprocess.client(cache=disk / "cache.sqlite")
        client.get_companies(ids[:2], progress=False)  # the cache works, then the disk fills up
        fill(disk)
        before = _used(client)
        with pytest.warns(CacheWriteWarning) as caught:
            batch = client.get_companies(ids[2:], progress=False)
        assert [r["id"] for r in batch] == ids[2:]  # every paid answer came back
        unstored = client.cache.info()["unstored"]
        assert unstored > 0 and len(caught) == len({str(w.message) for w in caught}) <= 2  # once per reason
        assert f"cache at {disk / 'cache.sqlite'}" in str(caught[0].message)
        assert _used(client) - before == 380 == client.credits_spent - 20  # ledger = register
        notes = _notes(client)
        assert len(notes) == unstored and all(n.startswith("not stored in the cache") for n in notes)
        client.close()  # its SQLite write-ahead log is folded into the file
        (disk / "filler").unlink()
        again = inprocess.client(cache=disk / "cache.sqlite")
        again.get_companies(ids, progress=False)
        # only what could not be kept is paid again (counted in credits: on a loaded machine the in-process
        # register's work bound may answer a request 429, which is free and sent again, so sends can be one more)
        assert again.credits_spent == 10 * unstored and again.requests_sent >= unstored


def test_a_read_only_cache_is_refused_before_anything_is_paid(inprocess: Any, world: Any, tmp_path: Path) -> None:
    ids = list(world.companies)[:3]
    with tmpfs(tmp_path / "disk", size="4m") as disk:
        filling = inprocess.client(cache=disk / "cache.sqlite")
        filling.get_companies(ids, progress=False)
        filling.close()
        remount(disk, read_only=True)  # e.g. a disk the kernel turned read-only after errors
        try:
            with pytest.raises(CacheError, match=r"cannot be written \(a read-only file or filesystem\)") as info:
                inprocess.client(cache=disk / "cache.sqlite")
            assert info.value.location == str(disk / "cache.sqlite") and "cache=False" in str(info.value)
            assert len(inprocess.counter.counted) == len(ids)  # nothing was sent but the filling lookups
        finally:
            remount(disk, read_only=False)


def test_a_damaged_file_is_refused_before_anything_is_paid(inprocess: Any, world: Any, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database, it only has its name" * 100)
    with pytest.raises(CacheError, match=r"garbage.sqlite cannot be opened") as info:
        inprocess.client(cache=garbage)
    assert "regkit cache repair" in str(info.value) and "Traceback" not in str(info.value)

    ids = list(world.companies)[:60]
    path = tmp_path / "cache.sqlite"
    filling = inprocess.client(cache=path)
    filling.get_companies(ids, progress=False)
    filling.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\xff" * (len(data) - len(data) // 2))  # the rows' pages overwritten
    try:
        damaged = inprocess.client(cache=path)
    except CacheError:
        return  # refused at once: nothing could be paid
    before = _used(damaged)
    refused = 0
    with warnings.catch_warnings(record=True):  # the damaged file may refuse fresh answers too (checked below)
        warnings.simplefilter("always")
        for cid in ids:
            try:
                damaged.get_company(cid)
            except CacheError as exc:
                refused += 1
                assert exc.location == str(path) and exc.path == f"/v1/company/{cid}"
    assert refused > 0
    assert _used(damaged) - before == damaged.credits_spent  # what was paid is in the ledger, nothing else
    assert len(damaged.ledger[damaged.ledger["error"] == "CacheError"]) == refused

    paying = inprocess.client(cache=path, uncached_ok=True)
    with warnings.catch_warnings(record=True) as caught:  # a damaged file may refuse the fresh answers too
        warnings.simplefilter("always")
        records = [paying.get_company(cid) for cid in ids]
    unstored = [n for n in _notes(paying) if "not stored in the cache" in n]
    assert len(unstored) == paying.cache.info()["unstored"]
    assert (len(unstored) > 0) == any(issubclass(w.category, CacheWriteWarning) for w in caught)
    assert [r["id"] for r in records] == ids
    uncached = [n for n in _notes(paying) if n.startswith("uncached: ")]
    assert len(uncached) == refused and "cannot be read" in uncached[0]
    check = paying.cache.check()
    assert not check["ok"] and check["unreadable"] + check["readable"] == check["responses"]


def test_repair_keeps_what_can_be_read(inprocess: Any, world: Any, tmp_path: Path, foreign_serializer: Any) -> None:
    ids = list(world.companies)[:6]
    path = tmp_path / "cache.sqlite"
    client = inprocess.client(cache=path)
    client.get_companies(ids, progress=False)
    from requests_cache import SQLiteCache

    SQLiteCache(path, serializer=foreign_serializer).save_response(  # an answer regkit cannot read
        client.cache.backend.get_response(client._caller.cache_key(lookup_op("company", ids[0], False, export=False))),
        cache_key="not-ours",
    )
    client.close()
    result = repair(path)
    assert (result["kept"], result["lost"]) == (6, 1) and Path(result["moved_to"]).is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = inprocess.client(cache=path)
    again.get_companies(ids, progress=False)
    assert again.requests_sent == 0 and again.cache.check()["ok"]


@pytest.mark.slow
def test_paid_calls_are_in_the_ledger_file_after_a_crash(served_register_url: Any, world: Any, tmp_path: Path) -> None:
    import subprocess

    ledger_file = tmp_path / "ledger" / "ledger.jsonl"
    ids = list(world.companies)[:12]
    script = (
        "import os, signal, sys, regkit\n"
        "client = regkit.Client(api_key='demo-paid', base_url=sys.argv[1], cache='memory')\n"
        "client.get_companies(sys.argv[2].split(','), progress=False)\n"
        "os.kill(os.getpid(), signal.SIGKILL)  # a crash: nothing is flushed, closed or saved\n"
    )
    env = {**os.environ, "REGKIT_LEDGER": str(ledger_file)}
    done = subprocess.run([sys.executable, "-c", script, served_register_url, ",".join(ids)], env=env, timeout=120)
    assert done.returncode == -9
    assert stat.S_IMODE(ledger_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(ledger_file.parent.stat().st_mode) == 0o700
    frame = read_ledger(ledger_file)
    assert frame.attrs["unreadable"] == 0 and len(frame) == 12 and frame["credits"].sum() == 120
    assert sorted(frame["path"]) == sorted(f"/v1/company/{cid}" for cid in ids)
    assert set(frame["service"]) == {served_register_url} and "demo-paid" not in ledger_file.read_text()
    lines = [json.loads(line) for line in ledger_file.read_text().splitlines()]
    assert all(line["user"] and line["member"] for line in lines)


def test_a_ledger_file_that_cannot_be_written_warns_and_loses_nothing(
    inprocess: Any, world: Any, tmp_path: Path
) -> None:
    ids = list(world.companies)[:5]
    with tmpfs(tmp_path / "disk", size="64k") as disk:
        fill(disk)
        client = inprocess.client(cache="memory", ledger_file=disk / "ledger.jsonl")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            batch = client.get_companies(ids, progress=False)
        assert [r["id"] for r in batch] == ids and client.credits_spent == 50 == len(client.ledger) * 10
        said = [w for w in caught if issubclass(w.category, RegkitWarning)]
        assert len(said) == 1 and "ledger file" in str(said[0].message) and "No space left" in str(said[0].message)


def test_repair_converts_a_cache_an_earlier_regkit_wrote(inprocess: Any, world: Any, tmp_path: Path) -> None:
    """An earlier regkit let requests-cache key and pickle its answers: after an upgrade they cannot be read (a
    CacheError, nothing paid), and ``repair`` converts them, former ids included, so they are not paid again."""
    import requests
    from requests_cache import CachedResponse, SQLiteCache

    current, former = next(
        (cid, sorted({r["company_id"] for r in c["registers"]} - {cid})[0])
        for cid, c in world.companies.items()
        if len({r["company_id"] for r in c["registers"]}) > 1
    )
    ids = [*list(world.companies)[:3], current]
    path = tmp_path / "cache.sqlite"
    legacy = SQLiteCache(path)  # requests-cache's defaults: its keys, pickled rows
    try:
        legacy.responses.serializer.dumps(CachedResponse(content=b"{}", status_code=200))
    except NameError as exc:  # requests-cache < 1.3 with cattrs >= 25: its pickle format itself is broken
        pytest.skip(f"requests-cache's pickle serializer does not work with this cattrs ({exc})")
    session = requests.Session()
    session.mount(inprocess.register.base_url, inprocess.register.adapter)
    for cid in ids:  # what the earlier regkit stored: the answer as it came, the key redacted by requests-cache
        response = session.get(
            f"{inprocess.register.base_url}/v1/company/{cid}", headers={"Authorization": "Bearer demo-paid"}
        )
        legacy.save_response(response, expires=datetime.now(timezone.utc) + timedelta(days=30))
    legacy.close()

    with pytest.raises(CacheError, match="written by an earlier regkit") as info:
        inprocess.client(cache=path)  # refused before anything could be paid again
    assert f"regkit cache repair --cache {path}" in str(info.value)
    result = repair(path)
    assert (result["kept"], result["converted"], result["lost"]) == (4, 4, 0)
    again = inprocess.client(cache=path)
    records = again.get_companies(ids, progress=False)
    assert [r["id"] for r in records] == ids and again.requests_sent == 0  # nothing paid again
    assert again.get_company(former)["id"] == current and again.requests_sent == 0  # the former id too
    assert b"demo-paid" not in path.read_bytes()


def test_a_failed_write_on_a_damaged_file_leaves_no_lock_behind(inprocess: Any, world: Any, tmp_path: Path) -> None:
    """A write that fails on a damaged page (``DatabaseError``, which requests-cache does not roll back) must not
    keep the file's write lock: another client, here or in another process, would wait for it forever."""
    ids = list(world.companies)
    path = tmp_path / "cache.sqlite"
    filling = inprocess.client(cache=path)
    for company_id in ids[:60]:  # one at a time: the file's pages in the same order on every run (a bulk call's
        filling.get_company(company_id)  # threads wrote them in any order, and the damage sometimes hit the schema)
    filling.close()
    data = path.read_bytes()
    keep = len(data) * 6 // 10 // 4096 * 4096  # the file's header and schema intact, the later pages overwritten
    path.write_bytes(data[:keep] + b"\xff" * (len(data) - keep))
    paying = inprocess.client(cache=path, uncached_ok=True)
    with pytest.warns(CacheWriteWarning, match="database disk image is malformed"):
        paying.get_company(ids[70])  # paid, returned, not stored
    other = subprocess.run(
        [sys.executable, "-c", LOCK_PROBE, str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert other.stdout.strip() == "written", other.stdout + other.stderr


#: Another process takes the file's write lock (waiting at most 2 s) and prints whether it could.
LOCK_PROBE = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], timeout=2, isolation_level=None)
try:
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("ROLLBACK")
    print("written")
except sqlite3.OperationalError as exc:
    print(exc)
"""

#: Another process holds the file's write lock until it is killed.
LOCK_HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
time.sleep(600)
"""


def test_a_cache_another_process_keeps_locked_is_refused_after_a_bounded_wait(
    inprocess: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import regkit.client.cache.client_cache as cache_module

    monkeypatch.setattr(cache_module, "LOCK_WAIT", 1.0)
    path = tmp_path / "cache.sqlite"
    inprocess.client(cache=path).close()
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        sent = len(inprocess.counter.counted)
        with pytest.raises(CacheError, match=r"cache.sqlite is locked: another process") as info:
            inprocess.client(cache=path)
        assert "nothing was sent" in str(info.value) and len(inprocess.counter.counted) == sent
    finally:
        holder.kill()  # like kill -9: SQLite's lock goes with the process
        holder.wait()
    inprocess.client(cache=path).get_credits()  # free again once the other process is gone
