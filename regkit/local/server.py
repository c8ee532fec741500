"""The local register as a real HTTP server on a background thread (tests, notebooks, ``regkit serve``)."""

from __future__ import annotations

import threading
from typing import Any, Callable

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

__all__ = ["LocalServer"]


class _QuietHandler(WSGIRequestHandler):
    """Request handler that leaves access logging to the ``werkzeug`` logger at DEBUG."""

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        return None


class LocalServer:
    """Serve a WSGI app on a thread (werkzeug, threaded: one thread per request).

    Parameters
    ----------
    app : callable
        The WSGI application.
    host : str
        Interface to bind (loopback by default).
    port : int
        Port; ``0`` picks a free one (see :attr:`url` after :meth:`start`).
    quiet : bool
        Suppress the per-request access log lines.

    Examples
    --------
    >>> with LocalServer(app) as server:          # doctest: +SKIP
    ...     requests.get(f"{server.url}/v1/openapi.json")
    """

    def __init__(self, app: Callable[..., Any], host: str = "127.0.0.1", port: int = 0, quiet: bool = True):
        self.app = app
        self.host = host
        self.port = port
        self.quiet = quiet
        self.ready = threading.Event()
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """``http://host:port`` of the running server."""
        if self._server is None:
            raise RuntimeError("the server is not started; call start() first")
        return f"http://{self.host}:{self._server.server_port}"

    def start(self, timeout: float = 10.0) -> "LocalServer":
        """Bind, start serving on a daemon thread and wait until it accepts requests."""
        if self._server is not None:
            return self
        handler = _QuietHandler if self.quiet else WSGIRequestHandler
        self._server = make_server(self.host, self.port, self.app, threaded=True, request_handler=handler)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._serve, name=f"regkit-local-{self.port}", daemon=True)
        self._thread.start()
        if not self.ready.wait(timeout):
            raise RuntimeError(f"the local register did not start within {timeout} s")
        return self

    def _serve(self) -> None:
        assert self._server is not None
        self.ready.set()
        self._server.serve_forever(poll_interval=0.05)

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None
        self.ready.clear()

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()
