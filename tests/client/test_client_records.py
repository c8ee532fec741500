"""Records: raw JSON, attribute and item access, and the lazy frames hook."""

from __future__ import annotations

import sys
import types

import pytest

from regkit.client import hooks, records
from regkit.client.errors import RegkitError


def test_record_access() -> None:
    rec = records.CompanyRecord({"id": "DE-HRB-B1234-1", "name": {"name": "A GmbH"}, "status": "active"})
    assert rec.id == rec["id"] == rec.raw["id"] == "DE-HRB-B1234-1"
    assert "status" in rec and rec.get("lei") is None and list(rec.keys()) == ["id", "name", "status"]
    assert "status" in dir(rec)
    with pytest.raises(AttributeError, match="no member 'lei'"):
        rec.lei
    assert repr(rec) == "<CompanyRecord DE-HRB-B1234-1 A GmbH>"
    assert rec == records.CompanyRecord(dict(rec.raw))


def test_expired_sources_explain_themselves() -> None:
    rec = records.CompanyRecord({"id": "X"}, records.RecordMeta(from_cache=True, urls_expired=True))
    with pytest.raises(AttributeError, match="refresh_sources=True"):
        rec.sources


def test_search_page_iterates_results() -> None:
    pagination = {"page": 1, "per_page": 2, "total_pages": 3, "total_results": 5}
    page = records.InsolvencySearchPage({"results": [{"id": "a"}, {"id": "b"}], "pagination": pagination})
    assert [r["id"] for r in page] == ["a", "b"] and len(page) == 2
    assert page.has_next and page.total_results == 5 and page.pagination["page"] == 1


def test_batch_keeps_order_and_errors() -> None:
    a = records.CompanyRecord({"id": "A"})
    batch = records.CompanyBatch(["A", "B", "A"], [a, None, a], {"B": RegkitError("boom")})
    assert batch[0] is a and batch[1] is None and len(batch) == 3
    assert batch.ok == [a, a] and list(batch.errors) == ["B"]


@pytest.fixture
def frames_module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A stand-in analysis layer that registers its builders on import, like regkit.frames must."""
    module = types.ModuleType("fake_frames")

    def register() -> None:
        records.register_frames({"company.history": lambda rec, field: ("history", rec.id, field)})

    module.register = register  # type: ignore[attr-defined]
    monkeypatch.setattr(hooks, "_FRAMES_MODULE", "fake_frames")
    monkeypatch.setattr(hooks, "_registry", {})
    monkeypatch.setitem(sys.modules, "fake_frames", module)
    return module


def test_frames_are_resolved_lazily(frames_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[str] = []
    real_import = hooks.importlib.import_module

    def fake_import(name: str) -> object:
        imported.append(name)
        frames_module.register()
        return real_import(name)

    monkeypatch.setattr(hooks.importlib, "import_module", fake_import)
    rec = records.CompanyRecord({"id": "X"})
    assert rec.history("names") == ("history", "X", "names")
    assert rec.history("addresses") == ("history", "X", "addresses")
    assert imported == ["fake_frames"]  # imported once, then served from the registry
    with pytest.raises(RegkitError, match="no builder for 'company.to_dataframe'"):
        rec.to_dataframe()


def test_missing_frames_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hooks, "_FRAMES_MODULE", "regkit_no_such_frames")
    monkeypatch.setattr(hooks, "_registry", {})
    with pytest.raises(RegkitError, match="could not be imported"):
        records.InsolvencyRecord({"id": "x"}).events()


def test_unknown_hook_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown frame hooks"):
        records.register_frames({"company.plot": print})


def test_client_never_imports_frames_or_pandas() -> None:
    import subprocess

    code = ("import sys, regkit.client; "
            "print(any(m.startswith('regkit.frames') for m in sys.modules), 'pandas' in sys.modules)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
