"""The store's marks of derived members: built from ``derived.jsonl.gz`` (by the import as by :func:`build_store`),
read per company, rebuilt when that file changes, and old stores (format 4, without them) rebuilt, never served.

Expected values come from ``derived.jsonl.gz`` as the import wrote it, read here.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import sqlite3
from pathlib import Path

import pytest

from regkit.local.world import default_data_dir
from regkit.local.world.offeneregister import import_offeneregister, sample_file
from regkit.local.world.store import WORLD_FILES
from regkit.local.world.world_store import (
    OPTIONAL_FILES,
    RECORDS,
    STORE_FORMAT,
    StoredWorld,
    build_store,
    check_store,
    ensure_store,
    open_world,
    source_digest,
    source_stamps,
)
from regkit.schema.derived import parse_marks


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return import_offeneregister(sample_file(), tmp_path_factory.mktemp("derived") / "world", workers=2).directory


def _rows(world: Path) -> dict[str, list[str]]:
    with gzip.open(world / "derived.jsonl.gz", "rt", encoding="utf-8") as handle:
        return {row["id"]: row["derived"] for row in map(json.loads, handle)}


def _tables(store: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(store / RECORDS) as db:
        tables = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("derived", "derived_marks")}
    db.close()
    return tables


@pytest.mark.slow
def test_the_store_holds_each_companys_derived_members(imported: Path) -> None:
    rows = _rows(imported)
    world = StoredWorld(imported / "store")
    assert len(world.derived) == len(rows) == len(world.companies)  # every imported company derives something
    for company_id, members in rows.items():
        assert parse_marks(world.derived[company_id]) == frozenset(members)
    assert "DE-HRB-X0000-1" not in world.derived and world.derived.get("DE-HRB-X0000-1") is None
    assert list(world.derived) == sorted(rows)
    distinct = _tables(imported / "store")["derived_marks"]
    assert len(distinct) < len(rows) // 10  # a world's companies share a few values, each stored once
    assert json.loads((imported / "store" / "store.json").read_text())["counts"]["derived"] == len(rows)


@pytest.mark.slow
def test_the_import_and_a_build_from_the_files_write_the_same_marks(imported: Path, tmp_path: Path) -> None:
    again = build_store(imported, tmp_path / "again", processes=1)
    assert _tables(again) == _tables(imported / "store")


@pytest.mark.slow
def test_the_store_is_made_from_derived_jsonl_gz_too(imported: Path, tmp_path: Path) -> None:
    """The file is among the store's sources: changing it rebuilds the store, with the new marks."""
    names = [name for name, _, _ in source_stamps(imported)]
    assert names == [*WORLD_FILES, *OPTIONAL_FILES]
    world = tmp_path / "world"
    world.mkdir()
    for name in names:
        (world / name).write_bytes((imported / name).read_bytes())
    first = ensure_store(world)
    rows = _rows(world)
    company_id = sorted(rows)[7]
    rows[company_id] = ["incorporated_at"]
    with gzip.open(world / "derived.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps({"id": cid, "derived": members}) + "\n" for cid, members in rows.items())
    store = ensure_store(world)
    assert store == first and check_store(store)["source"]["sha256"] == source_digest(world)
    assert StoredWorld(store).derived[company_id] == "incorporated_at"
    (world / "derived.jsonl.gz").unlink()  # a world without it: no marks at all
    assert len(open_world(world).derived) == 0


def test_a_world_without_the_file_keeps_its_digest(tmp_path: Path) -> None:
    """The optional files come last and only when present: the bundled world's digest (the key of its store in the
    world cache) is the digest of its world files, as before they existed."""
    data = default_data_dir()
    total = hashlib.sha256()
    for name in WORLD_FILES:
        total.update(f"{name}\0{hashlib.sha256((data / name).read_bytes()).hexdigest()}\n".encode())
    assert source_digest(data) == total.hexdigest()
    assert [name for name, _, _ in source_stamps(data)] == list(WORLD_FILES)
    assert len(open_world(data).derived) == 0


@pytest.mark.slow
def test_a_store_of_the_former_format_is_rebuilt_with_the_marks(imported: Path, tmp_path: Path, caplog) -> None:
    """A store built before the marks (format 4: no ``derived`` table) is never served: it is rebuilt."""
    world = tmp_path / "world"
    world.mkdir()
    for name in (*WORLD_FILES, *OPTIONAL_FILES):
        (world / name).write_bytes((imported / name).read_bytes())
    store = build_store(world)
    manifest = json.loads((store / "store.json").read_text())
    with sqlite3.connect(store / RECORDS) as db:
        db.executescript("DROP TABLE derived; DROP TABLE derived_marks; VACUUM;")
    db.close()
    manifest.update(format=4, records_size=(store / RECORDS).stat().st_size)
    (store / "store.json").write_text(json.dumps(manifest))
    with caplog.at_level(logging.WARNING, logger="regkit.local.world_store"):
        rebuilt = ensure_store(world)
    assert "another format (4)" in caplog.text and "rebuilding it" in caplog.text
    assert check_store(rebuilt)["format"] == STORE_FORMAT == 5
    assert len(StoredWorld(rebuilt).derived) == len(_rows(world))


def test_a_damaged_derived_file_fails_the_build_and_says_which_line(imported: Path, tmp_path: Path) -> None:
    world = tmp_path / "world"
    world.mkdir()
    for name in WORLD_FILES:
        (world / name).write_bytes((imported / name).read_bytes())
    with gzip.open(world / "derived.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write('{"id": "DE-HRB-B1234-1", "derived": ["incorporated_at"]}\n{"id": "DE-HRB-B1234-2"}\n')
    with pytest.raises(ValueError, match=r"derived.jsonl.gz line 2 is not a company's derived members"):
        build_store(world, tmp_path / "store")
    assert not (tmp_path / "store").exists() and not list(tmp_path.glob(".store.*"))
    with gzip.open(world / "derived.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write('{"id": "DE-HRB-B1234-1", "derived": ["not a path"]}\n')
    with pytest.raises(ValueError, match="line 1 .*'not a path' is not a member path"):
        build_store(world, tmp_path / "store")


def test_a_store_without_a_table_of_its_format_is_rebuilt(imported: Path, tmp_path: Path, caplog) -> None:
    """A store whose manifest says this format but whose records file lacks one of its tables (a development build
    of the format) is not used: the register would fail on it."""
    world = tmp_path / "world"
    world.mkdir()
    for name in (*WORLD_FILES, *OPTIONAL_FILES):
        (world / name).write_bytes((imported / name).read_bytes())
    store = build_store(world)
    with sqlite3.connect(store / RECORDS) as db:
        db.executescript("DROP TABLE derived_marks; VACUUM;")
    db.close()
    manifest = json.loads((store / "store.json").read_text())
    manifest["records_size"] = (store / RECORDS).stat().st_size
    (store / "store.json").write_text(json.dumps(manifest))
    with caplog.at_level(logging.WARNING, logger="regkit.local.world_store"):
        rebuilt = ensure_store(world)
    assert "lacks the table(s) derived_marks" in caplog.text
    assert len(StoredWorld(rebuilt).derived) == len(_rows(world))
