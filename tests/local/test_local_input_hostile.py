"""Hostile values in every field of the search body, the credentials body and the document query.

schemathesis (``tests/test_fuzz_interface.py``) draws from the document's types; these tests draw what a
document cannot describe and a parser must still refuse cleanly: lone surrogates (sent as the raw
``\\ud800`` JSON escape, as ``json.dumps`` writes them), control characters, digits that are not ASCII
(``²``, ``٣``), strings past the limits, numbers past int64 and past a JSON reader's precision, ``NaN`` and
``Infinity``, integer-valued floats, oversize and nested arrays — put into any member or array entry of a
valid body, one to three at a time, and into the path and query of a document URL. The answer must never be
a 5xx, and every error must be the interface's error body, as the OpenAPI document declares it.
"""

from __future__ import annotations

import copy
import json
from typing import Any
from urllib.parse import quote

import requests
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from local_support import VALID_ACCOUNT

from regkit.local.app import MAX_BODY_BYTES

SETTINGS = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)

NASTY_STRINGS = st.one_of(
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
    st.tuples(st.text(max_size=8), st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)).map("".join),
    st.text(st.characters(max_codepoint=0x1F), min_size=1, max_size=4),
    st.sampled_from(["²", "٣", "1e3", "-1", "+1", " ", "\u00a0", "\ufeff", "\U0001f600", "null", "Amtsgericht Köln"]),
    st.integers(250, 5000).map(lambda n: "x" * n),
    st.text(max_size=30),
)
NASTY_NUMBERS = st.one_of(
    st.sampled_from([10**50, -(10**50), 2**63, 2**64, 10**4000, 1e308, 1e-308, -0.0, 33.0, 1.5, 0, -1]),
    st.floats(),  # includes NaN and ±Infinity, which json.dumps writes as the non-JSON tokens NaN, Infinity
    st.integers(),
)
NASTY = st.deferred(
    lambda: st.one_of(
        NASTY_STRINGS,
        NASTY_NUMBERS,
        st.sampled_from([None, True, False, [], {}]),
        st.tuples(st.sampled_from([101, 1001, 5000]), st.sampled_from(["a", "\ud800", "²", "", "x" * 300])).map(
            lambda pair: [pair[1]] * pair[0]
        ),
        st.lists(NASTY_STRINGS, max_size=3),
        st.lists(st.lists(NASTY_NUMBERS, max_size=2), max_size=2),
    )
)
SEARCH_TEMPLATES = [
    {"query": "müller", "pagination": {"page": 1, "per_page": 10}},
    {
        "query": {"value": "bau"},
        "filters": [{"field": "court", "value": "Amtsgericht Köln"}, {"field": "city", "values": ["Köln", "Bonn"]}],
    },
    {
        "filters": [
            {"field": "court", "keywords": ["amtsgericht", "köln"]},
            {"field": "company_id", "value": "DE-HRB-R3101-94644"},
            {"field": "person_id", "values": ["0b9f5a52-4c3e-4f3a-9d0e-2f3c1b6a7d88"]},
        ]
    },
    {
        "filters": [
            {"field": "opened_at", "min": "2020-01-01", "max": "2024-12-31"},
            {"field": "current_status", "values": ["opened"]},
            {"field": "has_open_insolvency", "value": "true"},
        ],
        "pagination": {"page": 2, "per_page": 33},
    },
]


def _slots(node: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON document a value sits (members and array entries, at any depth)."""
    found = [path] if path else []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found += _slots(child, (*path, key))
    return found


def _replaced(document: Any, path: tuple, value: Any) -> Any:
    document = copy.deepcopy(document)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return document


@st.composite
def hostile(draw, templates: list[dict[str, Any]]) -> bytes:
    """A template body with one to three of its values replaced by hostile ones, as raw JSON bytes."""
    body = draw(st.sampled_from(templates))
    for _ in range(draw(st.integers(1, 3))):
        body = _replaced(body, draw(st.sampled_from(_slots(body))), draw(NASTY))
    raw = json.dumps(body).encode("ascii")  # lone surrogates become \udXXX escapes, NaN the token NaN
    assume(len(raw) <= MAX_BODY_BYTES)  # larger bodies are refused before parsing (413)
    return raw


def _clean_answer(response: requests.Response) -> None:
    """Never a 5xx; every error the interface's error body (the session checks each answer against the document)."""
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if response.status_code >= 400:
        assert set(response.json()) == {"error"} and response.json()["error"]["message"]


@SETTINGS
@given(raw=hostile(SEARCH_TEMPLATES))
def test_hostile_search_bodies_are_refused_cleanly(api, raw):
    _clean_answer(api().post("/v1/search/insolvency", data=raw, headers={"Content-Type": "application/json"}))


@settings(SETTINGS, max_examples=150)
@given(raw=hostile([{**VALID_ACCOUNT, "name": "fuzz"}]))
def test_hostile_credentials_are_refused_cleanly(api, raw):
    response = api().post("/v1/transparenzregister/credentials", data=raw, headers={"Content-Type": "application/json"})
    _clean_answer(response)


def _url_text(value: Any) -> str:
    """A value as it would stand in a URL: percent-encoded UTF-8, lone surrogates as their raw bytes."""
    text = json.dumps(value) if not isinstance(value, str) else value
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@settings(SETTINGS, max_examples=200)
@given(
    document_id=st.one_of(st.just("x"), NASTY_STRINGS),
    expires=st.one_of(NASTY_STRINGS, NASTY_NUMBERS),
    signature=st.one_of(NASTY_STRINGS, st.just("ab")),
)
def test_hostile_document_urls_are_refused_cleanly(api, document_id, expires, signature):
    url = f"/v1/documents/{_url_text(document_id) or 'x'}?expires={_url_text(expires)}&signature={_url_text(signature)}"
    response = api(key=None).get(url, allow_redirects=False)
    _clean_answer(response)
    # the signature is checked before the document is looked up; a 404 is only a path that routes nowhere
    assert response.status_code == 403 or response.json()["error"]["code"] == "not_found"
