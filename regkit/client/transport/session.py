"""The ``requests`` session the client sends through, and the meter on its transport.

The meter is a transport adapter wrapped around the real one (``HTTPAdapter`` for the network,
the local register's in-process adapter otherwise).  It sees every request that actually leaves
the client — never a cache hit — and notes the status and the credit headers of each answer
*before* its body is read, so an answer whose body is then cut off is still accounted for.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import requests
from requests.adapters import BaseAdapter, HTTPAdapter

__all__ = ["Attempt", "MeteringAdapter", "build_session", "USER_AGENT"]

logger = logging.getLogger(__name__)

USER_AGENT = "regkit-client/0.1"


@dataclass
class Attempt:
    """One request that left the client.

    Attributes
    ----------
    status : int or None
        Status of the answer; ``None`` when none came.
    charged : int or None
        ``X-Credits-Charged`` of the answer, when present.
    remaining : int or None
        ``X-Credits-Remaining`` of the answer, when present.
    error : BaseException or None
        What the transport raised instead of answering.
    """

    status: int | None = None
    charged: int | None = None
    remaining: int | None = None
    error: BaseException | None = None


def _int_header(headers: Any, name: str) -> int | None:
    value = headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


class MeteringAdapter(BaseAdapter):
    """Wraps a transport adapter and records each request it sends in the calling thread's log.

    It is mounted at the base URL only, and it is what attaches the key (``authorization``): a
    request to any other host — a presigned document URL, a redirect elsewhere — goes through
    another adapter of the session and never carries it.
    """

    def __init__(self, inner: BaseAdapter, authorization: str | None = None) -> None:
        super().__init__()
        self.inner = inner
        self._authorization = authorization
        self._local = threading.local()
        self._lock = threading.Lock()
        self.sent = 0

    @contextmanager
    def capture(self) -> Iterator[list[Attempt]]:
        """Collect the attempts made by this thread inside the ``with`` block."""
        log: list[Attempt] = []
        previous = getattr(self._local, "log", None)
        self._local.log = log
        try:
            yield log
        finally:
            self._local.log = previous

    def _note(self, attempt: Attempt) -> None:
        with self._lock:
            self.sent += 1
        log = getattr(self._local, "log", None)
        if log is not None:
            log.append(attempt)

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        if self._authorization is not None:
            request.headers["Authorization"] = self._authorization
        try:
            response = self.inner.send(request, **kwargs)
        except BaseException as exc:
            self._note(Attempt(error=exc))
            raise
        headers = response.headers
        self._note(
            Attempt(
                status=response.status_code,
                charged=_int_header(headers, "X-Credits-Charged"),
                remaining=_int_header(headers, "X-Credits-Remaining"),
            )
        )
        return response

    def close(self) -> None:
        self.inner.close()


def build_session(
    base_url: str,
    api_key: str,
    adapter: BaseAdapter | None = None,
    pool_size: int = 10,
) -> tuple[requests.Session, MeteringAdapter]:
    """Make the session for one client.  It only sends: the cache is read and written by the client's
    :class:`~regkit.client.cache.store.ResponseStore`, around it.

    Parameters
    ----------
    base_url : str
        Origin (and path prefix) of the interface, without trailing slash.
    api_key : str
        Sent as ``Authorization: Bearer`` on requests below ``base_url`` only (the metering adapter
        mounted there adds it).
    adapter : transport adapter, optional
        Serves ``base_url`` instead of the network (the in-process local register).
    pool_size : int
        Connections kept per host (at least the number of bulk workers).
    """
    session = requests.Session()
    inner = adapter or HTTPAdapter(pool_connections=pool_size, pool_maxsize=pool_size)
    meter = MeteringAdapter(inner, authorization=f"Bearer {api_key}")
    session.mount(base_url.rstrip("/") + "/", meter)
    session.headers.update(
        {
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
    )
    # Environment settings are read once, now (like REGKIT_*), not on every request: with
    # trust_env=True requests scans os.environ for proxies per call (~0.5 ms) and would let a
    # ~/.netrc entry replace the bearer token.  Proxies and CA bundle apply to the network only.
    session.trust_env = False
    if adapter is None:
        session.proxies.update(requests.utils.get_environ_proxies(base_url))
        session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    return session, meter
