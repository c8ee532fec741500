"""Fixtures of the views tests (``regkit.plot`` figures and ``regkit.widgets`` explorers).

Plot tests draw with matplotlib's Agg backend (set here, before any pyplot import) on the bundled world
(:func:`world`, :func:`company`) or small hand-made frames; they assert on what was drawn. Widget tests
drive the explorers headless — set ``.value``, call ``.click()``, read the ``HTML`` widgets — against
the in-process local register through ``regkit.Client`` (:func:`client`), with cache, register state and
the register's credential key in ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # after the backend is chosen


@pytest.fixture(autouse=True)
def _no_show_and_close(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test: library code must never call ``plt.show()``; figures are closed afterwards."""
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("plt.show() was called"))
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def world() -> Any:
    """The bundled world (``data/``), read once per session. Read-only: copy a record before changing it."""
    from regkit.local.world import read_world

    return read_world()


@pytest.fixture
def company(world: Any) -> Callable[[str], dict[str, Any]]:
    """``company(id)``: a deep copy of one CompanyV1 record of the bundled world (safe to change)."""
    import copy

    return lambda company_id: copy.deepcopy(world.companies[company_id])


@pytest.fixture(scope="session")
def proceedings(world: Any) -> list[dict[str, Any]]:
    """Every insolvency proceeding of the bundled world as a dict (with ``events``). Read-only."""
    values = world.insolvencies.values() if isinstance(world.insolvencies, dict) else world.insolvencies
    return list(values)


@pytest.fixture
def register(tmp_path: Any) -> Iterator[Any]:
    """A fresh in-process local register (own state file, no rate limit): what :func:`client` talks to."""
    from regkit.local import open_local_register

    reg = open_local_register(state_path=tmp_path / "state.sqlite", rate_limit=None, extract_delay=0.0)
    yield reg
    reg.close()


@pytest.fixture
def make_client(register: Any, tmp_path: Any) -> Iterator[Callable[..., Any]]:
    """Factory of ``regkit.Client`` on :func:`register` (no key: the demo key), sharing the cache file
    ``tmp_path/cache/http_cache.sqlite`` unless ``cache=`` is given; closed after the test."""
    import regkit

    clients: list[Any] = []

    def make(**kwargs: Any) -> Any:
        options = {"cache": tmp_path / "cache" / "http_cache.sqlite", "adapter": register.adapter, **kwargs}
        client = regkit.Client(**options)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(make_client: Callable[..., Any]) -> Any:
    """A ``regkit.Client`` on the local register with an empty cache of its own in ``tmp_path``."""
    return make_client()


@pytest.fixture
def fresh_figures() -> Callable[[], list[int]]:
    """``fresh_figures()``: the pyplot figures opened since the test began (widgets must open none)."""
    before = set(plt.get_fignums())
    return lambda: sorted(set(plt.get_fignums()) - before)
