"""The client's answers in requests-cache through its public API (:mod:`regkit.client.cache.store`), regkit's own
cache keys (:mod:`regkit.client.cache.keys`) and stored format (:mod:`regkit.client.cache.format`)."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from requests_cache import SQLiteCache

from regkit.client import CachePolicy, Client, OfflineCacheMiss
from regkit.client.cache.format import MAGIC, SERIALIZER
from regkit.client.cache.keys import CacheKeys, cache_key
from regkit.client.cache.store import StoredAnswer
from regkit.client.lookups import lookup_op
from regkit.client.transport.call import Operation


@pytest.fixture(params=["sqlite", "memory"])
def cached(request: pytest.FixtureRequest, inprocess: Any, world: Any) -> tuple[Client, list[str]]:
    """A client of the register in-process with six companies cached, on SQLite or in memory."""
    cache = inprocess.cache_dir / "http_cache.sqlite" if request.param == "sqlite" else "memory"
    client = inprocess.client(cache=cache)
    ids = list(world.companies)[:6]
    client.get_companies(ids, progress=False)
    return client, ids


def _key(client: Client, company_id: str, **options: Any) -> str:
    op = lookup_op("company", company_id, options.get("realtime", False), export=options.get("export", False))
    return client._caller.cache_key(op)


def _former_id(world: Any) -> tuple[str, str]:
    """A company of the world with a former id (before a move to another court): ``(current, former)``."""
    for cid, company in world.companies.items():
        former = sorted({r["company_id"] for r in company["registers"]} - {cid})
        if former:
            return cid, former[0]
    raise AssertionError("the world has a company that moved")


# -- what is stored ---------------------------------------------------------------------------------------


def test_stored_answers_are_the_answers_paid_for(cached: tuple[Client, list[str]], world: Any) -> None:
    client, ids = cached
    keys = [_key(client, cid) for cid in ids]
    found = client.cache.read([*keys, "no-such-key", keys[0]])
    assert list(found) == keys  # asked order, once each, unknown keys left out
    for cid, key in zip(ids, keys):
        answer = found[key]
        assert isinstance(answer, StoredAnswer) and answer.key == key
        assert (answer.method, answer.status) == ("GET", 200) and answer.url.endswith(f"/v1/company/{cid}")
        assert json.loads(answer.body) == client.get_company(cid).raw  # the very answer, byte for byte parsed
        assert answer.created_at.tzinfo is not None and not answer.is_expired()
        assert answer.expires is not None and abs(answer.expires - answer.created_at - timedelta(days=30)) < timedelta(
            seconds=1
        )
        assert answer.request_headers.get("Authorization") in (None, "REDACTED")  # the key is never stored
        assert not any("demo-paid" in str(value) for value in answer.request_headers.values())
        assert answer.headers["Content-Type"] == "application/json"
    assert client.requests_sent == len(ids)


def test_the_stored_format_is_compact_and_holds_no_key(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    cid = next(iter(world.companies))
    client.get_company(cid)
    response = client.cache.backend.get_response(_key(client, cid))
    row = SERIALIZER.dumps(response)
    assert row.startswith(MAGIC) and row.endswith(response.content)
    assert b"demo-paid" not in row and b"Authorization" not in row
    again = SERIALIZER.loads(row)
    assert (again.content, again.status_code, again.url, again.expires, again.created_at) == (
        response.content,
        response.status_code,
        response.url,
        response.expires,
        response.created_at,
    )
    for damaged in (b"", b"not ours", row[: len(MAGIC) + 6], MAGIC + b"\x00\x00\x00\x02{}"):
        with pytest.raises(ValueError):
            SERIALIZER.loads(damaged)


def test_former_ids_are_served_through_the_redirects(inprocess: Any, world: Any) -> None:
    current, former = _former_id(world)
    client = inprocess.client()
    client.get_company(current)  # stored under the current id and aliased from the former one
    alias = _key(client, former)
    assert client.cache.backend.redirects[alias] == _key(client, current)
    assert json.loads(client.cache.read([alias])[alias].body)["id"] == current
    assert client.get_company(former).meta.from_cache and client.requests_sent == 1


def test_scan_streams_every_answer_and_counts_what_it_cannot_read(
    inprocess: Any, world: Any, foreign_serializer: Any
) -> None:
    client = inprocess.client()
    ids = list(world.companies)[:5]
    client.get_companies(ids, progress=False)
    path = client.cache.backend.db_path
    foreign = SQLiteCache(
        path, serializer=foreign_serializer
    )  # another serializer's row in the same table: not ours to read
    foreign.save_response(client.cache.backend.get_response(_key(client, ids[0])), cache_key="foreign")
    unreadable: list[str] = []
    answers = list(client.cache.scan(unreadable))
    assert sorted(json.loads(a.body)["id"] for a in answers) == sorted(ids) and unreadable == ["foreign"]
    assert client.cache.check() == {
        "location": str(path),
        "responses": 6,
        "readable": 5,
        "unreadable": 1,
        "error": None,
        "ok": False,
    }


def test_one_cache_read_per_hit(inprocess: Any, world: Any, tmp_path: Any) -> None:
    reads: list[str] = []

    class CountedReads(SQLiteCache):  # the real SQLite backend, its reads counted
        def get_response(self, key: str, default: Any = None) -> Any:
            reads.append(key)
            return super().get_response(key, default)

    backend = CountedReads(tmp_path / "counted.sqlite", serializer=SERIALIZER)
    ids = list(world.companies)[:20]
    inprocess.client(cache=backend).get_companies(ids, progress=False)
    again = inprocess.client(cache=backend)
    reads.clear()
    again.get_companies(ids, progress=False)
    assert len(reads) == len(ids) and again.requests_sent == 0
    reads.clear()
    for cid in ids[:5]:
        again.get_company(cid)
    assert len(reads) == 5 and again.requests_sent == 0


# -- what is served -------------------------------------------------------------------------------------


def test_expired_answers_are_misses(inprocess: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    client = inprocess.client(policy=CachePolicy(company=timedelta(milliseconds=200)))
    client.get_company(cid)
    assert client.is_cached(cid)
    time.sleep(0.3)
    assert not client.is_cached(cid)
    client.cache.offline = True
    with pytest.raises(OfflineCacheMiss, match="not in the cache"):
        client.get_company(cid)
    client.cache.offline = False
    assert not client.get_company(cid).meta.from_cache and client.requests_sent == 2  # fetched (and paid) again


def test_realtime_and_refresh_are_never_read_from_the_cache(inprocess: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    client = inprocess.client()
    client.get_company(cid)
    assert client.get_company(cid, realtime=True).meta.credits == 20 and client.requests_sent == 2
    refreshed = client._caller.call(replace(lookup_op("company", cid, False, export=False), refresh=True))
    assert refreshed.source == "network" and client.requests_sent == 3
    assert not client.is_cached(cid, realtime=True)


def test_an_answer_the_filter_refuses_is_not_served(inprocess: Any, world: Any) -> None:
    first, second = list(world.companies)[:2]
    client = inprocess.client(cache="memory")
    client.get_companies([first, second], progress=False)
    backend = client.cache.backend
    wrong = backend.get_response(_key(client, second))  # not the company the first key asks for
    backend.save_response(wrong, cache_key=_key(client, first), expires=wrong.expires)
    record = client.get_company(first)
    assert not record.meta.from_cache and record["id"] == first and client.requests_sent == 3
    assert client.get_company(second).meta.from_cache


def test_stale_source_urls_are_left_out_of_cached_answers(inprocess: Any, world: Any) -> None:
    ids = list(world.companies)[:3]
    client = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    client.get_companies(ids, progress=False)
    again = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    record = again.get_company(ids[0])
    batch = again.get_companies(ids, progress=False)
    assert record.meta.from_cache and record.meta.urls_expired and "sources" not in record
    assert all(r.meta.urls_expired and "sources" not in r for r in batch)
    assert again.requests_sent == 0


# -- keys -------------------------------------------------------------------------------------------------


def test_keys_name_the_question_not_its_spelling() -> None:
    base = cache_key("https://api.example", "GET", "/v1/company/DE-HRB-B1-1", [("export", "true"), ("a", "1")])
    assert base == cache_key(
        "HTTPS://API.EXAMPLE/", "get", "/v1/company/DE%2DHRB-B1-1", [("a", "1"), ("export", "true")]
    )
    assert base == cache_key(
        "https://api.example",
        "GET",
        "/v1/company/DE-HRB-B1-1",
        [("a", "1"), ("export", "true"), ("api_key", "sk-1"), ("password", "x")],
    )
    others = {
        cache_key("http://api.example", "GET", "/v1/company/DE-HRB-B1-1", [("a", "1"), ("export", "true")]),
        cache_key("https://api.example", "POST", "/v1/company/DE-HRB-B1-1", [("a", "1"), ("export", "true")]),
        cache_key("https://api.example", "GET", "/v1/company/DE-HRB-B1-1", [("a", "2"), ("export", "true")]),
        cache_key(
            "https://api.example",
            "GET",
            "/v1/company/DE-HRB-B1-1",
            [("a", "1"), ("export", "true")],
            headers=[("X-Regkit-Scope", "ab12")],
        ),
        cache_key(
            "https://api.example", "GET", "/v1/company/DE-HRB-B1-1", [("a", "1"), ("export", "true")], body={"q": 1}
        ),
    }
    assert base not in others and len(others) == 5
    body = cache_key("https://x", "POST", "/v1/search/company", body={"query": "Bau", "filters": [1, 2]})
    assert body == cache_key("https://x", "POST", "/v1/search/company", body={"filters": [1, 2], "query": "Bau"})
    assert body != cache_key("https://x", "POST", "/v1/search/company", body={"filters": [2, 1], "query": "Bau"})
    assert len(base) == 32 and int(base, 16) >= 0
    slash = cache_key("https://x", "GET", "/v1/company/a%2fb")
    assert (
        slash == cache_key("https://x", "GET", "/v1/company/a%2Fb") != cache_key("https://x", "GET", "/v1/company/a/b")
    )


_TEXT = st.text(alphabet=st.sampled_from("aZ09-._~%/?#&=+ äß@:;,"), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    first=st.lists(_TEXT, min_size=1, max_size=3),
    second=st.lists(_TEXT, min_size=1, max_size=3),
    params=st.lists(st.tuples(st.sampled_from(["realtime", "export", "q", "a b"]), _TEXT), max_size=3),
)
def test_keys_of_odd_paths(first: list[str], second: list[str], params: list[tuple[str, str]]) -> None:
    def path(segments: list[str]) -> str:  # as the client quotes it
        return "/v1/" + "/".join(quote(segment, safe="") for segment in segments)

    def every_byte_escaped(segments: list[str]) -> str:  # another spelling of the same path
        return "/v1/" + "/".join("".join(f"%{b:02X}" for b in segment.encode()) for segment in segments)

    keys = CacheKeys("http://local.regkit")
    plain = keys.key(Operation("get_x", "GET", path(first), params=tuple(params)))
    escaped = cache_key("http://local.regkit", "GET", every_byte_escaped(first), list(reversed(params)))
    assert plain == escaped  # however it is spelt, in any parameter order: one question
    other = keys.key(Operation("get_x", "GET", path(second), params=tuple(params)))
    assert (plain == other) == (first == second)  # "a/b" is not ["a", "b"]


def test_every_kind_of_call_stores_under_its_key(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    cid = next(iter(world.companies))
    person = next(
        e["id"]
        for c in world.companies.values()
        for e in c["representation"]
        if e["type"] == "natural_person" and e["id"]
    )
    client.get_company(cid)
    client.get_owners(cid)
    client.get_holdings(cid)
    client.get_person(person)
    client.search_companies(query="Bau GmbH", per_page=5)
    client.get_credits()
    client.list_monitors()
    stored = set(client.cache.store.keys())
    ops = {
        "company": lookup_op("company", cid, False, export=False),
        "owners": lookup_op("owners", cid, False, False),
        "holdings": lookup_op("holdings", cid, False, False),
        "person": lookup_op("person", person, False, False),
    }
    assert {name for name, op in ops.items() if client._caller.cache_key(op) in stored} == set(ops)
    assert len(stored) == 5  # the four lookups and the search; credits and monitors are never cached
