"""The scripted fake transport, kept only for the retry tests (``test_client_retry.py``) until they move to
the local register's fault plan (``Faults(plan=...)``, ``regkit serve --fault-plan``).

Every other client test talks to the real local register (fixtures ``register``, ``make_register``, ``local``,
``inprocess``, ``make_local`` in ``conftest.py``), whose faults (random and planned) cover what this fake scripts.
Use it through the ``fake`` and ``make_fake_client`` fixtures; new tests should not.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from typing import Any

import requests
from requests.adapters import BaseAdapter
from urllib3 import HTTPResponse
from urllib3.exceptions import ProtocolError

__all__ = ["FakeInterface", "FAKE_URL", "FAKE_KEY"]

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
