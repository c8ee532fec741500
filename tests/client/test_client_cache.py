"""What reaches the disk, what is shared between keys, and a script run twice on one cache."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

from regkit.client import Client, NotFoundError, OfflineCacheMiss, ValidationError

PASSWORD = "Transparenz-2026!"
USERNAME = "tr-demo@regkit.example"


def research_script(client: Client, world: Any) -> None:
    """What a notebook does: lookups (single and bulk, with duplicates), searches, details."""
    ids = list(world.companies)[:25]
    client.get_company(ids[0])
    client.get_company(ids[1], export=True)
    client.get_companies(ids + ids[:5], progress=False)
    client.search_insolvencies(query="GmbH", filters={"current_status": ["opened"]}, per_page=20)
    rows = list(client.iter_insolvencies(filters={"debtor_kind": "legal_person"}, per_page=100, limit=150))
    client.get_insolvency(rows[0]["id"])


def test_second_run_spends_nothing_and_sends_nothing(local: Any, world: Any) -> None:
    first = local.client()
    research_script(first, world)
    spent = local.used()
    assert spent == first.credits_spent > 0
    first.close()
    local.counter.counted.clear()

    second = local.client()  # a new process would do the same: the cache is on disk
    research_script(second, world)
    assert local.used() == spent  # the register's own count did not move
    assert local.counter.counted == []
    assert second.credits_spent == 0 and second.requests_sent == 0
    assert second.credits_saved == first.credits_spent + first.credits_saved
    assert set(second.ledger["source"]) <= {"cache", "merged"}


def test_no_secret_reaches_cache_or_log_files(local: Any, world: Any, tmp_path: Path) -> None:
    log_file = tmp_path / "logs" / "debug.log"
    log_file.parent.mkdir()
    handler = logging.FileHandler(log_file)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        client = local.client(ledger_file=os.environ["REGKIT_LEDGER"])  # the ledger file, asked for: scanned too
        research_script(client, world)
        client.store_credentials(USERNAME, PASSWORD, name="team")
        order = client.order_extract(credential_name="sandbox")
        client.wait_for_extract(order.id, timeout=10, poll=0.05)
        client.get_extract(order.id)
        client.get_credits()
        client.list_monitors()
        client.close()
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()
    ledger_file = Path(os.environ["REGKIT_LEDGER"])
    files = [p for p in [*local.cache_dir.rglob("*"), log_file, ledger_file] if p.is_file()]
    assert any(p.name.endswith(".sqlite") for p in files) and log_file.stat().st_size > 0
    assert ledger_file in files and b'"credits":10' in ledger_file.read_bytes()
    for path in files:
        data = path.read_bytes()
        for secret in ("demo-paid", PASSWORD):
            assert secret.encode() not in data, f"{secret!r} found in {path}"
    stored = list(client.cache.backend.responses.values())
    assert stored and not any("Authorization" in r.request.headers for r in stored)  # never stored at all
    assert not any("/credentials" in r.url for r in stored)


def test_public_answers_are_shared_user_answers_are_not(inprocess: Any, world: Any) -> None:
    paid = inprocess.client()
    empty = inprocess.client(api_key="demo-empty")  # paid plan, no credits left
    cid = next(iter(world.companies))
    paid.get_company(cid)
    shared = empty.get_company(cid)  # from the shared cache: free, so no 402
    assert shared.meta.from_cache and empty.credits_spent == 0
    order = paid.order_extract(credential_name="sandbox")
    paid.wait_for_extract(order.id, timeout=10, poll=0.05)
    assert paid.get_extract(order.id).meta.from_cache
    with pytest.raises(NotFoundError, match="extract_not_found"):
        empty.get_extract(order.id)  # sent to the register, which knows it is not this user's
    empty.cache.offline = True
    with pytest.raises(OfflineCacheMiss):
        empty.get_extract(order.id)


def test_cache_info_and_clear(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    client.get_company(next(iter(world.companies)))
    info = client.cache.info()
    assert info["backend"] == "SQLiteCache" and info["responses"] == 1 and info["bytes"] > 0
    assert info["location"].endswith("http_cache.sqlite") and info["offline"] is False
    client.cache.clear()
    assert client.cache.info()["responses"] == 0


def test_default_cache_dir_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, register: Any
) -> None:
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(tmp_path / "elsewhere"))
    client = Client(adapter=register.adapter)
    assert client.cache.location() == str(tmp_path / "elsewhere" / "http_cache.sqlite")
    assert client.mode == "local" and client.base_url == "http://local.regkit"


def test_redis_backend_needs_redis_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_redis(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "redis" or name.startswith("redis."):
            raise ImportError("No module named 'redis'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_redis)
    with pytest.raises(ImportError, match="pip install redis") as info:
        Client(api_key="k", base_url="http://x.test", cache="redis://user:secret@host:6379/0")
    assert "secret" not in str(info.value)


def test_the_sqlite_cache_uses_its_connection_one_thread_at_a_time(tmp_path: Path, register: Any) -> None:
    # requests-cache shares one sqlite3 connection between threads and locks only writes; a read beside another
    # thread's write on that connection failed a bulk lookup ("no more rows available", requests-cache #820 and
    # #1008). regkit's store holds a lock of its own around every call into a SQLite backend: while one thread
    # reads, another's write waits, then goes through.
    import threading

    import requests
    from requests_cache import SQLiteCache

    from regkit.client.cache.format import SERIALIZER
    from regkit.client.cache.store import ResponseStore

    reading, release = threading.Event(), threading.Event()

    class PausedRead(SQLiteCache):  # the real SQLite backend; a read that stops half-way until released
        def get_response(self, key: str, default: Any = None) -> Any:
            reading.set()
            release.wait(10)
            return super().get_response(key, default)

    store = ResponseStore(PausedRead(tmp_path / "cache.sqlite", serializer=SERIALIZER), "test")
    session = requests.Session()
    session.mount(register.base_url, register.adapter)
    response = session.get(f"{register.base_url}/v1/credits", headers={"Authorization": "Bearer demo-paid"})
    assert response.status_code == 200
    written = threading.Event()

    def write() -> None:
        store.put("b", response, None)
        written.set()

    reader = threading.Thread(target=store.get, args=("a",))
    reader.start()
    assert reading.wait(10)
    writer = threading.Thread(target=write)
    writer.start()
    assert not written.wait(0.3)  # the writer waits for the read to end
    release.set()
    assert written.wait(10) and store.get("b") is not None and store.unstored == 0
    reader.join()
    writer.join()


def test_regkit_cache_names_the_default_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, register: Any) -> None:
    monkeypatch.setenv("REGKIT_CACHE", str(tmp_path / "team" / "shared.sqlite"))
    client = Client(adapter=register.adapter)  # cache not given: REGKIT_CACHE
    assert client.cache.location() == str(tmp_path / "team" / "shared.sqlite")
    explicit = Client(adapter=register.adapter, cache="sqlite")  # "sqlite" is the file in REGKIT_CACHE_DIR
    assert explicit.cache.location().endswith("cache/http_cache.sqlite")
    monkeypatch.setenv("REGKIT_CACHE", "memory")
    assert Client(adapter=register.adapter).cache.location() == "memory"
    monkeypatch.setenv("REGKIT_CACHE", "none")
    with pytest.raises(ValidationError, match="REGKIT_CACHE='none' names no cache") as info:
        Client(adapter=register.adapter)
    assert "Client(cache=False)" in str(info.value)
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("REGKIT_CACHE", str(tmp_path / "a-file" / "cache.sqlite"))
    with pytest.raises(ValidationError, match=r"^REGKIT_CACHE: cache: .*a-file/cache.sqlite cannot hold the cache"):
        Client(adapter=register.adapter)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:s3cret@host:6379/0", "redis://***@host:6379/0"),
        ("redis://user:s3cret@host:6379/0#team-a", "redis://***@host:6379/0#team-a"),
        ("rediss://user:p@ss@host/0", "rediss://***@host/0"),
        ("redis://host/0?password=s3cret&db=1", "redis://host/0?password=***&db=1"),
        ("unix:///run/redis.sock?db=0&Password=s3cret", "unix:///run/redis.sock?db=0&Password=***"),
        ("redis://host:6379/0", "redis://host:6379/0"),
    ],
)
def test_redis_urls_are_shown_without_their_password(url: str, shown: str) -> None:
    from regkit.client.cache.client_cache import redact_url

    assert redact_url(url) == shown
