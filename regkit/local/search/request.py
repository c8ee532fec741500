"""Validation of an insolvency search body into a :class:`~regkit.local.search.query.SearchRequest`.

Every malformed body is an :class:`~regkit.local.exceptions.ApiError` with status 400: unknown members,
wrong types, unknown filter fields, a filter with none or several ways of matching, values outside an
enum, bad dates, pagination out of bounds, and anything past the limits below (also in the OpenAPI
document: ``maxLength``, ``maxItems``, ``maximum``, ``x-regkit-max-terms``), which bound a search's work and keep
every search well under a second. The query's limits are well above the longest company names (a full legal name
is one query; :data:`~regkit.schema.interface.MAX_QUERY_TERMS`).
An integer-valued number (``33.0``) is an integer, as in JSON Schema.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from regkit.schema.interface import (
    FILTER_FIELDS,
    FILTER_MEMBER_KINDS,
    FILTER_MEMBERS,
    FILTER_VALUES,
    MAX_FILTER_TEXT,
    MAX_FILTER_VALUES,
    MAX_FILTERS,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
    PAGE_DEFAULT,
    PAGE_MAX,
    PER_PAGE_DEFAULT,
    PER_PAGE_MAX,
    PER_PAGE_MIN,
)

from ..exceptions import ApiError
from .query import GROUND_BITS, Filter, SearchRequest, fold, lone_surrogate, query_terms

__all__ = ["BLANKS", "parse_search_request", "parse_body", "filter_members"]

# The limits are the interface's (regkit.schema.interface), which the client checks before sending too.

_BODY_MEMBERS = frozenset({"query", "filters", "pagination"})
_DATE_FIELDS = frozenset({"opened_at", "closed_at", "last_event_at", "claims_filing_deadline"})
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_FOLDED_FIELDS = {"court": "court_key", "city": "city_key"}
#: The ways a filter can match; ``min`` and ``max`` together are one way (a range).
_WAYS = (frozenset({"value"}), frozenset({"values"}), frozenset({"keywords"}), frozenset({"min", "max"}))


def _bad(message: str) -> ApiError:
    return ApiError("invalid_filter", message)


def _shown(value: Any) -> str:
    """``repr(value)``, cut short: a message never echoes a megabyte back."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


#: White space as the interface document's patterns spell it (``[^ \\t\\n\\r\\f\\v]``: a string with another character is
#: not blank). Python's ``str.strip()`` strips more (U+001C to U+001F, U+0085, U+00A0, ...), which the document's
#: readers do not count as blank.
BLANKS = " \t\n\r\f\v"


def _string(field: str, member: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip(BLANKS):
        raise _bad(f"Filter on {field!r}: {member!r} must be a non-empty string.")
    if len(value) > MAX_FILTER_TEXT:
        raise _bad(
            f"Filter on {field!r}: {member!r} is {len(value):,} characters long; at most {MAX_FILTER_TEXT} are allowed."
        )
    if lone_surrogate(value):
        raise _bad(
            f"Filter on {field!r}: {member!r} holds a lone surrogate, which is no character; send valid Unicode."
        )
    return value


def _strings(field: str, member: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise _bad(f"Filter on {field!r}: {member!r} must be a non-empty array of strings.")
    if len(value) > MAX_FILTER_VALUES:
        raise _bad(
            f"Filter on {field!r}: {member!r} holds {len(value):,} entries; at most {MAX_FILTER_VALUES} are allowed."
        )
    return [_string(field, member, item) for item in value]


def _operand(field: str, member: str, text: str) -> Any:
    """Check one value against the field's vocabulary and normalise it for the SQL column."""
    if field in _DATE_FIELDS:
        try:
            if not _DATE.match(text):
                raise ValueError(text)
            dt.date.fromisoformat(text)
        except ValueError:
            raise _bad(f"Filter on {field!r}: {member!r} must be a date YYYY-MM-DD, not {_shown(text)}.") from None
        return text
    allowed = FILTER_VALUES.get(field)
    if allowed is not None and text not in allowed:
        raise _bad(f"Filter on {field!r}: {_shown(text)} is not one of {', '.join(allowed)}.")
    if field == "has_open_insolvency":
        return int(text == "true")
    if field == "insolvency_grounds":
        return GROUND_BITS[text]
    if field in _FOLDED_FIELDS:
        return fold(text)
    return text


def filter_members(field: str, item: dict[str, Any], fitting: frozenset[str]) -> set[str]:
    """The members of filter object ``item`` on ``field`` — exactly one way of matching, among ``fitting`` —
    or a 400 ``invalid_filter`` that says which members the field takes."""
    members = set(item) - {"field"}
    unknown = members - set(FILTER_MEMBERS)
    if unknown:
        raise _bad(f"Filter on {field!r} has unknown member(s) {', '.join(map(_shown, sorted(unknown)[:5]))}.")
    ways = [way for way in _WAYS if members & way]
    if len(ways) != 1:
        raise _bad(
            f"Filter on {field!r} needs exactly one of value, values, keywords or min/max; got "
            f"{', '.join(sorted(members)) or 'none'}."
        )
    if not members <= fitting:
        raise _bad(
            f"Filter on {field!r} takes {', '.join(sorted(fitting))}, not {', '.join(sorted(members - fitting))}."
        )
    return members


def _parse_filter(item: Any) -> list[Filter]:
    if not isinstance(item, dict):
        raise _bad("Each filter must be an object with 'field' and one of value, values, keywords, min/max.")
    field = item.get("field")
    if not isinstance(field, str) or field not in FILTER_FIELDS:
        raise _bad(f"Unknown filter field {_shown(field)}; filterable are: {', '.join(FILTER_FIELDS)}.")
    members = filter_members(field, item, FILTER_MEMBER_KINDS[field])
    column = _FOLDED_FIELDS.get(field, "grounds_mask" if field == "insolvency_grounds" else field)
    if "value" in members:
        operand = _operand(field, "value", _string(field, "value", item["value"]))
        return [Filter(column, "mask" if field == "insolvency_grounds" else "eq", operand)]
    if "values" in members:
        operands = [_operand(field, "values", v) for v in _strings(field, "values", item["values"])]
        if field == "insolvency_grounds":
            return [Filter(column, "mask", sum(set(operands)))]
        return [Filter(column, "in", tuple(operands))]
    if "keywords" in members:
        return [Filter(column, "contains_all", tuple(fold(k) for k in _strings(field, "keywords", item["keywords"])))]
    return [
        Filter(column, bound, _operand(field, bound, _string(field, bound, item[bound])))
        for bound in ("min", "max")
        if bound in members
    ]


_QUERY_LIMITS = (
    f"a query takes at most {MAX_QUERY_LENGTH} characters and {MAX_QUERY_TERMS} search terms "
    "(runs of letters or digits), more than the longest company names have; search for fewer, distinctive words, "
    "or narrow the search with filters"
)


def _parse_query(query: Any) -> str | None:
    if query is None:
        return None
    if isinstance(query, dict):
        if set(query) != {"value"}:
            raise ApiError("invalid_body", "'query' must be a string or an object {\"value\": <text>}.")
        query = query["value"]  # a text: {"value": null} is not a query the document allows
    if not isinstance(query, str):
        raise ApiError("invalid_body", "'query' must be a string or an object {\"value\": <text>}.")
    if len(query) > MAX_QUERY_LENGTH:
        raise ApiError("invalid_body", f"'query' is {len(query):,} characters long; {_QUERY_LIMITS}.")
    if lone_surrogate(query):
        raise ApiError("invalid_body", "'query' holds a lone surrogate, which is no character; send valid Unicode.")
    terms = len(query_terms(query))
    if terms > MAX_QUERY_TERMS:
        raise ApiError("invalid_body", f"'query' has {terms} search terms; {_QUERY_LIMITS}.")
    return query


def _integer(pagination: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = pagination.get(name, default)
    if isinstance(value, float) and value.is_integer():  # 33.0 is an integer in JSON (and JSON Schema)
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(
            "invalid_pagination",
            f"pagination.{name} must be an integer between {low} and {high:,}, not {_shown(value)}.",
        )
    return value


def parse_search_request(body: Any) -> SearchRequest:
    """Validate a search body (``None`` means ``{}``).

    Raises
    ------
    ApiError
        400 with ``invalid_body``, ``invalid_filter`` or ``invalid_pagination``.
    """
    return parse_body(body, _BODY_MEMBERS, _parse_filter)


def _listed(words: list[str]) -> str:
    """``"a, b and c"``."""
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else "".join(words)


def parse_body(
    body: Any,
    members: frozenset[str],
    parse_filter: Callable[[Any], list[Filter]],
    *,
    check: Callable[[dict], None] | None = None,
) -> SearchRequest:
    """Validate a search body with the interface's rules (members, filters, query, pagination, limits).

    ``members`` are the body members the search takes, ``parse_filter`` turns one filter object into
    :class:`~regkit.local.search.query.Filter` s, and ``check`` (optional) refuses what else the search does
    not serve, after the members are known (the company search's ``location``).
    """
    body = {} if body is None else body
    if not isinstance(body, dict):
        raise ApiError("invalid_body", "The search body must be a JSON object.")
    unknown = set(body) - members
    if unknown:
        raise ApiError(
            "invalid_body",
            f"Unknown member(s) {', '.join(map(_shown, sorted(unknown)[:5]))}; "
            f"the body takes {_listed([m for m in ('query', 'filters', 'location', 'pagination') if m in members])}.",
        )
    if check is not None:
        check(body)
    filters = body.get("filters")
    filters = [] if filters is None else filters
    if not isinstance(filters, list):
        raise ApiError("invalid_body", "'filters' must be an array of filter objects.")
    if len(filters) > MAX_FILTERS:
        raise _bad(
            f"A search takes at most {MAX_FILTERS} filters, not {len(filters):,}; put several values of one "
            f"field into one filter's 'values' (at most {MAX_FILTER_VALUES})."
        )
    pagination = body.get("pagination")
    pagination = {} if pagination is None else pagination
    if not isinstance(pagination, dict) or set(pagination) - {"page", "per_page"}:
        raise ApiError("invalid_pagination", "'pagination' must be an object with integer page and per_page.")
    return SearchRequest(
        query=_parse_query(body.get("query")),
        filters=tuple(f for item in filters for f in parse_filter(item)),
        page=_integer(pagination, "page", PAGE_DEFAULT, 1, PAGE_MAX),
        per_page=_integer(pagination, "per_page", PER_PAGE_DEFAULT, PER_PAGE_MIN, PER_PAGE_MAX),
    )
