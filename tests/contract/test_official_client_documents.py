"""Contract test: the official client's document methods, strictly validating, against ``regkit serve``.

``sdk.document.get_cached_v1`` parses the metadata of listed documents of every type, ``get_realtime_v1`` a
document of every category; what they parse is compared with the world's records, the presigned URLs are
downloaded (no key), and the error statuses map to the client's exception classes with the register's codes.
"""

from __future__ import annotations

import httpx
import pytest
from openregister import BadRequestError, NotFoundError

pytestmark = pytest.mark.serve

CATEGORIES = (
    "current_printout",
    "chronological_printout",
    "historical_printout",
    "structured_information",
    "shareholder_list",
    "articles_of_association",
)


@pytest.fixture(scope="module")
def old_company(world):
    """An active company registered before 2007 with articles and a shareholder list (it has every category)."""
    for company_id, record in sorted(world.companies.items()):
        types = {d["type"] for d in record.get("documents") or ()}
        starts = [r["start_date"] for r in record["registers"] if r.get("start_date")]
        if (
            record["status"] == "active"
            and starts
            and min(starts) < "2007-01-01"
            and {"articles_of_association", "shareholder_list"} <= types
        ):
            return company_id
    raise AssertionError("no such company")


@pytest.mark.slow
def test_listed_documents_of_every_type_parse_strictly(register, world):
    sdk = register.client()
    sample: dict[str, dict] = {}
    for record in world.companies.values():
        for document in record.get("documents") or ():
            sample.setdefault(document["type"], document)
    assert set(sample) == {"articles_of_association", "sample_protocol", "shareholder_list"}
    for document in sample.values():
        parsed = sdk.document.get_cached_v1(document["id"])
        assert (parsed.id, parsed.date, parsed.type) == (document["id"], document["date"], document["type"])
        assert parsed.name
        file = httpx.get(parsed.url)
        assert file.status_code == 200 and file.content.startswith(b"%PDF-")


def test_every_category_parses_strictly(register, world, old_company):
    sdk = register.client()
    for category in CATEGORIES:
        parsed = sdk.document.get_realtime_v1(company_id=old_company, document_category=category)
        assert parsed.category == category and parsed.file_date and parsed.file_name
        file = httpx.get(parsed.url)
        assert file.status_code == 200
        assert file.content.startswith(b"<?xml" if category == "structured_information" else b"%PDF-")


def test_errors_map_to_the_official_exceptions(register, world, old_company):
    sdk = register.client()
    with pytest.raises(NotFoundError) as unknown:
        sdk.document.get_cached_v1("3f2c0000-0000-4000-8000-000000000000")
    assert unknown.value.body["error"]["code"] == "document_not_found"
    young = next(
        cid
        for cid, record in sorted(world.companies.items())
        if min(r["start_date"] for r in record["registers"]) >= "2007-01-01"
    )
    with pytest.raises(NotFoundError) as missing:
        sdk.document.get_realtime_v1(company_id=young, document_category="historical_printout")
    assert missing.value.body["error"]["code"] == "document_not_available"
    with pytest.raises(BadRequestError) as bad:
        sdk.document.get_realtime_v1(company_id=old_company, document_category="printout")  # type: ignore[arg-type]
    assert bad.value.body["error"]["code"] == "invalid_document_category"
