"""A requests transport adapter that runs a WSGI application in-process (no socket).

Mount it at :data:`LOCAL_ORIGIN` on a :class:`requests.Session` (or a ``requests_cache.CachedSession``):
the request is turned into a WSGI environ with werkzeug's ``EnvironBuilder``, the application runs in
the calling thread (``run_wsgi_app``), and the answer comes back as a real ``urllib3`` response over a
byte buffer, so streaming, ``Content-Length`` checks and requests-cache behave as over the network.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast
from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers
from urllib3 import HTTPHeaderDict, HTTPResponse
from urllib3.util import Timeout

from regkit.schema.interface import LOCAL_ORIGIN

from .faults import READ_TIMEOUT_KEY
from .origin import set_origin

__all__ = ["LOCAL_ORIGIN", "LocalRegisterAdapter"]


def _read_timeout(timeout: Any) -> float | None:
    if isinstance(timeout, tuple):
        return timeout[1]
    if isinstance(timeout, Timeout):
        return timeout.read_timeout if isinstance(timeout.read_timeout, (int, float)) else None
    return timeout


class LocalRegisterAdapter(BaseAdapter):
    """Send requests to a WSGI ``app`` in-process.

    Parameters
    ----------
    app : callable
        A WSGI application (e.g. from :func:`regkit.local.app.create_app`).
    """

    def __init__(self, app: Callable[..., Any]):
        super().__init__()
        self.app = app

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        """Run the application on ``request`` and return its response.

        Raises
        ------
        requests.exceptions.ReadTimeout
            When the application does not answer within the read timeout (fault injection).
        requests.exceptions.ConnectionError
            When the application drops the request without an answer (fault injection).
        """
        # werkzeug is imported with the first request, as the application behind it is (regkit.Client() opens
        # the in-process register without importing either).
        from werkzeug.datastructures import Headers
        from werkzeug.test import EnvironBuilder, run_wsgi_app

        url = urlsplit(request.url or "")
        body = request.body
        if body is not None and not isinstance(body, (bytes, str)):
            # a stream body is iterable; a read()-only one (rare) raises TypeError here, as it always has
            chunks = cast("Iterable[bytes | str]", body)
            body = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in chunks)
        builder = EnvironBuilder(
            path=url.path or "/",
            query_string=url.query,
            method=request.method or "GET",
            headers=Headers(request.headers.items()),
            data=body,
            base_url=f"{url.scheme}://{url.netloc}",
        )
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        set_origin(environ, f"{url.scheme}://{url.netloc}")  # the mount point, never a Host header sent along
        environ[READ_TIMEOUT_KEY] = _read_timeout(timeout)
        try:
            app_iter, status, headers = run_wsgi_app(self.app, environ, buffered=True)
        except TimeoutError as exc:
            raise requests.exceptions.ReadTimeout(str(exc), request=request) from exc
        except ConnectionError as exc:
            raise requests.exceptions.ConnectionError(str(exc), request=request) from exc
        try:
            content = b"".join(app_iter)
        finally:
            if hasattr(app_iter, "close"):
                app_iter.close()
        code, _, reason = status.partition(" ")
        raw = HTTPResponse(
            body=io.BytesIO(content),
            headers=HTTPHeaderDict(headers.items()),
            status=int(code),
            reason=reason,
            version=11,
            preload_content=False,
            decode_content=False,
            enforce_content_length=True,
            request_method=request.method,
            request_url=request.url,
        )
        response = requests.Response()
        response.status_code = raw.status
        response.reason = reason
        response.headers = CaseInsensitiveDict(raw.headers)
        response.encoding = get_encoding_from_headers(response.headers)
        response.raw = raw
        response.url = request.url or ""
        response.request = request
        # requests declares HTTPAdapter here but only ever calls .send() on it (digest auth), which any adapter has
        response.connection = self  # type: ignore[assignment]
        return response

    def close(self) -> None:
        """Nothing to release: there is no connection pool."""
