"""``Client.get_financials`` against the real local register, in-process and over loopback HTTP: the answer, its
price in the ledger, budget and estimate, the cache, expired report URLs, a company without reports, bad input.

Credits are checked against the register's own ``GET /v1/credits`` (``local.used()``); expected reports and
indicators come from the bundled world's records, never from the client.
"""

from __future__ import annotations

import gzip
import json
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from regkit.client import (
    BudgetExceededError,
    CachePolicy,
    FinancialsRecord,
    NoFinancialReportsWarning,
    NotFoundError,
    ValidationError,
)

#: The members of a record's indicators (CompanyV1), which the financials' indicators carry unchanged: read
#: off the bundled world's records themselves, not from the code under test.
RECORD_MEMBERS = tuple(
    sorted(
        {
            member
            for line in gzip.open(Path(__file__).resolve().parents[2] / "data" / "companies.jsonl.gz", "rt")
            for entry in json.loads(line).get("indicators") or ()
            for member in entry
        }
        - {"date", "report_id"}
    )
)


def with_reports(world: Any, *, pl: bool = True) -> str:
    """A company with several reports, with a P&L (``pl``) or without (a small filer)."""
    return next(
        company_id
        for company_id, record in world.companies.items()
        if len(record.get("indicators") or ()) >= 3 and (record["indicators"][0]["revenue"] is not None) is pl
    )


def without_reports(world: Any) -> str:
    return next(company_id for company_id, record in world.companies.items() if not record.get("indicators"))


def test_financials_are_the_companys_reports_and_cost_10(local: Any, world: Any) -> None:
    company_id = with_reports(world)
    record = world.companies[company_id]
    client = local.client()
    financials = client.get_financials(company_id)
    assert isinstance(financials, FinancialsRecord) and financials.company_id == company_id
    assert local.used() == 10 and financials.meta.credits == 10 and not financials.meta.from_cache
    own = [r for r in financials if not r["consolidated"]]
    assert len(financials) == len(financials.reports) and financials.has_reports
    assert sorted(r["report_id"] for r in own) == sorted(e["report_id"] for e in record["indicators"])
    served = {i["report_id"]: i for i in financials["indicators"]}
    for entry in record["indicators"]:
        assert {m: served[entry["report_id"]][m] for m in RECORD_MEMBERS} == {m: entry[m] for m in RECORD_MEMBERS}
    dates = [i["date"] for i in financials["indicators"]]
    assert dates == sorted(dates, reverse=True)  # latest first
    assert financials.merged is not None and financials.reports[0]["guv"] is not None
    assert company_id in repr(financials)


def test_a_second_call_is_free_from_the_cache_and_the_ledger_says_so(local: Any, world: Any) -> None:
    company_id = with_reports(world, pl=False)
    client = local.client()
    first = client.get_financials(company_id)
    second = client.get_financials(company_id)
    assert second.meta.from_cache and second.raw == first.raw and second.reports[0]["guv"] is None
    assert local.used() == 10 and local.counter.count("GET", f"/v1/company/{company_id}/financials") == 1
    rows = client.ledger[["call", "credits", "source"]].values.tolist()
    assert rows == [["get_financials", 10, "network"], ["get_financials", 0, "cache"]]


def test_estimate_and_is_cached_know_the_financials_endpoint(inprocess: Any, world: Any) -> None:
    first, second = with_reports(world), with_reports(world, pl=False)
    client = inprocess.client()
    estimate = client.estimate_cost([first, second, first, "not-an-id"], endpoint="financials")
    assert (estimate.distinct, estimate.cached, estimate.to_fetch, estimate.price, estimate.credits) == (
        2,
        0,
        2,
        10,
        20,
    )
    assert not client.is_cached(first, endpoint="financials")
    client.get_financials(first)
    assert client.is_cached(first, endpoint="financials")
    assert not client.is_cached(first)  # the company itself is another answer
    assert client.estimate_cost([first, second], endpoint="financials").credits == 10
    assert inprocess.used() == 10  # estimating sent nothing


def test_the_budget_refuses_before_anything_is_sent(inprocess: Any, world: Any) -> None:
    client = inprocess.client(budget=5)
    with pytest.raises(BudgetExceededError, match="get_financials"):
        client.get_financials(with_reports(world))
    assert inprocess.used() == 0 and inprocess.counter.counted == []


def test_expired_report_urls_are_left_out_unless_refreshed(inprocess: Any, world: Any) -> None:
    company_id = with_reports(world)
    client = inprocess.client(policy=CachePolicy(url_lifetime=timedelta(0)))
    fresh = client.get_financials(company_id)
    url = fresh.reports[0]["sources"][0]["html_url"]
    page = inprocess.register.session().get(url)  # no bearer token needed: the signature is the credential
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    assert fresh.reports[0]["report_id"] in page.text
    cached = client.get_financials(company_id)
    assert cached.meta.from_cache and cached.meta.urls_expired
    assert all(report["sources"] == [] for report in cached)  # present, as the interface requires, and empty
    assert [r["report_id"] for r in cached] == [r["report_id"] for r in fresh]
    refreshed = client.get_financials(company_id, refresh_sources=True)
    assert not refreshed.meta.from_cache and not refreshed.meta.urls_expired
    assert all(len(report["sources"]) == 1 for report in refreshed) and inprocess.used() == 20


def test_the_default_policy_hands_out_a_cached_answer_with_its_urls_while_they_live(inprocess: Any, world: Any) -> None:
    assert CachePolicy().url_lifetime < timedelta(minutes=30)  # the interface's validity of a report URL
    company_id = with_reports(world)
    client = inprocess.client()
    client.get_financials(company_id)
    cached = client.get_financials(company_id)
    assert cached.meta.from_cache and not cached.meta.urls_expired
    url = cached.reports[0]["sources"][0]["html_url"]
    assert inprocess.register.session().get(url).status_code == 200


def test_a_company_without_reports_warns_and_is_cached(inprocess: Any, world: Any) -> None:
    company_id = without_reports(world)
    client = inprocess.client()
    with pytest.warns(NoFinancialReportsWarning, match=f"{company_id} has filed no annual report"):
        empty = client.get_financials(company_id)
    assert empty.raw == {"indicators": [], "reports": [], "merged": None} and len(empty) == 0
    assert not empty.has_reports and inprocess.used() == 10
    with pytest.warns(NoFinancialReportsWarning, match="answered from the cache"):
        again = client.get_financials(company_id)
    assert again.meta.from_cache and inprocess.used() == 10


def test_the_estimate_says_before_paying_which_companies_filed_no_report(inprocess: Any, world: Any) -> None:
    """Known from the cached company record (free to read): its ``indicators`` list every filed report."""
    empty, full, unknown = without_reports(world), with_reports(world), with_reports(world, pl=False)
    client = inprocess.client()
    client.get_companies([empty, full], progress=False)
    paid = inprocess.used()
    ledger_rows = len(client.ledger)
    estimate = client.estimate_cost([empty, full, unknown], endpoint="financials")
    assert estimate.to_fetch == 3 and estimate.without_reports == (empty,)
    assert estimate.reports_unknown == 1  # `unknown`'s record is not cached: not checked
    assert "1 not checked for reports (company record not cached)" in str(estimate)
    assert "1 of them filed no annual report" in str(estimate) and "empty answer for 10 credits" in str(estimate)
    assert "filed no annual report" in estimate._repr_html_()
    assert inprocess.used() == paid and len(client.ledger) == ledger_rows  # nothing sent, nothing in the ledger
    assert client.estimate_cost([full], endpoint="financials").without_reports == ()
    assert client.estimate_cost([empty], endpoint="company").without_reports == ()


def test_a_company_with_reports_does_not_warn(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoFinancialReportsWarning)
        client.get_financials(with_reports(world))


def test_an_unknown_company_is_not_found_and_free(local: Any) -> None:
    client = local.client()
    with pytest.raises(NotFoundError, match="no credits were spent"):
        client.get_financials("DE-HRB-F1103-999999999")
    assert local.used() == 0


@pytest.mark.parametrize("company_id", ["", "DE-HRB-1", "de-hrb-f1103-1 ", None, 12])
def test_a_malformed_id_is_refused_before_anything_is_sent(inprocess: Any, company_id: Any) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError):
        client.get_financials(company_id)
    assert inprocess.counter.counted == []


def test_refresh_sources_must_be_a_bool(inprocess: Any, world: Any) -> None:
    with pytest.raises(ValidationError, match="refresh_sources"):
        inprocess.client().get_financials(with_reports(world), refresh_sources="yes")
    assert inprocess.counter.counted == []
