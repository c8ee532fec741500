"""Company lookup and presigned source documents, through requests (in-process adapter)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from local_support import EMPTY, FREE, charged, error_of


@pytest.fixture
def company(ids):
    """A company of the bundled world with documents."""
    return ids.unique_match


def test_company_is_returned_with_signed_sources_and_charged_10(company, api, catalog):
    session = api()
    response = session.get(f"/v1/company/{company}")
    assert response.status_code == 200
    body = response.json()
    stored = catalog.world.companies[company]
    assert {k: v for k, v in body.items() if k != "sources"} == stored
    assert len(body["sources"]) == len(stored["documents"])
    assert all(s["document_url"].startswith("http://local.regkit/v1/documents/") for s in body["sources"])
    assert charged(response) == 10
    assert int(response.headers["X-Credits-Remaining"]) == 100000 - 10


def test_export_returns_the_company_with_sources_present_and_empty(company, api, catalog):
    # filled-gaps.md: every member of CompanyV1 that is not optional stays present (the live client requires it)
    response = api().get(f"/v1/company/{company}", params={"export": "true"})
    assert response.status_code == 200
    assert response.json() == {**catalog.world.companies[company], "sources": []}
    assert catalog.world.companies[company]["documents"]
    assert charged(response) == 10


def test_realtime_shows_pending_change_and_costs_20(ids, api, catalog):
    session = api()
    stored = session.get(f"/v1/company/{ids.pending_change}", params={"export": True}).json()
    live = session.get(f"/v1/company/{ids.pending_change}", params={"realtime": True, "export": True})
    assert live.status_code == 200
    assert charged(live) == 20
    assert live.json() == {**catalog.world.realtime[ids.pending_change], "sources": []}
    assert live.json() != stored
    assert session.get("/v1/credits").json()["used_credits"] == 30


def test_realtime_without_pending_change_is_the_stored_record(company, api, catalog):
    response = api().get(f"/v1/company/{company}", params={"realtime": "true", "export": "true"})
    assert response.json() == {**catalog.world.companies[company], "sources": []}


def test_company_with_insolvencies_lists_their_summaries(api, catalog):
    company_id = next(c for c, rec in catalog.world.companies.items() if rec.get("insolvencies"))
    body = api().get(f"/v1/company/{company_id}").json()
    assert [s["id"] for s in body["insolvencies"]] == [
        s["id"] for s in catalog.world.companies[company_id]["insolvencies"]
    ]


def test_former_id_resolves_to_the_company_under_its_current_id(api, catalog):
    former, current = next(iter(catalog.meta["former_ids"].items()))
    response = api().get(f"/v1/company/{former}")
    assert response.status_code == 200
    assert response.json()["id"] == current


@pytest.mark.parametrize(
    "company_id",
    ["DE-HRB-123", "de-hrb-t2408-79657", "DE-HRB-T2408-79657 ", "DE-XYZ-R1504-1", "x" * 300, "DE-HRB-T2408-79657%00"],
)
def test_malformed_company_id_is_400_and_free(api, company_id):
    response = api().get(f"/v1/company/{company_id}")
    assert error_of(response) == (400, "invalid_company_id")
    assert charged(response) == 0


def test_company_id_with_a_slash_is_400_not_404(company, api):
    # Outside the description's path template, so not checked against it.
    response = api(conform=False).get(f"/v1/company/{company}/extra")
    assert error_of(response) == (400, "invalid_company_id")


@pytest.mark.parametrize(
    "params", [{"realtime": "yes"}, {"export": "1"}, {"realtime": ""}, [("export", "true"), ("export", "false")]]
)
def test_malformed_flags_are_400(company, api, params):
    assert error_of(api().get(f"/v1/company/{company}", params=params)) == (400, "invalid_parameter")


def test_unknown_company_is_404_and_free(api):
    session = api()
    response = session.get("/v1/company/DE-HRB-Z9999-1")
    assert error_of(response) == (404, "company_not_found")
    assert charged(response) == 0
    assert session.get("/v1/credits").json()["used_credits"] == 0


@pytest.mark.parametrize("authorization", [None, "Bearer ", "Bearer nope", "Basic ZGVtbzpwYWlk", "demo-paid"])
def test_missing_or_unknown_key_is_401(company, api, authorization):
    session = api(None)
    headers = {"Authorization": authorization} if authorization is not None else {}
    response = session.get(f"/v1/company/{company}", headers=headers)
    assert error_of(response) == (401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "X-Credits-Remaining" not in response.headers


def test_no_credits_left_is_402_and_nothing_charged(company, api):
    session = api(EMPTY)
    response = session.get(f"/v1/company/{company}")
    assert error_of(response) == (402, "insufficient_credits")
    assert charged(response) == 0
    assert session.get("/v1/credits").json()["used_credits"] == 0


def test_free_plan_may_look_up_companies(company, api):
    response = api(FREE).get(f"/v1/company/{company}")
    assert response.status_code == 200
    assert response.headers["X-Credits-Remaining"] == "490"


def test_source_document_downloads_as_pdf_without_bearer(company, api):
    source = api().get(f"/v1/company/{company}").json()["sources"][0]["document_url"]
    response = api(None).get(source)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-1.") and response.content.rstrip().endswith(b"%%EOF")
    assert charged(response) == 0


def test_source_url_expires_after_30_minutes(company, api, clock):
    source = api().get(f"/v1/company/{company}").json()["sources"][0]["document_url"]
    expires = int(parse_qs(urlsplit(source).query)["expires"][0])
    assert expires == int(clock.now) + 1800
    clock.advance(1800)
    assert api(None).get(source).status_code == 200
    clock.advance(1)
    assert error_of(api(None).get(source)) == (403, "url_expired")


def test_tampered_or_unsigned_source_url_is_403(company, api):
    source = api().get(f"/v1/company/{company}").json()["sources"][0]["document_url"]
    parts = urlsplit(source)
    query = parse_qs(parts.query)
    later = int(query["expires"][0]) + 3600
    tampered = f"{parts.scheme}://{parts.netloc}{parts.path}?expires={later}&signature={query['signature'][0]}"
    assert error_of(api(None).get(tampered)) == (403, "invalid_signature")
    assert error_of(api(None).get(f"{parts.scheme}://{parts.netloc}{parts.path}")) == (403, "invalid_signature")


def test_signed_url_of_unknown_document_is_404(api, register):
    signed = register.context.signer.url(register.base_url, "no-such-document")
    assert error_of(api(None).get(signed)) == (404, "document_not_found")


def test_urls_are_signed_per_state_file(company, api, make_register, tmp_path, clock):
    source = api().get(f"/v1/company/{company}").json()["sources"][0]["document_url"]
    other = make_register(state_path=tmp_path / "other" / "state.sqlite")
    session = other.mount(__import__("requests").Session())
    assert session.get(source).status_code == 403
