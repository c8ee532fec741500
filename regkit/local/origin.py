"""Where the register says it is: the origin of presigned URLs and of the OpenAPI ``servers`` default.

Handlers build absolute URLs from the WSGI environ (``request.host_url``). The client's ``Host`` header
must not decide them (``Host: attacker.example`` would hand out document URLs — capabilities — on the
attacker's host), so whoever runs the application fixes the origin in the environ before it sees the
request: :class:`~regkit.local.server.LocalServer` the address it is bound to, the in-process adapter
``http://local.regkit``, and a configured ``public_url`` (innermost, so it wins) the address clients use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

__all__ = ["set_origin", "FixedOrigin", "origin_of"]


def origin_of(host: str, port: int, scheme: str = "http") -> str:
    """``scheme://host:port``, with an IPv6 address in brackets."""
    return f"{scheme}://[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{scheme}://{host}:{port}"


def set_origin(environ: dict[str, Any], origin: str) -> None:
    """Make ``environ`` describe a request to ``origin`` (scheme, ``Host``, server name and port)."""
    parts = urlsplit(origin)
    environ["wsgi.url_scheme"] = parts.scheme
    environ["HTTP_HOST"] = parts.netloc
    environ["SERVER_NAME"] = parts.hostname or ""
    environ["SERVER_PORT"] = str(parts.port or (443 if parts.scheme == "https" else 80))
    environ.pop("HTTP_X_FORWARDED_HOST", None)


class FixedOrigin:
    """WSGI middleware: every request reaches ``app`` as a request to ``origin``, whatever its ``Host``."""

    def __init__(self, app: Callable[..., Iterable[bytes]], origin: str):
        self.app = app
        self.origin = origin

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        set_origin(environ, self.origin)
        return self.app(environ, start_response)
