"""What the graph functions accept: client records (anything with ``.raw``), plain dicts, and collections; and the
check of the arguments every exported graph function takes by name (``G``, ``client``, ``path``, ...)."""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import FunctionType
from typing import Any

import networkx as nx

from regkit.errors import ArgumentError, explain_arguments

__all__ = ["as_dict", "checked", "explained", "iter_companies"]

_GRAPH_HINT = (
    "pass the graph regkit.crawl(client, company_id), regkit.graph.from_companies(records) or "
    "regkit.graph.read_graphml(path) returned"
)
_COMPANY_HINT = "pass a company record (client.get_company(id)) or a CompanyV1 dict (record.raw)"


def _given(value: Any) -> str:
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    if value is None:
        return "None"
    kind = type(value).__name__
    return f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}"


def _is_frame(value: Any) -> bool:
    return type(value).__name__ in ("DataFrame", "Series")  # by name: nothing of the value is read


def _graph(function: str, value: Any) -> None:
    if not isinstance(value, nx.Graph):
        raise ArgumentError(f"{function}() takes a company graph as G, not {_given(value)}", suggestion=_GRAPH_HINT)


def _client(function: str, value: Any) -> None:
    # data in a client's place, not isinstance(value, CrawlClient): that reads the client's attributes, and a wrong
    # seed or depth must be refused before the client is touched
    if value is None or isinstance(value, (str, bytes, int, float, Mapping, list, tuple)) or _is_frame(value):
        raise ArgumentError(
            f"{function}() takes a client as its first argument, not {_given(value)}",
            suggestion="pass a regkit.Client() (the bundled register without a key; Client(api_key=...) for the "
            "service), then the company id",
        )


def _company(function: str, value: Any) -> None:
    if not isinstance(getattr(value, "raw", value), Mapping):
        raise ArgumentError(f"{function}() takes one company, not {_given(value)}", suggestion=_COMPANY_HINT)


def _path(function: str, value: Any) -> None:
    if not isinstance(value, (str, os.PathLike)) and not hasattr(value, "read") and not hasattr(value, "write"):
        raise ArgumentError(
            f"{function}() takes a file path or an open file, not {_given(value)}",
            suggestion="pass a path (a str or pathlib.Path) or a file opened with open(...)",
        )


def _edges(function: str, value: Any) -> None:
    if not hasattr(value, "columns"):
        raise ArgumentError(
            f"{function}() takes an edge list DataFrame, not {_given(value)}",
            suggestion="pass the frame regkit.graph.to_edgelist(G) returned (a source and a target column per edge)",
        )


def _node_link(function: str, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise ArgumentError(
            f"{function}() takes node-link data (a dict), not {_given(value)}",
            suggestion="pass what regkit.graph.node_link_data(G) returned, or read a file with read_node_link(path)",
        )


#: The arguments checked by name before a graph function runs: one ``isinstance`` per call.
_CHECKS: dict[str, Callable[[str, Any], None]] = {
    "G": _graph,
    "client": _client,
    "company": _company,
    "path": _path,
    "edges": _edges,
    "data": _node_link,
}


def explained(function: Any) -> Any:
    """A graph function as ``regkit.graph`` exports it: its arguments checked by name (:func:`checked`), a call that
    cannot bind explained (:func:`regkit.errors.explain_arguments`); anything else as it is."""
    if not isinstance(function, FunctionType):
        return function
    return checked(explain_arguments(function))


def checked(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its arguments named in :data:`_CHECKS` checked before it runs (the function itself when it
    takes none): a wrong kind is an :class:`~regkit.errors.ArgumentError` saying what to pass, not an
    ``AttributeError`` from deep inside networkx."""
    parameters = list(inspect.signature(function).parameters.values())
    checks = [
        (i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None, p.name, _CHECKS[p.name])
        for i, p in enumerate(parameters)
        if p.name in _CHECKS
    ]
    if not checks:
        return function
    name = getattr(inspect.unwrap(function), "__name__", "function")
    missing = object()

    @functools.wraps(function)
    def checked_call(*args: Any, **kwargs: Any) -> Any:
        for position, keyword, check in checks:
            value = args[position] if position is not None and position < len(args) else kwargs.get(keyword, missing)
            if value is not missing:
                check(name, value)
        return function(*args, **kwargs)

    return checked_call


def as_dict(obj: Any) -> Mapping[str, Any]:
    """The JSON object behind ``obj`` (its ``.raw`` if it has one).

    Raises
    ------
    ArgumentError
        When ``obj`` is neither a mapping nor has a mapping ``.raw``.
    """
    raw = getattr(obj, "raw", obj)
    if not isinstance(raw, Mapping):
        raise ArgumentError(
            f"expected a company record (with .raw) or a CompanyV1 dict, not {_given(obj)}", suggestion=_COMPANY_HINT
        )
    return raw


def _is_one_company(obj: Any) -> bool:
    raw = getattr(obj, "raw", obj)
    return isinstance(raw, Mapping) and isinstance(raw.get("id"), str) and "name" in raw


def iter_companies(companies: Any) -> Iterator[Mapping[str, Any]]:
    """Yield CompanyV1 mappings from one company, an iterable of them, or a mapping id → company.

    ``None`` items (failed slots of a ``CompanyBatch``) are skipped.

    Raises
    ------
    ArgumentError
        For anything else, or an item without a string ``id``.
    """
    if _is_one_company(companies):
        yield as_dict(companies)
        return
    if isinstance(companies, Mapping):
        companies = companies.values()
    if isinstance(companies, (str, bytes)) or not isinstance(companies, Iterable) or hasattr(companies, "columns"):
        raise ArgumentError(
            f"expected companies (records, dicts, or a mapping id → company), not {_given(companies)}",
            suggestion=f"{_COMPANY_HINT}, a CompanyBatch (client.get_companies(ids)), or a list of them",
        )
    for item in companies:
        if item is None:
            continue
        raw = as_dict(item)
        if not isinstance(raw.get("id"), str):
            raise ArgumentError(
                f"expected CompanyV1 records with a string 'id', got keys {sorted(raw)[:6]}", suggestion=_COMPANY_HINT
            )
        yield raw
