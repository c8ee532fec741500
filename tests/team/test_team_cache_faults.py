"""A team's Redis cache that goes down and comes back, with a real ``redis-server`` killed (``kill -9``) under a
running client and a real ``regkit serve``: paid calls are refused before anything is sent (paying without the cache
would pay again later), free calls go on, ``uncached_ok=True`` pays without the cache and says so in the ledger, and
once Redis is back the client caches again — the register's charges and the ledger agree throughout."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from redis_support import RedisServer
from team_support import used_credits

from regkit.client import CacheError, CacheUnavailableError, CacheWriteWarning, Client

#: The password of each test's own Redis server: it must appear in no message or location.
REDIS_PASSWORD = "own-Redis-pa55-41c7"


@pytest.fixture
def own_redis(tmp_path: Path) -> Any:
    """A Redis server of this test's own (it is killed), with a password."""
    server = RedisServer(tmp_path / "redis", password=REDIS_PASSWORD)
    yield server
    server.stop()


def test_a_redis_cache_that_goes_down_refuses_paid_calls_before_sending(
    own_redis: Any, served: Any, world: Any
) -> None:
    ids = list(world.companies)[3000:3004]
    client = Client(api_key="demo-paid", base_url=served.url, cache=own_redis.url)
    client.get_company(ids[0])
    own_redis.kill()
    used = used_credits(served.url)
    with pytest.raises(CacheUnavailableError, match="does not answer") as info:
        client.get_company(ids[1])
    assert isinstance(info.value, CacheError) and "uncached_ok=True" in str(info.value)
    assert REDIS_PASSWORD not in str(info.value) and info.value.location.startswith("redis://***@")
    assert used_credits(served.url) == used and client.requests_sent == 1  # nothing was sent, nothing paid
    assert client.ledger.iloc[-1][["error", "credits"]].tolist() == ["CacheUnavailableError", 0]
    assert client.get_credits().raw["used_credits"] == used  # a free call goes on
    suggestions = client.autocomplete_companies("Wald")  # free and cached: sent without the cache, noted
    assert suggestions is not None and client.ledger.iloc[-1]["note"].startswith("uncached (the cache is down): ")

    own_redis.restart()  # empty, as a Redis without persistence comes back
    assert client.get_company(ids[1]).meta.credits == 10
    assert client.get_company(ids[1]).meta.from_cache  # stored again
    assert used_credits(served.url) - used == 10 == client.credits_spent - 10
    client.close()


def test_uncached_ok_pays_without_the_cache_and_says_so(own_redis: Any, served: Any, world: Any) -> None:
    ids = list(world.companies)[3010:3013]
    client = Client(api_key="demo-paid", base_url=served.url, cache=own_redis.url, uncached_ok=True)
    own_redis.kill()
    used = used_credits(served.url)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = [client.get_company(cid) for cid in ids]
    assert [r["id"] for r in records] == ids and not any(r.meta.from_cache for r in records)
    assert used_credits(served.url) - used == 30 == client.credits_spent  # ledger = register
    notes = client.ledger["note"].tolist()
    assert all(n.startswith("uncached (the cache is down): ") and "does not answer" in n for n in notes)
    assert not [w for w in caught if issubclass(w.category, CacheWriteWarning)]  # asked for: the ledger says it
    assert client.cache.store.unstored == 3
    own_redis.restart()
    assert client.get_company(ids[0]).meta.credits == 10 and client.get_company(ids[0]).meta.from_cache
    assert client.cache.info()["unstored"] == 3
    client.close()
