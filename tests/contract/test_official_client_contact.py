"""Contract test: the official client's contact data and lookup by website (``company.get_contact_v0``,
``search.lookup_company_by_url``), strictly validating, against ``regkit serve``.

Expected members come from the bundled world's records (``contact``); hosts are folded here by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from openregister import APIStatusError, BadRequestError, NotFoundError

pytestmark = pytest.mark.serve


def code_of(error: APIStatusError) -> str:
    return error.body["error"]["code"]


def used(sdk) -> int:
    return sdk.usage.get_credits_v1().used_credits


@pytest.fixture(scope="module")
def published(world) -> list[tuple[str, dict[str, Any]]]:
    """Every company publishing a website, in id order, with its contact."""
    return [(cid, rec["contact"]) for cid, rec in sorted(world.companies.items()) if rec.get("contact")]


def test_contact_parses_strictly_for_every_tenth_company_with_a_website(register, published):
    sdk = register.client()
    before = used(sdk)
    sample = published[::10]
    for company_id, contact in sample:
        parsed = sdk.company.get_contact_v0(company_id)
        assert parsed.to_dict(mode="json") == {
            "source_url": contact["website_url"],
            "email": contact.get("email"),
            "phone": contact.get("phone"),
            "vat_id": contact.get("vat_id"),
        }
    assert used(sdk) == before + 10 * len(sample)


def test_lookup_by_website_parses_strictly_and_finds_the_company(register, published):
    sdk = register.client()
    hosts: dict[str, list[str]] = {}
    for company_id, contact in published:
        hosts.setdefault(contact["website_url"].lower().removeprefix("https://www."), []).append(company_id)
    before = used(sdk)
    sample = published[::25]
    contacts = dict(published)
    for _, contact in sample:
        bare = contact["website_url"].lower().removeprefix("https://www.")
        answered = min(hosts[bare])  # a website several companies publish answers the smallest id
        parsed = sdk.search.lookup_company_by_url(url=f"http://{bare}/")
        assert parsed.to_dict(mode="json") == {
            "company_id": answered,
            "email": contacts[answered].get("email"),
            "phone": contacts[answered].get("phone"),
            "vat_id": contacts[answered].get("vat_id"),
        }
    assert used(sdk) == before + 10 * len(sample)


def test_refusals_map_to_the_clients_exceptions_and_cost_nothing(register, world):
    sdk = register.client()
    before = used(sdk)
    without = next(cid for cid, rec in sorted(world.companies.items()) if not rec.get("contact"))
    with pytest.raises(NotFoundError) as no_contact:
        sdk.company.get_contact_v0(without)
    assert code_of(no_contact.value) == "contact_not_available"
    with pytest.raises(NotFoundError) as unknown:
        sdk.search.lookup_company_by_url(url="https://www.nobody-here.example")
    assert code_of(unknown.value) == "company_not_found"
    for url in ("", "info@example.de", "ftp://example.de"):
        with pytest.raises(BadRequestError) as bad:
            sdk.search.lookup_company_by_url(url=url)
        assert code_of(bad.value) == "invalid_url"
    assert used(sdk) == before
