"""Configuration of a local register instance."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

__all__ = [
    "Config",
    "STATE_ENV",
    "SECRET_KEY_ENV",
    "default_state_path",
    "default_key_path",
    "parse_duration",
    "check_public_url",
]

STATE_ENV = "REGKIT_LOCAL_STATE"
SECRET_KEY_ENV = "REGKIT_LOCAL_SECRET_KEY"
#: Seconds before each retry of a webhook message (changes-and-webhooks.md, the schedule Svix documents).
WEBHOOK_RETRY_DELAYS: tuple[float, ...] = (5, 300, 1800, 7200, 18000, 36000, 36000)


@dataclass(frozen=True)
class Config:
    """Behaviour of one local register instance.

    Parameters
    ----------
    rate_limit : float or None
        Requests per second allowed per API key (token bucket); ``None`` or ``0`` disables limiting.
    rate_burst : int or None
        Size of the bucket, i.e. how many requests may arrive at once (default: ``max(1, rate_limit)``).
    extract_delay : float
        Seconds a Transparenzregister extract stays ``processing`` before it completes or fails.
    realtime_latency : float
        Extra seconds a ``realtime=true`` company lookup takes (it is documented as slower).
    url_ttl : int
        Seconds a presigned document URL stays valid (the interface says 30 minutes).
    document_url_ttl : int
        Seconds the ``url`` of a ``/v1/document`` answer stays valid (the interface says 15 minutes).
    secret_key : str or bytes or None
        Fernet key that encrypts stored register credentials; default ``REGKIT_LOCAL_SECRET_KEY``, then a
        key file (see :func:`default_key_path`).
    key_path : str or Path or None
        Where the generated key file lives when no key is given; never the state file's directory.
    public_url : str or None
        The origin clients reach the register at (``https://register.example.org``): presigned document URLs
        and the OpenAPI ``servers`` default name it. ``None``: the address the server is bound to
        (``http://127.0.0.1:8080``), or ``http://local.regkit`` in-process; never the request's ``Host`` header.
    auth_failure_limit : int or None
        Failed authentications (an unknown API key) allowed per client address in ``auth_failure_window``
        seconds (token bucket); beyond that every request from the address that needs a key is a ``429``
        until the bucket refills. ``None`` or ``0`` disables the throttle.
    auth_failure_window : float
        Seconds in which the bucket refills completely.
    clock : callable
        Returns the current Unix time; tests pass a controllable clock.
    key_concurrency : int or None
        Requests one API key may have in flight at once (:class:`~regkit.local.ratelimit.WorkBound`); beyond
        it a ``429 rate_limited`` with ``Retry-After: 1``. The default, 8, is what regkit's client sends at once
        by default (``Client(max_workers=8)``) and half of ``regkit serve``'s 16 worker threads, so one key
        never holds them all. ``None`` or ``0`` disables the bound on the count.
    key_work : float or None
        CPU seconds one API key's requests in flight may be expected to take together (learned per key and
        endpoint from what its earlier requests took); a request beyond it is a ``429 rate_limited`` with
        ``Retry-After: 1``. A key with nothing in flight is always let in. The default, 0.5 s, is a few of the
        dearest company searches (about 0.2 s each), and hundreds of lookups (a few ms each). ``None`` or ``0``
        disables the bound on the work.
    total_work : float or None
        CPU seconds the requests in flight of all keys together may be expected to take, beyond each key's first
        request (which is always let in): the worker threads and the interpreter lock are shared, so several
        keys each within ``key_work`` can still starve another. A request beyond it is a ``429 rate_limited``
        with ``Retry-After: 1``. Default 1.0 s; ``None`` or ``0`` disables it.
    webhook_retry_delays : tuple of float
        Seconds before each retry of a webhook message after a failed try (the Standard Webhooks schedule: 5 s,
        5 min, 30 min, 2 h, 5 h, 10 h, 10 h); after the last the message is ``failed``.
    """

    rate_limit: float | None = 50.0
    rate_burst: int | None = None
    extract_delay: float = 2.0
    realtime_latency: float = 0.05
    url_ttl: int = 1800
    document_url_ttl: int = 900
    secret_key: str | bytes | None = field(default=None, repr=False)
    key_path: str | os.PathLike[str] | None = None
    public_url: str | None = None
    auth_failure_limit: int | None = 10
    auth_failure_window: float = 60.0
    clock: Callable[[], float] = time.time
    key_concurrency: int | None = 8
    key_work: float | None = 0.5
    total_work: float | None = 1.0
    webhook_retry_delays: tuple[float, ...] = WEBHOOK_RETRY_DELAYS

    def __post_init__(self) -> None:
        if self.rate_limit is not None and self.rate_limit < 0:
            raise ValueError("rate_limit must be positive (or None to disable rate limiting)")
        if self.extract_delay < 0 or self.realtime_latency < 0:
            raise ValueError("extract_delay and realtime_latency must not be negative")
        if self.url_ttl <= 0:
            raise ValueError("url_ttl must be positive")
        if self.document_url_ttl <= 0:
            raise ValueError("document_url_ttl must be positive")
        if self.auth_failure_limit is not None and self.auth_failure_limit < 0:
            raise ValueError("auth_failure_limit must not be negative (0 or None disables the throttle)")
        if self.auth_failure_window <= 0:
            raise ValueError("auth_failure_window must be positive")
        if any(delay < 0 for delay in self.webhook_retry_delays):
            raise ValueError("webhook_retry_delays must not be negative")
        if self.public_url is not None:
            object.__setattr__(self, "public_url", check_public_url(self.public_url))
        if self.key_concurrency is not None and self.key_concurrency < 0:
            raise ValueError("key_concurrency must not be negative (0 or None: no bound on requests in flight)")
        if self.key_work is not None and self.key_work < 0:
            raise ValueError("key_work must not be negative (0 or None: no bound on the work in flight)")
        if self.total_work is not None and self.total_work < 0:
            raise ValueError("total_work must not be negative (0 or None: no bound on all keys' work in flight)")


def check_public_url(url: str) -> str:
    """Return ``url`` as an origin without a trailing slash, or raise ValueError saying what is wrong.

    Examples
    --------
    >>> check_public_url("https://register.example.org/")
    'https://register.example.org'
    """
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except (AttributeError, ValueError):
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or "@" in parts.netloc
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        shown = "a URL with user:password@ (not repeated here)" if "@" in str(url) else repr(url)
        raise ValueError(
            f"public_url must be an origin such as https://register.example.org or "
            f"http://10.0.0.5:8080 (http or https, a host, an optional port; no path, query or "
            f"user:password@), not {shown}"
        )
    return f"{parts.scheme}://{parts.netloc}"


def default_state_path() -> Path:
    """Return the state file: ``REGKIT_LOCAL_STATE`` or ``<user data dir>/local-register.sqlite``."""
    env = os.environ.get(STATE_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("regkit")) / "local-register.sqlite"


def default_key_path() -> Path:
    """Return the generated key file: ``<user config dir>/keys/local-register.key``.

    The ``keys`` subdirectory keeps the key out of the state file's directory even on platforms where
    the user data and config directories coincide (macOS).
    """
    return Path(platformdirs.user_config_dir("regkit")) / "keys" / "local-register.key"


_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m|min)?\s*$")
_UNITS = {None: 1.0, "s": 1.0, "ms": 0.001, "m": 60.0, "min": 60.0}


def parse_duration(text: str | float) -> float:
    """Parse ``"50ms"``, ``"1.5s"``, ``"2m"`` or a bare number of seconds into seconds.

    Raises
    ------
    ValueError
        When ``text`` is not a duration.

    Examples
    --------
    >>> parse_duration("50ms")
    0.05
    >>> parse_duration("2")
    2.0
    """
    if isinstance(text, (int, float)):
        return float(text)
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (use e.g. 50ms, 1.5s, 2m)")
    return float(match.group(1)) * _UNITS[match.group(2)]
