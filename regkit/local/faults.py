"""Fault injection for testing clients: latency, 500s, timeouts, truncated bodies and 429 bursts.

Faults are decided by a WSGI middleware *before* the application sees the request, so a faulted request
is never authenticated, rate-limited or charged: ``X-Credits-Charged`` is ``0`` on every faulted
response, including a truncated one (its body is a stand-in, not the handler's answer). The one exception is
the fault plan's ``garble`` step, which cuts the application's own (charged) answer in half.

Decisions come from one seeded random generator per application, drawn in the order requests arrive:
a single-threaded client sees the same sequence of faults for the same seed.

A *fault plan* makes faults deterministic per request path, for tests that need an exact sequence ("503
twice, then the real answer"): each :class:`PlanRule` names a method and a path (a trailing ``*`` makes it a
prefix) and the steps that its matching requests meet in turn; see :func:`parse_plan_rule` for the text form
``regkit serve --fault-plan`` takes. Planned requests draw nothing from the random generator; once a rule's
steps are used up, its requests go on to the random faults (if any) and the application.

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
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .logs import FAULT_KEY

__all__ = [
    "Faults",
    "FaultMiddleware",
    "DroppedConnection",
    "PlanRule",
    "parse_plan_rule",
    "PLAN_STEPS",
    "READ_TIMEOUT_KEY",
]

logger = logging.getLogger(__name__)

#: WSGI environ key in which the in-process adapter passes the client's read timeout (seconds).
READ_TIMEOUT_KEY = "regkit.read_timeout"


class DroppedConnection(ConnectionResetError):
    """Raised by an injected timeout: the server must close the connection without an answer."""


#: The named steps of a fault plan (a status code ``400``-``599``, optionally ``@SECONDS`` of Retry-After, is a
#: step too; a ``*`` after the last step repeats it forever).
PLAN_STEPS = {
    "pass": "the application answers (and charges) as without faults",
    "error": "500 injected_fault, charged 0",
    "timeout": "no answer: held for the timeout, then the connection is dropped (as timeout_rate)",
    "truncate": "200 whose body is cut short of its Content-Length, charged 0 (as truncate_rate)",
    "garble": "the application answers and charges, but only the first half of its body is sent, with a "
    "Content-Length that matches it: complete HTTP, incomplete JSON",
    "gateway": "502 with an HTML page, as a proxy in front of the service answers, charged 0",
}

_STEP = re.compile(r"^(?:(?P<name>[a-z]+)|(?P<status>[45]\d\d)(?:@(?P<retry_after>\d+))?)$")


@dataclass(frozen=True)
class PlanRule:
    """One rule of a fault plan: requests to ``method`` ``path`` meet ``steps`` in turn.

    Parameters
    ----------
    method : str
        HTTP method (upper case), or ``*`` for any.
    path : str
        Request path; a trailing ``*`` makes it a prefix (``/v1/company/*``).
    steps : tuple of str
        One step per matching request, in order: a name of :data:`PLAN_STEPS`, or a status code ``400``-``599``
        (a JSON error ``injected_fault``; ``429`` is ``rate_limited`` with ``Retry-After: 1``), optionally
        ``@SECONDS`` of ``Retry-After`` (``429@7``).
    repeat : bool
        Whether the last step repeats forever once reached (written ``503*``).
    """

    method: str
    path: str
    steps: tuple[str, ...]
    repeat: bool = False

    def __post_init__(self) -> None:
        if not self.path.startswith("/"):
            raise ValueError(f"fault plan path {self.path!r} must start with '/'")
        if not self.steps:
            raise ValueError(f"fault plan rule for {self.path!r} has no steps")
        for step in self.steps:
            match = _STEP.match(step)
            if match is None or (match["name"] is not None and match["name"] not in PLAN_STEPS):
                raise ValueError(
                    f"unknown fault plan step {step!r}: use one of {', '.join(PLAN_STEPS)}, or a status code "
                    "400-599 with an optional @SECONDS of Retry-After (429@7)"
                )

    def matches(self, method: str, path: str) -> bool:
        """Whether a request of ``method`` to ``path`` falls under this rule."""
        if self.method not in ("*", method):
            return False
        return path.startswith(self.path[:-1]) if self.path.endswith("*") else path == self.path


def parse_plan_rule(text: str) -> PlanRule:
    """A :class:`PlanRule` from its text form ``[METHOD ]PATH=STEP,STEP,...[*]``.

    Examples: ``GET /v1/company/*=503,503,pass`` (two 503s, then the real answer), ``POST /v1/monitor=gateway``,
    ``/v1/credits=429@7`` (any method), ``GET /v1/company/*=error*`` (always 500).

    Raises
    ------
    ValueError
        If the text is not of that form or names an unknown step.
    """
    where, sep, steps_text = text.partition("=")
    parts = where.split()
    if not sep or len(parts) not in (1, 2) or not steps_text.strip():
        raise ValueError(f"fault plan rule {text!r} is not of the form '[METHOD ]PATH=STEP,STEP,...'")
    method, path = (parts[0].upper(), parts[1]) if len(parts) == 2 else ("*", parts[0])
    steps = [step.strip() for step in steps_text.split(",")]
    repeat = steps[-1].endswith("*")
    if repeat:
        steps[-1] = steps[-1][:-1]
    return PlanRule(method, path, tuple(steps), repeat)


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
    plan : sequence of PlanRule or str
        A deterministic fault plan (rules or their text form, see :func:`parse_plan_rule`), applied before the
        random faults: the first rule that matches a request and has a step left decides it.
    burst_retry_after : int
        The ``Retry-After`` of a burst's 429s, in whole seconds (the interface always sends one; ``0`` asks for
        no wait).
    """

    latency: float = 0.0
    fault_rate: float = 0.0
    timeout_rate: float = 0.0
    timeout: float = 30.0
    truncate_rate: float = 0.0
    burst_rate: float = 0.0
    burst_length: int = 3
    seed: int | None = 0
    plan: Sequence[PlanRule | str] = ()
    burst_retry_after: int = 1

    def __post_init__(self) -> None:
        rules = tuple(rule if isinstance(rule, PlanRule) else parse_plan_rule(rule) for rule in self.plan)
        object.__setattr__(self, "plan", rules)
        rates = (self.fault_rate, self.timeout_rate, self.truncate_rate, self.burst_rate)
        if any(rate < 0 or rate > 1 for rate in rates) or sum(rates) > 1:
            raise ValueError("fault rates must lie in [0, 1] and add up to at most 1")
        if self.latency < 0 or self.timeout < 0 or self.burst_length < 1:
            raise ValueError("latency and timeout must not be negative, burst_length at least 1")
        retry_after = self.burst_retry_after
        if isinstance(retry_after, bool) or not isinstance(retry_after, int) or retry_after < 0:
            raise ValueError(
                f"burst_retry_after must be a whole number of seconds >= 0, not {self.burst_retry_after!r}"
            )

    @property
    def rules(self) -> tuple[PlanRule, ...]:
        """The plan as parsed rules (``plan`` given as text is parsed when the settings are made)."""
        return cast(tuple[PlanRule, ...], self.plan)

    @property
    def active(self) -> bool:
        """Whether these settings inject anything at all."""
        return (
            bool(self.plan)
            or self.latency > 0
            or self.fault_rate + self.timeout_rate + self.truncate_rate + self.burst_rate > 0
        )


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
        self._plan_used = [0] * len(faults.rules)

    def _planned(self, method: str, path: str) -> str | None:
        """The plan's step for this request, or ``None`` if no rule with steps left matches (lock held)."""
        for index, rule in enumerate(self.faults.rules):
            if not rule.matches(method, path):
                continue
            used = self._plan_used[index]
            if used < len(rule.steps):
                self._plan_used[index] = used + 1
                return rule.steps[used]
            if rule.repeat:
                return rule.steps[-1]
        return None

    def _decide(self, method: str = "GET", path: str = "/") -> str | None:
        faults = self.faults
        with self._lock:
            if faults.plan:
                step = self._planned(method, path)
                if step is not None:
                    return None if step == "pass" else step
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
        kind = self._decide(environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", "/"))
        if kind is None:
            return self.app(environ, start_response)
        environ[FAULT_KEY] = kind
        logger.info(
            "Injecting fault %r into %s %s (fault injection is on)",
            kind,
            environ.get("REQUEST_METHOD"),
            environ.get("PATH_INFO"),
        )
        if kind == "garble":
            return self._garbled(environ, start_response)
        _drain_request_body(environ)
        if kind[0].isdigit():
            return self._status(kind, start_response)
        if kind == "gateway":
            page = b"<html><head><title>502 Bad Gateway</title></head><body>bad gateway</body></html>"
            start_response(
                "502 BAD GATEWAY",
                [("Content-Type", "text/html"), ("Content-Length", str(len(page))), ("X-Credits-Charged", "0")],
            )
            return [page]
        if kind == "error":
            body = _error_body("injected_fault", "Injected internal error (fault injection is on); retry.")
            start_response("500 INTERNAL SERVER ERROR", _headers(body))
            return [body]
        if kind == "burst":
            body = _error_body("rate_limited", "Injected rate limit burst (fault injection is on); retry later.")
            start_response(
                "429 TOO MANY REQUESTS", [*_headers(body), ("Retry-After", str(self.faults.burst_retry_after))]
            )
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

    def _status(self, step: str, start_response: Callable[..., Any]) -> Iterable[bytes]:
        """A planned JSON error of the status (and ``Retry-After``) the step names."""
        status_text, _, retry_after = step.partition("@")
        status = int(status_text)
        if status == 429:
            body = _error_body("rate_limited", "Injected rate limit (fault plan); retry later.")
            retry_after = retry_after or "1"
        else:
            body = _error_body("injected_fault", f"Injected {status} (fault plan).")
        headers = _headers(body) + ([("Retry-After", retry_after)] if retry_after else [])
        start_response(f"{status} INJECTED", headers)
        return [body]

    def _garbled(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """The application's own answer (charged as it says), cut to its first half with a matching length."""
        seen: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            seen["status"], seen["headers"] = status, headers
            return lambda data: None

        answer = self.app(environ, capture)
        try:
            body = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        cut = body[: len(body) // 2]
        headers = [(k, v) for k, v in seen["headers"] if k.lower() != "content-length"]
        start_response(seen["status"], [*headers, ("Content-Length", str(len(cut)))])
        return [cut]
