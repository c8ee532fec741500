"""Contract test: the official client's company search and autocomplete, strictly validating, against ``regkit serve``.

``search.find_companies_v1`` and ``search.autocomplete_companies_v1`` of ``openregister-sdk`` are driven over real
HTTP; every company of the world must come back in a shape the client parses strictly, equal to the record it
comes from, and the register's refusals map to the client's ``BadRequestError`` with the register's code.
"""

from __future__ import annotations

from typing import Any

import pytest
from openregister import APIStatusError, AuthenticationError, BadRequestError

pytestmark = pytest.mark.serve


def dump(model: Any) -> dict[str, Any]:
    """What the client parsed, as JSON with the interface's member names (only members the server sent)."""
    return model.to_dict(mode="json")


def code_of(error: APIStatusError) -> str:
    return error.body["error"]["code"]


def used(sdk) -> int:
    return sdk.usage.get_credits_v1().used_credits


def as_found(record: dict[str, Any]) -> dict[str, Any]:
    """A world record as a search result shows it."""
    address = record["address"]
    return {
        "company_id": record["id"],
        "name": record["name"]["name"],
        "legal_form": record["legal_form"],
        "register_court": record["register"]["register_court"],
        "register_number": record["register"]["register_number"],
        "register_type": record["register"]["register_type"],
        "active": record["status"] != "inactive",
        "country": "DE",
        "purpose": record["purpose"]["purpose"] if record["purpose"] else None,
        "address": {
            **{k: address[k] for k in ("street", "city", "postal_code", "extra") if k in address},
            "country": "DE",
            "formatted_value": address["formatted_value"],
        },
    }


@pytest.mark.slow
def test_every_company_of_the_world_parses_strictly_in_id_order(register, world):
    sdk = register.client()
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        result = sdk.search.find_companies_v1(pagination={"page": page, "per_page": 100})
        found += [dump(item) for item in result.results]
        if page >= result.pagination.total_pages:
            break
        page += 1
    assert result.pagination.total_results == len(world.companies) == len(found)
    assert found == [as_found(world.companies[c]) for c in sorted(world.companies)]


def test_search_without_arguments_is_the_first_page_of_ten(register, world):
    result = register.client().search.find_companies_v1()
    assert [r.company_id for r in result.results] == sorted(world.companies)[:10]
    assert (result.pagination.page, result.pagination.per_page) == (1, 10)


def test_query_as_the_official_client_sends_it_costs_10(register, world):
    sdk = register.client()
    before = used(sdk)
    result = sdk.search.find_companies_v1(query={"value": "Mueller"}, pagination={"per_page": 100})
    assert result.results and used(sdk) == before + 10
    for item in result.results:
        record = world.companies[item.company_id]
        names = " ".join(n["name"] for n in record["names"]) + " " + record["address"]["city"]
        assert "müller" in names.lower() or "mueller" in names.lower()
        assert dump(item) == as_found(record)


@pytest.mark.parametrize(
    "filters",
    [
        [{"field": "legal_form", "values": ["ag", "se"]}, {"field": "active", "value": "true"}],
        [{"field": "incorporated_at", "min": "2010-01-01", "max": "2012-12-31"}],
        [{"field": "capital_amount", "min": "25000"}, {"field": "capital_currency", "value": "EUR"}],
        [{"field": "industry_codes", "value": "C"}, {"field": "has_open_insolvency", "value": "false"}],
        [{"field": "city", "keywords": ["burg"]}, {"field": "revenue", "min": "1000000"}],
        [{"field": "purpose", "keywords": ["software"]}, {"field": "has_lei", "value": "false"}],
    ],
)
def test_filters_of_every_kind(register, world, filters):
    result = register.client().search.find_companies_v1(filters=filters, pagination={"per_page": 100})
    assert result.pagination.total_results > 0
    assert [dump(r) for r in result.results] == [as_found(world.companies[r.company_id]) for r in result.results]


def test_a_page_past_the_end_is_empty(register):
    result = register.client().search.find_companies_v1(
        query={"value": "gmbh"}, pagination={"page": 10_000, "per_page": 100}
    )
    assert result.results == [] and result.pagination.total_results > 0
    assert result.pagination.total_pages == -(-result.pagination.total_results // 100)


def test_autocomplete_parses_strictly_and_is_free(register, world):
    sdk = register.client()
    before = used(sdk)
    for query in ("Mü", "Müller H", "gmbh", "Optihof"):
        found = sdk.search.autocomplete_companies_v1(query=query)
        assert 0 < len(found.results) <= 10
        assert [dump(r) for r in found.results] == [as_found(world.companies[r.company_id]) for r in found.results]
    assert used(sdk) == before


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda sdk: sdk.search.find_companies_v1(filters=[{"field": "ebitda", "min": "1"}]), "unsupported_filter"),
        (
            lambda sdk: sdk.search.find_companies_v1(location={"latitude": 52.5, "longitude": 13.4}),
            "unsupported_location",
        ),
        (lambda sdk: sdk.search.find_companies_v1(filters=[{"field": "status", "value": "gone"}]), "invalid_filter"),
        (lambda sdk: sdk.search.find_companies_v1(pagination={"per_page": 500}), "invalid_pagination"),
        (lambda sdk: sdk.search.autocomplete_companies_v1(query="m"), "invalid_query"),
    ],
    ids=["live-only filter", "location", "bad value", "page size", "short autocomplete"],
)
def test_refusals_are_bad_requests_and_free(register, call, code):
    sdk = register.client()
    before = used(sdk)
    with pytest.raises(BadRequestError) as caught:
        call(sdk)
    assert code_of(caught.value) == code
    assert used(sdk) == before


def test_without_a_key_both_are_401(register):
    sdk = register.client("no-such-key")
    with pytest.raises(AuthenticationError):
        sdk.search.find_companies_v1()
    with pytest.raises(AuthenticationError):
        sdk.search.autocomplete_companies_v1(query="gmbh")
