"""Bad input is a 400 (403 for document URLs) with the error body, never a 500, and a refused search is free.

The shapes an independent probe turned into 500s or stalls: lone surrogates (``"\\ud800"``, sent as the raw
JSON escape) in filter strings and stored passwords, a thousand filters or keywords, ``expires`` parameters
of superscript or five thousand digits, and queries of hundreds of kilobytes. Each is refused where the input
is parsed, with a message naming the limit; the limits are those of the OpenAPI document.
"""

from __future__ import annotations

import json

import pytest
from local_support import EMPTY, VALID_ACCOUNT, charged, error_of

from regkit.local.responses.bodies import MAX_INTEGER_DIGITS
from regkit.local.signing import EXPIRES_MAX
from regkit.schema import FILTER_MEMBER_KINDS, load_openapi
from regkit.schema.interface import (  # the interface's limits, defined once
    MAX_FILTER_TEXT,
    MAX_FILTER_VALUES,
    MAX_FILTERS,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
    PAGE_MAX,
)

SEARCH = "/v1/search/insolvency"
CREDENTIALS = "/v1/transparenzregister/credentials"
SCHEMAS = load_openapi()["components"]["schemas"]


def post_raw(session, path: str, raw: bytes):
    return session.post(path, data=raw, headers={"Content-Type": "application/json"})


def used(session) -> int:
    return session.get("/v1/credits").json()["used_credits"]


# --- the limits are the document's ---------------------------------------------------------------------------


def test_limits_are_the_documents():
    request = SCHEMAS["InsolvencySearchRequest"]
    query = request["properties"]["query"]
    assert query["oneOf"][0]["maxLength"] == query["oneOf"][1]["properties"]["value"]["maxLength"] == MAX_QUERY_LENGTH
    assert query["x-regkit-max-terms"] == MAX_QUERY_TERMS
    assert request["properties"]["filters"]["maxItems"] == MAX_FILTERS
    assert SCHEMAS["PaginationRequest"]["properties"]["page"]["maximum"] == PAGE_MAX
    lists = strings = 0
    for by_field in SCHEMAS["InsolvencyFilter"]["oneOf"]:
        for variant in by_field["oneOf"]:
            for member, schema in variant["properties"].items():
                if member in ("values", "keywords"):
                    assert schema["maxItems"] == MAX_FILTER_VALUES
                    lists += 1
                    schema = schema["items"]
                if schema.get("pattern") == "[^ \\t\\n\\r\\f\\v]":  # free strings (enums and dates bound themselves)
                    assert schema["maxLength"] == MAX_FILTER_TEXT
                    strings += 1
    assert lists == sum(len(kinds & {"values", "keywords"}) for kinds in FILTER_MEMBER_KINDS.values())
    assert strings == 10  # court, city, company_id, person_id: value and values; court, city: keywords
    expires = next(
        p for p in load_openapi()["paths"]["/v1/documents/{document_id}"]["get"]["parameters"] if p["name"] == "expires"
    )
    assert expires["schema"]["maximum"] == EXPIRES_MAX


# --- the query -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "in " * 80_000,  # the probe's 240 kB query
        "x" * (MAX_QUERY_LENGTH + 1),
        {"value": "x" * (MAX_QUERY_LENGTH + 1)},
        " ".join(["müller"] * (MAX_QUERY_TERMS + 1)),
        "/".join(["12"] * (MAX_QUERY_TERMS + 1)),  # one word, but more terms than allowed
    ],
)
def test_a_query_past_the_limits_is_a_free_400_that_names_them(api, query):
    session = api()
    before = used(session)
    response = session.post(SEARCH, json={"query": query})
    assert error_of(response) == (400, "invalid_body")
    message = response.json()["error"]["message"]
    assert f"{MAX_QUERY_LENGTH} characters" in message and f"{MAX_QUERY_TERMS} search terms" in message
    assert len(message) < 300
    assert charged(response) == 0 and used(session) == before


def test_a_query_at_the_limits_is_answered(api):
    session = api()
    words = " ".join(["müller"] * (MAX_QUERY_TERMS - 1) + ["x" * (MAX_QUERY_LENGTH - 7 * (MAX_QUERY_TERMS - 1))])
    assert len(words) == MAX_QUERY_LENGTH
    response = session.post(SEARCH, json={"query": words})
    assert response.status_code == 200 and charged(response) == 10


# --- filters -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"filters": [{"field": "court", "value": "Amtsgericht Köln"}] * 1001},
        {"filters": [{"field": "court", "value": "Amtsgericht Köln"}] * (MAX_FILTERS + 1)},
        {"filters": [{"field": "court", "keywords": ["a"] * 1001}]},
        {"filters": [{"field": "city", "values": ["Köln"] * (MAX_FILTER_VALUES + 1)}]},
        {"filters": [{"field": "current_status", "values": ["opened"] * (MAX_FILTER_VALUES + 1)}]},
        {"filters": [{"field": "company_id", "value": "D" * (MAX_FILTER_TEXT + 1)}]},
        {"filters": [{"field": "person_id", "values": ["p" * 5000]}]},
        {"filters": [{"field": "city", "keywords": ["k" * (MAX_FILTER_TEXT + 1)]}]},
    ],
)
def test_filters_past_the_limits_are_a_free_400(api, body):
    session = api()
    before = used(session)
    response = session.post(SEARCH, json=body)
    assert error_of(response) == (400, "invalid_filter")
    assert "at most" in response.json()["error"]["message"]
    assert charged(response) == 0 and used(session) == before


def test_filters_at_the_limits_are_answered(api):
    body = {
        "filters": [{"field": "court", "keywords": ["amtsgericht"] * MAX_FILTER_VALUES}] * (MAX_FILTERS - 1)
        + [{"field": "company_id", "values": ["D" * MAX_FILTER_TEXT] * MAX_FILTER_VALUES}]
    }
    response = api().post(SEARCH, json=body)
    assert response.status_code == 200 and response.json()["pagination"]["total_results"] == 0


# --- numbers -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pagination, expected", [({"per_page": 33.0}, 33), ({"page": 2.0, "per_page": 5}, 5)])
def test_integer_valued_numbers_are_integers(api, pagination, expected):
    body = api().post(SEARCH, json={"pagination": pagination}).json()
    assert body["pagination"]["per_page"] == expected and len(body["results"]) == expected
    assert isinstance(body["pagination"]["page"], int)


@pytest.mark.parametrize(
    "raw, code",
    [
        (b'{"pagination": {"per_page": 33.5}}', "invalid_pagination"),
        (b'{"pagination": {"page": 1e400}}', "invalid_pagination"),
        (b'{"pagination": {"page": %d}}' % (PAGE_MAX + 1), "invalid_pagination"),
        (b'{"pagination": {"page": NaN}}', "invalid_json"),
        (b'{"pagination": {"per_page": Infinity}}', "invalid_json"),
        (b'{"pagination": {"page": 1%s}}' % (b"0" * MAX_INTEGER_DIGITS), "invalid_json"),
        (b'{"pagination": {"page": 1%s}}' % (b"0" * 5000), "invalid_json"),
    ],
)
def test_numbers_out_of_range_are_a_free_400(api, raw, code):
    response = post_raw(api(), SEARCH, raw)
    assert error_of(response) == (400, code)
    assert charged(response) == 0


# --- lone surrogates -----------------------------------------------------------------------------------------

SURROGATE_BODIES = [
    *(
        b'{"filters": [{"field": "%s", "value": "\\ud800"}]}' % f
        for f in (b"court", b"city", b"company_id", b"person_id")
    ),
    *(b'{"filters": [{"field": "%s", "values": ["K\\udfffln"]}]}' % f for f in (b"court", b"city", b"company_id")),
    *(b'{"filters": [{"field": "%s", "keywords": ["\\udc00"]}]}' % f for f in (b"court", b"city")),
    b'{"filters": [{"field": "opened_at", "min": "\\ud800"}]}',
    b'{"query": "M\\ud800ller"}',
    b'{"query": {"value": "\\udbff"}}',
    b'{"\\ud800": 1}',
]


@pytest.mark.parametrize("raw", SURROGATE_BODIES)
def test_a_lone_surrogate_in_a_search_is_a_free_400(api, raw):
    session = api()
    before = used(session)
    response = post_raw(session, SEARCH, raw)
    assert error_of(response) == (400, "invalid_json")
    assert "lone surrogate" in response.json()["error"]["message"]
    assert charged(response) == 0 and used(session) == before


def test_a_paired_surrogate_is_a_character(api):
    # "\ud83d\ude00" is one character (U+1F600) in JSON: not refused
    assert post_raw(api(), SEARCH, b'{"query": "\\ud83d\\ude00"}').status_code == 200


@pytest.mark.parametrize("member", ["username", "password", "name"])
def test_a_lone_surrogate_in_credentials_is_a_400_and_stores_nothing(api, member):
    session = api()
    body = {**VALID_ACCOUNT, "name": "work"}
    raw = json.dumps({**body, member: body[member] + "\ud800"}).encode()  # json.dumps writes the \ud800 escape
    assert b"\\ud800" in raw
    response = post_raw(session, CREDENTIALS, raw)
    assert error_of(response) == (400, "invalid_json")
    extract = session.post(
        "/v1/transparenzregister/extracts",
        json={"company_id": "DE-HRB-R3101-94644"},
        headers={"X-Credential-Name": "work"},
    )
    assert error_of(extract) == (404, "credentials_not_found")


def test_a_refused_search_costs_nothing_even_without_credits(api):
    # refused before metering: the 400, not the 402
    assert error_of(api(EMPTY).post(SEARCH, json={"query": "x" * 10_000})) == (400, "invalid_body")


# --- document URLs -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "expires=%C2%B2&signature=ab",  # superscript two: str.isdigit() says yes, int() says no
        "expires=" + "9" * 5000 + "&signature=ab",
        "expires=" + str(EXPIRES_MAX + 1) + "&signature=ab",
        "expires=%D9%A3&signature=ab",  # Arabic-Indic three
        "expires=+1&signature=ab",
        "expires=-1&signature=ab",
        "expires=1e3&signature=ab",
        "expires=%201&signature=ab",
        "expires=1&signature=%C2%B2",
        "expires=1&signature=" + "a" * 129,
        "expires=1&signature=%ED%A0%80",
    ],
)
def test_a_malformed_document_url_is_a_403(api, query):
    response = api(key=None).get(f"/v1/documents/x?{query}")
    assert error_of(response) == (403, "invalid_signature")


@pytest.mark.parametrize(
    "path, status, code",
    [
        ("/v1/insolvency/%2F00000000-0000-4000-8000-000000000000", 404, "not_found"),
        ("/v1/documents/%2Fa?expires=1&signature=ab", 404, "not_found"),
        ("/v1/company/%2FDE-HRB-R3101-94644", 404, "not_found"),
    ],
)
def test_a_doubled_slash_is_not_redirected(api, path, status, code):
    # werkzeug would merge "//" with a 308 to another URL and an HTML body
    response = api().get(path, allow_redirects=False)
    assert error_of(response) == (status, code)
