"""Turning a failed attempt into the right error of :mod:`regkit.errors`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import requests

from regkit.errors import APIError, RateLimitedError, TransportError, error_for_status

from .retry import parse_retry_after

if TYPE_CHECKING:
    from .operation import Operation

__all__ = [
    "api_error",
    "transport_error",
    "never_sent",
    "refused_by_rate_limit",
    "server_message",
    "shorten",
    "describe_failure",
]

_NOT_RETRYABLE = (
    requests.exceptions.InvalidURL,
    requests.exceptions.MissingSchema,
    requests.exceptions.InvalidSchema,
    requests.exceptions.InvalidHeader,
)


def never_sent(error: BaseException | None) -> bool:
    """Whether ``error`` proves the request never reached the server (safe to send again)."""
    if isinstance(error, requests.exceptions.ConnectTimeout) or isinstance(error, _NOT_RETRYABLE):
        return True
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        name = type(error).__name__
        if name in ("NewConnectionError", "NameResolutionError", "ConnectTimeoutError", "ConnectionRefusedError"):
            return True
        reason = getattr(error, "reason", None)
        nested = error.args[0] if error.args and isinstance(error.args[0], BaseException) else None
        error = reason if isinstance(reason, BaseException) else nested or error.__cause__ or error.__context__
    return False


#: The code of a 429 that the interface's rate limiter answers before looking at the request (``rate_limited``), as
#: against a 429 the request itself earned (``extract_quota_exceeded``).
RATE_LIMITED = "rate_limited"


def refused_by_rate_limit(error: BaseException) -> bool:
    """Whether ``error`` is a 429 ``rate_limited``: the request was refused before it was carried out, so sending
    it again is safe even when sending it twice would not be (an extract order)."""
    return isinstance(error, RateLimitedError) and getattr(error, "code", None) == RATE_LIMITED


def shorten(text: str, limit: int) -> str:
    """``text`` in at most about ``limit`` characters, cut between words and marked with an ellipsis.

    Examples
    --------
    >>> shorten("Failed to establish a new connection", 20)
    'Failed to establish …'
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut) + " …"


def _innermost(exc: BaseException) -> BaseException:
    """The deepest cause of a requests/urllib3 error (the OS error that says what really happened)."""
    seen: set[int] = set()
    current = exc
    while id(current) not in seen:
        seen.add(id(current))
        reason = getattr(current, "reason", None)
        nested = current.args[0] if current.args and isinstance(current.args[0], BaseException) else None
        following = reason if isinstance(reason, BaseException) else nested or current.__cause__
        if following is None:
            break
        current = following
    return current


def describe_failure(exc: BaseException, scrub: Callable[[str], str]) -> str:
    """One readable sentence for a transport failure, e.g.
    ``"cannot connect to 127.0.0.1:9: connection refused"`` — never cut mid-word."""
    request = getattr(exc, "request", None)
    url = getattr(request, "url", None) or ""
    host = requests.utils.urlparse(url).netloc if url else ""
    inner = _innermost(exc)
    if isinstance(inner, OSError) and inner.strerror:
        reason = inner.strerror
    else:
        reason = str(inner)
        # urllib3 prefixes its reasons with the connection object: keep what follows the last colon
        # of such a prefix ("HTTPConnection(host=..., port=9): Failed to establish ...").
        if "): " in reason:
            reason = reason.rsplit("): ", 1)[1]
    reason = shorten(scrub(reason), 200)
    if isinstance(exc, requests.exceptions.ConnectionError) and never_sent(exc):
        where = f" to {host}" if host else ""
        return f"cannot connect{where}: {reason[:1].lower() + reason[1:]}"
    return f"{type(exc).__name__}: {reason}"


def server_message(response: Any, scrub: Callable[[str], str]) -> tuple[str | None, str]:
    """The interface's ``(code, message)`` from an error body, or a short excerpt of the body."""
    try:
        body = json.loads(response.content.decode("utf-8"))
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            return error.get("code"), scrub(str(error.get("message") or "")) or response.reason or ""
    except (ValueError, UnicodeDecodeError, AttributeError):
        pass
    text = shorten(scrub((getattr(response, "text", "") or "").strip()), 200)
    return None, text or str(getattr(response, "reason", "") or "no message")


def api_error(op: Operation, response: Any, scrub: Callable[[str], str]) -> APIError:
    """The error for an answer with an error status."""
    status = int(response.status_code)
    code, message = server_message(response, scrub)
    cls = error_for_status(status)
    kwargs: dict[str, Any] = {"method": op.method, "path": op.target, "status": status, "code": code}
    if status in op.hints and not (status == 429 and code == RATE_LIMITED):  # too many requests: not the call's
        kwargs["suggestion"] = op.hints[status]
    if not op.idempotent and status >= 500:
        kwargs["outcome_unknown"] = True
        kwargs["suggestion"] = op.unknown_hint
        message += f" — {op.call} was NOT retried: it may or may not have been carried out"
    if cls is RateLimitedError:
        kwargs["retry_after"] = parse_retry_after(response.headers.get("Retry-After"))
    return cls(message, **kwargs)


def transport_error(
    op: Operation, exc: BaseException, status: int | None, scrub: Callable[[str], str]
) -> TransportError:
    """The error for an attempt that got no complete answer (``status``: what the meter saw)."""
    if isinstance(exc, (ValueError, UnicodeDecodeError)) and not isinstance(exc, requests.RequestException):
        what = f"the answer (status {status}) is not complete JSON: the body was cut off or garbled"
    elif isinstance(exc, (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError)):
        what = "the answer's body was cut off before it was complete"
    elif isinstance(exc, requests.exceptions.Timeout):
        what = f"no answer in time ({type(exc).__name__})"
    else:
        what = describe_failure(exc, scrub)
    kwargs: dict[str, Any] = {"method": op.method, "path": op.target, "status": status}
    if not op.idempotent:
        if never_sent(exc) and status is None:
            kwargs["suggestion"] = "the request never reached the interface; it is safe to try again"
        elif status is not None and 200 <= status < 300:
            kwargs["outcome_unknown"] = True  # carried out, but what was created is unknown
            kwargs["suggestion"] = op.unknown_hint
            what += (
                f" — the interface accepted {op.call} (status {status}), so it was most likely carried "
                "out, but its answer is lost; not retried"
            )
        else:
            kwargs["outcome_unknown"] = True
            kwargs["suggestion"] = op.unknown_hint
            what += f" — {op.call} was NOT retried: it may or may not have been carried out"
    error = TransportError(what, **kwargs)
    error.retryable = not isinstance(exc, _NOT_RETRYABLE)  # type: ignore[attr-defined]
    error.__cause__ = exc
    return error
