"""Contract test: the official client's ``company.get_financials_v1``, strictly validating, against ``regkit serve``.

A sample of the world's companies — full filers with a P&L, small filers with a short balance sheet, a group parent
with consolidated reports, companies without reports — is parsed; what the client parsed is compared with the
world's records (the 13 indicator members), the presigned report URL is downloaded from the server, and the error
statuses map to the client's exception classes with the register's codes.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from openregister import BadRequestError, NotFoundError

pytestmark = pytest.mark.serve

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


def dump(model: Any) -> dict[str, Any]:
    return model.to_dict(mode="json")


@pytest.fixture(scope="module")
def sample(world) -> dict[str, list[str]]:
    companies = world.companies
    filers = [c for c in sorted(companies) if companies[c].get("indicators")]
    full = [c for c in filers if companies[c]["indicators"][0]["revenue"] is not None]
    small = [c for c in filers if companies[c]["indicators"][0]["revenue"] is None]
    parents = [g["organtraeger"] for g in world.meta["groups"] if g["organtraeger"] in companies]
    return {
        "full": full[:: max(1, len(full) // 6)][:6],
        "small": small[:: max(1, len(small) // 4)][:4],
        "parents": [p for p in parents if companies[p].get("indicators")][:12],
        "none": [c for c in sorted(companies) if not companies[c].get("indicators")][:3],
    }


@pytest.mark.slow
def test_financials_parse_strictly_and_carry_the_record_indicators(register, world, sample):
    sdk = register.client()
    for company_id in sample["full"] + sample["small"]:
        financials = sdk.company.get_financials_v1(company_id)
        record = world.companies[company_id]
        parsed = {i.report_id: dump(i) for i in financials.indicators}
        assert sorted(parsed) == sorted(e["report_id"] for e in record["indicators"])
        for entry in record["indicators"]:
            assert {m: parsed[entry["report_id"]].get(m) for m in RECORD_MEMBERS} == {
                m: entry[m] for m in RECORD_MEMBERS
            }
            assert parsed[entry["report_id"]]["date"] == entry["date"]
        assert financials.merged is not None and financials.merged.aktiva.rows
        small = company_id in sample["small"]
        for report in financials.reports:
            assert (report.guv is None) is small
            assert len(report.sources) == 1 and report.sources[0].html_url.startswith(register.url)
            totals = {
                side: sum(r.current_value or 0 for r in getattr(report, side).rows) for side in ("aktiva", "passiva")
            }
            assert totals["aktiva"] == totals["passiva"]


def test_some_group_parent_files_consolidated_reports(register, sample):
    sdk = register.client()
    found = 0
    for parent in sample["parents"]:
        financials = sdk.company.get_financials_v1(parent)
        own = {indicator.report_id for indicator in financials.indicators}
        for report in financials.reports:
            assert (report.report_id in own) is not report.consolidated  # a group report is in no indicator row
            found += report.consolidated
    assert found


def test_a_company_without_reports_parses_as_empty(register, sample):
    sdk = register.client()
    for company_id in sample["none"]:
        financials = sdk.company.get_financials_v1(company_id)
        assert financials.indicators == [] and financials.reports == [] and financials.merged is None


def test_the_report_url_is_a_presigned_html_page_on_the_server(register, sample):
    report = register.client().company.get_financials_v1(sample["full"][0]).reports[0]
    page = httpx.get(report.sources[0].html_url)  # no bearer token: the signature is the credential
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert report.report_id in page.text
    tampered = httpx.get(report.sources[0].html_url.replace("signature=", "signature=0"))
    assert tampered.status_code == 403 and tampered.json()["error"]["code"] == "invalid_signature"


@pytest.mark.parametrize(
    "company_id,error,code",
    [
        ("DE-HRB-F1103-999999999", NotFoundError, "company_not_found"),
        ("not-a-company", BadRequestError, "invalid_company_id"),
    ],
)
def test_errors_map_to_the_official_clients_exceptions(register, company_id, error, code):
    sdk = register.client()
    before = sdk.usage.get_credits_v1().used_credits
    with pytest.raises(error) as raised:
        sdk.company.get_financials_v1(company_id)
    assert raised.value.body["error"]["code"] == code
    assert sdk.usage.get_credits_v1().used_credits == before
