"""Validation of a person search body (``POST /v1/search/person``) into a :class:`PersonSearch`.

The body follows the interface's search rules (``filled-gaps.md``): ``query`` as a string or ``{"value": …}``,
``filters`` as filter objects (``field`` plus exactly one of ``value``, ``values``, ``keywords``, ``min``/``max``),
``pagination`` ``{page, per_page}``. The person search serves three filter fields: ``date_of_birth`` (a date or
an inclusive range), ``city`` (a value, values or keywords, German spelling folded) and ``active`` (``"true"`` /
``"false"``). Every malformed body is a 400 that says what to send. A filter becomes a :class:`PersonFilter`
(data, evaluated by the person index over its columns: :mod:`regkit.local.search.person_index`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from regkit.schema.interface import (
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
from regkit.schema.research import PERSON_FILTER_MEMBER_KINDS

from ..exceptions import ApiError
from .query import fold, query_terms
from .request import BLANKS

__all__ = ["PersonSearch", "PersonFilter", "PERSON_FILTER_FIELDS", "parse_person_search"]

#: The filter fields of the person search, and the ways each may match.
PERSON_FILTER_FIELDS = PERSON_FILTER_MEMBER_KINDS
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_MEMBERS = frozenset({"value", "values", "keywords", "min", "max"})


@dataclass(frozen=True)
class PersonFilter:
    """One validated filter of the person search (null never matches).

    ``kind`` and ``operand`` by ``field``:

    - ``active``: ``eq`` and a bool (holds a current management position, or not);
    - ``date_of_birth``: ``eq`` and a ``YYYY-MM-DD`` text, or ``range`` and ``(low, high)`` (either ``None``),
      compared as texts, bounds included;
    - ``city``: ``in`` and the folded, stripped cities (:func:`~regkit.local.search.query.fold`), or ``words`` and
      the search terms every one of which the city's terms must hold (:func:`~regkit.local.search.query.query_terms`).
    """

    field: str
    kind: str
    operand: Any


@dataclass(frozen=True)
class PersonSearch:
    """A validated person search: the folded query words, the filters (all must match), the page."""

    terms: tuple[str, ...] = ()
    filters: tuple[PersonFilter, ...] = ()
    page: int = PAGE_DEFAULT
    per_page: int = PER_PAGE_DEFAULT


def _bad(code: str, message: str) -> ApiError:
    return ApiError(code, message)


def _query(query: Any) -> tuple[str, ...]:
    if query is None:
        return ()
    if isinstance(query, dict):
        if set(query) != {"value"}:
            raise _bad("invalid_query", 'The query is a string or {"value": "<text>"}.')
        query = query["value"]
    if not isinstance(query, str):
        raise _bad("invalid_query", 'The query is a string or {"value": "<text>"}.')
    if len(query) > MAX_QUERY_LENGTH:
        raise _bad("invalid_query", f"The query may have at most {MAX_QUERY_LENGTH} characters.")
    terms = tuple(query_terms(query))
    if len(terms) > MAX_QUERY_TERMS:
        raise _bad(
            "invalid_query",
            f"The query may have at most {MAX_QUERY_TERMS} search terms (runs of letters or digits): "
            "search for fewer, distinctive words.",
        )
    return terms


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip(BLANKS) or len(value) > MAX_FILTER_TEXT:
        raise _bad(
            "invalid_filter", f"Filter on {name!r}: give a non-empty string of at most {MAX_FILTER_TEXT} characters."
        )
    return value


def _date(name: str, value: Any) -> str:
    if not isinstance(value, str) or not _DATE.match(value):
        raise _bad("invalid_filter", f"Filter on {name!r}: dates are YYYY-MM-DD, not {str(value)[:40]!r}.")
    return value


def _filter(item: Any) -> PersonFilter:
    if not isinstance(item, dict) or not isinstance(item.get("field"), str):
        raise _bad("invalid_filter", 'Each filter is an object with a "field" and one way to match.')
    name = item["field"]
    if name not in PERSON_FILTER_FIELDS:
        raise _bad(
            "invalid_filter",
            f"Unknown filter field {name!r}; the person search filters on {', '.join(PERSON_FILTER_FIELDS)}.",
        )
    ways = set(item) - {"field"}
    if ways - _MEMBERS or not ways or (len(ways) > 1 and not ways <= {"min", "max"}):
        raise _bad("invalid_filter", f"Filter on {name!r}: give exactly one of value, values, keywords, or min/max.")
    if not ways <= PERSON_FILTER_FIELDS[name]:
        raise _bad("invalid_filter", f"Filter on {name!r} matches by {', '.join(sorted(PERSON_FILTER_FIELDS[name]))}.")
    if name == "active":
        value = item["value"]
        if value not in ("true", "false", True, False):
            raise _bad("invalid_filter", 'Filter on \'active\': the value is "true" or "false".')
        return PersonFilter("active", "eq", value in ("true", True))
    if name == "date_of_birth":
        if "value" in item:
            return PersonFilter("date_of_birth", "eq", _date(name, item["value"]))
        low, high = (_date(name, item[k]) if item.get(k) is not None else None for k in ("min", "max"))
        if low is None and high is None:
            raise _bad("invalid_filter", f"Filter on {name!r}: give a date as min, max or both (not null).")
        if low and high and low > high:
            raise _bad("invalid_filter", f"Filter on {name!r}: min {low} is after max {high}.")
        return PersonFilter("date_of_birth", "range", (low, high))
    return _city_filter(item)


def _city_filter(item: dict[str, Any]) -> PersonFilter:
    if "keywords" in item:
        keywords = item["keywords"]
        if not isinstance(keywords, list) or not keywords or len(keywords) > MAX_FILTER_VALUES:
            raise _bad("invalid_filter", f"Filter on 'city': keywords is a list of 1 to {MAX_FILTER_VALUES} strings.")
        return PersonFilter("city", "words", tuple(w for k in keywords for w in query_terms(_text("city", k))))
    values = item.get("values", [item.get("value")])
    if not isinstance(values, list) or not values or len(values) > MAX_FILTER_VALUES:
        raise _bad("invalid_filter", f"Filter on 'city': values is a list of 1 to {MAX_FILTER_VALUES} strings.")
    return PersonFilter("city", "in", frozenset(fold(_text("city", v)).strip() for v in values))


def _number(pagination: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = pagination.get(name, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad("invalid_pagination", f"pagination.{name} is an integer from {low} to {high}.")
    return value


def parse_person_search(body: dict[str, Any]) -> PersonSearch:
    """Validate a person search body.

    Raises
    ------
    ApiError
        400 ``invalid_body`` (unknown members), ``invalid_query``, ``invalid_filter``, ``invalid_pagination``.
    """
    unknown = set(body) - {"query", "filters", "pagination"}
    if unknown:
        raise _bad(
            "invalid_body", f"Unknown members {sorted(unknown)}; a person search has query, filters, pagination."
        )
    filters = [] if body.get("filters") is None else body["filters"]
    if not isinstance(filters, list) or len(filters) > MAX_FILTERS:
        raise _bad("invalid_filter", f"filters is a list of at most {MAX_FILTERS} filter objects.")
    pagination = {} if body.get("pagination") is None else body["pagination"]
    if not isinstance(pagination, dict) or set(pagination) - {"page", "per_page"}:
        raise _bad("invalid_pagination", "pagination is an object with page and per_page.")
    return PersonSearch(
        terms=_query(body.get("query")),
        filters=tuple(_filter(item) for item in filters),
        page=_number(pagination, "page", PAGE_DEFAULT, 1, PAGE_MAX),
        per_page=_number(pagination, "per_page", PER_PAGE_DEFAULT, PER_PAGE_MIN, PER_PAGE_MAX),
    )
