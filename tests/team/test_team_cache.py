"""A team on one Redis cache: clients in separate processes share what they fetched, never a user's extracts,
never a key or a password; ``client.cache`` and ``regkit cache`` show and clear it."""

from __future__ import annotations

import socket
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from team_support import EXTRACT, LOOKUP, RESEARCH, child, stored_secrets, used_credits

from regkit.client import Client, NotFoundError, OfflineCacheMiss, ValidationError
from regkit.client.cache.client_cache import ClientCache, open_backend
from regkit.client.cache.policy import CachePolicy
from regkit.client.cli import commands as client_cli

TR_USER, TR_PASSWORD = "tr-demo@regkit.example", "Transparenz-2026!"  # the world's Transparenzregister account


@pytest.mark.slow
def test_a_second_process_pays_nothing_for_what_the_first_fetched(served: Any, redis: Any, world: Any) -> None:
    ids = list(world.companies)[100:112]
    before = used_credits(served.url)
    first = child(LOOKUP, api_key="demo-paid", base_url=served.url, cache=redis.url, ids=ids, singles=ids[:2])
    assert first["spent"] == 10 * len(ids) == used_credits(served.url) - before  # the register's own count
    second = child(LOOKUP, api_key="demo-paid", base_url=served.url, cache=redis.url, ids=ids, singles=ids[:2])
    assert second["spent"] == 0 and second["sent"] == 0 and second["saved"] == 10 * (len(ids) + 2)
    # public register answers serve every key of the service: a key without credits gets them too (no 402)
    third = child(LOOKUP, api_key="demo-empty", base_url=served.url, cache=redis.url, ids=ids)
    assert third["spent"] == 0 and third["sent"] == 0
    assert used_credits(served.url) - before == 10 * len(ids) and used_credits(served.url, "demo-empty") == 0


def test_extracts_stay_with_their_user(served: Any, redis: Any) -> None:
    ordered = child(EXTRACT, api_key="demo-paid", base_url=served.url, cache=redis.url)
    assert ordered["from_cache"]  # the terminal extract was stored in Redis
    same_user = Client(api_key="demo-paid", base_url=served.url, cache=redis.url, offline=True)
    assert same_user.get_extract(ordered["id"]).meta.from_cache  # another process of the same key: shared
    other = Client(api_key="demo-empty", base_url=served.url, cache=redis.url, offline=True)
    with pytest.raises(OfflineCacheMiss):
        other.get_extract(ordered["id"])  # not this key's: the shared cache does not answer it
    other.cache.offline = False
    with pytest.raises(NotFoundError, match="extract_not_found"):
        other.get_extract(ordered["id"])  # sent to the register, which knows whose it is
    for client in (same_user, other):
        client.close()


@pytest.mark.slow
def test_no_key_or_password_in_redis_or_in_what_is_shown(served: Any, redis: Any, world: Any) -> None:
    ids = list(world.companies)[200:210]
    scope = f"{redis.url}#newsroom"
    shown = child(
        RESEARCH,
        api_key="demo-paid",
        base_url=served.url,
        cache=redis.url,
        budget=5000,
        scope=scope,
        ids=ids,
        tr_user=TR_USER,
        tr_password=TR_PASSWORD,
    )
    assert shown["spent"] > 0 and shown["location"] == f"redis://***@127.0.0.1:{redis.port}/0"
    for text in shown.values():
        assert redis.password not in str(text) and "demo-paid" not in str(text)
    assert "budget=newsroom: " in shown["repr"] and '"backend": "RedisCache"' in shown["info"]
    keys = [key for key, _, _ in redis.everything_stored()]
    assert any(k.startswith(b"regkit:") for k in keys) and any(k.startswith(b"regkit-team:{newsroom}:") for k in keys)
    assert stored_secrets(redis, ["demo-paid", redis.password, TR_PASSWORD]) == []


def test_info_counts_what_regkit_stored(served: Any, redis: Any, world: Any) -> None:
    connection = redis.connect()
    connection.set(b"another-app:key", b"kept")  # the database is shared with others: regkit counts its own
    client = Client(api_key="demo-paid", base_url=served.url, cache=redis.url)
    ids = list(world.companies)[300:305]
    client.get_companies(ids, progress=False)
    info = client.cache.info()
    assert info["backend"] == "RedisCache" and info["responses"] == len(ids)
    assert info["location"] == f"redis://***@127.0.0.1:{redis.port}/0" and redis.password not in repr(client)
    assert "bytes" not in info  # how requests-cache lays out its Redis keys is its own: regkit does not measure them
    assert client.cache.clear() == len(ids)
    assert client.cache.info()["responses"] == 0 and connection.get(b"another-app:key") == b"kept"
    client.close()
    connection.close()


def _age(backend: Any, fragment: str, days: int) -> None:
    """Make the stored answer whose URL holds ``fragment`` look ``days`` old."""
    for key in list(backend.responses.keys()):
        response = backend.responses[key]
        if fragment in response.url:
            response.created_at = datetime.now(timezone.utc) - timedelta(days=days)
            backend.responses[key] = response


def test_clear_older_than_on_redis_keeps_the_younger_and_the_team(served: Any, redis: Any, world: Any) -> None:
    old, young = list(world.companies)[400:402]
    client = Client(
        api_key="demo-paid", base_url=served.url, cache=redis.url, budget=100, budget_scope=f"{redis.url}#desk"
    )
    client.get_company(old)
    client.get_company(young)
    _age(client.cache.backend, old, days=40)
    assert client.cache.clear(older_than=timedelta(days=30)) == 1
    assert client.is_cached(young) and not client.is_cached(old)
    assert client.budget.spent == 20 and client.budget.remaining == 80  # the team's keys are not the cache's
    ledger = client.budget.ledger()
    assert client.cache.clear() == 1  # a plain clear too: every answer goes, the team's budget stays
    assert not client.is_cached(young) and client.budget.snapshot() == (20, 0, 100)
    assert client.budget.ledger().equals(ledger) and list(ledger["credits"]) == [10, 10]
    client.close()


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> Any:
    """Run ``regkit <argv>`` in-process; returns (status, stdout, stderr)."""

    def invoke(*argv: str) -> tuple[int, str, str]:
        status = client_cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return invoke


def test_regkit_cache_info_and_clear_on_redis(run: Any, served: Any, redis: Any, world: Any) -> None:
    old, young = list(world.companies)[500:502]
    client = Client(api_key="demo-paid", base_url=served.url, cache=redis.url)
    client.get_companies([old, young], progress=False)
    status, out, err = run("cache", "info", "--cache", redis.url)
    assert status == 0 and "backend: RedisCache" in out and "responses: 2" in out
    assert f"location: redis://***@127.0.0.1:{redis.port}/0" in out and redis.password not in out + err
    _age(client.cache.backend, old, days=40)
    status, out, _ = run("cache", "clear", "--older-than", "30d", "--cache", redis.url)
    assert (
        status == 0
        and out.strip() == f"deleted 1 answer(s) cached more than 30 days ago from redis://***@127.0.0.1:{redis.port}/0"
    )
    assert client.is_cached(young) and not client.is_cached(old)
    status, out, _ = run("cache", "clear", "--cache", redis.url)
    assert status == 0 and "deleted 1 answer(s)" in out and redis.password not in out
    client.close()


def test_regkit_cache_setting_is_the_default_of_client_and_command(
    run: Any, served: Any, redis: Any, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REGKIT_CACHE", redis.url)
    client = Client(api_key="demo-paid", base_url=served.url)  # no cache= given: REGKIT_CACHE
    client.get_company(list(world.companies)[600])
    assert client.cache.location() == f"redis://***@127.0.0.1:{redis.port}/0"
    status, out, _ = run("cache", "info")
    assert status == 0 and "backend: RedisCache" in out and "responses: 1" in out
    assert Client(api_key="demo-paid", base_url=served.url, cache="memory").cache.location() == "memory"
    client.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_redis_that_does_not_answer_is_one_clear_line_without_the_password(
    run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"redis://:Very-Secret-9@127.0.0.1:{_closed_port()}/0"
    with pytest.raises(ValidationError, match="did not answer PING") as info:
        Client(api_key="k-123456", base_url="http://127.0.0.1:9", cache=url)
    assert "Very-Secret-9" not in str(info.value) and "redis://***@127.0.0.1" in str(info.value)
    status, out, err = run("cache", "info", "--cache", url)
    assert status == 2 and err.startswith("regkit: error: cache: Redis at redis://***@") and "Very-Secret" not in err
    monkeypatch.setenv("REGKIT_CACHE", url.replace(":Very-Secret-9@", "/") + "?password=Very-Secret-9")
    with pytest.raises(ValidationError, match="^REGKIT_CACHE: cache: Redis at ") as info:
        Client(api_key="k-123456", base_url="http://127.0.0.1:9")
    assert "Very-Secret-9" not in str(info.value) and "password=***" in str(info.value)


def test_regkit_cache_memory_is_refused(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run("cache", "info", "--cache", "memory")
    assert status == 2 and "--cache memory is a cache inside one Python process" in err
    monkeypatch.setenv("REGKIT_CACHE", "memory")
    status, _, err = run("cache", "clear")
    assert status == 2 and "REGKIT_CACHE=memory" in err


def test_a_cache_handle_on_redis_counts_only_answers(redis: Any) -> None:
    backend = open_backend(redis.url)
    handle = ClientCache(backend, CachePolicy())
    assert handle.info()["responses"] == 0 and handle.clear() == 0
