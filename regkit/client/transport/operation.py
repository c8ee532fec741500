"""What the transport works with: the :class:`Operation` a client method makes, the :class:`Answer` it
gets, and what each :class:`Attempted` request came back with."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from ..cache.json_body import parsed_json

__all__ = ["Operation", "Answer", "Attempted", "flag_params"]


@dataclass(frozen=True)
class Operation:
    """One request a client method makes.

    Attributes
    ----------
    call : str
        The client method (for the ledger and messages).
    method, path : str
        HTTP method and path below the base URL (``/v1/...``), already quoted.
    params : tuple of (str, str)
        Query parameters, in the order sent.
    body : object
        JSON body, or ``None``.
    headers : tuple of (str, str)
        Extra request headers (never secrets: they may be stored with a cached request).
    price : int
        Credits the call costs when it is not answered from the cache.
    idempotent : bool
        Safe to send again: retried on transport errors, 429 and 5xx, and merged with concurrent
        identical calls.  ``False`` for anything that creates something.
    refresh : bool
        Skip the cache for reading (the fresh answer is still stored).
    hints : mapping of int to str
        A suggestion per error status, replacing the error class's default.
    unknown_hint : str
        For a creating call: how to find out whether it was carried out after an ambiguous failure.
    """

    call: str
    method: str
    path: str
    params: tuple[tuple[str, str], ...] = ()
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()
    price: int = 0
    idempotent: bool = True
    refresh: bool = False
    hints: Mapping[int, str] = field(default_factory=dict)
    unknown_hint: str = ""

    @property
    def target(self) -> str:
        """Path with query, as the ledger and errors show it."""
        return f"{self.path}?{urlencode(self.params)}" if self.params else self.path

    def key(self) -> tuple[Any, ...]:
        """Identity for merging concurrent identical calls."""
        body = json.dumps(self.body, sort_keys=True) if self.body is not None else ""
        return (self.method, self.path, self.params, body, self.headers, self.refresh)


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful answer: parsed JSON (``None`` for an empty body) and how it was obtained.

    ``derived`` is the answer's ``X-Regkit-Derived`` header (:mod:`regkit.schema.derived`: the members of a company
    record a local register of an imported world derived), kept with a cached answer too; ``None`` without one.
    """

    data: Any
    status: int
    source: str
    fetched_at: datetime
    credits: int
    derived: str | None = None

    @property
    def from_cache(self) -> bool:
        """Answered without a request of its own (cache or merged call)."""
        return self.source != "network"


@dataclass(frozen=True)
class Attempted:
    """What one attempt came back with.

    Attributes
    ----------
    response : requests.Response or None
        The answer (``None`` when the request failed before one was complete).
    status : int or None
        The status line's status (seen by the meter even when the body then broke off).
    error : BaseException or None
        The transport error, or why a successful answer's body could not be read.
    data : object
        The parsed JSON body of a success (``None`` for an empty body).
    """

    response: Any
    status: int | None
    error: BaseException | None = None
    data: Any = None

    @property
    def from_cache(self) -> bool:
        """requests-cache answered (a concurrent call stored the answer in the meantime)."""
        return bool(getattr(self.response, "from_cache", False))

    @property
    def ok(self) -> bool:
        """A complete answer below 400 (so far: see :meth:`decoded`)."""
        return self.error is None and self.status is not None and self.status < 400

    def decoded(self) -> Attempted:
        """The same attempt with its body parsed, or with the decoding error as ``error``."""
        try:
            return replace(self, data=parsed_json(self.response) if self.response.content else None)
        except (ValueError, UnicodeDecodeError) as exc:
            return replace(self, error=exc)


def flag_params(**flags: bool) -> tuple[tuple[str, str], ...]:
    """The query parameters of the flags that are on, in the order given (``realtime=True`` → ``("realtime",
    "true")``; a flag that is off is left out).

    Examples
    --------
    >>> flag_params(realtime=True, export=False)
    (('realtime', 'true'),)
    """
    return tuple((name, "true") for name, on in flags.items() if on)
