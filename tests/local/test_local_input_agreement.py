"""The OpenAPI document and the register agree on search bodies, both ways.

For generated bodies near every edge (integer-valued numbers such as ``33.0``, page and page-size bounds,
query length and search terms, numbers of filters, values and keywords, string lengths, blank and odd
strings, enum values and dates, nulls) the register answers 200 exactly when the document's
``InsolvencySearchRequest`` schema accepts the body (plus its ``x-regkit-max-terms``, the one limit JSON
Schema cannot state), and 400 with the error body otherwise.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_check import schema_validator

from regkit.local.search.query import query_terms
from regkit.schema import FILTER_FIELDS, FILTER_MEMBERS, FILTER_VALUES, load_openapi
from regkit.schema.interface import (  # the interface's limits, defined once
    MAX_FILTER_TEXT,
    MAX_FILTER_VALUES,
    MAX_FILTERS,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
    PAGE_MAX,
)

SEARCH = "/v1/search/insolvency"
REQUEST = "/components/schemas/InsolvencySearchRequest"
TERMS = load_openapi()["components"]["schemas"]["InsolvencySearchRequest"]["properties"]["query"]["x-regkit-max-terms"]

_TEXTS = st.sampled_from(
    [
        "Amtsgericht Köln",
        "köln",
        "DE-HRB-R3101-94644",
        " ",
        "",
        "\u00a0",
        "\x1c",
        "a\x00b",
        "2024-02-29",
        "2023-02-29",
        "2024-1-01",
        "2024-01-01\n",
        "opened",
        "gmbh",
        "true",
        "false",
        "over_indebtedness",
        "Opened",
    ]
)
_LONG = st.sampled_from([MAX_FILTER_TEXT - 1, MAX_FILTER_TEXT, MAX_FILTER_TEXT + 1]).map(lambda n: "k" * n)
STRINGS = st.one_of(_TEXTS, _TEXTS, _LONG)
NUMBERS = st.one_of(
    st.sampled_from([0, 1, 2, 33, 99, 100, 101, PAGE_MAX, PAGE_MAX + 1, -1]),
    st.sampled_from([1.0, 33.0, 100.0, 101.0, 0.0, -0.0, 1.5, 33.5, 1e300]),
    st.sampled_from(["2", True, False, None, [1]]),
)


def _lists(values: st.SearchStrategy) -> st.SearchStrategy:
    edge = st.sampled_from([MAX_FILTER_VALUES - 1, MAX_FILTER_VALUES, MAX_FILTER_VALUES + 1])
    return st.one_of(st.lists(values, max_size=3), st.tuples(values, edge).map(lambda pair: [pair[0]] * pair[1]))


@st.composite
def filters(draw) -> object:
    item: dict[str, object] = {"field": draw(st.sampled_from([*FILTER_FIELDS, "colour"]))}
    allowed = FILTER_VALUES.get(item["field"], ())
    value = st.one_of(STRINGS, st.sampled_from(allowed)) if allowed else STRINGS
    for member in draw(st.lists(st.sampled_from([*FILTER_MEMBERS, "extra"]), min_size=0, max_size=2, unique=True)):
        item[member] = draw(_lists(value) if member in ("values", "keywords") else st.one_of(value, value, NUMBERS))
    return item


@st.composite
def queries(draw) -> object:
    words = st.lists(
        st.sampled_from(["müller", "12", "in/24", "bau", "345/24", "x"]),
        min_size=MAX_QUERY_TERMS - 3,
        max_size=MAX_QUERY_TERMS + 2,
    ).map(" ".join)
    length = st.sampled_from([MAX_QUERY_LENGTH - 1, MAX_QUERY_LENGTH, MAX_QUERY_LENGTH + 1]).map(lambda n: "q" * n)
    text = st.one_of(STRINGS, words, length)
    return draw(
        st.one_of(
            text, text.map(lambda t: {"value": t}), st.none(), NUMBERS, st.just({"value": "x", "extra": 1}), st.just({})
        )
    )


@st.composite
def bodies(draw) -> dict:
    body: dict[str, object] = {}
    if draw(st.booleans()):
        body["query"] = draw(queries())
    if draw(st.booleans()):
        count = st.one_of(st.integers(0, 3), st.sampled_from([MAX_FILTERS - 1, MAX_FILTERS, MAX_FILTERS + 1]))
        n = draw(count)
        item = draw(filters())
        body["filters"] = [item] * n if n > 3 else [draw(filters()) for _ in range(n)]
    if draw(st.booleans()):
        pagination = draw(
            st.one_of(
                st.none(),
                st.fixed_dictionaries({}, optional={"page": NUMBERS, "per_page": NUMBERS, "size": st.just(10)}),
            )
        )
        body["pagination"] = pagination
    return body


def documented(body: dict) -> bool:
    """Whether the document accepts ``body``: its schema, and at most ``x-regkit-max-terms`` search terms."""
    if list(schema_validator(REQUEST).iter_errors(body)):
        return False
    query = body.get("query")
    text = query.get("value") if isinstance(query, dict) else query
    return not isinstance(text, str) or len(query_terms(text)) <= TERMS


def test_the_document_states_the_server_limit_on_terms():
    assert TERMS == MAX_QUERY_TERMS


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(body=bodies())
def test_the_register_accepts_exactly_what_the_document_accepts(api, body):
    response = api().post(SEARCH, json=body)  # every answer is also checked against the document
    assert response.status_code in (200, 400), response.text[:300]
    assert (response.status_code == 200) == documented(body), (response.status_code, response.text[:300])


@pytest.mark.parametrize(
    "body",
    [
        {"pagination": {"per_page": 33.0}},
        {"pagination": {"page": 2.0}},
        {"query": None, "filters": None, "pagination": None},
        {"pagination": {"page": PAGE_MAX}},
    ],
)
def test_edges_the_document_accepts_are_answered(api, body):
    assert documented(body)
    assert api().post(SEARCH, json=body).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"pagination": {"per_page": 33.5}},
        {"pagination": {"page": PAGE_MAX + 1}},
        {"query": "q" * (MAX_QUERY_LENGTH + 1)},
        {"filters": [{"field": "court", "values": ["a"] * (MAX_FILTER_VALUES + 1)}]},
    ],
)
def test_edges_the_document_refuses_are_refused(api, body):
    assert not documented(body)
    assert api().post(SEARCH, json=body).status_code == 400
