"""Cache rules: order, what is kept, and keys that never hold the API key."""

from __future__ import annotations

import json

import requests
from requests_cache import DO_NOT_CACHE
from requests_cache.policy import DEFAULT_IGNORED_PARAMS
from requests_cache.policy.expiration import get_url_expiration

from regkit.client.cache.policy import IGNORED_PARAMETERS, CachePolicy, keep_response, scope_token
from regkit.schema.endpoints import by_operation

BASE = "http://local.regkit"


def expiry(url: str, policy: CachePolicy | None = None) -> object:
    policy = CachePolicy() if policy is None else policy
    return get_url_expiration(url, policy.urls_expire_after(BASE))


def test_rules_per_endpoint() -> None:
    policy = CachePolicy()
    assert expiry(f"{BASE}/v1/company/DE-HRB-B1234-1") == policy.company
    assert expiry(f"{BASE}/v1/company/DE-HRB-B1234-1?export=true") == policy.company
    assert expiry(f"{BASE}/v1/company/DE-HRB-B1234-1?realtime=true") == DO_NOT_CACHE
    assert expiry(f"{BASE}/v1/company/DE-HRB-B1234-1?export=true&realtime=true") == DO_NOT_CACHE
    assert expiry(f"{BASE}/v1/search/insolvency") == policy.search
    assert expiry(f"{BASE}/v1/insolvency/abc") == policy.insolvency
    assert expiry(f"{BASE}/v1/transparenzregister/extracts/tre_1") == policy.extract
    assert expiry(f"{BASE}/v1/transparenzregister/extracts") == DO_NOT_CACHE
    assert expiry(f"{BASE}/v1/transparenzregister/credentials") == DO_NOT_CACHE
    for uncached in ("/v1/monitor", "/v1/monitor/DE-HRB-B1234-1", "/v1/credits"):
        assert expiry(BASE + uncached) == DO_NOT_CACHE  # every path of the table has its rule: none falls through
    assert expiry("http://elsewhere.example/v1/company/DE-HRB-B1234-1") is None


def test_realtime_rule_comes_first() -> None:
    first_pattern, first_expiry = next(iter(CachePolicy().urls_expire_after(BASE).items()))
    assert "realtime" in first_pattern.pattern and first_expiry == DO_NOT_CACHE


def test_defaults_are_kept_and_only_added_to() -> None:
    assert IGNORED_PARAMETERS[: len(DEFAULT_IGNORED_PARAMS)] == DEFAULT_IGNORED_PARAMS
    assert "Authorization" in IGNORED_PARAMETERS and "password" in IGNORED_PARAMETERS


def test_scope_token_is_stable_and_not_the_key() -> None:
    token = scope_token(BASE, "demo-paid")
    assert token == scope_token(BASE + "/", "demo-paid") and len(token) == 32
    assert "demo" not in token and token != scope_token(BASE, "demo-free")
    assert token != scope_token("https://api.handelsregister.ai", "demo-paid")


def _response(body: bytes, status: int = 200) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body
    return response


def test_keep_response_only_complete_matching_json() -> None:
    company, search, extract = (
        by_operation("get_company"),
        by_operation("search_insolvency"),
        by_operation("get_extract"),
    )
    body = json.dumps({"id": "DE-HRB-B1234-1"}).encode()
    assert keep_response(company, "DE-HRB-B1234-1", _response(body))
    assert not keep_response(company, "DE-HRB-B1234-2", _response(body))
    assert not keep_response(company, "DE-HRB-B1234-1", _response(body[:-3]))
    assert not keep_response(search, None, _response(b"[1, 2]"))
    assert not keep_response(search, None, _response(b"<html>"))
    assert keep_response(search, None, _response(b"{}"))
    assert not keep_response(extract, "tre_1", _response(b'{"id": "tre_1", "status": "processing"}'))
    assert keep_response(extract, "tre_1", _response(b'{"id": "tre_1", "status": "completed"}'))
    assert not keep_response(extract, "tre_1", _response(b'{"id": "tre_1", "status": "completed"}', status=500))
    never = by_operation("get_credits")  # a row whose answers are never stored, and an operation of no row
    assert not keep_response(never, None, _response(b"{}")) and not keep_response(None, None, _response(b"{}"))
