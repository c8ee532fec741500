"""Shared helpers of the local register's tests (imported by ``conftest.py`` and test modules)."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import requests
from openapi_check import assert_conforms

PAID, FREE, EMPTY = "demo-paid", "demo-free", "demo-empty"
VALID_ACCOUNT = {"username": "tr-demo@regkit.example", "password": "Transparenz-2026!"}
ACCOUNTS = {
    "locked": {"username": "tr-locked@regkit.example", "password": "Gesperrt-2026!"},
    "identification_incomplete": {"username": "tr-unidentified@regkit.example", "password": "Ausweis-fehlt-2026!"},
    "not_unlocked": {"username": "tr-new@regkit.example", "password": "Noch-nicht-frei-2026!"},
}


class Clock:
    """A controllable Unix clock: starts at the real time, moves only when told to."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``."""
        self.now += seconds


class RegisterSession(requests.Session):
    """A session whose relative URLs (``/v1/...``) go to ``base_url``."""

    def __init__(self, base_url: str):
        super().__init__()
        self.base_url = base_url

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        if url.startswith("/"):
            url = self.base_url + url
        return super().request(method, url, *args, **kwargs)


def conforming(response: requests.Response, *args: Any, **kwargs: Any) -> None:
    """Response hook: fail the request unless the response matches the OpenAPI description."""
    assert_conforms(response)


def session_for(
    register: Any, key: str | None = PAID, *, base_url: str | None = None, conform: bool = True
) -> RegisterSession:
    """A session on ``register`` (in-process, or the server at ``base_url``) sending ``key``.

    With ``conform`` (the default) every response is checked against the OpenAPI description; turn it off
    only for requests outside the interface (unknown routes, wrong methods).
    """
    session = register.mount(RegisterSession(base_url or register.base_url))
    if key is not None:
        session.headers["Authorization"] = f"Bearer {key}"
    if conform:
        session.hooks["response"].append(conforming)
    return session


def search_all(session: requests.Session, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every result of the search at ``path`` (a session from :func:`session_for`), paging at 100, with the totals
    checked on every page."""
    results: list[dict[str, Any]] = []
    page = 1
    while True:
        response = session.post(path, json={**body, "pagination": {"page": page, "per_page": 100}})
        assert response.status_code == 200, response.text
        chunk = response.json()
        results += chunk["results"]
        total = chunk["pagination"]["total_results"]
        assert chunk["pagination"]["total_pages"] == math.ceil(total / 100)
        if page >= chunk["pagination"]["total_pages"]:
            assert len(results) == total
            return results
        page += 1


def open_test_register(directory: Path) -> Any:
    """An in-process register on the bundled world with its state and key files in ``directory``: no rate limit,
    no extract delay, no realtime latency (a module's own, for tests that ask every company)."""
    from regkit.local.register import open_local_register

    return open_local_register(
        state_path=directory / "register.sqlite",
        key_path=directory / "local.key",
        rate_limit=None,
        extract_delay=0.0,
        realtime_latency=0.0,
    )


def error_of(response: requests.Response) -> tuple[int, str]:
    """``(status, error code)`` of an error response."""
    return response.status_code, response.json()["error"]["code"]


def charged(response: requests.Response) -> int:
    """The response's ``X-Credits-Charged``."""
    return int(response.headers["X-Credits-Charged"])


class WorldIds:
    """Ids of the bundled world that tests need, found by what they are rather than hard-coded."""

    def __init__(self, catalog: Any):
        companies, entities = catalog.world.companies, catalog.entities
        active = [c for c, rec in companies.items() if rec.get("status") == "active"]
        from regkit.local.models.beneficial_owners import beneficial_owners

        unique = [c for c in active if len(entities.get(c, ())) == 1 and companies[c].get("documents")]
        self.unique_match = unique[0]
        self.with_owner = next(c for c in unique if beneficial_owners(c, catalog.holders))
        self.without_owner = next(c for c in unique if not beneficial_owners(c, catalog.holders))
        self.ambiguous = next(c for c in active if len(entities.get(c, ())) > 1)
        self.no_match = next(c for c in active if c not in entities)
        self.inactive_match = next(
            c for c, rec in companies.items() if rec.get("status") == "inactive" and len(entities.get(c, ())) == 1
        )
        self.pending_change = next(iter(catalog.world.realtime))
        self.person = next(p for p in catalog.persons)


def filter_matches(proceeding: dict[str, Any], item: dict[str, Any]) -> bool:
    """Brute-force oracle of one insolvency search filter over a proceeding (what the index must agree with)."""
    from regkit.local.search.query import fold

    field = item["field"]
    value = proceeding.get(field)
    if field == "insolvency_grounds":
        wanted = {item["value"]} if "value" in item else set(item["values"])
        return bool(wanted & set(value or ()))
    if field == "has_open_insolvency":
        return value is not None and value == (item["value"] == "true")
    if field in ("court", "city"):
        if "keywords" in item:
            return value is not None and all(fold(k) in fold(value) for k in item["keywords"])
        wanted = [item["value"]] if "value" in item else item["values"]
        return value is not None and fold(value) in {fold(w) for w in wanted}
    if "value" in item:
        return value == item["value"]
    if "values" in item:
        return value in item["values"]
    return value is not None and item.get("min", "0000") <= value <= item.get("max", "9999")
