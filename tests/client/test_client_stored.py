"""The cache read directly (:mod:`regkit.client.stored`), the cache keys derived without requests-cache's request
pipeline, and the fast read of hits: each the same as what requests-cache itself keys, stores and serves.

The SQLite and in-memory backends here; Redis is covered where a Redis server runs.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from requests_cache.backends import BaseCache, SQLiteCache

from regkit.client import CachePolicy, Client, OfflineCacheMiss, RegkitError
from regkit.client.stored import StoredAnswer, decode, read_many, read_rows, scan
from regkit.client.transport.call import Operation
from regkit.client.transport.keys import CacheKeys

PASSWORD = "Transparenz-2026!"
USERNAME = "tr-demo@regkit.example"


@pytest.fixture(params=["sqlite", "memory"])
def cached(request: pytest.FixtureRequest, inprocess: Any, world: Any) -> tuple[Client, list[str]]:
    """A client of the register in-process with six companies cached, on SQLite or in memory."""
    cache = inprocess.cache_dir / "http_cache.sqlite" if request.param == "sqlite" else "memory"
    client = inprocess.client(cache=cache)
    ids = list(world.companies)[:6]
    client.get_companies(ids, progress=False)
    return client, ids


def _key(client: Client, company_id: str, **options: Any) -> str:
    return client._caller.cache_key(client._company_op(company_id, options.get("realtime", False),
                                                       options.get("export", False)))  # fmt: skip


def _former_id(world: Any) -> tuple[str, str]:
    """A company of the world with a former id (before a move to another court): ``(current, former)``."""
    for cid, company in world.companies.items():
        former = sorted({r["company_id"] for r in company["registers"]} - {cid})
        if former:
            return cid, former[0]
    raise AssertionError("the world has a company that moved")


# -- reading stored answers --------------------------------------------------------------------------------


def test_read_many_returns_what_requests_cache_serves(cached: tuple[Client, list[str]], world: Any) -> None:
    client, ids = cached
    backend = client.cache.backend
    keys = [_key(client, cid) for cid in ids]
    found = read_many(backend, [*keys, "no-such-key", keys[0]])
    assert list(found) == keys  # asked order, once each, unknown keys left out
    for cid, key in zip(ids, keys):
        answer, response = found[key], backend.get_response(key)
        assert isinstance(answer, StoredAnswer) and answer.key == key
        assert (answer.method, answer.url, answer.status) == ("GET", response.url, 200)
        assert answer.body == response.content and json.loads(answer.body)["id"] == cid
        assert answer.created_at == response.created_at and answer.expires == response.expires
        assert answer.created_at.tzinfo is not None and not answer.is_expired()
        assert answer.is_expired(now=answer.expires) and answer.is_expired(now=answer.expires + timedelta(days=1))
        assert answer.request_headers["Authorization"] == "REDACTED"
        assert answer.headers["Content-Type"] == "application/json"
    assert set(read_rows(backend, keys)) == set(keys)


def test_read_many_follows_former_ids(inprocess: Any, world: Any) -> None:
    current, former = _former_id(world)
    client = inprocess.client()
    client.get_company(current)  # the answer is stored under the current id and aliased from the former one
    key, alias = _key(client, current), _key(client, former)
    found = read_many(client.cache.backend, [alias])
    assert list(found) == [alias] and found[alias].key == alias
    assert json.loads(found[alias].body)["id"] == current
    assert client.get_company(former).meta.from_cache and client.requests_sent == 1
    assert read_many(client.cache.backend, [key])[key].body == found[alias].body


def test_scan_streams_every_stored_answer(cached: tuple[Client, list[str]]) -> None:
    client, ids = cached
    backend = client.cache.backend
    answers = list(scan(backend, chunk=4))
    assert sorted(a.key for a in answers) == sorted(backend.responses.keys())
    assert sorted(json.loads(a.body)["id"] for a in answers) == sorted(ids)


def test_unreadable_rows_are_skipped(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    cid = next(iter(world.companies))
    client.get_company(cid)
    backend = client.cache.backend
    assert isinstance(backend, SQLiteCache)
    with backend.responses.connection(commit=True) as con:
        con.execute("INSERT INTO responses (key, value) VALUES (?, ?)", ("garbage", b"not a pickled response"))
    assert [a.key for a in scan(backend)] == [_key(client, cid)]
    assert read_many(backend, ["garbage"]) == {} and decode(backend.responses, "garbage", None) is None


def test_another_serializer_is_read_through_the_backend(inprocess: Any, world: Any, tmp_path: Any) -> None:
    backend = SQLiteCache(tmp_path / "json-cache.sqlite", serializer="json")
    client = inprocess.client(cache=backend)
    cid = next(iter(world.companies))
    client.get_company(cid)
    key = _key(client, cid)
    assert json.loads(read_many(backend, [key])[key].body)["id"] == cid
    assert client.get_company(cid).meta.from_cache and client.requests_sent == 1


# -- keys -------------------------------------------------------------------------------------------------


def _every_kind_of_call(client: Client, world: Any) -> None:
    """One call of each kind the client makes (lookups plain and with options, searches, autocomplete,
    details, account, monitors, credentials, extracts); failures are fine, their operations count too."""
    cid = next(c for c, company in world.companies.items() if company["legal_form"] == "gmbh")
    person = next(e["id"] for c in world.companies.values() for e in c["representation"]
                  if e["type"] == "natural_person" and e["id"])  # fmt: skip
    calls = [
        lambda: client.get_company(cid),
        lambda: client.get_company(cid, export=True),
        lambda: client.get_company(cid, realtime=True),
        lambda: client.get_owners(cid),
        lambda: client.get_owners(cid, best_available=True),
        lambda: client.get_holdings(cid),
        lambda: client.get_person(person),
        lambda: client.get_person_holdings(person),
        lambda: client.search_companies(query="Bau GmbH", per_page=5),
        lambda: client.search_persons(query="Müller", per_page=5),
        lambda: client.get_insolvency(client.search_insolvencies(query="GmbH", per_page=2)[0]["id"]),
        lambda: client.autocomplete_companies("Bäckerei & Söhne"),
        lambda: client.get_credits(),
        lambda: client.list_monitors(),
        lambda: client.create_monitor("company", cid, ["basic"]),
        lambda: client.delete_monitor(cid),
        lambda: client.store_credentials(USERNAME, PASSWORD, name="team"),
        lambda: client.get_extract(client.order_extract(credential_name="sandbox").id),
    ]
    for call in calls:
        try:
            call()
        except RegkitError:
            pass


def test_cache_keys_are_requests_cache_keys_for_every_kind_of_operation(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    caller = client._caller
    seen: list[Operation] = []
    real = caller.call
    caller.call = lambda op: (seen.append(op), real(op))[1]  # type: ignore[method-assign]
    _every_kind_of_call(client, world)
    assert {op.call for op in seen} >= {"get_company", "get_owners", "get_holdings", "get_person",
                                        "get_person_holdings", "search_insolvencies", "get_insolvency",
                                        "get_credits", "create_monitor", "get_extract"}  # fmt: skip
    fresh = CacheKeys(caller.session, client.base_url)  # nothing remembered
    stored = set(client.cache.backend.responses.keys()) | set(client.cache.backend.redirects.keys())
    fast = 0
    for op in seen:
        key, readable = fresh.lookup(op)
        assert key == caller.keys.slow_key(op) == caller.cache_key(op), op
        fast += fresh._fast(op) is not None
        if readable and op.call in ("get_company", "get_owners", "get_holdings", "get_person", "get_insolvency"):
            assert key in stored, op  # what requests-cache stored, under the very key
        if op.method != "GET" or ("realtime", "true") in op.params or op.path.startswith(("/v1/monitor", "/v1/cr")):
            assert not readable, op  # never cached: never read this way
    assert fast >= 8  # the lookups took the fast derivation


_SEGMENT = st.text(alphabet=st.sampled_from("aZ09-._~%/?#&=+ äß@:;,"), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(segments=st.lists(_SEGMENT, min_size=1, max_size=3),
       params=st.lists(st.tuples(st.sampled_from(["realtime", "export", "q", "password", "a b"]), _SEGMENT),
                       max_size=3),
       scope=st.sampled_from([None, "0123abcd", "a,b"]))  # fmt: skip
def test_cache_keys_of_odd_paths_and_parameters(segments: list[str], params: list[tuple[str, str]],
                                                scope: str | None) -> None:  # fmt: skip
    keys = _KEYS[0]
    headers = (("X-Regkit-Scope", scope),) if scope is not None else ()
    op = Operation("get_x", "GET", "/v1/" + "/".join(segments), params=tuple(params), headers=headers)
    assert keys.key(op) == keys.slow_key(op)


_KEYS: list[CacheKeys] = []


@pytest.fixture(autouse=True, scope="module")
def _keys_of_a_client() -> Any:
    client = Client(api_key="sk-keys-0123456789", base_url="http://local.regkit", cache="memory")
    _KEYS.append(CacheKeys(client._caller.session, client.base_url))
    yield
    _KEYS.clear()
    client.close()


@pytest.mark.parametrize("base_url", ["http://local.regkit", "https://api.example.org/prefix/v2",
                                      "http://EXAMPLE.test:80", "http://127.0.0.1:8080", "https://xn--bcher-kva.example",
                                      "https://api.example.org/a/../b"])  # fmt: skip
def test_cache_keys_below_any_base_url(base_url: str) -> None:
    client = Client(api_key="sk-keys-0123456789", base_url=base_url, cache="memory")
    ops = [client._company_op("DE-HRB-B1234-56789", False, False), client._company_op("DE-HRB-B1234-56789", True, True),
           client._lookup_op("owners", "DE-HRB-B1234-56789", False, True),
           Operation("get_extract", "GET", "/v1/transparenzregister/extracts/0b9e", headers=(("X-Regkit-Scope", "ab12"),))]  # fmt: skip
    keys = CacheKeys(client._caller.session, client.base_url)
    for op in ops:
        assert keys.key(op) == keys.slow_key(op), (base_url, op)
    client.close()


# -- the fast read of hits ------------------------------------------------------------------------------------


def test_a_fast_hit_is_what_requests_cache_serves(cached: tuple[Client, list[str]]) -> None:
    client, ids = cached
    caller = client._caller
    for cid in ids:
        op = client._company_op(cid, False, False)
        fast, slow = caller.reader.answer(op), caller._cached(op)
        assert fast is not None and slow is not None
        assert (fast.data, fast.status, fast.source, fast.fetched_at, fast.credits) == (
            slow.data, slow.status, slow.source, slow.fetched_at, slow.credits)  # fmt: skip
    rows = len(client.ledger)
    record = client.get_company(ids[0])
    ledger = client.ledger.iloc[rows:]
    assert record.meta.from_cache and len(ledger) == 1  # one row per call, as before
    assert (ledger.iloc[0]["source"], ledger.iloc[0]["saved"], ledger.iloc[0]["attempts"]) == ("cache", 10, 0)


def _expire(client: Client, key: str) -> None:
    backend = client.cache.backend
    response = backend.get_response(key)
    response.expires = datetime.now(timezone.utc) - timedelta(minutes=1)
    backend.responses[key] = response


def test_expired_answers_are_misses(inprocess: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    client = inprocess.client()
    client.get_company(cid)
    _expire(client, _key(client, cid))
    assert client._caller.reader.answer(client._company_op(cid, False, False)) is None
    assert not client.is_cached(cid)
    client.cache.offline = True
    with pytest.raises(OfflineCacheMiss):
        client.get_company(cid)
    client.cache.offline = False
    assert not client.get_company(cid).meta.from_cache and client.requests_sent == 2  # fetched (and paid) again
    assert client.is_cached(cid)


def test_realtime_and_refresh_are_never_read_from_the_cache(inprocess: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    client = inprocess.client()
    client.get_company(cid)
    reader = client._caller.reader
    assert reader.answer(client._company_op(cid, True, False)) is None
    from dataclasses import replace

    assert reader.answer(replace(client._company_op(cid, False, False), refresh=True)) is None
    assert client.get_company(cid, realtime=True).meta.credits == 20 and client.requests_sent == 2


def test_an_answer_the_filter_refuses_is_left_to_requests_cache(inprocess: Any, world: Any) -> None:
    first, second = list(world.companies)[:2]
    client = inprocess.client(cache="memory")
    client.get_companies([first, second], progress=False)
    backend: BaseCache = client.cache.backend
    wrong = backend.get_response(_key(client, first))
    wrong._content = backend.get_response(_key(client, second)).content  # not the company its URL asks for
    backend.responses[_key(client, first)] = wrong
    assert client._caller.reader.answer(client._company_op(first, False, False)) is None
    assert client._caller.reader.answer(client._company_op(second, False, False)) is not None


def test_stale_source_urls_are_left_out_of_fast_hits(inprocess: Any, world: Any) -> None:
    ids = list(world.companies)[:3]
    client = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    client.get_companies(ids, progress=False)
    again = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    record = again.get_company(ids[0])
    batch = again.get_companies(ids, progress=False)
    assert record.meta.from_cache and record.meta.urls_expired and "sources" not in record
    assert all(r.meta.urls_expired and "sources" not in r for r in batch)
    assert again.requests_sent == 0
