"""What the transport works with: the :class:`Operation` a client method makes (:func:`operation` builds it from its
row of the endpoint table), the :class:`Answer` it gets, and what each :class:`Attempted` request came back with."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from regkit.schema.endpoints import Endpoint, by_operation

from ..cache.json_body import parsed_json

__all__ = ["Operation", "operation", "Answer", "Attempted", "flag_params"]


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
    endpoint : Endpoint or None
        Its row of the endpoint table (:mod:`regkit.schema.endpoints`): how long its answer is kept and which
        answers may be stored. ``None`` (an operation made by hand): never cached.
    asked : str or None
        The identifier asked for (the row's ``identifier``), as checked: what a stored answer must name.
    realtime : bool
        ``realtime=true``: a fresh copy from the register, never cached.
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
    endpoint: Endpoint | None = None
    asked: str | None = None
    realtime: bool = False

    @property
    def cache(self) -> str | None:
        """The lifetime its answer is kept for (a :class:`~regkit.client.cache.policy.CachePolicy` field), by its
        row; ``None``: never cached (no row, a row never cached, or a realtime lookup)."""
        if self.endpoint is None or (self.realtime and not self.endpoint.realtime_cached):
            return None
        return self.endpoint.cache

    @property
    def target(self) -> str:
        """Path with query, as the ledger and errors show it."""
        return f"{self.path}?{urlencode(self.params)}" if self.params else self.path

    def asking(self, identifier: str) -> Operation:
        """The same operation for another ``identifier`` (a path parameter of its row: a company's former id)."""
        assert self.endpoint is not None and self.endpoint.identifier is not None
        path = self.endpoint.path_for(**{self.endpoint.identifier: identifier})
        return replace(self, path=path, asked=identifier)

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


def operation(
    operation_id: str,
    path: Mapping[str, str] | None = None,
    *,
    params: tuple[tuple[str, str], ...] = (),
    body: Any = None,
    headers: tuple[tuple[str, str], ...] = (),
    realtime: bool = False,
    choice: object = None,
    refresh: bool = False,
    idempotent: bool = True,
    hints: Mapping[int, str] | None = None,
    unknown_hint: str = "",
) -> Operation:
    """The :class:`Operation` of one call of ``operation_id``, built from its row of the endpoint table: the client
    method it is, its method, its path (``path``: the row's path parameters, already checked), its price (realtime,
    or the body member or header ``choice`` the row's price depends on), and what the cache does with its answer.
    Nothing is sent.

    Parameters
    ----------
    operation_id : str
        The row (:func:`regkit.schema.endpoints.by_operation`).
    path : mapping of str to str, optional
        One value per path parameter of the row, by name (already checked).
    params, body, headers
        The query parameters, JSON body and extra headers, as sent.
    realtime : bool
        ``realtime=true`` (put it in ``params`` too): priced and cached as the realtime variant.
    choice : object, optional
        The value the row's ``price_choice`` names (``"daily"``, ``"sandbox"``).
    refresh, idempotent, hints, unknown_hint
        As :class:`Operation` has them.

    Examples
    --------
    >>> owners = {"company_id": "DE-HRB-B1234-5"}
    >>> op = operation("get_owners", owners, params=flag_params(realtime=True), realtime=True)
    >>> op.call, op.method, op.target, op.price, op.cache
    ('get_owners', 'GET', '/v1/company/DE-HRB-B1234-5/owners?realtime=true', 20, None)
    >>> operation("get_owners", owners).cache
    'ownership'
    """
    row = by_operation(operation_id)
    path = dict(path or {})
    asked = path.get(row.identifier or "", dict(params).get(row.identifier or ""))
    return Operation(
        row.client_method or operation_id,
        row.method,
        row.path_for(**path),
        params=params,
        body=body,
        headers=headers,
        price=row.credits(realtime=realtime, choice=choice),
        idempotent=idempotent,
        refresh=refresh,
        hints=hints if hints is not None else {},
        unknown_hint=unknown_hint,
        endpoint=row,
        asked=asked,
        realtime=realtime,
    )
