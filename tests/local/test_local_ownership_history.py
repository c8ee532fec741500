"""``GET /v1/company/{id}/owners/historical`` over every company of the bundled world, in-process through requests.

Expected values come from the world's files (the companies' ``documents`` and ``capitals``, the shareholdings
rows), computed here by the rules of filings-and-financials.md: one entry per filed shareholder list, the
percentages of each list adding up to 100, nominal amounts in integer cents adding up to the capital of the
day, ``status`` active exactly for the latest list's owners, who are ``GET …/owners``' current owners.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pytest
from local_support import charged, error_of

from regkit.local.models.ownership_history import shareholder_list, shareholder_lists

pytestmark = pytest.mark.slow

DEM_PER_EUR = Decimal("1.95583")  # the fixed conversion rate (EU Council Regulation 2866/98)


@pytest.fixture(scope="module")
def rows_by_company(catalog):
    grouped = defaultdict(list)
    for row in catalog.world.shareholdings:
        grouped[row["company_id"]].append(row)
    return grouped


def _lists(company):
    return sorted((d for d in company["documents"] if d["type"] == "shareholder_list"), key=lambda d: d["date"])


def _capital_cents(company, day):
    capitals = sorted(company["capitals"], key=lambda c: c["start_date"])
    capital = next((c for c in reversed(capitals) if c["start_date"] <= day), capitals[0])
    amount = Decimal(str(capital["amount"]))
    if capital["currency"] == "DEM":
        amount /= DEM_PER_EUR
    return round(amount * 100)


def test_every_company_answers_its_history_or_owners_not_available(api, catalog, rows_by_company):
    session = api()
    companies = catalog.world.companies
    with_lists = 0
    for company_id, company in companies.items():
        lists = _lists(company)
        response = session.get(f"/v1/company/{company_id}/owners/historical")
        if not lists:
            assert error_of(response) == (404, "owners_not_available") and charged(response) == 0, company_id
            continue
        with_lists += 1
        assert response.status_code == 200 and charged(response) == 10
        owners = response.json()["owners"]
        by_document = defaultdict(list)
        for owner in owners:
            history = owner["ownership_history"]
            dates = [h["document_date"] for h in history]
            assert dates == sorted(dates) and owner["first_appearance"] == dates[0]
            for entry in history:
                by_document[entry["document_id"]].append((owner, entry))
        # one entry per filed list, and only filed lists
        assert set(by_document) == {d["id"] for d in lists}, company_id
        rows = rows_by_company[company_id]
        for document in lists:
            shown = by_document[document["id"]]
            assert {e["document_date"] for _, e in shown} == {document["date"]}
            assert sum(e["percentage_shares"] for _, e in shown) == pytest.approx(100, abs=0.01)
            assert all(isinstance(e["nominal_shares"], int) for _, e in shown)
            assert sum(e["nominal_shares"] for _, e in shown) == _capital_cents(company, document["date"])
            in_force = {
                r["holder_id"]
                for r in rows
                if r["start"] <= document["date"] and (r["end"] is None or r["end"] > document["date"])
            }
            assert {o["id"] for o, _ in shown} == in_force
        latest = {o["id"] for o, _ in by_document[lists[-1]["id"]]}
        active = {o["id"] for o in owners if o["status"] == "active"}
        assert active == (set() if company["status"] == "inactive" else latest), company_id
        for owner in owners:
            removed = owner["status"] == "removed"
            assert (owner["last_appearance"] is not None) == removed
            if removed:
                assert owner["last_appearance"] == owner["ownership_history"][-1]["document_date"]
            person = owner["entity_type"] == "natural_person"
            assert person == (not owner["id"].startswith("DE-")), owner
            if not person:
                assert owner["id"] in companies and owner["entity_type"] == "german_company"
    assert with_lists > 2500


def test_the_latest_lists_owners_are_the_current_owners(api, catalog):
    session = api()
    checked = 0
    for company_id, company in catalog.world.companies.items():
        if not _lists(company) or company["status"] == "inactive":
            continue
        history = session.get(f"/v1/company/{company_id}/owners/historical").json()["owners"]
        current = session.get(f"/v1/company/{company_id}/owners").json()["owners"]
        active = {o["id"]: o["ownership_history"][-1] for o in history if o["status"] == "active"}
        assert set(active) == {o["id"] for o in current}, company_id
        for owner in current:  # the same shares; the nominal amounts to the cent (largest remainder)
            assert active[owner["id"]]["percentage_shares"] == pytest.approx(owner["percentage_share"])
            assert abs(active[owner["id"]]["nominal_shares"] - round(owner["nominal_share"] * 100)) <= 1
        checked += 1
    assert checked > 2000


def test_a_handed_on_stake_shows_the_founder_removed_and_the_director_active(api, catalog, rows_by_company):
    company_id = next(
        c
        for c, rows in rows_by_company.items()
        if catalog.world.companies[c]["status"] == "active"
        and any(r["end"] is not None and r["holder_type"] == "natural_person" for r in rows)
    )
    ended = next(r for r in rows_by_company[company_id] if r["end"] is not None)
    owners = {o["id"]: o for o in api().get(f"/v1/company/{company_id}/owners/historical").json()["owners"]}
    founder = owners[ended["holder_id"]]
    assert founder["status"] == "removed" and founder["last_appearance"] < ended["end"]
    taker = next(r for r in rows_by_company[company_id] if r["start"] == ended["end"])
    assert owners[taker["holder_id"]]["first_appearance"] == ended["end"]
    assert owners[taker["holder_id"]]["status"] == "active"


def test_unknown_and_malformed_ids_cost_nothing(api):
    session = api()
    assert error_of(session.get("/v1/company/DE-HRB-X9999-1/owners/historical")) == (404, "company_not_found")
    assert error_of(session.get("/v1/company/not-an-id/owners/historical"))[0] == 400
    assert session.get("/v1/credits").json()["used_credits"] == 0


def test_shareholder_lists_give_each_lists_content_for_the_pdf(register, catalog, rows_by_company):
    """The model function the shareholder-list PDF prints from: one entry per list, holders largest first."""
    company_id = next(c for c, rec in catalog.world.companies.items() if len(_lists(rec)) >= 3)
    lists = shareholder_lists(register.context, company_id)
    assert [filed["document_id"] for filed in lists] == [d["id"] for d in _lists(catalog.world.companies[company_id])]
    for filed in lists:
        assert [h["position"] for h in filed["holders"]] == list(range(1, len(filed["holders"]) + 1))
        shares = [h["share"] for h in filed["holders"]]
        assert shares == sorted(shares, reverse=True) and sum(shares) == pytest.approx(1.0)
        assert sum(h["nominal_shares"] for h in filed["holders"]) == filed["capital"]
        for holder in filed["holders"]:
            if holder["entity_type"] == "natural_person":
                assert holder["city"] and holder["register"] is None
            else:
                assert holder["register"]


def test_one_shareholder_list_by_its_document_id(register, catalog):
    company_id, company = next((c, rec) for c, rec in sorted(catalog.world.companies.items()) if len(_lists(rec)) >= 2)
    first = _lists(company)[0]
    record, content = shareholder_list(register.context, first["id"])
    assert record["id"] == company_id and content["document_id"] == first["id"] and content["date"] == first["date"]
    articles = next(d for d in company["documents"] if d["type"] == "articles_of_association")
    assert shareholder_list(register.context, articles["id"]) is None
    assert shareholder_list(register.context, "00000000-0000-4000-8000-000000000000") is None
