"""Compare a schema of the interface description with a pydantic model of the official client.

:func:`looser_than` walks an OpenAPI schema and a pydantic model side by side and lists every place where the
document allows a value the model refuses: a member the model requires but the document lets be absent, a
null the model does not take, a JSON type or enum value outside the model's, a date without a date format.
Where the document is stricter than the client (a pattern, an enum where the client takes any string), that is
fine: the local register promises more than the live service, never less.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pydantic

__all__ = ["looser_than"]

#: JSON types a pydantic field of this Python type accepts for *every* value of that type (lax mode).
_ACCEPTS: dict[Any, set[str]] = {
    str: {"string"},
    int: {"integer"},
    float: {"integer", "number"},
    bool: {"boolean"},
    dt.date: {"string"},
    dt.datetime: {"string"},
}
_FORMATS = {dt.date: "date", dt.datetime: "date-time"}


def _branches(schema: dict[str, Any], resolve: Callable[[str], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The plain schemas a schema allows: ``$ref`` followed, ``anyOf``/``oneOf`` flattened."""
    if "$ref" in schema:
        yield from _branches({**resolve(schema["$ref"]), **{k: v for k, v in schema.items() if k != "$ref"}}, resolve)
        return
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:
        base = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        for alternative in alternatives:
            yield from _branches({**base, **alternative}, resolve)
        return
    yield schema


def _types(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    if declared is not None:
        return {declared} if isinstance(declared, str) else set(declared)
    if "enum" in schema:
        return {"null" if v is None else "string" if isinstance(v, str) else "number" for v in schema["enum"]}
    return {"string", "number", "integer", "boolean", "array", "object", "null"}  # anything


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``(inner type, nullable)`` of an annotation such as ``Optional[List[str]]``."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        nullable = len(args) < len(typing.get_args(annotation))
        if len(args) != 1:
            raise NotImplementedError(f"union of several types: {annotation}")
        return args[0], nullable
    return annotation, annotation is type(None)


def looser_than(
    schema: dict[str, Any], annotation: Any, resolve: Callable[[str], dict[str, Any]], where: str = "$"
) -> list[str]:
    """Every place where ``schema`` allows what ``annotation`` (a pydantic model or type) refuses.

    Parameters
    ----------
    schema : dict
        An OpenAPI 3.1 schema (JSON Schema 2020-12); ``$ref`` is followed through ``resolve``.
    annotation : type
        A pydantic model class or a field annotation (``Optional[...]``, ``List[...]``, ``Literal[...]``).
    resolve : callable
        Maps a ``$ref`` string to the schema it points to.
    where : str
        Path of ``schema`` in the document, for the messages.

    Returns
    -------
    list of str
        One sentence per difference; empty when the client accepts everything the schema allows.
    """
    inner, nullable = _unwrap(annotation)
    problems = []
    for branch in _branches(schema, resolve):
        allowed = _types(branch)
        if "null" in allowed and not nullable:
            problems.append(f"{where}: the document allows null, the client requires a value")
        problems += _kind(branch, allowed - {"null"}, inner, resolve, where)
    return problems


def _kind(branch: dict[str, Any], allowed: set[str], inner: Any, resolve, where: str) -> list[str]:
    if not allowed:
        return []
    origin = typing.get_origin(inner)
    if isinstance(inner, type) and issubclass(inner, pydantic.BaseModel):
        return _wrong(allowed, {"object"}, where) or _model(branch, inner, resolve, where)
    if origin in (list, list):
        (item,) = typing.get_args(inner)
        return _wrong(allowed, {"array"}, where) or looser_than(branch.get("items", {}), item, resolve, f"{where}[]")
    if origin is dict:
        _, value = typing.get_args(inner)
        values = branch.get("additionalProperties", {})
        if values is False:
            return _wrong(allowed, {"object"}, where)
        values = {} if values is True else values
        return _wrong(allowed, {"object"}, where) or looser_than(values, value, resolve, f"{where}{{}}")
    if origin is typing.Literal:
        values = set(typing.get_args(inner))
        enum = set(branch.get("enum", ())) - {None}
        if not enum:
            return [f"{where}: the document allows any {'/'.join(sorted(allowed))}, the client only {sorted(values)}"]
        return [f"{where}: the document allows {sorted(enum - values)}, the client does not"] if enum - values else []
    if inner in _ACCEPTS:
        problems = _wrong(allowed, _ACCEPTS[inner], where)
        expected_format = _FORMATS.get(inner)
        if not problems and expected_format and branch.get("format") != expected_format:
            problems.append(f"{where}: the document allows any string, the client parses a {expected_format}")
        return problems
    if inner is typing.Any or inner is object:
        return []
    raise NotImplementedError(f"{where}: no rule for {inner!r}")


def _wrong(allowed: set[str], accepted: set[str], where: str) -> list[str]:
    extra = allowed - accepted
    return (
        [f"{where}: the document allows {'/'.join(sorted(extra))}, the client takes {'/'.join(sorted(accepted))}"]
        if extra
        else []
    )


def _fields(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    """The model's fields with the client's forward references (``"ReportTable"``) resolved.

    The client's generated modules import a recursive model's parts at their end, so pydantic may hold a field's
    annotation as a forward reference; rebuilding the model (as pydantic does on first validation) resolves it.
    """
    if any("ForwardRef" in repr(field.annotation) for field in model.model_fields.values()):
        model.model_rebuild(force=True)
    return model.model_fields


#: The (model, schema properties) pairs being compared right now: a recursive schema (a report row's
#: ``children`` are report rows) is compared once, not forever.
_ACTIVE: set[tuple[type, int]] = set()


def _model(branch: dict[str, Any], model: type[pydantic.BaseModel], resolve, where: str) -> list[str]:
    properties, required = branch.get("properties", {}), set(branch.get("required", ()))
    key = (model, id(properties))
    if key in _ACTIVE:
        return []
    _ACTIVE.add(key)
    try:
        problems = []
        for name, field in _fields(model).items():
            member = field.alias or name
            if field.is_required() and member not in required:
                problems.append(f"{where}.{member}: the document lets it be absent, the client requires it")
            if member in properties:
                problems += looser_than(properties[member], field.annotation, resolve, f"{where}.{member}")
            elif field.is_required():
                problems.append(f"{where}.{member}: the document does not describe it, the client requires it")
        return problems
    finally:
        _ACTIVE.discard(key)
