"""Fixtures of the client tests.

Unit tests talk to :class:`FakeInterface`, a scripted transport adapter (no sockets, no Flask);
integration tests talk to the local register in-process or over real loopback HTTP.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
import requests
from requests.adapters import BaseAdapter
from urllib3 import HTTPResponse
from urllib3.exceptions import ProtocolError

FAKE_URL = "http://fake.regkit.test"
FAKE_KEY = "sk-test-fake-0123456789"


class _TruncatedRaw(HTTPResponse):
    """A raw body that breaks off: requests turns the ProtocolError into ChunkedEncodingError."""

    def stream(self, amt: int | None = 2**16, decode_content: bool | None = None) -> Any:
        yield b'{"id": '
        raise ProtocolError("Connection broken: IncompleteRead(7 bytes read, 100 more expected)")


class FakeInterface(BaseAdapter):
    """A scripted interface: ``route(method, path, handler)`` (a path ending in ``*`` is a prefix);
    handlers return
    ``(status, body, headers)`` or raise a requests exception.  Every request is kept in ``sent``."""

    URL = FAKE_URL
    KEY = FAKE_KEY

    def __init__(self) -> None:
        super().__init__()
        self.routes: dict[tuple[str, str], Callable[[requests.PreparedRequest], Any]] = {}
        self.sent: list[requests.PreparedRequest] = []
        self.lock = threading.Lock()

    def route(self, method: str, path: str, handler: Callable[[requests.PreparedRequest], Any]) -> None:
        self.routes[(method, path)] = handler

    def count(self, method: str | None = None, path: str | None = None) -> int:
        with self.lock:
            return sum(
                1
                for r in self.sent
                if (method is None or r.method == method)
                and (path is None or requests.utils.urlparse(r.url).path == path)
            )

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        with self.lock:
            self.sent.append(request)
        path = requests.utils.urlparse(request.url).path
        handler = self.routes.get((request.method or "", path))
        for (method, pattern), candidate in self.routes.items():
            if handler is None and pattern.endswith("*") and method == request.method and path.startswith(pattern[:-1]):
                handler = candidate
        if handler is None:
            result: Any = (404, {"error": {"code": "not_found", "message": f"no route {path}"}}, {})
        else:
            result = handler(request)
        status, body, headers = result
        response = requests.Response()
        response.status_code = status
        response.reason = "OK" if status < 400 else "ERROR"
        response.url = request.url or ""
        response.request = request
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        response.headers.update({"Content-Type": "application/json", **headers})
        truncated = headers.get("X-Fake-Truncate") == "1"
        raw_class = _TruncatedRaw if truncated else HTTPResponse
        response.raw = raw_class(
            body=io.BytesIO(payload),
            headers=response.headers,
            status=status,
            preload_content=False,
            request_url=response.url,
        )
        return response

    def close(self) -> None:
        pass

    @staticmethod
    def charged(amount: int) -> dict[str, str]:
        """Headers of an answer that cost ``amount`` credits."""
        return {"X-Credits-Charged": str(amount), "X-Credits-Remaining": "1000"}

    @staticmethod
    def company_body(company_id: str, **extra: Any) -> dict[str, Any]:
        """A minimal CompanyV1-shaped answer."""
        body = {
            "id": company_id,
            "name": {"name": f"Firma {company_id} GmbH", "legal_form": "gmbh", "start_date": "2020-01-01"},
            "status": "active",
            "sources": [{"document_url": f"{FAKE_URL}/doc/{company_id}?sig=abc"}],
        }
        body.update(extra)
        return body


@pytest.fixture
def fake() -> FakeInterface:
    """A fresh scripted interface (use with :func:`fake_client`)."""
    return FakeInterface()


@pytest.fixture
def make_fake_client(fake: FakeInterface) -> Callable[..., Any]:
    """Build clients on the scripted interface with a memory cache, no retry pauses, and any
    keyword of ``regkit.Client`` overridden."""
    from regkit.client import Client, RetryPolicy

    clients: list[Any] = []

    def make(**kwargs: Any) -> Any:
        options: dict[str, Any] = {
            "api_key": FAKE_KEY,
            "base_url": FAKE_URL,
            "cache": "memory",
            "retries": RetryPolicy(retries=3, backoff=0.0, backoff_max=0.0),
            "adapter": fake,
        }
        options.update(kwargs)
        client = Client(**options)
        client._caller.sleep = lambda seconds: None
        client._caller.gate._sleep = lambda seconds: None
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


# -- the local register ------------------------------------------------------------------------

DEMO_KEY = "demo-paid"
FAST_RETRIES = {"retries": 6, "backoff": 0.01, "backoff_max": 0.05}


class RequestCounter:
    """WSGI middleware counting the requests that reach the register (``/v1/credits`` apart)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.counted: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") != "/v1/credits":
            with self.lock:
                self.counted.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")))
        return self.app(environ, start_response)


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


def _open_register(tmp_path: Any, **options: Any) -> Any:
    from regkit.local import open_local_register

    config = {"rate_limit": None, "extract_delay": 0.0, **options}
    return open_local_register(state_path=tmp_path / "state.sqlite", **config)


@pytest.fixture
def register(tmp_path: Any) -> Any:
    """A fresh local register (own state file, no rate limit, instant extracts), requests counted
    on ``register.counter``."""
    reg = _open_register(tmp_path)
    reg.counter = RequestCounter(reg.app.wsgi_app)
    reg.app.wsgi_app = reg.counter
    yield reg
    reg.close()


@pytest.fixture(params=["inprocess", "loopback"])
def local(request: pytest.FixtureRequest, register: Any, tmp_path: Any) -> Any:
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
