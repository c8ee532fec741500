"""Cache rules: order, what is kept, and keys that never hold the API key."""

from __future__ import annotations

import json
from types import SimpleNamespace

import requests
from requests_cache import DO_NOT_CACHE
from requests_cache.policy import DEFAULT_IGNORED_PARAMS
from requests_cache.policy.expiration import get_url_expiration

from regkit.client.cache.policy import IGNORED_PARAMETERS, CachePolicy, keep_response, scope_token

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
        assert expiry(BASE + uncached) is None  # falls through to the session default, DO_NOT_CACHE
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


def _response(url: str, body: bytes, status: int = 200) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body
    response.request = SimpleNamespace(url=url)  # type: ignore[assignment]
    return response


def test_keep_response_only_complete_matching_json() -> None:
    company = json.dumps({"id": "DE-HRB-B1234-1"}).encode()
    assert keep_response(_response(f"{BASE}/v1/company/DE-HRB-B1234-1", company))
    assert not keep_response(_response(f"{BASE}/v1/company/DE-HRB-B1234-2", company))
    assert not keep_response(_response(f"{BASE}/v1/company/DE-HRB-B1234-1", company[:-3]))
    assert not keep_response(_response(f"{BASE}/v1/search/insolvency", b"[1, 2]"))
    assert not keep_response(_response(f"{BASE}/v1/search/insolvency", b"<html>"))
    extract = f"{BASE}/v1/transparenzregister/extracts/tre_1"
    assert not keep_response(_response(extract, b'{"id": "tre_1", "status": "processing"}'))
    assert keep_response(_response(extract, b'{"id": "tre_1", "status": "completed"}'))
    assert keep_response(_response(extract, b"garbage", status=500))  # errors are left to allowable_codes
