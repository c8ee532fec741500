"""Records: raw JSON, attribute and item access, and analysis methods that import regkit.frames only when called."""

from __future__ import annotations

import sys

import pytest

from regkit.client import company, insolvency, records
from regkit.errors import RegkitError


def test_record_access() -> None:
    rec = company.CompanyRecord({"id": "DE-HRB-B1234-1", "name": {"name": "A GmbH"}, "status": "active"})
    assert rec.id == rec["id"] == rec.raw["id"] == "DE-HRB-B1234-1"
    assert "status" in rec and rec.get("lei") is None and list(rec.keys()) == ["id", "name", "status"]
    assert "status" in dir(rec)
    with pytest.raises(AttributeError, match="no member 'lei'"):
        _ = rec.lei
    assert repr(rec) == "<CompanyRecord DE-HRB-B1234-1 A GmbH>"
    assert rec == company.CompanyRecord(dict(rec.raw))


def test_expired_sources_explain_themselves() -> None:
    rec = company.CompanyRecord({"id": "X"}, records.RecordMeta(from_cache=True, urls_expired=True))
    with pytest.raises(AttributeError, match="refresh_sources=True"):
        _ = rec.sources


def test_search_page_iterates_results() -> None:
    pagination = {"page": 1, "per_page": 2, "total_pages": 3, "total_results": 5}
    page = insolvency.InsolvencySearchPage({"results": [{"id": "a"}, {"id": "b"}], "pagination": pagination})
    assert [r["id"] for r in page] == ["a", "b"] and len(page) == 2
    assert page.has_next and page.total_results == 5 and page.pagination["page"] == 1


def test_batch_keeps_order_and_errors() -> None:
    a = company.CompanyRecord({"id": "A"})
    batch = company.CompanyBatch(["A", "B", "A"], [a, None, a], {"B": RegkitError("boom")})
    assert batch[0] is a and batch[1] is None and len(batch) == 3
    assert batch.ok == [a, a] and list(batch.errors) == ["B"]


def test_record_methods_import_their_builder_when_called() -> None:
    import subprocess

    code = (
        "import sys, regkit.client as c\n"
        "from regkit.frames import example_company\n"  # (imports regkit.frames._example only)
        "before = sorted(m for m in sys.modules if m.startswith('regkit.frames.'))\n"
        "rec = c.CompanyRecord(example_company())\n"
        "frame = rec.history('names')\n"
        "after = sorted(m for m in sys.modules if m.startswith('regkit.frames.'))\n"
        "print(type(frame).__name__, 'regkit.frames.histories' in before, 'regkit.frames.histories' in after)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["DataFrame", "False", "True"]


def test_client_never_imports_frames_or_pandas() -> None:
    import subprocess

    code = (
        "import sys, regkit.client; "
        "print(any(m.startswith('regkit.frames') for m in sys.modules), 'pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
