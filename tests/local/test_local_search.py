"""Insolvency search (FTS5, filters, paging) and the insolvency detail endpoint."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from local_support import EMPTY, charged, error_of, filter_matches
from local_support import search_all as search_every_page

from regkit.local.exceptions import ApiError
from regkit.local.search.query import fold, match_expression
from regkit.local.search.request import parse_search_request
from regkit.schema.interface import FILTER_FIELDS

SEARCH = "/v1/search/insolvency"
DATE_FIELDS = ("opened_at", "closed_at", "last_event_at", "claims_filing_deadline")


def search_all(session, body):
    """Every result of an insolvency search, paging at 100 (``local_support.search_all``)."""
    return search_every_page(session, SEARCH, body)


def order(proceedings):
    """Ids in the interface's order: last_event_at descending (nulls last), then id."""
    ranked = sorted(proceedings, key=lambda p: p["id"])
    ranked.sort(key=lambda p: p.get("last_event_at") or "", reverse=True)
    return [p["id"] for p in ranked]


# --- unit: folding and the FTS expression ---------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b",
    [
        ("Müller", "Mueller"),
        ("Müller", "muller"),
        ("STRASSE", "Straße"),
        ("Bölükbasi", "Boelukbasi"),
        ("Hüttges", "huttges"),
        ("Äpfel", "Aepfel"),
    ],
)
def test_fold_unifies_german_spellings(a, b):
    assert fold(a) == fold(b)


@given(st.text(alphabet="aeousAEOUSäöüßÄÖÜx ", max_size=24))
def test_fold_replaces_each_digraph_once_from_the_left(text):
    """The digraphs folded as one left-to-right pass of a regular expression folds them ("sss" → "ss")."""
    lowered = text.lower().translate(str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "s"}))
    assert fold(text) == re.sub(r"ae|oe|ue|ss", lambda m: m.group()[0], lowered)


def test_match_expression_quotes_tokens_and_prefixes_the_last_word():
    assert match_expression('Müller "Bau') == '"muller" "bau"*'
    assert match_expression("IN 1953/19") == '"in" "1953 19"*'
    assert match_expression("--- ") is None


@given(st.text(max_size=40))
def test_match_expression_never_breaks_fts_syntax(text):
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='unicode61 remove_diacritics 2')")
    expression = match_expression(text)
    if expression is not None:
        conn.execute("SELECT * FROM t WHERE t MATCH ?", (expression,)).fetchall()


# --- text query ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["Müller", "Mueller", "muller", "MÜLLER", {"value": "mueller"}])
def test_spelling_variants_find_the_same_debtors(api, catalog, query):
    results = search_all(api(), {"query": query})
    expected = [
        p
        for p in catalog.world.insolvencies.values()
        if any(
            "muller" == fold(word)
            for f in ("debtor_name", "administrator_name", "court")
            for word in (p.get(f) or "").replace("&", " ").split()
        )
    ]
    assert {"Friedhelm Müller", "Harry Müller"} <= {r["debtor_name"] for r in results}
    assert {p["id"] for p in expected} <= {r["id"] for r in results}


def test_every_word_must_match_and_the_last_is_a_prefix(api, catalog):
    target = next(p for p in catalog.world.insolvencies.values() if p["debtor_name"] == "Friedhelm Müller")
    results = search_all(api(), {"query": "Friedhel Müll"})
    assert results == []
    results = search_all(api(), {"query": "Friedhelm Müll"})
    assert [r["id"] for r in results] == [target["id"]]


def test_case_number_court_and_administrator_are_searchable(api, catalog):
    target = next(iter(catalog.world.insolvencies.values()))
    session = api()
    for query in (
        target["case_number"],
        f"{target['court']} {target['case_number']}",
        target["administrator_name"].split()[-1],
    ):
        assert target["id"] in {r["id"] for r in search_all(session, {"query": query})}, query


@pytest.mark.parametrize("query", ["", "   ", None, "?!"])
def test_blank_query_matches_everything(api, catalog, query):
    response = api().post(SEARCH, json={"query": query})
    assert response.json()["pagination"]["total_results"] == len(catalog.world.insolvencies)


# --- filters, order and paging -------------------------------------------------------------------------


def test_empty_body_lists_all_in_order_with_default_paging(api, catalog):
    session = api()
    for body in ({}, None):
        response = session.post(SEARCH, json=body) if body is not None else session.post(SEARCH)
        assert response.status_code == 200
        page = response.json()
        total = len(catalog.world.insolvencies)
        assert page["pagination"] == {
            "page": 1,
            "per_page": 10,
            "total_pages": math.ceil(total / 10),
            "total_results": total,
        }
        assert [r["id"] for r in page["results"]] == order(catalog.world.insolvencies.values())[:10]
        assert charged(response) == 10


def test_results_carry_the_search_members_of_the_world(api, catalog):
    result = api().post(SEARCH, json={"pagination": {"per_page": 1}}).json()["results"][0]
    stored = catalog.world.insolvencies[result["id"]]
    assert result == {k: stored.get(k) for k in result}


def _filter_cases(catalog):
    proceedings = list(catalog.world.insolvencies.values())
    sample = proceedings[7]
    opened = sorted(p["opened_at"] for p in proceedings if p.get("opened_at"))
    cases = [
        {"field": "current_status", "value": "opened"},
        {"field": "current_status", "values": ["lifted", "discharge_granted"]},
        {"field": "proceeding_kind", "value": "consumer_insolvency"},
        {"field": "administration_kind", "values": ["self_administration", "protective_shield"]},
        {"field": "insolvency_grounds", "value": "over_indebtedness"},
        {"field": "insolvency_grounds", "values": ["imminent_illiquidity", "over_indebtedness"]},
        {"field": "has_open_insolvency", "value": "true"},
        {"field": "has_open_insolvency", "value": "false"},
        {"field": "debtor_kind", "value": "natural_person"},
        {"field": "debtor_legal_form", "values": ["gmbh", "ug"]},
        {"field": "court", "value": sample["court"].upper()},
        {"field": "court", "values": ["Amtsgericht Lübeck", "amtsgericht luebeck", "Amtsgericht Kiel"]},
        {"field": "court", "keywords": ["amtsgericht", "LUEBECK"]},
        {"field": "city", "value": "Köln"},
        {"field": "city", "keywords": ["freiburg"]},
        {"field": "opened_at", "value": sample["opened_at"]},
        {"field": "opened_at", "min": opened[len(opened) // 2]},
        {"field": "opened_at", "min": opened[100], "max": opened[400]},
        {"field": "closed_at", "max": "2020-12-31"},
        {"field": "last_event_at", "min": "2024-01-01", "max": "2024-12-31"},
        {"field": "claims_filing_deadline", "min": "2022-01-01"},
        {"field": "company_id", "value": next(p["company_id"] for p in proceedings if p.get("company_id"))},
        {"field": "person_id", "values": [p["person_id"] for p in proceedings if p.get("person_id")][:3]},
    ]
    assert {c["field"] for c in cases} == set(FILTER_FIELDS)
    return cases


@pytest.mark.slow
def test_every_filter_field_matches_the_oracle(api, catalog):
    session = api()
    for item in _filter_cases(catalog):
        expected = order(p for p in catalog.world.insolvencies.values() if filter_matches(p, item))
        assert expected, item
        assert [r["id"] for r in search_all(session, {"filters": [item]})] == expected, item


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_filter_combinations_match_the_oracle(api, catalog, data):
    cases = _filter_cases(catalog)
    chosen = data.draw(st.lists(st.sampled_from(cases), min_size=1, max_size=3))
    page = data.draw(st.integers(1, 4))
    per_page = data.draw(st.integers(1, 100))
    expected = order(p for p in catalog.world.insolvencies.values() if all(filter_matches(p, c) for c in chosen))
    response = api().post(SEARCH, json={"filters": chosen, "pagination": {"page": page, "per_page": per_page}})
    body = response.json()
    assert body["pagination"] == {
        "page": page,
        "per_page": per_page,
        "total_results": len(expected),
        "total_pages": math.ceil(len(expected) / per_page),
    }
    assert [r["id"] for r in body["results"]] == expected[(page - 1) * per_page : page * per_page]


def test_text_and_filters_combine(api, catalog):
    results = search_all(
        api(),
        {
            "query": "GmbH",
            "filters": [
                {"field": "court", "value": "Amtsgericht Stuttgart"},
                {"field": "has_open_insolvency", "value": "true"},
            ],
        },
    )
    assert results
    assert all(r["court"] == "Amtsgericht Stuttgart" and r["has_open_insolvency"] for r in results)
    assert all("gmbh" in fold(r["debtor_name"]) or "gmbh" in fold(r["administrator_name"]) for r in results)


def test_page_past_the_end_is_empty_with_correct_totals(api, catalog):
    total = len(catalog.world.insolvencies)
    for page in (math.ceil(total / 100) + 1, 10**15):
        body = api().post(SEARCH, json={"pagination": {"page": page, "per_page": 100}}).json()
        assert body["results"] == []
        assert body["pagination"] == {
            "page": page,
            "per_page": 100,
            "total_pages": math.ceil(total / 100),
            "total_results": total,
        }


def test_text_page_past_the_end_keeps_the_total(api):
    session = api()
    total = session.post(SEARCH, json={"query": "gmbh"}).json()["pagination"]["total_results"]
    assert total > 0
    body = session.post(SEARCH, json={"query": "gmbh", "pagination": {"page": total + 1, "per_page": 1}}).json()
    assert body["results"] == [] and body["pagination"]["total_results"] == total


def test_no_match_has_zero_pages(api):
    body = api().post(SEARCH, json={"query": "Zzyzzxq"}).json()
    assert body == {"results": [], "pagination": {"page": 1, "per_page": 10, "total_pages": 0, "total_results": 0}}


# --- malformed bodies ------------------------------------------------------------------------------------

BAD_BODIES = [
    ({"filters": [{"field": "colour", "value": "red"}]}, "invalid_filter"),
    ({"filters": [{"field": "court", "value": "A", "values": ["B"]}]}, "invalid_filter"),
    ({"filters": [{"field": "court"}]}, "invalid_filter"),
    ({"filters": [{"field": "opened_at", "value": "2020-01-01", "min": "2019-01-01"}]}, "invalid_filter"),
    ({"filters": [{"field": "opened_at", "min": "2020-13-01"}]}, "invalid_filter"),
    ({"filters": [{"field": "opened_at", "max": "01.01.2020"}]}, "invalid_filter"),
    ({"filters": [{"field": "opened_at", "keywords": ["2020"]}]}, "invalid_filter"),
    ({"filters": [{"field": "current_status", "value": "bankrupt"}]}, "invalid_filter"),
    ({"filters": [{"field": "current_status", "keywords": ["open"]}]}, "invalid_filter"),
    ({"filters": [{"field": "has_open_insolvency", "value": True}]}, "invalid_filter"),
    ({"filters": [{"field": "has_open_insolvency", "values": ["true"]}]}, "invalid_filter"),
    ({"filters": [{"field": "court", "values": []}]}, "invalid_filter"),
    ({"filters": [{"field": "court", "value": 3}]}, "invalid_filter"),
    ({"filters": [{"field": "court", "value": "A", "extra": 1}]}, "invalid_filter"),
    ({"filters": ["court"]}, "invalid_filter"),
    ({"filters": {"field": "court", "value": "A"}}, "invalid_body"),
    ({"query": 42}, "invalid_body"),
    ({"query": {"text": "x"}}, "invalid_body"),
    ({"sort": "name"}, "invalid_body"),
    ({"pagination": {"per_page": 0}}, "invalid_pagination"),
    ({"pagination": {"per_page": 101}}, "invalid_pagination"),
    ({"pagination": {"page": 0}}, "invalid_pagination"),
    ({"pagination": {"page": "2"}}, "invalid_pagination"),
    ({"pagination": {"page": 1.5}}, "invalid_pagination"),
    ({"pagination": {"page": True}}, "invalid_pagination"),
    ({"pagination": {"size": 10}}, "invalid_pagination"),
    ([], "invalid_body"),
]


@pytest.mark.parametrize("body, code", BAD_BODIES)
def test_malformed_search_is_400_and_free(api, body, code):
    response = api().post(SEARCH, json=body)
    assert error_of(response) == (400, code)
    assert charged(response) == 0


@pytest.mark.parametrize("data", [b"{", b"\xff\xfe", b"[" * 100000, b"nul"])
def test_malformed_json_is_400(api, data):
    response = api().post(SEARCH, data=data, headers={"Content-Type": "application/json"})
    assert error_of(response)[0] == 400
    assert error_of(response)[1] in ("invalid_json", "invalid_body")


def test_search_without_credits_is_402(api):
    assert error_of(api(EMPTY).post(SEARCH, json={})) == (402, "insufficient_credits")


def test_parser_rejects_unknown_member_kind_directly():
    with pytest.raises(ApiError) as caught:
        parse_search_request({"filters": [{"field": "city", "min": "A"}]})
    assert caught.value.status == 400


# --- insolvency detail -------------------------------------------------------------------------------------


def test_insolvency_detail_has_events_and_no_search_only_members(api, catalog):
    proceeding = next(iter(catalog.world.insolvencies.values()))
    response = api().get(f"/v1/insolvency/{proceeding['id']}")
    assert response.status_code == 200
    assert charged(response) == 10
    body = response.json()
    assert body["events"] == proceeding["events"]
    assert not {"city", "person_id", "has_open_insolvency"} & set(body)


def test_unknown_grounds_are_null_in_search_and_an_empty_array_in_the_detail(api, catalog):
    # the live client allows null grounds only in search results; the detail always has the array
    unknown = [p for p in catalog.world.insolvencies.values() if p["insolvency_grounds"] is None]
    assert unknown
    session = api()
    found = session.post(
        "/v1/search/insolvency",
        json={"query": unknown[0]["case_number"], "filters": [{"field": "court", "value": unknown[0]["court"]}]},
    ).json()["results"]
    assert [r["insolvency_grounds"] for r in found if r["id"] == unknown[0]["id"]] == [None]
    detail = session.get(f"/v1/insolvency/{unknown[0]['id']}").json()
    assert detail["insolvency_grounds"] == []
    assert {k: v for k, v in detail.items() if k != "insolvency_grounds"} == {
        k: v
        for k, v in unknown[0].items()
        if k not in {"insolvency_grounds", "city", "person_id", "has_open_insolvency"}
    }


def test_insolvency_detail_serves_event_details_as_published_text(api, catalog):
    proceeding = next(p for p in catalog.world.insolvencies.values() if p["distribution_available"] is not None)
    events = api().get(f"/v1/insolvency/{proceeding['id']}").json()["events"]
    amounts = [e["details"]["distribution_available"] for e in events if e["details"]["distribution_available"]]
    assert amounts and all(isinstance(a, str) for a in amounts)


@pytest.mark.parametrize(
    "insolvency_id, status, code",
    [
        ("not-a-uuid", 400, "invalid_insolvency_id"),
        ("00000000-0000-4000-8000-000000000000", 404, "insolvency_not_found"),
    ],
)
def test_insolvency_detail_errors(api, insolvency_id, status, code):
    response = api().get(f"/v1/insolvency/{insolvency_id}")
    assert error_of(response) == (status, code)
    assert charged(response) == 0


def test_insolvency_detail_without_credits_is_402(api, catalog):
    proceeding_id = next(iter(catalog.world.insolvencies))
    assert error_of(api(EMPTY).get(f"/v1/insolvency/{proceeding_id}")) == (402, "insufficient_credits")
