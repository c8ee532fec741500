"""The local register as a real HTTP server: waitress, on a background thread or in the foreground.

waitress is a production WSGI server with HTTP/1.1 keep-alive and a pool of worker threads; ``regkit serve``
runs it in the foreground (:meth:`LocalServer.serve_forever`), tests, benchmarks and notebooks on a
daemon thread (:meth:`LocalServer.start` / :meth:`LocalServer.stop`). Around the application it adds:

- the origin: every request reaches the application as a request to ``http://host:port`` the server is
  bound to — never to the client's ``Host`` header (a ``public_url`` configured on the application wins,
  see :mod:`regkit.local.origin`);
- a real connection drop: an injected timeout (:class:`~regkit.local.faults.DroppedConnection`) closes
  the connection without writing a byte, so the client sees a connection error at that moment, not an
  answer and not a connection kept alive until its own read timeout;
- the interface's JSON error body for an exception that escapes the application (``500 internal_error``),
  where waitress would answer with its own ``text/plain`` page.

What never reaches the application: a request waitress cannot parse (a header with a control character, a
malformed request line, chunked encoding or ``Content-Length``, a head of :data:`MAX_HEAD_BYTES` or a body
of :data:`MAX_REQUEST_BODY_BYTES` or more). waitress answers it itself with a ``text/plain`` body and offers no
setting or hook to change that body (its answers are built by ``waitress.utilities.Error.to_response`` in
``waitress.task.ErrorTask``); ``docs/interface.md`` (Errors) documents this exception precisely.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

from waitress.channel import ClientDisconnected
from waitress.server import create_server
from waitress.wasyncore import close_all

from .faults import DroppedConnection
from .origin import FixedOrigin, origin_of

__all__ = ["LocalServer", "DEFAULT_THREADS", "MAX_HEAD_BYTES", "MAX_REQUEST_BODY_BYTES"]

logger = logging.getLogger(__name__)

# Library style for the server regkit embeds: waitress's records (a queue-depth warning when every worker
# is busy, ...) reach handlers the program installs — `regkit serve` installs them — and are not printed
# to stderr by logging's last-resort handler otherwise.
logging.getLogger("waitress").addHandler(logging.NullHandler())

#: Worker threads: requests served at once (a request in an injected timeout or latency holds one).
DEFAULT_THREADS = 16
#: Seconds the event loop waits for sockets before it looks at the stop flag again.
_POLL = 0.5
#: waitress refuses a request line and headers of this many bytes or more itself (431, ``text/plain``).
#: Set here (waitress's default) so that what docs/interface.md states does not move with waitress.
MAX_HEAD_BYTES = 256 * 1024
#: waitress refuses a body of this many bytes or more itself (413, ``text/plain``). The application refuses
#: any body over :data:`regkit.local.app.MAX_BODY_BYTES` (1 MiB) with its JSON 413 first; this only bounds
#: what waitress buffers for it (waitress's default).
MAX_REQUEST_BODY_BYTES = 1 << 30
_INTERNAL_ERROR = json.dumps(
    {
        "error": {
            "code": "internal_error",
            "message": "The local register failed on this request; it has been logged. "
            "Retry, and report it if it persists.",
        }
    },
    separators=(",", ":"),
).encode("utf-8")


class _Served(FixedOrigin):
    """The application as the server calls it: its origin fixed, an injected drop turned into a closed connection,
    and an exception that escapes it answered ``500 internal_error`` in the interface's JSON (not waitress's
    ``text/plain`` page)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        try:
            return super().__call__(environ, start_response)
        except DroppedConnection as drop:
            # waitress closes a connection whose client went away without writing anything to it
            raise ClientDisconnected(str(drop)) from drop
        except ClientDisconnected:
            raise
        except Exception:
            # The application answers its own errors (regkit.local.app); this is the net under it.
            logger.exception(
                "Unhandled exception on %s %s", environ.get("REQUEST_METHOD", "-"), environ.get("PATH_INFO", "")
            )
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(_INTERNAL_ERROR)))]
            start_response("500 Internal Server Error", headers, sys.exc_info())
            return [_INTERNAL_ERROR]


class LocalServer:
    """Serve a WSGI app over HTTP with waitress.

    Parameters
    ----------
    app : callable
        The WSGI application (e.g. ``register.app``).
    host : str
        Interface to bind (loopback by default).
    port : int
        Port; ``0`` picks a free one (see :attr:`url` once bound).
    threads : int
        Worker threads, i.e. requests served at once.
    sock : socket.socket, optional
        An already bound and listening socket to serve on instead of binding ``host:port``.

    Attributes
    ----------
    ready : threading.Event
        Set once the server accepts and answers requests; cleared by :meth:`stop`.

    Examples
    --------
    >>> with LocalServer(app) as server:          # doctest: +SKIP
    ...     requests.get(f"{server.url}/v1/openapi.json")
    """

    def __init__(
        self,
        app: Callable[..., Any],
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        threads: int = DEFAULT_THREADS,
        sock: socket.socket | None = None,
    ):
        self.app = app
        self.host = host
        self.port = port
        self.threads = threads
        self.ready = threading.Event()
        self._sock = sock
        self._served = _Served(app, "")
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._looping = False

    @property
    def url(self) -> str:
        """``http://host:port`` of the bound server."""
        if self._server is None:
            raise RuntimeError("the server is not started; call start() first")
        return origin_of(self.host, self.port)

    def bind(self) -> LocalServer:
        """Bind (or take over ``sock``) and listen; requests wait in the backlog until serving starts."""
        if self._server is None:
            # channel_request_lookahead: waitress then notices a client that went away
            # (waitress.client_disconnected), so an unanswered search is not charged.
            options: dict[str, Any] = {
                "threads": self.threads,
                "ident": "regkit",
                "clear_untrusted_proxy_headers": True,
                "channel_request_lookahead": 5,
                "max_request_header_size": MAX_HEAD_BYTES,
                "max_request_body_size": MAX_REQUEST_BODY_BYTES,
            }
            if self._sock is not None:
                options["sockets"] = [self._sock]
                self.port = self._sock.getsockname()[1]
            else:
                options.update(host=self.host, port=self.port)
            self._stopping.clear()
            self._server = create_server(self._served, **options)
            self.port = int(self._server.effective_port)
            self._served.origin = origin_of(self.host, self.port)
        return self

    def _loop(self) -> None:
        server = self._server
        self._looping = True
        self.ready.set()
        try:
            while not self._stopping.is_set():
                server.asyncore.loop(timeout=_POLL, map=server._map, use_poll=True, count=1)
        finally:
            self._looping = False

    def start(self, timeout: float = 10.0) -> LocalServer:
        """Bind, serve on a daemon thread and wait until it accepts requests."""
        if self._thread is not None:
            return self
        self.bind()
        self._thread = threading.Thread(target=self._loop, name=f"regkit-local-{self.port}", daemon=True)
        self._thread.start()
        if not self.ready.wait(timeout):
            raise RuntimeError(f"the local register did not start within {timeout} s")
        return self

    def serve_forever(self) -> None:
        """Bind and serve in the calling thread until :meth:`stop` is called from another thread,
        or ``KeyboardInterrupt`` / ``SystemExit`` arrives; the server is closed afterwards."""
        self.bind()
        try:
            self._loop()
        finally:
            self._close()

    def stop(self) -> None:
        """Stop serving, close every connection and release the port."""
        if self._server is None:
            return
        self._stopping.set()
        if self._thread is not None:
            self._server.trigger.pull_trigger()  # wake the event loop at once
            self._thread.join(timeout=10)
            self._thread = None
            self._close()
        elif self._looping:  # serve_forever in another thread closes the server when its loop ends
            self._server.trigger.pull_trigger()
        else:  # bound, never served
            self._close()

    def _close(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        close_all(server._map, ignore_all=True)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        self.ready.clear()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()
