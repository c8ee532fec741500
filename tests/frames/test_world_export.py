"""A whole world as a dataset: ``regkit world export parquet`` / :func:`regkit.frames.world_export.export_world`, and
register-wide questions over it in DuckDB (:mod:`regkit.frames.register_sql`) and Dask.

The bundled world is exported once (two processes, small parts, so that every table is cut into several files) and
checked against what users get otherwise: the rows of companies, owners, holdings, persons and proceedings fetched
through ``regkit.Client`` from the local register and exported from its cache; the world's own data files read
without the store (every company and representation entry accounted for); :func:`regkit.graph.interlocks` and
:func:`regkit.graph.subsidiaries` on a graph of the same records. The committed OffeneRegister sample is imported
and exported the same way (real records: no shareholdings, dates missing).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from export_support import API_KEY, fill_cache, pick_ids

import regkit
import regkit.frames as rf
import regkit.graph as rg
from regkit.errors import ValidationError
from regkit.frames.export_tables import TABLES
from regkit.frames.world_export import WORLD_TABLES, export_world
from regkit.local import open_local_register
from regkit.local.models.world_answers import WorldAnswers
from regkit.local.world.store import default_data_dir, read_world

pytest.importorskip("pyarrow.parquet", reason="the Parquet export needs pyarrow (pip install pyarrow)")
duckdb = pytest.importorskip("duckdb", reason="register-wide SQL needs duckdb")
register_sql = pytest.importorskip("regkit.frames.register_sql")

#: Small parts, so that each kind of the bundled world is cut into several part files.
IDS_PER_PART = 1500


@pytest.fixture(scope="module")
def bundled_export(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The bundled world exported once by two processes: ``(directory, manifest)``. Read-only."""
    directory = tmp_path_factory.mktemp("world-export") / "dataset"
    manifest = export_world(directory, workers=2, ids_per_part=IDS_PER_PART)
    return directory, manifest


@pytest.fixture(scope="module")
def records() -> dict[str, list[dict]]:
    """The bundled world's answers by kind, made in this process (for the graph and the expected frames)."""
    answers = WorldAnswers.open()
    return {
        kind: [a for part in answers.ranges(kind, 10**9) for a in answers.answers(part)]
        for kind in ("company", "holdings", "person_holdings")
    }


def _table(directory: Path, name: str) -> pd.DataFrame:
    return pd.read_parquet(directory / name)


def test_every_company_and_representation_entry_of_the_world_files_is_in_the_tables(bundled_export) -> None:
    """Counted from the world's data files (``read_world``: the JSON lines, not the store the export read)."""
    directory, manifest = bundled_export
    world = read_world()
    entries = sum(len(c["representation"]) for c in world.companies.values())
    companies = _table(directory, "companies")
    assert len(companies) == len(world.companies) == 5000
    assert set(companies["company_id"]) == set(world.companies)
    assert len(_table(directory, "representatives")) == entries
    assert len(_table(directory, "proceedings")) == len(world.insolvencies)
    with_holder = sum(1 for row in world.shareholdings if row.get("holder_id"))
    assert len(_table(directory, "holdings")) == with_holder
    accounted = manifest["accounted"]
    assert accounted["companies"] == {"store": 5000, "rows": 5000}
    assert accounted["representation_entries"] == {"records": entries, "rows": entries}
    for what in ("persons", "management_positions", "proceedings"):
        assert accounted[what]["store"] == accounted[what]["rows"] > 0, what
    assert accounted["shareholdings"]["store"] == len(world.shareholdings)
    assert accounted["shareholdings"]["holdings_rows"] + accounted["shareholdings"]["without_holder_id"] == len(
        world.shareholdings
    )
    assert manifest["left_out"] == {}


def test_the_tables_have_the_cache_exports_columns_and_dtypes_and_are_cut_into_parts(bundled_export) -> None:
    directory, manifest = bundled_export
    cache_tables = {t.name: t for t in TABLES}
    assert [t.name for t in WORLD_TABLES] == [*(n for n in cache_tables if n in manifest["tables"]), "statements"]
    for name, entry in manifest["tables"].items():
        frame = _table(directory, name)
        assert len(frame) == entry["rows"], name
        expected = cache_tables[name].empty() if name in cache_tables else rf.statements({})
        assert {c: str(d) for c, d in frame.dtypes.items()} == {c: str(d) for c, d in expected.dtypes.items()}, name
        assert entry["columns"] == {c: str(d) for c, d in expected.dtypes.items()}, name
        assert all((directory / f).is_file() for f in entry["files"]), name
    assert len(manifest["tables"]["companies"]["files"]) == 4  # 5,000 companies in parts of 1,500
    assert len(manifest["tables"]["statements"]["files"]) > 1  # financials: parts of 1,500 / 50 companies
    assert manifest["credits_spent"] == 0 and manifest["requests_sent"] == 0
    ids = _table(directory, "companies")["company_id"].tolist()
    assert ids == sorted(ids)  # parts in id order


def test_the_manifest_says_where_the_world_comes_from_and_holds_no_secret(bundled_export) -> None:
    directory, manifest = bundled_export
    meta = json.loads((default_data_dir() / "world.json").read_text(encoding="utf-8"))
    assert manifest["world"]["synthetic"] is True and manifest["world"]["as_of"] == meta["as_of"]
    assert manifest["world"]["seed"] == meta["seed"]
    text = (directory / "manifest.json").read_text(encoding="utf-8")
    assert json.loads(text) == manifest
    secrets = [u["api_key"] for u in meta["users"]] + [a["password"] for a in meta["transparenzregister"]["accounts"]]
    assert secrets and not any(secret in text for secret in secrets)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory):
    """What ``export_support.fill_cache`` fetches through ``regkit.Client`` from the local register, exported from
    the client's cache: ``(fetched records, the cache export's directory)``."""
    base = tmp_path_factory.mktemp("fetched")
    register = open_local_register(
        state_path=base / "state.sqlite", key_path=base / "register.key", rate_limit=None, extract_delay=0.0
    )
    client = regkit.Client(
        api_key=API_KEY, base_url=register.base_url, adapter=register.adapter, cache=base / "cache.sqlite"
    )
    try:
        got = fill_cache(client, pick_ids(read_world()))
        client.export_parquet(base / "cache-export")
    finally:
        client.close()
        register.close()
    return got, base / "cache-export"


# the table, and the column naming the thing whose rows are compared
_COMPARED = [
    ("companies", "company_id"),
    ("names", "company_id"),
    ("addresses", "company_id"),
    ("capitals", "company_id"),
    ("registers", "company_id"),
    ("representatives", "company_id"),
    ("indicators", "company_id"),
    ("links", "company_id"),
    ("documents", "company_id"),
    ("industry_codes", "company_id"),
    ("contact", "company_id"),
    ("insolvency_summaries", "company_id"),
    ("owners", "company_id"),
    ("holdings", "holder_id"),
    ("persons", "id"),
    ("management_positions", "person_id"),
    ("proceedings", "id"),
    ("events", "insolvency_id"),
]


@pytest.mark.parametrize(("table", "key"), _COMPARED)
def test_a_things_rows_equal_those_of_its_answers_fetched_through_the_client(
    bundled_export, fetched, table: str, key: str
) -> None:
    """For what the client fetched from the register (and the cache export wrote), the world export has the same
    rows — the same answers, made into the same frames. A person's ``age`` is on the world's ``as_of`` in the world
    export; the register answers it on its clock's day."""
    directory, _ = bundled_export
    _, cache_export = fetched
    cached = _table(cache_export, table)
    assert len(cached), f"the cache export has no {table} rows to compare"
    things = set(cached[key].dropna())
    world = _table(directory, table)
    world = world[world[key].isin(things)].reset_index(drop=True)
    if table == "persons":
        cached, world = cached.drop(columns="age"), world.drop(columns="age")
    if table == "owners":  # the world export names every company held; the cache export only those it knows
        names = _table(directory, "companies").set_index("company_id")["name"]
        assert world["company_name"].tolist() == names.loc[world["company_id"]].tolist()
        cached, world = cached.drop(columns="company_name"), world.drop(columns="company_name")
    pd.testing.assert_frame_equal(world, cached.reset_index(drop=True))


def test_a_persons_age_is_on_the_worlds_as_of(bundled_export) -> None:
    directory, manifest = bundled_export
    persons = _table(directory, "persons").dropna(subset=["date_of_birth"])
    as_of = pd.Timestamp(manifest["world"]["as_of"])
    born = persons["date_of_birth"]
    age = (
        as_of.year
        - born.dt.year
        - ((born.dt.month > as_of.month) | ((born.dt.month == as_of.month) & (born.dt.day > as_of.day)))
    )
    assert len(persons) > 1000
    assert (persons["age"].astype("int64") == age).all()


def test_the_statements_table_holds_every_filed_report(bundled_export) -> None:
    """``statements`` is the cache export's missing table: every line item of every report the world filed."""
    directory, _ = bundled_export
    answers = WorldAnswers.open()
    statements = _table(directory, "statements")
    some = [a for part in answers.ranges("financials", 40)[:2] for a in answers.answers(part)]
    expected = rf.statements({a["company_id"]: a for a in some})
    got = statements[statements["company_id"].isin(expected["company_id"].unique())].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected)
    assert statements["company_id"].nunique() == sum(
        1 for p in answers.ranges("financials", 10**9) for _ in answers.answers(p)
    )


# --- DuckDB -----------------------------------------------------------------------------------------------------


def test_duckdb_interlocks_equal_the_graphs_on_the_same_companies(bundled_export, records) -> None:
    directory, _ = bundled_export
    connection = register_sql.connect(directory)
    found = register_sql.interlocks(connection)
    expected = rg.interlocks(rg.from_companies(records["company"]))
    assert len(expected) > 100
    pd.testing.assert_frame_equal(found, expected)
    three = register_sql.interlocks(connection, 3)
    pd.testing.assert_frame_equal(three, rg.interlocks(rg.from_companies(records["company"]), 3))
    assert 0 < len(three) < len(found)


def test_duckdb_ownership_chains_equal_the_graphs_subsidiaries(bundled_export, records) -> None:
    directory, _ = bundled_export
    connection = register_sql.connect(directory)
    G = rg.from_companies(records["company"], holdings=records["holdings"] + records["person_holdings"])
    tops = connection.sql(
        "SELECT holder_id FROM holdings WHERE \"end\" IS NULL AND holder_type = 'legal_person' "
        "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 6"
    ).fetchall()
    deep = 0
    for (top,) in tops:
        found = register_sql.subsidiaries(connection, top)
        pd.testing.assert_frame_equal(found, rg.subsidiaries(G, top), check_exact=False, rtol=1e-12)
        half = register_sql.subsidiaries(connection, top, min_share=0.5)
        pd.testing.assert_frame_equal(half, rg.subsidiaries(G, top, min_share=0.5), check_exact=False, rtol=1e-12)
        deep += int((found["depth"] > 1).any())
    assert deep, "no chain longer than one holding among the largest holders: nothing recursive was compared"
    day = "2015-06-30"
    top = tops[0][0]
    pd.testing.assert_frame_equal(
        register_sql.subsidiaries(connection, top, date=day),
        rg.subsidiaries(G, top, date=day),
        check_exact=False,
        rtol=1e-12,
    )


def test_connect_and_the_sql_questions_refuse_bad_input(tmp_path: Path, bundled_export) -> None:
    with pytest.raises(ValidationError, match="holds no regkit Parquet export"):
        register_sql.connect(tmp_path)
    connection = register_sql.connect(bundled_export[0])
    with pytest.raises(ValidationError, match="min_companies"):
        register_sql.interlocks(connection, 0)
    with pytest.raises(ValidationError, match="min_share"):
        register_sql.subsidiaries(connection, "DE-HRB-B1204-1", min_share=50)
    with pytest.raises(ValidationError, match="date"):
        register_sql.subsidiaries(connection, "DE-HRB-B1204-1", date="last year")
    assert register_sql.subsidiaries(connection, "DE-HRB-B1204-1").empty  # holds nothing


# --- Dask -------------------------------------------------------------------------------------------------------


def _legal_forms(frame: pd.DataFrame) -> dict[str, int]:
    return {str(k): int(v) for k, v in frame.items() if v}


def test_dask_reads_the_parts_as_partitions_and_answers_as_duckdb(bundled_export) -> None:
    dd = pytest.importorskip("dask.dataframe")
    directory, manifest = bundled_export
    companies = dd.read_parquet(directory / "companies")
    assert companies.npartitions == len(manifest["tables"]["companies"]["files"])
    by_form = companies.groupby("legal_form", observed=True).size().compute()
    connection = register_sql.connect(directory)
    sql = dict(connection.sql("SELECT legal_form, count(*) FROM companies GROUP BY 1").fetchall())
    assert _legal_forms(by_form) == {k: v for k, v in sql.items() if v}
    # Dask reads text as pandas' "string" dtype (its dataframe.convert-string setting); the values are the table's
    expected = _table(directory, "companies")
    got = companies.compute().reset_index(drop=True)
    assert {str(got[c].dtype) for c in expected if str(expected[c].dtype) == "str"} == {"string"}
    pd.testing.assert_frame_equal(got.astype(expected.dtypes), expected)


def test_dask_on_a_distributed_cluster_of_local_workers(bundled_export) -> None:
    """The engine a team uses when one machine is not enough: the same question on a ``dask.distributed`` cluster
    of two worker processes (here on one machine), answered as DuckDB answers it."""
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    directory, _ = bundled_export
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
            mandates = dd.read_parquet(directory / "representatives", columns=["id", "company_id", "role"])
            serving = mandates[mandates["role"] != "SHAREHOLDER"]
            per_person = serving.groupby("id")["company_id"].nunique().compute()
    connection = register_sql.connect(directory)
    sql = dict(
        connection.sql(
            "SELECT id, count(DISTINCT company_id) FROM representatives WHERE role <> 'SHAREHOLDER' GROUP BY 1"
        ).fetchall()
    )
    assert {str(k): int(v) for k, v in per_person.items()} == sql
    assert max(sql.values()) > 1


# --- a world of real records --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def offeneregister_export(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    """The committed OffeneRegister sample imported and exported: ``(world, directory, manifest)``."""
    from regkit.local.world.offeneregister import import_offeneregister

    base = tmp_path_factory.mktemp("offeneregister-export")
    imported = import_offeneregister(default_data_dir() / "offeneregister" / "sample.jsonl.bz2", base / "world")
    manifest = export_world(base / "dataset", imported.directory, workers=2, ids_per_part=1000)
    return imported.directory, base / "dataset", manifest


def test_a_world_of_real_records_exports_every_company_and_officer(offeneregister_export) -> None:
    world, directory, manifest = offeneregister_export
    stored = WorldAnswers.open(world).world
    entries = sum(len(r["representation"]) for r in stored.companies.values())
    assert manifest["accounted"]["companies"] == {"store": len(stored.companies), "rows": len(stored.companies)}
    assert manifest["accounted"]["representation_entries"] == {"records": entries, "rows": entries}
    assert manifest["accounted"]["persons"]["rows"] == manifest["accounted"]["persons"]["store"] > 0
    assert manifest["left_out"] == {}
    assert manifest["world"]["source"] == "offeneregister" and "CC BY 4.0" in manifest["world"]["attribution"]
    assert manifest["tables"]["statements"]["rows"] == 0 and manifest["tables"]["owners"]["rows"] == 0
    assert len(_table(directory, "statements").columns) > 5  # an empty table keeps its columns


def test_duckdb_interlocks_equal_the_graphs_on_real_records(offeneregister_export) -> None:
    """Real officers: mandates without a start, of no day ([d, d): the import's officers of unknown start), ended."""
    world, directory, _ = offeneregister_export
    answers = WorldAnswers.open(world)
    companies = [a for part in answers.ranges("company", 10**9) for a in answers.answers(part)]
    found = register_sql.interlocks(register_sql.connect(directory))
    pd.testing.assert_frame_equal(found, rg.interlocks(rg.from_companies(companies)))
    assert len(found) > 0


# --- refusals and the command line ------------------------------------------------------------------------------


def test_bad_arguments_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValidationError, match="not empty"):
        export_world(tmp_path / "full")
    with pytest.raises(ValidationError, match="workers"):
        export_world(tmp_path / "out", workers=0)
    with pytest.raises(ValidationError, match="ids_per_part"):
        export_world(tmp_path / "out", ids_per_part=0)
    with pytest.raises(FileNotFoundError):
        export_world(tmp_path / "out", tmp_path / "full")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]  # nothing written, no staging left
    assert (tmp_path / "full" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_overwrite_replaces_a_previous_export(tmp_path: Path, offeneregister_export) -> None:
    world, _, _ = offeneregister_export
    target = tmp_path / "dataset"
    export_world(target, world, workers=1)
    first = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    again = export_world(target, world, workers=1, overwrite=True)
    assert again["exported_at"] >= first["exported_at"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dataset"]


def test_the_command_exports_a_world_and_says_what_it_wrote(tmp_path: Path, offeneregister_export) -> None:
    world, _, manifest = offeneregister_export
    out = tmp_path / "dataset"
    command = [sys.executable, "-m", "regkit", "world", "export", "parquet", str(world), str(out), "--workers", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    companies = manifest["accounted"]["companies"]["store"]
    assert f"of {companies:,} companies" in done.stdout and "representatives" in done.stdout
    assert "CC BY 4.0" in done.stdout
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["tables"]["companies"]["rows"] == companies
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and "not empty" in again.stderr and "--overwrite" in again.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "regkit", "world", "export", "parquet", str(tmp_path / "nope"), str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert missing.returncode == 2 and "no such directory" in missing.stderr and "'bundled'" in missing.stderr


def test_ctrl_c_stops_the_export_and_its_workers_at_once_and_leaves_nothing(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the command alone, as Jupyter's interrupt sends it to its kernel): the workers are stopped
    instead of finishing their parts, nothing is left at the target or beside it, and the command says so."""
    import os
    import signal
    import time

    psutil = pytest.importorskip("psutil")
    out = tmp_path / "dataset"
    command = [sys.executable, "-m", "regkit", "world", "export", "parquet", "bundled", str(out), "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(process.pid)
    deadline = time.monotonic() + 120
    workers: list = []
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        workers = [p for p in parent.children(recursive=True) if "python" in p.name().lower()]
    assert len(workers) >= 2, "the export never started its workers"
    time.sleep(1.0)  # the workers are making their first parts (the bundled world's take some 15 s)
    assert process.poll() is None
    os.kill(process.pid, signal.SIGINT)
    sent = time.monotonic()
    _, stderr = process.communicate(timeout=60)
    stopped_after = time.monotonic() - sent
    assert process.returncode == 130, stderr
    assert "stopped (Ctrl-C); nothing was written" in stderr and "Traceback" not in stderr
    assert stopped_after < 10, f"took {stopped_after:.1f} s to stop: the workers finished their parts first"
    psutil.wait_procs(workers, timeout=10)
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    assert list(tmp_path.iterdir()) == []  # no export, no staging directory
