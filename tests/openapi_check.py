"""Check real responses against the interface description (``regkit/schema/openapi.json``).

Integration tests call :func:`assert_conforms` on every response they get; it finds the operation from the
request's method and path, checks that the status code is declared, that declared headers are there, and
validates a JSON body against the declared schema (JSON Schema 2020-12, formats ``date``, ``date-time``,
``uuid`` and ``int64`` checked).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import requests
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from regkit.schema import load_openapi

__all__ = ["assert_conforms", "find_operation", "schema_validator", "FORMAT_CHECKER"]

DOCUMENT_URI = "urn:regkit:openapi"
"""URI under which the OpenAPI document is registered for ``$ref`` resolution."""

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")

FORMAT_CHECKER = FormatChecker()
"""jsonschema's format checker plus ``date-time`` (RFC 3339, offset required) and ``int64``."""


@FORMAT_CHECKER.checks("date-time", raises=ValueError)
def _is_datetime(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    if not _RFC3339.match(instance):
        return False
    dt.datetime.fromisoformat(instance.upper().replace("Z", "+00:00"))
    return True


@FORMAT_CHECKER.checks("int64")
def _is_int64(instance: object) -> bool:
    if not isinstance(instance, int) or isinstance(instance, bool):
        return True
    return -(2**63) <= instance < 2**63


@functools.lru_cache(maxsize=1)
def _registry() -> Registry:
    resource = Resource.from_contents(load_openapi(), default_specification=DRAFT202012)
    return Registry().with_resource(DOCUMENT_URI, resource)


@functools.cache
def schema_validator(pointer: str) -> Draft202012Validator:
    """Return a validator for the schema at a JSON pointer into the OpenAPI document.

    Parameters
    ----------
    pointer : str
        JSON pointer, e.g. ``"/components/schemas/CompanyV1"``.

    Returns
    -------
    jsonschema.Draft202012Validator
        Resolving ``#/components/...`` references, with :data:`FORMAT_CHECKER`.
    """
    return Draft202012Validator(
        {"$ref": f"{DOCUMENT_URI}#{quote(pointer)}"},
        registry=_registry(),
        format_checker=FORMAT_CHECKER,
    )


def _pointer(*segments: str) -> str:
    return "".join("/" + s.replace("~", "~0").replace("/", "~1") for s in segments)


@functools.lru_cache(maxsize=1)
def _templates() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for template in load_openapi()["paths"]:
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        out.append((re.compile(f"^{regex}$"), template))
    # Literal paths before templated ones, so /v1/monitor never loses to a template.
    out.sort(key=lambda item: item[1].count("{"))
    return out


def find_operation(method: str, url: str) -> tuple[str, dict[str, Any]]:
    """Find the operation a request was made to.

    Parameters
    ----------
    method : str
        HTTP method, any case.
    url : str
        Request URL; anything before ``/v1/`` (origin, a base path) is ignored.

    Returns
    -------
    tuple of (str, dict)
        The path template and the operation object.

    Raises
    ------
    AssertionError
        When no path template matches or the path has no such method.
    """
    path = urlsplit(url).path
    start = path.find("/v1/")
    path = path[start:] if start >= 0 else path
    for regex, template in _templates():
        if regex.match(path):
            operation = load_openapi()["paths"][template].get(method.lower())
            if operation is None:
                raise AssertionError(f"{method.upper()} {path}: the description has no {method.upper()} on {template}")
            return template, operation
    raise AssertionError(f"{method.upper()} {path}: no path of the description matches")


def _media_type(response: requests.Response) -> str:
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower()


def _check_headers(label: str, declared: dict[str, Any], response: requests.Response) -> list[str]:
    problems = []
    for name, header in declared.get("headers", {}).items():
        if "$ref" in header:
            header = _resolve(header["$ref"])
        value = response.headers.get(name)
        if value is None:
            if header.get("required"):
                problems.append(f"required header {name} is missing")
            continue
        if header.get("schema", {}).get("type") == "integer":
            if not re.fullmatch(r"[0-9]+", value.strip()):
                problems.append(f"header {name}={value!r} is not an integer")
    return [f"{label}: {p}" for p in problems]


def _resolve(ref: str) -> dict[str, Any]:
    node: Any = load_openapi()
    for segment in unquote(ref.lstrip("#")).split("/")[1:]:
        node = node[segment.replace("~1", "/").replace("~0", "~")]
    return node


def _check_body(label: str, pointer: str, declared: dict[str, Any], response: requests.Response) -> list[str]:
    content = declared.get("content")
    if not content:
        if response.content:
            return [f"{label}: declared without a body, got {len(response.content)} bytes"]
        return []
    media = _media_type(response)
    if media not in content:
        return [f"{label}: Content-Type {media or '(none)'!r} is not one of {sorted(content)}"]
    if not (media == "application/json" or media.endswith("+json")):
        return []
    try:
        body = response.json()
    except (ValueError, json.JSONDecodeError) as exc:
        return [f"{label}: body is not JSON ({exc}): {response.text[:200]!r}"]
    validator = schema_validator(pointer + _pointer("content", media, "schema"))
    errors = list(validator.iter_errors(body))
    if not errors:
        return []
    worst = best_match(errors)
    where = "/".join(str(p) for p in worst.absolute_path) or "(root)"
    return [f"{label}: body does not match the schema ({len(errors)} error(s)); at {where}: {worst.message}"]


def assert_conforms(response: requests.Response) -> None:
    """Assert that a response is one the interface description allows.

    Parameters
    ----------
    response : requests.Response
        A response whose ``request`` (a prepared request) gives the method and URL.

    Raises
    ------
    AssertionError
        When the operation is unknown, the status code is not declared for it, a required header is
        missing, the Content-Type is not declared, or the JSON body does not match the declared schema.
        The message names the operation and the first problem found in the body.
    """
    request = response.request
    if request is None or not request.method or not request.url:
        raise AssertionError("response carries no request: cannot tell which operation it answers")
    template, operation = find_operation(request.method, request.url)
    label = f"{request.method.upper()} {template} -> {response.status_code}"
    responses = operation["responses"]
    code = str(response.status_code)
    for key in (code, code[0] + "XX", "default"):
        if key in responses:
            break
    else:
        raise AssertionError(f"{label}: status not declared (declared: {', '.join(sorted(responses))})")
    declared = responses[key]
    pointer = _pointer("paths", template, request.method.lower(), "responses", key)
    if "$ref" in declared:
        pointer = unquote(declared["$ref"].lstrip("#"))
        declared = _resolve(declared["$ref"])
    problems = _check_headers(label, declared, response) + _check_body(label, pointer, declared, response)
    if problems:
        raise AssertionError("\n".join(problems))
