"""Company search (``POST /v1/search/company``) and autocomplete (``GET /v1/autocomplete/company``).

Expected answers come from the world's records through a brute-force oracle (``company_search_support.py``);
every response is checked against the OpenAPI description by the sessions' response hook.
"""

from __future__ import annotations

import doctest
import itertools
import math
import types
import typing

import pytest
from company_search_support import CompanyOracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from local_support import EMPTY, PAID, charged, error_of, session_for
from local_support import search_all as search_every_page

from regkit.local.models.catalog import load_catalog
from regkit.local.search import company_index, company_rows, company_text
from regkit.local.search.company_index import CompanyIndex
from regkit.local.search.company_request import (
    AUTOCOMPLETE_LIMIT,
    FIELD_MEMBERS,
    LIVE_ONLY_FIELDS,
    SERVED_FIELDS,
    parse_company_search,
)
from regkit.local.search.company_rows import company_row
from regkit.local.search.company_text import TextLabels
from regkit.local.search.query import query_terms
from regkit.schema import PRICES, load_openapi
from regkit.schema.interface import MAX_QUERY_TERMS

SEARCH, COMPLETE = "/v1/search/company", "/v1/autocomplete/company"


@pytest.fixture(scope="module")
def oracle(catalog) -> CompanyOracle:
    return CompanyOracle(catalog.world)


def search_all(session, body):
    """Every result of a company search, paging at 100 (``local_support.search_all``)."""
    return search_every_page(session, SEARCH, body)


def ids(results):
    return [r["company_id"] for r in results]


def used(api) -> int:
    return api().get("/v1/credits").json()["used_credits"]


# --- text ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["Müller", "Mueller", "muller", "MÜLLER", {"value": "mueller"}])
def test_german_spellings_find_each_other(api, oracle, query):
    found = ids(search_all(api(), {"query": query}))
    assert found and found == oracle.search("müller")


def test_results_are_the_world_companies_in_their_search_shape(api, catalog):
    company = next(iter(catalog.world.companies.values()))
    result = api().post(SEARCH, json={"query": company["register"]["register_number"]}).json()["results"]
    mine = next(r for r in result if r["company_id"] == company["id"])
    address = company["address"]
    assert mine == {
        "company_id": company["id"],
        "name": company["name"]["name"],
        "legal_form": company["legal_form"],
        "register_court": company["register"]["register_court"],
        "register_number": company["register"]["register_number"],
        "register_type": company["register"]["register_type"],
        "active": company["status"] != "inactive",
        "country": "DE",
        "purpose": company["purpose"]["purpose"] if company["purpose"] else None,
        "address": {
            **{k: address[k] for k in ("street", "city", "postal_code", "extra") if k in address},
            "country": "DE",
            "formatted_value": address["formatted_value"],
        },
    }


def test_the_last_word_is_a_prefix_and_every_word_must_match(api, oracle):
    session = api()
    prefixed = ids(search_all(session, {"query": "müll"}))
    assert prefixed == oracle.search("müll") and len(prefixed) > len(oracle.search("müller"))
    assert set(oracle.search("müller")) <= set(prefixed)
    both = ids(search_all(session, {"query": "müller hand"}))
    assert both == oracle.search("müller hand") and set(both) < set(prefixed)
    assert ids(search_all(session, {"query": "müll handel"})) == oracle.search("müll handel") == []  # only last


def test_current_name_matches_rank_before_former_name_matches(api, catalog, oracle):
    def dropped(company):  # a word of a former name that the current name no longer has
        current = company["name"]["name"].lower().split()
        return [w for n in company["names"] for w in n["name"].lower().split() if w.isalpha() and w not in current]

    renamed = next(c for c in catalog.world.companies.values() if len(dropped(c)) > 0)
    word = max(dropped(renamed), key=len)
    found = ids(search_all(api(), {"query": word}))
    assert renamed["id"] in found and found == oracle.search(word)
    ranks = [oracle.rank(catalog.world.companies[c], word) for c in found]
    assert ranks == sorted(ranks) and ranks[-1] == 1  # former names (or city) after every current-name match
    lengths = [len(catalog.world.companies[c]["name"]["name"]) for c, r in zip(found, ranks) if r == 0]
    assert lengths == sorted(lengths)  # shorter names first


def test_register_number_and_city_are_matched(api, catalog, oracle):
    company = list(catalog.world.companies.values())[123]
    number = company["register"]["register_number"]
    assert company["id"] in ids(search_all(api(), {"query": number}))
    city = company["address"]["city"]
    found = ids(search_all(api(), {"query": city}))
    assert company["id"] in found and found == oracle.search(city)


@pytest.mark.parametrize("query", ["Bau GmbH", "gmbh", "co kg", "Handel", "xyzzy", "12 34", "  ", "GmbH & Co. KG"])
def test_text_queries_agree_with_the_oracle(api, oracle, query):
    session = api()
    first = session.post(SEARCH, json={"query": query, "pagination": {"per_page": 100}}).json()
    expected = oracle.search(query)
    assert first["pagination"]["total_results"] == len(expected)
    assert ids(first["results"]) == expected[:100]


def test_no_query_lists_every_company_by_id(api, catalog):
    page = api().post(SEARCH, json={}).json()
    assert page["pagination"] == {
        "page": 1,
        "per_page": 10,
        "total_pages": math.ceil(len(catalog.world.companies) / 10),
        "total_results": len(catalog.world.companies),
    }
    assert ids(page["results"]) == sorted(catalog.world.companies)[:10]


# --- filters -------------------------------------------------------------------------------------------------


def _filters(world) -> list[dict]:
    companies = list(world.companies.values())
    sample = companies[77]
    with_purpose = next(c for c in companies if c["purpose"])
    return [
        {"field": "status", "value": "liquidation"},
        {"field": "status", "values": ["active", "inactive"]},
        {"field": "active", "value": "false"},
        {"field": "active", "value": "true"},
        {"field": "legal_form", "values": ["ag", "se", "kgaa"]},
        {"field": "register_type", "value": "GnR"},
        {"field": "register_court", "value": sample["register"]["register_court"]},
        {"field": "register_court", "value": sample["register"]["register_court"].removeprefix("Amtsgericht ").upper()},
        {"field": "register_court", "keywords": ["bad"]},
        {"field": "register_number", "value": sample["register"]["register_number"]},
        {"field": "register_number", "values": [c["register"]["register_number"].lower() for c in companies[:5]]},
        {"field": "city", "value": sample["address"]["city"].upper()},
        {"field": "city", "keywords": ["burg"]},
        {"field": "zip", "value": sample["address"]["postal_code"]},
        {"field": "zip", "keywords": ["10"]},
        {"field": "address", "keywords": ["strasse", "1"]},
        {"field": "address", "value": sample["address"]["formatted_value"]},
        {"field": "purpose", "keywords": [with_purpose["purpose"]["purpose"].split()[-1][:6], "gesellschaft"]},
        {"field": "incorporated_at", "min": "2015-01-01", "max": "2016-12-31"},
        {"field": "incorporated_at", "value": sample["incorporated_at"]},
        {"field": "industry_codes", "value": "C"},
        {"field": "industry_codes", "values": ["62", "46.1"]},
        {"field": "industry_codes", "value": sample["industry_codes"]["WZ2025"][0]["code"]},
        {"field": "capital_amount", "min": "25000", "max": "30000"},
        {"field": "capital_amount", "max": "12782.30"},
        {"field": "capital_currency", "value": "DEM"},
        {"field": "balance_sheet_total", "min": "1000000"},
        {"field": "revenue", "max": "15000000"},
        {"field": "equity", "min": "-100000", "max": "0"},
        {"field": "net_income", "max": "-1"},
        {"field": "cash", "min": "1e6"},
        {"field": "liabilities", "min": "100000", "max": "200000"},
        {"field": "employees", "min": "10", "max": "50"},
        {"field": "had_insolvency", "value": "true"},
        {"field": "has_open_insolvency", "value": "true"},
        {"field": "has_open_insolvency", "value": "false"},
        {"field": "has_lei", "value": "true"},
    ]


FILTERS = _filters(load_catalog().world)  # the session's catalog (cached per process)


def test_every_served_field_is_tested():
    assert {f["field"] for f in FILTERS} == set(SERVED_FIELDS)


@pytest.mark.parametrize("item", FILTERS, ids=lambda f: f"{f['field']}:{next(k for k in f if k != 'field')}")
def test_each_filter_selects_what_the_records_say(api, oracle, item):
    expected = oracle.search(None, [item])
    assert expected, f"the world has no company for {item}; choose another value"
    session = api()
    first = session.post(SEARCH, json={"filters": [item], "pagination": {"per_page": 100}}).json()
    assert first["pagination"]["total_results"] == len(expected)
    assert ids(first["results"]) == expected[:100]
    last_page = first["pagination"]["total_pages"]
    last = session.post(SEARCH, json={"filters": [item], "pagination": {"page": last_page, "per_page": 100}}).json()
    assert ids(last["results"]) == expected[(last_page - 1) * 100 :]


@pytest.mark.parametrize(
    "filters",
    [
        [{"field": "status", "value": "liquidation"}],
        [{"field": "legal_form", "values": ["ag", "se", "kgaa", "gmbh", "ug", "kg"]}],  # more values than compared
        [{"field": "register_type", "value": "HRB"}, {"field": "active", "value": "false"}],
    ],
    ids=["one value", "six values", "two filters"],
)
def test_filtered_pages_read_in_small_chunks_of_the_id_order_agree_with_the_oracle(api, oracle, filters, monkeypatch):
    """A search without text reads the id order a chunk at a time until its page is full: with chunks of 7
    companies, the first, a middle and the last page and the totals are still the oracle's."""
    monkeypatch.setattr(company_index, "_ORDER_CHUNK", 7)
    expected = oracle.search(None, filters)
    assert len(expected) > 60, "choose filters that select several pages"
    session = api()
    pages = math.ceil(len(expected) / 20)
    for page in (1, pages // 2, pages):
        body = {"filters": filters, "pagination": {"page": page, "per_page": 20}}
        answer = session.post(SEARCH, json=body).json()
        assert answer["pagination"]["total_results"] == len(expected)
        assert ids(answer["results"]) == expected[(page - 1) * 20 : page * 20]


@pytest.mark.parametrize(
    "query, filters",
    [
        ("gmbh", [{"field": "capital_amount", "min": "100000"}, {"field": "status", "value": "active"}]),
        ("müller", [{"field": "legal_form", "value": "gmbh"}]),
        ("handel", [{"field": "industry_codes", "value": "G"}, {"field": "had_insolvency", "value": "false"}]),
        ("service", [{"field": "city", "keywords": ["berg"]}]),
    ],
)
def test_text_and_filters_together(api, oracle, query, filters):
    found = ids(search_all(api(), {"query": query, "filters": filters}))
    assert found == oracle.search(query, filters)


@pytest.mark.parametrize("dense_min", [1, 40])
def test_every_plan_gives_the_same_answers(catalog, dense_min):
    """Bitmaps of common words, unions for prefixes, and words read from FTS5 are plans for one answer."""
    rows = [company_row(c, open_insolvency=False) for c in catalog.world.companies.values()]
    planned, plain = CompanyIndex.in_memory(rows, dense_min=dense_min), CompanyIndex.in_memory(rows, dense_min=10**9)
    longest = sorted((c["name"]["name"] for c in catalog.world.companies.values()), key=lambda n: (-len(n.split()), n))
    try:
        queries = [
            "gmbh",
            "g",
            "gm",
            "müller b",
            "co kg",
            "bau gmbh",
            "hamburg",
            "hand",
            "handel",
            "servi",
            "management gm",
            "müller hand",
            # long queries: bitmaps combined rarest first, stopping when none is left; the world's longest names
            "gmbh co kg e v i l inh k ug haftungsbeschrankt handel service management consulting projekte dr",
            "GmbH & Co. KG i.L. e.V. Inh. e.K. Handel",
            *longest[:3],
        ]
        for query, filters in itertools.product(queries, [[], [{"field": "legal_form", "values": ["gmbh", "kg"]}]]):
            request = parse_company_search({"query": query, "filters": filters, "pagination": {"per_page": 100}})
            assert planned.search(request) == plain.search(request), (query, filters)
            first = plain.search(parse_company_search({"query": query}))[0]
            assert planned.autocomplete(query, 10) == plain.autocomplete(query, 10) == first
    finally:
        planned.close()
        plain.close()


_TEXT = st.text(alphabet="ab -,1ä", max_size=12)


@given(labels=st.lists(_TEXT, unique=True, max_size=30), keywords=st.lists(_TEXT.filter(str.strip), min_size=1))
def test_keywords_find_exactly_the_values_containing_them(labels, keywords):
    found = TextLabels(labels).containing_all(keywords).tolist()
    assert found == [all(k in label for k in keywords) for label in labels]


@pytest.mark.parametrize("module", [company_rows, company_text], ids=lambda m: m.__name__)
def test_examples_run(module):
    assert doctest.testmod(module).failed == 0


# --- refusals: free, with what to do ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, code, says",
    [
        ({"filters": [{"field": "ebitda", "min": "1"}]}, "unsupported_filter", "status, active, legal_form"),
        ({"filters": [{"field": "lei", "value": "x"}]}, "unsupported_filter", "it filters on"),
        ({"filters": [{"field": "colour", "value": "red"}]}, "invalid_filter", "filters on: status"),
        ({"filters": [{"field": "status", "value": "dissolved"}]}, "invalid_filter", "active, inactive, liquidation"),
        ({"filters": [{"field": "purpose", "value": "x"}]}, "invalid_filter", "takes keywords"),
        ({"filters": [{"field": "revenue", "min": "lots"}]}, "invalid_filter", "number"),
        ({"filters": [{"field": "revenue", "min": "10", "max": "1"}]}, "invalid_filter", "above max"),
        ({"filters": [{"field": "incorporated_at", "min": "01.02.2020"}]}, "invalid_filter", "YYYY-MM-DD"),
        ({"filters": [{"field": "industry_codes", "value": "62.1O"}]}, "invalid_filter", "WZ 2025"),
        ({"filters": [{"field": "city", "value": "Kiel", "keywords": ["x"]}]}, "invalid_filter", "exactly one"),
        ({"location": {"latitude": 52.5, "longitude": 13.4, "radius": 10}}, "unsupported_location", "city"),
        ({"pagination": {"per_page": 101}}, "invalid_pagination", "between 1 and 100"),
        ({"query": "x", "sort": "name"}, "invalid_body", "query, filters, location and pagination"),
        ({"query": "in " * (MAX_QUERY_TERMS + 1)}, "invalid_body", "at most"),
    ],
)
def test_refused_bodies_are_free_400s_that_say_what_to_do(api, body, code, says):
    session = api()
    before = used(api)
    response = session.post(SEARCH, json=body)
    assert error_of(response) == (400, code) and charged(response) == 0
    assert says in response.json()["error"]["message"]
    assert used(api) == before


def test_the_document_lists_exactly_the_parsers_fields():
    import openregister.types.search_find_companies_v1_params as sdk

    schemas = load_openapi()["components"]["schemas"]
    live = typing.get_args(typing.get_type_hints(sdk.Filter)["field"])
    assert set(schemas["CompanyFilterField"]["enum"]) == set(live) == set(SERVED_FIELDS) | set(LIVE_ONLY_FIELDS)
    assert schemas["CompanyFilterField"]["x-regkit-served"] == list(SERVED_FIELDS)
    groups = schemas["CompanyFilter"]["oneOf"]
    derived = {
        g["oneOf"][0]["properties"]["field"]["const"]: frozenset(
            m for v in g["oneOf"] for m in v["properties"] if m != "field"
        )
        for g in groups
        if "oneOf" in g
    }
    assert derived == dict(FIELD_MEMBERS) and tuple(derived) == SERVED_FIELDS
    assert groups[-1]["properties"]["field"]["enum"] == [f for f in live if f in LIVE_ONLY_FIELDS]


# --- paging and charging -------------------------------------------------------------------------------------


def test_a_page_past_the_end_is_empty_with_correct_totals(api, oracle):
    expected = oracle.search("gmbh")
    page = api().post(SEARCH, json={"query": "gmbh", "pagination": {"page": 999, "per_page": 50}}).json()
    assert page == {
        "results": [],
        "pagination": {
            "page": 999,
            "per_page": 50,
            "total_pages": math.ceil(len(expected) / 50),
            "total_results": len(expected),
        },
    }


def test_a_search_costs_10_credits_whatever_it_finds(api):
    session = api()
    before = used(api)
    for body in ({"query": "gmbh", "pagination": {"per_page": 100}}, {"query": "xyzzy"}):
        response = session.post(SEARCH, json=body)
        assert response.status_code == 200 and charged(response) == PRICES["company_search"] == 10
    assert used(api) == before + 20


def test_a_search_whose_client_has_gone_is_not_charged(register, api):
    before = used(api)
    response = register.app.test_client().post(
        SEARCH,
        json={"query": "gmbh"},
        headers={"Authorization": f"Bearer {PAID}"},
        environ_overrides={"waitress.client_disconnected": lambda: True},
    )
    assert response.status_code == 200 and response.headers["X-Credits-Charged"] == "0"
    assert used(api) == before


def test_without_credits_a_search_is_a_402_and_autocomplete_still_answers(api):
    session = api(EMPTY)
    assert error_of(session.post(SEARCH, json={"query": "gmbh"})) == (402, "insufficient_credits")
    response = session.get(COMPLETE, params={"query": "gmbh"})
    assert response.status_code == 200 and response.json()["results"]


# --- autocomplete ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["mü", "Mueller H", "gmbh", "Optih", "co kg", "Hamburg"])
def test_autocomplete_is_the_first_ten_of_the_search_and_free(api, oracle, query):
    session = api()
    before = used(api)
    response = session.get(COMPLETE, params={"query": query})
    assert response.status_code == 200 and charged(response) == PRICES["autocomplete"] == 0
    results = response.json()["results"]
    assert len(results) <= AUTOCOMPLETE_LIMIT == 10
    assert ids(results) == oracle.search(query)[:10]
    assert used(api) == before


@pytest.mark.parametrize(
    "params, says",
    [
        ({}, "query parameter 'query'"),
        ({"query": "m"}, "has 1 character;"),
        ({"query": "m" * 201}, "send 2 to 200"),
        ({"query": ["ab", "cd"]}, "once"),
    ],
)
def test_autocomplete_refuses_what_the_document_refuses(api, params, says):
    response = api().get(COMPLETE, params=params)
    assert error_of(response) == (400, "invalid_query") and charged(response) == 0
    assert says in response.json()["error"]["message"]


@pytest.mark.parametrize("query", ["--", "@\U0004e9b3", "- " * 100])
def test_autocomplete_of_text_no_name_can_match_is_empty(api, query):
    # the document allows these (2 to 200 characters): no letter or digit
    response = api().get(COMPLETE, params={"query": query})
    assert response.status_code == 200 and response.json() == {"results": []} and charged(response) == 0


def test_autocomplete_counts_the_characters_as_sent(api):
    # "  m  " has 5 characters as sent (the document's minLength counts them); blanks are ignored for matching
    session = api()
    assert (
        session.get(COMPLETE, params={"query": "  m  "}).json() == session.get(COMPLETE, params={"query": "m "}).json()
    )
    assert session.get(COMPLETE, params={"query": "  m  "}).json()["results"]


def test_autocomplete_takes_2_to_200_characters(api):
    session = api()
    assert session.get(COMPLETE, params={"query": "mü"}).status_code == 200
    assert session.get(COMPLETE, params={"query": "m" * 200}).json() == {"results": []}


def test_autocomplete_needs_a_key_and_counts_against_the_rate_limit(make_register):
    register = make_register(rate_limit=2, rate_burst=2)
    assert error_of(session_for(register, None).get(f"{register.base_url}{COMPLETE}", params={"query": "mü"}))[0] == 401
    session = session_for(register, PAID)
    url = f"{register.base_url}{COMPLETE}"
    assert [session.get(url, params={"query": "mü"}).status_code for _ in range(2)] == [200, 200]
    limited = session.get(url, params={"query": "mü"})
    assert error_of(limited) == (429, "rate_limited") and int(limited.headers["Retry-After"]) >= 1
    assert error_of(session.post(f"{register.base_url}{SEARCH}", json={}))[0] == 429  # the same bucket


# --- over loopback -------------------------------------------------------------------------------------------


def test_search_and_autocomplete_over_loopback(remote, oracle):
    session = remote()
    page = session.post(SEARCH, json={"query": {"value": "Müller"}, "pagination": {"per_page": 100}})
    assert page.status_code == 200 and charged(page) == 10
    assert ids(page.json()["results"]) == oracle.search("müller")[:100]
    complete = session.get(COMPLETE, params={"query": "Müller H"})
    assert ids(complete.json()["results"]) == oracle.search("müller h")[:10] and charged(complete) == 0
    refused = session.post(SEARCH, json={"filters": [{"field": "ebit", "min": "1"}]})
    assert error_of(refused) == (400, "unsupported_filter")
    assert error_of(session.post(SEARCH, data=b'{"query": ')) == (400, "invalid_json")


# --- the document and the register agree on bodies -----------------------------------------------------------

_VALUES = st.sampled_from(
    [
        "gmbh",
        "active",
        "liquidation",
        "true",
        "false",
        "GnR",
        "EUR",
        "DEM",
        "Freiburg",
        "Amtsgericht Freiburg",
        "12345 B",
        "2024-02-29",
        "2023-02-29",
        "2024-1-01",
        "C",
        "V",
        "W",
        "62",
        "62.10.0",
        "62.100",
        "1e6",
        "-5",
        "+12.5",
        ".5",
        "5.",
        "1e",
        "abc",
        " ",
        "",
        "\x1c",
        "k" * 256,
        "k" * 257,
    ]
)
_FIELDS = st.sampled_from([*SERVED_FIELDS, "ebit", "lei", "colour"])
_MEMBER = {
    "value": _VALUES,
    "values": st.lists(_VALUES, min_size=0, max_size=3),
    "keywords": st.lists(_VALUES, min_size=0, max_size=3),
    "min": _VALUES,
    "max": _VALUES,
}


_POOLS = {
    "status": ["active", "liquidation", "Active"],
    "legal_form": ["gmbh", "ag", "GmbH"],
    "register_type": ["HRB", "GnR", "hrb"],
    "capital_currency": ["EUR", "DEM", "eur"],
    "incorporated_at": ["2010-01-01", "2024-02-29", "2023-02-29", "2024-1-01"],
    "industry_codes": ["C", "62", "62.10.0", "W", "62.100"],
    **dict.fromkeys(["active", "had_insolvency", "has_open_insolvency", "has_lei"], ["true", "false", "yes"]),
    **dict.fromkeys(
        [
            "capital_amount",
            "employees",
            "balance_sheet_total",
            "revenue",
            "equity",
            "net_income",
            "cash",
            "liabilities",
        ],
        ["1e6", "-5", "+12.5", ".5", "5.", "1000", "1e", "abc"],
    ),
}


@st.composite
def _filter(draw):
    field = draw(_FIELDS)
    if field not in FIELD_MEMBERS or draw(st.booleans()):  # anything, mostly wrong
        members = draw(
            st.sampled_from([["value"], ["values"], ["keywords"], ["min"], ["min", "max"], ["value", "values"], []])
        )
        return {"field": field, **{m: draw(_MEMBER[m]) for m in members}}
    fitting = sorted(FIELD_MEMBERS[field])  # one way that fits, values of the field, some of them wrong
    members = draw(st.sampled_from([["min"], ["max"], ["min", "max"]] if "min" in fitting else [[m] for m in fitting]))
    pool = st.sampled_from(
        _POOLS.get(field, ["Freiburg", "Amtsgericht Freiburg", "12345 B", "strasse", " ", "k" * 257])
    )
    return {
        "field": field,
        **{m: draw(st.lists(pool, min_size=1, max_size=2) if m in ("values", "keywords") else pool) for m in members},
    }


_BODIES = st.fixed_dictionaries(
    {},
    optional={
        "query": st.sampled_from(
            [
                "gmbh",
                {"value": "müller"},
                None,
                "a b c d e f g h i j k",
                "a " * MAX_QUERY_TERMS,
                "a " * (MAX_QUERY_TERMS + 1),
                5,
            ]
        ),
        "filters": st.lists(_filter(), max_size=3),
        "location": st.sampled_from([None, {"latitude": 1.0, "longitude": 2.0}]),
        "pagination": st.sampled_from([None, {"per_page": 33.0}, {"page": 0}, {"per_page": 100}]),
    },
)


def documented(body) -> bool:
    """Whether the document's ``CompanySearchRequest`` accepts ``body``, with the rules it states in words: at
    most ``x-regkit-max-terms`` terms, no location and no live-only field in the local register, min not above
    max."""
    from openapi_check import schema_validator

    if list(schema_validator("/components/schemas/CompanySearchRequest").iter_errors(body)):
        return False
    query = body.get("query")
    text = query.get("value") if isinstance(query, dict) else query
    terms = load_openapi()["components"]["schemas"]["CompanySearchRequest"]["properties"]["query"]["x-regkit-max-terms"]
    if isinstance(text, str) and len(query_terms(text)) > terms or body.get("location") is not None:
        return False
    for item in body.get("filters") or ():
        if item["field"] in LIVE_ONLY_FIELDS:
            return False
        if "min" in item and "max" in item:
            low, high = item["min"], item["max"]
            if (low > high) if item["field"] == "incorporated_at" else (float(low) > float(high)):
                return False
    return True


@pytest.mark.slow
@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=_BODIES)
def test_the_register_accepts_exactly_what_the_document_accepts(api, body):
    response = api().post(SEARCH, json=body)  # every answer is also checked against the document
    assert response.status_code in (200, 400), response.text[:300]
    assert (response.status_code == 200) == documented(body), (body, response.text[:300])


def test_columns_with_one_value_for_every_company_filter_as_the_records_say(catalog):
    """An OffeneRegister world holds no capital, financials, insolvencies or LEIs and often one status or
    currency: the index writes such columns without reading them row by row. Every filter still selects what
    the records say — over a world where each of those columns holds one value (or none) for every company."""
    companies = {}
    for company_id, company in catalog.world.companies.items():
        company = dict(company, status="active", indicators=[], insolvencies=[], lei=None)
        company["capital"] = None
        companies[company_id] = company
    oracle = CompanyOracle(types.SimpleNamespace(companies=companies, insolvencies={}))
    index = CompanyIndex.in_memory(company_row(c, open_insolvency=False) for c in companies.values())
    filters = [
        *FILTERS,
        {"field": "status", "value": "active"},
        {"field": "status", "values": ["liquidation", "inactive"]},
        {"field": "capital_currency", "value": "EUR"},
        {"field": "capital_amount", "min": "0"},
        {"field": "revenue", "min": "-1e12"},
        {"field": "has_lei", "value": "false"},
        {"field": "had_insolvency", "value": "false"},
    ]
    try:
        for item in filters:
            request = parse_company_search({"filters": [item], "pagination": {"per_page": 100}})
            results, total = index.search(request)
            expected = oracle.search(None, [item])
            assert (total, ids(results)) == (len(expected), expected[:100]), item
        everyone = parse_company_search({"filters": [{"field": "active", "value": "true"}]})
        assert index.search(everyone)[1] == len(companies)  # the constant column selects every company
    finally:
        index.close()
