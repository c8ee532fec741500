"""The store an OffeneRegister import builds while it writes the world's files is the store of those files.

The import's mapping workers stage each company's search index row as they map it, and the company index is built
from those rows while the import still merges and writes the files (:class:`~regkit.local.world.world_store.StoreBuild`).
These tests build the store again from the finished files alone (:func:`build_store`, one process) and compare
every table of the two company indexes, decompressed: the import must not index a record the files do not hold (a
second record of an id), nor miss one, nor number them differently.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from offeneregister_support import ROOT, sample_records, shifted, write_lines

from regkit.errors import RegkitError
from regkit.local import open_local_register
from regkit.local.record_codec import RecordCodec
from regkit.local.search.index_files import INDEX_FILES
from regkit.local.world.offeneregister import import_offeneregister
from regkit.local.world.world_store import RECORDS, SEARCH, StoreBuild, StoreError, build_store

pytestmark = pytest.mark.slow

_TABLES = (
    "company_columns",
    "company_labels",
    "company_text",
    "company_industry",
    "company_order",
    "company_bitmaps",
    "company_terms",
)


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return sample_records()


@pytest.fixture(scope="module")
def source(tmp_path_factory, records) -> Path:
    """The sample with a second record of one id further down (renamed: a different company, kept apart under a
    new id) and the first record of another id repeated at the end (merged)."""
    renamed = json.loads(json.dumps(records[7]))
    renamed["name"] = "Zweitschrift Dublette Kontrollname GmbH"
    renamed["previous_names"] = []  # no name in common with the first: a different company
    lines = [_line(r) for r in records]
    lines.insert(len(lines) // 2, _line(renamed))
    lines.append(_line(records[3]))
    return write_lines(tmp_path_factory.mktemp("dup") / "duplicates.jsonl.bz2", lines)


def _index_contents(path: Path) -> dict[str, Any]:
    """Every table of a company index file, the results decompressed and the FTS5 vocabulary listed."""
    copy = path.with_name(f"copy-{path.name}")
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    try:
        meta = dict(conn.execute("SELECT key, value FROM index_meta"))
        codec = RecordCodec(bytes.fromhex(meta.pop("dictionary")))
        contents: dict[str, Any] = {"meta": meta}
        contents["results"] = [
            (rowid, codec.decode(blob))
            for rowid, blob in conn.execute("SELECT rowid, result FROM companies ORDER BY rowid")
        ]
        conn.execute("CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, 'companies_fts', 'instance')")
        contents["fts"] = conn.execute(
            "SELECT term, doc, col, offset FROM temp.vocabulary ORDER BY 1, 2, 3, 4"
        ).fetchall()
        for table in _TABLES:
            contents[table] = sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
        return contents
    finally:
        conn.close()
        copy.unlink()


_RECORD_TABLES = (
    "meta",
    "companies",
    "realtime",
    "insolvencies",
    "shareholdings",
    "former_ids",
    "documents",
    "persons",
    "positions",
    "websites",
    "derived",
    "derived_marks",
)


def _records_contents(path: Path) -> dict[str, Any]:
    """Every table of a records file, its rows as stored (the records compressed with its dictionary)."""
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in _RECORD_TABLES}
    finally:
        conn.close()


@pytest.mark.parametrize("times", [1, 3])
def test_the_imported_records_file_is_the_one_the_files_give(tmp_path, records, times) -> None:
    """The import writes the records file as it merges (workers make each record's persons and positions rows;
    the dictionary is trained on the first lines): byte for byte the rows :func:`build_store` writes from the
    finished files, with fewer lines than the dictionary trains on and with more."""
    source = write_lines(tmp_path / "source.jsonl", shifted(records, times), compress=False)
    imported = import_offeneregister(source, tmp_path / "world", workers=2)
    again = build_store(imported.directory, tmp_path / "from-files", processes=1)
    ours, theirs = _records_contents(imported.store / RECORDS), _records_contents(again / RECORDS)
    assert len(ours["companies"]) == len(records) * times and len(ours["positions"]) > len(records) * times // 2
    for table in _RECORD_TABLES:
        assert ours[table] == theirs[table], table


@pytest.mark.parametrize("workers", [0, 2])
def test_the_imported_store_indexes_what_the_files_hold(tmp_path, source, records, workers) -> None:
    imported = import_offeneregister(source, tmp_path / "world", workers=workers)
    assert imported.report.counts["merged"] == 1 and imported.report.counts["kept_apart"] == 1
    assert not list(imported.directory.glob("company-rows-*")), "the staged rows are removed"
    assert not list(imported.directory.rglob("*.columns")), "the filter columns' scratch file is removed"
    again = build_store(imported.directory, tmp_path / "from-files", processes=1)

    ours = _index_contents(imported.store / SEARCH / INDEX_FILES["companies"])
    theirs = _index_contents(again / SEARCH / INDEX_FILES["companies"])
    assert ours["meta"]["size"] == str(len(records) + 1)
    for key in theirs:
        assert ours[key] == theirs[key], key
    names = {result["name"] for _, result in ours["results"]}
    assert "Zweitschrift Dublette Kontrollname GmbH" in names
    assert records[7]["name"] in names


def test_a_second_company_of_an_id_is_found_over_http_under_its_new_id(tmp_path, source, records) -> None:
    imported = import_offeneregister(source, tmp_path / "world", workers=2)
    register = open_local_register(data_dir=imported.directory, rate_limit=0)
    session = register.session(register.default_api_key)
    search = f"{register.base_url}/v1/search/company"
    second = session.post(search, json={"query": "Zweitschrift Dublette Kontrollname"})
    assert second.status_code == 200, second.text
    [found] = second.json()["results"]
    assert found["company_id"].endswith("ZA")
    lookup = session.get(f"{register.base_url}/v1/company/{found['company_id']}")
    assert lookup.status_code == 200 and lookup.json()["name"]["name"] == "Zweitschrift Dublette Kontrollname GmbH"
    first = session.post(search, json={"query": records[7]["name"]}).json()["results"]
    assert any(r["name"] == records[7]["name"] for r in first)


def test_a_file_without_one_company_fails_and_leaves_nothing(tmp_path) -> None:
    source = write_lines(tmp_path / "bad.jsonl.bz2", [b'{"all_attributes": {"_registerArt": "HRB", ', b"[1, 2]"])
    with pytest.raises(RegkitError, match="holds no OffeneRegister record"):
        import_offeneregister(source, tmp_path / "world", workers=2)
    assert not (tmp_path / "world").exists() and not list(tmp_path.glob("world.partial-*"))


def test_a_failing_company_index_process_fails_the_build_and_leaves_nothing(tmp_path, source) -> None:
    imported = import_offeneregister(source, tmp_path / "world", workers=0)
    garbage = tmp_path / "company-rows-garbage.sqlite"
    garbage.write_bytes(b"not an SQLite file, " * 100)
    target = tmp_path / "again"
    # the helper's own error reaches the caller, not only its exit code
    with pytest.raises(StoreError, match="search indexes .* failed: DatabaseError: file is not a database"):
        with StoreBuild(imported.directory, target, company_stages=[garbage]) as build:
            build.finish()
    assert not target.exists()
    assert not list(tmp_path.glob(".again.*")), "the building directory is removed"


def test_a_script_without_a_main_guard_imports_once(tmp_path, source) -> None:
    """A script that imports at its top level, without ``if __name__ == "__main__":``, imports once and succeeds.
    (The store's index process was a multiprocessing "spawn" process, which runs the caller's script again: such a
    script ran a second import inside it, then failed with "the process ended without a word".) The index process
    imports the script's regkit (found through the script's ``sys.path``), not a ``regkit`` in the working
    directory."""
    script = tmp_path / "import_at_top_level.py"
    world = tmp_path / "world"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(ROOT)!r})
            from regkit.local.world.offeneregister import import_offeneregister
            print("import started", flush=True)
            imported = import_offeneregister({str(source)!r}, {str(world)!r})
            print("imported", imported.report.imported, flush=True)
            """
        )
    )
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "regkit").mkdir(parents=True)
    (elsewhere / "regkit" / "__init__.py").write_text('raise ImportError("a decoy regkit in the working directory")\n')
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("import started") == 1, done.stdout
    assert (world / "store" / "store.json").is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["elsewhere", "import_at_top_level.py", "world"]
    register = open_local_register(data_dir=world, rate_limit=0)
    session = register.session(register.default_api_key)
    answer = session.post(f"{register.base_url}/v1/search/company", json={"query": "gmbh"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["pagination"]["total_results"] > 0


def test_building_the_store_of_a_missing_world_creates_nothing(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        build_store(tmp_path / "nowhere" / "world")
    assert not (tmp_path / "nowhere").exists()
