"""Where fuzzing the served interface document found the register and the document disagreeing (issue 23), each
case pinned down: the register now answers what the document says.

Expected values come from the document (``regkit/schema/openapi.json``) and the world's records, not from the
register's parsers.
"""

from __future__ import annotations

import re

import pytest
from local_support import charged, error_of
from openapi_check import schema_validator

from regkit.schema.interface import load_openapi

SEARCHES = ["/v1/search/company", "/v1/search/insolvency", "/v1/search/person"]


@pytest.mark.parametrize("path", SEARCHES)
def test_a_search_without_a_body_is_the_search_of_an_empty_object(api, path):
    assert load_openapi()["paths"][path]["post"]["requestBody"]["required"] is False
    session = api()
    bare = session.post(path)
    assert bare.status_code == 200 and charged(bare) == 10
    assert bare.json() == session.post(path, json={}).json()


@pytest.mark.parametrize("path", SEARCHES)
def test_a_body_of_blanks_is_not_json(api, path):
    response = api().post(path, data=b" \n", headers={"Content-Type": "application/json"})
    assert error_of(response) == (400, "invalid_json") and charged(response) == 0


def _words(text: str | None) -> list[str]:
    return re.findall(r"[a-z0-9]+", (text or "").lower())


def test_the_person_search_takes_city_keywords_as_the_document_gives_them(api, catalog):
    listed = [p for p in catalog.people.values() if p.date_of_birth]
    city = next(p.city for p in listed if p.city and p.city.isascii() and " " not in p.city)
    expected = sum(1 for p in listed if city.lower() in _words(p.city))
    body = {"filters": [{"field": "city", "keywords": [city.lower()]}], "pagination": {"per_page": 100}}
    assert not list(schema_validator("/components/schemas/PersonSearchRequest").iter_errors(body))
    response = api().post("/v1/search/person", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["pagination"]["total_results"] == expected > 0


@pytest.mark.parametrize(
    "body",
    [
        {"filters": [{"field": "city", "keywords": [" "]}]},
        {"filters": [{"field": "city", "value": ""}]},
        {"filters": [{"field": "city", "values": ["\t"]}]},
        {"pagination": []},
        {"filters": {}},
    ],
)
def test_what_the_person_search_document_refuses_the_register_refuses(api, body):
    assert list(schema_validator("/components/schemas/PersonSearchRequest").iter_errors(body))
    response = api().post("/v1/search/person", json=body)
    assert response.status_code == 400 and charged(response) == 0


def test_the_autocomplete_refusals_are_declared_with_their_code():
    operation = load_openapi()["paths"]["/v1/autocomplete/company"]["get"]
    assert "`invalid_query`" in operation["responses"]["400"]["description"]
    query = operation["parameters"][0]["schema"]
    assert (query["minLength"], query["maxLength"]) == (2, 200)


@pytest.mark.parametrize(
    "bounds, status",
    [
        ({"max": "7e+1356830601010723395"}, 200),  # past what a Decimal holds: larger than any amount
        ({"min": "-7e+1356830601010723395"}, 200),
        ({"min": "7e-1356830601010723395"}, 200),  # closer to zero than any amount
        ({"min": ".7e+1356830601010723395", "max": "1"}, 400),  # min above max: nothing could match
    ],
)
def test_a_number_of_any_exponent_the_pattern_allows_is_no_server_error(api, bounds, status):
    body = {"filters": [{"field": "capital_amount", **bounds}]}
    assert not list(schema_validator("/components/schemas/CompanySearchRequest").iter_errors(body))
    assert api().post("/v1/search/company", json=body).status_code == status


@pytest.mark.parametrize(
    "path, field",
    [("/v1/search/insolvency", "company_id"), ("/v1/search/company", "city"), ("/v1/search/person", "city")],
)
def test_blank_means_what_the_documents_pattern_says(api, path, field):
    # the document's readers see U+001F as a character, not white space (Python's str.strip() would strip it)
    request = path.rsplit("/", 1)[1].capitalize()
    schema = schema_validator(f"/components/schemas/{request}SearchRequest")
    kept, blank = {"filters": [{"field": field, "value": "\x1f"}]}, {"filters": [{"field": field, "value": " \t"}]}
    assert not list(schema.iter_errors(kept)) and list(schema.iter_errors(blank))
    session = api()
    assert session.post(path, json=kept).status_code == 200
    assert error_of(session.post(path, json=blank)) == (400, "invalid_filter")


@pytest.mark.parametrize("path", SEARCHES)
def test_a_query_object_holds_a_text(api, path):
    request = path.rsplit("/", 1)[1].capitalize()
    body = {"query": {"value": None}}
    assert list(schema_validator(f"/components/schemas/{request}SearchRequest").iter_errors(body))
    response = api().post(path, json=body)
    assert response.status_code == 400 and charged(response) == 0
