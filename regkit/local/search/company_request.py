"""Validation of a company search body and of an autocomplete query.

The body rules are the insolvency search's (:mod:`regkit.local.search.request`: the same members, filter
objects, limits and pagination), with the company search's own fields, plus ``location``. The live service
filters companies on about 70 fields; the local register serves :data:`SERVED_FIELDS`. A field only the live
service has is a 400 ``unsupported_filter``, an unknown one a 400 ``invalid_filter``, and ``location`` a 400
``unsupported_location`` (the bundled world has no coordinates). Everything is refused before any credit is
spent.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, InvalidOperation
from typing import Any

from regkit.schema.interface import (
    MAX_QUERY_TERMS,
)
from regkit.schema.research import (
    AUTOCOMPLETE_LIMIT,
    AUTOCOMPLETE_MAX_LENGTH,
    AUTOCOMPLETE_MIN_LENGTH,
    COMPANY_FILTER_FIELDS,
    COMPANY_FILTER_MEMBER_KINDS,
    COMPANY_FILTER_VALUES,
    COMPANY_FLAG_FIELDS,
    COMPANY_LIVE_ONLY_FILTER_FIELDS,
    WZ_CODE_PATTERN,
)

from ..exceptions import ApiError
from .company_rows import AMOUNTS, court_key, register_number_key
from .query import Filter, SearchRequest, fold, lone_surrogate, query_terms
from .request import _shown, _string, _strings, filter_members, parse_body

__all__ = [
    "SERVED_FIELDS",
    "LIVE_ONLY_FIELDS",
    "FIELD_MEMBERS",
    "FIELD_VALUES",
    "AUTOCOMPLETE_MIN_LENGTH",
    "AUTOCOMPLETE_MAX_LENGTH",
    "AUTOCOMPLETE_LIMIT",
    "completes_nothing",
    "parse_company_search",
    "parse_autocomplete_query",
]

_FLAGS = COMPANY_FLAG_FIELDS

#: The filter fields the local register serves (the live service's names), in the interface's order.
SERVED_FIELDS = COMPANY_FILTER_FIELDS
#: Filter fields of the live service that the local register does not serve (a 400 ``unsupported_filter``).
LIVE_ONLY_FIELDS = COMPANY_LIVE_ONLY_FILTER_FIELDS
#: For each served field, the filter members that fit it (exactly one way of matching per filter).
FIELD_MEMBERS = COMPANY_FILTER_MEMBER_KINDS
#: Allowed ``value``/``values`` of the enum-like served fields.
FIELD_VALUES = COMPANY_FILTER_VALUES

_BODY_MEMBERS = frozenset({"query", "filters", "location", "pagination"})
_DATE_TEXT = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_WZ_CODE = WZ_CODE_PATTERN
#: The coded column each text field filters, and how a value is brought to the column's form.
_TEXT_COLUMNS = {
    "register_court": ("court_key", lambda v: " ".join(fold(v).split())),
    "register_number": ("register_number_key", register_number_key),
    "city": ("city_key", fold),
    "zip": ("zip", str.strip),
    "address": ("address_key", fold),
    "purpose": ("purpose_key", fold),
}
#: Column and power of ten of each range field (the indicators are stored in cents).
_NUMBER_COLUMNS = {"capital_amount": ("capital_eur", 0), "employees": ("employees", 0), **{a: (a, 2) for a in AMOUNTS}}
#: Scaling by a power of ten exactly, whatever the exponent (``1e999999999`` becomes ``inf``, not an error).
_WIDE = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _bad(message: str) -> ApiError:
    return ApiError("invalid_filter", message)


def _date(field: str, member: str, text: str) -> str:
    try:
        if not _DATE_TEXT.match(text):
            raise ValueError(text)
        dt.date.fromisoformat(text)
    except ValueError:
        raise _bad(f"Filter on {field!r}: {member!r} must be a date YYYY-MM-DD, not {_shown(text)}.") from None
    return text


def _number(field: str, member: str, text: str) -> Decimal:
    if not _NUMBER.match(text):
        raise _bad(
            f"Filter on {field!r}: {member!r} must be a number as text, such as '250000', '-1500.5' or '1e6', "
            f"not {_shown(text)}."
        )
    try:
        return Decimal(text)
    except InvalidOperation:  # an exponent past what a Decimal holds (1e+1356830601010723395): the text is valid
        mantissa, _, exponent = text.lower().partition("e")
        if not mantissa.strip("+-.0") or exponent.startswith("-"):
            return Decimal(0)  # zero, or closer to it than any amount
        return Decimal("-Infinity" if mantissa.startswith("-") else "Infinity")


def _enum(field: str, member: str, text: str) -> str:
    allowed = FIELD_VALUES.get(field)
    if allowed is not None and text not in allowed:
        raise _bad(f"Filter on {field!r}: {_shown(text)} is not one of {', '.join(allowed)}.")
    if field == "industry_codes" and not _WZ_CODE.match(text):
        raise _bad(
            f"Filter on 'industry_codes': {_shown(text)} is not a WZ 2025 code; send a section letter or a code "
            "such as 'J', '62', '62.1', '62.10' or '62.10.0' (a code matches every code below it)."
        )
    return text


def _field(item: Any) -> str:
    if not isinstance(item, dict):
        raise _bad("Each filter must be an object with 'field' and one of value, values, keywords, min/max.")
    field = item.get("field")
    if isinstance(field, str) and field in LIVE_ONLY_FIELDS:
        raise ApiError(
            "unsupported_filter",
            f"The local register does not filter companies on {field!r} (only the live service does); "
            f"it filters on: {', '.join(SERVED_FIELDS)}.",
        )
    if not isinstance(field, str) or field not in FIELD_MEMBERS:
        raise _bad(f"Unknown filter field {_shown(field)}; the company search filters on: {', '.join(SERVED_FIELDS)}.")
    return field


def _range(field: str, item: dict[str, Any], members: set[str]) -> list[Filter]:
    bounds = {b: _string(field, b, item[b]) for b in ("min", "max") if b in members}
    if field == "incorporated_at":
        days = {b: _date(field, b, text) for b, text in bounds.items()}
        if len(days) == 2 and days["min"] > days["max"]:
            raise _bad(f"Filter on {field!r}: min {days['min']} is after max {days['max']}; nothing could match.")
        return [Filter(field, b, day) for b, day in days.items()]
    numbers = {b: _number(field, b, text) for b, text in bounds.items()}
    if len(numbers) == 2 and numbers["min"] > numbers["max"]:
        raise _bad(f"Filter on {field!r}: min {bounds['min']} is above max {bounds['max']}; nothing could match.")
    column, scale = _NUMBER_COLUMNS[field]
    return [Filter(column, b, float(number.scaleb(scale, _WIDE))) for b, number in numbers.items()]


def _parse_filter(item: Any) -> list[Filter]:
    field = _field(item)
    members = filter_members(field, item, FIELD_MEMBERS[field])
    if "min" in members or "max" in members:
        return _range(field, item, members)
    if "keywords" in members:
        column, normal = _TEXT_COLUMNS[field]
        return [Filter(column, "contains_all", tuple(normal(k) for k in _strings(field, "keywords", item["keywords"])))]
    texts = (
        [_string(field, "value", item["value"])] if "value" in members else _strings(field, "values", item["values"])
    )
    if field == "incorporated_at":
        return [Filter(field, "eq", _date(field, "value", texts[0]))]
    values = tuple(_enum(field, "value" if "value" in members else "values", text) for text in texts)
    if field == "active":
        return [Filter("status", "in", ("active", "liquidation") if values[0] == "true" else ("inactive",))]
    if field in _FLAGS:
        return [Filter(field, "flag", values[0] == "true")]
    if field == "industry_codes":
        return [Filter(field, "industry", values)]
    if field == "register_court":
        return [Filter("court_key", "court_eq", tuple(court_key(v) for v in values))]
    if field in _TEXT_COLUMNS:
        column, normal = _TEXT_COLUMNS[field]
        return [Filter(column, "in", tuple(normal(v) for v in values))]
    return [Filter(field, "in", values)]


def parse_company_search(body: Any) -> SearchRequest:
    """Validate a company search body (``None`` means ``{}``).

    Raises
    ------
    ApiError
        400 with ``invalid_body``, ``invalid_filter``, ``unsupported_filter``, ``unsupported_location`` or
        ``invalid_pagination``.
    """
    return parse_body(body, _BODY_MEMBERS, _parse_filter, check=_no_location)


def _no_location(body: dict[str, Any]) -> None:
    if body.get("location") is not None:
        raise ApiError(
            "unsupported_location",
            "The local register cannot search by location (its companies have no coordinates); "
            "leave out 'location' and filter on 'city' or 'zip' instead.",
        )


def parse_autocomplete_query(values: list[str]) -> str:
    """Validate the ``query`` parameters of an autocomplete request (as ``request.args.getlist`` gives them) and
    return the text to complete, blanks around it removed.

    The length is counted as sent, as the interface document states it. A text without a letter or digit is valid
    and completes nothing (:func:`completes_nothing`); a long name completes like a short one (200 characters hold
    at most 100 search terms, fewer than a search's ``MAX_QUERY_TERMS``).

    Raises
    ------
    ApiError
        400 ``invalid_query``: missing, sent twice, shorter than :data:`AUTOCOMPLETE_MIN_LENGTH` or longer than
        :data:`AUTOCOMPLETE_MAX_LENGTH` characters, a lone surrogate.
    """
    if not values:
        raise ApiError("invalid_query", "Send the text to complete as the query parameter 'query' (?query=...).")
    if len(values) > 1:
        raise ApiError("invalid_query", "Send the query parameter 'query' once.")
    query = values[0]
    if not AUTOCOMPLETE_MIN_LENGTH <= len(query) <= AUTOCOMPLETE_MAX_LENGTH:
        raise ApiError(
            "invalid_query",
            f"'query' has {len(query):,} character{'' if len(query) == 1 else 's'}; send {AUTOCOMPLETE_MIN_LENGTH} to "
            f"{AUTOCOMPLETE_MAX_LENGTH} characters.",
        )
    if lone_surrogate(query):
        raise ApiError("invalid_query", "'query' holds a lone surrogate, which is no character; send valid Unicode.")
    return query.strip()


def completes_nothing(query: str) -> bool:
    """Whether an autocomplete text is answered with no names without a search: it has no letter or digit, or more
    search terms than a search takes (``MAX_QUERY_TERMS``: none of :data:`AUTOCOMPLETE_MAX_LENGTH` characters has
    as many; the bound on the work stays should the length grow)."""
    terms = query_terms(query)
    return not terms or len(terms) > MAX_QUERY_TERMS
