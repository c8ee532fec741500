"""Every method of the official client is driven by at least one contract test.

The methods are enumerated from ``openregister-sdk`` itself (the public methods of every resource of
``openregister.Openregister``, sub-resources included); a method counts as driven when a test function of
``tests/contract/test_*.py`` — its body or its decorators (a parametrized call) — calls it on its resource
(``.search.find_person_v1(``). Reading the test sources, not recording a session, keeps the check the same in any
order and when this file runs alone; the tests it finds run in the same suite.
"""

from __future__ import annotations

import ast
from pathlib import Path

import openregister
from openregister._resource import SyncAPIResource

HERE = Path(__file__).resolve().parent


def sdk_methods() -> set[str]:
    """``resource.method`` for every public method of the official client's resources (``a.b.method`` nested)."""
    client = openregister.Openregister(api_key="unused", base_url="http://127.0.0.1:9")
    found: set[str] = set()

    def walk(resource: SyncAPIResource, prefix: str) -> None:
        for name in dir(type(resource)):
            if name.startswith("_") or name in ("with_raw_response", "with_streaming_response"):
                continue
            value = getattr(resource, name)
            if isinstance(value, SyncAPIResource):
                walk(value, f"{prefix}{name}.")
            elif callable(value):
                found.add(f"{prefix}{name}")

    for name in dir(type(client)):
        if not name.startswith("_") and name not in ("with_raw_response", "with_streaming_response"):
            value = getattr(client, name)
            if isinstance(value, SyncAPIResource):
                walk(value, f"{name}.")
    client.close()
    return found


def _calls(node: ast.AST) -> set[str]:
    """Every dotted call in ``node`` as its attribute chains: ``sdk.search.find_person_v1(`` gives
    ``search.find_person_v1`` and ``find_person_v1`` (and longer chains)."""
    found: set[str] = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            chain, target = [call.func.attr], call.func.value
            while isinstance(target, ast.Attribute):
                chain.insert(0, target.attr)
                target = target.value
            found |= {".".join(chain[start:]) for start in range(len(chain))}
    return found


def driven() -> dict[str, list[str]]:
    """``resource.method`` → the contract tests (``file::test``) that call it: in their body, their decorators (a
    parametrized call), or a helper or table of the same module they name (a polling function, a list of cases)."""
    found: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        defined: dict[str, ast.AST] = {}
        for node in module.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined[node.name] = node
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        defined[target.id] = node
        for test in module.body:
            if not (isinstance(test, ast.FunctionDef) and test.name.startswith("test_")):
                continue
            reached, todo = {test.name}, [test]
            while todo:
                node = todo.pop()
                for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - reached:
                    if name in defined:
                        reached.add(name)
                        todo.append(defined[name])
            for method in set().union(*(_calls(defined.get(n, test)) for n in reached)):
                found.setdefault(method, []).append(f"{path.name}::{test.name}")
    return found


def test_the_official_client_has_the_24_methods_of_the_issue():
    methods = sdk_methods()
    assert len(methods) == 24, sorted(methods)
    assert {"search.find_person_v1", "company.get_contact_v0", "transparenzregister.extract.get_v1"} <= methods


def test_every_method_of_the_official_client_is_driven_by_a_contract_test():
    calls = driven()
    missing = sorted(m for m in sdk_methods() if m not in calls)
    assert not missing, f"no contract test calls {missing}"


def test_the_scan_finds_calls_in_bodies_and_in_parametrized_decorators():
    calls = driven()
    assert (
        "test_official_client_person_search.py::test_a_refused_person_search_is_a_bad_request_and_free"
        in (calls["search.find_person_v1"])
    )
    assert any(t.endswith("::test_refusals_are_bad_requests_and_free") for t in calls["search.find_companies_v1"])
