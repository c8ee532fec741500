"""Fault injection for testing clients: latency, 500s, timeouts, truncated bodies and 429 bursts.

Faults are decided by a WSGI middleware *before* the application sees the request, so a faulted request
is never authenticated, rate-limited or charged: ``X-Credits-Charged`` is ``0`` on every faulted
response, including a truncated one (its body is a stand-in, not the handler's answer).

Decisions come from one seeded random generator per application, drawn in the order requests arrive:
a single-threaded client sees the same sequence of faults for the same seed.

Each injected fault is logged as one INFO line (``regkit.local.faults``) and marked ``fault=<kind>`` on
the request's access line; an injected 500 logs no traceback, since nothing failed. A timeout ends by
raising :class:`DroppedConnection`: the in-process adapter turns it into
:class:`requests.exceptions.ConnectionError`, :class:`~regkit.local.server.LocalServer` (``regkit serve``)
closes the connection without writing a byte.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .logs import FAULT_KEY

__all__ = ["Faults", "FaultMiddleware", "DroppedConnection", "READ_TIMEOUT_KEY"]

logger = logging.getLogger(__name__)

#: WSGI environ key in which the in-process adapter passes the client's read timeout (seconds).
READ_TIMEOUT_KEY = "regkit.read_timeout"


class DroppedConnection(ConnectionResetError):
    """Raised by an injected timeout: the server must close the connection without an answer."""


@dataclass(frozen=True)
class Faults:
    """Which faults to inject and how often.

    Parameters
    ----------
    latency : float
        Seconds added to every request.
    fault_rate : float
        Share of requests answered ``500`` with code ``injected_fault``.
    timeout_rate : float
        Share of requests that hang for ``timeout`` seconds and then drop the connection without an
        answer (over HTTP the server closes it; the client sees a connection error, or its own read
        timeout if that is shorter). In-process, the adapter's read timeout is honoured: the request
        sleeps that long and raises :class:`requests.exceptions.ReadTimeout`.
    timeout : float
        How long a timed-out request hangs.
    truncate_rate : float
        Share of requests answered ``200`` with a ``Content-Length`` larger than the body sent.
    burst_rate : float
        Chance that a request starts a burst of ``burst_length`` consecutive ``429`` answers.
    burst_length : int
        Length of a 429 burst (the starting request included).
    seed : int or None
        Seed of the decision sequence; ``None`` draws a fresh one.
    """

    latency: float = 0.0
    fault_rate: float = 0.0
    timeout_rate: float = 0.0
    timeout: float = 30.0
    truncate_rate: float = 0.0
    burst_rate: float = 0.0
    burst_length: int = 3
    seed: int | None = 0

    def __post_init__(self) -> None:
        rates = (self.fault_rate, self.timeout_rate, self.truncate_rate, self.burst_rate)
        if any(rate < 0 or rate > 1 for rate in rates) or sum(rates) > 1:
            raise ValueError("fault rates must lie in [0, 1] and add up to at most 1")
        if self.latency < 0 or self.timeout < 0 or self.burst_length < 1:
            raise ValueError("latency and timeout must not be negative, burst_length at least 1")

    @property
    def active(self) -> bool:
        """Whether these settings inject anything at all."""
        return self.latency > 0 or self.fault_rate + self.timeout_rate + self.truncate_rate + self.burst_rate > 0


def _headers(body: bytes, *, length: int | None = None) -> list[tuple[str, str]]:
    return [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body) if length is None else length)),
        ("X-Credits-Charged", "0"),
    ]


def _drain_request_body(environ: dict[str, Any]) -> None:
    """Read the request body a fault answers without looking at, so a kept-alive connection stays in step."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > 0:
        environ["wsgi.input"].read(length)


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class FaultMiddleware:
    """WSGI middleware that injects :class:`Faults` in front of ``app``."""

    def __init__(self, app: Callable[..., Iterable[bytes]], faults: Faults):
        self.app = app
        self.faults = faults
        self._random = random.Random(faults.seed)
        self._lock = threading.Lock()
        self._burst_left = 0

    def _decide(self) -> str | None:
        faults = self.faults
        with self._lock:
            if self._burst_left > 0:
                self._burst_left -= 1
                return "burst"
            draw = self._random.random()
            for kind, rate in (
                ("error", faults.fault_rate),
                ("timeout", faults.timeout_rate),
                ("truncate", faults.truncate_rate),
                ("burst", faults.burst_rate),
            ):
                if draw < rate:
                    if kind == "burst":
                        self._burst_left = faults.burst_length - 1
                    return kind
                draw -= rate
        return None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self.faults.latency:
            time.sleep(self.faults.latency)
        kind = self._decide()
        if kind is None:
            return self.app(environ, start_response)
        environ[FAULT_KEY] = kind
        logger.info(
            "Injecting fault %r into %s %s (fault injection is on)",
            kind,
            environ.get("REQUEST_METHOD"),
            environ.get("PATH_INFO"),
        )
        _drain_request_body(environ)
        if kind == "error":
            body = _error_body("injected_fault", "Injected internal error (fault injection is on); retry.")
            start_response("500 INTERNAL SERVER ERROR", _headers(body))
            return [body]
        if kind == "burst":
            body = _error_body("rate_limited", "Injected rate limit burst (fault injection is on); retry later.")
            start_response("429 TOO MANY REQUESTS", [*_headers(body), ("Retry-After", "1")])
            return [body]
        if kind == "truncate":
            body = _error_body("injected_truncation", "This body is cut short on purpose.")
            start_response("200 OK", _headers(body[: len(body) // 2], length=len(body)))
            return [body[: len(body) // 2]]
        read_timeout = environ.get(READ_TIMEOUT_KEY)
        if read_timeout is not None and read_timeout < self.faults.timeout:
            time.sleep(read_timeout)
            raise TimeoutError(f"injected timeout: no answer within the read timeout of {read_timeout} s")
        time.sleep(self.faults.timeout)
        raise DroppedConnection(
            f"injected timeout: the connection is dropped without an answer after {self.faults.timeout} s"
        )
