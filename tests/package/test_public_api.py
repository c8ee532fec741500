"""Every public name and signature of ``main`` when issue 42 started is still there, unchanged.

The snapshot (``public_api_main.json``) was written by ``python tests/package/api_surface_support.py`` before the client
was cut by resource; the move must change where code lives, never what a user imports or calls. The only names
allowed to differ are the deprecation shims of a 0.1.0 that was never released (CHANGELOG: "Removed"), listed here.
Since then names and members may be added, and a signature may gain parameters with defaults after its last one
(every call that worked still works); nothing may be removed, renamed, reordered or lose its default.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

SNAPSHOT = json.loads((Path(__file__).parent / "public_api_main.json").read_text(encoding="utf-8"))

#: Deprecated names that are gone (each warned since it was renamed; no release ever had it).
REMOVED = {
    "regkit.company_id": "regkit.parse_company_id",
    "regkit.client.company_id": "regkit.client.parse_company_id",
    "regkit.companies_frame": "regkit.companies",
    "regkit.frames.companies_frame": "regkit.frames.companies",
}

#: Signatures that lose a deprecated parameter (and nothing else): name → parameter removed.
CHANGED = {
    "regkit.representatives": "**deprecated",  # representatives(as_of=) → active_on=
    "regkit.frames.representatives": "**deprecated",
    "regkit.RetryPolicy": "release_spacing",  # deprecated, had no effect
    "regkit.client.RetryPolicy": "release_spacing",
}


@pytest.fixture(scope="module")
def current():
    # in a fresh interpreter, as the snapshot was written: a test that imported a submodule of the same name as a
    # package's function (regkit.plot.group) must not change what `regkit.plot.group` is here
    described = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "api_surface_support.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(described.stdout)


def test_the_snapshot_is_main_s_surface_and_names_every_public_package():
    assert len(SNAPSHOT) > 350
    assert {"regkit.Client", "regkit.client.Client", "regkit.frames.history", "regkit.local.LocalRegister"} <= set(
        SNAPSHOT
    )


@pytest.mark.parametrize("name", sorted(set(SNAPSHOT) - set(REMOVED) - set(CHANGED)))
def test_a_public_name_keeps_its_kind_signature_and_members(current, name):
    assert name in current, f"{name} is no longer exported"
    was, now = SNAPSHOT[name], current[name]
    assert now["kind"] == was["kind"]
    assert _compatible(was.get("signature"), now.get("signature")), (was.get("signature"), now.get("signature"))
    missing = set(was.get("members", {})) - set(now.get("members", {}))
    assert not missing, f"{name} lost {sorted(missing)}"
    changed = {
        member: (was["members"][member], now["members"][member])
        for member in was.get("members", {})
        if not _compatible(was["members"][member], now["members"][member])
        and not _lost_only_deprecated(was["members"][member], now["members"][member])
    }
    assert not changed, f"{name}: {changed}"


#: Parameters appended after a signature's last one, each with a default (``, name: 'annotation' = default``).
_APPENDED_WITH_DEFAULTS = re.compile(r"(?:, \w+(?:: '[^']*')? = (?:\([^()]*\)|[^,()]+))+")


#: A set literal in a default (``frozenset({500, 408, …})``): its order is not the signature's.
_SET_LITERAL = re.compile(r"\{([^{}]*)\}")


def _sets_sorted(signature: str | None) -> str | None:
    """``signature`` with the members of each set literal sorted (a frozenset's repr follows its hash table, which
    differs between a module compiled from source and one loaded from its bytecode)."""
    if signature is None:
        return None
    return _SET_LITERAL.sub(lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", signature)


def _compatible(was: str | None, now: str | None) -> bool:
    """``now`` is ``was``, or ``was`` with parameters that have defaults appended after its last one (the members of
    a set in a default in any order)."""
    was, now = _sets_sorted(was), _sets_sorted(now)
    if was == now or was is None or now is None:
        return was == now
    head, _, tail = was.rpartition(")")  # "(a, b = ()" and " -> None"
    if not (now.startswith(head) and now.endswith(")" + tail)) or head.endswith("("):
        return False
    return _APPENDED_WITH_DEFAULTS.fullmatch(now[len(head) : len(now) - len(tail) - 1]) is not None


def test_only_parameters_with_defaults_may_be_appended():
    was = "(a: 'int', plan: 'tuple' = ()) -> None"
    assert _compatible(was, "(a: 'int', plan: 'tuple' = (), more: 'int | None' = 1) -> None")
    assert _compatible(was, "(a: 'int', plan: 'tuple' = (), delays: 'tuple' = (5, 300)) -> None")  # a tuple default
    assert not _compatible(was, "(a: 'int', plan: 'tuple' = (), more: 'int') -> None")  # no default
    assert not _compatible(was, "(a: 'int', more: 'int' = 1, plan: 'tuple' = ()) -> None")  # not at the end
    assert not _compatible(was, "(a: 'int', plan: 'tuple' = ()) -> int")
    assert not _compatible(was, "(a: 'int') -> None")
    statuses = "(codes: 'frozenset' = frozenset({500, 408, 502})) -> None"
    assert _compatible(statuses, "(codes: 'frozenset' = frozenset({408, 502, 500})) -> None")  # a set's order
    assert not _compatible(statuses, "(codes: 'frozenset' = frozenset({500, 408})) -> None")


def _lost_only_deprecated(was: str, now: str) -> bool:
    """A record method that took ``**deprecated`` (``representatives(as_of=...)``) and no longer does."""
    return was.replace(", **deprecated: 'Any'", "") == now


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_a_removed_shim_is_gone_and_its_new_name_is_there(current, name):
    assert name not in current
    assert REMOVED[name] in current


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_a_changed_signature_lost_its_deprecated_parameter_only(current, name):
    parameter = CHANGED[name]
    was, now = SNAPSHOT[name]["signature"], current[name]["signature"]
    assert parameter in was and parameter not in now
    assert _sets_sorted(_without(was, parameter)) == _sets_sorted(now)


def _without(signature: str, parameter: str) -> str:
    """``signature`` without the one parameter (its annotation and default hold no comma or parenthesis)."""
    return re.sub(", " + re.escape(parameter) + r"[^,)]*", "", signature, count=1)
