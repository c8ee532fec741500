"""Contact data and the lookup by website through ``regkit.Client``, against the local register in-process and
over loopback HTTP.

Credits are checked against the register's own ``GET /v1/credits`` (``local.used()``); expected members come from
the bundled world's records (``contact``), and hosts are folded here by hand, not by regkit's normaliser.
"""

from __future__ import annotations

from typing import Any

import pytest

from regkit.client import BudgetExceededError, ContactRecord, NotFoundError, ValidationError


def _published(world: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(cid, rec["contact"]) for cid, rec in sorted(world.companies.items()) if rec.get("contact")]


def _unique_host(world: Any) -> tuple[str, str, dict[str, Any]]:
    """A company whose website no other company publishes: (id, bare host, contact)."""
    hosts: dict[str, list[str]] = {}
    for cid, contact in _published(world):
        hosts.setdefault(contact["website_url"].removeprefix("https://www."), []).append(cid)
    cid, contact = next((c, x) for c, x in _published(world) if len(hosts[x["website_url"][12:]]) == 1)
    return cid, contact["website_url"].removeprefix("https://www."), contact


def test_get_contact_is_the_records_contact_paid_once(local: Any, world: Any) -> None:
    company_id, contact = next((c, x) for c, x in _published(world) if "vat_id" in x and "phone" in x)
    client = local.client()
    record = client.get_contact(company_id)
    assert isinstance(record, ContactRecord)
    assert record.raw == {
        "source_url": contact["website_url"],
        "email": contact.get("email"),
        "phone": contact["phone"],
        "vat_id": contact["vat_id"],
    }
    assert not record.meta.from_cache and record.meta.credits == 10
    assert client.is_cached(company_id, endpoint="contact")
    again = client.get_contact(company_id)
    assert again.meta.from_cache and again.raw == record.raw
    assert local.used() == client.credits_spent == 10 and client.credits_saved == 10
    assert list(client.ledger["call"]) == ["get_contact", "get_contact"]


def test_get_company_by_website_normalises_so_spellings_share_one_payment(local: Any, world: Any) -> None:
    company_id, host, contact = _unique_host(world)
    client = local.client()
    record = client.get_company_by_website(f"https://www.{host}/")
    assert record.raw == {
        "company_id": company_id,
        "email": contact.get("email"),
        "phone": contact.get("phone"),
        "vat_id": contact.get("vat_id"),
    }
    for spelling in (host.upper(), f"http://{host}", f" www.{host}/impressum "):
        assert client.is_cached(spelling, endpoint="website")
        assert client.get_company_by_website(spelling).meta.from_cache
    assert local.used() == client.credits_spent == 10
    assert local.counter.count("GET", "/v0/search/lookup") == 1


@pytest.mark.parametrize("url", ["", "   ", "info@example.de", "ftp://example.de", "localhost", "a b.de", None, 42])
def test_a_bad_website_is_refused_before_sending(inprocess: Any, url: Any) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match="nothing was sent"):
        client.get_company_by_website(url)
    assert client.requests_sent == 0 and inprocess.used() == 0 and inprocess.counter.counted == []


def test_a_malformed_company_id_is_refused_before_sending(inprocess: Any) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError):
        client.get_contact("HRB 123 Berlin")
    assert client.requests_sent == 0 and inprocess.used() == 0


def test_no_website_and_unknown_website_are_404s_that_cost_nothing(local: Any, world: Any) -> None:
    without = next(cid for cid, rec in sorted(world.companies.items()) if not rec.get("contact"))
    client = local.client()
    with pytest.raises(NotFoundError) as no_contact:
        client.get_contact(without)
    assert no_contact.value.code == "contact_not_available"
    with pytest.raises(NotFoundError) as unknown:
        client.get_company_by_website("nobody-here.example")
    assert unknown.value.code == "company_not_found"
    assert local.used() == client.credits_spent == 0


def test_estimates_and_the_budget_count_contact_lookups(inprocess: Any, world: Any) -> None:
    published = [cid for cid, _ in _published(world)][:3]
    client = inprocess.client(budget=25)
    estimate = client.estimate_cost(published + published[:1], endpoint="contact")
    assert (estimate.distinct, estimate.cached, estimate.credits) == (3, 0, 30)
    assert not estimate.within_budget
    client.get_contact(published[0])
    client.get_contact(published[1])
    assert client.estimate_cost(published, endpoint="contact").credits == 10
    with pytest.raises(BudgetExceededError, match="get_contact"):
        client.get_contact(published[2])
    assert inprocess.used() == client.credits_spent == 20
    _, host, _ = _unique_host(world)
    assert client.estimate_cost([host, f"www.{host}", "not a url"], endpoint="website").credits == 10
