"""Where a client sends its requests, and with which key.

The rule, applied when a :class:`~regkit.Client` is made (the environment is read then, not at
import):

1. The key is ``api_key=``, else ``REGKIT_API_KEY``, else ``OPENREGISTER_API_KEY`` (the variable the
   live service's official client reads).  The base URL is ``base_url=``, else ``REGKIT_BASE_URL``,
   else ``OPENREGISTER_BASE_URL``.
2. No base URL and no key, or no base URL and a documented demo key (``demo-…``), or an in-process
   ``adapter``: the bundled local register, in-process at :data:`LOCAL_ORIGIN`.  A demo key never
   leaves the machine that way, and one aimed at the live service is refused.
3. No base URL and any other key: the live service at :data:`LIVE_BASE_URL`.
4. A base URL: that server (``regkit serve`` elsewhere, a proxy, …), which then needs a key.

The key is only ever attached to requests below the chosen base URL (see
:mod:`regkit.client.transport.session`), never to another host.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from regkit.errors import RegkitError, ValidationError
from regkit.schema.interface import LOCAL_ORIGIN

__all__ = [
    "secret_scrubber",
    "LIVE_BASE_URL",
    "LOCAL_ORIGIN",
    "DEMO_API_KEY",
    "DEMO_KEY_PREFIX",
    "Target",
    "resolve_target",
    "local_register_on",
    "is_demo_key",
    "announce_local_register",
    "LocalWorld",
]

#: Where the live service answers (its official client's default as well).
LIVE_BASE_URL = "https://api.openregister.de"
#: The local register's default demo key (paid plan with monitoring, plenty of credits).
DEMO_API_KEY = "demo-paid"
#: Every documented demo key of the local register starts so (``demo-paid``, ``demo-free``, …).
DEMO_KEY_PREFIX = "demo-"

_KEY_VARIABLES = ("REGKIT_API_KEY", "OPENREGISTER_API_KEY")
_URL_VARIABLES = ("REGKIT_BASE_URL", "OPENREGISTER_BASE_URL")
_LOCAL_NOTICE = (
    "regkit: using the bundled local register in-process: synthetic data, no real company or person, "
    "no key needed. For the live service set REGKIT_API_KEY (or pass api_key=...)."
)

notice_logger = logging.getLogger("regkit.notice")
_announced: set[str] = set()
_announced_lock = threading.Lock()


@dataclass(frozen=True)
class Target:
    """Where one client talks to.

    Attributes
    ----------
    base_url : str
        Origin and path prefix, without a trailing slash.
    api_key : str
        The key sent as ``Authorization: Bearer`` (never shown: ``repr`` leaves it out).
    mode : str
        ``"local"`` (the bundled register in-process), ``"live"`` (the live service) or
        ``"custom"`` (another server the user named).
    adapter : object or None
        The in-process transport adapter serving ``base_url``, if any.
    """

    base_url: str
    api_key: str
    mode: str
    adapter: Any = None
    world: LocalWorld | None = None

    def __repr__(self) -> str:
        return f"Target(base_url={self.base_url!r}, mode={self.mode!r})"

    def describe(self) -> str:
        """A short phrase naming the kind of target: ``"live service"``, ``"server"``,
        ``"bundled local register (synthetic data, in-process)"`` or, on an imported world, e.g.
        ``"local register on OffeneRegister data (real, CC BY 4.0, in-process)"``."""
        if self.mode == "local":
            return (self.world or LocalWorld()).describe()
        return {"live": "live service"}.get(self.mode, "server")

    def source(self) -> str:
        """One line naming where the data comes from, for figures' and explorers' source lines."""
        if self.mode == "local":
            return (self.world or LocalWorld()).source()
        if self.mode == "live":
            return f"Handelsregister via the live service {self.base_url}"
        return f"the register at {self.base_url}"


@dataclass(frozen=True)
class LocalWorld:
    """What a local register serves, as its world's ``world.json`` says: synthetic, or real data with a licence.

    Attributes
    ----------
    synthetic : bool
        ``world.json``'s ``synthetic`` (worlds ``regkit world build`` makes are; imported ones are not).
    origin : str or None
        ``world.json``'s ``source``: the importer that made it (``"offeneregister"``), if any.
    attribution : str or None
        The licence and attribution text an imported world carries (CC BY 4.0 for OffeneRegister).
    """

    synthetic: bool = True
    origin: str | None = None
    attribution: str | None = None

    @classmethod
    def of(cls, adapter: Any) -> LocalWorld:
        """The world behind an in-process local register's adapter (the bundled world's defaults otherwise)."""
        try:
            meta = adapter.app.extensions["regkit.local"].catalog.meta
        except (AttributeError, KeyError, TypeError):
            return cls()
        return cls(bool(meta.get("synthetic", True)), meta.get("source"), meta.get("attribution"))

    def describe(self) -> str:
        if self.synthetic:
            return "bundled local register (synthetic data, in-process)"
        return f"local register on {_ORIGINS.get(self.origin or '', 'imported')} data (real, in-process)"

    def source(self) -> str:
        if self.synthetic:
            return "regkit local register — synthetic data"
        return self.attribution or f"{_ORIGINS.get(self.origin or '', 'imported')} data"

    def notice(self) -> str:
        """What the client says once when it starts using this world."""
        if self.synthetic:
            return _LOCAL_NOTICE
        origin = _ORIGINS.get(self.origin or "", "another source")
        head = f"regkit: using a local register in-process on real register data imported from {origin}, no key needed."
        return f"{head} {self.attribution or ''}".rstrip()


_ORIGINS = {"offeneregister": "OffeneRegister"}


def is_demo_key(key: str | None) -> bool:
    """Whether ``key`` is one of the local register's documented demo keys (``demo-…``)."""
    return isinstance(key, str) and key.startswith(DEMO_KEY_PREFIX)


def _from_environment(names: tuple[str, ...]) -> tuple[str | None, str | None]:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value, name
    return None, None


def _check_key(key: Any, source: str) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not key.strip():
        got = "an empty string" if isinstance(key, str) else f"a {type(key).__name__}"
        raise ValidationError(
            f"{source} must be a non-empty string, not {got}",
            suggestion="pass the API key as text, or leave it out for the local register",
        )
    if key != key.strip() or any(ch in key for ch in "\r\n\t ") or not key.isprintable():
        raise ValidationError(
            f"{source} contains white space or control characters",
            suggestion="copy the key again without spaces or line breaks",
        )
    return key


def _check_base_url(url: Any, source: str) -> str | None:
    if url is None:
        return None
    if not isinstance(url, str) or not url.strip():
        raise ValidationError(f"{source} must be a URL such as 'http://127.0.0.1:8080', not {url!r}")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(
            f"{source} {url!r} is not an http(s) URL with a host",
            suggestion="e.g. 'https://api.openregister.de' or 'http://127.0.0.1:8080'",
        )
    if parts.username is not None or parts.password is not None:
        raise ValidationError(
            f"{source} contains credentials (user:password@host); they would be shown and logged with the URL",
            suggestion="remove them from the URL and pass the key as api_key=... instead",
        )
    if parts.path.rstrip("/").endswith("/v1"):
        raise ValidationError(
            f"{source} {url!r} ends in /v1; regkit adds /v1/... to every path itself",
            suggestion=f"use {url.strip().rstrip('/')[:-3]!r}",
        )
    if parts.query or parts.fragment:
        raise ValidationError(
            f"{source} must not have a query string or fragment",
            suggestion="give the origin and path prefix only, e.g. 'http://127.0.0.1:8080'",
        )
    try:
        _ = parts.port  # parsing the port raises for one out of range
    except ValueError as exc:
        raise ValidationError(f"{source} has an invalid port: {exc}") from None
    return url.strip().rstrip("/")


def _origin(url: str) -> tuple[str, str | None, int]:
    parts = urlsplit(url)
    return parts.scheme, parts.hostname, parts.port or {"http": 80, "https": 443}[parts.scheme]


def _same_origin(a: str, b: str) -> bool:
    return _origin(a) == _origin(b)


def secret_scrubber(secret: str | None) -> Callable[[str], str]:
    """A function that replaces ``secret`` (an API key) by ``***`` in a text (error messages, log lines).

    A secret shorter than four characters is left alone (it would mangle ordinary words).

    Examples
    --------
    >>> secret_scrubber("demo-key")("refused demo-key")
    'refused ***'
    """

    def scrub(text: str) -> str:
        return text.replace(secret, "***") if secret and len(secret) >= 4 else text

    return scrub


def resolve_target(api_key: Any, base_url: Any, adapter: Any) -> Target:
    """Apply the module's rule to the arguments and, now, the environment.

    Raises
    ------
    ValidationError
        A malformed key or URL, a base URL without a key, or a demo key aimed at the live service.
    """
    key_source: str | None = "api_key"
    url_source: str | None = "base_url"
    if api_key is None:
        api_key, key_source = _from_environment(_KEY_VARIABLES)
    if base_url is None:
        base_url, url_source = _from_environment(_URL_VARIABLES)
    key = _check_key(api_key, key_source or "api_key")
    url = _check_base_url(base_url, url_source or "base_url")

    if url == LOCAL_ORIGIN or (url is None and (adapter is not None or key is None or is_demo_key(key))):
        if adapter is None:
            adapter = _local_adapter()
        world = LocalWorld.of(adapter)
        announce_local_register(world)
        return Target(LOCAL_ORIGIN, key or DEMO_API_KEY, "local", adapter, world)
    if url is None:
        return Target(LIVE_BASE_URL, key, "live", adapter)  # type: ignore[arg-type]
    if key is None:
        raise ValidationError(
            f"no API key for {url}",
            suggestion="pass api_key=... or set REGKIT_API_KEY (a demo key such as 'demo-paid' for `regkit serve`)",
        )
    live = _same_origin(url, LIVE_BASE_URL)
    if live and is_demo_key(key):
        raise ValidationError(
            f"{key_source} is a demo key of the local register; the live service does not know it",
            suggestion="use your own key for the live service, or leave base_url out to use the bundled local register",
        )
    return Target(url, key, "live" if live else "custom", adapter)


def announce_local_register(world: LocalWorld | None = None) -> None:
    """Say once per process and world, where the user sees it, that a local register is in use: synthetic data
    (the bundled world), or real data with its licence and attribution (an imported world).

    The notice goes to the ``regkit.notice`` logger, which writes to the current ``sys.stderr``
    (a terminal, or a notebook cell's output) unless the application configured a handler for it;
    ``logging.getLogger("regkit.notice").setLevel(logging.ERROR)`` silences it.
    """
    text = (world or LocalWorld()).notice()
    with _announced_lock:
        if text in _announced:
            return
        _announced.add(text)
    _ensure_notice_handler()
    notice_logger.warning(text)


class _CurrentStderr(logging.Handler):
    """Writes to whatever ``sys.stderr`` is at the time (a notebook replaces it per kernel)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # pragma: no cover - a closed stream must not break a lookup
            self.handleError(record)


def _ensure_notice_handler() -> None:
    if not notice_logger.handlers:
        notice_logger.addHandler(_CurrentStderr())
        notice_logger.propagate = False


def _local_adapter() -> Any:
    """The in-process adapter of the bundled local register (state file: ``REGKIT_LOCAL_STATE`` or
    the user data directory; see :mod:`regkit.local`)."""
    import sqlite3

    from regkit.local import open_local_register

    try:
        return open_local_register().adapter
    except (sqlite3.DatabaseError, PermissionError, IsADirectoryError, NotADirectoryError) as exc:
        from regkit.local.config import default_state_path
        from regkit.local.world.disk_space import LITTLE_ROOM, disk_full, free_bytes, room

        where = os.environ.get("REGKIT_LOCAL_STATE")
        state = default_state_path()
        free = free_bytes(state.parent)
        if disk_full(exc) or (free is not None and free < LITTLE_ROOM):  # the file is sound: its disk has no room
            raise RegkitError(
                f"no room on the disk of the bundled register's state file {state} ({exc})",
                suggestion=f"free space there ({room(state.parent)}), or set REGKIT_LOCAL_STATE to a file on a disk "
                "with room (the file keeps credits, extracts and monitors: do not delete it)",
            ) from None
        raise RegkitError(
            f"the bundled register's state file cannot be used ({exc})",
            suggestion=(
                f"REGKIT_LOCAL_STATE={where} is not a register state file: point it at a new file, or unset it"
                if where
                else "move the file named above away; regkit starts a new one"
            ),
        ) from None


def local_register_on(data_dir: Any, api_key: Any, base_url: Any, adapter: Any) -> tuple[Any, str]:
    """The in-process adapter of a local register on the world in ``data_dir`` and the key to send it (``api_key``,
    else the world's paid demo key): what ``Client(data_dir=...)`` uses.

    Raises
    ------
    ValidationError
        ``data_dir`` together with ``base_url`` or ``adapter`` (they name another register), or a ``data_dir``
        that is not a world directory — before anything is sent.
    """
    from pathlib import Path

    if not isinstance(data_dir, (str, os.PathLike)):
        raise ValidationError(
            f"data_dir must be a path to a world directory, not {type(data_dir).__name__}",
            suggestion="e.g. Client(data_dir='worlds/offeneregister')",
        )
    if base_url is not None or adapter is not None:
        raise ValidationError(
            "data_dir opens a local register in-process; base_url and adapter name another register",
            suggestion="pass data_dir alone, or base_url/adapter without data_dir",
        )
    directory = Path(data_dir).expanduser()
    if not (directory / "world.json").is_file():
        raise ValidationError(
            f"data_dir {directory} is not a regkit world (it has no world.json)",
            suggestion="pass a directory written by `regkit world build` or `regkit world import`",
        )
    from regkit.local import open_local_register

    register = open_local_register(directory)
    return register.adapter, api_key if api_key is not None else register.default_api_key


# -- the source line of the client in use -------------------------------------------------------------------

#: The open clients' source lines, oldest first: ``(weak reference to the client, line)``.
_open_sources: list[tuple[weakref.ref[Any], str]] = []
_open_lock = threading.Lock()


def source_line_of(target: Target) -> str:
    """The source line of a figure drawn from ``target``'s answers: :meth:`Target.source`, with today's date for
    the live service (its data changes; the date says when it was read)."""
    import datetime as dt

    line = target.source()
    return f"{line}, retrieved {dt.date.today().isoformat()}" if target.mode == "live" else line


def opened(client: Any, target: Target) -> None:
    """Note that ``client`` is open on ``target`` (``Client.__init__``), for :func:`latest_source`."""
    line = source_line_of(target)
    with _open_lock:
        # clients dropped without close() leave dead references: drop them here, so the list stays as long as
        # the clients alive
        _open_sources[:] = [(ref, text) for ref, text in _open_sources if ref() is not None]
        _open_sources.append((weakref.ref(client), line))


def closed(client: Any) -> None:
    """Note that ``client`` is closed (``Client.close``)."""
    with _open_lock:
        _open_sources[:] = [(ref, line) for ref, line in _open_sources if ref() not in (None, client)]


def latest_source() -> str | None:
    """The source line of the client opened last that is still open (and not garbage), or ``None``: what a figure
    whose data does not say where it comes from says (:mod:`regkit.plot.source_line`)."""
    with _open_lock:
        for ref, line in reversed(_open_sources):
            if ref() is not None:
                return line
    return None
