"""The cache as a Parquet dataset: ``client.export_parquet`` / ``regkit.frames.export.export_parquet``.

A cache is filled through the bundled register in-process (companies with a merger, a profit transfer, several
names, an insolvency, revised indicators, a former id; owners, holdings, a person, proceedings, search pages,
and an autocomplete and a sandbox extract that must be left out); each exported table, read back with pandas,
must equal the frame the builders make from the client's records, dtypes included — and the export sends nothing.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pandas as pd
import pytest
from export_support import API_KEY, TABLE_NAMES, expected_tables, fill_cache, pick_ids

import regkit
from regkit.client import ValidationError
from regkit.client.cache.store import StoredAnswer
from regkit.client.lookups import lookup_op
from regkit.frames.export import StoredAnswers, export_parquet
from regkit.frames.export_sources import classify, survey
from regkit.local import open_local_register

pq = pytest.importorskip("pyarrow.parquet", reason="the Parquet export needs pyarrow (pip install pyarrow)")


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory, world):
    """A client of a local register in-process (its own state, no rate limit, instant extracts) with a filled
    SQLite cache, and what it fetched. Module-scoped, so it names its register and cache explicitly rather than
    relying on the per-test isolation of the environment. Read-only."""
    base = tmp_path_factory.mktemp("export")
    register = open_local_register(
        state_path=base / "state.sqlite", key_path=base / "register.key", rate_limit=None, extract_delay=0.0
    )
    client = regkit.Client(
        api_key=API_KEY, base_url=register.base_url, adapter=register.adapter, cache=base / "cache.sqlite"
    )
    fetched = fill_cache(client, pick_ids(world))
    yield client, fetched
    client.close()
    register.close()


@pytest.fixture(scope="module")
def exported(filled, tmp_path_factory: pytest.TempPathFactory):
    """One export of the filled cache: ``(directory, manifest, the client's counters before and after)``."""
    client, _ = filled
    directory = tmp_path_factory.mktemp("out") / "dataset"
    before = (client.credits_spent, client.requests_sent, len(client.ledger))
    manifest = client.export_parquet(directory)
    after = (client.credits_spent, client.requests_sent, len(client.ledger))
    return directory, manifest, before, after


@pytest.mark.parametrize("table", [t for t in TABLE_NAMES if t not in {"sources", "versions", "changes"}])
def test_each_table_reads_back_equal_to_the_frame_of_the_records(filled, exported, table):
    _, fetched = filled
    directory, _, _, _ = exported
    expected = expected_tables(fetched)[table]
    assert len(expected), f"the filled cache should give {table} rows"
    pd.testing.assert_frame_equal(pd.read_parquet(directory / table), expected)


def test_the_export_sends_nothing_and_spends_nothing(exported):
    _, manifest, before, after = exported
    assert before == after  # credits, requests sent, ledger rows
    assert manifest["credits_spent"] == 0 and manifest["requests_sent"] == 0


def test_the_manifest_lists_each_table_with_rows_files_and_dtypes(filled, exported):
    client, _ = filled
    directory, manifest, _, _ = exported
    assert json.loads((directory / "manifest.json").read_text(encoding="utf-8")) == manifest
    assert list(manifest["tables"]) == list(TABLE_NAMES)
    for name, entry in manifest["tables"].items():
        frame = pd.read_parquet(directory / name)
        assert entry["rows"] == len(frame), name
        assert entry["columns"] == {c: str(t) for c, t in frame.dtypes.items()}, name
        assert sorted(entry["files"]) == sorted(f"{name}/{p.name}" for p in (directory / name).iterdir())
    assert manifest["cache"] == {"backend": "SQLiteCache", "location": client.cache.location()}
    assert manifest["format"] == "regkit-parquet-export" and manifest["regkit_version"] == regkit.__version__
    assert manifest["left_out"]["user_scoped"] == 1 and manifest["left_out"]["autocomplete"] == 1
    assert manifest["left_out"]["superseded"] >= 1  # the company fetched again with export=True


def test_sources_say_what_came_from_where_and_when(filled, exported):
    client, fetched = filled
    directory, manifest, _, _ = exported
    sources = pd.read_parquet(directory / "sources")
    companies = sources[sources["kind"] == "company"]
    distinct = {r.raw["id"] for r in fetched.companies}
    assert set(companies.loc[companies["exported"], "entity_id"]) == distinct
    assert companies["exported"].sum() == len(distinct) < len(companies)  # one answer per company
    assert set(sources["origin"]) == {client.base_url}
    assert sources["path"].str.startswith("/v1/").all() and not sources["expired"].any()
    assert set(companies["query"].dropna()) == {"export=true"}
    twice = companies[companies["entity_id"] == fetched.companies[-1].raw["id"]]
    assert twice.loc[twice["exported"], "query"].tolist() == ["export=true"]  # the newest answer wins
    assert str(sources["fetched_at"].dtype) == "datetime64[us, UTC]"
    assert manifest["sources"]["company"]["exported"] == len(distinct)
    assert manifest["sources"]["insolvency_search"]["answers"] == len(fetched.insolvency_pages)


def test_no_secret_and_nothing_user_scoped_in_any_file(filled, exported):
    _, fetched = filled
    directory, _, _, _ = exported
    urls = [s["document_url"] for r in fetched.companies for s in r.raw.get("sources", [])]
    assert urls, "the company answers carry presigned URLs"
    forbidden = [API_KEY, fetched.extract_id, "Bearer", *urls]
    for path in directory.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            texts = [raw.decode("latin-1")]
            if path.suffix == ".parquet":
                texts.append(pq.read_table(path).to_pandas().to_csv())
            found = [s for s in forbidden for text in texts if s in text]
            assert not found, f"{path.relative_to(directory)} holds {found}"


def test_duckdb_reads_the_export_as_it_is(filled, exported):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed")
    directory, _, _, _ = exported
    companies = pd.read_parquet(directory / "companies")
    sql = (
        f"SELECT c.legal_form, count(*) AS reports, sum(i.revenue) AS revenue "
        f"FROM read_parquet('{directory}/companies/*.parquet', hive_partitioning=true) c "
        f"JOIN read_parquet('{directory}/indicators/*.parquet') i USING (company_id) "
        f"GROUP BY 1 ORDER BY 1"
    )
    got = duckdb.sql(sql).df()
    indicators = pd.read_parquet(directory / "indicators").merge(companies[["company_id", "legal_form"]])
    want = indicators.groupby("legal_form", observed=True).agg(reports=("revenue", "size"), revenue=("revenue", "sum"))
    assert got["legal_form"].tolist() == sorted(want.index.astype(str))
    assert got["reports"].tolist() == want.sort_index(key=lambda i: i.astype(str))["reports"].tolist()
    import pyarrow.dataset as ds

    assert ds.dataset(directory / "events", format="parquet").count_rows() == len(pd.read_parquet(directory / "events"))


def test_small_part_files_share_one_schema_and_read_back_equal(filled, tmp_path):
    client, fetched = filled
    manifest = export_parquet(client, tmp_path / "parts", rows_per_file=3)
    expected = expected_tables(fetched)
    assert len(manifest["tables"]["indicators"]["files"]) > 2
    for name in ("indicators", "representatives", "contact", "insolvency_results"):
        files = sorted((tmp_path / "parts" / name).iterdir())
        assert [f.name for f in files] == [f"part-{i:05d}.parquet" for i in range(len(files))]
        assert all(pq.read_schema(f).equals(pq.read_schema(files[0]), check_metadata=True) for f in files)
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parts" / name), expected[name])


def test_an_empty_cache_gives_empty_tables_with_their_dtypes(tmp_path):
    with regkit.Client(api_key=API_KEY, cache=tmp_path / "empty.sqlite") as client:
        manifest = client.export_parquet(tmp_path / "out")
    assert all(entry["rows"] == 0 and len(entry["files"]) == 1 for entry in manifest["tables"].values())
    frame = pd.read_parquet(tmp_path / "out" / "companies")
    assert frame.empty and str(frame["legal_form"].dtype) == "category" and str(frame["employees"].dtype) == "Int64"


def test_a_non_empty_directory_is_refused_unless_overwrite_replaces_a_previous_export(filled, tmp_path):
    client, _ = filled
    target = tmp_path / "dataset"
    client.export_parquet(target)
    with pytest.raises(ValidationError, match="not empty.*overwrite=True"):
        client.export_parquet(target)
    (target / "companies" / "part-00000.parquet").write_bytes(b"stale")
    manifest = client.export_parquet(target, overwrite=True)
    assert len(pd.read_parquet(target / "companies")) == manifest["tables"]["companies"]["rows"]
    assert not list(tmp_path.glob(".dataset.partial-*"))  # the staging directory is gone

    (target / "notes.txt").write_text("mine")
    with pytest.raises(ValidationError, match="not part of the previous export: notes.txt"):
        client.export_parquet(target, overwrite=True)
    assert (target / "notes.txt").read_text() == "mine" and (target / "manifest.json").exists()

    other = tmp_path / "other"
    other.mkdir()
    (other / "data.csv").write_text("a,b\n")
    with pytest.raises(ValidationError, match="holds no regkit export"):
        client.export_parquet(other, overwrite=True)
    assert [p.name for p in other.iterdir()] == ["data.csv"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"directory": ""}, "directory must be a path"),
        ({"directory": 3}, "directory must be a path"),
        ({"overwrite": "yes"}, "overwrite must be True or False"),
        ({"rows_per_file": 0}, "rows_per_file must be a whole number"),
        ({"scope_header": ""}, "scope_header must be the name of a request header"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_read(filled, tmp_path, kwargs, message):
    client, _ = filled
    arguments = {"directory": tmp_path / "out", **kwargs}
    with pytest.raises(ValidationError, match=message):
        export_parquet(client, **arguments)
    assert not (tmp_path / "out").exists()


def test_a_file_a_client_without_cache_and_a_wrong_cache_are_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with regkit.Client(api_key=API_KEY, cache=tmp_path / "c.sqlite") as client:
        with pytest.raises(ValidationError, match="is a file"):
            client.export_parquet(tmp_path / "file")
    with regkit.Client(api_key=API_KEY, cache=False) as client:
        with pytest.raises(ValidationError, match="cache is off"):
            client.export_parquet(tmp_path / "out")
    with pytest.raises(ValidationError, match="must be a regkit Client"):
        export_parquet("cache.sqlite", tmp_path / "out")


def test_without_pyarrow_the_error_says_how_to_install_it(filled, tmp_path, monkeypatch):
    client, _ = filled
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(ImportError, match=r"pip install pyarrow \(regkit's parquet extra"):
        client.export_parquet(tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- the first pass, on stored answers as the cache returns them ---------------------------------------------------

NOW = datetime(2026, 6, 30, 12, tzinfo=timezone.utc)


def _answer(
    key: str,
    url: str,
    body: bytes,
    age_days: float,
    method: str = "GET",
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> StoredAnswer:
    created = NOW - timedelta(days=age_days)
    return StoredAnswer(key, method, url, status, body, created, created + timedelta(days=30), headers or {})


def test_survey_keeps_the_newest_answer_per_thing_and_counts_what_it_leaves_out():
    base = "https://api.example/v1"
    found = survey(
        [
            _answer("a", f"{base}/company/DE-HRB-B1234-1", b'{"id":"DE-HRB-B1234-1"}', 40),  # expired, older
            _answer("b", f"{base}/company/DE-HRB-B1234-1?export=true", b'{"id":"DE-HRB-B1234-1"}', 2),
            _answer("c", f"{base}/company/DE-HRB-F1103-9", b'{"names":[],"id":"DE-HRB-B1234-1"}', 1),  # a former id
            _answer("d", f"{base}/transparenzregister/extracts/tre_1", b'{"id":"tre_1"}', 1),
            _answer("e", f"{base}/person/x", b'{"id":"x"}', 1, headers={"X-Regkit-Scope": "0f"}),
            _answer("f", f"{base}/autocomplete/company?query=Ha", b'{"results":[]}', 1),
            _answer("g", f"{base}/monitor", b"{}", 1),
            _answer("h", f"{base}/insolvency/p1", b"not json", 1),
            _answer("i", f"{base}/search/insolvency", b'{"results":[]}', 1, method="POST"),
            _answer("j", f"{base}/search/insolvency", b'{"results":[]}', 3, method="POST"),
        ],
        NOW,
        "X-Regkit-Scope",
    )
    assert found.chosen["company"]["DE-HRB-B1234-1"].key == "c"  # newest, though asked by a former id
    assert [s.key for s in found.pages["insolvency_search"]] == ["i", "j"]  # newest first
    assert dict(found.skipped) == {"user_scoped": 2, "autocomplete": 1, "other": 1, "unreadable": 1}
    assert [s.expired for s in found.sources if s.kind == "company"] == [True, False, False]


def test_classify_keeps_no_user_password_or_unknown_parameter():
    kind, origin, path, query = classify(
        "GET",
        "https://me:pw@h.example:8443/proxy/v1/company/X/owners?best_available=true&token=s3cret",
        {},
        "X-Regkit-Scope",
    )
    assert (kind, origin, path, query) == (
        "owners",
        "https://h.example:8443/proxy",
        "/v1/company/X/owners",
        "best_available=true",
    )
    assert classify("POST", "http://h/v1/company/X", {}, "X-Scope")[0] == "other"  # not the method regkit caches
    assert classify("GET", "http://h/v1/credits", {}, "X-Scope")[0] == "other"
    assert classify("GET", "http://h/v1/company/X", {"x-scope": "0f"}, "X-Scope")[0] == "user_scoped"


def test_the_export_takes_a_client_or_its_cache_and_refuses_a_bare_backend(filled, tmp_path):
    client, _ = filled
    by_client = export_parquet(client, tmp_path / "a")
    by_handle = export_parquet(client.cache, Path(tmp_path / "b"))
    assert by_client["tables"] == by_handle["tables"]
    assert isinstance(client.cache, StoredAnswers)  # the client's cache has what the export reads
    with pytest.raises(ValidationError, match="not read directly") as refused:
        export_parquet(client.cache.backend, tmp_path / "c")
    assert refused.value.suggestion == "regkit.Client(cache=backend).export_parquet(directory)"
    assert not (tmp_path / "c").exists()
    with regkit.Client(api_key=API_KEY, cache=client.cache.backend) as reopened:  # what the suggestion says
        assert reopened.export_parquet(tmp_path / "d")["tables"] == by_handle["tables"]


def test_the_export_leaves_out_answers_the_client_marks_user_scoped():
    from regkit.client.cache.policy import SCOPE_HEADER
    from regkit.schema.interface import SCOPE_HEADER as SHARED

    assert SCOPE_HEADER is regkit.frames.export.SCOPE_HEADER is SHARED  # one header, defined once in the schema


def test_a_memory_cache_exports_the_same_frames(tmp_path):
    ids = ["DE-HRB-R3208-147620", "DE-HRB-R1102-109244"]
    with regkit.Client(api_key=API_KEY, cache="memory") as client:
        batch = client.get_companies(ids, progress=False)
        manifest = client.export_parquet(tmp_path / "out")
    assert manifest["cache"] == {"backend": "BaseCache", "location": "memory"}
    records = sorted(batch.ok, key=lambda r: r.raw["id"])
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "out" / "companies"), regkit.frames.companies(records))
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "out" / "names"), regkit.frames.history(records, "names"))


@pytest.mark.filterwarnings("ignore:The inplace keyword:Warning")  # inside dask, not regkit
def test_dask_reads_the_export_as_it_is(exported):
    """Dask reads each table's directory of part files as one frame, equal to what pandas reads, dtypes included."""
    dd = pytest.importorskip("dask.dataframe", reason="dask is not installed")
    import dask

    directory, _, _, _ = exported
    for table in ("companies", "indicators", "events"):
        with dask.config.set({"dataframe.convert-string": False}):
            lazy = dd.read_parquet(directory / table)
            got = lazy.compute().reset_index(drop=True)
        want = pd.read_parquet(directory / table)
        assert lazy.npartitions >= 1 and list(got.columns) == list(want.columns), table
        pd.testing.assert_frame_equal(got, want, obj=table)  # dtypes included


def test_answers_that_cannot_be_read_are_counted_not_dropped(tmp_path):
    """A row the cache cannot decode (damaged, or another serializer's) is in the manifest's ``left_out``."""
    from requests_cache import CachedResponse, SerializerPipeline, SQLiteCache, Stage

    ids = ["DE-HRB-R3208-147620", "DE-HRB-R1102-109244"]
    path = tmp_path / "cache.sqlite"
    with regkit.Client(api_key=API_KEY, cache=path) as client:
        client.get_companies(ids, progress=False)
        stored = client.cache.backend.get_response(
            client._caller.cache_key(lookup_op("company", ids[0], False, export=False))
        )
    foreign = SerializerPipeline(
        [
            Stage(
                dumps=lambda r: b"FOREIGN" + bytes(r.content),
                loads=lambda b: CachedResponse(content=bytes(b)[7:], status_code=200),
            )
        ],
        name="foreign",
        is_binary=True,
    )
    for key in ("foreign-1", "foreign-2", "foreign-3"):
        SQLiteCache(path, serializer=foreign).save_response(stored, cache_key=key)
    with regkit.Client(api_key=API_KEY, cache=path) as client:
        manifest = client.export_parquet(tmp_path / "out")
    assert manifest["left_out"]["unreadable"] == 3
    assert pd.read_parquet(tmp_path / "out" / "companies")["company_id"].tolist() == sorted(ids)
