"""Construction: settings read when the client is made, where it points, what the repr shows."""

from __future__ import annotations

from typing import Any

import pytest

from regkit.client import DEFAULT_LIVE_BASE_URL, Client, ValidationError


def test_env_is_read_at_construction_not_import(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("REGKIT_API_KEY", "sk-live-abcdef123456")
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(tmp_path / "c1"))
    first = Client()
    assert first.mode == "live" and first.base_url == DEFAULT_LIVE_BASE_URL
    assert first.cache.location() == str(tmp_path / "c1" / "http_cache.sqlite")
    monkeypatch.setenv("REGKIT_BASE_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(tmp_path / "c2"))
    second = Client()
    assert second.base_url == "http://127.0.0.1:9" and second.mode == "custom"
    assert second.cache.location() == str(tmp_path / "c2" / "http_cache.sqlite")
    for client in (first, second):
        assert "sk-live" not in repr(client) and "abcdef" not in repr(client)


def test_explicit_arguments_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGKIT_API_KEY", "from-env-key")
    client = Client(api_key="explicit-key", base_url="https://example.test/api/", cache="memory")
    assert client.base_url == "https://example.test/api" and client.cache.location() == "memory"
    assert client.target.api_key == "explicit-key" and "explicit-key" not in repr(client.target)


def test_base_url_without_key_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="no API key"):
        Client(base_url="http://127.0.0.1:9", cache="memory")


def test_repr_shows_budget_and_spending(inprocess: Any) -> None:
    client = inprocess.client(budget=100)
    assert "budget=100 left=100" in repr(client) and "spent=0 saved=0" in repr(client)
    assert "demo-paid" not in repr(client)


def test_disabled_cache(inprocess: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    client = inprocess.client(cache=False)
    client.get_company(cid)
    client.get_company(cid)
    assert inprocess.counter.count("GET", f"/v1/company/{cid}") == 2 and client.cache.info()["backend"] == "none"
    assert inprocess.used() == client.credits_spent == 20
    with pytest.raises(ValidationError, match="cache must be"):
        Client(api_key="k", base_url="http://x.test", cache=3.5)


def test_context_manager_closes(inprocess: Any) -> None:
    with inprocess.client() as client:
        assert client.requests_sent == 0


def test_a_key_with_an_in_process_adapter_talks_to_that_register(
    register: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REGKIT_BASE_URL", raising=False)
    client = Client(api_key="demo-free", adapter=register.adapter, cache="memory")
    assert client.mode == "local" and client.base_url == "http://local.regkit"
    assert client.get_credits().raw["included_credits"] == 500  # demo-free's account, not the live service
