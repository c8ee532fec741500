"""A cache hit passes through each client module once: no back and forth between core, bulk and transport.

``sys.setprofile`` records, for every function of ``regkit.client`` entered while a ``get_company`` answered from
the cache runs, the path that led there: the ``regkit.client`` modules on the call stack, outermost first, with
consecutive repeats collapsed (a module calling its own helpers is one stop).  A module that appears twice on one
path was left and entered again — ``core → bulk → core`` (the bulk calling back into the client), ``core →
transport → core`` (the transport calling back) — which is what the client's collaborators must not do: the
client calls them, they call what lies below them, and nothing calls back up.  Calls outside ``regkit.client``
(the standard library, requests-cache) are left out of the path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import regkit

PACKAGE = "regkit.client"


def collapse(modules: Iterable[str]) -> list[str]:
    """``modules`` without consecutive repeats: ``[core, core, bulk, core]`` → ``[core, bulk, core]``."""
    out: list[str] = []
    for module in modules:
        if not out or out[-1] != module:
            out.append(module)
    return out


def revisits(modules: Iterable[str]) -> list[str]:
    """The modules that appear more than once in ``collapse(modules)`` (left and entered again), in order."""
    seen: set[str] = set()
    again: list[str] = []
    for module in collapse(modules):
        if module in seen and module not in again:
            again.append(module)
        seen.add(module)
    return again


def _stack_path(frame: FrameType | None) -> tuple[str, ...]:
    modules: list[str] = []
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            modules.append(name)
        frame = frame.f_back
    return tuple(collapse(reversed(modules)))


@contextmanager
def call_paths() -> Iterator[set[tuple[str, ...]]]:
    """Record the path (see the module docstring) of every ``regkit.client`` function entered in this thread."""
    paths: set[tuple[str, ...]] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                paths.add(_stack_path(frame))

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield paths
    finally:
        sys.setprofile(previous)


def back_and_forth(paths: Iterable[Sequence[str]]) -> list[str]:
    """Each path on which a module appears twice, as ``a → b → a``."""
    return sorted(" → ".join(m.removeprefix(PACKAGE + ".") for m in path) for path in paths if revisits(path))


# -- the checker itself ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        (["core", "core", "validation", "companies", "transport.call", "cache_store"], []),
        (["core", "bulk", "bulk", "core"], ["core"]),
        (["core", "transport.call", "core", "transport.call"], ["core", "transport.call"]),
        (["core"], []),
        ([], []),
    ],
)
def test_revisits_finds_a_module_left_and_entered_again(sequence: list[str], expected: list[str]) -> None:
    assert revisits(sequence) == expected


def test_collapse_merges_consecutive_repeats_only() -> None:
    assert collapse(["a", "a", "b", "b", "a"]) == ["a", "b", "a"]


def test_the_recorder_catches_a_callback_into_the_client() -> None:
    """Functions of (stand-ins for) ``core`` and ``bulk``: core calls bulk, which calls back into core."""
    fake_core: dict[str, Any] = {"__name__": f"{PACKAGE}.core"}
    fake_bulk: dict[str, Any] = {"__name__": f"{PACKAGE}.bulk"}
    exec("def outer(middle, inner):\n    return middle(inner)", fake_core)
    exec("def middle(inner):\n    return inner()", fake_bulk)
    exec("def inner():\n    return 1", fake_core)
    with call_paths() as paths:
        fake_core["outer"](fake_bulk["middle"], fake_core["inner"])
    assert back_and_forth(paths) == ["core → bulk → core"]
    assert ("regkit.client.core", "regkit.client.bulk") in paths  # the path to bulk itself is fine


# -- the client ------------------------------------------------------------------------------------
@pytest.fixture
def filled(tmp_path: Path) -> Iterator[tuple[regkit.Client, str]]:
    """A client of the bundled register in-process with a cache that holds one company."""
    client = regkit.Client(cache=tmp_path / "c.sqlite")
    company_id = client.search_companies("GmbH", per_page=1).results[0]["company_id"]
    client.get_company(company_id)
    yield client, company_id
    client.close()


def _profiled(call: Callable[[], Any]) -> tuple[Any, set[tuple[str, ...]]]:
    with call_paths() as paths:
        value = call()
    return value, paths


def test_a_cached_get_company_passes_through_each_client_module_once(filled: tuple[regkit.Client, str]) -> None:
    client, company_id = filled
    sent = client.requests_sent
    record, paths = _profiled(lambda: client.get_company(company_id))
    assert record.meta.from_cache and client.requests_sent == sent  # a hit: nothing was sent
    visited = {module for path in paths for module in path}
    for module in ("core", "company", "transport.call", "cache.store", "budget.ledger", "records"):
        assert f"{PACKAGE}.{module}" in visited, module  # the recorder saw the whole hit path
    assert back_and_forth(paths) == []


def test_cached_get_companies_go_from_core_down_through_bulk_without_coming_back(
    filled: tuple[regkit.Client, str],
) -> None:
    client, company_id = filled
    batch, paths = _profiled(lambda: client.get_companies([company_id], progress=False))
    assert batch[0].meta.from_cache
    assert any(f"{PACKAGE}.bulk.fetcher" in path for path in paths)
    assert back_and_forth(paths) == []
