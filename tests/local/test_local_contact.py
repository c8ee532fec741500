"""Contact data (``GET /v0/company/{id}/contact``) and the lookup by website (``GET /v0/search/lookup``).

Expected values are read from the world's records (``contact``), and the hosts are folded here by hand
(``str.lower``, ``removeprefix``), not by the register's normaliser.
"""

from __future__ import annotations

import collections

import pytest
from local_support import charged, error_of


def _host(website_url: str) -> str:
    return website_url.lower().removeprefix("https://").removeprefix("http://").removeprefix("www.").rstrip("/")


@pytest.fixture(scope="module")
def websites(catalog) -> dict[str, list[str]]:
    """Host → ids of the companies publishing it, in id order (from the records, folded by hand)."""
    found: dict[str, list[str]] = collections.defaultdict(list)
    for company_id in sorted(catalog.world.companies):
        contact = catalog.world.companies[company_id].get("contact")
        if contact and contact.get("website_url"):
            found[_host(contact["website_url"])].append(company_id)
    return dict(found)


@pytest.fixture(scope="module")
def full_contact(catalog) -> str:
    """A company publishing a website, an e-mail, a phone and a VAT id."""
    return next(
        cid
        for cid, rec in sorted(catalog.world.companies.items())
        if rec.get("contact") and all(k in rec["contact"] for k in ("email", "phone", "vat_id"))
    )


def test_contact_is_the_records_contact_and_costs_10(api, catalog, full_contact):
    response = api().get(f"/v0/company/{full_contact}/contact")
    assert response.status_code == 200
    stored = catalog.world.companies[full_contact]["contact"]
    assert response.json() == {
        "source_url": stored["website_url"],
        "email": stored["email"],
        "phone": stored["phone"],
        "vat_id": stored["vat_id"],
    }
    assert charged(response) == 10


def test_contact_members_a_company_does_not_publish_are_null(api, catalog):
    company_id, stored = next(
        (cid, rec["contact"])
        for cid, rec in sorted(catalog.world.companies.items())
        if rec.get("contact") and "vat_id" not in rec["contact"] and "phone" not in rec["contact"]
    )
    body = api().get(f"/v0/company/{company_id}/contact").json()
    assert body["vat_id"] is None and body["phone"] is None
    assert body["source_url"] == stored["website_url"]


def test_company_without_website_is_404_contact_not_available_and_free(api, catalog):
    company_id = next(cid for cid, rec in sorted(catalog.world.companies.items()) if not rec.get("contact"))
    session = api()
    response = session.get(f"/v0/company/{company_id}/contact")
    assert error_of(response) == (404, "contact_not_available")
    assert company_id in response.json()["error"]["message"]
    assert session.get("/v1/credits").json()["used_credits"] == 0


@pytest.mark.parametrize(
    "company_id,expected",
    [("DE-HRB-X9999-1", (404, "company_not_found")), ("not-an-id", (400, "invalid_company_id"))],
)
def test_unknown_or_malformed_company_is_refused_for_free(api, company_id, expected):
    session = api()
    assert error_of(session.get(f"/v0/company/{company_id}/contact")) == expected
    assert session.get("/v1/credits").json()["used_credits"] == 0


def test_lookup_finds_the_company_by_its_website_and_costs_10(api, catalog, full_contact):
    stored = catalog.world.companies[full_contact]["contact"]
    response = api().get("/v0/search/lookup", params={"url": stored["website_url"]})
    assert response.status_code == 200
    assert response.json() == {
        "company_id": full_contact,
        "email": stored["email"],
        "phone": stored["phone"],
        "vat_id": stored["vat_id"],
    }
    assert charged(response) == 10


def test_lookup_compares_the_host_without_scheme_www_slash_case_or_path(api, catalog, full_contact):
    host = _host(catalog.world.companies[full_contact]["contact"]["website_url"])
    session = api()
    for variant in (host, f"http://{host}/", f"HTTPS://WWW.{host.upper()}", f"www.{host}/impressum?x=1", f" {host} "):
        response = session.get("/v0/search/lookup", params={"url": variant})
        assert response.status_code == 200, (variant, response.text)
        assert response.json()["company_id"] == full_contact


def test_a_website_several_companies_publish_answers_the_smallest_id(api, websites):
    host, companies = next((h, ids) for h, ids in sorted(websites.items()) if len(ids) > 1)
    assert api().get("/v0/search/lookup", params={"url": host}).json()["company_id"] == min(companies)


def test_every_website_of_the_world_is_found(register, websites):
    from regkit.local.models.contact import website_index

    assert website_index(register.context.catalog) == {host: ids[0] for host, ids in websites.items()}


def test_unknown_website_is_404_company_not_found_and_free(api):
    session = api()
    response = session.get("/v0/search/lookup", params={"url": "https://www.nobody-here.example"})
    assert error_of(response) == (404, "company_not_found")
    assert session.get("/v1/credits").json()["used_credits"] == 0


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"url": ""},
        {"url": "   "},
        {"url": "not a url"},
        {"url": "info@example.de"},
        {"url": "ftp://example.de"},
        {"url": "localhost"},
        {"url": ["a.example", "b.example"]},
    ],
)
def test_missing_blank_or_non_url_is_400_invalid_url_and_free(api, params):
    session = api()
    response = session.get("/v0/search/lookup", params=params)
    assert error_of(response) == (400, "invalid_url")
    assert "url" in response.json()["error"]["message"].lower() or "website" in response.json()["error"]["message"]
    assert session.get("/v1/credits").json()["used_credits"] == 0


def test_contact_and_lookup_over_real_http(remote, catalog, full_contact):
    session = remote()
    contact = session.get(f"/v0/company/{full_contact}/contact")
    assert contact.status_code == 200 and charged(contact) == 10
    found = session.get("/v0/search/lookup", params={"url": contact.json()["source_url"]})
    assert found.status_code == 200 and found.json()["company_id"] == full_contact
    assert session.get("/v1/credits").json()["used_credits"] == 20
