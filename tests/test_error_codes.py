"""The interface document declares every error code the local register answers with, and docs/interface.md's
error tables are the ones ``docs/error_codes.py`` generates from the document.

The codes the register can answer with are collected from its source (every literal code given to ``ApiError``,
an error body or ``error_response``, as ``code=`` or to a variable ``code``, and the values of its code tables)
and from :data:`regkit.local.exceptions.ERROR_CODES`, the one list that fixes each code's status.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import regkit.local
from regkit.local.exceptions import ERROR_CODES
from regkit.schema.interface import load_openapi

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("docs_error_codes", ROOT / "docs" / "error_codes.py")
assert _SPEC and _SPEC.loader
error_codes = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = error_codes  # dataclasses look their module up
_SPEC.loader.exec_module(error_codes)

_SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
#: Calls that take an error code, and the position of the code among their arguments.
_ERROR_CALLS = {"ApiError": 0, "_error_body": 0, "error_response": 1}
#: Literal codes in the source that no client receives as an error answer, and why.
NOT_ANSWERED = {"injected_truncation": "the body of a 200 cut in half on purpose (fault injection): never read whole"}


def _literals(node: ast.AST | None) -> set[str]:
    """The string constants an expression can evaluate to: a constant, either branch of ``x if c else y``, the
    operands of ``a or b``, the values of a dict display."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SNAKE.match(node.value):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _literals(node.body) | _literals(node.orelse)
    if isinstance(node, ast.BoolOp):
        return set().union(*(_literals(v) for v in node.values))
    if isinstance(node, ast.Dict):
        return set().union(*(_literals(v) for v in node.values), set())
    return set()


def _codes_in(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        codes = {c for k in node.keywords if k.arg == "code" for c in _literals(k.value)}
        if name in _ERROR_CALLS and len(node.args) > _ERROR_CALLS[name]:
            codes |= _literals(node.args[_ERROR_CALLS[name]])
        if name == "_bad" and len(node.args) == 2:  # _bad(code, message); the one-argument _bad has a fixed code
            codes |= _literals(node.args[0])
        return codes
    if isinstance(node, ast.Assign):
        names = {getattr(t, "id", "") for t in node.targets}
        return _literals(node.value) if "code" in names or any(n.endswith("_CODES") for n in names) else set()
    if isinstance(node, ast.arguments):
        every = [*node.posonlyargs, *node.args]
        defaults = [*([None] * (len(every) - len(node.defaults))), *node.defaults]
        pairs = [*zip(every, defaults, strict=True), *zip(node.kwonlyargs, node.kw_defaults, strict=True)]
        return {c for a, d in pairs if a.arg == "code" for c in _literals(d)}
    return set()


def emitted_codes() -> dict[str, list[str]]:
    """Every literal error code in the local register's source (its world generator aside), with where it is."""
    found: dict[str, list[str]] = {}
    package = Path(regkit.local.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if path.name == "exceptions.py" or "world" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for code in _codes_in(node) - set(NOT_ANSWERED):
                found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}")
    return found


def test_the_collector_finds_the_codes_raised_in_several_ways():
    found = emitted_codes()
    for code in ("company_not_found", "invalid_company_id", "invalid_entity_id", "not_found", "invalid_request"):
        assert code in found, code
    assert "internal_error" in found and "injected_fault" in found


def test_every_code_in_the_source_is_in_the_register_list():
    unlisted = {code: where for code, where in emitted_codes().items() if code not in ERROR_CODES}
    assert not unlisted, f"codes answered but missing from regkit.local.exceptions.ERROR_CODES: {unlisted}"


def test_every_code_of_the_register_is_declared_in_the_document_with_its_status():
    declared = error_codes.declared_codes(load_openapi())
    missing = sorted(set(ERROR_CODES) - set(declared))
    assert not missing, f"regkit/schema/openapi.json declares no response with {missing}"
    wrong = {c: (declared[c].status, status) for c, status in ERROR_CODES.items() if declared[c].status != status}
    assert not wrong, f"(declared, answered) statuses differ: {wrong}"


def test_every_code_the_document_declares_is_answered_by_the_register():
    extra = sorted(set(error_codes.declared_codes(load_openapi())) - set(ERROR_CODES))
    assert not extra, (
        f"the document declares codes the register never answers (a typo, or a word in backticks): {extra}"
    )


def test_the_error_tables_of_the_interface_page_are_generated_from_the_document():
    page = (ROOT / "docs" / "interface.md").read_text(encoding="utf-8")
    assert page.count(error_codes.BEGIN) == 1 and page.count(error_codes.END) == 1
    assert page == error_codes.render_page(page, load_openapi()), "run: python docs/error_codes.py"


def test_the_tables_list_every_declared_code_once_under_its_status():
    document = load_openapi()
    text = error_codes.tables(document)
    rows = dict(re.findall(r"^\| (\d{3}) \| (`.*`) \|$", text, flags=re.M))
    listed = {code: int(status) for status, cell in rows.items() for code in re.findall(r"`([a-z_0-9]+)`", cell)}
    assert listed == {c.code: c.status for c in error_codes.declared_codes(document).values()}


# --------------------------------------------------------------------------- the generator on other documents


def _with_operation(description: str, responses: dict[str, str], parameters: list[dict[str, Any]] = ()) -> dict:
    """The shipped document plus one operation as another engineer would write it."""
    document = copy.deepcopy(load_openapi())
    document["paths"]["/v9/thing/{thing_id}"] = {
        "get": {
            "operationId": "get_thing",
            "summary": "Get a thing",
            "description": description,
            "parameters": [{"name": "thing_id", "in": "path", "required": True, "schema": {"type": "string"}}]
            + list(parameters),
            "responses": {
                "200": {"description": "The thing."},
                **{status: {"description": text} for status, text in responses.items()},
            },
        }
    }
    return document


def test_a_new_operations_codes_are_picked_up_as_written():
    document = _with_operation(
        "Fetches the thing now. An unknown company is a 404 `company_not_found`, a company without one a 404 "
        "`thing_not_available`; `thing_id` is the id.",
        {
            "400": "Invalid parameters: a malformed `thing_id` (`invalid_thing_id`).",
            "404": "Unknown company (`company_not_found`), or no such thing (`thing_not_available`).",
        },
        [
            {
                "name": "kind",
                "in": "query",
                "schema": {"type": "string", "enum": ["big_thing"]},
                "description": "Which kind; anything else is a 400 `invalid_thing_kind` naming the valid ones.",
            }
        ],
    )
    declared = error_codes.declared_codes(document)
    assert (declared["thing_not_available"].status, declared["thing_not_available"].operations) == (
        404,
        ("Get a thing",),
    )
    assert declared["invalid_thing_id"].status == 400 and declared["invalid_thing_kind"].status == 400
    assert "Get a thing" in declared["company_not_found"].operations
    assert "thing_id" not in declared and "big_thing" not in declared
    assert "`thing_not_available`" in error_codes.tables(document)


def test_one_code_with_two_statuses_is_refused():
    document = _with_operation("", {"409": "Taken (`company_not_found`)."})
    with pytest.raises(ValueError, match="company_not_found"):
        error_codes.declared_codes(document)


def test_check_mode_reports_a_stale_page(tmp_path, monkeypatch):
    page = tmp_path / "interface.md"
    page.write_text(f"# Errors\n\n{error_codes.BEGIN}\n| old |\n{error_codes.END}\n", encoding="utf-8")
    monkeypatch.setattr(error_codes, "PAGE", page)
    assert error_codes.main(["--check"]) == 1
    assert error_codes.main([]) == 0 and error_codes.main(["--check"]) == 0
    assert "| Status | Codes |" in page.read_text(encoding="utf-8")
