"""What the local register logs, and the handlers ``regkit serve`` installs.

Library style: the ``regkit`` logger carries a ``NullHandler`` and the register logs through
``logging.getLogger(__name__)``; only ``regkit serve`` (:func:`configure_serve_logging`) installs handlers.
In-process, the records reach whatever logging the host program configured.

========================  =======  ==============================================================
logger                    level    what
========================  =======  ==============================================================
``regkit.local.access``   INFO     one line per request: client address, method, path and query
                                   (scrubbed, see :class:`Scrubber`), status, bytes, milliseconds,
                                   user name (never the key), credits charged, injected fault
``regkit.local.app``      ERROR    a traceback per unexpected exception (answered ``500``)
``regkit.local.faults``   INFO     one line per injected fault (no traceback: nothing failed)
``regkit.local.vault``    INFO     one line per decryption of stored credentials: user name,
                                   credential name and purpose (never the username or password)
``regkit.local.auth``     WARNING  a client address throttled after failed authentications
========================  =======  ==============================================================
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any
from urllib.parse import parse_qsl, urlencode

__all__ = [
    "ACCESS_LOGGER",
    "REDACTED",
    "Scrubber",
    "AccessLog",
    "RedactingFormatter",
    "configure_serve_logging",
    "USER_KEY",
    "FAULT_KEY",
]

ACCESS_LOGGER = "regkit.local.access"
REDACTED = "[redacted]"
#: WSGI environ keys through which the application tells the access log who asked and which fault it met.
USER_KEY, FAULT_KEY = "regkit.user", "regkit.fault"
#: Query parameters whose value is a capability or a secret (matched at the end of the name, any case):
#: ``api_key``, ``key``, ``token``, ``access_token``, ``secret``, ``password``, ``signature``, ``sig``, ``auth``, ...
SECRET_PARAMETER = re.compile(
    r"(key|token|secret|passw(or)?d|pwd|signature|sig|auth|authorization|credentials?|jwt)$", re.IGNORECASE
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

access_logger = logging.getLogger(ACCESS_LOGGER)


class Scrubber:
    """Removes secrets from text that is about to be logged.

    Parameters
    ----------
    secrets : iterable of str
        Values never to write (the API keys, the Transparenzregister passwords); each occurrence becomes
        ``[redacted]``.

    Examples
    --------
    >>> scrub = Scrubber(["demo-paid"])
    >>> scrub.query("expires=1&signature=ab12&q=demo-paid")
    'expires=1&signature=[redacted]&q=[redacted]'
    >>> scrub.text("GET /v1/company/demo-paid")
    'GET /v1/company/[redacted]'
    """

    def __init__(self, secrets: Iterable[str] = ()):
        found = sorted({s for s in secrets if isinstance(s, str) and len(s) >= 4}, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, found))) if found else None

    def text(self, text: str) -> str:
        """``text`` with every known secret replaced."""
        return self._pattern.sub(REDACTED, text) if self._pattern is not None else text

    def query(self, query: str) -> str:
        """A query string with the values of secret-looking parameters and every known secret replaced."""
        pairs = [
            (self.text(name), REDACTED if SECRET_PARAMETER.search(name) else self.text(value))
            for name, value in parse_qsl(query, keep_blank_values=True)
        ]
        return urlencode(pairs, safe="[]")

    def target(self, path: str, query: str) -> str:
        """The request target as logged: scrubbed, control characters escaped (no forged log lines)."""
        target = self.text(path) + (f"?{self.query(query)}" if query else "")
        return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", target)


class AccessLog:
    """WSGI middleware writing one ``regkit.local.access`` line per request (also one that is dropped)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], scrubber: Scrubber):
        self.app = app
        self.scrubber = scrubber

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        answer: dict[str, Any] = {}

        def recording_start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer["status"], answer["headers"] = status.split(" ", 1)[0], dict(headers)
            return start_response(status, headers, exc_info)

        try:
            body = self.app(environ, recording_start_response)
        except BaseException as error:
            self._line(environ, started, "-", {}, f" no answer: {type(error).__name__}")
            raise
        self._line(environ, started, answer.get("status", "-"), answer.get("headers", {}), "")
        return body

    def _line(self, environ: dict[str, Any], started: float, status: str, headers: dict[str, str], tail: str) -> None:
        if not access_logger.isEnabledFor(logging.INFO):
            return
        fault = environ.get(FAULT_KEY)
        access_logger.info(
            '%s "%s %s" %s %s %.1fms user=%s credits=%s%s%s',
            environ.get("REMOTE_ADDR") or "-",
            environ.get("REQUEST_METHOD", "-"),
            self.scrubber.target(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")),
            status,
            headers.get("Content-Length", "-"),
            (time.perf_counter() - started) * 1000,
            environ.get(USER_KEY, "-"),
            headers.get("X-Credits-Charged", "0"),
            f" fault={fault}" if fault else "",
            tail,
        )


class RedactingFormatter(logging.Formatter):
    """A formatter that replaces known secrets anywhere in the formatted record (tracebacks included)."""

    def __init__(self, scrubber: Scrubber, fmt: str | None = None):
        super().__init__(fmt)
        self.scrubber = scrubber

    def format(self, record: logging.LogRecord) -> str:
        return self.scrubber.text(super().format(record))


def _not_access(record: logging.LogRecord) -> bool:
    return not record.name.startswith(ACCESS_LOGGER)


def configure_serve_logging(
    *,
    verbose: bool = False,
    log_file: str | Path | None = None,
    secrets: Iterable[str] = (),
    stream: IO[str] | None = None,
) -> list[logging.Handler]:
    """Install the handlers of ``regkit serve`` on the ``regkit`` and ``waitress`` loggers.

    Parameters
    ----------
    verbose : bool
        Also write the access lines (and DEBUG records) to ``stream``; without it ``stream`` gets
        everything but the access lines.
    log_file : str or Path, optional
        A file (appended to) that gets every record at INFO and above (DEBUG with ``verbose``),
        access lines included.
    secrets : iterable of str
        Values the handlers replace by ``[redacted]`` wherever they occur (API keys, passwords).
    stream : file, optional
        Default ``sys.stderr``.

    Returns
    -------
    list of logging.Handler
        The installed handlers.

    Raises
    ------
    OSError
        When ``log_file`` cannot be opened for appending.
    """
    formatter = RedactingFormatter(Scrubber(secrets), "%(asctime)s %(levelname)s %(name)s: %(message)s")
    console = logging.StreamHandler(stream or sys.stderr)
    if not verbose:
        console.addFilter(_not_access)
    handlers: list[logging.Handler] = [console]
    if log_file is not None:
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
        for name in ("regkit", "waitress"):
            logging.getLogger(name).addHandler(handler)
    logging.getLogger("regkit").setLevel(logging.DEBUG if verbose else logging.INFO)
    return handlers
