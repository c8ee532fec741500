"""Contract test: the official client's person search (``search.find_person_v1``), strictly validating, against
``regkit serve``.

Expected persons come from the bundled world's records: the representation entries with a person id and a
published date of birth.
"""

from __future__ import annotations

from typing import Any

import pytest
from openregister import APIStatusError, BadRequestError

pytestmark = pytest.mark.serve


def code_of(error: APIStatusError) -> str:
    return error.body["error"]["code"]


def used(sdk) -> int:
    return sdk.usage.get_credits_v1().used_credits


@pytest.fixture(scope="module")
def born(world) -> dict[str, dict[str, Any]]:
    """Representatives with a published date of birth, by person id: their ``natural_person`` details."""
    found: dict[str, dict[str, Any]] = {}
    for company in world.companies.values():
        for entry in company["representation"]:
            details = entry.get("natural_person") or {}
            if entry["type"] == "natural_person" and entry.get("id") and details.get("date_of_birth"):
                found.setdefault(entry["id"], details)
    return found


def test_every_person_parses_strictly_across_all_pages(register, born):
    sdk = register.client()
    before = used(sdk)
    seen: list[str] = []
    page = 1
    while True:
        result = sdk.search.find_person_v1(pagination={"page": page, "per_page": 100})
        seen += [r.id for r in result.results]
        if page >= result.pagination.total_pages:
            break
        page += 1
    assert len(seen) == len(set(seen)) == result.pagination.total_results
    assert set(born) <= set(seen)  # every representative with a date of birth is listed
    assert used(sdk) == before + 10 * page


def test_a_person_is_found_by_name_with_their_date_of_birth(register, born):
    sdk = register.client()
    person_id, details = next(iter(sorted(born.items())))
    name = f"{details['first_name']} {details['last_name']}"
    result = sdk.search.find_person_v1(query={"value": name}, pagination={"per_page": 100})
    found = {r.id: r for r in result.results}
    assert person_id in found
    assert found[person_id].date_of_birth.isoformat() == details["date_of_birth"]


def test_filters_as_the_official_client_sends_them(register, born):
    sdk = register.client()
    day = sorted(d["date_of_birth"] for d in born.values())[len(born) // 2]
    by_day = sdk.search.find_person_v1(filters=[{"field": "date_of_birth", "value": day}])
    assert by_day.results and all(r.date_of_birth.isoformat() == day for r in by_day.results)
    city = next(d["city"] for d in born.values() if d.get("city") and " " not in d["city"])
    by_city = sdk.search.find_person_v1(
        filters=[{"field": "city", "keywords": [city.lower()]}, {"field": "active", "value": "true"}],
        pagination={"per_page": 100},
    )
    assert by_city.results
    assert all(city.lower() in (r.city or "").lower() and r.active for r in by_city.results)


def test_a_refused_person_search_is_a_bad_request_and_free(register):
    sdk = register.client()
    before = used(sdk)
    with pytest.raises(BadRequestError) as caught:
        sdk.search.find_person_v1(pagination={"per_page": 500})
    assert code_of(caught.value) == "invalid_pagination"
    assert used(sdk) == before
