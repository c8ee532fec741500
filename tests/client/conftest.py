"""Fixtures of the client tests.

The client tests talk to the real local register, in-process (its requests adapter) or over real loopback HTTP
(``regkit serve``'s :class:`~regkit.local.LocalServer`); faults come from the register itself
(:class:`~regkit.local.Faults`: random rates, latency, and a deterministic per-path fault plan). Tests get
registers and clients through these fixtures only (never ``from conftest import``): ``register`` /
``make_register`` for a register, ``local`` / ``inprocess`` / ``make_local`` for a :class:`LocalTarget` that
builds clients on one.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# -- the local register ------------------------------------------------------------------------

DEMO_KEY = "demo-paid"
FAST_RETRIES = {"retries": 6, "backoff": 0.01, "backoff_max": 0.05}


class RequestCounter:
    """WSGI middleware counting the requests that reach the register, faulted ones included (``/v1/credits``
    apart): ``counted`` holds ``(method, path)``, ``bodies`` the request bodies in the same order."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.counted: list[tuple[str, str]] = []
        self.bodies: list[bytes] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") != "/v1/credits":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length) if length > 0 else b""
            environ["wsgi.input"] = io.BytesIO(body)
            with self.lock:
                self.counted.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")))
                self.bodies.append(body)
        return self.app(environ, start_response)

    def count(self, method: str | None = None, path: str | None = None) -> int:
        """How many requests (of ``method``, to ``path`` or a path under it if it ends in ``*``) arrived."""
        with self.lock:
            return sum(
                1
                for m, p in self.counted
                if (method is None or m == method)
                and (path is None or (p.startswith(path[:-1]) if path.endswith("*") else p == path))
            )


class LocalTarget:
    """One way of reaching a local register: ``inprocess`` (the adapter) or ``loopback`` (HTTP).

    ``client(**kw)`` builds a ``regkit.Client`` on it; ``used(key)`` asks the register itself (in
    process, not through any client) how many credits a key has used; ``counter`` counts requests.
    """

    def __init__(self, kind: str, register: Any, counter: RequestCounter, cache_dir: Any, server: Any = None) -> None:
        self.kind = kind
        self.register = register
        self.counter = counter
        self.cache_dir = cache_dir
        cache_dir.mkdir(parents=True, exist_ok=True)
        self.server = server
        self.base_url = server.url if server is not None else register.base_url
        self._clients: list[Any] = []

    def client(self, **kwargs: Any) -> Any:
        from regkit.client import Client, RetryPolicy

        options: dict[str, Any] = {
            "api_key": DEMO_KEY,
            "base_url": self.base_url,
            "cache": self.cache_dir / "http_cache.sqlite",
            "retries": RetryPolicy(**FAST_RETRIES),
            "timeout": 10.0,
            "adapter": None if self.server is not None else self.register.adapter,
        }
        options.update(kwargs)
        client = Client(**options)
        self._clients.append(client)
        return client

    def used(self, api_key: str = DEMO_KEY) -> int:
        session = self.register.session(api_key)
        return int(session.get(f"{self.register.base_url}/v1/credits").json()["used_credits"])

    def close(self) -> None:
        for client in self._clients:
            client.close()


@pytest.fixture
def make_register(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Factory for local registers on the bundled world, closed after the test.

    Keyword arguments go to :func:`regkit.local.open_local_register` (``faults``, ``rate_limit``,
    ``extract_delay``, ``url_ttl``, ...). Defaults: the state file ``tmp_path / "state.sqlite"`` (so a second
    register of the same test shares the first one's state, as after a restart), no rate limit, instant
    extracts. Every request that reaches the register (faulted ones too) is counted on ``register.counter``
    (a :class:`RequestCounter`).
    """
    from regkit.local import open_local_register

    opened: list[Any] = []

    def make(**options: Any) -> Any:
        config = {"state_path": tmp_path / "state.sqlite", "rate_limit": None, "extract_delay": 0.0, **options}
        register = open_local_register(**config)
        register.counter = RequestCounter(register.app.wsgi_app)
        register.app.wsgi_app = register.counter
        opened.append(register)
        return register

    yield make
    for register in reversed(opened):
        register.close()


@pytest.fixture
def register(make_register: Callable[..., Any]) -> Any:
    """A fresh local register (own state file, no rate limit, instant extracts), requests counted
    on ``register.counter``."""
    return make_register()


@pytest.fixture
def make_local(make_register: Callable[..., Any], tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Factory for a :class:`LocalTarget` on a new register: ``make_local(kind, **options)`` with ``kind``
    ``"inprocess"`` (the default) or ``"loopback"`` (real HTTP through :class:`~regkit.local.LocalServer`) and
    ``options`` for :func:`make_register` (``faults=Faults(plan=[...])`` for a deterministic fault sequence)."""
    from regkit.local import LocalServer

    made: list[tuple[LocalTarget, Any]] = []

    def make(kind: str = "inprocess", **options: Any) -> LocalTarget:
        if kind not in ("inprocess", "loopback"):
            raise ValueError(f"kind must be 'inprocess' or 'loopback', not {kind!r}")
        register = make_register(**options)
        server = LocalServer(register.app).start() if kind == "loopback" else None
        target = LocalTarget(kind, register, register.counter, tmp_path / f"cache{len(made)}", server)
        made.append((target, server))
        return target

    yield make
    for target, server in reversed(made):
        target.close()
        if server is not None:
            server.stop()


@pytest.fixture(params=["inprocess", "loopback"])
def local(request: pytest.FixtureRequest, register: Any, tmp_path: Path) -> Any:
    """The register reached in-process and over real loopback HTTP: tests using it run twice."""
    from regkit.local import LocalServer

    server = LocalServer(register.app).start() if request.param == "loopback" else None
    target = LocalTarget(request.param, register, register.counter, tmp_path / "cache", server)
    yield target
    target.close()
    if server is not None:
        server.stop()


@pytest.fixture
def inprocess(register: Any, tmp_path: Any) -> Any:
    """The register reached in-process only (for tests where the transport does not matter)."""
    target = LocalTarget("inprocess", register, register.counter, tmp_path / "cache")
    yield target
    target.close()


@pytest.fixture(scope="session")
def world() -> Any:
    """The bundled world as the register serves it (read once per test session)."""
    from regkit.local.world.store import read_world

    return read_world()


@pytest.fixture(scope="session")
def world_meta(world: Any) -> dict[str, Any]:
    """``world.json``: users, Transparenzregister accounts and entities, scenarios."""
    return world.meta


@pytest.fixture
def foreign_serializer() -> Any:
    """A requests-cache serializer that is not regkit's (a row written with it is one regkit cannot read): the body
    behind a marker regkit's format does not have."""
    from requests_cache import CachedResponse, SerializerPipeline, Stage

    def dumps(response: Any) -> bytes:
        return b"FOREIGN\n" + bytes(response.content)

    def loads(row: Any) -> Any:
        return CachedResponse(content=bytes(row)[8:], status_code=200)

    return SerializerPipeline([Stage(dumps=dumps, loads=loads)], name="foreign", is_binary=True)
