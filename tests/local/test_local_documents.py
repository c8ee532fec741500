"""Documents: a listed document's metadata (free), a document fetched now (20 credits), and their files.

Every response is checked against the OpenAPI description (the ``api`` fixture). Expected values come from the
world's records (``catalog.world``) and from the spec (15-minute URLs, 20 credits, the categories), never from
the renderers under test.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import pdfplumber
import pytest
from local_support import EMPTY, charged, error_of

CATEGORIES = (
    "current_printout",
    "chronological_printout",
    "historical_printout",
    "structured_information",
    "shareholder_list",
    "articles_of_association",
)


def _text(pdf: bytes) -> tuple[int, str]:
    """Pages and the whole extracted text of a PDF (pdfplumber, no code of regkit)."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return len(document.pages), "\n".join(page.extract_text() or "" for page in document.pages)


@pytest.fixture(scope="module")
def old_company(catalog):
    """An active company registered before 2007 (it has a historical printout), with articles and a list."""
    for company_id, record in catalog.world.companies.items():
        types = {d["type"] for d in record.get("documents", ())}
        starts = [r["start_date"] for r in record["registers"] if r.get("start_date")]
        if (
            record["status"] == "active"
            and starts
            and min(starts) < "2007-01-01"
            and {"articles_of_association", "shareholder_list"} <= types
            and company_id not in catalog.world.realtime
            and len(record["names"]) > 1
        ):
            return company_id
    raise AssertionError("the world has no such company")


@pytest.fixture(scope="module")
def young_company(catalog):
    """A company registered in 2007 or later without any shareholder list."""
    for company_id, record in catalog.world.companies.items():
        starts = [r["start_date"] for r in record["registers"] if r.get("start_date")]
        if starts and min(starts) >= "2007-01-01" and not record.get("documents"):
            return company_id
    raise AssertionError("the world has no such company")


def test_listed_document_metadata_is_free_and_its_url_lives_15_minutes(old_company, api, catalog, clock):
    document = catalog.world.companies[old_company]["documents"][0]
    response = api().get(f"/v1/document/{document['id']}")
    assert response.status_code == 200 and charged(response) == 0
    body = response.json()
    assert {k: body[k] for k in ("id", "date", "type")} == {k: document[k] for k in ("id", "date", "type")}
    day, month, year = document["date"][8:10], document["date"][5:7], document["date"][:4]
    assert body["name"].endswith(f" vom {day}.{month}.{year}")
    assert int(parse_qs(urlsplit(body["url"]).query)["expires"][0]) == int(clock.now) + 15 * 60
    clock.advance(15 * 60)
    file = api(None).get(body["url"])
    assert file.status_code == 200 and file.content.startswith(b"%PDF-")
    clock.advance(1)
    assert error_of(api(None).get(body["url"])) == (403, "url_expired")


def test_unknown_document_id_is_404_document_not_found(api):
    assert error_of(api().get("/v1/document/3f2c0000-0000-4000-8000-000000000000")) == (404, "document_not_found")


def test_realtime_document_costs_20_and_every_failure_nothing(old_company, young_company, api):
    session = api()
    ok = session.get("/v1/document", params={"company_id": old_company, "document_category": "current_printout"})
    assert ok.status_code == 200 and charged(ok) == 20
    failures = [
        ({"company_id": young_company, "document_category": "historical_printout"}, (404, "document_not_available")),
        ({"company_id": young_company, "document_category": "shareholder_list"}, (404, "document_not_available")),
        ({"company_id": "DE-HRB-F1103-999999999", "document_category": "current_printout"}, (404, "company_not_found")),
        ({"company_id": old_company, "document_category": "printout"}, (400, "invalid_document_category")),
        ({"company_id": "not-an-id", "document_category": "current_printout"}, (400, "invalid_company_id")),
        ({"company_id": old_company}, (400, "invalid_parameter")),
    ]
    for params, expected in failures:
        response = session.get("/v1/document", params=params)
        assert error_of(response) == expected, params
        assert charged(response) == 0
    assert session.get("/v1/credits").json()["used_credits"] == 20


def test_unknown_category_names_the_valid_ones(old_company, api):
    message = api().get("/v1/document", params={"company_id": old_company, "document_category": "AD"}).json()
    assert all(category in message["error"]["message"] for category in CATEGORIES)


def test_realtime_document_without_credits_is_402(old_company, api):
    response = api(EMPTY).get(
        "/v1/document", params={"company_id": old_company, "document_category": "shareholder_list"}
    )
    assert error_of(response) == (402, "insufficient_credits")


def test_every_category_downloads_as_its_file(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    session, anonymous = api(), api(None)
    files = {}
    for category in CATEGORIES:
        body = session.get("/v1/document", params={"company_id": old_company, "document_category": category}).json()
        assert body["category"] == category
        file = anonymous.get(body["url"])
        assert file.status_code == 200, category
        files[category] = (body, file)
    for category in ("shareholder_list", "articles_of_association"):
        latest = max((d for d in record["documents"] if d["type"] == category), key=lambda d: d["date"])
        assert files[category][0]["file_date"] == latest["date"]
    as_of = catalog.world.meta["as_of"][:10]
    for category in ("current_printout", "chronological_printout", "historical_printout", "structured_information"):
        assert files[category][0]["file_date"] == as_of
    si_body, si_file = files["structured_information"]
    assert si_body["file_name"].endswith(".xml") and si_file.headers["Content-Type"].startswith("application/xml")
    for category in ("current_printout", "chronological_printout", "historical_printout"):
        assert files[category][0]["file_name"].endswith(".pdf")
        assert files[category][1].headers["Content-Type"] == "application/pdf"


def test_current_printout_shows_the_entry_as_it_stands(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    url = api().get("/v1/document", params={"company_id": old_company, "document_category": "current_printout"})
    pages, text = _text(api(None).get(url.json()["url"]).content)
    assert pages >= 2
    flat = " ".join(text.split())
    assert record["name"]["name"] in flat
    assert record["register"]["register_number"] in flat
    in_office = [
        r["name"]
        for r in record["representation"]
        if r["role"] not in ("SHAREHOLDER", "PROKURA") and r.get("end_date") is None
    ]
    assert in_office and all(name in flat for name in in_office)
    gone = [
        r["name"]
        for r in record["representation"]
        if r.get("end_date")
        and not any(o["name"] == r["name"] and o.get("end_date") is None for o in record["representation"])
    ]
    assert not any(name in flat for name in gone)


def test_chronological_printout_lists_every_name_with_its_date(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    url = api().get("/v1/document", params={"company_id": old_company, "document_category": "chronological_printout"})
    pages, text = _text(api(None).get(url.json()["url"]).content)
    flat = " ".join(text.split())
    assert pages >= 2
    for name in record["names"]:
        day = name["start_date"]
        assert f"vom {day[8:10]}.{day[5:7]}.{day[:4]}" in flat
        assert f"Firma: {name['name']}" in flat


def test_historical_printout_is_the_paper_register_of_2006(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    then = max((n for n in record["names"] if n["start_date"] <= "2006-12-31"), key=lambda n: n["start_date"])
    url = api().get("/v1/document", params={"company_id": old_company, "document_category": "historical_printout"})
    _, text = _text(api(None).get(url.json()["url"]).content)
    assert f"a) {then['name']}" in " ".join(text.split())
    assert "31.12.2006" in text


def test_structured_information_is_well_formed_xml_of_the_entry(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    url = api().get("/v1/document", params={"company_id": old_company, "document_category": "structured_information"})
    data = api(None).get(url.json()["url"]).content
    assert data.startswith(b"<?xml")
    root = ET.fromstring(data)
    assert root.tag == "registereintrag" and root.get("id") == old_company
    assert root.findtext("firma") == record["name"]["name"]
    assert root.find("register").get("nummer") == record["register"]["register_number"]
    assert float(root.findtext("kapital")) == pytest.approx(record["capital"]["amount"])
    assert root.find("kapital").get("waehrung") == record["capital"]["currency"]
    in_office = sorted(r["id"] for r in record["representation"] if r.get("end_date") is None)
    assert sorted(p.get("id") for p in root.iter("beteiligter")) == in_office


def test_listed_articles_show_the_name_of_their_date(old_company, api, catalog):
    record = catalog.world.companies[old_company]
    first = min((d for d in record["documents"] if d["type"] == "articles_of_association"), key=lambda d: d["date"])
    then = max((n for n in record["names"] if n["start_date"] <= first["date"]), key=lambda n: n["start_date"])
    body = api().get(f"/v1/document/{first['id']}").json()
    _, text = _text(api(None).get(body["url"]).content)
    assert f"Die Firma lautet {then['name']}." in " ".join(text.split())


@pytest.mark.slow
def test_files_are_the_same_bytes_run_after_run(old_company, api, make_register, tmp_path):
    from local_support import session_for

    other = make_register(state_path=tmp_path / "other" / "state.sqlite")
    contents = []
    for session in (api(), session_for(other)):
        for category in ("current_printout", "structured_information", "articles_of_association"):
            url = session.get("/v1/document", params={"company_id": old_company, "document_category": category})
            contents.append(session.get(url.json()["url"]).content)
    assert contents[:3] == contents[3:]


def test_realtime_document_over_real_http(old_company, remote):
    session = remote()
    body = session.get("/v1/document", params={"company_id": old_company, "document_category": "current_printout"})
    assert body.status_code == 200 and charged(body) == 20
    assert body.json()["url"].startswith(session.base_url)
    file = remote(None).get(body.json()["url"])
    assert file.status_code == 200 and file.content.startswith(b"%PDF-")


def test_the_pdf_libraries_are_imported_only_when_a_file_is_made() -> None:
    """fpdf2 and pdfminer take longer to import than the register takes to open: a session that makes no file
    and reads none (most of them) does not pay for them; reading a shareholder list imports pdfminer, not fpdf2."""
    import subprocess
    import sys

    script = (
        "import sys, regkit\n"
        "client = regkit.Client()\n"
        "client.get_company('DE-HRB-R3101-94644')\n"
        "loaded = lambda: print(sorted(m for m in ('fpdf', 'pdfplumber', 'pdfminer') if m in sys.modules))\n"
        "loaded()\n"
        "client.download([('DE-HRB-R3101-94644', 'current_printout')], sys.argv[1], progress=False)\n"
        "loaded()\n"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        done = subprocess.run(
            [sys.executable, "-c", script, directory], capture_output=True, text=True, timeout=120, check=True
        )
    assert done.stdout.splitlines() == ["[]", "['fpdf']"], done.stderr
    reading = (
        "import sys\n"
        "from regkit.frames import shareholder_list\n"
        "try:\n"
        "    shareholder_list(b'%PDF-1.4 not really')\n"
        "except Exception:\n"
        "    pass\n"
        "print(sorted(m for m in ('fpdf', 'pdfplumber', 'pdfminer') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", reading], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.splitlines() == ["['pdfminer']"], done.stderr
