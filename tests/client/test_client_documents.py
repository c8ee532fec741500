"""Documents through the client: ``get_document`` (free), ``get_realtime_document`` (20 credits) and ``download``.

Against the real local register, in-process and over loopback HTTP (``local``). Expected names, sizes and credits
come from the world's records, the files on disk and the register's own account (``target.used()``), never from
the client under test.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fs_support import remount, tmpfs

from regkit.client import CachePolicy
from regkit.errors import (
    BudgetExceededError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)


class Clock:
    """The register's clock, moved by the test (URL expiry)."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def company_id(world: Any) -> str:
    """An active company registered before 2007 with several listed documents of different types and dates."""
    for cid, record in world.companies.items():
        documents = record.get("documents") or []
        starts = [r["start_date"] for r in record["registers"] if r.get("start_date")]
        keys = {(d["type"], d["date"]) for d in documents}
        if (
            record["status"] == "active"
            and len(documents) >= 3
            and len(keys) == len(documents)
            and starts
            and min(starts) < "2007-01-01"
        ):
            return cid
    raise AssertionError("no such company in the world")


def _files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))


def test_get_document_is_free_and_cached(local: Any, world: Any, company_id: str) -> None:
    client = local.client()
    listed = world.companies[company_id]["documents"][0]
    record = client.get_document(listed["id"])
    assert (record.id, record.type, record.date) == (listed["id"], listed["type"], listed["date"])
    assert record.url.startswith(local.base_url + "/v1/documents/")
    again = client.get_document(listed["id"])
    assert again.meta.from_cache and again.url == record.url
    assert client.credits_spent == 0 and local.used() == 0
    assert local.counter.count("GET", f"/v1/document/{listed['id']}") == 1


def test_unknown_document_is_not_found(inprocess: Any) -> None:
    client = inprocess.client()
    with pytest.raises(NotFoundError) as info:
        client.get_document("3f2c0000-0000-4000-8000-000000000000")
    assert info.value.code == "document_not_found" and "documents" in info.value.suggestion


def test_realtime_document_costs_20_once_and_bad_input_nothing(local: Any, world: Any, company_id: str) -> None:
    client = local.client()
    with pytest.raises(ValidationError, match="current_printout"):
        client.get_realtime_document(company_id, "AD")
    with pytest.raises(ValidationError):
        client.get_realtime_document("HRB 1234", "current_printout")
    assert local.counter.count(path="/v1/document") == 0
    record = client.get_realtime_document(company_id, "current_printout")
    assert record.category == "current_printout" and record.company_id == company_id
    assert record.file_date == world.meta["as_of"][:10]
    again = client.get_realtime_document(company_id, "current_printout")
    assert again.meta.from_cache and again.url == record.url
    assert local.used() == 20 and client.credits_spent == 20
    rows = client.ledger
    assert list(rows.loc[rows.call == "get_realtime_document", "credits"]) == [20, 0]


def test_a_category_the_company_lacks_is_not_found_and_free(inprocess: Any, world: Any) -> None:
    young = next(
        cid
        for cid, record in world.companies.items()
        if min(r["start_date"] for r in record["registers"]) >= "2007-01-01"
        and not any(d["type"] == "shareholder_list" for d in record.get("documents") or ())
    )
    client = inprocess.client()
    for category in ("historical_printout", "shareholder_list"):
        with pytest.raises(NotFoundError) as info:
            client.get_realtime_document(young, category)
        assert info.value.code == "document_not_available"
    with pytest.raises(NotFoundError):
        client.download([(young, "shareholder_list")], inprocess.cache_dir / "docs")
    assert inprocess.used() == 0


def test_download_a_company_names_files_and_never_fetches_twice(
    local: Any, world: Any, company_id: str, tmp_path: Path
) -> None:
    client = local.client()
    company = client.get_company(company_id)
    listed = world.companies[company_id]["documents"]
    target = tmp_path / "docs"
    files = client.download(company, target, progress=False)
    assert [f.document_id for f in files] == [d["id"] for d in listed]
    assert _files(target) == sorted(f"{company_id}_{d['type']}_{d['date']}.pdf" for d in listed)
    for file, document in zip(files, listed):
        assert file.path == target / f"{company_id}_{document['type']}_{document['date']}.pdf"
        assert file.size == file.path.stat().st_size and file.path.read_bytes().startswith(b"%PDF-")
        assert file.status == "downloaded" and file.credits == 0
    downloads = local.counter.count("GET", "/v1/documents/*")
    assert downloads == len(listed)
    again = client.download([d["id"] for d in listed], target, progress=False)
    assert [f.status for f in again] == ["kept"] * len(listed)
    assert [f.path for f in again] == [f.path for f in files]
    assert local.counter.count("GET", "/v1/documents/*") == downloads
    assert local.used() == 10  # the company lookup; the documents were free


def test_download_realtime_pays_once_per_file(local: Any, company_id: str, tmp_path: Path) -> None:
    client = local.client()
    target = tmp_path / "docs"
    estimate = client.estimate_download_cost(
        [(company_id, "current_printout"), (company_id, "structured_information")], target
    )
    assert (estimate.paid, estimate.credits) == (2, 40)
    assert not target.exists()  # estimating writes nothing
    files = client.download(
        [(company_id, "current_printout"), (company_id, "structured_information")], target, progress=False
    )
    assert files.credits == 40 == local.used()
    printout, xml = files
    assert printout.path.name.startswith(f"{company_id}_current_printout_") and printout.path.suffix == ".pdf"
    assert xml.path.suffix == ".xml" and xml.path.read_bytes().startswith(b"<?xml")
    index = json.loads((target / ".regkit-documents.json").read_text())
    assert {entry["file"] for entry in index["files"].values()} == {printout.path.name, xml.path.name}
    assert client.estimate_download_cost((company_id, "current_printout"), target).credits == 0
    kept = client.download((company_id, "current_printout"), target)
    assert kept[0].status == "kept" and kept[0].path == printout.path
    refetched = client.download((company_id, "current_printout"), target, refetch=True)  # the cached answer: free
    assert refetched[0].credits == 0 and refetched[0].path == printout.path
    assert local.used() == 40 and _files(target) == sorted([printout.path.name, xml.path.name])


def test_download_result_frame(inprocess: Any, world: Any, company_id: str, tmp_path: Path) -> None:
    client = inprocess.client()
    listed = world.companies[company_id]["documents"][0]
    frame = client.download([listed["id"], (company_id, "current_printout")], tmp_path, progress=False).to_dataframe()
    assert list(frame.columns) == [
        "path",
        "size",
        "company_id",
        "category",
        "file_date",
        "document_id",
        "credits",
        "status",
    ]
    assert str(frame["size"].dtype) == "Int64" and str(frame["credits"].dtype) == "Int64"
    assert str(frame["file_date"].dtype) == "datetime64[us]"
    assert frame["size"].tolist() == [Path(p).stat().st_size for p in frame["path"]]
    assert frame["credits"].tolist() == [0, 20]
    assert frame["path"][0].endswith(f"{listed['id']}_{listed['type']}_{listed['date']}.pdf")  # company unknown


def test_budget_is_checked_before_anything_is_paid(inprocess: Any, company_id: str, tmp_path: Path) -> None:
    client = inprocess.client(budget=30)
    wanted = [(company_id, "current_printout"), (company_id, "chronological_printout")]
    assert client.download(wanted, tmp_path / "d", dry_run=True).credits == 40
    with pytest.raises(BudgetExceededError, match="40 credits"):
        client.download(wanted, tmp_path / "d")
    assert inprocess.counter.count(path="/v1/document") == 0 and inprocess.used() == 0


@pytest.mark.parametrize(
    "bad",
    [
        "DE-HRB-F1103-267645",  # a company id alone
        ("DE-HRB-F1103-267645", "current_printoutt"),
        ("HRB 1", "current_printout"),
        42,
        [None],
    ],
)
def test_bad_input_is_refused_before_sending(inprocess: Any, bad: Any, tmp_path: Path) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError):
        client.download(bad, tmp_path / "d")
    assert inprocess.counter.count() == 0


def test_unknown_document_fails_before_any_credit(inprocess: Any, company_id: str, tmp_path: Path) -> None:
    client = inprocess.client()
    with pytest.raises(NotFoundError):
        client.download([(company_id, "current_printout"), "3f2c0000-0000-4000-8000-000000000000"], tmp_path / "d")
    assert inprocess.used() == 0 and _files(tmp_path / "d") == []


def test_a_directory_that_cannot_be_written_is_refused_before_paying(
    inprocess: Any, company_id: str, tmp_path: Path
) -> None:
    client = inprocess.client()
    (tmp_path / "a-file").write_text("not a directory")
    with pytest.raises(ValidationError, match="cannot write documents"):
        client.download((company_id, "current_printout"), tmp_path / "a-file" / "docs")
    with tmpfs(tmp_path / "disk", size="1m") as disk:
        remount(disk, read_only=True)
        try:
            with pytest.raises(ValidationError, match="cannot write documents") as info:
                client.download((company_id, "current_printout"), disk)
            assert "nothing was sent or paid" in str(info.value)
        finally:
            remount(disk, read_only=False)
    assert inprocess.counter.count() == 0 and inprocess.used() == 0


def test_expired_urls(make_local: Any, world: Any, company_id: str, tmp_path: Path) -> None:
    clock = Clock()
    target = make_local("loopback", clock=clock)
    client = target.client()
    listed = world.companies[company_id]["documents"][0]
    record = client.get_document(listed["id"])
    realtime = client.get_realtime_document(company_id, "current_printout")
    clock.now += 15 * 60 + 1  # the register's URLs are dead; the client cannot know before it tries
    files = client.download(record, tmp_path / "d")  # 403, then a fresh URL (free)
    assert files[0].status == "downloaded" and files[0].path.read_bytes().startswith(b"%PDF-")
    assert target.counter.count("GET", f"/v1/document/{listed['id']}") == 2
    with pytest.raises(PermissionDeniedError) as info:
        client.download(realtime, tmp_path / "d")
    assert info.value.code == "url_expired" and "20 credits" in info.value.suggestion
    assert _files(tmp_path / "d") == [files[0].path.name]
    assert not [p for p in os.listdir(tmp_path / "d") if p.startswith(".part-")]
    assert target.used() == 20


def _aged(record: Any, minutes: float) -> Any:
    """``record`` as if its answer had come ``minutes`` ago (a hand-built record: the URL is the register's own)."""
    from dataclasses import replace
    from datetime import datetime, timezone

    from regkit.client.document import DocumentRecord, RealtimeDocumentRecord

    meta = replace(record.meta, from_cache=False, fetched_at=datetime.now(timezone.utc) - timedelta(minutes=minutes))
    if isinstance(record, RealtimeDocumentRecord):
        return RealtimeDocumentRecord(record.raw, meta, company_id=record.company_id)
    return DocumentRecord(record.raw, meta)


def test_a_realtime_url_is_trusted_for_14_minutes_then_paid_again(
    make_local: Any, company_id: str, tmp_path: Path
) -> None:
    target = make_local()
    client = target.client(policy=CachePolicy(document=timedelta(seconds=0.5)))
    record = client.get_realtime_document(company_id, "structured_information")
    time.sleep(0.6)  # the cache no longer answers: only the record's own URL is free
    twelve = _aged(record, 12)  # older than the cache's 10 minutes, its URL still valid (15)
    assert client.estimate_download_cost(twelve, tmp_path / "d").credits == 0
    files = client.download(twelve, tmp_path / "d")
    assert files.credits == 0 and files[0].status == "downloaded" and target.used() == 20
    assert files[0].path.read_bytes().startswith(b"<?xml")
    old = _aged(record, 14.5)  # past the 14 minutes trusted: fetched again, and the estimate says so first
    estimate = client.estimate_download_cost(old, tmp_path / "e")
    assert (estimate.paid, estimate.credits) == (1, 20)
    files = client.download(old, tmp_path / "e")
    assert files.credits == 20 and target.used() == 40


def test_a_tuple_of_several_items_is_many_and_a_pair_is_one(world: Any, company_id: str) -> None:
    from regkit.client.bulk.downloads import wanted

    listed = [d["id"] for d in world.companies[company_id]["documents"][:3]]
    assert [w.document_id for w in wanted(tuple(listed))] == listed
    assert [(w.company_id, w.category) for w in wanted((company_id, "current_printout"))] == [
        (company_id, "current_printout")
    ]
    assert [(w.company_id, w.document_id) for w in wanted((company_id, listed[0]))] == [(company_id, listed[0])]
    with pytest.raises(ValidationError, match="must be a company id"):
        wanted((listed[0], listed[1]))  # two ids in a tuple read as a pair: say so


def test_a_downloaded_shareholder_list_reads_back_as_its_ownership_history(
    local: Any, world: Any, tmp_path: Path
) -> None:
    """The whole path a journalist takes: the company's listed shareholder lists downloaded over HTTP, each file
    read with ``regkit.frames.shareholder_list``, equal to the ownership history's rows of the same document."""
    import regkit.frames

    company_id = next(
        cid
        for cid, record in world.companies.items()
        if sum(d["type"] == "shareholder_list" for d in record.get("documents") or ()) >= 3
    )
    lists = [d for d in world.companies[company_id]["documents"] if d["type"] == "shareholder_list"]
    client = local.client()
    files = client.download([(company_id, d["id"]) for d in lists], tmp_path, progress=False)
    history = client.get_ownership_history(company_id).to_dataframe()
    for file, document in zip(files, lists):
        assert file.path.name == f"{company_id}_shareholder_list_{document['date']}.pdf"
        read = regkit.frames.shareholder_list(file.path)
        assert set(read["document_id"]) == {document["id"]}
        filed = history[history["document_id"] == document["id"]]
        assert sorted(zip(read["holder_name"], read["percentage"].astype(float).round(2))) == sorted(
            zip(filed["owner_name"], filed["percentage"].astype(float).round(2))
        )
        assert read["nominal_share"].astype(float).sum() == pytest.approx(filed["nominal_share"].astype(float).sum())
    assert local.used() == 10  # the history; the listed files were free


def _with_listed(world: Any, kind: str) -> tuple[str, dict[str, Any]]:
    """A company listing documents of ``kind``, and its latest one (a single newest date, none marked otherwise)."""
    for cid, record in world.companies.items():
        same = [d for d in record.get("documents") or () if d["type"] == kind]
        dates = sorted(d["date"] for d in same)
        if len(same) >= 2 and dates[-1] != dates[-2]:
            latest = max(same, key=lambda d: d["date"])
            if all(not d.get("latest") for d in same) or latest.get("latest"):
                return cid, latest
    raise AssertionError(f"no company with several {kind} documents")


@pytest.mark.parametrize("kind", ["shareholder_list", "articles_of_association"])
def test_a_listed_category_of_a_cached_company_is_the_free_listed_file(
    local: Any, world: Any, kind: str, tmp_path: Path
) -> None:
    company_id, latest = _with_listed(world, kind)
    client = local.client()
    company = client.get_company(company_id)
    first = client.download(company, tmp_path, progress=False)
    again = client.download((company_id, kind), tmp_path)
    assert [f.status for f in again] == ["kept"] and again.credits == 0
    assert again[0].path == tmp_path / f"{company_id}_{kind}_{latest['date']}.pdf"
    assert again[0].path in [f.path for f in first]
    fresh = client.download((company_id, kind), tmp_path / "fresh")  # not in the directory: the free path
    assert fresh[0].status == "downloaded" and fresh[0].document_id == latest["id"] and fresh.credits == 0
    assert fresh[0].path.read_bytes() == again[0].path.read_bytes()
    assert not [name for name in _files(tmp_path) if name.endswith("_2.pdf")]
    assert local.counter.count(path="/v1/document") == 0 and local.used() == 10  # the company lookup only


def test_a_listed_category_of_an_unknown_company_is_paid_and_the_estimate_says_it_may_duplicate(
    inprocess: Any, world: Any, tmp_path: Path
) -> None:
    company_id, latest = _with_listed(world, "shareholder_list")
    client = inprocess.client()
    estimate = client.estimate_download_cost([(company_id, "shareholder_list")], tmp_path)
    assert (estimate.paid, estimate.credits, estimate.may_duplicate) == (1, 20, 1)
    assert "may be a listed file" in str(estimate)
    files = client.download((company_id, "shareholder_list"), tmp_path)
    assert files.credits == 20 == inprocess.used()
    assert files[0].file_date == latest["date"]  # the register's answer is that listed document


def test_a_pair_is_checked_against_the_cached_company(
    inprocess: Any, world: Any, company_id: str, tmp_path: Path
) -> None:
    other = next(d["id"] for cid, r in world.companies.items() if cid != company_id for d in r.get("documents") or ())
    own = world.companies[company_id]["documents"][0]
    trusting = inprocess.client(cache=None)  # no cached record: the pair is trusted, the company names the file
    files = trusting.download((company_id, other), tmp_path / "trusted")
    assert files[0].path.name.startswith(f"{company_id}_")
    client = inprocess.client()
    client.get_company(company_id)
    before = inprocess.counter.count()
    with pytest.raises(ValidationError, match="does not list the document"):
        client.download((company_id, other), tmp_path / "checked")
    assert inprocess.counter.count() == before  # refused before sending
    files = client.download((company_id, own["id"].upper()), tmp_path / "checked")  # any letter case
    assert files[0].path.name == f"{company_id}_{own['type']}_{own['date']}.pdf"


def test_a_document_id_in_another_letter_case_is_the_same_file(
    local: Any, world: Any, company_id: str, tmp_path: Path
) -> None:
    from regkit.client.cache.policy import answers
    from regkit.schema.endpoints import by_operation

    listed = world.companies[company_id]["documents"][0]
    client = local.client()
    tmp_path = tmp_path / "d"
    first = client.download(listed["id"].upper(), tmp_path)
    assert first[0].document_id == listed["id"]  # indexed by the answer's own id
    for spelling in (listed["id"], listed["id"].upper(), listed["id"].title()):
        again = client.download(spelling, tmp_path)
        assert again[0].status == "kept" and again[0].path == first[0].path
    assert local.counter.count("GET", "/v1/documents/*") == 1 and _files(tmp_path) == [first[0].path.name]
    get_document = by_operation("get_document")
    assert answers(get_document, listed["id"].upper(), {"id": listed["id"]})
    assert not answers(get_document, listed["id"], {"id": "another"})


@pytest.mark.parametrize("hostile", ["../x", "..", "a/../../b", "..\\x"])
def test_a_hostile_document_id_is_refused_before_sending(inprocess: Any, hostile: str, tmp_path: Path) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match="not a document id"):
        client.download(hostile, tmp_path / "d")
    assert inprocess.counter.count() == 0 and not (tmp_path / "x").exists()


def test_server_values_with_path_characters_stay_in_the_directory(
    local: Any, world: Any, company_id: str, tmp_path: Path
) -> None:
    from regkit.client.document import DocumentRecord

    listed = world.companies[company_id]["documents"][0]
    client = local.client()
    record = client.get_document(listed["id"])
    hostile = DocumentRecord({**record.raw, "type": "../../evil", "date": "2020/01/01"}, record.meta)
    target = tmp_path / "d"
    files = client.download(hostile, target)
    # each part: characters outside [A-Za-z0-9._-] become "-", and a leading dot too
    assert files[0].path == target / f"{listed['id']}_-.-..-evil_2020-01-01.pdf"
    assert files[0].path.read_bytes().startswith(b"%PDF-")
    assert list(tmp_path.rglob("*evil*")) == [files[0].path]


def _download_in_process(target: Any, cache: Path, wanted: Any, directory: Path, barrier: Any, out: Any) -> None:
    client = target.client(cache=cache)
    barrier.wait(timeout=30)
    try:
        files = client.download(wanted, directory, progress=False)
        out.put(sorted((f.path.name, f.status, f.credits) for f in files))
    except BaseException as exc:  # reported to the test, not lost in the child
        out.put(repr(exc))
    finally:
        client.close()


@pytest.mark.skipif(sys.platform == "win32", reason="fork start method")
def test_two_processes_downloading_into_one_directory_take_turns(
    make_local: Any, world: Any, company_id: str, tmp_path: Path
) -> None:
    import multiprocessing

    target = make_local("loopback")
    listed = [d["id"] for d in world.companies[company_id]["documents"]]
    wanted = [(company_id, "current_printout"), *listed]
    directory = tmp_path / "shared"
    context = multiprocessing.get_context("fork")
    barrier, out = context.Barrier(2), context.Queue()
    workers = [
        context.Process(
            target=_download_in_process,
            args=(target, tmp_path / f"cache{n}.sqlite", wanted, directory, barrier, out),
        )
        for n in range(2)
    ]
    for worker in workers:
        worker.start()
    results = [out.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    assert all(isinstance(r, list) for r in results), results
    credits = sorted(sum(c for _, _, c in r) for r in results)
    assert credits == [0, 20] and target.used() == 20  # paid once: the second saw the first's index
    statuses = sorted({s for _, s, _ in r} == {"kept"} for r in results)
    assert statuses == [False, True]
    names = _files(directory)
    assert len(names) == len(wanted) and not [n for n in names if "_2." in n]
    index = json.loads((directory / ".regkit-documents.json").read_text())
    assert sorted(e["file"] for e in index["files"].values()) == names
    assert not [p for p in os.listdir(directory) if p.startswith(".part-")]
